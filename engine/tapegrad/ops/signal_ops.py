"""``tf.signal``: FFTs over the last 1, 2 or 3 axes, ``frame``, and windows.

The FFTs are primitives (linear, so each JVP is the op on the tangent). Reverse rules, in
TensorFlow's convention for complex gradients (see complex_ops): fft's is N * ifft(g) and
ifft's is fft(g) / N, N the number of points transformed; rfft's is the real part of
N * ifft of g padded with zeros to the full spectrum; irfft's is rfft(g) / N with the bins
between 0 and Nyquist doubled (they stand for a conjugate pair).
"""
import math as _math

from ..backend import xp
from ..dtypes import as_dtype
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import COMPLEX, accepting
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import multiply, reshape
from .array_ops import expand_dims
from .indexing_ops import gather
from .shape_ops import pad
from .complex_ops import REAL
from ..batching import own_vjp

_COMPLEX_OF = {"float32": xp.complex64, "float64": xp.complex128}
_REAL_OF = {"complex64": xp.float32, "complex128": xp.float64}


def _axes(rank):
    return tuple(range(-rank, 0))


def _points(shape, rank):
    n = 1
    for d in shape[-rank:]:
        n *= d
    return n


FFT = primitive("FFT", lambda z, rank: xp.fft.fftn(z, axes=_axes(rank)).astype(z.dtype),
                dtypes=COMPLEX)
defshape(FFT, shape_rules.fft())
IFFT = primitive("IFFT", lambda z, rank: xp.fft.ifftn(z, axes=_axes(rank)).astype(z.dtype),
                 dtypes=COMPLEX)
defshape(IFFT, shape_rules.fft())
RFFT = primitive("RFFT", lambda x, rank: xp.fft.rfftn(x, axes=_axes(rank)).astype(
    _COMPLEX_OF[x.dtype.name]), dtypes=accepting("float32", "float64"))
defshape(RFFT, shape_rules.fft(real_in=True))
IRFFT = primitive("IRFFT", lambda y, rank, lengths: xp.fft.irfftn(
    y, s=lengths, axes=_axes(rank)).astype(_REAL_OF[y.dtype.name]), dtypes=COMPLEX)
defshape(IRFFT, shape_rules.fft(real_out=True))


def _scaled(t, factor):
    return multiply(t, convert_to_tensor(xp.asarray(factor, dtype=t._value.dtype)))


def _fft_vjp(g, ans, z, rank):
    return _scaled(bind(IFFT, (g,), {"rank": rank}), _points(z._value.shape, rank))


def _ifft_vjp(g, ans, z, rank):
    return _scaled(bind(FFT, (g,), {"rank": rank}), 1.0 / _points(z._value.shape, rank))


def _rfft_vjp(g, ans, x, rank):
    n = x._value.shape[-1]
    missing = n - g._value.shape[-1]
    full = pad(g, [[0, 0]] * (g._value.ndim - 1) + [[0, missing]]) if missing else g
    back = bind(IFFT, (full,), {"rank": rank})
    return _scaled(bind(REAL, (back,), {}), _points(x._value.shape, rank))


def _irfft_vjp(g, ans, y, rank, lengths):
    n = lengths[-1]
    spectrum = bind(RFFT, (g,), {"rank": rank})         # n // 2 + 1 bins on the last axis
    weights = xp.full(spectrum._value.shape[-1], 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    weighted = multiply(spectrum, wrap((weights / _points(ans._value.shape, rank)).astype(
        spectrum._value.dtype)))
    have = y._value.shape[-1]
    if have > weighted._value.shape[-1]:                # the op ignored the extra input bins
        weighted = pad(weighted, [[0, 0]] * (weighted._value.ndim - 1)
                       + [[0, have - weighted._value.shape[-1]]])
    elif have < weighted._value.shape[-1]:              # the op padded the input with zeros
        weighted = weighted[..., :have]
    return weighted


defvjp(FFT, _fft_vjp)
defjvp(FFT, lambda t, ans, z, rank: bind(FFT, (t,), {"rank": rank}))
defvjp(IFFT, _ifft_vjp)
defjvp(IFFT, lambda t, ans, z, rank: bind(IFFT, (t,), {"rank": rank}))
defvjp(RFFT, _rfft_vjp)
defjvp(RFFT, lambda t, ans, x, rank: bind(RFFT, (t,), {"rank": rank}))
defvjp(IRFFT, _irfft_vjp)
defjvp(IRFFT, lambda t, ans, y, rank, lengths: bind(IRFFT, (t,), {"rank": rank,
                                                                  "lengths": lengths}))


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _complex_input(x, op, rank):
    z = _tensor(x)
    if z._value.dtype.kind != "c":
        raise InvalidArgumentError(f"Value for attr 'Tcomplex' of {z.dtype.name} is not in the "
                                   f"list of allowed values: complex64, complex128 [Op:{op}]")
    if z._value.ndim < rank:
        raise InvalidArgumentError(f"Input must have rank of at least {rank} but got: "
                                   f"{z._value.ndim} [Op:{op}]")
    return z


def _fft(x, rank, op, prim):
    return bind(prim, (_complex_input(x, op, rank),), {"rank": rank})


def fft(input, name=None):  # noqa: A002
    """The discrete Fourier transform over the last axis of a complex tensor.

    >>> import tapegrad as tf
    >>> tf.signal.fft(tf.complex([1.0, 0.0], [0.0, 0.0])).numpy().tolist()
    [(1+0j), (1+0j)]
    """
    return _fft(input, 1, "FFT", FFT)


def ifft(input, name=None):  # noqa: A002
    """The inverse discrete Fourier transform over the last axis (divided by its length)."""
    return _fft(input, 1, "IFFT", IFFT)


def fft2d(input, name=None):  # noqa: A002
    return _fft(input, 2, "FFT2D", FFT)


def ifft2d(input, name=None):  # noqa: A002
    return _fft(input, 2, "IFFT2D", IFFT)


def fft3d(input, name=None):  # noqa: A002
    return _fft(input, 3, "FFT3D", FFT)


def ifft3d(input, name=None):  # noqa: A002
    return _fft(input, 3, "IFFT3D", IFFT)


def _lengths(fft_length, rank, default):
    if fft_length is None:
        return tuple(default)
    values = [int(v) for v in xp.asarray(getattr(fft_length, "_value", fft_length)).reshape(-1)]
    if len(values) != rank:
        raise InvalidArgumentError(f"fft_length must have {rank} elements, got {values}")
    return tuple(values)


def _fit(x, lengths):
    """x cropped or zero-padded on its last axes to ``lengths`` (differentiable)."""
    rank = len(lengths)
    shape = x._value.shape
    for k, n in enumerate(lengths):
        axis = x._value.ndim - rank + k
        have = shape[axis]
        if have > n:
            x = gather(x, list(range(n)), axis=axis)
        elif have < n:
            x = pad(x, [[0, 0]] * axis + [[0, n - have]] + [[0, 0]] * (x._value.ndim - axis - 1))
        shape = x._value.shape
    return x


def _rfft(x, fft_length, rank, op):
    # TensorFlow's wrapper converts Python values with float32 preferred and refuses other
    # dtypes itself
    x = _tensor(x) if hasattr(x, "dtype") else convert_to_tensor(x, dtype_hint="float32")
    if x._value.dtype.name not in _COMPLEX_OF:
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x}")
    if x._value.ndim < rank:
        raise InvalidArgumentError(f"Input must have rank of at least {rank} but got: "
                                   f"{x._value.ndim} [Op:{op}]")
    lengths = _lengths(fft_length, rank, x._value.shape[-rank:])
    return bind(RFFT, (_fit(x, lengths),), {"rank": rank})


def _irfft(y, fft_length, rank, op):
    y = _complex_input(y, op, rank)
    inner = y._value.shape[-rank:]
    default = list(inner[:-1]) + [2 * (inner[-1] - 1)]
    lengths = _lengths(fft_length, rank, default)
    if rank > 1:   # the full axes are cropped/padded to their lengths; the last is the op's
        y = _fit(y, lengths[:-1] + (inner[-1],))
    return bind(IRFFT, (y,), {"rank": rank, "lengths": lengths})


def rfft(input_tensor, fft_length=None, name=None):
    """The Fourier transform of a real signal: the n // 2 + 1 non-negative frequencies.

    >>> import tapegrad as tf
    >>> tf.signal.rfft([1.0, 1.0, 1.0, 1.0]).numpy().tolist()
    [(4+0j), 0j, 0j]
    """
    return _rfft(input_tensor, fft_length, 1, "RFFT")


def irfft(input_tensor, fft_length=None, name=None):
    """The real signal whose rfft is ``input_tensor`` (length 2 * (bins - 1) by default)."""
    return _irfft(input_tensor, fft_length, 1, "IRFFT")


def rfft2d(input_tensor, fft_length=None, name=None):
    return _rfft(input_tensor, fft_length, 2, "RFFT2D")


def irfft2d(input_tensor, fft_length=None, name=None):
    return _irfft(input_tensor, fft_length, 2, "IRFFT2D")


def rfft3d(input_tensor, fft_length=None, name=None):
    return _rfft(input_tensor, fft_length, 3, "RFFT3D")


def irfft3d(input_tensor, fft_length=None, name=None):
    return _irfft(input_tensor, fft_length, 3, "IRFFT3D")


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping frames of ``frame_length`` samples, ``frame_step`` apart, along ``axis``
    (which becomes two axes: frames, samples); ``pad_end`` pads the tail to fill the last frame.

    >>> import tapegrad as tf
    >>> tf.signal.frame(tf.range(6), 3, 2).numpy().tolist()
    [[0, 1, 2], [2, 3, 4]]
    """
    x = _tensor(signal)
    length, step = int(frame_length), int(frame_step)
    if length <= 0 or step <= 0:
        raise ValueError(f"frame_length and frame_step must be positive, got {length} and {step}")
    nd = x._value.ndim
    axis = int(axis) % nd
    n = x._value.shape[axis]
    if pad_end:
        frames = -(-n // step)
        needed = max(0, (frames - 1) * step + length - n)
        if needed:
            x = pad(x, [[0, 0]] * axis + [[0, needed]] + [[0, 0]] * (nd - axis - 1),
                    constant_values=pad_value)
    else:
        frames = max(0, (n - length) // step + 1)
    index = (xp.arange(frames)[:, None] * step + xp.arange(length)[None, :]).astype(xp.int32)
    # gathered along axis + 1 of x with a leading unit axis: TensorFlow's gradient is dense
    # (gather along axis 0 would give an IndexedSlices)
    framed = gather(expand_dims(x, 0), wrap(index), axis=axis + 1)
    return reshape(framed, framed._value.shape[1:])


def _window(length, periodic, dtype, a, b):
    np_dtype = as_dtype(dtype).as_numpy_dtype
    length = int(length)
    if length == 1:
        return wrap(xp.ones(1, np_dtype))
    # TensorFlow makes only even lengths periodic (an odd one gets the symmetric window)
    denominator = length - 1 + (1 if periodic and length % 2 == 0 else 0)
    n = xp.arange(length, dtype=np_dtype)
    values = np_dtype(a) - np_dtype(b) * xp.cos(np_dtype(2 * _math.pi) * n / np_dtype(denominator))
    return wrap(values.astype(np_dtype))


def hann_window(window_length, periodic=True, dtype="float32", name=None):
    """0.5 - 0.5 cos(2 pi n / N).

    >>> import tapegrad as tf
    >>> tf.signal.hann_window(4).numpy().tolist()
    [0.0, 0.5, 1.0, 0.5]
    """
    return _window(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype="float32", name=None):
    """0.54 - 0.46 cos(2 pi n / N)."""
    return _window(window_length, periodic, dtype, 0.54, 0.46)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(FFT, IFFT, RFFT, IRFFT)
