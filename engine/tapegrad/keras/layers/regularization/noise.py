"""Noise layers active only when ``training=True``: ``SpatialDropout1D/2D`` (whole channels),
``GaussianNoise``, ``GaussianDropout``. (``Dropout`` itself lives in ``core``.)"""
import math

from ....ops import add, dropout, multiply, shape as _shape, zeros_like
from .... import random as tf_random
from ..base import Layer, to_tensor
from ..input_spec import InputSpec
from .dropout import Dropout
from ..layer_config import config_of, dropout_rate


class SpatialDropout1D(Dropout):
    """Drops whole channels of (batch, steps, channels) inputs during training.

    >>> import tapegrad as tf
    >>> tf.keras.layers.SpatialDropout1D(0.5)(tf.ones((1, 2, 3))).shape
    TensorShape([1, 2, 3])
    """
    _rank = 3

    def __init__(self, rate, seed=None, name=None, **kwargs):
        super().__init__(rate, seed=seed, name=name, **kwargs)
        self.input_spec = InputSpec(ndim=self._rank)

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        if not training or self.rate == 0:
            return x
        if self.rate == 1:  # every channel dropped
            return zeros_like(x)
        s = tuple(x._value.shape)
        noise = (s[0],) + (1,) * (self._rank - 2) + (s[-1],)
        return dropout(x, self.rate, noise_shape=noise, seed=self.seed)

    def get_config(self):
        return config_of(self, rate=self.rate, seed=self.seed)


class SpatialDropout2D(SpatialDropout1D):
    """Drops whole channels of (batch, height, width, channels) inputs during training."""
    _rank = 4


class SpatialDropout3D(SpatialDropout1D):
    _rank = 5


class GaussianNoise(Layer):
    """Adds normal noise of ``stddev`` during training."""

    def __init__(self, stddev, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if float(stddev) < 0:
            raise ValueError(f"Invalid value for argument `stddev`: {stddev} (must be >= 0)")
        self.stddev, self.seed = float(stddev), seed

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        if not training or self.stddev == 0:
            return x
        return add(x, tf_random.normal(_shape(x), 0.0, self.stddev, x.dtype, self.seed))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, stddev=self.stddev, seed=self.seed)


class GaussianDropout(Layer):
    """Multiplies by normal noise of mean 1 and stddev sqrt(rate / (1 - rate)) in training."""

    def __init__(self, rate, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.rate, self.seed = dropout_rate(rate), seed

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        if not training or not 0 < self.rate < 1:
            return x
        stddev = math.sqrt(self.rate / (1.0 - self.rate))
        return multiply(x, tf_random.normal(_shape(x), 1.0, stddev, x.dtype, self.seed))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, rate=self.rate, seed=self.seed)
