"""The transposed convolutions ``Conv1DTranspose``, ``Conv2DTranspose``, ``Conv3DTranspose``:
the gradient of a convolution with respect to its input, upsampling by ``strides``; kernel
``(*kernel_size, filters, in_channels)``."""
from ....errors import InvalidArgumentError
from ....ops import conv_transpose
from ..layer_config import int_tuple
from .arguments import spatial_of, transpose_out_len, with_format
from .base_conv import KernelConv
from .conv import _CHANNELS_LAST


class ConvTranspose(KernelConv):
    """The transposed convolution of any rank (``_rank``)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, **kwargs)
        self.output_padding = None if output_padding is None else \
            int_tuple(output_padding, self._rank, "output_padding", allow_zero=True)
        if self.output_padding is not None:
            for axis, (p, s) in enumerate(zip(self.output_padding, self.strides)):
                if p >= s:
                    raise ValueError(f"`output_padding` must be strictly less than `strides` "
                                     f"for all dimensions. At dimension {axis}, "
                                     f"`output_padding` is {p} but `strides` is {s}. Received: "
                                     f"output_padding={self.output_padding}, "
                                     f"strides={self.strides}")

    def build(self, input_shape):
        self._build_kernel(input_shape, (self.filters, self._channels(input_shape)))

    def _out_spatial(self, spatial):
        pads = self.output_padding or (None,) * self._rank
        return [transpose_out_len(s, k, st, d, self.padding, p) for s, k, st, d, p in
                zip(spatial, self.kernel_size, self.strides, self.dilation_rate, pads)]

    def call(self, inputs):
        x = self._input(inputs, self.kernel.dtype)
        if self.data_format == "channels_first":   # TensorFlow's CPU kernel refuses NCHW
            raise InvalidArgumentError(f"Conv{self._rank}DCustomBackpropInputOp only supports "
                                       f"NHWC. [Op:Conv2DBackpropInput]")
        s = tuple(int(d) for d in x.shape)
        out = (s[0],) + tuple(self._out_spatial(s[1:-1])) + (self.filters,)
        y = conv_transpose(x, self.kernel.read_value(), list(out), list(self.strides),
                           self.padding.upper(), data_format=_CHANNELS_LAST[self._rank],
                           dilations=list(self.dilation_rate))
        return self._finish(y)

    def compute_output_shape(self, input_shape):
        # a list, as Keras returns it for these layers
        spatial = self._out_spatial(spatial_of(input_shape, self.data_format))
        return list(with_format(input_shape, spatial, self.filters, self.data_format))

    def get_config(self):
        return self._config({"filters": self.filters}, ["kernel"],
                            output_padding=self.output_padding)


class Conv1DTranspose(ConvTranspose):
    """(batch, steps, channels) -> (batch, steps * strides, filters) with 'same' padding.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Conv1DTranspose(3, 3, strides=2, padding="same")(
    ...     tf.zeros((1, 5, 2))).shape
    TensorShape([1, 10, 3])
    """
    _rank = 1
    _keras_name = "conv1d_transpose"


class Conv2DTranspose(ConvTranspose):
    """(N, H, W, C) -> (N, H * s, W * s, filters) with 'same' padding; kernel
    (kh, kw, filters, in_channels).

    >>> import tapegrad as tf
    >>> tf.keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same")(
    ...     tf.zeros((1, 5, 5, 2))).shape
    TensorShape([1, 10, 10, 4])
    """
    _rank = 2
    _keras_name = "conv2d_transpose"


class Conv3DTranspose(ConvTranspose):
    """(N, D, H, W, C) -> (N, D * s, H * s, W * s, filters) with 'same' padding.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Conv3DTranspose(2, 2, strides=2)(tf.zeros((1, 2, 3, 4, 1))).shape
    TensorShape([1, 4, 6, 8, 2])
    """
    _rank = 3
    _keras_name = "conv3d_transpose"


Convolution1DTranspose, Convolution2DTranspose = Conv1DTranspose, Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
