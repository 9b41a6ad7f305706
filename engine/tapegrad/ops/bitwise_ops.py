"""``tf.bitwise``: and, or, xor, invert and shifts on integer tensors (no gradient).

Shifts follow TensorFlow's CPU kernels where C leaves them undefined: the shift amount is
clamped into ``[0, width - 1]`` (so ``1 << 40`` in int32 is ``1 << 31``, and ``x << -1`` is
``x``); bits shifted past the top are dropped.
"""
from ..backend import xp
from ..ground import binary, unary
from ..table import defnondiff, primitive
from ..checks.dtype_rules import INTEGER
from .. import shape_rules
from ..table import defshape


def _shift_amount(x, y):
    """The shift amount clamped into ``[0, bit width - 1]``, as TensorFlow's kernels do."""
    bits = x.dtype.itemsize * 8
    y = y.astype(xp.int64) if y.dtype.kind == "u" else y
    return xp.clip(y, 0, bits - 1).astype(x.dtype)


def _left_shift(x, y):
    return xp.left_shift(x, _shift_amount(x, y))


def _right_shift(x, y):
    return xp.right_shift(x, _shift_amount(x, y))


BITWISE_AND = defnondiff(primitive("BitwiseAnd", xp.bitwise_and, dtypes=INTEGER))
defshape(BITWISE_AND, shape_rules.broadcasting)
BITWISE_OR = defnondiff(primitive("BitwiseOr", xp.bitwise_or, dtypes=INTEGER))
defshape(BITWISE_OR, shape_rules.broadcasting)
BITWISE_XOR = defnondiff(primitive("BitwiseXor", xp.bitwise_xor, dtypes=INTEGER))
defshape(BITWISE_XOR, shape_rules.broadcasting)
INVERT = defnondiff(primitive("Invert", xp.invert, dtypes=INTEGER))
defshape(INVERT, shape_rules.same)
LEFT_SHIFT = defnondiff(primitive("LeftShift", _left_shift, dtypes=INTEGER))
defshape(LEFT_SHIFT, shape_rules.broadcasting)
RIGHT_SHIFT = defnondiff(primitive("RightShift", _right_shift, dtypes=INTEGER))
defshape(RIGHT_SHIFT, shape_rules.broadcasting)


def bitwise_and(x, y, name=None):
    """Elementwise ``x & y`` of two integer tensors of one dtype.

    >>> import tapegrad as tf
    >>> tf.bitwise.bitwise_and(12, 10).numpy()
    8
    """
    return binary(BITWISE_AND, x, y)


def bitwise_or(x, y, name=None):
    """Elementwise ``x | y``.

    >>> import tapegrad as tf
    >>> tf.bitwise.bitwise_or(12, 10).numpy()
    14
    """
    return binary(BITWISE_OR, x, y)


def bitwise_xor(x, y, name=None):
    """Elementwise ``x ^ y``.

    >>> import tapegrad as tf
    >>> tf.bitwise.bitwise_xor(12, 10).numpy()
    6
    """
    return binary(BITWISE_XOR, x, y)


def invert(x, name=None):
    """Elementwise ``~x`` (every bit flipped).

    >>> import tapegrad as tf
    >>> tf.bitwise.invert(tf.constant([0, 5], tf.uint8)).numpy().tolist()
    [255, 250]
    """
    return unary(INVERT, x)


def left_shift(x, y, name=None):
    """Elementwise ``x << y`` (``y`` clamped into ``[0, bit width - 1]``).

    >>> import tapegrad as tf
    >>> tf.bitwise.left_shift([1, 2], 3).numpy().tolist()
    [8, 16]
    """
    return binary(LEFT_SHIFT, x, y)


def right_shift(x, y, name=None):
    """Elementwise ``x >> y``, arithmetic for signed types.

    >>> import tapegrad as tf
    >>> tf.bitwise.right_shift(-8, 1).numpy()
    -4
    """
    return binary(RIGHT_SHIFT, x, y)
