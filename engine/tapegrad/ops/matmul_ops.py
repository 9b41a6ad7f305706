"""The matrix product of the last two axes, batched over the leading ones (which broadcast)."""
from ..backend import xp
from .. import convert
from ..errors import InvalidArgumentError
from ..ground import conj_if_complex
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import COMPLEX_NAMES, FLOAT_NAMES, UNSIGNED_NAMES, accepting
from ..tensor import EagerTensor as _Eager
from .. import batching
from ..batching import own_vjp
from .. import shape_rules
from ..table import defshape


_ON_NUMPY = xp.__name__ == "numpy"


def _matmul_impl(a, b, transpose_a, transpose_b):
    # Speed: on NumPy the array's own method, without ``numpy.swapaxes``'s dispatch wrapper
    # (the same view); five of W2's eight products per step transpose an operand (-18k
    # instructions per step, callgrind).
    if transpose_a:
        a = a.swapaxes(-1, -2) if _ON_NUMPY else xp.swapaxes(a, -1, -2)
    if transpose_b:
        b = b.swapaxes(-1, -2) if _ON_NUMPY else xp.swapaxes(b, -1, -2)
    return xp.matmul(a, b)


def _matmul_error(inputs, attrs, exc):
    a, b = (x._value.shape for x in inputs)
    fmt = lambda s: "[" + ",".join(map(str, s)) + "]"  # noqa: E731
    if len(a) != len(b) and (len(a) < 2 or len(b) < 2):
        return f"In[0] and In[1] has different ndims: {fmt(a)} vs. {fmt(b)}"
    return f"Matrix size-incompatible: In[0]: {fmt(a)}, In[1]: {fmt(b)}"


# TensorFlow 2.21 registers MatMul for unsigned integers but has no CPU kernel for them.
_MATMUL_TYPES = accepting(*FLOAT_NAMES, "int32", "int64", *UNSIGNED_NAMES, *COMPLEX_NAMES).no_kernel(
    *UNSIGNED_NAMES)
MATMUL = primitive("MatMul", kernels.route_matmul(_matmul_impl), _matmul_error,
                   dtypes=_MATMUL_TYPES)
defshape(MATMUL, shape_rules.matmul)


def _product(x, y, transpose_a=False, transpose_b=False):
    """``matmul`` for the rules below. Speed: a cotangent and an operand of one dtype are bound
    directly, without ``matmul``'s conversions and argument checks (they passed them forwards):
    W2 -16k, W6-hvp -11k instructions per step (callgrind, engine/bench/step_cost.py)."""
    if type(x) is _Eager and type(y) is _Eager and x._value.dtype == y._value.dtype:
        return bind(MATMUL, (x, y), {"transpose_a": transpose_a, "transpose_b": transpose_b})
    return matmul(x, y, transpose_a=transpose_a, transpose_b=transpose_b)


def _matmul_vjp_a(g, ans, a, b, transpose_a, transpose_b):
    if b._value.dtype.kind == "c":
        b = conj_if_complex(b)   # TensorFlow: the adjoint for complex operands
    if not transpose_a:
        r = _product(g, b, transpose_b=not transpose_b)
    elif not transpose_b:
        r = _product(b, g, transpose_b=True)
    else:
        r = _product(b, g, transpose_a=True, transpose_b=True)
    return r if r._value.shape == a._value.shape else \
        batching.unbroadcast_lead(r, a._value.shape, batching.lead_of(g, ans))


def _matmul_vjp_b(g, ans, a, b, transpose_a, transpose_b):
    if a._value.dtype.kind == "c":
        a = conj_if_complex(a)
    if not transpose_b:
        r = _product(a, g, transpose_a=not transpose_a)
    elif not transpose_a:
        r = _product(g, a, transpose_a=True)
    else:
        r = _product(g, a, transpose_a=True, transpose_b=True)
    return r if r._value.shape == b._value.shape else \
        batching.unbroadcast_lead(r, b._value.shape, batching.lead_of(g, ans))


defvjp(MATMUL, _matmul_vjp_a, _matmul_vjp_b)
defjvp(MATMUL, lambda t, ans, a, b, **kw: matmul(t, b, **kw),
       lambda t, ans, a, b, **kw: matmul(a, t, **kw))


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product of the last two axes, batched over the leading ones (which broadcast).

    >>> import tapegrad as tf
    >>> tf.matmul([[1., 2.]], [[3.], [4.]]).numpy().tolist()
    [[11.0]]
    """
    a, b = convert.binary(a, b, "MatMul")
    if a._value.dtype.kind == "b" and max(a._value.ndim, b._value.ndim) > 2 and (
            transpose_a or transpose_b or adjoint_a or adjoint_b):
        # TensorFlow transposes batched operands in Python first, which rejects bool so
        raise TypeError("matmul: expected numeric tensors to transpose, got bool")
    if a._value.ndim < 2 or b._value.ndim < 2:
        fmt = lambda s: "[" + ",".join(map(str, s)) + "]"  # noqa: E731
        raise InvalidArgumentError(
            f"In[0] and In[1] has different ndims: {fmt(a._value.shape)} vs. "
            f"{fmt(b._value.shape)} [Op:MatMul]" if a._value.ndim != b._value.ndim else
            f"In[0] and In[1] must be at least rank 2: {fmt(a._value.shape)} vs. "
            f"{fmt(b._value.shape)} [Op:MatMul]")
    if adjoint_a:   # the conjugate transpose: conjugate first (complex only), then transpose
        a = conj_if_complex(a)
    if adjoint_b:
        b = conj_if_complex(b)
    return bind(MATMUL, (a, b), {"transpose_a": bool(transpose_a or adjoint_a),
                                 "transpose_b": bool(transpose_b or adjoint_b)})


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(MATMUL)   # the products broadcast over the rows; a broadcast operand's sum keeps them
