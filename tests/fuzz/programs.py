"""Fuzz programs as plain JSON data, and running one under a given ``tf`` module.

A program is a dict with a ``kind`` and its parameters; the same runner serves TensorFlow with
Keras 3 (``record.py``) and tapegrad (``test_fuzz.py``), and ``outcome.run`` describes what it gave:

- ``layer``: ``{"layer": "Dense", "config": {...}, "input": tensor, "training": bool|None}``: the
  layer is built on the input, its weights are set to fixed values of the shapes it made (so both
  libraries compute with the same numbers), and it is called again; the outcome is the weights'
  shapes and the output.
- ``dataset``: ``{"source": tensor, "ops": [[name, {kwargs}], ...]}``: ``from_tensor_slices`` then
  each transformation; the outcome is the cardinality, the element spec's shapes and dtypes and the
  first ``MAX_ELEMENTS`` elements.
- ``strings``: ``{"op": name, "input": strings or tensor, "kwargs": {...}}``: one ``tf.strings``
  (or related) call on byte strings, invalid UTF-8 included.
- ``function``: ``{"body": name, "signature": [[shape, dtype], ...] | None, "reduce_retracing":
  bool, "calls": [[arg, ...], ...]}``: a ``tf.function`` called several times; the outcome is each
  call's result (or error class) and the tracing count.

A tensor is ``{"t": dtype, "s": shape, "v": flat values}``; byte strings are ``{"bytes": [hex,
...], "s": shape}``.
"""
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import outcome  # noqa: E402  (describe and compare, shared with the conformance harness)

MAX_ELEMENTS = 64


def make_tensor(tf, spec):
    import numpy as np
    if "bytes" in spec:
        values = [bytes.fromhex(h) for h in spec["bytes"]]
        return tf.constant(np.array(values, dtype=object).reshape(spec["s"]))
    return tf.constant(np.array(spec["v"], dtype=spec["t"]).reshape(spec["s"]), dtype=spec["t"])


def _arg(tf, a):
    if isinstance(a, dict) and ("t" in a or "bytes" in a):
        return make_tensor(tf, a)
    if isinstance(a, dict) and set(a) == {"str"}:
        return a["str"]
    return a


# ---- layers ----

def _fixed(shape):
    """The fixed weight values of a shape: 0.1 .. 0.7, never zero (variances stay positive)."""
    import numpy as np
    n = int(np.prod(shape)) if shape else 1
    return ((np.arange(n) % 7 + 1) * 0.1).astype("float32").reshape(shape)


def run_layer(tf, p):
    import numpy as np
    layer = getattr(tf.keras.layers, p["layer"])(**p["config"])
    x = make_tensor(tf, p["input"])
    kwargs = {} if p.get("training") is None else {"training": p["training"]}
    layer(x, **kwargs)
    shapes = [list(np.shape(w)) for w in layer.get_weights()]
    layer.set_weights([_fixed(s) for s in shapes])
    return {"weights": shapes, "output": layer(x, **kwargs)}


# ---- datasets ----

def _maps(tf):
    def square(*xs):
        return xs[0] * xs[0] if len(xs) == 1 else tuple(x * x for x in xs)

    def plus_one(*xs):
        return xs[0] + 1 if len(xs) == 1 else tuple(x + 1 for x in xs)

    def pair(*xs):
        return xs[0], xs[0] * 2

    def first(*xs):
        return xs[0]

    def total(*xs):
        return tf.reduce_sum(xs[0])
    return {"square": square, "plus_one": plus_one, "pair": pair, "first": first, "total": total}


def _predicates(tf):
    return {"positive": lambda *xs: tf.reduce_sum(xs[0]) > 0,
            "not_zero": lambda *xs: tf.reduce_any(tf.not_equal(xs[0], 0)),
            "never": lambda *xs: tf.constant(False)}


def _apply(tf, ds, name, kw):
    kw = dict(kw)
    if name == "map":
        return ds.map(_maps(tf)[kw.pop("fn")], **kw)
    if name == "filter":
        return ds.filter(_predicates(tf)[kw.pop("fn")])
    if name == "concatenate_self":
        return ds.concatenate(ds)
    if name == "zip_self":
        return tf.data.Dataset.zip((ds, ds))
    return getattr(ds, name)(**kw)


def _spec(s):
    import numpy as np
    if isinstance(s, (tuple, list)):
        return [_spec(x) for x in s]
    shape = s.shape
    dims = None if shape.rank is None else [d if d is None else int(d) for d in shape.as_list()]
    return [dims, np.dtype(s.dtype.as_numpy_dtype).name if s.dtype.name != "string" else "string"]


def run_dataset(tf, p):
    ds = tf.data.Dataset.from_tensor_slices(make_tensor(tf, p["source"]))
    for name, kw in p["ops"]:
        ds = _apply(tf, ds, name, kw)
    elements = list(itertools.islice(ds.as_numpy_iterator(), MAX_ELEMENTS))
    return {"cardinality": int(ds.cardinality()), "spec": _spec(ds.element_spec),
            "elements": elements}


# ---- strings ----

STRING_OPS = {  # op name -> attribute path under tf
    "length": "strings.length", "substr": "strings.substr", "upper": "strings.upper",
    "lower": "strings.lower", "strip": "strings.strip", "split": "strings.split",
    "reduce_join": "strings.reduce_join", "regex_replace": "strings.regex_replace",
    "regex_full_match": "strings.regex_full_match", "as_string": "strings.as_string",
    "to_number": "strings.to_number", "unicode_decode": "strings.unicode_decode",
    "hash_bucket_fast": "strings.to_hash_bucket_fast", "join": "strings.join",
    "bytes_split": "strings.bytes_split", "unicode_split": "strings.unicode_split",
    "reduce_sum": "reduce_sum",
}


def run_strings(tf, p):
    target = tf
    for part in STRING_OPS[p["op"]].split("."):
        target = getattr(target, part)
    kwargs = {k: (getattr(tf, v["dtype"]) if isinstance(v, dict) and "dtype" in v else v)
              for k, v in p.get("kwargs", {}).items()}
    if p["op"] == "join":
        return target([make_tensor(tf, a) for a in p["input"]], **kwargs)
    return target(make_tensor(tf, p["input"]), **kwargs)


# ---- tf.function ----

def _bodies(tf):
    return {
        "double": lambda x: x * 2,
        "total": lambda x: tf.reduce_sum(x),
        "shape": lambda x: tf.shape(x),
        "scale": lambda x, n: x * n,
        "length": lambda s: tf.strings.length(s),
        "first_row": lambda x: x[0],
    }


def _described_call(f, tf, args):
    try:
        return outcome.describe(f(*[_arg(tf, a) for a in args]))
    except Exception as e:  # noqa: BLE001 - each call's error is part of the outcome
        return {"error": type(e).__name__}


def run_function(tf, p):
    signature = None
    if p.get("signature") is not None:
        signature = [tf.TensorSpec(shape, getattr(tf, dtype)) for shape, dtype in p["signature"]]
    f = tf.function(_bodies(tf)[p["body"]], input_signature=signature,
                    reduce_retracing=p.get("reduce_retracing", False))
    results = [_described_call(f, tf, args) for args in p["calls"]]
    return {"results": results, "traces": f.experimental_get_tracing_count()}


RUNNERS = {"layer": run_layer, "dataset": run_dataset, "strings": run_strings,
           "function": run_function}


def outcome_of(tf, program):
    """The described outcome of ``program`` (value or error), as the fixtures hold it."""
    return outcome.run(lambda tf_: RUNNERS[program["kind"]](tf_, program), tf)
