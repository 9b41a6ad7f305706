"""The switch ``experimental_enable_numpy_behavior`` turns on, and what it changes on tensors.

TensorFlow's switch is global and one-way. Here it is one engine-level flag with ``disable``
(tapegrad's own, for tests: the conformance replay puts tensors back as they were after each
case). Turned on, ``Tensor`` gains NumPy's methods (``.reshape``, ``.T``, ``.astype``...) and its
arithmetic operators promote dtypes as NumPy does (``int32 + float32 -> float64``) instead of
refusing mixed dtypes.
"""
from ..backend import host as np  # NumPy itself: TF-NumPy takes and names its dtypes

from .. import ops
from ..tensor import Tensor, constant
from ..variables import Variable

_state = {"enabled": False, "prefer_float32": False, "saved": {}}

ARITHMETIC = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul",
              "lt", "le", "gt", "ge")


def enabled():
    return _state["enabled"]


def prefer_float32():
    return _state["prefer_float32"]


def _weak_dtype(kind, other):
    """The dtype a Python value of NumPy kind ``kind`` ("b", "i", "f") takes beside a tensor of
    dtype ``other``: TF-NumPy lets Python numbers and lists of them keep the tensor's dtype when
    its kind holds them (``int32 + 1 -> int32``, ``float32 + 1.5 -> float32``)."""
    if kind == "b" or (kind == "i" and other.kind in "iuf") or (kind == "f" and other.kind in "fc"):
        return other
    return np.dtype(np.float64) if kind == "f" else None


def _dtype_of(value):
    """(dtype, weak): a tensor's or NumPy value's dtype; a Python value's, marked weak."""
    if isinstance(value, (Tensor, Variable)):
        return value._value.dtype, False
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype, False
    try:
        dtype = np.asarray(value).dtype
    except (TypeError, ValueError):
        return None, False
    if dtype.kind == "i":
        dtype = np.dtype(np.int64)     # Python ints: int64 on every platform (wasm32's is int32)
    return dtype, dtype.kind in "bif"


def promote(x, y):
    """``x`` and ``y`` as tensors of one dtype, NumPy's promotion of their dtypes (a Python value
    weak beside a tensor, as TF-NumPy's); unchanged where either is not numeric."""
    (dx, weak_x), (dy, weak_y) = _dtype_of(x), _dtype_of(y)
    if dx is None or dy is None or dx.kind in "OSUV" or dy.kind in "OSUV":
        return x, y
    if weak_x and not weak_y:
        dx = _weak_dtype(dx.kind, dy) or dx
    elif weak_y and not weak_x:
        dy = _weak_dtype(dy.kind, dx) or dy
    target = np.promote_types(dx, dy)
    if weak_x and weak_y and target == np.float64 and _state["prefer_float32"]:
        target = np.dtype(np.float32)
    return _as(x, target), _as(y, target)


def _as(value, dtype):
    if isinstance(value, (Tensor, Variable)):
        return value if value._value.dtype == dtype else ops.cast(value, dtype.name)
    return constant(np.asarray(value, dtype))


def _promoting(original):
    def operator(x, y):
        a, b = promote(x, y)
        return original(a, b)
    operator.__name__ = original.__name__
    return operator
