"""``Conv1D``, ``Conv2D``, ``Conv3D``: ``activation(convolution(x, kernel) + bias)`` over the
``tf.nn`` convolutions; kernel ``(*kernel_size, in_channels, filters)``."""
from ....errors import UnimplementedError
from ....ops import convolution, pad
from .arguments import to_channels_last
from .base_conv import KernelConv

_CHANNELS_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
_CHANNELS_FIRST = {1: "NCW", 2: "NCHW"}


class Conv(KernelConv):
    """The convolution of any rank (``_rank``); a 1-D one also takes ``padding='causal'``."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True, **kwargs):
        if isinstance(filters, (int, float)) and filters > 0 and filters % groups:
            raise ValueError(f"The number of filters must be evenly divisible by the number of "
                             f"groups. Received: groups={groups}, filters={filters}.")
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, **kwargs)
        if groups != 1:
            raise UnimplementedError(f"{type(self).__name__}: groups other than 1 are not "
                                     f"implemented")
        self.groups = 1

    def build(self, input_shape):
        last_two = (self._channels(input_shape), self.filters)
        self._check_input(input_shape)
        self._check_output_size(input_shape, self.kernel_size + last_two)
        self._build_kernel(input_shape, last_two)

    def call(self, inputs):
        x = self._input(inputs, self.kernel.dtype)
        if self.data_format == "channels_first" and self._rank in _CHANNELS_FIRST:
            # TensorFlow's CPU kernels refuse channels-first 1-D and 2-D convolutions
            return convolution(x, self.kernel, self.strides, self.padding.upper(),
                               data_format=_CHANNELS_FIRST[self._rank])
        x = to_channels_last(x, self.data_format)
        padding = self.padding
        if padding == "causal":  # pad the past only, then a valid convolution
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            x, padding = pad(x, [[0, 0], [left, 0], [0, 0]]), "valid"
        y = convolution(x, self.kernel, self.strides, padding.upper(),
                        data_format=_CHANNELS_LAST[self._rank], dilations=self.dilation_rate)
        return self._finish(y)

    def get_config(self):
        return self._config({"filters": self.filters}, ["kernel"], groups=self.groups)


class Conv1D(Conv):
    """Convolution over (batch, steps, channels) sequences.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Conv1D(4, 3)(tf.zeros((2, 10, 5))).shape
    TensorShape([2, 8, 4])
    """
    _rank = 1
    _keras_name = "conv1d"
    _paddings = ("valid", "same", "causal")


class Conv2D(Conv):
    """2-D convolution over (batch, height, width, channels) images.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Conv2D(4, 3)(tf.zeros((1, 5, 6, 2))).shape
    TensorShape([1, 3, 4, 4])
    """
    _rank = 2
    _keras_name = "conv2d"


class Conv3D(Conv):
    """3-D convolution over (batch, depth, height, width, channels) volumes.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Conv3D(4, 3)(tf.zeros((1, 5, 6, 7, 2))).shape
    TensorShape([1, 3, 4, 5, 4])
    """
    _rank = 3
    _keras_name = "conv3d"


Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
