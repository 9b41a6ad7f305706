"""``tf.image`` colour spaces and colour adjustments.

YIQ and YUV are linear (a 3x3 matrix on the channel axis); RGB to HSV is composed from
differentiable ops, so its gradient is TensorFlow's analytic one (RGBToHSV's registered rule);
HSV to RGB has no gradient (``None``) and ``adjust_hue`` / ``adjust_saturation`` none at all (a
``LookupError`` naming the op), as in TensorFlow. ``adjust_gamma`` is ``gain * image ** gamma``.
"""
from ..backend import xp
from .. import convert
from ..dtypes import float16, float32
from ..errors import FailedPreconditionError, InvalidArgumentError
from ..ground import add, multiply
from ..recording import bind
from ..table import defnondiff, primitive
from ..checks.dtype_rules import FLOAT
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from .arithmetic_ops import maximum, subtract
from .array_ops import stack, unstack
from .exponential_ops import pow as _pow
from .image_ops import _tensor, convert_image_dtype
from .logic_ops import equal, greater, less, where
from .reduction_ops import reduce_max, reduce_min
from .shape_ops import tensordot
from ..primitives import NO_GRADIENT, exempt

_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1.0, 1.0, 1.0], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1.0, 1.0, 1.0], [0.0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0.0]]


def _three_channels(x, op, error=InvalidArgumentError):
    if x._value.ndim < 1 or x._value.shape[-1] != 3:
        raise error(f"input must have 3 channels but input only has "
                                   f"{x._value.shape[-1] if x._value.ndim else 0} channels "
                                   f"[Op:{op}]")
    return x


def _linear(images, matrix):
    x = _tensor(images)
    if x._value.shape[-1:] != (3,):
        raise ValueError(f"Dimensions must be equal, but are {x._value.shape[-1]} and 3 for "
                         f"the channel axis of a colour conversion")
    kernel = convert_to_tensor(xp.asarray(matrix, dtype=x._value.dtype))
    return tensordot(x, kernel, [[x._value.ndim - 1], [0]])


def rgb_to_yiq(images):
    """RGB to YIQ (luma, in-phase, quadrature) on the last axis.

    >>> import tapegrad as tf
    >>> [abs(round(v, 3)) for v in tf.image.rgb_to_yiq([1.0, 1.0, 1.0]).numpy().tolist()]
    [1.0, 0.0, 0.0]
    """
    return _linear(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    """YIQ back to RGB on the last axis."""
    return _linear(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    """RGB to YUV (luma, two chroma) on the last axis."""
    return _linear(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    """YUV back to RGB on the last axis."""
    return _linear(images, _YUV_TO_RGB)


def rgb_to_hsv(images, name=None):
    """RGB (floats in [0, 1]) to hue, saturation, value, each in [0, 1].

    >>> import tapegrad as tf
    >>> tf.image.rgb_to_hsv([0.0, 0.0, 1.0]).numpy().tolist()
    [0.6666666865348816, 1.0, 1.0]
    """
    x = _three_channels(_tensor(images), "RGBToHSV", FailedPreconditionError)
    if x._value.dtype.kind != "f":
        raise InvalidArgumentError(f"Value for attr 'T' of {x.dtype.name} is not in the list "
                                   f"of allowed values: half, bfloat16, float, double")
    r, g, b = unstack(x, axis=-1)
    value = reduce_max(x, axis=-1)
    spread = subtract(value, reduce_min(x, axis=-1))
    zero, one = (convert_to_tensor(v, dtype=x.dtype) for v in (0.0, 1.0))
    positive = greater(spread, zero)
    safe_spread = where(positive, spread, one)           # no 0/0 in the branch not taken
    saturation = where(greater(value, zero), spread / where(greater(value, zero), value, one),
                       zero)
    sixth = convert_to_tensor(1.0 / 6.0, dtype=x.dtype)
    norm = sixth / safe_spread
    hue = where(equal(r, value), norm * (g - b),
                where(equal(g, value), norm * (b - r) + 2.0 * sixth, norm * (r - g) + 4.0 * sixth))
    hue = where(positive, hue, zero)
    hue = where(less(hue, zero), hue + one, hue)
    return stack([hue, saturation, value], axis=-1)


def _hsv_to_rgb(x):
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    dh = h * 6
    channels = [xp.clip(xp.abs(dh - 3) - 1, 0, 1), xp.clip(2 - xp.abs(dh - 2), 0, 1),
                xp.clip(2 - xp.abs(dh - 4), 0, 1)]
    return xp.stack([((1 - s) + s * c) * v for c in channels], axis=-1).astype(x.dtype)


HSV_TO_RGB = defnondiff(primitive("HSVToRGB", _hsv_to_rgb, dtypes=FLOAT))
defshape(HSV_TO_RGB, shape_rules.same)


def hsv_to_rgb(images, name=None):
    """Hue, saturation, value (each in [0, 1]) back to RGB; TF gives no gradient (None)."""
    x = _three_channels(_tensor(images), "HSVToRGB", FailedPreconditionError)
    if x._value.dtype.kind != "f":
        raise InvalidArgumentError(f"Value for attr 'T' of {x.dtype.name} is not in the list "
                                   f"of allowed values: half, bfloat16, float, double")
    return bind(HSV_TO_RGB, (x,), {})


def adjust_gamma(image, gamma=1, gain=1):
    """``gain * image ** gamma`` (integer images through floats in [0, 1], saturated back).

    >>> import tapegrad as tf
    >>> tf.image.adjust_gamma([[[0.5]]], gamma=2.0).numpy().ravel().tolist()
    [0.25]
    """
    x = _tensor(image)
    original = x.dtype
    flt = x if original in (float16, float32) else convert_image_dtype(x, float32)
    g = convert.tensor(gamma)
    if bool(xp.any(g._value < 0)):
        raise ValueError("Gamma should be a non-negative real number.")
    g = convert_to_tensor(gamma, dtype=flt.dtype) if not hasattr(gamma, "_value") else g
    adjusted = multiply(convert_to_tensor(gain, dtype=flt.dtype) if not hasattr(gain, "_value")
                        else gain, _pow(flt, g))
    return convert_image_dtype(adjusted, original, saturate=True)


def _hue_category_ratio(r, g, b):
    """TF's AdjustHue split of a pixel into hue in [0, 6), min and max of its channels."""
    vmax = xp.maximum(xp.maximum(r, g), b)
    vmin = xp.minimum(xp.minimum(r, g), b)
    rg, br, bg = r < g, b < r, b > g
    gb, bgt = b < g, b > r
    category = xp.where(rg, xp.where(br, 1, xp.where(bg, 3, 2)),
                        xp.where(gb, 0, xp.where(bgt, 4, 5)))
    mid = xp.sort(xp.stack([r, g, b], axis=-1), axis=-1)[..., 1]
    span = vmax - vmin
    with xp.errstate(all="ignore"):
        ratio = (mid - vmin) / span
    hue = category.astype(xp.float32) + xp.where(category % 2 == 0, ratio, 1 - ratio)
    return xp.where(span == 0, xp.float32(0), hue).astype(xp.float32), vmin, vmax


def _adjust_hue(x, delta):
    r, g, b = (x[..., i].astype(xp.float32) for i in range(3))
    hue, vmin, vmax = _hue_category_ratio(r, g, b)
    hue = hue + xp.float32(delta) * xp.float32(6)
    hue = xp.where(hue < 0, hue + xp.float32(6), hue)               # delta is in [-1, 1]: at
    hue = xp.where(hue < 0, hue + xp.float32(6), hue)               # most two turns back into
    hue = xp.where(hue >= 6, hue - xp.float32(6), hue)              # [0, 6), as TF's loops
    hue = xp.where(hue >= 6, hue - xp.float32(6), hue)
    category = hue.astype(xp.int64)
    ratio = hue - category.astype(xp.float32)
    ratio = xp.where(category % 2 == 0, ratio, 1 - ratio)
    mid = vmin + ratio * (vmax - vmin)
    # (r, g, b) as (max, mid, min) per category 0..5
    order = xp.asarray([[2, 1, 0], [1, 2, 0], [0, 2, 1], [0, 1, 2], [1, 0, 2], [2, 0, 1]])
    parts = xp.stack([vmin, mid, vmax], axis=-1)
    picked = xp.take_along_axis(parts, order[xp.clip(category, 0, 5)], axis=-1)
    return picked.astype(x.dtype)


ADJUST_HUE = primitive("AdjustHue", _adjust_hue,
                       dtypes=FLOAT)                 # no gradient, as in TF
exempt(ADJUST_HUE, **NO_GRADIENT)
defshape(ADJUST_HUE, shape_rules.same)


def _float_image_op(image, fn):
    x = _tensor(image)
    original = x.dtype
    flt = x if original in (float16, float32) else convert_image_dtype(x, float32)
    return convert_image_dtype(fn(flt), original)


def adjust_hue(image, delta, name=None):
    """Rotates the hue of RGB images by ``delta`` (a fraction of a turn, in [-1, 1]).

    >>> import tapegrad as tf
    >>> tf.image.adjust_hue([[[1.0, 0.0, 0.0]]], 1 / 3).numpy().ravel().tolist()
    [0.0, 1.0, 0.0]
    """
    d = float(xp.asarray(getattr(delta, "_value", delta)))
    if not -1.0 <= d <= 1.0:
        raise InvalidArgumentError(f"delta must be in the interval [-1, 1]")
    return _float_image_op(image, lambda f: bind(
        ADJUST_HUE, (_three_channels(f, "AdjustHue"),), {"delta": d}))


def _adjust_saturation(x, scale):
    r, g, b = (x[..., i].astype(xp.float32) for i in range(3))
    vv = xp.maximum(xp.maximum(r, g), b)
    span = vv - xp.minimum(xp.minimum(r, g), b)
    with xp.errstate(all="ignore"):
        s = xp.where(vv > 0, span / vv, 0).astype(xp.float32)
        norm = xp.float32(1.0) / (xp.float32(6.0) * span)
        h = xp.where(r == vv, norm * (g - b),
                     xp.where(g == vv, norm * (b - r) + xp.float32(2.0 / 6.0),
                              norm * (r - g) + xp.float32(4.0 / 6.0)))
    h = xp.where(span <= 0, xp.float32(0), h)
    h = xp.where(h < 0, h + 1, h).astype(xp.float32)
    s = xp.minimum(xp.float32(1), xp.maximum(xp.float32(0), s * xp.float32(scale)))
    c = s * vv
    m = vv - c
    dh = h * xp.float32(6)
    category = dh.astype(xp.int64)
    fmodu = xp.mod(dh, xp.float32(2))
    xx = c * (1 - xp.abs(fmodu - 1))
    zero = xp.zeros_like(c)
    table = xp.stack([xp.stack(t, axis=-1) for t in
                      ((c, xx, zero), (xx, c, zero), (zero, c, xx), (zero, xx, c), (xx, zero, c),
                       (c, zero, xx), (zero, zero, zero))], axis=0)
    picked = xp.take_along_axis(table, xp.clip(category, 0, 6)[None, ..., None], axis=0)[0]
    return (picked + m[..., None]).astype(x.dtype)


ADJUST_SATURATION = primitive("AdjustSaturation", _adjust_saturation,
                              dtypes=FLOAT)   # no gradient, as TF
exempt(ADJUST_SATURATION, **NO_GRADIENT)
defshape(ADJUST_SATURATION, shape_rules.same)


def adjust_saturation(image, saturation_factor, name=None):
    """Scales the HSV saturation of RGB images by ``saturation_factor`` (clipped to [0, 1]).

    >>> import tapegrad as tf
    >>> tf.image.adjust_saturation([[[1.0, 0.5, 0.5]]], 0.0).numpy().ravel().tolist()
    [1.0, 1.0, 1.0]
    """
    scale = float(xp.asarray(getattr(saturation_factor, "_value", saturation_factor)))
    return _float_image_op(image, lambda f: bind(
        ADJUST_SATURATION, (_three_channels(f, "AdjustSaturation"),), {"scale": scale}))


def _adjust_contrast(images, contrast_factor):
    mean = images.mean(axis=(-3, -2), keepdims=True, dtype=images.dtype)
    return ((images - mean) * contrast_factor + mean).astype(images.dtype, copy=False)


ADJUST_CONTRAST = primitive("AdjustContrastv2", _adjust_contrast,
                            dtypes=FLOAT)  # no vjp: LookupError
exempt(ADJUST_CONTRAST, **NO_GRADIENT)
defshape(ADJUST_CONTRAST, shape_rules.same)


def adjust_contrast(images, contrast_factor):
    """(x - mean) * contrast_factor + mean, per channel over height and width; a gradient through
    it is a ``LookupError`` naming ``AdjustContrastv2``, as in TensorFlow."""
    images, factor = convert.binary(images, contrast_factor, "AdjustContrastv2")
    if images._value.ndim < 3:
        raise ValueError(f"adjust_contrast: images must be at least 3-D [height, width, channels], "
                         f"got shape {images.shape}")
    if factor._value.ndim != 0:
        raise ValueError(f"adjust_contrast: contrast_factor must be a scalar, got shape "
                         f"{factor.shape}")
    return bind(ADJUST_CONTRAST, (images, factor), {})


del add, maximum, wrap
