"""Layers that return their inputs: ``Identity``, and ``ActivityRegularization`` (which also
adds ``l1 * sum|x| + l2 * sum(x**2)``, over the batch size, to the layer's losses)."""
from ... import regularizers
from ..base import Layer, to_tensor
from ..layer_config import config_of


class Identity(Layer):
    """Returns its inputs unchanged (a placeholder layer).

    >>> import tapegrad as tf
    >>> tf.keras.layers.Identity()(tf.constant([1.0, 2.0])).numpy().tolist()
    [1.0, 2.0]
    """

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return config_of(self)


class ActivityRegularization(Layer):
    """Passes its inputs through and penalizes them (the penalty shows in ``layer.losses``).

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.ActivityRegularization(l1=0.5)
    >>> _ = layer(tf.constant([[1.0, -2.0]]))
    >>> float(layer.losses[0])
    1.5
    """

    def __init__(self, l1=0.0, l2=0.0, name=None, **kwargs):
        l1, l2 = float(l1), float(l2)
        super().__init__(name=name, activity_regularizer=regularizers.L1L2(l1=l1, l2=l2),
                         **kwargs)
        self.l1, self.l2 = l1, l2

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def call(self, inputs):
        return to_tensor(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        return config_of(self, l1=self.l1, l2=self.l2)
