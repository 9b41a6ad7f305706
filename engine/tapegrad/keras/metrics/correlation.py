"""``R2Score`` (coefficient of determination per output, aggregated) and the per-example
correlations ``pearson_correlation`` / ``concordance_correlation`` with their mean metrics.

>>> import tapegrad as tf
>>> m = tf.keras.metrics.R2Score()
>>> round(float(m([[1.], [4.], [3.]], [[2.], [4.], [4.]])), 4)
0.5714
"""
import warnings

from ...backend import xp
from ...tensor import wrap
from .base import Metric, as_array, require_2d, same_rank
from .reduction import MeanMetricWrapper

_EPSILON = 1e-7


def _pair(y_true, y_pred):
    p = as_array(y_pred)
    if p.dtype.kind != "f" or not hasattr(y_pred, "dtype"):  # Python values become float32
        p = p.astype("float32")
    return same_rank(as_array(y_true, p.dtype), p)


def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's correlation of labels and predictions along ``axis``.

    >>> import tapegrad as tf
    >>> tf.keras.metrics.pearson_correlation([[0., 1., 2.]], [[0., 2., 4.]]).numpy().round(4)
    array([1.], dtype=float32)
    """
    t, p = _pair(y_true, y_pred)
    t = t - t.mean(axis=axis, keepdims=True)
    p = p - p.mean(axis=axis, keepdims=True)
    t = t / t.std(axis=axis, keepdims=True)
    p = p / p.std(axis=axis, keepdims=True)
    return wrap((t * p).mean(axis=axis))


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation along ``axis``, computed as Keras 3.15 does: its
    covariance term centres ``y_true`` on the mean of ``y_pred`` and the denominator gets
    ``1e-7``.

    >>> import tapegrad as tf
    >>> tf.keras.metrics.concordance_correlation([[0., 1., 2.]], [[0., 1., 2.]]).numpy().round(4)
    array([1.], dtype=float32)
    """
    t, p = _pair(y_true, y_pred)
    t_mean, p_mean = t.mean(axis=axis, keepdims=True), p.mean(axis=axis, keepdims=True)
    t_var, p_var = (t - t_mean).var(axis=axis, keepdims=True), \
        (p - p_mean).var(axis=axis, keepdims=True)
    covariance = (t - p_mean) * (p - p_mean)
    norm = t_var + p_var + xp.square(t_mean - p_mean)
    return wrap((2 * covariance / (norm + xp.asarray(_EPSILON, p.dtype))).mean(axis=axis))


class PearsonCorrelation(MeanMetricWrapper):
    """The mean over examples of ``pearson_correlation`` along ``axis``."""

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)


class ConcordanceCorrelation(MeanMetricWrapper):
    """The mean over examples of ``concordance_correlation`` along ``axis``."""

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)


_AGGREGATIONS = (None, "uniform_average", "variance_weighted_average")


class R2Score(Metric):
    """``1 - SS_res / SS_tot`` per output column over every batch seen, averaged uniformly,
    weighted by each column's variance, or returned per column (``class_aggregation=None``);
    ``num_regressors`` gives the adjusted score."""

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score",
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        if class_aggregation not in _AGGREGATIONS:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of "
                             f"{_AGGREGATIONS}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError(f"Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self.num_samples = self.add_variable((), dtype="int32", name="num_samples")
        self._built = False

    def _build(self, true_shape, pred_shape):
        n = require_2d("R2Score", true_shape, pred_shape)
        for state in ("squared_sum", "sum", "total_mse", "count"):
            setattr(self, state, self.add_variable((n,), name=state))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        dt = xp.dtype(self.dtype)
        t, p = same_rank(as_array(y_true, dt), as_array(y_pred, dt))
        if not self._built:
            self._build(t.shape, p.shape)
        w = xp.asarray(1, dt) if sample_weight is None else as_array(sample_weight, dt)
        if w.ndim == 1:
            w = w[:, None]
        w = xp.broadcast_to(w, t.shape)
        self.sum.assign_add((t * w).sum(axis=0, dtype=dt))
        self.squared_sum.assign_add((t * t * w).sum(axis=0, dtype=dt))
        self.total_mse.assign_add((xp.square(t - p) * w).sum(axis=0, dtype=dt))
        self.count.assign_add(w.sum(axis=0, dtype=dt))
        self.num_samples.assign_add(xp.int32(t.size))

    def result(self):
        if not self._built:
            raise ValueError("R2Score.result() called before update_state()")
        total_sum, count = self.sum._value, self.count._value
        with xp.errstate(divide="ignore", invalid="ignore"):
            mean = total_sum / count
            total = self.squared_sum._value - total_sum * mean
            raw = 1 - self.total_mse._value / total
        raw = xp.where(xp.isinf(raw), xp.asarray(0, raw.dtype), raw)
        if self.class_aggregation == "uniform_average":
            score = raw.mean()
        elif self.class_aggregation == "variance_weighted_average":
            score = (total * raw).sum() / total.sum()
        else:
            score = raw
        n, k = int(self.num_samples._value), self.num_regressors
        if k > n - 1:
            warnings.warn(f"More independent predictors than datapoints in adjusted R2 score. "
                          f"Falling back to standard R2 score. num_regressors={k}, "
                          f"num_samples={n}", stacklevel=2)
        elif k == n - 1:
            warnings.warn(f"Division by zero in adjusted R2 score. Falling back to standard "
                          f"R2 score. num_regressors={k}, num_samples={n}", stacklevel=2)
        elif k:
            score = 1 - (1 - score) * (n - 1) / (n - k - 1)
        return self._scalar(score)

    def get_config(self):
        return dict(super().get_config(), class_aggregation=self.class_aggregation,
                    num_regressors=self.num_regressors)
