"""``tf.keras.optimizers``: SGD, Adam, AdamW, Adamax, Nadam, Lamb, Adafactor, RMSprop, Adagrad,
Adadelta, Ftrl and Lion, with clipping, weight decay, moving averages and learning-rate
``schedules``; ``get`` builds one from its name.

``apply_gradients(zip(grads, variables))`` updates the variables in place (assignments are not
recorded by tapes); the slots (momentum, moments, accumulators) are the optimizer's
``variables``.

>>> import tapegrad as tf
>>> opt = tf.keras.optimizers.get({"class_name": "SGD", "config": {"learning_rate": 0.5}})
>>> type(opt).__name__, float(opt.learning_rate)
('SGD', 0.5)
>>> type(tf.keras.optimizers.get("adam")).__name__
'Adam'
"""
from ..serialization import deserialize_keras_object, publish, serialize_keras_object
from . import legacy, schedules  # noqa: F401
from .adafactor import Adafactor
from .adam import Adam, Adamax, AdamW, Lamb, Nadam
from .adaptive import Adadelta, Adagrad, RMSprop
from .base import Optimizer
from .ftrl import Ftrl
from .lion import Lion
from .sgd import SGD

_CLASSES = [Optimizer, Adam, AdamW, Adamax, Nadam, Lamb, Adafactor, Adadelta, Adagrad, RMSprop,
            Ftrl, Lion, SGD]
publish("keras.optimizers", {cls.__name__: cls for cls in _CLASSES})
# ``get`` and ``deserialize`` know the classes by lowercased name (Keras's table).
BY_NAME = {cls.__name__.lower(): cls for cls in _CLASSES}


def serialize(optimizer):
    """An optimizer as ``{"module", "class_name", "config", "registered_name"}``.

    >>> import tapegrad as tf
    >>> tf.keras.optimizers.serialize(tf.keras.optimizers.SGD(0.5))["config"]["learning_rate"]
    0.5
    """
    return serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """The optimizer a ``serialize`` description stands for (class names in any case)."""
    name = config.get("class_name") if isinstance(config, dict) else None
    if isinstance(name, str) and name.lower() in BY_NAME:
        config["class_name"] = name.lower()  # Keras rewrites the given dict so
    return deserialize_keras_object(config, custom_objects, module_objects=BY_NAME)


def get(identifier):
    """An optimizer from a name (``"adam"``, ``"SGD"``...; defaults for everything), a
    ``serialize`` description, or an optimizer (returned as it is).

    >>> import tapegrad as tf
    >>> tf.keras.optimizers.get("rmsprop").get_config()["rho"]
    0.9
    """
    if isinstance(identifier, str):
        obj = deserialize({"class_name": identifier, "config": {}})
    else:
        obj = deserialize(identifier) if isinstance(identifier, dict) else identifier
    if isinstance(obj, Optimizer) and type(obj) is not Optimizer:
        return obj
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
