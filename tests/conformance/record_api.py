"""Records TensorFlow 2.21's public API listing for the coverage table (docs/coverage.md).

    .tf-venv/bin/python tests/conformance/record_api.py

Writes ``fixtures/tf_api.json``: for each namespace the coverage table follows, its public names
and what each is (function, class, module, constant).
"""
import inspect
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

NAMESPACES = [
    "tf", "tf.math", "tf.nn", "tf.linalg", "tf.signal", "tf.image", "tf.strings", "tf.sparse",
    "tf.ragged", "tf.random", "tf.data", "tf.data.experimental", "tf.errors", "tf.debugging",
    "tf.config", "tf.autodiff", "tf.autograph", "tf.nest", "tf.dtypes", "tf.bitwise",
    "tf.keras", "tf.keras.layers", "tf.keras.models", "tf.keras.losses", "tf.keras.metrics",
    "tf.keras.optimizers", "tf.keras.optimizers.schedules", "tf.keras.callbacks",
    "tf.keras.activations", "tf.keras.initializers", "tf.keras.regularizers",
    "tf.keras.datasets", "tf.keras.backend", "tf.io", "tf.saved_model", "tf.distribute",
    "tf.experimental.numpy", "tf.experimental.numpy.random",
    "tf.summary", "tf.train", "tf.experimental",
]


def kind(obj):
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "constant"


def listing(path, first_seen):
    """``{name: [kind, alias]}``: alias is the first "namespace.name" (in NAMESPACES order) that
    holds the same function or class, or None where this is that first place."""
    obj = tf
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    names = {}
    for name in sorted(dir(obj)):
        if name.startswith("_"):
            continue
        try:
            member = getattr(obj, name)
        except Exception:  # noqa: BLE001 - lazily loaded names that fail to load
            continue
        k = kind(member)
        alias = None
        if k in ("function", "class"):
            alias = first_seen.setdefault(id(member), f"{path}.{name}")
            if alias == f"{path}.{name}":
                alias = None
        names[name] = [k, alias]
    return names


def main():
    first_seen = {}
    doc = {"recorded_with": f"tensorflow {tf.__version__}",
           "namespaces": {ns: listing(ns, first_seen) for ns in NAMESPACES}}
    out = Path(__file__).resolve().parent / "fixtures" / "tf_api.json"
    out.write_text(json.dumps(doc, indent=1) + "\n")
    total = sum(len(v) for v in doc["namespaces"].values())
    print(f"{len(NAMESPACES)} namespaces, {total} names -> {out}")


if __name__ == "__main__":
    sys.exit(main())
