"""``Dropout``."""
from ....ops import dropout, zeros_like
from ..base import Layer, to_tensor
from ..layer_config import config_of, dropout_rate


class Dropout(Layer):
    """During training (``training=True``) zeroes a ``rate`` fraction of the inputs and scales
    the rest by 1 / (1 - rate); otherwise passes them through."""

    def __init__(self, rate, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate, self.noise_shape, self.seed = dropout_rate(rate), noise_shape, seed

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        if not training or self.rate == 0:
            return x
        if self.rate == 1:  # everything dropped
            return zeros_like(x)
        return dropout(x, self.rate, noise_shape=self.noise_shape, seed=self.seed)

    def get_config(self):
        return config_of(self, rate=self.rate, seed=self.seed, noise_shape=self.noise_shape)
