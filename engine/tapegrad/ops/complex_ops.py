"""Complex numbers: ``tf.complex``, ``tf.math.real``, ``imag``, ``conj``, ``angle``.

TensorFlow's gradient convention for a real loss L of a complex z is dL/d(re z) + i dL/d(im z);
the rules below follow it: Real's gradient is complex(g, 0), Imag's complex(0, g), Complex's
(real(g), imag(g)), Conj's conj(g).
"""
from ..backend import xp
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import COMPLEX as COMPLEX_DTYPES, accepting
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor
from ..variables import Variable
from .array_ops import zeros_like
from .trig_ops import atan2
from ..batching import own_vjp

_COMPLEX_OF = {"float32": xp.complex64, "float64": xp.complex128}


def _complex_impl(re, im):
    return xp.asarray(re + 1j * im).astype(_COMPLEX_OF[re.dtype.name])


def _real_dtype(z):
    return xp.float32 if z.dtype == xp.complex64 else xp.float64


COMPLEX = primitive("Complex", _complex_impl, dtypes=accepting("float32", "float64"))
defshape(COMPLEX, lambda re, im: shape_rules.Spec(shape_rules.broadcasting(re, im).shape,
                                              shape_rules.complex_of(re.dtype)))
REAL = primitive("Real", lambda z: xp.array(xp.real(z), dtype=_real_dtype(z)),
                 dtypes=COMPLEX_DTYPES)   # a copy:
defshape(REAL, shape_rules.real_of)
IMAG = primitive("Imag", lambda z: xp.array(xp.imag(z), dtype=_real_dtype(z)),
                 dtypes=COMPLEX_DTYPES)   # C-ordered
defshape(IMAG, shape_rules.real_of)
CONJ = primitive("Conj", xp.conj, dtypes=COMPLEX_DTYPES)
defshape(CONJ, shape_rules.same)


def _complex_of(re, im):
    return bind(COMPLEX, (re, im), {})


defvjp(COMPLEX, lambda g, ans, re, im: bind(REAL, (g,), {}),
       lambda g, ans, re, im: bind(IMAG, (g,), {}))
defjvp(COMPLEX, lambda t, ans, re, im: _complex_of(t, zeros_like(t)),
       lambda t, ans, re, im: _complex_of(zeros_like(t), t))
defvjp(REAL, lambda g, ans, z: _complex_of(g, zeros_like(g)))
defjvp(REAL, lambda t, ans, z: bind(REAL, (t,), {}))
defvjp(IMAG, lambda g, ans, z: _complex_of(zeros_like(g), g))
defjvp(IMAG, lambda t, ans, z: bind(IMAG, (t,), {}))
defvjp(CONJ, lambda g, ans, z: bind(CONJ, (g,), {}))
defjvp(CONJ, lambda t, ans, z: bind(CONJ, (t,), {}))


def _tensor(x, dtype=None):
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x, dtype=dtype) if dtype is not None and not hasattr(x, "dtype") \
        else convert_to_tensor(x)


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's name
    """real + i * imag, from two float32 (complex64) or float64 (complex128) tensors.

    >>> import tapegrad as tf
    >>> tf.complex(1.0, 2.0).numpy().item()
    (1+2j)
    """
    re = _tensor(real)
    im = _tensor(imag, dtype=re.dtype)
    if re.dtype != im.dtype or re.dtype.name not in _COMPLEX_OF:
        raise TypeError(f"The `real` and `imag` components have incompatible types: "
                        f"{re.dtype.name} {im.dtype.name} (both must be float32 or float64)")
    return _complex_of(re, im)


def _is_complex(z):
    return z._value.dtype.kind == "c"


def _is_number(z):
    """Whether ``z`` has a numeric dtype (TensorFlow's ``is_numeric``: not bool, not string)."""
    return z._value.dtype.kind in "fiuc"


def real(input, name=None):  # noqa: A002
    """The real part of a complex tensor (a real tensor is returned as it is).

    >>> import tapegrad as tf
    >>> tf.math.real(tf.constant([True]))
    Traceback (most recent call last):
    ...
    TypeError: input must be a numeric tensor, but got tensor with dtype <dtype: 'bool'>
    """
    z = _tensor(input)
    if _is_complex(z):
        return bind(REAL, (z,), {})
    if not _is_number(z):
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype {z.dtype}")
    return z


def imag(input, name=None):  # noqa: A002
    """The imaginary part of a complex tensor (zeros for a real tensor)."""
    z = _tensor(input)
    return bind(IMAG, (z,), {}) if _is_complex(z) else zeros_like(z)


def conj(x, name=None):
    """The complex conjugate (a real tensor is returned as it is)."""
    z = _tensor(x)
    if _is_complex(z):
        return bind(CONJ, (z,), {})
    if not _is_number(z):
        raise TypeError(f"Expected numeric or variant tensor, got dtype {z.dtype!r}.")
    return z


def angle(input, name=None):  # noqa: A002
    """The argument atan2(imag, real) of each entry."""
    z = _tensor(input)
    if not _is_complex(z):
        return atan2(zeros_like(z), z)
    return atan2(imag(z), real(z))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(CONJ, REAL, IMAG, COMPLEX)
