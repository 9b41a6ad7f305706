"""``tf.keras.models``: ``Sequential``."""
from .layers import Sequential  # noqa: F401
