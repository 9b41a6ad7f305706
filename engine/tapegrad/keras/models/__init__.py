"""``tf.keras.models``: ``Model`` (subclassed or functional), ``Sequential``, and saving whole
models (``save_model``, ``load_model``: Keras 3's ``.keras`` zip; ``model_from_json``,
``clone_model``)."""
from ..symbolic import KerasTensor  # noqa: F401
from .functional import Input, InputLayer  # noqa: F401
from .model import Functional, Model  # noqa: F401
from .sequential import Sequential  # noqa: F401
from ..saving.keras_file import clone_model, load_model, model_from_json, save_model  # noqa: F401
from ..serialization import publish

publish("keras", {"Model": Model, "Sequential": Sequential})
publish("keras.models", {"Model": Model, "Sequential": Sequential})
publish("keras.src.models.functional", {"Functional": Functional})
