"""``tf.keras``: layers, models, losses, optimizers, metrics, callbacks, datasets, activations and
initializers. Keras sits above the core: it imports the core only through ``tapegrad.ops``,
``tensor``, ``variables``, ``module``, ``tape``, ``nest``, ``dtypes`` and ``errors`` (and the
array seam ``backend``); nothing in the core imports it."""
from . import activations, backend, initializers, layers, losses, models, optimizers  # noqa: F401
from . import callbacks, datasets, metrics, utils  # noqa: F401
from . import constraints, regularizers, saving, serialization  # noqa: F401
from .layers import Layer  # noqa: F401
from .models import Input, Model, Sequential  # noqa: F401
