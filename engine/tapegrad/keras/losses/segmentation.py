"""Overlap losses for segmentation masks: Dice and Tversky (1 minus an overlap score, summed
over ``axis``; ``axis=None`` scores the whole batch as one).

>>> import tapegrad as tf
>>> round(float(tf.keras.losses.dice([[1.0, 0.0]], [[1.0, 0.0]])), 5)
0.0
"""
from ... import ops
from .loss import EPSILON, FunctionLoss, as_tensor, const


def _sum(x, axis):
    return ops.reduce_sum(x, axis=axis)


def dice(y_true, y_pred, axis=None):
    """``1 - 2 |T.P| / (|T| + |P| + epsilon)`` over ``axis``.

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.dice([[1.0, 1.0]], [[1.0, 0.0]])), 5)
    0.33333
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    intersection = _sum(ops.multiply(y_true, y_pred), axis)
    denominator = ops.add(ops.add(_sum(y_true, axis), _sum(y_pred, axis)), const(EPSILON, y_pred))
    score = ops.divide(ops.multiply(const(2.0, y_pred), intersection), denominator)
    return ops.subtract(const(1.0, score), score)


def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """``1 - TP / (TP + alpha FP + beta FN + epsilon)`` over ``axis`` (alpha = beta = 0.5 is
    Dice).

    >>> import tapegrad as tf
    >>> round(float(tf.keras.losses.tversky([[1.0, 1.0]], [[1.0, 0.0]])), 5)
    0.33333
    """
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    one = const(1.0, y_pred)
    intersection = _sum(ops.multiply(y_true, y_pred), axis)
    fp = _sum(ops.multiply(ops.subtract(one, y_pred), y_true), axis)
    fn = _sum(ops.multiply(y_pred, ops.subtract(one, y_true)), axis)
    denominator = ops.add(ops.add(ops.add(intersection, ops.multiply(fp, const(alpha, fp))),
                                  ops.multiply(fn, const(beta, fn))), const(EPSILON, fn))
    score = ops.divide(intersection, denominator)
    return ops.subtract(one, score)


class Dice(FunctionLoss):
    """The Dice loss, reduced over the batch when ``axis`` leaves one value per example."""
    _options = ("axis",)

    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)


class Tversky(FunctionLoss):
    """The Tversky loss: false positives weighted by ``alpha``, false negatives by ``beta``."""
    _options = ("alpha", "beta", "axis")

    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky",
                 axis=None, dtype=None):
        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha,
                         beta=beta, axis=axis)
