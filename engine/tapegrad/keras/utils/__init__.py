"""``tf.keras.utils``: ``Progbar``, ``to_categorical``, ``set_random_seed``, and the
serialization registry's functions (``register_keras_serializable``...)."""
import random

from ... import random as tf_random
from ...backend import xp
from ..serialization import (  # noqa: F401  (tf.keras.utils has them in TensorFlow 2.21)
    CustomObjectScope, custom_object_scope, deserialize_keras_object, get_registered_name,
    get_registered_object, register_keras_serializable, serialize_keras_object,
)
from .progbar import Progbar  # noqa: F401


def to_categorical(x, num_classes=None):
    """One-hot rows for integer labels (float32).

    >>> import tapegrad as tf
    >>> tf.keras.utils.to_categorical([0, 2]).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    """
    labels = xp.asarray(getattr(x, "_value", x)).astype("int64")
    shape = labels.shape
    if shape and shape[-1] == 1 and len(shape) > 1:
        shape = shape[:-1]
    labels = labels.reshape(-1)
    n = int(num_classes) if num_classes is not None else int(labels.max()) + 1
    out = xp.zeros((labels.shape[0], n), "float32")
    out[xp.arange(labels.shape[0]), labels] = 1
    return out.reshape(shape + (n,))


def set_random_seed(seed):
    """Seeds Python's, NumPy's and tapegrad's random generators at once."""
    random.seed(seed)
    xp.random.seed(seed)
    tf_random.set_seed(seed)
