"""Volume layers that move values without computing: ``UpSampling3D``, ``ZeroPadding3D``,
``Cropping3D`` (channels last or first)."""
from ....ops import pad
from ..base import Layer, to_tensor
from ..convolutional.arguments import data_format_of
from ..input_spec import InputSpec
from ..layer_config import config_of, int_tuple
from .reshaping_1d_2d import _per_axis, _repeat_axis


class _Volume(Layer):
    input_spec = InputSpec(ndim=5)

    def __init__(self, data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.data_format = data_format_of(data_format, type(self).__name__)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def _input(self, inputs):
        return to_tensor(inputs)

    def _first_spatial_axis(self):
        return 2 if self.data_format == "channels_first" else 1


class UpSampling3D(_Volume):
    """Repeats each plane, row and column ``size`` times (nearest neighbour).

    >>> import tapegrad as tf
    >>> tf.keras.layers.UpSampling3D()(tf.ones((1, 1, 2, 3, 1))).shape
    TensorShape([1, 2, 4, 6, 1])
    """

    def __init__(self, size=(2, 2, 2), data_format=None, name=None, **kwargs):
        super().__init__(data_format, name, **kwargs)
        self.size = int_tuple(size, 3, "size")

    def call(self, inputs):
        x, a = self._input(inputs), self._first_spatial_axis()
        for i, times in enumerate(self.size):
            x = _repeat_axis(x, a + i, times)
        return x

    def compute_output_shape(self, input_shape):
        s, a = list(input_shape), self._first_spatial_axis()
        for i, times in enumerate(self.size):
            s[a + i] = None if s[a + i] is None else s[a + i] * times
        return tuple(s)

    def get_config(self):
        return config_of(self, size=self.size, data_format=self.data_format)


class ZeroPadding3D(_Volume):
    """Pads depth, height and width with zeros: n, (d, h, w) or three (before, after) pairs.

    >>> import tapegrad as tf
    >>> tf.keras.layers.ZeroPadding3D(1)(tf.ones((1, 2, 2, 2, 1))).shape
    TensorShape([1, 4, 4, 4, 1])
    """

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, name=None, **kwargs):
        super().__init__(data_format, name, **kwargs)
        self.padding = tuple(_per_axis(padding, 3, "padding"))

    def call(self, inputs):
        x, a = self._input(inputs), self._first_spatial_axis()
        pads = [[0, 0]] * 5
        for i, p in enumerate(self.padding):
            pads[a + i] = list(p)
        return pad(x, pads)

    def compute_output_shape(self, input_shape):
        s, a = list(input_shape), self._first_spatial_axis()
        for i, (b, e) in enumerate(self.padding):
            s[a + i] = None if s[a + i] is None else s[a + i] + b + e
        return tuple(s)

    def get_config(self):
        return config_of(self, padding=self.padding, data_format=self.data_format)


class Cropping3D(_Volume):
    """Removes planes, rows and columns: n, (d, h, w) or three (before, after) pairs.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Cropping3D(1)(tf.ones((1, 4, 4, 4, 1))).shape
    TensorShape([1, 2, 2, 2, 1])
    """

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, name=None,
                 **kwargs):
        super().__init__(data_format, name, **kwargs)
        self.cropping = tuple(_per_axis(cropping, 3, "cropping"))

    def call(self, inputs):
        x, a = self._input(inputs), self._first_spatial_axis()
        index = [slice(None)] * 5
        for i, (b, e) in enumerate(self.cropping):
            size = int(x.shape[a + i])
            if b + e >= size:
                raise ValueError(f"Cropping3D: cropping {self.cropping} removes every entry of "
                                 f"an axis of size {size} (input shape {tuple(x.shape)})")
            index[a + i] = slice(b, size - e)
        return x[tuple(index)]

    def compute_output_shape(self, input_shape):
        s, a = list(input_shape), self._first_spatial_axis()
        for i, (b, e) in enumerate(self.cropping):
            s[a + i] = None if s[a + i] is None else s[a + i] - b - e
        return tuple(s)

    def get_config(self):
        return config_of(self, cropping=self.cropping, data_format=self.data_format)
