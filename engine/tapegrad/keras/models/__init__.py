"""``tf.keras.models``: ``Model`` (subclassed or functional), ``Sequential``."""
from ..symbolic import KerasTensor  # noqa: F401
from .functional import Input, InputLayer  # noqa: F401
from .model import Functional, Model  # noqa: F401
from .sequential import Sequential  # noqa: F401
from ..serialization import publish

publish("keras", {"Model": Model, "Sequential": Sequential})
publish("keras.models", {"Model": Model, "Sequential": Sequential})
