"""``FBetaScore`` and ``F1Score``: per-class F-scores of 2-D multi-label (or one-hot)
predictions, optionally averaged (``"micro"``, ``"macro"``, ``"weighted"``).

>>> import tapegrad as tf
>>> m = tf.keras.metrics.F1Score(average="micro", threshold=0.5)
>>> float(m([[1, 0], [0, 1]], [[0.9, 0.2], [0.6, 0.4]]))
0.5
"""
from ...backend import xp
from .base import Metric, as_array, require_2d
from .confusion import _divide

_AVERAGES = (None, "micro", "macro", "weighted")


class FBetaScore(Metric):
    """``(1 + beta**2) * precision * recall / (beta**2 * precision + recall)`` per class.

    Without ``threshold`` each row's largest predictions count as positive; with it, those
    strictly above it do.
    """

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in _AVERAGES:
            raise ValueError(f"Invalid `average` argument value. Expected one of: "
                             f"{{None, 'micro', 'macro', 'weighted'}}. Received: "
                             f"average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. "
                             f"Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(f"Invalid `threshold` argument value. It should be a Python "
                                 f"float. Received: threshold={threshold} of type "
                                 f"'{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError(f"Invalid `threshold` argument value. It should verify "
                                 f"0 < threshold <= 1. Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, true_shape, pred_shape):
        n = require_2d("FBetaScore", true_shape, pred_shape)
        self.true_positives = self.add_variable((n,), name="true_positives")
        self.false_positives = self.add_variable((n,), name="false_positives")
        self.false_negatives = self.add_variable((n,), name="false_negatives")
        self.intermediate_weights = self.add_variable((n,), name="intermediate_weights")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        dt = xp.dtype(self.dtype)
        t, p = as_array(y_true, dt), as_array(y_pred, dt)
        if not self._built:
            self._build(t.shape, p.shape)
        if self.threshold is None:
            p = (p >= p.max(axis=-1, keepdims=True)).astype(dt)
        else:
            p = (p > self.threshold).astype(dt)
        w = None if sample_weight is None else as_array(sample_weight, dt)[:, None]

        def weighted_sum(v):
            return (v if w is None else v * w).sum(axis=0, dtype=dt)

        self.true_positives.assign_add(weighted_sum(p * t))
        self.false_positives.assign_add(weighted_sum(p * (1 - t)))
        self.false_negatives.assign_add(weighted_sum((1 - p) * t))
        self.intermediate_weights.assign_add(weighted_sum(t))

    def result(self):
        if not self._built:
            raise ValueError(f"{type(self).__name__}.result() called before update_state()")
        tp, fp = self.true_positives._value, self.false_positives._value
        fn = self.false_negatives._value
        if self.average == "micro":
            tp, fp, fn = tp.sum(), fp.sum(), fn.sum()
        precision, recall = _divide(tp, tp + fp), _divide(tp, tp + fn)
        b2 = xp.asarray(self.beta ** 2, tp.dtype)
        score = _divide(precision * recall, b2 * precision + recall) * (1 + b2)
        if self.average == "weighted":
            weights = self.intermediate_weights._value
            score = (score * _divide(weights, weights.sum())).sum()
        elif self.average is not None:
            score = score.mean()
        return self._scalar(score)

    def get_config(self):
        return dict(super().get_config(), average=self.average, beta=self.beta,
                    threshold=self.threshold)


class F1Score(FBetaScore):
    """``FBetaScore`` with ``beta=1``: ``2 * precision * recall / (precision + recall)``.

    >>> import tapegrad as tf
    >>> tf.keras.metrics.F1Score()([[1, 0], [0, 1]], [[0.9, 0.2], [0.6, 0.4]]).shape
    TensorShape([2])
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
