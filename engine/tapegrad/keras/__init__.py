"""``tf.keras``: the layers, models, losses, optimizers, activations and initializers the
tutorials and a first training loop use."""
from . import activations, backend, initializers, layers, losses, models, optimizers  # noqa: F401
from .layers import Sequential  # noqa: F401
