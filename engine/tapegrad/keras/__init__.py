"""``tf.keras``: the layers, activations and initializers the tutorials use."""
from . import activations, initializers, layers  # noqa: F401
