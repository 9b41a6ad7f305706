"""``tf.print``: tensors written the way TensorFlow writes them.

The formatting is TensorFlow's (recorded in tests/conformance/cases/print_config.py): numbers
without a dtype suffix, floats in the shortest of 6 (float32) or 15 (float64) significant
digits that reads back exactly, else 9 or 17; booleans as 1/0; string elements quoted; each
axis longer than ``2 * summarize`` cut to its first and last ``summarize`` entries around
``...`` (``summarize=-1``: everything); nested lists, tuples and dicts as Python writes them
with their tensors inside.

One deliberate difference: TensorFlow's default stream is stderr; here it is ``sys.stdout``
(looked up at call time), so the playground's console shows what a program prints.
``output_stream=sys.stderr`` and ``"file://<path>"`` (appended to) work as in TensorFlow.
"""
import sys

from ..backend import to_host, xp
from ..replayed import replayed
from ..tensor import Tensor
from ..tensor_proto import c_escaped
from ..variables import Variable

_STREAM_ERROR = ("Unsupported output stream, logging level, or file.{}. Supported streams are "
                 "sys.stdout, sys.stderr, tf.logging.info, tf.logging.warning, "
                 "tf.logging.error. File needs to be in the form of 'file://<filepath>'.")


def _float_text(v, double):
    if xp.isnan(v):
        return "nan"
    if xp.isinf(v):
        return "inf" if v > 0 else "-inf"
    if double:
        v = float(v)
        text = "%.15g" % v
        return text if float(text) == v else "%.17g" % v
    f = xp.float32(v)
    text = "%.6g" % f
    return text if xp.float32(text) == f else "%.9g" % f


def _escape(b):
    """A string as ``tf.print`` writes it: C escapes, but no ``'`` or ``\\r`` escaped by name."""
    return c_escaped(b.encode("utf-8") if isinstance(b, str) else b, '"\\', "\n\t")


def _element(v, kind, double, quoted):
    if kind == "b":
        return "1" if v else "0"
    if kind == "f":
        return _float_text(v, double)
    if kind == "c":
        return "?"                            # TensorFlow prints complex elements as '?'
    if kind in "SUO":
        if not quoted:
            return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
        return '"' + _escape(v) + '"'
    return str(int(v))


def _summarized(n, limit):
    """Indices to show along an axis of length n (None marks the '...')."""
    if limit < 0 or n <= 2 * limit:
        return list(range(n))
    return list(range(limit)) + [None] + list(range(n - limit, n))


def format_array(a, summarize=3):
    """TensorFlow's text for an array (what ``tf.print`` writes for a tensor)."""
    a = to_host(a)   # text is made on the host (a device array is copied once)
    kind = a.dtype.kind
    double = a.dtype == xp.float64
    if a.ndim == 0:
        return _element(a[()], kind, double, quoted=False)
    if a.size == 0:
        return "[]" if a.shape[0] == 0 else "[" + "\n" * (a.ndim - 1) + " ...]"

    def level(x, depth):
        picks = _summarized(x.shape[0], summarize)
        if x.ndim == 1:
            return "[" + " ".join("..." if i is None else _element(x[i], kind, double, True)
                                  for i in picks) + "]"
        sep = "\n" * (x.ndim - 1) + " " * (depth + 1)
        return "[" + sep.join("..." if i is None else level(x[i], depth + 1) for i in picks) + "]"

    return level(a, 0)


def _text(value, summarize, top):
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, Tensor):
        return format_array(xp.asarray(value._value), summarize)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_text(v, summarize, False)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v, summarize, False) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(_text(v, summarize, False) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    return str(value) if top else repr(value)


def _write(text, stream):
    if stream is None:
        stream = sys.stdout
    if isinstance(stream, str):
        if stream.startswith("file://"):
            with open(stream[len("file://"):], "a", encoding="utf-8") as f:
                f.write(text)
            return
        raise ValueError(_STREAM_ERROR.format(stream))
    if stream not in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        raise ValueError(_STREAM_ERROR.format(stream))
    stream.write(text)
    if hasattr(stream, "flush"):
        stream.flush()


@replayed("PrintV2")           # (in a traced function: a node that prints on every call)
def print(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):  # noqa: A001
    """Prints tensors (and any Python values) as TensorFlow formats them; returns None.

    Writes to ``sys.stdout`` unless ``output_stream`` says otherwise (TensorFlow's default is
    stderr; stdout here so the playground shows it).

    >>> import tapegrad as tf
    >>> tf.print("x:", tf.constant([1.5, 2.0]), tf.range(10))
    x: [1.5 2] [0 1 2 ... 7 8 9]
    """
    summarize = 3 if summarize is None else int(summarize)
    text = sep.join(_text(v, summarize, True) for v in inputs) + end
    _write(text, output_stream)
