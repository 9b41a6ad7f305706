"""``tf.image`` measures: PSNR, SSIM and multiscale SSIM, Sobel edges, image gradients and total
variation, composed from differentiable ops (so their gradients are TensorFlow's).

SSIM filters with an ``n x n`` Gaussian window (``n = filter_size``, VALID padding); that window
is the outer product of two 1-D Gaussians, applied here as two banded matrices, one per axis.
"""
import math as _math

from ..backend import xp
from ..dtypes import float32
from ..errors import InvalidArgumentError
from ..ground import multiply, reduce_sum
from ..tensor import convert_to_tensor, wrap
from .activation_ops import relu
from .arithmetic_ops import abs as _abs, cast, subtract
from .array_ops import concat, stack, zeros
from .einsum_ops import einsum
from .exponential_ops import log, pow as _pow, square
from .image_ops import _tensor, convert_image_dtype
from .reduction_ops import reduce_mean, reduce_prod
from .shape_ops import pad

MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _as_float_pair(a, b, max_val, op):
    a, b = _tensor(a), _tensor(b)
    if a._value.ndim < 3 or b._value.ndim < 3:
        raise ValueError(f"{op}: images must be at least 3-D [height, width, channels], got "
                         f"shapes {list(a._value.shape)} and {list(b._value.shape)}")
    if a._value.shape[-3:] != b._value.shape[-3:]:
        raise InvalidArgumentError(f"{op}: the images must have the same height, width and "
                                   f"channels, got {list(a._value.shape)} and "
                                   f"{list(b._value.shape)}")
    top = convert_image_dtype(cast(convert_to_tensor(max_val), a.dtype), float32)
    return convert_image_dtype(a, float32), convert_image_dtype(b, float32), top


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio per image: 20 log10(max_val) - 10 log10(mean squared error).

    >>> import tapegrad as tf
    >>> round(float(tf.image.psnr(tf.zeros([2, 2, 1]), tf.fill([2, 2, 1], 0.1), 1.0)), 3)
    20.0
    """
    a, b, top = _as_float_pair(a, b, max_val, "psnr")
    mse = reduce_mean(square(subtract(a, b)), axis=[-3, -2, -1])
    ten = convert_to_tensor(10.0)
    return subtract(20.0 * log(top) / log(ten),
                    convert_to_tensor(xp.float32(10 / _math.log(10))) * log(mse))


def _gauss_1d(size, sigma):
    coords = xp.arange(size, dtype=xp.float64) - (size - 1) / 2.0
    g = xp.exp(-0.5 * coords ** 2 / sigma ** 2)
    return g / g.sum()


def _band(n_in, weights):
    """The (n_in - k + 1, n_in) matrix whose row o holds ``weights`` from column o (VALID)."""
    k = weights.size
    m = xp.zeros((n_in - k + 1, n_in), xp.float32)
    for o in range(n_in - k + 1):
        m[o, o:o + k] = weights
    return m


def _separable(rows, v, cols):
    """rows (o x h) applied to the height axis, then cols (p x w) to the width axis: two
    two-operand contractions (one three-operand einsum would iterate over every index at once,
    too many for NumPy's iterator on 32-bit WebAssembly)."""
    return einsum("pw,...owc->...opc", cols, einsum("oh,...hwc->...owc", rows, v))


def _ssim_per_channel(x, y, top, filter_size, filter_sigma, k1, k2):
    """(mean SSIM, mean contrast-structure) per channel, as TensorFlow's helper computes them."""
    h, w = x._value.shape[-3], x._value.shape[-2]
    if h < filter_size or w < filter_size:
        c = x._value.shape[-1]
        raise InvalidArgumentError(f"assertion failed: the images ({h} x {w} x {c}) are smaller "
                                   f"than filter_size {filter_size}")
    g = _gauss_1d(filter_size, float(filter_sigma))
    wh, ww = wrap(_band(h, g)), wrap(_band(w, g))

    def window_mean(v):
        return _separable(wh, v, ww)

    c1 = square(multiply(convert_to_tensor(float(k1)), top))
    c2 = square(multiply(convert_to_tensor(float(k2)), top))
    mean_x, mean_y = window_mean(x), window_mean(y)
    num0 = mean_x * mean_y * 2.0
    den0 = square(mean_x) + square(mean_y)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = window_mean(x * y) * 2.0
    den1 = window_mean(square(x) + square(y))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return reduce_mean(luminance * cs, axis=[-3, -2]), reduce_mean(cs, axis=[-3, -2])


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """Structural similarity of two images (or batches), averaged over height, width, channels.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(144.0) / 144.0, [12, 12, 1])
    >>> round(float(tf.image.ssim(x, x, 1.0)), 4)
    1.0
    """
    if return_index_map:
        raise NotImplementedError("ssim: return_index_map=True is not implemented")
    x, y, top = _as_float_pair(img1, img2, max_val, "ssim")
    per_channel, _ = _ssim_per_channel(x, y, top, int(filter_size), filter_sigma, k1, k2)
    return reduce_mean(per_channel, axis=[-1])


def _halve(v):
    """2x2 average pooling of [..., h, w, c], after symmetric padding of odd sizes."""
    h, w = v._value.shape[-3], v._value.shape[-2]
    lead = [[0, 0]] * (v._value.ndim - 3)
    if h % 2 or w % 2:
        v = pad(v, lead + [[0, h % 2], [0, w % 2], [0, 0]], mode="SYMMETRIC")
        h, w = h + h % 2, w + w % 2
    rows = xp.zeros((h // 2, h), xp.float32)
    rows[xp.arange(h // 2), 2 * xp.arange(h // 2)] = 0.5
    rows[xp.arange(h // 2), 2 * xp.arange(h // 2) + 1] = 0.5
    cols = xp.zeros((w // 2, w), xp.float32)
    cols[xp.arange(w // 2), 2 * xp.arange(w // 2)] = 0.5
    cols[xp.arange(w // 2), 2 * xp.arange(w // 2) + 1] = 0.5
    return _separable(wrap(rows), v, wrap(cols))


def ssim_multiscale(img1, img2, max_val, power_factors=MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multiscale SSIM: contrast-structure at each halving scale and SSIM at the last, combined
    as a weighted geometric mean (``power_factors``), averaged over channels."""
    x, y, top = _as_float_pair(img1, img2, max_val, "ssim_multiscale")
    scores = []
    for k in range(len(power_factors)):
        if k:
            x, y = _halve(x), _halve(y)
        per_channel, cs = _ssim_per_channel(x, y, top, int(filter_size), filter_sigma, k1, k2)
        scores.append(relu(cs))
    scores[-1] = relu(per_channel)
    weights = convert_to_tensor(xp.asarray(power_factors, dtype=xp.float32))
    return reduce_mean(reduce_prod(_pow(stack(scores, axis=-1), weights), axis=[-1]), axis=[-1])


def _four_d(image, op):
    x = _tensor(image)
    if x._value.ndim != 4:
        raise ValueError(f"{op} expects a 4D tensor [batch_size, h, w, d], not "
                         f"{tuple(x._value.shape)}.")
    return x


def image_gradients(image):
    """(dy, dx): forward differences along height and width, zero in the last row / column.

    >>> import tapegrad as tf
    >>> dy, dx = tf.image.image_gradients(tf.reshape(tf.range(4.0), [1, 2, 2, 1]))
    >>> dy.numpy().ravel().tolist(), dx.numpy().ravel().tolist()
    ([2.0, 2.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0])
    """
    x = _four_d(image, "image_gradients")
    b, h, w, d = x._value.shape
    dy = concat([x[:, 1:] - x[:, :-1], zeros([b, 1, w, d], x.dtype)], axis=1)
    dx = concat([x[:, :, 1:] - x[:, :, :-1], zeros([b, h, 1, d], x.dtype)], axis=2)
    return dy, dx


_SOBEL = (((-1, -2, -1), (0, 0, 0), (1, 2, 1)), ((-1, 0, 1), (-2, 0, 2), (-1, 0, 1)))


def sobel_edges(image):
    """Sobel responses per channel, shape [batch, h, w, channels, 2] (vertical, horizontal),
    on the image padded by reflection."""
    x = _four_d(image, "sobel_edges")
    h, w = x._value.shape[1:3]
    if h < 2 or w < 2:
        raise InvalidArgumentError(f"paddings must be less than the dimension size: 1, 1 not "
                                   f"less than {min(h, w)} [Op:MirrorPad]")
    padded = pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    maps = []
    for kernel in _SOBEL:
        total = None
        for a in range(3):
            for b in range(3):
                if kernel[a][b]:
                    term = padded[:, a:a + h, b:b + w, :] * float(kernel[a][b])
                    total = term if total is None else total + term
        maps.append(total)
    return stack(maps, axis=-1)


def total_variation(images, name=None):
    """Sum of absolute differences between neighbouring pixels (per image for a batch).

    >>> import tapegrad as tf
    >>> float(tf.image.total_variation(tf.constant([[[0.0], [1.0]], [[3.0], [3.0]]])))
    6.0
    """
    x = _tensor(images)
    if x._value.ndim == 3:
        d1, d2, axes = x[1:] - x[:-1], x[:, 1:] - x[:, :-1], None
    elif x._value.ndim == 4:
        d1, d2, axes = x[:, 1:] - x[:, :-1], x[:, :, 1:] - x[:, :, :-1], [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return reduce_sum(_abs(d1), axis=axes) + reduce_sum(_abs(d2), axis=axes)
