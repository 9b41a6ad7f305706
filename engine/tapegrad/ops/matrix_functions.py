"""Matrix functions: ``sqrtm`` (``tf.linalg.sqrtm``, ``tf.matrix_square_root``) and ``logm``.

The principal square root is computed in double precision by the scaled Denman-Beavers
iteration (Y -> (Y + Z^-1) / 2, Z -> (Z + Y^-1) / 2 from Y = A, Z = I; Y tends to A^1/2),
which also handles defective matrices; where it cannot converge (a complex input with an
eigenvalue on the negative real axis), from the eigendecomposition. A real input with a real
eigenvalue <= 0 has no real principal root: the result is NaN, as TensorFlow's.

The gradient of X = sqrtm(A), as TensorFlow's, solves the Sylvester equation
X^T G + G X^T = g_X, written as one linear system on the flattened G with the Kronecker sum
kron(X^T, I) + kron(I, X) (built with the engine's ops, so it differentiates again); the
forward rule solves X dX + dX X = dA the same way.

``logm`` (complex inputs only, as TensorFlow's) is the inverse scaling and squaring method:
square roots until the matrix is within 1/4 of I, the series of log(I + E), times 2^k.
TensorFlow registers no gradient for it, and neither does tapegrad (LookupError).
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks import check_dtype
from ..checks.dtype_rules import COMPLEX, FLOAT_COMPLEX
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor
from ..variables import Variable
from ..ground import add, reshape
from .array_ops import eye, matrix_transpose
from .einsum_ops import einsum
from .linalg_ops import solve
from ..batching import own_vjp
from ..primitives import NO_GRADIENT, exempt


def _denman_beavers(a, steps=100):
    """(root, converged) for one square array (float64 or complex128)."""
    n = a.shape[-1]
    y, z = a.copy(), xp.eye(n, dtype=a.dtype)
    for k in range(steps):
        try:
            y_inv, z_inv = xp.linalg.inv(y), xp.linalg.inv(z)
        except xp.linalg.LinAlgError:
            return y, False
        if k < 10:          # determinant scaling speeds up the first steps
            det = abs(xp.linalg.det(y) * xp.linalg.det(z))
            mu = det ** (-1.0 / (2 * n)) if det > 0 and xp.isfinite(det) else 1.0
        else:
            mu = 1.0
        y_next = 0.5 * (mu * y + z_inv / mu)
        z = 0.5 * (mu * z + y_inv / mu)
        if not xp.all(xp.isfinite(y_next)):
            return y_next, False
        change = xp.linalg.norm(y_next - y) / max(xp.linalg.norm(y_next), 1e-300)
        y = y_next
        if change < 1e-14:
            return y, True
    return y, False


def _by_eigenvectors(a, fn):
    e, v = xp.linalg.eig(a.astype(xp.complex128))
    return (v * fn(e)[None, :]) @ xp.linalg.inv(v)


def _sqrt_one(a):
    is_real = a.dtype.kind != "c"
    work = a.astype(xp.float64 if is_real else xp.complex128)
    if is_real:
        e = xp.linalg.eigvals(work)
        if xp.any((xp.abs(e.imag) <= 1e-12 * max(1.0, xp.abs(e).max())) & (e.real <= 0)):
            return xp.full(a.shape, xp.nan)
    root, ok = _denman_beavers(work)
    if not ok:
        try:
            root = _by_eigenvectors(work, xp.sqrt)
        except xp.linalg.LinAlgError:
            return xp.full(a.shape, xp.nan)
        if is_real:
            root = root.real
    return root


def _batched(fn, a):
    flat = a.reshape((-1,) + a.shape[-2:])
    with xp.errstate(all="ignore"):
        out = xp.stack([fn(m) for m in flat]) if flat.shape[0] else flat.copy()
    return xp.ascontiguousarray(out.reshape(a.shape).astype(a.dtype))


SQRTM = primitive("MatrixSquareRoot", lambda a: _batched(_sqrt_one, a),   # half: no CPU kernel
                  dtypes=FLOAT_COMPLEX.no_kernel("float16"))
defshape(SQRTM, shape_rules.square_matrix)


def _kron(a, b):
    n = a._value.shape[-1]
    k = einsum("...ij,...kl->...ikjl", a, b)
    return reshape(k, tuple(k._value.shape[:-4]) + (n * n, n * n))


def _sylvester(left, right, rhs):
    """G with left G + G right = rhs (n x n, batched), by the Kronecker sum."""
    n = rhs._value.shape[-1]
    ident = eye(n, dtype=rhs.dtype)
    system = add(_kron(left, ident), _kron(ident, matrix_transpose(right)))
    batch = tuple(rhs._value.shape[:-2])
    flat = solve(system, reshape(rhs, batch + (n * n, 1)))
    return reshape(flat, batch + (n, n))


defvjp(SQRTM, lambda g, ans, a: _sylvester(matrix_transpose(ans), matrix_transpose(ans), g))
defjvp(SQRTM, lambda t, ans, a: _sylvester(ans, ans, t))


def _square_input(x, prim):
    """``x`` as square matrices for the primitive ``prim``, its dtype rule checked first (as
    TensorFlow's kernel lookup is)."""
    x = x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)
    check_dtype(prim, x)
    s = x._value.shape
    if len(s) < 2 or s[-1] != s[-2]:
        raise InvalidArgumentError(f"Input matrix must be square, got shape {list(s)} "
                                   f"[Op:{prim.name}]")
    return x


def sqrtm(input, name=None):  # noqa: A002
    """The principal square root of each square matrix (NaN for a real matrix with a real
    eigenvalue <= 0, as TensorFlow gives).

    >>> import tapegrad as tf
    >>> tf.linalg.sqrtm([[4.0, 0.0], [0.0, 9.0]]).numpy().round(4).tolist()
    [[2.0, 0.0], [0.0, 3.0]]
    """
    return bind(SQRTM, (_square_input(input, SQRTM),), {})


def _log_one(a):
    work = a.astype(xp.complex128)
    n = work.shape[-1]
    ident = xp.eye(n, dtype=work.dtype)
    squarings = 0
    while xp.linalg.norm(work - ident, 1) > 0.25 and squarings < 60:
        root, ok = _denman_beavers(work)
        work = root if ok else _by_eigenvectors(work, xp.sqrt)
        squarings += 1
    e = work - ident
    term, total = e.copy(), xp.zeros_like(e)
    for k in range(1, 60):          # log(I + E) = E - E^2/2 + E^3/3 - ..., |E| <= 1/4
        total = total + term * ((-1) ** (k + 1) / k)
        term = term @ e
    return total * (2.0 ** squarings)


LOGM = primitive("MatrixLogarithm", lambda a: _batched(_log_one, a), dtypes=COMPLEX)
exempt(LOGM, **NO_GRADIENT)
defshape(LOGM, shape_rules.square_matrix)


def logm(input, name=None):  # noqa: A002
    """The principal logarithm of each square complex matrix (no gradient, as TensorFlow's).

    >>> import tapegrad as tf
    >>> m = tf.constant([[1.0, 1.0], [0.0, 1.0]], tf.complex64)
    >>> tf.linalg.logm(m).numpy().real.round(4).tolist()
    [[0.0, 1.0], [0.0, 0.0]]
    """
    x = input.read_value() if isinstance(input, Variable) else convert_to_tensor(input)
    if x._value.dtype.kind != "c":      # TensorFlow's message (recorded in linalg_more)
        raise InvalidArgumentError(f"Value for attr 'T' of {x.dtype.name} is not in the list of "
                                   f"allowed values: complex64, complex128 [Op:MatrixLogarithm]")
    return bind(LOGM, (_square_input(x, LOGM),), {})


def matrix_square_root(input, name=None):  # noqa: A002
    """``tf.matrix_square_root``: the same as ``tf.linalg.sqrtm``."""
    return sqrtm(input, name)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(SQRTM)
