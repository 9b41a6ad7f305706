"""The composite ops of ``tf.nn`` (built from primitives, with no rules of their own):
activations (selu, crelu, hard_sigmoid, relu6 on integers), normalization (l2_normalize,
batch_normalization) and moments from statistics, losses on logits and averaged per batch, and
embedding lookups.

Gradient conventions recorded from TensorFlow 2.21 (tests/conformance/cases/nn.py):
selu'(0) = scale (the positive branch, as elu'(0) = 1); hard_sigmoid'(-3) = hard_sigmoid'(3) = 0;
relu6 of an integer tensor is the integer clip (no gradient, as for every integer path).
"""
import math

from ..checks import check_dtype

from ..tensor import convert_to_tensor
from ..variables import Variable
from ..ground import add, multiply, reduce_sum
from .activation_ops import relu
from .arithmetic_ops import (
    abs, add_n, cast, divide_no_nan, maximum, minimum, negative, subtract,
)
from .array_ops import concat, ones_like, squeeze, zeros_like
from .exponential_ops import exp, expm1, log, log1p, reciprocal, rsqrt
from .indexing_ops import gather
from .logic_ops import greater_equal, logical_and, where
from .nn_ops import SELU, relu6 as _relu6_float
from .reduction_ops import clip_by_norm

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _float(x, op):
    x = _tensor(x)
    if not isinstance(op, str):  # TensorFlow's recorded dtypes for the op (a composite)
        check_dtype(op, x)
        return x
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"{op}: expected a floating-point tensor, got {x.dtype.name}")
    return x


def _c(value, like):
    return convert_to_tensor(value, dtype=like.dtype)


def relu6(features, name=None):
    """min(max(x, 0), 6); the gradient is 1 strictly inside (0, 6), else 0.

    >>> import tapegrad as tf
    >>> tf.nn.relu6([-1.0, 3.0, 8.0]).numpy().tolist()
    [0.0, 3.0, 6.0]
    """
    x = _tensor(features)
    if x.dtype.is_integer:
        return minimum(maximum(x, _c(0, x)), _c(6, x))
    return _relu6_float(x)


def selu(features, name=None):
    """scale * (x if x > 0 else alpha * (exp(x) - 1)), alpha = 1.6733, scale = 1.0507.

    >>> import tapegrad as tf
    >>> round(float(tf.nn.selu(1.0)), 4)
    1.0507
    """
    x = _float(features, SELU)
    zero = _c(0, x)
    negative_part = multiply(_c(_SELU_ALPHA, x), expm1(minimum(x, zero)))
    # x >= 0 picks the positive branch at 0 too: TensorFlow's selu'(0) is scale.
    return multiply(_c(_SELU_SCALE, x), where(greater_equal(x, zero), x, negative_part))


def crelu(features, axis=-1, name=None):
    """relu(x) and relu(-x) concatenated along ``axis`` (the output doubles that axis).

    >>> import tapegrad as tf
    >>> tf.nn.crelu([1.0, -2.0]).numpy().tolist()
    [1.0, 0.0, 0.0, 2.0]
    """
    x = _float(features, "CRelu")
    return concat([relu(x), relu(negative(x))], axis=axis)


def hard_sigmoid(x):
    """Keras's piecewise-linear sigmoid: relu6(x + 3) / 6 (0 below -3, 1 above 3).

    >>> import tapegrad as tf
    >>> tf.keras.activations.hard_sigmoid([-4.0, 0.0, 4.0]).numpy().tolist()
    [0.0, 0.5, 1.0]
    """
    x = _float(x, "HardSigmoid")
    return multiply(relu6(add(x, _c(3, x))), _c(1 / 6, x))


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x**2, axis), epsilon)).

    >>> import tapegrad as tf
    >>> tf.math.l2_normalize([3.0, 4.0]).numpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    x = _float(x, "L2Normalize")
    if axis is None:
        axis = dim
    square_sum = reduce_sum(multiply(x, x), axis=axis, keepdims=True)
    return multiply(x, rsqrt(maximum(square_sum, _c(epsilon, square_sum))))


def _softplus_of_negative(x):
    """log(1 + exp(-x)) computed without overflow: log1p(exp(-|x|)) + max(-x, 0)."""
    return add(log1p(exp(negative(abs(x)))), relu(negative(x)))


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy with the positive term weighted by ``pos_weight``:
    labels * -log(sigmoid(logits)) * pos_weight + (1 - labels) * -log(1 - sigmoid(logits)).

    >>> import tapegrad as tf
    >>> round(float(tf.nn.weighted_cross_entropy_with_logits(1.0, 0.0, 2.0)), 4)
    1.3863
    """
    logits = _float(logits, "WeightedCrossEntropyWithLogits")
    labels = convert_to_tensor(labels, dtype=logits.dtype) if not hasattr(labels, "dtype") \
        else _tensor(labels)
    if tuple(labels.shape) != tuple(logits.shape):
        raise ValueError(f"logits and labels must have the same shape ({logits.shape} vs "
                         f"{labels.shape})")
    one = _c(1, logits)
    log_weight = add(one, multiply(subtract(_c(pos_weight, logits), one), labels))
    return add(multiply(subtract(one, labels), logits),
               multiply(log_weight, _softplus_of_negative(logits)))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets, plus (``compute_full_loss``) Stirling's term
    targets * log(targets) - targets + 0.5 * log(2 pi targets) where targets > 1.

    >>> import tapegrad as tf
    >>> float(tf.nn.log_poisson_loss(1.0, 0.0))
    1.0
    """
    log_input = _float(log_input, "LogPoissonLoss")
    targets = _tensor(targets) if hasattr(targets, "dtype") else \
        convert_to_tensor(targets, dtype=log_input.dtype)
    if tuple(targets.shape) != tuple(log_input.shape):
        raise ValueError(f"log_input and targets must have the same shape ({log_input.shape} vs "
                         f"{targets.shape})")
    result = subtract(exp(log_input), multiply(log_input, targets))
    if compute_full_loss:
        stirling = add(subtract(multiply(targets, log(targets)), targets),
                       multiply(_c(0.5, targets), log(multiply(_c(2 * math.pi, targets), targets))))
        zeros = zeros_like(targets)
        small = logical_and(greater_equal(targets, zeros), greater_equal(_c(1, targets), targets))
        result = add(result, where(small, zeros, stirling))
    return result


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + epsilon) + offset (``offset``/``scale`` may be None).

    >>> import tapegrad as tf
    >>> tf.nn.batch_normalization([1.0, 3.0], 2.0, 1.0, None, None, 0.0).numpy().tolist()
    [-1.0, 1.0]
    """
    x = _float(x, "BatchNormalization")
    mean = _tensor(mean) if hasattr(mean, "dtype") else convert_to_tensor(mean, dtype=x.dtype)
    variance = _tensor(variance) if hasattr(variance, "dtype") else \
        convert_to_tensor(variance, dtype=x.dtype)
    inv = rsqrt(add(variance, _c(variance_epsilon, variance)))
    if scale is not None:
        inv = multiply(inv, _tensor(scale) if hasattr(scale, "dtype") else _c(scale, x))
    shift = negative(multiply(mean, inv))
    if offset is not None:
        shift = add(_tensor(offset) if hasattr(offset, "dtype") else _c(offset, x), shift)
    return add(multiply(x, cast(inv, x.dtype)), cast(shift, x.dtype))


def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of ``params`` picked by ``ids`` (``tf.gather`` on axis 0; the gradient of a variable
    is an ``IndexedSlices``, as in TensorFlow).

    >>> import tapegrad as tf
    >>> tf.nn.embedding_lookup([[1.0], [2.0], [3.0]], [2, 0]).numpy().tolist()
    [[3.0], [1.0]]
    """
    if isinstance(params, (list, tuple)) and params and isinstance(params[0], Variable):
        if len(params) != 1:
            raise NotImplementedError("embedding_lookup: sharded params (a list of several "
                                      "variables) are not supported")
        params = params[0]
    rows = gather(params, ids)
    if max_norm is not None:
        rows = clip_by_norm(rows, max_norm, axes=[-1])
    return rows


# -- moments from statistics, and losses averaged for a (global) batch --------------------------------
def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """``(count, sum, sum of squares, shift)`` over ``axes`` (shifted by ``shift`` if given).

    >>> import tapegrad as tf
    >>> [float(t) for t in tf.nn.sufficient_statistics([1.0, 3.0], axes=[0])[:3]]
    [2.0, 4.0, 10.0]
    """
    x = _float(x, "SufficientStatistics")
    axes = [a % x._value.ndim for a in ([axes] if isinstance(axes, int) else axes)]
    count = 1
    for a in axes:
        count *= x._value.shape[a]
    centered = x if shift is None else subtract(x, _c(shift, x) if not hasattr(shift, "dtype")
                                                else _tensor(shift))
    mean_ss = reduce_sum(centered, axis=axes, keepdims=keepdims)
    var_ss = reduce_sum(multiply(centered, centered), axis=axes, keepdims=keepdims)
    return _c(count, x), mean_ss, var_ss, (None if shift is None else _tensor(shift))


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """``(mean, variance)`` from ``sufficient_statistics``' sums."""
    counts, mean_ss, variance_ss = (_tensor(t) for t in (counts, mean_ss, variance_ss))
    divisor = reciprocal(counts)
    shifted_mean = multiply(mean_ss, divisor)
    mean = shifted_mean if shift is None else add(shifted_mean, _tensor(shift))
    variance = subtract(multiply(variance_ss, divisor), multiply(shifted_mean, shifted_mean))
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """``(mean, variance)`` over ``axes`` with each entry counted ``frequency_weights`` times."""
    x = _float(x, "WeightedMoments")
    w = _tensor(frequency_weights) if hasattr(frequency_weights, "dtype") else \
        _c(frequency_weights, x)
    total = reduce_sum(multiply(w, ones_like(x)), axis=axes, keepdims=True)
    divisor = divide_no_nan(ones_like(total), total)
    mean = multiply(reduce_sum(multiply(w, x), axis=axes, keepdims=True), divisor)
    centered = subtract(x, mean)
    variance = multiply(reduce_sum(multiply(w, multiply(centered, centered)), axis=axes,
                                   keepdims=True), divisor)
    if not keepdims:
        mean = squeeze(mean, axis=axes)
        variance = squeeze(variance, axis=axes)
    return mean, variance


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None,
                         name=None):
    """The per-example losses (times ``sample_weight``) summed and divided by the global batch
    size (by default the number of examples: one replica here).

    >>> import tapegrad as tf
    >>> float(tf.nn.compute_average_loss([1.0, 3.0], global_batch_size=4))
    1.0
    """
    losses = _float(per_example_loss, "compute_average_loss")
    if sample_weight is not None:
        losses = multiply(losses, _tensor(sample_weight) if hasattr(sample_weight, "dtype")
                          else _c(sample_weight, losses))
    size = global_batch_size
    if size is None:
        size = losses._value.shape[0] if losses._value.ndim else 1
    return multiply(reduce_sum(losses), _c(1.0 / float(size), losses))


def scale_regularization_loss(regularization_loss, name=None):
    """The regularization loss (a tensor or a list summed) divided by the number of replicas
    (one here)."""
    if isinstance(regularization_loss, (list, tuple)):
        return add_n([_tensor(t) for t in regularization_loss])
    return _tensor(regularization_loss)
