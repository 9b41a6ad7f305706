"""What every layer's ``get_config`` starts with, how its arguments are described (Keras 3's
form: activations by name, initializers, regularizers and constraints as registry
descriptions), and argument checks shared by the layers."""
from ... import dtypes
from .. import activations, constraints, initializers, regularizers
from ..serialization import deserialize_keras_object, serialize_keras_object


def dtype_policy(layer):
    """Keras 3's description of a layer's dtype policy."""
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": layer.dtype},
            "registered_name": None}


def dtype_of(value):
    """A layer's ``dtype`` argument (a name, a dtype or a ``DTypePolicy`` description) as a
    dtype, ``None`` staying ``None``."""
    if isinstance(value, dict):
        value = value.get("config", {}).get("name")
    return None if value is None else dtypes.as_dtype(value)


def base_config(layer):
    """``name``, ``trainable`` and ``dtype``: the keys Keras puts first in every config."""
    return {"name": layer.name, "trainable": layer.trainable, "dtype": dtype_policy(layer)}


def describe(key, value):
    """One argument as Keras 3's ``get_config`` gives it, by the argument's name."""
    if value is None or isinstance(value, (bool, int, float, str)) and \
            not key.endswith("_initializer"):
        return value
    if key.endswith("activation") and callable(value):
        return activations.serialize(value)
    for suffix, kind in (("_initializer", initializers), ("_regularizer", regularizers),
                         ("_constraint", constraints)):
        if key.endswith(suffix):
            return kind.serialize(kind.get(value))
    return value


def config_of(owner, /, **fields):
    """``base_config`` plus the layer's own arguments, each as ``describe`` gives it."""
    out = base_config(owner)
    for key, value in fields.items():
        out[key] = describe(key, value)
    return out


def with_layers(cls, config, *keys):
    """``cls(**config)`` with the layers (or lists of layers) under ``keys`` rebuilt from their
    descriptions: the ``from_config`` of the layers that hold layers."""
    config = dict(config)
    for key in keys:
        if config.get(key) is not None:
            config[key] = deserialize_keras_object(config[key])
    return cls(**config)


def layer_description(layer):
    """A held layer (or list of layers) as ``keras.layers.serialize`` describes it."""
    return serialize_keras_object(layer)


def no_quantization(layer, quantization_config):
    if quantization_config is not None:
        raise NotImplementedError(f"{type(layer).__name__}: quantization_config is not "
                                  f"implemented")


def int_tuple(value, n, name, allow_zero=False):
    """An int or ``n`` ints -> a tuple of ``n`` ints, each positive (or, ``allow_zero``, not
    negative): Keras's ``kernel_size=3`` shorthand and its checks, for every layer taking sizes,
    strides, croppings or paddings."""
    message = f"The `{name}` argument must be a tuple of {n} integers. Received {name}={value}"
    if isinstance(value, int):
        values = (value,) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(message) from None
        if len(values) != n:
            raise ValueError(message)
        for v in values:
            try:
                int(v)
            except (TypeError, ValueError):
                raise ValueError(f"{message}including element {v} of type {type(v)}") from None
    bad = {v for v in values if (v < 0 if allow_zero else v <= 0)}
    if bad:
        raise ValueError(f"{message}, including values {bad} that do not satisfy "
                         f"`value {'>= 0' if allow_zero else '> 0'}`")
    return tuple(int(v) for v in values)


def dropout_rate(rate):
    """A dropout layer's ``rate``: a number from 0 to 1 (Keras compares it as given, so a
    string is Python's TypeError)."""
    if not 0 <= rate <= 1:
        raise ValueError(f"Invalid value received for argument `rate`. Expected a float value "
                         f"between 0 and 1. Received: rate={rate}")
    return float(rate)


def positive_int(value, what, layer):
    if int(value) != value or int(value) <= 0:
        raise ValueError(f"Received an invalid value for argument `{what}`, expected a positive "
                         f"integer, got {value} ({layer})")
    return int(value)
