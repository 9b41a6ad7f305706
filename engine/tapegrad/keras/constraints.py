"""``tf.keras.constraints``: projections applied to a weight after each optimizer step
(``MaxNorm``, ``MinMaxNorm``, ``NonNeg``, ``UnitNorm``), by class or by name.

>>> import tapegrad as tf
>>> tf.keras.constraints.NonNeg()(tf.constant([-1.0, 2.0])).numpy().tolist() == [0.0, 2.0]
True
>>> tf.keras.constraints.serialize(tf.keras.constraints.MaxNorm(2.0))["config"]
{'max_value': 2.0, 'axis': 0}
"""
from .. import ops
from ..tensor import convert_to_tensor
from . import serialization
from .serialization import deserialize_keras_object, publish, serialize_keras_object

EPSILON = 1e-7     # Keras's backend.epsilon()


class Constraint:
    """The base: ``__call__(w)`` returns the projected weight (here: ``w`` unchanged)."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return ops.sqrt(ops.reduce_sum(ops.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Rescales each slice along ``axis`` whose L2 norm exceeds ``max_value`` down to it."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = ops.clip_by_value(norms, 0.0, float(self.max_value))
        return w * (desired / (EPSILON + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves each slice's L2 norm toward ``[min_value, max_value]`` by the fraction ``rate``."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = convert_to_tensor(w)
        norms = _norms(w, self.axis)
        clipped = ops.clip_by_value(norms, float(self.min_value), float(self.max_value))
        desired = self.rate * clipped + (1.0 - self.rate) * norms
        return w * (desired / (EPSILON + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class NonNeg(Constraint):
    """Sets the negative entries to zero."""

    def __call__(self, w):
        w = convert_to_tensor(w)
        return w * ops.cast(w >= 0.0, w.dtype)


class UnitNorm(Constraint):
    """Rescales each slice along ``axis`` to unit L2 norm."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = convert_to_tensor(w)
        return w / (EPSILON + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm
_BY_NAME = publish("keras.constraints", {
    "Constraint": Constraint, "MaxNorm": MaxNorm, "MinMaxNorm": MinMaxNorm, "NonNeg": NonNeg,
    "UnitNorm": UnitNorm, "max_norm": MaxNorm, "min_max_norm": MinMaxNorm, "non_neg": NonNeg,
    "unit_norm": UnitNorm})


def get(identifier):
    """A constraint from a name (``"non_neg"``), a ``serialize`` description, an instance or a
    callable."""
    return serialization.get(identifier, _BY_NAME, "constraint")


def serialize(constraint):
    return serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, custom_objects, module_objects=_BY_NAME)
