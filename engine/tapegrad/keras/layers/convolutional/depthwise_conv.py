"""Depthwise convolution layers (MobileNet-style): ``DepthwiseConv1D/2D`` over
``tf.nn.depthwise_conv2d``. A 1-D layer runs the 2-D op on a height-1 image, as Keras's
TensorFlow backend does (``as_2d`` and its partners, shared with the separable layers)."""
from ....ops import depthwise_conv2d, expand_dims, squeeze
from .arguments import no_constraints, strictly_positive, to_channels_last
from .base_conv import BaseConv


def as_2d(x, rank):
    return expand_dims(x, 1) if rank == 1 else x


def kernel_2d(w, rank):
    return expand_dims(w, 0) if rank == 1 else w


def from_2d(y, rank):
    return squeeze(y, [1]) if rank == 1 else y


def args_2d(values, rank):
    return (1,) + tuple(values) if rank == 1 else tuple(values)


class DepthwiseConv(BaseConv):
    """Each input channel convolved with its own ``depth_multiplier`` filters; kernel
    ``(*kernel_size, in_channels, depth_multiplier)``, output channel ``c * M + m``."""

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, name=None, **kwargs):
        super().__init__(None, kernel_size, strides, padding, data_format, dilation_rate,
                         activation, use_bias, bias_initializer, bias_regularizer,
                         activity_regularizer, bias_constraint, name, **kwargs)
        self.depth_multiplier = strictly_positive(depth_multiplier, "depth_multiplier")
        no_constraints(type(self).__name__, depthwise_constraint=depthwise_constraint)
        self.depthwise_initializer = depthwise_initializer
        self.depthwise_regularizer = depthwise_regularizer

    def build(self, input_shape):
        self._check_input(input_shape)
        c = self._channels(input_shape)
        self.kernel = self.add_weight(shape=self.kernel_size + (c, self.depth_multiplier),
                                      initializer=self.depthwise_initializer, name="kernel",
                                      regularizer=self.depthwise_regularizer)
        self.bias = self._add_bias(size=c * self.depth_multiplier)
        self.built = True

    def call(self, inputs):
        x = to_channels_last(self._input(inputs, self.kernel.dtype), self.data_format)
        r = self._rank
        k = kernel_2d(self.kernel.read_value(), r)
        y = depthwise_conv2d(as_2d(x, r), k, (1,) + args_2d(self.strides, r) + (1,),
                             self.padding.upper(), dilations=args_2d(self.dilation_rate, r))
        return self._finish(from_2d(y, r))

    def _out_channels(self, input_shape):
        return self._channels(input_shape) * self.depth_multiplier

    def get_config(self):
        return self._config({"depth_multiplier": self.depth_multiplier}, ["depthwise"])


class DepthwiseConv2D(DepthwiseConv):
    """Depthwise 2-D convolution: (N, H, W, C) -> (N, H', W', C * depth_multiplier).

    >>> import tapegrad as tf
    >>> tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)(tf.zeros((1, 5, 5, 3))).shape
    TensorShape([1, 3, 3, 6])
    """
    _rank = 2
    _keras_name = "depthwise_conv2d"


class DepthwiseConv1D(DepthwiseConv):
    """Depthwise 1-D convolution: (N, steps, C) -> (N, steps', C * depth_multiplier).

    >>> import tapegrad as tf
    >>> tf.keras.layers.DepthwiseConv1D(3)(tf.zeros((1, 7, 2))).shape
    TensorShape([1, 5, 2])
    """
    _rank = 1
    _keras_name = "depthwise_conv1d"
