"""``tf.keras``: the layers, activations and initializers the tutorials use."""
from . import activations, backend, initializers, layers  # noqa: F401
