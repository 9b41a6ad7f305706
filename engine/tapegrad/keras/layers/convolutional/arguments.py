"""The argument checks of the convolution, pooling and 3-D reshaping layers (``kernel_size``,
``strides``, ``padding``, ``dilation_rate``, ``data_format``, ``filters``), in one place, and the
output-length arithmetic they share."""
from ....errors import UnimplementedError
from ....ops import transpose


def padding_of(value, layer, allowed=("valid", "same")):
    """The padding in lower case; anything not in ``allowed`` is a ValueError."""
    p = str(value).lower()
    if p not in allowed:
        names = [repr(a) for a in allowed]
        either = ", ".join(names[:-1]) + " or " + names[-1]
        raise ValueError(f"{layer}: padding must be {either}, got {value!r}")
    return p


def data_format_of(value, layer):
    """``None`` -> 'channels_last'; anything but the two Keras names is a ValueError."""
    fmt = "channels_last" if value is None else str(value).lower()
    if fmt not in ("channels_last", "channels_first"):
        raise ValueError(f"{layer}: data_format must be 'channels_last' or 'channels_first', got "
                         f"{value!r}")
    return fmt


def strictly_positive(value, what):
    """``filters``, ``depth_multiplier``: a positive int, else Keras's ValueError."""
    if int(value) <= 0:
        raise ValueError(f"Invalid value for argument `{what}`. Expected a strictly positive "
                         f"value. Received {what}={value}.")
    return int(value)


def strides_and_dilation(strides, dilation_rate):
    """Keras refuses strides above 1 together with a dilation above 1."""
    if any(s > 1 for s in strides) and any(d > 1 for d in dilation_rate):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={strides} and dilation_rate={dilation_rate}")


def no_constraints(layer, **constraints):
    for key, value in constraints.items():
        if value is not None:
            raise UnimplementedError(f"{layer}: `{key}` (weight constraints) is not implemented")


def to_channels_last(x, data_format):
    """(N, C, *spatial) -> (N, *spatial, C) when ``data_format`` is channels_first."""
    if data_format != "channels_first":
        return x
    r = len(x.shape)
    return transpose(x, (0,) + tuple(range(2, r)) + (1,))


def from_channels_last(y, data_format):
    """The inverse of ``to_channels_last``."""
    if data_format != "channels_first":
        return y
    r = len(y.shape)
    return transpose(y, (0, r - 1) + tuple(range(1, r - 1)))


def spatial_of(input_shape, data_format):
    """The spatial axes of a shape (between batch and channels)."""
    s = tuple(input_shape)
    return s[2:] if data_format == "channels_first" else s[1:-1]


def with_format(input_shape, spatial, channels, data_format):
    """A shape from its batch, spatial axes and channels, in ``data_format``'s order."""
    if data_format == "channels_first":
        return (input_shape[0], channels) + tuple(spatial)
    return (input_shape[0],) + tuple(spatial) + (channels,)


def conv_out_len(size, k, stride, dilation, padding):
    """The length of a convolution's output along one axis ('valid' or 'same'; 'causal' is as
    long as 'same')."""
    if size is None:
        return None
    k = (k - 1) * dilation + 1
    return -(-(size - k + 1) // stride) if padding == "valid" else -(-size // stride)


def transpose_out_len(size, k, stride, dilation, padding, output_padding):
    """Keras's output length of a transposed convolution along one axis: with no
    ``output_padding``, ``size * stride`` ('same') or ``(size - 1) * stride + max(k, stride)``
    ('valid')."""
    if size is None:
        return None
    k = (k - 1) * dilation + 1
    if padding == "valid":
        extra = max(k, stride) - k if output_padding is None else output_padding
        return (size - 1) * stride + k + extra
    if output_padding is None:
        return size * stride
    return (size - 1) * stride + k % 2 + output_padding
