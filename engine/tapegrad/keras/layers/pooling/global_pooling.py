"""Global pooling over every step, pixel or voxel: ``GlobalAveragePooling1D/2D/3D`` and
``GlobalMaxPooling1D/2D/3D`` (and their ``Global*Pool*D`` aliases); a masked 1-D average
counts the kept steps only."""
from ....ops import cast, divide, expand_dims, multiply, reduce_max, reduce_mean, reduce_sum
from ..base import Layer, to_tensor
from ..convolutional.arguments import data_format_of
from ..core.masking import mask_of
from ..input_spec import InputSpec
from ..layer_config import config_of


class GlobalPooling(Layer):
    """``_reduce`` over the ``_rank`` spatial axes: (N, *spatial, C) -> (N, C)."""
    _rank = 1
    _reduce = staticmethod(reduce_mean)

    def __init__(self, data_format=None, keepdims=False, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.data_format = data_format_of(data_format, type(self).__name__)
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def call(self, inputs, mask=None):
        x = to_tensor(inputs)
        first = self.data_format == "channels_first"
        if mask is None and self._rank == 1 and not first:
            mask = mask_of(inputs)
        if mask is not None and self._reduce is reduce_mean:  # the mean of the kept steps
            keep = expand_dims(cast(to_tensor(mask), x.dtype), -1)
            total = reduce_sum(multiply(x, keep), axis=1, keepdims=self.keepdims)
            return divide(total, reduce_sum(keep, axis=1, keepdims=self.keepdims))
        start = 2 if first else 1
        return self._reduce(x, axis=list(range(start, start + self._rank)),
                            keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        first = self.data_format == "channels_first"
        c = input_shape[1] if first else input_shape[-1]
        if not self.keepdims:
            return (input_shape[0], c)
        ones = (1,) * self._rank
        return (input_shape[0], c) + ones if first else (input_shape[0],) + ones + (c,)

    def get_config(self):
        return config_of(self, data_format=self.data_format, keepdims=self.keepdims)


class GlobalAveragePooling1D(GlobalPooling):
    """Mean over the steps: (batch, steps, channels) -> (batch, channels)."""


class GlobalMaxPooling1D(GlobalPooling):
    _reduce = staticmethod(reduce_max)


class GlobalAveragePooling2D(GlobalPooling):
    """Mean over the pixels: (batch, height, width, channels) -> (batch, channels)."""
    _rank = 2


class GlobalMaxPooling2D(GlobalPooling):
    _rank = 2
    _reduce = staticmethod(reduce_max)


class GlobalAveragePooling3D(GlobalPooling):
    """Mean over depth, height and width: (N, D, H, W, C) -> (N, C)."""
    _rank = 3


class GlobalMaxPooling3D(GlobalPooling):
    """Max over depth, height and width: (N, D, H, W, C) -> (N, C).

    >>> import tapegrad as tf
    >>> tf.keras.layers.GlobalMaxPooling3D()(tf.zeros((2, 3, 4, 5, 6))).shape
    TensorShape([2, 6])
    """
    _rank = 3
    _reduce = staticmethod(reduce_max)


GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalMaxPool1D, GlobalMaxPool2D = GlobalMaxPooling1D, GlobalMaxPooling2D
GlobalMaxPool3D, GlobalAvgPool3D = GlobalMaxPooling3D, GlobalAveragePooling3D
