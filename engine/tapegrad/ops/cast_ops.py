"""Casts beyond ``tf.cast``: ``saturate_cast`` (clamped into the target's range first) and
``bitcast`` (the same bytes read as another dtype)."""
from .. import convert
from ..backend import xp
from ..dtypes import as_dtype, from_numpy
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defnondiff, primitive
from ..checks.dtype_rules import NUMBER
from .. import shape_rules
from ..table import defshape
from .arithmetic_ops import cast, clip_by_value


def saturate_cast(value, dtype, name=None):
    """``tf.cast`` after clamping ``value`` into the range of ``dtype`` (no wrap-around).

    >>> import tapegrad as tf
    >>> tf.saturate_cast(tf.constant([-1.5, 300.0]), tf.uint8).numpy().tolist()
    [0, 255]
    """
    x = convert.tensor(value)
    target = as_dtype(dtype)
    source = x.dtype
    if source.is_complex and not target.is_complex:
        x = cast(x, source.real_dtype)   # TensorFlow keeps the real part
        source = x.dtype
    if not source.is_bool and not target.is_bool and not target.is_complex:
        lo, hi = target.min, target.max
        src_lo, src_hi = source.min, source.max
        # clamp only where the target's range is narrower than the source's
        low = lo if lo > src_lo else None
        high = hi if hi < src_hi else None
        if source.is_floating and target.is_integer and high is not None:
            # the largest float of the source dtype not above the target's maximum
            top = xp.asarray(hi, source._np)
            high = float(top if float(top) <= hi else xp.nextafter(top, xp.asarray(0, source._np)))
        if low is not None or high is not None:
            x = clip_by_value(x, xp.asarray(src_lo if low is None else low, source._np),
                              xp.asarray(src_hi if high is None else high, source._np))
    return cast(x, target)


def _bitcast(x, dtype):
    src, dst = x.dtype.itemsize, dtype.itemsize
    if src == dst:
        return x.view(dtype)
    if src > dst:
        return xp.ascontiguousarray(x).view(dtype).reshape(x.shape + (src // dst,))
    return xp.ascontiguousarray(x).view(dtype).reshape(x.shape[:-1])


BITCAST = defnondiff(primitive("Bitcast", _bitcast, dtypes=NUMBER))
defshape(BITCAST, shape_rules.bitcast)


def bitcast(input, type, name=None):  # noqa: A002 - TensorFlow's argument names
    """The bytes of ``input`` read as ``type``: a wider type consumes the last axis (whose
    length must be the size ratio), a narrower one adds an axis of that length.

    >>> import tapegrad as tf
    >>> tf.bitcast(tf.constant(1.0), tf.int32).numpy()
    1065353216
    """
    x = convert.tensor(input)
    target = as_dtype(type)
    src, dst = x._value.dtype.itemsize, target.size
    if src < dst:
        shape = x._value.shape
        if not shape or shape[-1] != dst // src:
            raise InvalidArgumentError(
                f"Cannot bitcast from {from_numpy(x._value.dtype).as_datatype_enum} to "
                f"{target.as_datatype_enum} [Op:Bitcast]")
    return bind(BITCAST, (x,), {"dtype": target._np})
