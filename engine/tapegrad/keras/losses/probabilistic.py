"""Probabilistic losses: the cross-entropies (binary, categorical, sparse, and their focal forms),
KL divergence and Poisson, as functions (one value per example) and classes.

Probabilities are clipped to ``[epsilon, 1 - epsilon]`` before logarithms; with
``from_logits=True`` the stable fused ops are used instead.

>>> import tapegrad as tf
>>> round(float(tf.keras.losses.BinaryCrossentropy()(tf.constant([[1.0, 0.0]]),
...                                                 tf.constant([[0.8, 0.4]]))), 5)
0.36698
"""
import warnings

from ... import ops
from .logits import logits_or_output
from .loss import EPSILON, FunctionLoss, as_tensor, const, mean_over_last_axis, rank


def _check_axis(axis):
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")


def _check_same_shape(target, output):
    if rank(target) != rank(output):
        raise ValueError(f"Arguments `target` and `output` must have the same rank (ndim). "
                         f"Received: target.shape={target.shape}, output.shape={output.shape}")
    for a, b in zip(target.shape, output.shape):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Arguments `target` and `output` must have the same shape. "
                             f"Received: target.shape={target.shape}, "
                             f"output.shape={output.shape}")


def _clip_probabilities(p):
    return ops.clip_by_value(p, const(EPSILON, p), const(1.0 - EPSILON, p))


def _smooth(y_true, label_smoothing, num_classes):
    """Labels moved towards the uniform distribution over ``num_classes``."""
    return ops.add(ops.multiply(y_true, const(1.0 - label_smoothing, y_true)),
                   const(label_smoothing / num_classes, y_true))


def _warn_single_class(name, y_pred):
    if len(y_pred.shape) and y_pred.shape[-1] == 1:
        warnings.warn(f"In loss {name}, expected y_pred.shape to be (batch_size, num_classes) "
                      f"with num_classes > 1. Received: y_pred.shape={y_pred.shape}. Consider "
                      f"using 'binary_crossentropy' if you only have 2 classes.", SyntaxWarning,
                      stacklevel=3)


def _elementwise_binary_crossentropy(target, output, from_logits):
    """``-(t log p + (1 - t) log(1 - p))`` per element (from logits: the fused op)."""
    _check_same_shape(target, output)
    output, from_logits = logits_or_output(output, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        return ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clip_probabilities(output)
    one = const(1.0, output)
    bce = ops.multiply(target, ops.log(output))
    bce = ops.add(bce, ops.multiply(ops.subtract(one, target), ops.log(ops.subtract(one, output))))
    return ops.negative(bce)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """The cross-entropy of independent binary labels, averaged over ``axis``.

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.binary_crossentropy([[1.0]], [[0.0]], from_logits=True)[0]),
    ...       5)
    0.69315
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = _smooth(y_true, label_smoothing, 2.0)
    return ops.reduce_mean(_elementwise_binary_crossentropy(y_true, y_pred, from_logits),
                           axis=axis)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy scaled by ``(1 - p_t) ** gamma``, which down-weights examples that
    are already classified well (and by ``alpha``/``1 - alpha`` with class balancing).

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.binary_focal_crossentropy([[1.0]], [[0.5]])[0]), 5)
    0.17329
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = _smooth(y_true, label_smoothing, 2.0)
    if from_logits:
        y_pred = ops.sigmoid(y_pred)
    bce = _elementwise_binary_crossentropy(y_true, y_pred, from_logits=False)
    one = const(1.0, y_pred)
    p_t = ops.add(ops.multiply(y_true, y_pred),
                  ops.multiply(ops.subtract(one, y_true), ops.subtract(one, y_pred)))
    focal = ops.multiply(ops.pow(ops.subtract(one, p_t), const(gamma, p_t)), bce)
    if apply_class_balancing:
        weight = ops.add(ops.multiply(y_true, const(alpha, y_true)),
                         ops.multiply(ops.subtract(one, y_true), const(1.0 - alpha, y_true)))
        focal = ops.multiply(weight, focal)
    return ops.reduce_mean(focal, axis=axis)


def _num_classes(y_true, axis):
    return float(y_true.shape[-1]) if len(y_true.shape) else 1.0


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """``-sum(y_true * log(p))`` over ``axis``, with ``p`` the predictions rescaled to sum to 1
    (from logits: their softmax).

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.categorical_crossentropy([[0.0, 1.0]], [[0.25, 0.75]])[0]),
    ...       5)
    0.28768
    """
    _check_axis(axis)
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    _warn_single_class("categorical_crossentropy", y_pred)
    if label_smoothing:
        y_true = _smooth(y_true, label_smoothing, _num_classes(y_true, axis))
    if rank(y_true) < 1:
        raise ValueError(f"Arguments `target` and `output` must be at least rank 1. Received: "
                         f"target.shape={y_true.shape}, output.shape={y_pred.shape}")
    _check_same_shape(y_true, y_pred)
    y_pred, from_logits = logits_or_output(y_pred, from_logits, "Softmax",
                                           "categorical_crossentropy")
    if from_logits:
        return ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = ops.divide(y_pred, ops.reduce_sum(y_pred, axis=axis, keepdims=True))
    p = _clip_probabilities(p)
    return ops.negative(ops.reduce_sum(ops.multiply(y_true, ops.log(p)), axis=axis))


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """Categorical cross-entropy with each class term scaled by ``alpha * (1 - p) ** gamma``.

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.categorical_focal_crossentropy([[0.0, 1.0]],
    ...                                                            [[0.5, 0.5]])[0]), 5)
    0.04332
    """
    _check_axis(axis)
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    _warn_single_class("categorical_focal_crossentropy", y_pred)
    if label_smoothing:
        y_true = _smooth(y_true, label_smoothing, _num_classes(y_true, axis))
    if from_logits:
        y_pred = ops.softmax(y_pred, axis=axis)
    p = ops.divide(y_pred, ops.reduce_sum(y_pred, axis=axis, keepdims=True))
    p = _clip_probabilities(p)
    cce = ops.multiply(ops.negative(y_true), ops.log(p))
    modulating = ops.pow(ops.subtract(const(1.0, p), p), const(gamma, p))
    focal = ops.multiply(ops.multiply(modulating, const(alpha, p)), cce)
    return ops.reduce_sum(focal, axis=axis)


def _sparse_values_and_mask(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    if not hasattr(y_true, "shape"):  # Keras reads y_true.shape before converting anything
        raise AttributeError(f"'{type(y_true).__name__}' object has no attribute 'shape'")
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true)
    if rank(y_true) == rank(y_pred) and y_true.shape[axis] == 1:
        y_true = ops.squeeze(y_true, axis)
    valid = None
    if ignore_class is not None:
        valid = ops.not_equal(y_true, const(ignore_class, y_true))
        y_true = ops.where(valid, y_true, ops.zeros_like(y_true))
        class_axis = axis % rank(y_pred)
        y_pred = ops.where(ops.broadcast_to(ops.expand_dims(valid, class_axis), y_pred.shape),
                           y_pred, ops.zeros_like(y_pred))
    if axis != -1 and axis != rank(y_pred) - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    y_pred, from_logits = logits_or_output(y_pred, from_logits, "Softmax",
                                           "sparse_categorical_crossentropy")
    labels = ops.cast(y_true, "int64")
    if rank(labels) == rank(y_pred) and labels.shape[-1] == 1:
        labels = ops.squeeze(labels, -1)
    if rank(y_pred) < 1:
        raise ValueError(f"Argument `output` must be at least rank 1. Received: "
                         f"output.shape={y_pred.shape}")
    if rank(labels) != rank(y_pred) - 1:
        raise ValueError(f"Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
                         f"target.shape={labels.shape}, output.shape={y_pred.shape}")
    for a, b in zip(labels.shape, y_pred.shape[:-1]):
        if a != b:
            raise ValueError(f"Arguments `target` and `output` must have the same shape up "
                             f"until the last dimension: target.shape={labels.shape}, "
                             f"output.shape={y_pred.shape}")
    logits = y_pred if from_logits else ops.log(_clip_probabilities(y_pred))
    values = ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    if valid is not None:
        valid = ops.reshape(valid, values.shape)
        values = ops.where(valid, values, ops.zeros_like(values))
    return values, valid


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None,
                                    axis=-1):
    """Categorical cross-entropy with integer class labels; labels equal to ``ignore_class``
    give 0.

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.sparse_categorical_crossentropy(
    ...     tf.constant([1]), tf.constant([[0.25, 0.75]]))[0]), 5)
    0.28768
    """
    return _sparse_values_and_mask(y_true, y_pred, from_logits, ignore_class, axis)[0]


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred), axis=-1)``, both clipped to ``[epsilon, 1]``.

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.kld([[0.5, 0.5]], [[0.25, 0.75]])[0]), 5)
    0.14384
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    y_true = ops.clip_by_value(y_true, const(EPSILON, y_true), const(1.0, y_true))
    y_pred = ops.clip_by_value(y_pred, const(EPSILON, y_pred), const(1.0, y_pred))
    return ops.reduce_sum(ops.multiply(y_true, ops.log(ops.divide(y_true, y_pred))), axis=-1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)``.

    >>> import tapegrad as tf
    >>> float(tf.keras.losses.poisson([[0.0]], [[2.0]])[0])
    2.0
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    log_pred = ops.log(ops.add(y_pred, const(EPSILON, y_pred)))
    return mean_over_last_axis(ops.subtract(y_pred, ops.multiply(y_true, log_pred)))


def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """``(1 - p_y ** q) / q`` with ``p_y`` the predicted probability of the integer label ``y``:
    cross-entropy as ``q`` approaches 0, mean absolute error at ``q = 1``, robust to noisy labels
    in between.

    >>> import tapegrad as tf
    >>> float(tf.keras.losses.categorical_generalized_cross_entropy(
    ...     tf.constant([1]), tf.constant([[0.75, 0.25]]), q=0.5)[0])
    1.0
    """
    y_pred = as_tensor(y_pred)
    labels = ops.cast(as_tensor(y_true), "int64")
    one_hot = ops.cast(ops.one_hot(labels, int(y_pred.shape[-1])), y_pred.dtype)
    p = ops.reduce_sum(ops.multiply(y_pred, one_hot), axis=-1)
    return ops.divide(ops.subtract(const(1.0, p), ops.pow(p, const(q, p))), const(q, p))


class BinaryCrossentropy(FunctionLoss):
    """Binary cross-entropy reduced over the batch.

    >>> import tapegrad as tf
    >>> bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    >>> round(float(bce(tf.constant([[1.0]]), tf.constant([[0.0]]))), 5)
    0.69315
    """
    _options = ("from_logits", "label_smoothing", "axis")

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class BinaryFocalCrossentropy(FunctionLoss):
    """Binary focal cross-entropy reduced over the batch."""
    _options = ("from_logits", "label_smoothing", "axis", "apply_class_balancing", "alpha",
                "gamma")

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_focal_crossentropy", dtype=None):
        super().__init__(binary_focal_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalCrossentropy(FunctionLoss):
    """Categorical cross-entropy (one-hot or soft labels) reduced over the batch.

    >>> import tapegrad as tf
    >>> cce = tf.keras.losses.CategoricalCrossentropy()
    >>> round(float(cce(tf.constant([[0.0, 1.0]]), tf.constant([[0.25, 0.75]]))), 5)
    0.28768
    """
    _options = ("from_logits", "label_smoothing", "axis")

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalFocalCrossentropy(FunctionLoss):
    """Categorical focal cross-entropy reduced over the batch."""
    _options = ("from_logits", "label_smoothing", "axis", "alpha", "gamma")

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_focal_crossentropy",
                 dtype=None):
        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(FunctionLoss):
    """Cross-entropy with integer labels reduced over the batch; with ``ignore_class`` those
    labels count neither in the sum nor in the number of examples.

    >>> import tapegrad as tf
    >>> scce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    >>> round(float(scce(tf.constant([1]), tf.constant([[0.0, 1.0986123]]))), 5)
    0.28768
    """
    _options = ("from_logits", "ignore_class")

    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 axis=-1, name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, from_logits=from_logits, ignore_class=ignore_class,
                         axis=axis)
        self.from_logits, self.ignore_class, self.axis = from_logits, ignore_class, axis

    def _values_and_mask(self, y_true, y_pred):
        if self.ignore_class is None:
            return self.call(y_true, y_pred), None
        y_true, y_pred = self.aligned(y_true, y_pred)
        return _sparse_values_and_mask(y_true, y_pred, self.from_logits, self.ignore_class,
                                       self.axis)


class KLDivergence(FunctionLoss):
    """Kullback-Leibler divergence reduced over the batch."""

    def __init__(self, reduction="sum_over_batch_size", name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)


class Poisson(FunctionLoss):
    """Poisson negative log-likelihood (without the constant term) reduced over the batch."""

    def __init__(self, reduction="sum_over_batch_size", name="poisson", dtype=None):
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)



class CategoricalGeneralizedCrossEntropy(FunctionLoss):
    """Generalized cross-entropy (``q`` in (0, 1)) with integer labels, reduced over the batch."""
    _options = ("q",)

    def __init__(self, q=0.5, reduction="sum_over_batch_size",
                 name="categorical_generalized_cross_entropy", dtype=None):
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(categorical_generalized_cross_entropy, name=name, reduction=reduction,
                         dtype=dtype, q=q)
