"""``MaxPooling1D/2D/3D`` and ``AveragePooling1D/2D/3D`` (and their ``*Pool*D`` aliases): one
pooling layer of any rank over ``tf.nn``'s pools, its arguments checked as the convolutions'
(``convolutional/arguments.py``); channels-first inputs go through a transpose, as Keras's
TensorFlow backend accepts them on CPU."""
from .... import nn
from ....ops import avg_pool2d, avg_pool3d, max_pool2d, max_pool3d
from ...naming import unique_name
from ..base import Layer, to_tensor
from ..convolutional.arguments import (conv_out_len, data_format_of, from_channels_last,
                                       padding_of, spatial_of, to_channels_last, with_format)
from ..input_spec import InputSpec
from ..layer_config import config_of, int_tuple

_MAX = {1: nn.max_pool1d, 2: max_pool2d, 3: max_pool3d}
_AVERAGE = {1: nn.avg_pool1d, 2: avg_pool2d, 3: avg_pool3d}


class Pooling(Layer):
    """The max (``_pools = _MAX``) or mean of ``pool_size`` windows over ``_rank`` axes."""
    _rank = 2
    _pools = _MAX
    _keras_name = "pooling"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, name=None,
                 **kwargs):
        super().__init__(name=name if name is not None else unique_name(self._keras_name),
                         **kwargs)
        layer, n = type(self).__name__, self._rank
        self.pool_size = int_tuple(pool_size, n, "pool_size")
        self.strides = self.pool_size if strides is None else int_tuple(strides, n, "strides")
        self.padding = padding_of(padding, layer)
        self.data_format = data_format_of(data_format, layer)
        self.input_spec = InputSpec(ndim=n + 2)

    def call(self, inputs):
        x = to_tensor(inputs)
        k, s = self.pool_size, self.strides
        if self._rank == 3:
            k, s = (1,) + k + (1,), (1,) + s + (1,)
        y = self._pools[self._rank](to_channels_last(x, self.data_format), k, s,
                                    self.padding.upper())
        return from_channels_last(y, self.data_format)

    def compute_output_shape(self, input_shape):
        out = [conv_out_len(s, k, st, 1, self.padding) for s, k, st in
               zip(spatial_of(input_shape, self.data_format), self.pool_size, self.strides)]
        c = input_shape[1] if self.data_format == "channels_first" else input_shape[-1]
        return with_format(input_shape, out, c, self.data_format)

    def get_config(self):
        return config_of(self, pool_size=self.pool_size, padding=self.padding,
                         strides=self.strides, data_format=self.data_format)


class MaxPooling1D(Pooling):
    """Max over windows of ``pool_size`` steps of (batch, steps, channels) inputs.

    >>> import tapegrad as tf
    >>> tf.keras.layers.MaxPooling1D(2)(tf.zeros((1, 6, 3))).shape
    TensorShape([1, 3, 3])
    """
    _rank = 1
    _keras_name = "max_pooling1d"


class AveragePooling1D(Pooling):
    _rank = 1
    _pools = _AVERAGE
    _keras_name = "average_pooling1d"


class MaxPooling2D(Pooling):
    _keras_name = "max_pooling2d"


class AveragePooling2D(Pooling):
    _pools = _AVERAGE
    _keras_name = "average_pooling2d"


class MaxPooling3D(Pooling):
    """Max over ``pool_size`` windows of a volume.

    >>> import tapegrad as tf
    >>> tf.keras.layers.MaxPooling3D()(tf.zeros((1, 4, 4, 6, 2))).shape
    TensorShape([1, 2, 2, 3, 2])
    """
    _rank = 3
    _keras_name = "max_pooling3d"


class AveragePooling3D(Pooling):
    """Mean over ``pool_size`` windows of a volume ('same' padding counts real entries only);
    ``pool_size`` is required, as in Keras."""
    _rank = 3
    _pools = _AVERAGE
    _keras_name = "average_pooling3d"

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, name=None,
                 **kwargs):
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


MaxPool1D, AvgPool1D = MaxPooling1D, AveragePooling1D
MaxPool2D, AvgPool2D = MaxPooling2D, AveragePooling2D
MaxPool3D, AvgPool3D = MaxPooling3D, AveragePooling3D
