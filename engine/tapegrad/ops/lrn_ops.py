"""Local response normalization (``tf.nn.local_response_normalization``, ``tf.nn.lrn``).

Each entry is divided by ``(bias + alpha * sqr_sum) ** beta`` where ``sqr_sum`` sums the squares
of the ``2 * depth_radius + 1`` neighbouring channels (fewer at the edges). Composed from
differentiable ops, so its gradient is the exact derivative, as TensorFlow's LRNGrad computes.
"""
from .. import convert
from ..checks import check_dtype
from ..checks.dtype_rules import accepting, composite
from ..errors import InvalidArgumentError
from ..ground import add, multiply
from .array_ops import getitem
from .arithmetic_ops import realdiv
from .exponential_ops import pow, square
from .shape_ops import pad


LRN = composite("LRN", accepting("float16", "float32"))


def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,  # noqa: A002
                                 name=None):
    """``input / (bias + alpha * sum of squares over 2*depth_radius+1 channels) ** beta``.

    >>> import tapegrad as tf
    >>> round(float(tf.nn.lrn(tf.fill([1, 1, 1, 1], 2.0), 0, 1.0, 1.0, 0.5)[0, 0, 0, 0]), 4)
    0.8944
    """
    x = convert.tensor(input)
    check_dtype(LRN, x)
    return normalize_local_response(x, depth_radius, bias, alpha, beta)


def normalize_local_response(x, depth_radius, bias, alpha, beta):
    """The computation of ``local_response_normalization`` without TensorFlow's dtype rule
    (float32 and float16 only), so that float64 gradient checks can run it."""
    if x._value.ndim != 4:
        raise InvalidArgumentError("in must be 4-dimensional [Op:LRN]")
    r = int(depth_radius)
    if r < 0:
        raise InvalidArgumentError(f"depth_radius = {r} must be non-negative [Op:LRN]")
    c = x._value.shape[3]
    sq = pad(square(x), [[0, 0], [0, 0], [0, 0], [r, r]])
    window = getitem(sq, (Ellipsis, slice(0, c)))
    for shift in range(1, 2 * r + 1):            # one slice per neighbour, not per pixel
        window = add(window, getitem(sq, (Ellipsis, slice(shift, shift + c))))
    dtype = x._value.dtype
    scale = add(convert.tensor(dtype.type(bias)), multiply(convert.tensor(dtype.type(alpha)),
                                                            window))
    return realdiv(x, pow(scale, convert.tensor(dtype.type(beta))))


lrn = local_response_normalization
