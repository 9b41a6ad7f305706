"""``tf.image.random_*`` and ``tf.image.stateless_random_*``: one random draw (the stateful
stream, or TensorFlow's Philox for a ``seed = [s0, s1]``) picks the adjustment, which the
deterministic op then applies. The stateless ones give TensorFlow's exact results.
"""
from ..backend import xp
from .. import random as tf_random
from ..dtypes import int32
from ..errors import InvalidArgumentError
from ..ground import add, multiply
from ..rng import stateless
from ..tensor import wrap
from .arithmetic_ops import cast
from .color_ops import adjust_contrast, adjust_hue, adjust_saturation
from .image_ops import _image, _tensor, adjust_brightness
from .shape_ops import reverse


def _scalar(v):
    return float(xp.asarray(getattr(v, "_value", v)))


def _check_delta(max_delta, upper=None):
    d = _scalar(max_delta)
    if upper is not None and d > upper:
        raise ValueError(f"max_delta must be <= {upper}.")
    if d < 0:
        raise ValueError("max_delta must be non-negative.")
    return d


def _check_range(lower, upper):
    lo, hi = _scalar(lower), _scalar(upper)
    if hi <= lo:
        raise ValueError("upper must be > lower.")
    if lo < 0:
        raise ValueError("lower must be non-negative.")
    return lo, hi


def _stateless_scalar(seed, lo, hi):
    return stateless.stateless_uniform([], seed=seed, minval=lo, maxval=hi)


def _stateful_scalar(seed, lo, hi):
    return tf_random.uniform([], minval=lo, maxval=hi, seed=seed)


def _delta(draw, seed, max_delta, upper=None):
    """A delta drawn from [-max_delta, max_delta) by ``draw`` (one of the two above)."""
    d = _check_delta(max_delta, upper)
    return draw(seed, -d, d)


def _factor(draw, seed, lower, upper):
    """A factor drawn from [lower, upper) by ``draw`` (one of the two above)."""
    lo, hi = _check_range(lower, upper)
    return draw(seed, lo, hi)


# -- brightness, contrast, hue, saturation ----------------------------------------------------
def random_brightness(image, max_delta, seed=None):
    """``adjust_brightness`` by a delta drawn uniformly from [-max_delta, max_delta)."""
    return adjust_brightness(image, _delta(_stateful_scalar, seed, max_delta))


def stateless_random_brightness(image, max_delta, seed):
    """``adjust_brightness`` by a delta drawn from [-max_delta, max_delta) with ``seed``.

    >>> import tapegrad as tf
    >>> tf.image.stateless_random_brightness(tf.zeros([1, 1, 1]), 0.5, seed=[1, 2]).shape
    TensorShape([1, 1, 1])
    """
    return adjust_brightness(image, _delta(_stateless_scalar, seed, max_delta))


def random_contrast(image, lower, upper, seed=None):
    """``adjust_contrast`` by a factor drawn uniformly from [lower, upper)."""
    return adjust_contrast(image, _factor(_stateful_scalar, seed, lower, upper))


def stateless_random_contrast(image, lower, upper, seed):
    return adjust_contrast(image, _factor(_stateless_scalar, seed, lower, upper))


def random_hue(image, max_delta, seed=None):
    """``adjust_hue`` by a delta drawn uniformly from [-max_delta, max_delta), max_delta <= 0.5."""
    return adjust_hue(image, _delta(_stateful_scalar, seed, max_delta, 0.5))


def stateless_random_hue(image, max_delta, seed):
    return adjust_hue(image, _delta(_stateless_scalar, seed, max_delta, 0.5))


def random_saturation(image, lower, upper, seed=None):
    """``adjust_saturation`` by a factor drawn uniformly from [lower, upper)."""
    return adjust_saturation(image, _factor(_stateful_scalar, seed, lower, upper))


def stateless_random_saturation(image, lower, upper, seed):
    return adjust_saturation(image, _factor(_stateless_scalar, seed, lower, upper))


# -- flips and crops --------------------------------------------------------------------------
def _stateless_flip(image, seed, axis):
    x = _image(image, "stateless_random_flip")
    if x._value.ndim == 3:
        coin = float(stateless.stateless_uniform([], seed=seed)._value)
        return reverse(x, [axis]) if coin < 0.5 else x
    coins = stateless.stateless_uniform([x._value.shape[0]], seed=seed)._value
    flips = xp.round(coins).reshape(-1, 1, 1, 1).astype(x._value.dtype)   # u >= 0.5, half-even
    return add(multiply(wrap(flips), reverse(x, [axis])), multiply(wrap(1 - flips), x))


def stateless_random_flip_left_right(image, seed):
    """Mirrors the width axis when the seeded draw says so (per image for a batch)."""
    return _stateless_flip(image, seed, -2)


def stateless_random_flip_up_down(image, seed):
    """Mirrors the height axis when the seeded draw says so (per image for a batch)."""
    return _stateless_flip(image, seed, -3)


def _crop(value, size, draw):
    x = _tensor(value)
    size = [int(v) for v in xp.asarray(getattr(size, "_value", size)).reshape(-1)]
    shape = list(x._value.shape)
    if len(size) != len(shape):
        raise InvalidArgumentError(f"size must have one entry per dimension of value "
                                   f"{shape}, got {size}")
    if any(s > d for s, d in zip(size, shape)):
        raise InvalidArgumentError(f"assertion failed: [Need value.shape >= size, got ] "
                                   f"[{' '.join(map(str, shape))}] [{' '.join(map(str, size))}]")
    limit = xp.asarray(shape) - xp.asarray(size) + 1
    offsets = (draw(len(shape)).astype(xp.int64) % limit).tolist()
    return x[tuple(slice(o, o + s) for o, s in zip(offsets, size))]


def random_crop(value, size, seed=None, name=None):
    """A ``size`` window of ``value`` at a random offset (every axis may be cropped)."""
    return _crop(value, size, lambda n: tf_random.uniform(
        [n], maxval=2 ** 31 - 1, dtype=int32, seed=seed)._value)


def stateless_random_crop(value, size, seed, name=None):
    """A ``size`` window of ``value`` at an offset drawn with ``seed`` (TensorFlow's offsets)."""
    return _crop(value, size, lambda n: stateless.stateless_uniform(
        [n], seed=seed, maxval=2 ** 31 - 1, dtype=int32)._value)


del cast
