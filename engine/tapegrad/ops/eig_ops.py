"""Eigen-decomposition of general (non-symmetric) matrices: ``tf.linalg.eig`` and ``eigvals``.

Outputs are complex (complex64 for float32 and complex64 inputs, complex128 for float64 and
complex128), in LAPACK's order, which is TensorFlow's. Each eigenvector has unit norm; its
phase is whatever the solver gives (TensorFlow's may differ by a unit factor), so only
phase-independent uses of the vectors are portable.

The reverse rules are TensorFlow's (distinct eigenvalues), with V^H = adjoint(V):

* eigenvalues only: g_A = V^-H diag(g_e) V^H
* with vectors: g_A = V^-H (diag(g_e) + conj(F) * (V^H g_V - V^H V diag(Re diag(V^H g_V)))) V^H,
  F_ij = 1 / (e_j - e_i) off the diagonal (safely: x / (x^2 + 1e-20)), 0 on it

then cast to the input's dtype (the real part for a real input). No forward-mode rule.
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defvjp, primitive
from ..checks.dtype_rules import COMPLEX_NAMES, accepting
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import add, multiply, reduce_sum
from .arithmetic_ops import cast, subtract
from .array_ops import expand_dims, eye, matrix_transpose
from .complex_ops import conj, real
from .linalg_ops import solve
from .matmul_ops import matmul
from ..batching import own_vjp
from ..primitives import exempt

_COMPLEX_OF = {"float32": xp.complex64, "float64": xp.complex128, "complex64": xp.complex64,
               "complex128": xp.complex128}


def _eig(a):
    with xp.errstate(all="ignore"):
        e, v = xp.linalg.eig(a)
    dt = _COMPLEX_OF[a.dtype.name]
    return e.astype(dt), xp.ascontiguousarray(v.astype(dt))


EIG_VALUES = primitive("Eig", lambda a: _eig(a)[0],
                       dtypes=accepting("float32", "float64", *COMPLEX_NAMES))
exempt(EIG_VALUES, jvp="no forward-mode rule: TensorFlow has none for Eig either")
defshape(EIG_VALUES, shape_rules.eig_values(shape_rules.complex_of))
EIG_VECTORS = primitive("EigVectors", lambda a: _eig(a)[1],
                        dtypes=accepting("float32", "float64", *COMPLEX_NAMES))
exempt(EIG_VECTORS, jvp="no forward-mode rule: TensorFlow has none for Eig either")
defshape(EIG_VECTORS, lambda a: shape_rules.Spec(shape_rules.square_matrix(a).shape,
                                         shape_rules.complex_of(a.dtype)))


def _adjoint(x):
    return conj(matrix_transpose(x))


def _diag(v):
    n = v._value.shape[-1]
    return multiply(expand_dims(v, -1), eye(n, dtype=v.dtype))


def _diag_part(m):
    n = m._value.shape[-1]
    return reduce_sum(multiply(m, eye(n, dtype=m.dtype)), axis=-1)


def _to_input_dtype(g, a):
    return cast(real(g), a.dtype) if a._value.dtype.kind != "c" else g


def _values_vjp(g, ans, a):
    vt = _adjoint(bind(EIG_VECTORS, (a,), {}))
    return _to_input_dtype(solve(vt, matmul(_diag(g), vt)), a)


def _safe_reciprocal(x):
    return x / add(multiply(x, x), wrap(xp.asarray(1e-20, dtype=x._value.dtype)))


def _vectors_vjp(g, ans, a):
    e = bind(EIG_VALUES, (a,), {})
    v, vt = ans, _adjoint(ans)
    n = e._value.shape[-1]
    off = wrap((1.0 - xp.eye(n)).astype(e._value.dtype))
    f = conj(multiply(off, _safe_reciprocal(subtract(expand_dims(e, -2), expand_dims(e, -1)))))
    vgv = matmul(vt, g)
    real_diag = _diag(cast(real(_diag_part(vgv)), vgv.dtype))
    mid = multiply(f, subtract(vgv, matmul(matmul(vt, v), real_diag)))
    return _to_input_dtype(solve(vt, matmul(mid, vt)), a)


defvjp(EIG_VALUES, _values_vjp)
defvjp(EIG_VECTORS, _vectors_vjp)


def _square(x, op):
    x = x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)
    s = x._value.shape
    if len(s) < 2 or s[-1] != s[-2]:
        raise InvalidArgumentError(f"Input matrix must be square, got shape {list(s)} [Op:{op}]")
    if x._value.dtype.name not in _COMPLEX_OF:
        raise InvalidArgumentError(f"Value for attr 'T' of {x.dtype.name} is not in the list of "
                                   f"allowed values: float, double, complex64, complex128 "
                                   f"[Op:{op}]")
    return x


def eig(tensor, name=None):
    """``(e, v)``: the (complex) eigenvalues and unit eigenvectors (columns) of square
    matrices.

    >>> import tapegrad as tf
    >>> e, v = tf.linalg.eig([[2.0, 0.0], [0.0, 3.0]])
    >>> e.numpy().tolist()
    [(2+0j), (3+0j)]
    """
    a = _square(tensor, "Eig")
    return bind(EIG_VALUES, (a,), {}), bind(EIG_VECTORS, (a,), {})


def eigvals(tensor, name=None):
    """The (complex) eigenvalues of square matrices.

    >>> import tapegrad as tf
    >>> tf.linalg.eigvals([[0.0, -1.0], [1.0, 0.0]]).numpy().tolist()
    [1j, -1j]
    """
    return bind(EIG_VALUES, (_square(tensor, "Eig"),), {})


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(EIG_VALUES, EIG_VECTORS)
