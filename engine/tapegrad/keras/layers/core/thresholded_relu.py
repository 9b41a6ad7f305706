"""``ThresholdedReLU``: ``x`` where ``x > theta``, else 0."""
from ....ops import cast, greater, multiply
from ..base import Layer, to_tensor
from ..layer_config import config_of


class ThresholdedReLU(Layer):
    """Keeps the inputs above ``theta`` and zeroes the rest (the gradient is the same mask).

    >>> import tapegrad as tf
    >>> tf.keras.layers.ThresholdedReLU(1.0)(tf.constant([0.5, 1.0, 2.0])).numpy().tolist()
    [0.0, 0.0, 2.0]
    """

    def __init__(self, theta=1.0, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if theta is None:
            raise ValueError("Theta of a Thresholded ReLU layer cannot be None, expected a float. "
                             "Received: theta=None")
        if float(theta) < 0:
            raise ValueError(f"The theta value of a Thresholded ReLU layer should be >=0. "
                             f"Received: theta={theta}")
        self.theta = float(theta)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def call(self, inputs):
        x = to_tensor(inputs)
        return multiply(x, cast(greater(x, self.theta), x.dtype))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return config_of(self, theta=self.theta)
