"""``tf.experimental.numpy`` (TF-NumPy): NumPy's API on tapegrad tensors, with gradients.

    >>> import tapegrad.experimental.numpy as tnp
    >>> tnp.arange(3)
    <tf.Tensor: shape=(3,), dtype=int64, numpy=array([0, 1, 2])>

Functions take tensors, NumPy arrays and Python values and return tensors; defaults are NumPy's
(float64, int64) unless ``experimental_enable_numpy_behavior(prefer_float32=True)``. A
GradientTape records every function (they are tapegrad ops underneath). ``ndarray`` is the
Tensor class; the dtype names are NumPy's scalar types, as in TensorFlow.
"""
import math as _math

from ..backend import host as _np  # NumPy itself: its scalar types are the dtype names

from ..tensor import Tensor as ndarray  # noqa: F401
from . import random  # noqa: F401
from .creation import (  # noqa: F401
    arange, array, asanyarray, asarray, ascontiguousarray, empty, empty_like, eye, full,
    full_like, identity, linspace, ones, ones_like, zeros, zeros_like,
)
from .math_ops import (  # noqa: F401
    abs, absolute, add, all, amax, amin, any, arccos, arcsin, arctan, argmax, argmin, ceil, clip,
    cos, cosh, cumsum, divide, dot, einsum, equal, exp, expm1, floor, floor_divide, greater,
    greater_equal, isfinite, isinf, isnan, less, less_equal, log, log1p, logical_and,
    logical_not, logical_or, matmul, max, maximum, mean, min, minimum, mod, multiply, negative,
    not_equal, power, prod, remainder, sign, sin, sinh, sqrt, square, std, subtract, sum, tan,
    tanh, tensordot, true_divide, var, where,
)
from .shape_ops import (  # noqa: F401
    broadcast_to, concatenate, expand_dims, hstack, ndim, ravel, reshape, shape, size, squeeze,
    stack, take, tile, transpose, vstack,
)
from .array_functions import (  # noqa: F401
    allclose, arccosh, arcsinh, arctan2, arctanh, argsort, around, array_equal, atleast_1d,
    atleast_2d, atleast_3d, average, conj, conjugate, copy, count_nonzero, cumprod, deg2rad, diag,
    diagonal, diff, exp2, flip, fliplr, flipud, hypot, imag, inner, isclose, isscalar, log10, log2,
    logical_xor, meshgrid, moveaxis, nansum, nonzero, outer, positive, ptp, rad2deg, real,
    reciprocal, repeat, roll, round, signbit, sort, split, swapaxes, trace, tril, triu, vdot,
)
from .switch import disable_numpy_behavior, experimental_enable_numpy_behavior  # noqa: F401

bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
float_, int_, complex_ = _np.float64, _np.int64, _np.complex128
finfo, iinfo, issubdtype, promote_types, result_type = (
    _np.finfo, _np.iinfo, _np.issubdtype, _np.promote_types, _np.result_type)
pi, e, inf = _math.pi, _math.e, _math.inf
newaxis = None

# the implementation modules are not names of TensorFlow's namespace
del behavior, creation, indexing, math_ops, methods, array_functions, shape_ops, switch  # noqa: F821
