"""``tnp.random``: NumPy's random functions on tapegrad's global seed (float64 by default, as
TF-NumPy's)."""
from ..backend import host as _np  # NumPy itself: its scalar types are the dtype names

from .. import ops as _ops, random as _random
from .creation import np_dtype as _np_dtype


def _float():
    return "float64"   # TF-NumPy's random floats, with or without prefer_float32


def _size(size):
    return [] if size is None else ([size] if _np.ndim(size) == 0 else list(size))


def seed(s):
    """Seeds TF-NumPy's random functions (TensorFlow's global seed)."""
    _random.set_seed(s)


def standard_normal(size=None):
    return _random.normal(_size(size), dtype=_float())


def randn(*args):
    return standard_normal(list(args))


def uniform(low=0.0, high=1.0, size=None):
    return _random.uniform(_size(size), low, high, dtype=_float())


def rand(*size):
    return uniform(size=list(size))


def randint(low, high=None, size=None, dtype=_np.int64):
    if high is None:
        low, high = 0, low
    return _random.uniform(_size(size), low, high, dtype=_np_dtype(dtype).name)


def poisson(lam=1.0, size=None):
    return _ops.cast(_random.poisson(_size(size), lam), "int64")


def random(size=None):
    """Floats in [0, 1), NumPy's ``random.random``."""
    return uniform(size=size)
