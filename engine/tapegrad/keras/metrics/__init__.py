"""``tf.keras.metrics``: stateful metrics (``update_state`` / ``result`` / ``reset_state``) and
their per-example functions.

>>> import tapegrad as tf
>>> m = tf.keras.metrics.SparseCategoricalAccuracy()
>>> m.update_state([1, 0], [[0.1, 0.9], [0.3, 0.7]])
>>> float(m.result())
0.5
"""
from ...module import _snake
from .. import serialization
from ..serialization import deserialize_keras_object, publish, serialize_keras_object
from .base import Metric  # noqa: F401
from .reduction import Mean, MeanMetricWrapper, Sum  # noqa: F401
from .accuracy import (  # noqa: F401
    Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy, accuracy, binary_accuracy,
    categorical_accuracy, sparse_categorical_accuracy, sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy,
)
from .regression import MeanAbsoluteError, MeanSquaredError, RootMeanSquaredError  # noqa: F401
from .regression import mean_absolute_error as _mae, mean_squared_error as _mse
from .confusion import AUC, Precision, Recall  # noqa: F401
from .loss_metrics import (  # noqa: F401
    BinaryCrossentropy, CategoricalCrossentropy, CategoricalHinge, CosineSimilarity, Hinge,
    KLDivergence, LogCoshError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
    Poisson, SparseCategoricalCrossentropy, SquaredHinge,
)
from .confusion_counts import (  # noqa: F401
    FalseNegatives, FalsePositives, PrecisionAtRecall, RecallAtPrecision,
    SensitivityAtSpecificity, SpecificityAtSensitivity, TrueNegatives, TruePositives,
)
from .fbeta import F1Score, FBetaScore  # noqa: F401
from .correlation import (  # noqa: F401
    ConcordanceCorrelation, PearsonCorrelation, R2Score, concordance_correlation,
    pearson_correlation,
)
from .iou import BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU  # noqa: F401
from .functions import (  # noqa: F401
    KLD, MAE, MAPE, MSE, MSLE, binary_crossentropy, binary_focal_crossentropy,
    categorical_crossentropy, categorical_focal_crossentropy, categorical_hinge, hinge, huber,
    kld, kullback_leibler_divergence, logcosh, mae, mape, mse, msle, poisson,
    sparse_categorical_crossentropy, squared_hinge,
)

_FUNCTIONS = {
    "accuracy": accuracy, "binary_accuracy": binary_accuracy,
    "categorical_accuracy": categorical_accuracy,
    "sparse_categorical_accuracy": sparse_categorical_accuracy,
    "top_k_categorical_accuracy": top_k_categorical_accuracy,
    "sparse_top_k_categorical_accuracy": sparse_top_k_categorical_accuracy,
    # names compile() accepts, though tf.keras.metrics has no such functions in Keras 3
    "mean_squared_error": _mse, "mse": _mse, "mean_absolute_error": _mae, "mae": _mae,
}
_CLASSES = {cls.__name__: cls for cls in (
    Accuracy, AUC, BinaryAccuracy, CategoricalAccuracy, Mean, MeanAbsoluteError,
    MeanSquaredError, Precision, Recall, RootMeanSquaredError, SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy, Sum, TopKCategoricalAccuracy)}
_CLASSES.update({"auc": AUC, "precision": Precision, "recall": Recall,
                 "root_mean_squared_error": RootMeanSquaredError})
_MORE_CLASSES = (
    BinaryCrossentropy, BinaryIoU, CategoricalCrossentropy, CategoricalHinge,
    ConcordanceCorrelation, CosineSimilarity, F1Score, FBetaScore, FalseNegatives,
    FalsePositives, Hinge, IoU, KLDivergence, LogCoshError, MeanAbsolutePercentageError, MeanIoU,
    MeanSquaredLogarithmicError, OneHotIoU, OneHotMeanIoU, PearsonCorrelation, Poisson,
    PrecisionAtRecall, R2Score, RecallAtPrecision, SensitivityAtSpecificity,
    SparseCategoricalCrossentropy, SpecificityAtSensitivity, SquaredHinge, TrueNegatives,
    TruePositives)
# Keras's table: each class by its name and its snake-case name, and the short aliases.
_CLASSES.update({cls.__name__: cls for cls in _MORE_CLASSES})
_CLASSES.update({_snake(cls.__name__): cls for cls in _MORE_CLASSES})
_CLASSES.update({"bce": BinaryCrossentropy, "BCE": BinaryCrossentropy,
                 "mape": MeanAbsolutePercentageError, "MAPE": MeanAbsolutePercentageError,
                 "msle": MeanSquaredLogarithmicError, "MSLE": MeanSquaredLogarithmicError,
                 "MSE": MeanSquaredError, "MAE": MeanAbsoluteError})


BY_NAME = publish("keras.metrics", dict(_CLASSES, **_FUNCTIONS))


def get(identifier):
    """A metric function or a new ``Metric`` for a name, class or object.

    >>> import tapegrad as tf
    >>> tf.keras.metrics.get("mae").__name__
    'mean_absolute_error'
    """
    return serialization.get(identifier, BY_NAME, "metric")


def serialize(metric):
    """A metric as Keras describes it: ``{"module", "class_name", "config",
    "registered_name"}`` (a function's config is its name).

    >>> import tapegrad as tf
    >>> tf.keras.metrics.serialize(tf.keras.metrics.F1Score())["class_name"]
    'F1Score'
    """
    return serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """The metric a name or a ``serialize`` description stands for (a class name gives an
    object with the defaults).

    >>> import tapegrad as tf
    >>> tf.keras.metrics.deserialize({"class_name": "R2Score", "config": {}}).name
    'r2_score'
    """
    return deserialize_keras_object(config, custom_objects, module_objects=BY_NAME)
