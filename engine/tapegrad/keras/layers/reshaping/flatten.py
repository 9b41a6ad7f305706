"""``Flatten``."""
from ....ops import reshape
from ..base import Layer, to_tensor


class Flatten(Layer):
    """Keeps the batch axis and flattens the rest: (N, H, W, C) -> (N, H*W*C)."""

    def call(self, inputs):
        x = to_tensor(inputs)
        n = x._value.shape[0] if x._value.ndim else 1
        return reshape(x, (n, -1))
