"""``keras.saving``: registering user classes and functions and turning Keras objects into
Keras 3's JSON descriptions and back (also under ``tf.keras.utils``, as in TensorFlow 2.21).
All of it is ``tapegrad.keras.serialization``, the one registry. ``save_model`` / ``load_model``
write and read whole models as ``.keras`` files (``keras_file``).

>>> import tapegrad as tf
>>> @tf.keras.saving.register_keras_serializable(package="Demo")
... class Scale(tf.keras.regularizers.Regularizer):
...     def __init__(self, factor=1.0):
...         self.factor = factor
...     def get_config(self):
...         return {"factor": self.factor}
>>> tf.keras.saving.get_registered_name(Scale)
'Demo>Scale'
>>> description = tf.keras.saving.serialize_keras_object(Scale(3.0))
>>> description["registered_name"], description["config"]
('Demo>Scale', {'factor': 3.0})
>>> tf.keras.saving.deserialize_keras_object(description).factor
3.0
"""
from ..serialization import (  # noqa: F401
    CustomObjectScope, custom_object_scope, deserialize_keras_object, get_registered_name,
    get_registered_object, register_keras_serializable, serialize_keras_object,
)
from .keras_file import load_model, save_model  # noqa: F401
