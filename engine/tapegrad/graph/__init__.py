"""The tape as a graph: model (a small DAG; networkx on request), layout, animation events,
exports and explanations.

>>> import tapegrad as tf
>>> from tapegrad import graph
>>> with graph.capture() as cap:
...     x = tf.Variable(3.0, name="x")
...     with tf.GradientTape() as tape:
...         y = x * x
...     _ = tape.gradient(y, x)
>>> doc = cap.to_dict()
>>> sorted(n["kind"] for n in doc["nodes"])
['op', 'tensor', 'variable']
"""
from .explain import Reason, explain  # noqa: F401
from .provenance import Provenance, provenance_of  # noqa: F401

_ON_FIRST_USE = {"Capture": "capturing", "capture": "capturing", "build_graph": "model"}


def __getattr__(name):
    """``Capture``, ``capture`` and ``build_graph`` are imported on first use, so that ``import
    tapegrad`` (which installs the provenance recorder) does not pay for the export (nor
    ``build_graph`` for networkx)."""
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'tapegrad.graph' has no attribute {name!r}")
    import importlib  # lazy: the export (allowed in test_import_layers)
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
