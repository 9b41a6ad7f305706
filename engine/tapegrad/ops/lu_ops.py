"""LU factorisation with partial pivoting (``tf.linalg.lu``) and the ops that use its packed
result: ``lu_solve``, ``lu_matrix_inverse``, ``lu_reconstruct``.

``lu(A)`` gives ``(lu, p)``: ``lu`` packs the unit lower-triangular L below its diagonal and
U on and above it; ``p`` lists, for each row of L U, the row of A it came from, so that
``tf.gather(A, p) == L @ U`` (TensorFlow's convention; the pivot is the first entry of largest
magnitude in each column, as LAPACK and Eigen choose it).

``Lu`` is a primitive (the factorisation loops over columns, vectorised over the batch) with
no gradient: TensorFlow 2.21 registers none (LookupError), and neither does tapegrad. The
other three are composites of triangular solves, products and a permutation matrix, so they
are differentiable in ``lower_upper`` and ``rhs``, as TensorFlow's are.

TensorFlow quirk matched: with a batch of matrices, an int64 ``perm`` makes the three helpers
fail inside TensorFlow (InvalidArgumentError from a Pack of int32 and int64 indices).
"""
from ..backend import xp
from ..dtypes import as_dtype
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import primitive
from ..checks import check_dtype
from ..checks.dtype_rules import FLOAT_COMPLEX
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import add, multiply
from .array_ops import eye
from .arithmetic_ops import cast
from .linalg_ops import band_part, triangular_solve
from .matmul_ops import matmul
from ..primitives import NO_GRADIENT, exempt


def _factor(a):
    """(packed lu, perm) of a [..., n, n] array by Gaussian elimination with partial pivoting."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    lu = a.reshape((-1, n, n)).copy()
    perm = xp.tile(xp.arange(n), (lu.shape[0], 1))
    rows = xp.arange(lu.shape[0])
    with xp.errstate(all="ignore"):
        for k in range(n):
            pivot = k + xp.argmax(xp.abs(lu[:, k:, k]), axis=-1)
            top, chosen = lu[rows, k].copy(), lu[rows, pivot].copy()
            lu[rows, k], lu[rows, pivot] = chosen, top
            ptop, pchosen = perm[rows, k].copy(), perm[rows, pivot].copy()
            perm[rows, k], perm[rows, pivot] = pchosen, ptop
            lu[:, k + 1:, k] /= lu[:, k:k + 1, k]
            lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k:k + 1] * lu[:, k:k + 1, k + 1:]
    return lu.reshape(a.shape), perm.reshape(batch + (n,))


LU = primitive("Lu", lambda a: _factor(a)[0],   # TensorFlow lists half, with no CPU kernel
               dtypes=FLOAT_COMPLEX.no_kernel("float16"))
exempt(LU, **NO_GRADIENT)
defshape(LU, shape_rules.square_matrix)


def _unit_lower(lu):
    n = lu._value.shape[-1]
    strictly = multiply(lu, wrap(xp.tril(xp.ones((n, n), lu._value.dtype), -1)))
    return add(strictly, eye(n, dtype=lu.dtype))


def _upper(x):
    return band_part(x, 0, -1)


def _permutation_matrix(perm, dtype):
    """P with (P A)[i] = A[perm[i]], as a constant [..., n, n] tensor."""
    p = xp.asarray(perm)
    n = p.shape[-1]
    return wrap((p[..., :, None] == xp.arange(n)).astype(dtype))


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def lu(input, output_idx_type="int32", name=None):  # noqa: A002
    """``(lu, p)``: L (unit lower, below the diagonal) and U packed in one matrix, and the row
    permutation with ``tf.gather(input, p) == L @ U``.

    >>> import tapegrad as tf
    >>> packed, p = tf.linalg.lu([[1.0, 2.0], [3.0, 4.0]])
    >>> packed.numpy().tolist(), p.numpy().tolist()
    ([[3.0, 4.0], [0.3333333432674408, 0.6666666269302368]], [1, 0])
    """
    a = _tensor(input)
    check_dtype(LU, a)
    s = a._value.shape
    if len(s) < 2 or s[-1] != s[-2]:
        raise InvalidArgumentError(f"Input matrix must be square. Input tensor 0 must be a "
                                   f"square matrix (or a batch of them), got shape {list(s)} "
                                   f"[Op:Lu]")
    idx = as_dtype(output_idx_type)
    if idx.name not in ("int32", "int64"):
        raise TypeError(f"output_idx_type must be int32 or int64, got {idx.name}")
    perm = _factor(a._value)[1].astype(idx.as_numpy_dtype)
    return bind(LU, (a,), {}), wrap(perm)


def _perm(perm):
    p = _tensor(perm)
    if p._value.dtype.kind not in "iu":
        raise TypeError(f"perm must be an integer tensor, got {p.dtype.name}")
    if p._value.dtype == xp.int64 and p._value.ndim > 1:     # TensorFlow's own failure
        raise InvalidArgumentError("cannot compute Pack as input #1(zero-based) was expected to "
                                   "be a int32 tensor but is a int64 tensor [Op:Pack]")
    return p._value


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with ``A X = rhs``, from ``(lower_upper, perm) = tf.linalg.lu(A)``.

    >>> import tapegrad as tf
    >>> packed, p = tf.linalg.lu([[2.0, 0.0], [1.0, 1.0]])
    >>> tf.linalg.lu_solve(packed, p, [[2.0], [3.0]]).numpy().tolist()
    [[1.0], [2.0]]
    """
    lu_t = _tensor(lower_upper)
    b = cast(_tensor(rhs), lu_t.dtype) if _tensor(rhs).dtype != lu_t.dtype else _tensor(rhs)
    p = _permutation_matrix(_perm(perm), lu_t._value.dtype)
    y = triangular_solve(_unit_lower(lu_t), matmul(p, b), lower=True)
    return triangular_solve(_upper(lu_t), y, lower=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of A from ``(lower_upper, perm) = tf.linalg.lu(A)``.

    >>> import tapegrad as tf
    >>> packed, p = tf.linalg.lu([[2.0, 0.0], [0.0, 4.0]])
    >>> tf.linalg.lu_matrix_inverse(packed, p).numpy().tolist()
    [[0.5, 0.0], [0.0, 0.25]]
    """
    lu_t = _tensor(lower_upper)
    n = lu_t._value.shape[-1]
    ident = wrap(xp.broadcast_to(xp.eye(n, dtype=lu_t._value.dtype), lu_t._value.shape).copy())
    return lu_solve(lu_t, perm, ident)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """A from ``(lower_upper, perm) = tf.linalg.lu(A)``: the rows of L U put back in place.

    >>> import tapegrad as tf
    >>> tf.linalg.lu_reconstruct(*tf.linalg.lu([[1.0, 2.0], [3.0, 4.0]])).numpy().tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """
    lu_t = _tensor(lower_upper)
    p = _permutation_matrix(_perm(perm), lu_t._value.dtype)
    return matmul(p, matmul(_unit_lower(lu_t), _upper(lu_t)), transpose_a=True)
