"""Depthwise and separable 2-D convolutions (``tf.nn.depthwise_conv2d``, ``separable_conv2d``,
``depthwise_conv2d_backprop_input``/``_filter``).

Each input channel ``c`` is convolved with its own ``channel_multiplier`` filters; output
channel ``c * M + m`` holds filter ``m`` of channel ``c``. The windows are gathered once
(``window_ops``) and contracted with the filter in one einsum (``pkc,kcm->pcm``: 4 to 15 times
faster than a batched matmul over channels here), so gradients of every order come from those
ops' rules. As in TensorFlow, a dilation rate goes through
``with_space_to_batch``.
"""
from .. import convert
from ..checks import check_dtype
from ..checks.dtype_rules import FLOAT, composite
from ..errors import InvalidArgumentError, UnimplementedError
from ..ground import reshape
from .conv_ops import conv2d
from .shape_ops import einsum
from .space_ops import with_space_to_batch
from .window_ops import (check_channels_last, gather_windows, scatter_windows, spatial_arg,
                         window_geometry)


def _depthwise_geometry(in_hw, w_shape, strides, dilations, padding, op):
    st = spatial_arg(strides, 2, "strides", op)
    dil = spatial_arg(1 if dilations is None else dilations, 2, "dilations", op)
    out, pads = window_geometry(tuple(in_hw), tuple(w_shape[:2]), st, dil, padding, op)
    return st, dil, out, pads


def _depthwise_forward(x, w, strides, dilations, pads, out):
    n, c = x._value.shape[0], x._value.shape[3]
    kh, kw, _, m = w._value.shape
    cols = gather_windows(x, (kh, kw), strides, dilations, pads, out)       # (N, OH, OW, kh, kw, C)
    y = einsum("pkc,kcm->pcm", reshape(cols, (-1, kh * kw, c)), reshape(w, (kh * kw, c, m)))
    return reshape(y, (n,) + tuple(out) + (c * m,))


DEPTHWISE_CONV = composite("DepthwiseConv2dNative", FLOAT)


def _check(x, w, op):
    check_dtype(DEPTHWISE_CONV, x)
    if x._value.ndim != 4:
        raise ValueError(f"{op}: input must be 4-D [batch, height, width, channels], got shape "
                         f"{list(x._value.shape)}")
    if w._value.ndim != 4:
        raise ValueError(f"{op}: filter must be 4-D [height, width, in_channels, multiplier], got "
                         f"shape {list(w._value.shape)}")
    if x._value.shape[3] != w._value.shape[2]:
        raise InvalidArgumentError(f"input and filter must have the same depth: "
                                   f"{x._value.shape[3]} vs {w._value.shape[2]} "
                                   f"[Op:DepthwiseConv2dNative]")


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=None, name=None):
    """The depthwise kernel itself (dilations applied directly, not by space-to-batch)."""
    check_channels_last(data_format, ("NHWC",), "DepthwiseConv2dNative", UnimplementedError)
    x, w = convert.binary(input, filter, "DepthwiseConv2dNative")
    _check(x, w, "DepthwiseConv2dNative")
    st, dil, out, pads = _depthwise_geometry(x._value.shape[1:3], w._value.shape, strides,
                                             dilations, padding, "DepthwiseConv2dNative")
    return _depthwise_forward(x, w, st, dil, pads, out)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,  # noqa: A002
                     name=None):
    """Depthwise 2-D convolution: ``filter`` is ``[height, width, in_channels, multiplier]``;
    the output has ``in_channels * multiplier`` channels.

    >>> import tapegrad as tf
    >>> y = tf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 2, 3]), [1, 1, 1, 1], "VALID")
    >>> y.shape
    TensorShape([1, 2, 2, 6])
    """
    check_channels_last(data_format, ("NHWC",), "DepthwiseConv2dNative", UnimplementedError)
    x, w = convert.binary(input, filter, "DepthwiseConv2dNative")
    _check(x, w, "DepthwiseConv2dNative")
    rate = spatial_arg(1 if dilations is None else dilations, 2, "dilations", "depthwise_conv2d")

    def op(x_converted, num_spatial_dims, padding_converted):
        return depthwise_conv2d_native(x_converted, w, strides, padding_converted)

    return with_space_to_batch(x, list(rate), padding, op, filter_shape=list(w._value.shape))


def _backprop_operands(a, dy, data_format, op):
    """The checked operands of the backprop op ``op``: ``a`` (an input or a filter) and the
    output's gradient ``dy``."""
    check_channels_last(data_format, ("NHWC",), op, UnimplementedError)
    a, dy = convert.binary(a, dy, op)
    check_dtype(DEPTHWISE_CONV, a)
    return a, dy


def _sizes(sizes):
    """A shape given as a tensor or a list, as a list of ints."""
    return [int(s) for s in (sizes._value.tolist() if hasattr(sizes, "_value") else sizes)]


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                    data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of ``depthwise_conv2d_native`` with respect to an input of ``input_sizes``."""
    w, dy = _backprop_operands(filter, out_backprop, data_format,
                               "DepthwiseConv2dNativeBackpropInput")
    sizes = _sizes(input_sizes)
    kh, kw, c, m = w._value.shape
    st, dil, out, pads = _depthwise_geometry(sizes[1:3], w._value.shape, strides, dilations,
                                             padding, "DepthwiseConv2dNativeBackpropInput")
    if tuple(dy._value.shape) != (sizes[0],) + tuple(out) + (c * m,) or sizes[3] != c:
        raise InvalidArgumentError(f"DepthwiseConv2dNativeBackpropInput: out_backprop shape "
                                   f"{list(dy._value.shape)} does not match the computed "
                                   f"{[sizes[0], *out, c * m]}")
    cols = einsum("pcm,kcm->pkc", reshape(dy, (-1, c, m)), reshape(w, (kh * kw, c, m)))
    cols = reshape(cols, (sizes[0],) + tuple(out) + (kh, kw, c))
    return scatter_windows(cols, sizes[1:3], (kh, kw), st, dil, pads, out)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                     data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of ``depthwise_conv2d_native`` with respect to a filter of ``filter_sizes``."""
    x, dy = _backprop_operands(input, out_backprop, data_format,
                               "DepthwiseConv2dNativeBackpropFilter")
    kh, kw, c, m = _sizes(filter_sizes)
    st, dil, out, pads = _depthwise_geometry(x._value.shape[1:3], (kh, kw, c, m), strides,
                                             dilations, padding,
                                             "DepthwiseConv2dNativeBackpropFilter")
    if tuple(dy._value.shape) != (x._value.shape[0],) + tuple(out) + (c * m,) \
            or x._value.shape[3] != c:
        raise InvalidArgumentError(f"DepthwiseConv2dNativeBackpropFilter: out_backprop shape "
                                   f"{list(dy._value.shape)} does not match the computed "
                                   f"{[x._value.shape[0], *out, c * m]}")
    cols = gather_windows(x, (kh, kw), st, dil, pads, out)
    dw = einsum("pkc,pcm->kcm", reshape(cols, (-1, kh * kw, c)), reshape(dy, (-1, c, m)))
    return reshape(dw, (kh, kw, c, m))


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     data_format=None, dilations=None, name=None):
    """A depthwise convolution followed by a 1x1 convolution mixing the channels
    (``pointwise_filter`` is ``[1, 1, in_channels * multiplier, out_channels]``)."""
    check_channels_last(data_format, ("NHWC",), "DepthwiseConv2dNative", UnimplementedError)
    x, dw = convert.binary(input, depthwise_filter, "DepthwiseConv2dNative")
    pw = convert.tensor(pointwise_filter)
    if pw._value.ndim != 4 or pw._value.shape[:2] != (1, 1):
        raise ValueError(f"pointwise_filter must be [1, 1, in, out], got shape "
                         f"{list(pw._value.shape)}")
    if pw._value.shape[2] != dw._value.shape[2] * dw._value.shape[3]:
        raise ValueError(f"pointwise_filter's input channels ({pw._value.shape[2]}) must be "
                         f"in_channels * channel_multiplier "
                         f"({dw._value.shape[2] * dw._value.shape[3]})")
    depthwise = depthwise_conv2d(x, dw, strides, padding, dilations=dilations)
    return conv2d(depthwise, pw, [1, 1, 1, 1], "VALID")
