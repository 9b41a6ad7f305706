"""``Flatten``."""
from ....ops import reshape
from ..base import Layer, to_tensor
from ..layer_config import config_of


class Flatten(Layer):
    """Keeps the batch axis and flattens the rest: (N, H, W, C) -> (N, H*W*C)."""

    def __init__(self, data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError("Flatten: only data_format='channels_last' is implemented")
        self.data_format = "channels_last"

    def call(self, inputs):
        x = to_tensor(inputs)
        n = x._value.shape[0] if x._value.ndim else 1
        return reshape(x, (n, -1))

    def get_config(self):
        return config_of(self, data_format=self.data_format)
