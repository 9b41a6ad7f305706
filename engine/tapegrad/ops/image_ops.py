"""``tf.image`` basics: resizing, flips and rotations, crops and pads, standardization, dtype
conversion, grayscale and brightness, all composed from differentiable ops.

Resizing follows TensorFlow 2's ``tf.image.resize`` (half-pixel centers, no antialiasing):
output pixel o samples the input at (o + 0.5) * in / out - 0.5. Bilinear interpolates there
(clamping at the borders) and always returns float32; nearest takes floor((o + 0.5) * in / out)
and keeps the dtype. Both are written as products with small interpolation matrices, so the
gradient is dense, as TensorFlow's ResizeBilinearGrad / ResizeNearestNeighborGrad.
"""
import math as _math

from .. import random as tf_random
from ..backend import xp
from ..dtypes import as_dtype, float32
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import add, multiply, reduce_sum, reshape
from .arithmetic_ops import cast, clip_by_value, maximum, subtract
from .array_ops import transpose
from .matmul_ops import matmul
from .exponential_ops import rsqrt
from .reduction_ops import reduce_mean, reduce_std
from .shape_ops import pad, reverse, tile


class ResizeMethod:
    """Method names accepted by ``resize`` (TensorFlow's ``tf.image.ResizeMethod``)."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _image(x, op):
    x = _tensor(x)
    if x._value.ndim not in (3, 4):
        raise ValueError(f"'images' must have either 3 or 4 dimensions (got shape "
                         f"{list(x._value.shape)}) in {op}")
    return x


def _hw(x):
    return x._value.shape[-3], x._value.shape[-2]


def _bilinear_weights(n_in, n_out):
    w = xp.zeros((n_out, n_in), xp.float32)
    scale = n_in / n_out
    for o in range(n_out):
        pos = (o + 0.5) * scale - 0.5
        low = _math.floor(pos)
        frac = pos - low
        lo, hi = min(max(low, 0), n_in - 1), min(max(low + 1, 0), n_in - 1)
        w[o, lo] += 1.0 - frac
        w[o, hi] += frac
    return w


def _nearest_index(n_in, n_out):
    scale = n_in / n_out
    return xp.minimum(xp.floor((xp.arange(n_out) + 0.5) * scale).astype(xp.int64), n_in - 1)


def _apply(x, wh, ww):
    """Resamples the height and width axes of x with the matrices wh (out x in), ww, as two
    matrix products (an einsum over all the indices at once overflows NumPy's iterator on 32-bit
    WebAssembly for photo-sized images: a 256x256 image resized to 224x224)."""
    *lead, h, w, c = x._value.shape
    o, p = wh.shape[0], ww.shape[0]
    dt = x._value.dtype
    rows = matmul(wrap(wh.astype(dt)), reshape(x, (*lead, h, w * c)))           # (..., o, w*c)
    rows = transpose(reshape(rows, (*lead, o, w, c)), (*range(len(lead)), len(lead), len(lead) + 2,
                                                       len(lead) + 1))            # (..., o, c, w)
    out = matmul(rows, wrap(xp.ascontiguousarray(ww.T).astype(dt)))              # (..., o, c, p)
    return transpose(out, (*range(len(lead)), len(lead), len(lead) + 2, len(lead) + 1))


def resize(images, size, method="bilinear", preserve_aspect_ratio=False, antialias=False,
           name=None):
    """Images (``[h, w, c]`` or ``[batch, h, w, c]``) resized to ``size = [height, width]``.

    >>> import tapegrad as tf
    >>> tf.image.resize([[[0.0], [1.0]]], [1, 4]).numpy().ravel().tolist()
    [0.0, 0.25, 0.75, 1.0]
    """
    x = _image(images, "resize")
    target = [int(v) for v in xp.asarray(getattr(size, "_value", size)).reshape(-1)]
    if len(target) != 2 or min(target) <= 0:
        raise ValueError(f"'size' must be a 1-D tensor of 2 positive elements: new_height, "
                         f"new_width, got {target}")
    h, w = _hw(x)
    if preserve_aspect_ratio:
        factor = min(target[0] / h, target[1] / w)
        target = [int(round(h * factor)), int(round(w * factor))]
    method = str(method).lower()
    if antialias:
        raise NotImplementedError("resize: antialias=True is not implemented")
    if method == "nearest":
        rows, cols = _nearest_index(h, target[0]), _nearest_index(w, target[1])
        if x._value.dtype.kind not in "fc":
            return wrap(xp.ascontiguousarray(x._value[..., rows, :, :][..., cols, :]))
        wh = xp.eye(h, dtype=xp.float32)[rows]
        ww = xp.eye(w, dtype=xp.float32)[cols]
        return _apply(x, wh, ww)
    if method != "bilinear":
        raise NotImplementedError(f"resize: method {method!r} is not implemented (bilinear and "
                                  f"nearest are)")
    if x._value.dtype != xp.float32:
        x = cast(x, float32)
    return _apply(x, _bilinear_weights(h, target[0]), _bilinear_weights(w, target[1]))


def flip_left_right(image):
    """Mirrors the width axis."""
    return reverse(_image(image, "flip_left_right"), [-2])


def flip_up_down(image):
    """Mirrors the height axis."""
    return reverse(_image(image, "flip_up_down"), [-3])


def _random_flip(image, seed, axis):
    x = _image(image, "random_flip")
    if x._value.ndim == 3:
        coin = float(tf_random.uniform([], seed=seed)._value)
        return reverse(x, [axis]) if coin < 0.5 else x
    coins = tf_random.uniform([x._value.shape[0]], seed=seed)._value < 0.5
    mask = wrap(coins.reshape(-1, 1, 1, 1).astype(x._value.dtype))
    flipped = reverse(x, [axis])
    keep = wrap((~coins).reshape(-1, 1, 1, 1).astype(x._value.dtype))
    return add(multiply(flipped, mask), multiply(x, keep))


def random_flip_left_right(image, seed=None):
    """Mirrors the width axis with probability 1/2 (each image of a batch on its own draw)."""
    return _random_flip(image, seed, -2)


def random_flip_up_down(image, seed=None):
    """Mirrors the height axis with probability 1/2 (each image of a batch on its own draw)."""
    return _random_flip(image, seed, -3)


def _swap_hw(x):
    nd = x._value.ndim
    perm = list(range(nd))
    perm[-3], perm[-2] = perm[-2], perm[-3]
    return transpose(x, perm)


def transpose_image(image, name=None):
    """Swaps height and width."""
    return _swap_hw(_image(image, "transpose"))


def rot90(image, k=1, name=None):
    """Rotates by k quarter turns counterclockwise."""
    x = _image(image, "rot90")
    if isinstance(k, float) or getattr(getattr(k, "dtype", None), "is_floating", False):
        raise TypeError(f"Cannot convert {k!r} to EagerTensor of dtype int32")
    k = int(k) % 4
    if k == 1:
        return _swap_hw(reverse(x, [-2]))
    if k == 2:
        return reverse(x, [-3, -2])
    if k == 3:
        return reverse(_swap_hw(x), [-2])
    return x


def _box(image, op, *numbers):
    """The image as a tensor, its height and width, and the box's offsets and size as ints."""
    x = _image(image, op)
    h, w = _hw(x)
    return x, h, w, [int(v) for v in numbers]


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The ``target_height x target_width`` window whose top-left corner is at the offsets."""
    x, h, w, (oh, ow, th, tw) = _box(image, "crop_to_bounding_box", offset_height, offset_width,
                                     target_height, target_width)
    if oh < 0 or ow < 0:
        raise ValueError("offset_height and offset_width must be >= 0.")
    if th <= 0 or tw <= 0:
        raise ValueError("target_width and target_height must be > 0.")
    if h < th + oh:
        raise ValueError("height must be >= target + offset.")
    if w < tw + ow:
        raise ValueError("width must be >= target + offset.")
    return x[..., oh:oh + th, ow:ow + tw, :]


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The image placed at the offsets inside a zero canvas of the target size."""
    x, h, w, (oh, ow, th, tw) = _box(image, "pad_to_bounding_box", offset_height, offset_width,
                                     target_height, target_width)
    if oh < 0 or ow < 0:
        raise ValueError("offset_height and offset_width must be >= 0")
    if th - oh - h < 0:
        raise ValueError("height must be <= target - offset")
    if tw - ow - w < 0:
        raise ValueError("width must be <= target - offset")
    lead = [[0, 0]] * (x._value.ndim - 3)
    return pad(x, lead + [[oh, th - oh - h], [ow, tw - ow - w], [0, 0]])


def central_crop(image, central_fraction):
    """The central ``central_fraction`` of the height and width (offsets rounded down)."""
    x = _image(image, "central_crop")
    fraction = float(central_fraction)
    if not 0.0 < fraction <= 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if fraction == 1.0:
        return x
    h, w = _hw(x)
    top = int((h - h * fraction) / 2)
    left = int((w - w * fraction) / 2)
    return x[..., top:h - top, left:w - left, :]


def resize_with_crop_or_pad(image, target_height, target_width):
    """Crops the center or pads evenly with zeros to ``target_height x target_width``."""
    x = _image(image, "resize_with_crop_or_pad")
    th, tw = int(target_height), int(target_width)
    if th <= 0 or tw <= 0:
        raise ValueError("target_height and target_width must be > 0.")
    h, w = _hw(x)
    crop_h, crop_w = max((h - th) // 2, 0), max((w - tw) // 2, 0)
    x = crop_to_bounding_box(x, crop_h, crop_w, min(th, h), min(tw, w))
    h, w = _hw(x)
    return pad_to_bounding_box(x, max((th - h) // 2, 0), max((tw - w) // 2, 0), th, tw)


def per_image_standardization(image):
    """(x - mean) / max(stddev, 1 / sqrt(number of values)), per image; float32 out."""
    x = _image(image, "per_image_standardization")
    if x._value.dtype.kind not in "f":
        x = cast(x, float32)
    count = x._value.shape[-1] * x._value.shape[-2] * x._value.shape[-3]
    mean = reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
    std = reduce_std(x, axis=[-1, -2, -3], keepdims=True)
    floor = rsqrt(convert_to_tensor(float(count), dtype=x.dtype))
    return subtract(x, mean) / maximum(std, floor)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts pixel values between dtypes, rescaling: integers span [0, max], floats [0, 1].

    >>> import tapegrad as tf
    >>> tf.image.convert_image_dtype(tf.constant([0, 255], tf.uint8), tf.float32).numpy().tolist()
    [0.0, 1.0]
    """
    x = _tensor(image)
    target = as_dtype(dtype)
    src = x._value.dtype
    dst = xp.dtype(target.as_numpy_dtype)
    if src == dst:
        return x
    if src.kind in "iu" and dst.kind in "iu":
        src_max, dst_max = int(xp.iinfo(src).max), int(xp.iinfo(dst).max)
        a = x._value.astype(xp.int64)
        if src_max > dst_max:
            a = a // ((src_max + 1) // (dst_max + 1))
        else:
            a = a * ((dst_max + 1) // (src_max + 1))
        return wrap(a.astype(dst))
    if src.kind in "iu":                         # integers to floats
        return multiply(cast(x, target), convert_to_tensor(1.0 / xp.iinfo(src).max,
                                                           dtype=target))
    if dst.kind in "iu":                         # floats to integers
        info = xp.iinfo(dst)
        scaled = x._value.astype(xp.float64) * (float(info.max) + 0.5)
        if saturate:
            scaled = xp.clip(scaled, info.min, info.max)
        return wrap(scaled.astype(xp.int64).astype(dst))   # wraps around, as TF's cast
    return cast(x, target)


_GRAY = (0.2989, 0.5870, 0.1140)


def rgb_to_grayscale(images, name=None):
    """0.2989 R + 0.5870 G + 0.1140 B, keeping a channel axis of size 1."""
    x = _tensor(images)
    floats = convert_image_dtype(x, float32) if x._value.dtype.kind != "f" else x
    weights = convert_to_tensor(xp.asarray(_GRAY, dtype=floats._value.dtype))
    gray = reduce_sum(multiply(floats, weights), axis=-1, keepdims=True)
    return convert_image_dtype(gray, x.dtype) if x._value.dtype.kind != "f" else gray


def grayscale_to_rgb(images, name=None):
    """The single channel repeated three times."""
    x = _tensor(images)
    if x._value.shape[-1] != 1:
        raise ValueError(f"Last dimension of a grayscale image should be size 1, got "
                         f"{x._value.shape[-1]}")
    return tile(x, [1] * (x._value.ndim - 1) + [3])


def adjust_brightness(image, delta):
    """image + delta (integer images go through floats and saturate back)."""
    x = _tensor(image)
    if x._value.dtype.kind == "f":
        return add(x, convert_to_tensor(delta, dtype=x.dtype))
    floats = convert_image_dtype(x, float32)
    return convert_image_dtype(add(floats, convert_to_tensor(delta, dtype=float32)), x.dtype,
                               saturate=True)


del clip_by_value
