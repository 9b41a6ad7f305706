"""Weight and activity regularizers: ``L1``, ``L2``, ``L1L2`` (and ``l1``, ``l2``, ``l1_l2``).

A regularizer maps a tensor to a scalar penalty; layers add it to ``layer.losses``.

>>> import tapegrad as tf
>>> float(tf.keras.regularizers.L2(0.5)(tf.constant([1.0, 2.0])))
2.5
"""
from . import serialization
from .serialization import deserialize_keras_object, publish, serialize_keras_object
from ..ops import abs as _abs, reduce_sum, square
from ..tensor import convert_to_tensor


class Regularizer:
    """The base: ``__call__(x)`` returns a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _factor(value, name):
    value = float(value)
    if value < 0 or value != value:
        raise ValueError(f"Value for argument `{name}` must be a non-negative float; "
                         f"received: {name}={value}")
    return value


class L1(Regularizer):
    """``l1 * reduce_sum(abs(x))``."""

    def __init__(self, l1=0.01):
        self.l1 = _factor(l1, "l1")

    def __call__(self, x):
        return self.l1 * reduce_sum(_abs(convert_to_tensor(x)))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * reduce_sum(square(x))``."""

    def __init__(self, l2=0.01):
        self.l2 = _factor(l2, "l2")

    def __call__(self, x):
        return self.l2 * reduce_sum(square(convert_to_tensor(x)))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """``l1 * reduce_sum(abs(x)) + l2 * reduce_sum(square(x))``."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _factor(l1, "l1"), _factor(l2, "l2")

    def __call__(self, x):
        x = convert_to_tensor(x)
        total = convert_to_tensor(0.0, dtype=x.dtype)
        if self.l1:
            total = total + self.l1 * reduce_sum(_abs(x))
        if self.l2:
            total = total + self.l2 * reduce_sum(square(x))
        return total

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


l1, l2, l1_l2 = L1, L2, L1L2
_BY_NAME = publish("keras.regularizers", {
    "Regularizer": Regularizer, "L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2,
    "l1_l2": L1L2, "l1l2": L1L2})


def _from_name(name):
    """Keras's names, then any case of the snake-case names (``None`` when unknown)."""
    return _BY_NAME.get(name) or _BY_NAME.get(name.lower())


def get(identifier):
    """A regularizer from a name (``"l2"``), a config dict, an instance or a callable."""
    return serialization.get(identifier, _BY_NAME, "regularizer", _from_name)


def serialize(regularizer):
    """A regularizer as Keras describes it (``{"module", "class_name", "config",
    "registered_name"}``)."""
    return serialize_keras_object(regularizer)


def deserialize(config, custom_objects=None):
    """The regularizer a name or a ``serialize`` description stands for."""
    return deserialize_keras_object(config, custom_objects, module_objects=_BY_NAME)
