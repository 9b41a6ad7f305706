"""Separable convolution layers ``SeparableConv1D/2D`` over ``tf.nn.separable_conv2d``: a
depthwise convolution, then a 1x1 convolution mixing the channels into ``filters``."""
from ....ops import separable_conv2d
from .arguments import no_constraints, strictly_positive, to_channels_last
from .base_conv import BaseConv
from .depthwise_conv import args_2d, as_2d, from_2d, kernel_2d


class SeparableConv(BaseConv):
    """Weights ``depthwise_kernel`` ``(*kernel_size, in, depth_multiplier)``,
    ``pointwise_kernel`` ``(*(1,) * rank, in * depth_multiplier, filters)`` and ``bias``."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, pointwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, name=None, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, bias_initializer, bias_regularizer,
                         activity_regularizer, bias_constraint, name, **kwargs)
        self.depth_multiplier = strictly_positive(depth_multiplier, "depth_multiplier")
        no_constraints(type(self).__name__, depthwise_constraint=depthwise_constraint,
                       pointwise_constraint=pointwise_constraint)
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        self.depthwise_regularizer = depthwise_regularizer
        self.pointwise_regularizer = pointwise_regularizer

    def build(self, input_shape):
        self._check_input(input_shape)
        c = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            shape=self.kernel_size + (c, self.depth_multiplier),
            initializer=self.depthwise_initializer, name="depthwise_kernel",
            regularizer=self.depthwise_regularizer)
        self.pointwise_kernel = self.add_weight(
            shape=(1,) * self._rank + (c * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, name="pointwise_kernel",
            regularizer=self.pointwise_regularizer)
        self.bias = self._add_bias()
        self.built = True

    def call(self, inputs):
        x = to_channels_last(self._input(inputs, self.depthwise_kernel.dtype), self.data_format)
        r = self._rank
        dw, pw = self.depthwise_kernel.read_value(), self.pointwise_kernel.read_value()
        y = separable_conv2d(as_2d(x, r), kernel_2d(dw, r), kernel_2d(pw, r),
                             (1,) + args_2d(self.strides, r) + (1,), self.padding.upper(),
                             dilations=args_2d(self.dilation_rate, r))
        return self._finish(from_2d(y, r))

    def get_config(self):
        return self._config({"depth_multiplier": self.depth_multiplier, "filters": self.filters},
                            ["depthwise", "pointwise"])


class SeparableConv2D(SeparableConv):
    """Depthwise then pointwise 2-D convolution.

    >>> import tapegrad as tf
    >>> tf.keras.layers.SeparableConv2D(4, 3)(tf.zeros((1, 5, 5, 2))).shape
    TensorShape([1, 3, 3, 4])
    """
    _rank = 2
    _keras_name = "separable_conv2d"


class SeparableConv1D(SeparableConv):
    """Depthwise then pointwise 1-D convolution.

    >>> import tapegrad as tf
    >>> tf.keras.layers.SeparableConv1D(4, 3)(tf.zeros((1, 6, 2))).shape
    TensorShape([1, 4, 4])
    """
    _rank = 1
    _keras_name = "separable_conv1d"


SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D
