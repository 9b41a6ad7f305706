"""Convolutions in 1, 2 and 3 spatial dimensions and their transposes (``tf.nn.conv3d``,
``convolution``, ``conv{1,2,3}d_transpose``, ``conv_transpose``, ``atrous_conv2d[_transpose]``,
``tf.extract_volume_patches``, the raw ``tf.conv``).

A convolution is a window gather (``window_ops``) followed by one matrix product; its transpose
(the gradient with respect to the input) is a matrix product followed by a window scatter. Both
are composed from primitives whose rules are each other, so the gradient of a transposed
convolution is a convolution and every order of derivative is available.
"""
from .. import convert
from ..checks import check_dtype
from ..errors import InvalidArgumentError, NotFoundError, UnimplementedError
from ..ground import reshape
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import FLOAT, FLOAT_NAMES, INTERNAL, REAL, accepting, composite
from .. import shape_rules
from ..table import defshape
from .conv1d_ops import conv1d
from .conv_ops import conv2d
from .matmul_ops import matmul
from .window_ops import (check_channels_last, gather_windows, gather_windows_array, scatter_windows,
                         spatial_arg, window_geometry)
from ..batching import own_vjp
from ..primitives import NO_GRADIENT, exempt

_FORMATS = {1: ("NWC",), 2: ("NHWC",), 3: ("NDHWC",)}


def _prod(values):
    p = 1
    for v in values:
        p *= int(v)
    return p


# -- the three products of a convolution, composed (so all orders of gradient exist) --------------
def conv_forward(x, w, strides, dilations, pads, out):
    """``(N, *S, C)`` * ``(*K, C, O)`` -> ``(N, *out, O)``: gather windows, one matmul."""
    ksize = tuple(w._value.shape[:-2])
    o = w._value.shape[-1]
    k = _prod(w._value.shape[:-1])
    cols = gather_windows(x, ksize, strides, dilations, pads, out)
    y = matmul(reshape(cols, (-1, k)), reshape(w, (k, o)))
    return reshape(y, (x._value.shape[0],) + tuple(out) + (o,))


def conv_input_grad(dy, w, in_sizes, strides, dilations, pads):
    """The transpose of ``conv_forward`` in ``x``: ``(N, *out, O)`` -> ``(N, *in_sizes, C)``."""
    ksize = tuple(w._value.shape[:-2])
    c, o = w._value.shape[-2:]
    out = tuple(dy._value.shape[1:-1])
    cols = matmul(reshape(dy, (-1, o)), reshape(w, (-1, o)), transpose_b=True)
    cols = reshape(cols, (dy._value.shape[0],) + out + ksize + (c,))
    return scatter_windows(cols, in_sizes, ksize, strides, dilations, pads, out)


def conv_filter_grad(x, dy, ksize, strides, dilations, pads):
    """The transpose of ``conv_forward`` in ``w``: the filter-shaped product of windows and dy."""
    out = tuple(dy._value.shape[1:-1])
    c, o = x._value.shape[-1], dy._value.shape[-1]
    cols = gather_windows(x, ksize, strides, dilations, pads, out)
    k = _prod(ksize) * c
    dw = matmul(reshape(cols, (-1, k)), reshape(dy, (-1, o)), transpose_a=True)
    return reshape(dw, tuple(ksize) + (c, o))


def _check_ranks(x, w, rank, op, what="filters"):
    if x._value.ndim != rank + 2:
        raise ValueError(f"{op}: input must be {rank + 2}-D (batch, {rank} spatial, channels), "
                         f"got shape {list(x._value.shape)}")
    if w._value.ndim != rank + 2:
        raise ValueError(f"{op}: {what} must be {rank + 2}-D ({rank} spatial, in, out), got shape "
                         f"{list(w._value.shape)}")


# -- conv3d and convolution -------------------------------------------------------------------------
CONV3D = composite("Conv3D", FLOAT)


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None,  # noqa: A002
           name=None):
    """3-D convolution of ``[batch, depth, height, width, in]`` with ``[d, h, w, in, out]``
    filters; ``strides`` is a list of 5 (TensorFlow's form, batch and channel entries 1).

    >>> import tapegrad as tf
    >>> y = tf.nn.conv3d(tf.ones([1, 3, 3, 3, 1]), tf.ones([2, 2, 2, 1, 1]), [1] * 5, "VALID")
    >>> y.shape, float(y[0, 0, 0, 0, 0])
    (TensorShape([1, 2, 2, 2, 1]), 8.0)
    """
    if not isinstance(strides, (list, tuple)):
        raise TypeError(f"Expected list for 'strides' argument to 'conv3d' Op, not {strides!r}.")
    check_channels_last(data_format, ("NDHWC",), "Conv3D", InvalidArgumentError)
    x, w = convert.binary(input, filters, "Conv3D")
    check_dtype(CONV3D, x)
    _check_ranks(x, w, 3, "Conv3D")
    dil = spatial_arg(dilations if dilations is not None else 1, 3, "dilations", "Conv3D")
    if any(d != 1 for d in dil):
        raise InvalidArgumentError("CPU implementation of Conv3D currently only supports dilated "
                                   "rates of 1. [Op:Conv3D]")
    return _conv_nd(x, w, spatial_arg(strides, 3, "strides", "Conv3D", allow_short=False),
                    dil, padding, "Conv3D")


def _conv_nd(x, w, strides, dilations, padding, op):
    rank = w._value.ndim - 2
    if w._value.shape[-2] != x._value.shape[-1]:
        raise InvalidArgumentError(f"input depth must be evenly divisible by filter depth: "
                                   f"{x._value.shape[-1]} vs {w._value.shape[-2]} [Op:{op}]")
    in_sizes = tuple(x._value.shape[1:1 + rank])
    out, pads = window_geometry(in_sizes, tuple(w._value.shape[:rank]), strides, dilations,
                                padding, op)
    return conv_forward(x, w, strides, dilations, pads, out)


def convolution(input, filters, strides=None, padding="VALID", data_format=None,  # noqa: A002
                dilations=None, name=None):
    """N-d convolution (1-, 2- or 3-D, from the rank of ``filters``); leading dimensions of
    ``input`` beyond one batch dimension are batch dimensions too.

    >>> import tapegrad as tf
    >>> tf.nn.convolution(tf.ones([1, 4, 1]), tf.ones([2, 1, 1])).numpy().ravel().tolist()
    [2.0, 2.0, 2.0]
    """
    x, w = convert.binary(input, filters, "Convolution")
    rank = w._value.ndim - 2
    if rank not in (1, 2, 3):
        raise ValueError(f"convolution: filters must be 3-, 4- or 5-D, got shape "
                         f"{list(w._value.shape)}")
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    check_channels_last(data_format, _FORMATS[rank], {1: "Conv2D", 2: "Conv2D", 3: "Conv3D"}[rank],
                        UnimplementedError if rank < 3 else InvalidArgumentError)
    if x._value.ndim < rank + 2:
        raise ValueError(f"convolution: input must have rank at least {rank + 2}, got shape "
                         f"{list(x._value.shape)}")
    batch = tuple(x._value.shape[:x._value.ndim - rank - 1])
    if len(batch) != 1:
        x = reshape(x, (-1,) + tuple(x._value.shape[len(batch):]))
    st = spatial_arg(1 if strides is None else strides, rank, "strides", "Convolution")
    dil = spatial_arg(1 if dilations is None else dilations, rank, "dilations", "Convolution")
    if any(s != 1 for s in st) and any(d != 1 for d in dil):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={list(st)} and dilation_rate={list(dil)}")
    if rank == 1:
        y = conv1d(x, w, list(st), padding, dilations=list(dil))
    elif rank == 2:
        y = conv2d(x, w, list(st), padding, dilations=list(dil))
    else:
        check_dtype(CONV3D, x)
        y = _conv_nd(x, w, st, dil, padding, "Conv3D")
        if data_format is None and all(d == 1 for d in dil):   # (a dilated one goes through
            y = _attr_missing_in_gradient(y)                      # space-to-batch in TensorFlow)
    if len(batch) != 1:
        y = reshape(y, batch + tuple(y._value.shape[1:]))
    return y


# TensorFlow quirk: its Conv3D/MaxPool3D/AvgPool3D gradients read a data_format attribute that
# tf.nn.convolution and tf.nn.max_pool/avg_pool leave unset on a rank-5 input, and fail with an
# AttributeError. The identity below carries that failure to the backward pass.
def _fail_missing_attr(*args, **attrs):
    raise AttributeError("'NoneType' object has no attribute 'decode' (TensorFlow's 3-D "
                         "convolution and pooling gradients fail so when the op was called "
                         "without data_format; pass data_format='NDHWC')")


UNSET_DATA_FORMAT = primitive("UnsetDataFormatIdentity", lambda x: x, exempt=INTERNAL)
defvjp(UNSET_DATA_FORMAT, _fail_missing_attr)
defjvp(UNSET_DATA_FORMAT, _fail_missing_attr)
defshape(UNSET_DATA_FORMAT, shape_rules.same)


def _attr_missing_in_gradient(y):
    return bind(UNSET_DATA_FORMAT, (y,), {})


# -- transposed convolutions ------------------------------------------------------------------------
def _output_shape(output_shape, op):
    v = output_shape._value.tolist() if hasattr(output_shape, "_value") else output_shape
    if hasattr(v, "numpy"):
        v = v.numpy().tolist()
    return tuple(int(a) for a in v)


CONV2D_BACKPROP_INPUT = composite("Conv2DBackpropInput", accepting(*FLOAT_NAMES, "int32"))
CONV3D_BACKPROP_INPUT = composite("Conv3DBackpropInputV2", FLOAT)


def _conv_transpose(input, filters, output_shape, strides, padding, data_format,  # noqa: A002
                    dilations, rank, op):
    formats = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
    check_channels_last(data_format, (formats[rank],), op, InvalidArgumentError)
    x, w = convert.binary(input, filters, op)
    check_dtype(CONV2D_BACKPROP_INPUT if rank < 3 else CONV3D_BACKPROP_INPUT, x)
    _check_ranks(x, w, rank, op)
    shape = _output_shape(output_shape, op)
    if len(shape) != rank + 2:
        raise InvalidArgumentError(f"{op} requires input_sizes to contain {rank + 2} values, got "
                                   f"output_shape {list(shape)} [Op:{op}]")
    if x._value.shape[-1] != w._value.shape[-1]:
        raise InvalidArgumentError(f"{op}: filter and out_backprop must have the same out_depth "
                                   f"[Op:{op}]")
    if shape[-1] != w._value.shape[-2] or shape[0] != x._value.shape[0]:
        raise InvalidArgumentError(f"{op}: output_shape {list(shape)} does not match the batch "
                                   f"of input or the depth of filters [Op:{op}]")
    st = spatial_arg(strides, rank, "strides", op)
    dil = spatial_arg(1 if dilations is None else dilations, rank, "dilations", op)
    if any(d != 1 for d in dil):
        raise InvalidArgumentError(f"Current CPU implementations do not yet support dilation rates "
                                   f"larger than 1. [Op:{op}]")
    return _transpose_nd(x, w, shape, st, dil, padding, op)


def _transpose_nd(x, w, shape, strides, dilations, padding, op):
    """The gradient of an N-d convolution of an input of ``shape`` with respect to that input."""
    rank = w._value.ndim - 2
    in_sizes = tuple(shape[1:-1])
    out, pads = window_geometry(in_sizes, tuple(w._value.shape[:rank]), strides, dilations,
                                padding, op)
    if out != tuple(x._value.shape[1:-1]):
        raise InvalidArgumentError(f"{op}: Size of out_backprop doesn't match computed: actual = "
                                   f"{list(x._value.shape[1:-1])}, computed = {list(out)} "
                                   f"[Op:{op}]")
    return conv_input_grad(x, w, in_sizes, strides, dilations, pads)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NHWC", dilations=None, name=None):
    """The transpose of ``conv2d`` (its gradient with respect to the input): ``filters`` is
    ``[height, width, output_channels, input_channels]``.

    >>> import tapegrad as tf
    >>> y = tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], 2)
    >>> y[0, :, :, 0].numpy().tolist()[0]
    [1.0, 1.0, 1.0, 1.0]
    """
    return _conv_transpose(input, filters, output_shape, strides, padding, data_format,
                           dilations, 2, "Conv2DBackpropInput")


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NWC", dilations=None, name=None):
    """The transpose of ``conv1d``: ``filters`` is ``[width, output_channels, input_channels]``."""
    return _conv_transpose(input, filters, output_shape, strides, padding, data_format,
                           dilations, 1, "Conv2DBackpropInput")


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NDHWC", dilations=None, name=None):
    """The transpose of ``conv3d``: ``filters`` is ``[d, h, w, output_channels, input_channels]``."""
    return _conv_transpose(input, filters, output_shape, strides, padding, data_format,
                           dilations, 3, "Conv3DBackpropInputV2")


def conv_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                   data_format=None, dilations=None, name=None):
    """``conv1d_transpose``, ``conv2d_transpose`` or ``conv3d_transpose`` by the rank of
    ``output_shape`` (3, 4 or 5 entries)."""
    rank = len(_output_shape(output_shape, "conv_transpose")) - 2
    if rank not in (1, 2, 3):
        raise ValueError(f"output_shape must be of length 3, 4 or 5 but was {rank + 2}.")
    fn = {1: conv1d_transpose, 2: conv2d_transpose, 3: conv3d_transpose}[rank]
    fmt = data_format if data_format is not None else {1: "NWC", 2: "NHWC", 3: "NDHWC"}[rank]
    return fn(input, filters, output_shape, strides, padding, fmt, dilations)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """2-D convolution with holes: ``conv2d`` with ``dilations=rate``."""
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    return conv2d(value, filters, 1, padding, dilations=int(rate))


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of ``atrous_conv2d`` (its gradient with respect to the input)."""
    if int(rate) < 1:
        raise ValueError(f"rate {rate} cannot be less than one")
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise ValueError(f"padding must be either VALID or SAME: {padding!r}")
    x, w = convert.binary(value, filters, "atrous_conv2d_transpose")
    check_dtype(CONV2D_BACKPROP_INPUT, x)
    _check_ranks(x, w, 2, "atrous_conv2d_transpose")
    if x._value.shape[3] != w._value.shape[3]:
        raise ValueError(f"value's input channels does not match filters' input channels, "
                         f"{x._value.shape[3]} != {w._value.shape[3]}")
    shape = _output_shape(output_shape, "atrous_conv2d_transpose")
    if len(shape) != 4 or shape[3] != w._value.shape[2]:
        raise ValueError(f"output_shape does not match filter's output channels: {list(shape)}")
    r = int(rate)
    return _transpose_nd(x, w, shape, (1, 1), (r, r), padding, "Conv2DBackpropInput")


# -- patches and the raw ops ----------------------------------------------------------------------
EXTRACT_VOLUME_PATCHES = composite("ExtractVolumePatches", REAL)


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """Every ``[planes, rows, cols]`` patch of a 5-D input, flattened into the last dimension
    (in patch-then-channel order)."""
    x = convert.tensor(input)
    check_dtype(EXTRACT_VOLUME_PATCHES, x)
    if x._value.ndim != 5:
        raise ValueError(f"ExtractVolumePatches: input must be 5-D, got shape "
                         f"{list(x._value.shape)}")
    k = spatial_arg(ksizes, 3, "ksizes", "ExtractVolumePatches", allow_short=False)
    st = spatial_arg(strides, 3, "strides", "ExtractVolumePatches", allow_short=False)
    out, pads = window_geometry(tuple(x._value.shape[1:4]), k, st, (1, 1, 1), padding,
                                "ExtractVolumePatches", explicit=False)
    cols = gather_windows(x, k, st, (1, 1, 1), pads, out)
    return reshape(cols, (x._value.shape[0],) + out + (_prod(k) * x._value.shape[4],))


def _raw_conv_impl(x, w, strides, dilations, pads, out):
    cols = gather_windows_array(x, w.shape[:-2], strides, dilations, pads, out)
    k = _prod(w.shape[:-1])
    y = cols.reshape(-1, k) @ w.reshape(k, w.shape[-1])
    return y.reshape((x.shape[0],) + tuple(out) + (w.shape[-1],))


# TensorFlow registers no gradient for the raw "Conv" op: a primitive with no rule does the same.
RAW_CONV = primitive("Conv", _raw_conv_impl, dtypes=accepting(*FLOAT_NAMES, "int32"))
exempt(RAW_CONV, **NO_GRADIENT)
defshape(RAW_CONV, shape_rules.convolution("out"))


def conv(input, filter, strides, padding, explicit_paddings=(), data_format="CHANNELS_LAST",  # noqa: A002
         dilations=(), batch_dims=1, groups=1, name=None):
    """The raw ``Conv`` op (``tf.conv``): an N-d convolution with full-length ``strides``; it has
    no gradient in TensorFlow, and none here."""
    x, w = convert.binary(input, filter, "Conv")
    rank = w._value.ndim - 2
    if data_format != "CHANNELS_LAST":
        raise UnimplementedError(f"Conv: data_format={data_format!r} is not supported on CPU")
    if int(batch_dims) != 1:
        raise UnimplementedError(f"Conv: batch_dims={batch_dims} is not implemented (only 1)")
    if int(groups) != 1 or w._value.shape[-2] != x._value.shape[-1]:
        raise UnimplementedError("Grouped/Depthwise Convolutions are not supported yet. [Op:Conv]")
    _check_ranks(x, w, rank, "Conv", "filter")
    st = spatial_arg(strides, rank, "strides", "Conv", allow_short=False)
    dil = spatial_arg(list(dilations) or [1] * (rank + 2), rank, "dilations", "Conv",
                      allow_short=False)
    if padding == "EXPLICIT":
        flat = [int(a) for a in explicit_paddings]
        padding = [flat[i:i + 2] for i in range(0, len(flat), 2)]
    out, pads = window_geometry(tuple(x._value.shape[1:-1]), tuple(w._value.shape[:rank]), st, dil,
                                padding, "Conv")
    return bind(RAW_CONV, (x, w), {"strides": st, "dilations": dil, "pads": pads, "out": out})


def _no_cpu_kernel(op):
    raise NotFoundError(f"Could not find device for node: {op}. No kernel is registered for "
                        f"{op} on CPU in TensorFlow 2.21 (use tf.nn.conv2d under a "
                        f"GradientTape instead) [Op:{op}]")


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                             use_cudnn_on_gpu=True, explicit_paddings=(), data_format="NHWC",
                             dilations=(1, 1, 1, 1), name=None):
    """As in TensorFlow 2.21 on CPU, which registers no kernel for it: a ``NotFoundError``."""
    _no_cpu_kernel("Conv2DBackpropInputV2")


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding,  # noqa: A002
                              use_cudnn_on_gpu=True, explicit_paddings=(), data_format="NHWC",
                              dilations=(1, 1, 1, 1), name=None):
    """As in TensorFlow 2.21 on CPU, which registers no kernel for it: a ``NotFoundError``."""
    _no_cpu_kernel("Conv2DBackpropFilterV2")


__all__ = ["atrous_conv2d", "atrous_conv2d_transpose", "conv", "conv1d_transpose",
           "conv2d_backprop_filter_v2", "conv2d_backprop_input_v2", "conv2d_transpose", "conv3d",
           "conv3d_transpose", "conv_transpose", "convolution", "extract_volume_patches"]


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
# TensorFlow's 3-D convolution and pooling gradients fail when the op was called without
# data_format: the VJP raises that error, and so does its batched pass.
own_vjp(UNSET_DATA_FORMAT)
