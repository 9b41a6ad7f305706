"""``AlphaDropout``: dropout for SELU networks, keeping the inputs' mean and variance."""
from ....ops import add, cast, greater_equal, multiply, shape as _shape, subtract
from .... import random as tf_random
from ..base import Layer, to_tensor
from ..layer_config import config_of, dropout_rate

# SELU's constants; a dropped unit is set to SELU's negative saturation value -alpha * scale
_ALPHA, _SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


class AlphaDropout(Layer):
    """During training sets a ``rate`` fraction of the inputs to ``-alpha * scale`` (SELU's
    limit) and applies the affine map ``a * x + b`` that restores zero mean and unit variance
    for standardized inputs; otherwise passes the inputs through.

    >>> import tapegrad as tf
    >>> tf.keras.layers.AlphaDropout(0.2)(tf.ones((2, 3))).numpy().tolist()
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    """

    def __init__(self, rate, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate, self.noise_shape, self.seed = dropout_rate(rate), noise_shape, seed

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        if not training or self.rate == 0:
            return x
        shape = _shape(x) if self.noise_shape is None else [
            int(x.shape[i]) if d is None else int(d) for i, d in enumerate(self.noise_shape)]
        kept = cast(greater_equal(tf_random.uniform(shape, dtype=x.dtype, seed=self.seed),
                                  self.rate), x.dtype)
        alpha_p = -_ALPHA * _SCALE
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        dropped = multiply(subtract(1.0, kept), alpha_p)
        return add(multiply(add(multiply(x, kept), dropped), a), b)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return config_of(self, rate=self.rate, seed=self.seed, noise_shape=self.noise_shape)
