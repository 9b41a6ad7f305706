"""``TimeDistributed``: applies a layer to every time step (axis 1) of its input."""
from ....ops import reshape
from ..base import Layer, to_tensor
from ..layer_config import config_of, layer_description, with_layers


class TimeDistributed(Layer):
    """Folds the time axis into the batch, calls ``layer``, and unfolds it again.

    >>> import tapegrad as tf
    >>> tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(4))(tf.zeros((2, 3, 5))).shape
    TensorShape([2, 3, 4])
    """

    def __init__(self, layer, name=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `keras.layers."
                             f"Layer` instance. Received: {layer}")
        super().__init__(name=name, **kwargs)
        self.layer = layer

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        shape = tuple(int(d) for d in x.shape)
        if len(shape) < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at "
                             f"least 3 dimensions, received: {shape}")
        y = self.layer(reshape(x, (shape[0] * shape[1],) + shape[2:]))
        return reshape(y, shape[:2] + tuple(int(d) for d in y.shape[1:]))

    def get_config(self):
        return config_of(self, layer=layer_description(self.layer))

    @classmethod
    def from_config(cls, config):
        return with_layers(cls, config, "layer")
