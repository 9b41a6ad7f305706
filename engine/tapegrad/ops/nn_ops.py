"""Neural-network ops composed from primitives (their gradients come from the table)."""
import math as _math

from ..backend import xp
from .. import convert
from .. import random as tf_random
from ..rng.streams import draw
from .. import checks
from ..checks import check_dtype
from ..errors import InvalidArgumentError
from ..ground import reduction_axes, reshape, scalar_like, zeros_of
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import defjvp, defvjp, elementwise, primitive
from ..checks.dtype_rules import FLOAT, FLOAT_COMPLEX, NUMBER, REAL, composite
from ..tensor import wrap
from .activation_ops import sigmoid
from .arithmetic_ops import (
    abs, add, cast, minimum, multiply, negative, realdiv, stop_gradient, subtract,
)
from .array_ops import expand_dims
from .conv_ops import avg_pool2d, conv2d, max_pool2d  # noqa: F401
from .exponential_ops import erf, exp, expm1, log, log1p, square
from .logic_ops import greater, greater_equal, less, logical_and, where
from .reduction_ops import reduce_max, reduce_mean, reduce_sum
from .trig_ops import tanh
from ..primitives import defbatched
from .. import batching
from .. import shape_rules
from ..table import defshape


def _python_axis(op, axis, x):
    """TensorFlow's softmax reads its axis in Python: a whole float naming the last axis works;
    any other axis is moved last with a transpose, whose permutation must be integers."""
    if not isinstance(axis, float):
        return axis
    rank = x._value.ndim
    if axis.is_integer() and int(axis) in (-1, rank - 1):
        return int(axis)
    raise checks.invalid("Transpose", f"{op}: axis must be an integer to move it last, got "
                                      f"{axis!r}", TypeError)


def _shifted(logits, axis, composed, op):
    """``logits`` less their maximum along ``axis`` (a constant to the gradient), and ``axis`` as
    a Python int, after ``composed``'s dtype check."""
    x = convert.tensor(logits)
    check_dtype(composed, x)
    axis = _python_axis(op, axis, x)
    rank = x._value.ndim
    if isinstance(axis, int) and not -rank <= axis < rank:
        raise InvalidArgumentError(f"`dim` must be in the range [{-rank}, {rank}) where {rank} "
                                   f"is the number of dimensions in the input. Received: "
                                   f"dim={axis}")
    return subtract(x, stop_gradient(reduce_max(x, axis=axis, keepdims=True))), axis


SOFTMAX = composite("Softmax", FLOAT)


def softmax(logits, axis=-1, name=None):
    """exp(x - max) / sum(exp(x - max)) along ``axis`` (the shift only guards against overflow)."""
    shifted, axis = _shifted(logits, axis, SOFTMAX, "softmax")
    e = exp(shifted)
    return e / reduce_sum(e, axis=axis, keepdims=True)


LOG_SOFTMAX = composite("LogSoftmax", FLOAT)


def log_softmax(logits, axis=-1, name=None):
    shifted, axis = _shifted(logits, axis, LOG_SOFTMAX, "log_softmax")
    return subtract(shifted, log(reduce_sum(exp(shifted), axis=axis, keepdims=True)))


BIAS_ADD = composite("BiasAdd", NUMBER)


def bias_add(value, bias, data_format=None, name=None):
    """Adds a 1-D ``bias`` along the channel axis (the last one; axis 1 for 'NC...' formats)."""
    x, b = convert.binary(value, bias, "BiasAdd")
    check_dtype(BIAS_ADD, x)
    if b._value.ndim != 1:
        raise ValueError(f"BiasAdd: bias must be 1-D, got shape {b.shape}")
    channel_first = data_format is not None and str(data_format).startswith("NC")
    axis = 1 if channel_first else -1
    if x._value.ndim < 2 or x._value.shape[axis] != b._value.shape[0]:
        raise InvalidArgumentError(f"Must provide as many biases as the channel dimension of the "
                                   f"input tensor: {b.shape} vs. {x.shape} [Op:BiasAdd]")
    if channel_first:
        b = reshape(b, (b._value.shape[0],) + (1,) * (x._value.ndim - 2))
    return add(x, b)


# ---------------------------------------------------------------------------------------------
# Activations. Kinks follow TensorFlow: relu6'(0) = relu6'(6) = 0, leaky_relu'(0) = alpha,
# elu'(0) = 1.
# ---------------------------------------------------------------------------------------------


def _float_tensor(x, op):
    """``x`` as a tensor that ``op`` accepts: TensorFlow's dtype rule where one is recorded
    (``op`` a primitive or a ``composite``), else floating point only (``op`` a name)."""
    x = convert.tensor(x)
    if not isinstance(op, str):
        check_dtype(op, x)
    elif x._value.dtype.kind not in "fc":
        raise TypeError(f"{op}: expected a floating-point tensor, got {x.dtype.name}")
    return x


RELU6 = elementwise("Relu6", lambda x: xp.clip(x, 0, 6).astype(x.dtype, copy=False),
                    lambda ans, x: cast(logical_and(greater(x, zeros_of(x)),
                                                    less(x, scalar_like(6, x))), x._value.dtype),
                    dtypes=REAL)


def relu6(features, name=None):
    """min(max(x, 0), 6); the gradient is 1 strictly inside (0, 6), else 0."""
    return bind(RELU6, (_float_tensor(features, RELU6),), {})


LEAKY_RELU = composite("LeakyRelu", REAL)


def leaky_relu(features, alpha=0.2, name=None):
    """x where x > 0, else alpha * x."""
    x = _float_tensor(features, LEAKY_RELU)
    if x._value.dtype.kind in "iu":          # TensorFlow computes integer inputs in float32
        x = cast(x, xp.float32)
    return where(greater(x, zeros_of(x)), x, multiply(scalar_like(alpha, x), x))


ELU = composite("Elu", FLOAT)


def elu(features, name=None):
    """x where x > 0, else exp(x) - 1."""
    x = _float_tensor(features, ELU)
    # expm1 of min(x, 0): the unused branch never overflows (no inf * 0 in the gradient)
    return where(greater(x, zeros_of(x)), x, expm1(minimum(x, zeros_of(x))))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


SELU = composite("Selu", FLOAT)


def selu(features, name=None):
    """scale * elu(x) with alpha = 1.6733 and scale = 1.0507 (self-normalizing)."""
    x = _float_tensor(features, SELU)
    neg = multiply(scalar_like(_SELU_ALPHA, x), expm1(minimum(x, zeros_of(x))))
    return multiply(scalar_like(_SELU_SCALE, x), where(greater(x, zeros_of(x)), x, neg))


def gelu(features, approximate=False, name=None):
    """x * Phi(x) with the normal CDF Phi (``approximate=True``: the tanh formula)."""
    x = convert.tensor(features)
    if x._value.dtype.kind != "f":           # TensorFlow checks this in Python: a ValueError
        raise ValueError(f"gelu: features must be a floating-point tensor, got {x.dtype.name}")
    half_x = multiply(scalar_like(0.5, x), x)
    if approximate:
        inner = multiply(scalar_like(_math.sqrt(2 / _math.pi), x),
                         add(x, multiply(scalar_like(0.044715, x), multiply(x, square(x)))))
        return multiply(half_x, add(scalar_like(1, x), tanh(inner)))
    return multiply(half_x, add(scalar_like(1, x), erf(multiply(x, scalar_like(1 / _math.sqrt(2), x)))))


SILU = composite("Silu", FLOAT_COMPLEX)


def silu(features, beta=1.0, name=None):
    """x * sigmoid(beta * x) (also called swish)."""
    x = _float_tensor(features, SILU)
    return multiply(x, sigmoid(multiply(scalar_like(beta, x), x)))


swish = silu


SOFTSIGN = composite("Softsign", FLOAT)


def softsign(features, name=None):
    """x / (1 + |x|)."""
    x = _float_tensor(features, SOFTSIGN)
    return realdiv(x, add(scalar_like(1, x), abs(x)))


# ---------------------------------------------------------------------------------------------
# Losses on logits (stable forms).
# ---------------------------------------------------------------------------------------------
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)), elementwise, for logits x and labels z."""
    if labels is None or logits is None:
        raise ValueError("sigmoid_cross_entropy_with_logits: both labels and logits must be given")
    x, z = convert.binary(logits, labels, "SigmoidCrossEntropyWithLogits")
    if x._value.shape != z._value.shape:
        raise ValueError(f"logits and labels must have the same shape ({x.shape} vs {z.shape})")
    nonneg = greater_equal(x, zeros_of(x))
    relu_x = where(nonneg, x, zeros_of(x))
    neg_abs = where(nonneg, negative(x), x)
    return add(subtract(relu_x, multiply(x, z)), log1p(exp(neg_abs)))


def _softmax_xent_impl(logits, labels, axis):
    # log-sum-exp shifted by the row maximum: -sum(z * log_softmax(x)) = sum(z * (lse - shifted))
    if logits.shape[axis] == 0:     # no classes: a loss of 0 per row, as TensorFlow
        return xp.zeros(xp.delete(xp.array(logits.shape), axis), logits.dtype)
    with xp.errstate(over="ignore", invalid="ignore", divide="ignore"):
        shifted = logits - logits.max(axis=axis, keepdims=True)
        lse = xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))
        return (labels * (lse - shifted)).sum(axis=axis).astype(logits.dtype, copy=False)


# One primitive, with TensorFlow's registered gradient: the logits get g * (softmax - labels)
# (the exact derivative would be g * (softmax * sum(labels) - labels); the two agree when each
# row of labels sums to 1), the labels get g * -log_softmax. Written with the engine's ops, so
# an outer tape sees softmax and log_softmax and second derivatives go through them, as in TF.
SOFTMAX_XENT = primitive("SoftmaxCrossEntropyWithLogits", _softmax_xent_impl, dtypes=FLOAT)
defvjp(SOFTMAX_XENT,   # (any rows of g, beyond ans, stay in front: the batched rule below)
       lambda g, ans, x, z, axis: multiply(expand_dims(g, axis + batching.lead_of(g, ans)),
                                           subtract(softmax(x, axis), z)),
       lambda g, ans, x, z, axis: multiply(expand_dims(g, axis + batching.lead_of(g, ans)),
                                           negative(log_softmax(x, axis))))
_XENT_RULE = SOFTMAX_XENT.vjp
defjvp(SOFTMAX_XENT,
       lambda t, ans, x, z, axis: reduce_sum(multiply(t, subtract(softmax(x, axis), z)), axis),
       lambda t, ans, x, z, axis: negative(reduce_sum(multiply(t, log_softmax(x, axis)), axis)))
kernels.fuse_softmax_xent_vjp(SOFTMAX_XENT)  # one pass for the logits while nothing records
defshape(SOFTMAX_XENT, shape_rules.without_axis)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) along ``axis``, as one op.

    The gradient is TensorFlow's: ``g * (softmax(logits) - labels)`` for the logits (exact when
    each row of labels sums to 1) and ``g * -log_softmax(logits)`` for the labels.

    >>> import tapegrad as tf
    >>> x = tf.constant([[0.0, 0.0]])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     loss = tf.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]], logits=x)
    >>> tape.gradient(loss, x).numpy().tolist()
    [[-0.5, 0.5]]
    """
    x, z = convert.binary(logits, labels, "SoftmaxCrossEntropyWithLogits")
    check_dtype(SOFTMAX_XENT, x)
    if x._value.shape != z._value.shape:
        raise InvalidArgumentError(f"logits and labels must be broadcastable: logits_size="
                                   f"{list(x.shape)} labels_size={list(z.shape)} "
                                   f"[Op:SoftmaxCrossEntropyWithLogits]")
    nd = x._value.ndim
    if nd == 0 or not -nd <= int(axis) < nd:
        raise InvalidArgumentError(f"softmax_cross_entropy_with_logits: axis {axis} is out of range "
                                   f"for logits of rank {nd} [Op:SoftmaxCrossEntropyWithLogits]")
    return bind(SOFTMAX_XENT, (x, z), {"axis": int(axis) % nd})


softmax_cross_entropy_with_logits_v2 = softmax_cross_entropy_with_logits


# ---------------------------------------------------------------------------------------------
# Dropout, moments.
# ---------------------------------------------------------------------------------------------
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zeroes each entry with probability ``rate`` and scales the rest by 1 / (1 - rate).

    The mask is a constant (drawn from ``tf.random``; repeatable with ``tf.random.set_seed`` and
    ``seed``), so the gradient is the same mask, scaled.
    """
    x = _float_tensor(x, "Dropout")
    rate = float(rate)
    if not 0 <= rate < 1:
        raise ValueError(f"dropout: 'rate' must be a scalar tensor or a float in the range [0, 1),"
                         f" got {rate}")
    noise_shape = None if noise_shape is None else tuple(int(d) for d in noise_shape)
    return multiply(x, _dropout_scale(x, noise_shape, rate, seed))


@draw("RandomUniform")
def _dropout_scale(x, noise_shape, rate, seed=None):
    """Dropout's factors for ``x``: 0 where an entry is dropped, 1 / (1 - rate) where it is
    kept (in a traced function, drawn again on every call, for that call's shape of ``x``)."""
    shape = tuple(x._value.shape) if noise_shape is None else noise_shape
    u = tf_random.uniform(shape, dtype=x.dtype, seed=seed)._value
    return wrap((u >= rate).astype(u.dtype) / u.dtype.type(1 - rate))


MOMENTS = composite("Moments", NUMBER)


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) over ``axes``.

    As in TensorFlow, the variance is taken around ``stop_gradient(mean)``: first derivatives are
    exact (d variance / d mean is zero), and second derivatives are TensorFlow's.
    """
    x = _float_tensor(x, MOMENTS)
    mean = reduce_mean(x, axis=axes, keepdims=True)
    d = subtract(x, stop_gradient(mean))
    if x._value.dtype.kind == "c":           # TensorFlow's squared difference: |d|^2
        d = cast(abs(d), x._value.dtype)
    variance = reduce_mean(square(d), axis=axes, keepdims=keepdims)
    if not keepdims:
        ax = reduction_axes(axes, x._value.ndim, "Moments")
        mean = reshape(mean, tuple(d for i, d in enumerate(x._value.shape)
                                   if ax is not None and i not in ax))
    return mean, variance



max_pool = max_pool2d
avg_pool = avg_pool2d


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
defbatched(SOFTMAX_XENT, _XENT_RULE)   # the rule beneath the fused kernel (which takes one row)
