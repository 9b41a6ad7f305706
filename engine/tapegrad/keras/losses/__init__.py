"""``tf.keras.losses``: every Keras loss as a function (one value per example) and as a class
(weighted by ``sample_weight`` and reduced over the batch: ``"sum_over_batch_size"`` by
default), with Keras's short names and ``get``.

>>> import tapegrad as tf
>>> float(tf.keras.losses.MeanSquaredError()([[0., 1.]], [[1., 1.]]))
0.5
>>> float(tf.keras.losses.get("mse")(tf.constant([1.0, 3.0]), tf.constant([2.0, 3.0])))
0.5
"""
from .. import serialization
from ..serialization import deserialize_keras_object, publish, serialize_keras_object
from .hinge import CategoricalHinge, Hinge, SquaredHinge, categorical_hinge, hinge, squared_hinge
from .loss import Loss, LossFunctionWrapper
from .probabilistic import (
    BinaryCrossentropy, BinaryFocalCrossentropy, CategoricalCrossentropy,
    CategoricalFocalCrossentropy, CategoricalGeneralizedCrossEntropy, KLDivergence, Poisson,
    SparseCategoricalCrossentropy, binary_crossentropy, binary_focal_crossentropy,
    categorical_crossentropy, categorical_focal_crossentropy,
    categorical_generalized_cross_entropy, kl_divergence, poisson,
    sparse_categorical_crossentropy,
)
from .regression import (
    CosineSimilarity, Huber, LogCosh, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredError, MeanSquaredLogarithmicError, cosine_similarity, huber, log_cosh,
    mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
    mean_squared_logarithmic_error,
)
from .segmentation import Dice, Tversky, dice, tversky
from .similarity import Circle, circle

# The short names tf.keras.losses exposes.
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh


class Reduction:
    """The reduction names of ``tf.keras.losses.Reduction`` (TF 2's enum, kept by tf.keras)."""
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


_CLASSES = [Loss, LossFunctionWrapper, KLDivergence, Poisson, BinaryCrossentropy,
            BinaryFocalCrossentropy, CategoricalCrossentropy, CategoricalFocalCrossentropy,
            SparseCategoricalCrossentropy, MeanSquaredError, MeanAbsoluteError,
            MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity, LogCosh,
            Huber, Hinge, SquaredHinge, CategoricalHinge, Dice, Tversky,
            CategoricalGeneralizedCrossEntropy, Circle]
_FUNCTIONS = [kl_divergence, poisson, binary_crossentropy, binary_focal_crossentropy,
              categorical_crossentropy, categorical_focal_crossentropy,
              sparse_categorical_crossentropy, mean_squared_error, mean_absolute_error,
              mean_absolute_percentage_error, mean_squared_logarithmic_error, cosine_similarity,
              log_cosh, huber, hinge, squared_hinge, categorical_hinge, dice, tversky,
              categorical_generalized_cross_entropy, circle]
# What ``get`` and ``deserialize`` know by name (Keras's table: classes, functions, and aliases).
BY_NAME = {obj.__name__: obj for obj in _CLASSES + _FUNCTIONS}
publish("keras.losses", BY_NAME)
_ALIASES = ("bce", "BCE", "kld", "KLD", "mae", "MAE", "mse", "MSE", "mape", "MAPE", "msle",
            "MSLE")
BY_NAME.update({"bce": binary_crossentropy, "BCE": binary_crossentropy, "kld": kl_divergence,
                "KLD": kl_divergence, "mae": mean_absolute_error, "MAE": mean_absolute_error,
                "mse": mean_squared_error, "MSE": mean_squared_error,
                "mape": mean_absolute_percentage_error, "MAPE": mean_absolute_percentage_error,
                "msle": mean_squared_logarithmic_error, "MSLE": mean_squared_logarithmic_error})


def serialize(loss):
    """A loss as Keras describes it: ``{"module", "class_name", "config", "registered_name"}``
    (a function's config is its name).

    >>> import tapegrad as tf
    >>> tf.keras.losses.serialize(tf.keras.losses.Huber())["class_name"]
    'Huber'
    >>> tf.keras.losses.serialize(tf.keras.losses.mse)["config"]
    'mean_squared_error'
    """
    return serialize_keras_object(loss)


def deserialize(config, custom_objects=None):
    """The loss a name or a ``serialize`` description stands for (a class name gives an object
    with the defaults). As in Keras, the short aliases (``"mse"``...) are refused here and an
    unknown name comes back unchanged.

    >>> import tapegrad as tf
    >>> tf.keras.losses.deserialize({"class_name": "Huber", "config": {"delta": 0.5}}).name
    'huber_loss'
    """
    if isinstance(config, str) and config in _ALIASES:
        raise ValueError(f"Could not deserialize 'keras.metrics.{config}' because it is not a "
                         f"KerasSaveable subclass")
    return deserialize_keras_object(config, custom_objects, module_objects=BY_NAME)


def get(identifier):
    """The loss an identifier names: a function or class name (a class is instantiated with its
    defaults), a serialized description, or a callable (returned as it is). ``None`` gives
    ``None``.

    >>> import tapegrad as tf
    >>> tf.keras.losses.get("binary_crossentropy").__name__
    'binary_crossentropy'
    >>> type(tf.keras.losses.get("Huber")).__name__
    'Huber'
    """
    return serialization.get(identifier, BY_NAME, "loss")
