"""The tape as a graph: model (networkx), layout, animation events, exports and explanations.

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
from .capture import Capture, capture  # noqa: F401
from .explain import Reason, explain  # noqa: F401
from .model import build_graph  # noqa: F401
