"""Linear algebra on (batches of) matrices: inv, det, slogdet, solve, cholesky, triangular_solve
(primitives whose rules are written with these same ops, so Hessians work), and trace, diag,
diag_part, band_part (composites of masks and sums).

The rules are the classic matrix-calculus identities, e.g. for ``X = A^-1 B``:
``dB = A^-T G`` and ``dA = -dB X^T``; for the Cholesky factor the rule of Murray (2016).
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import FLOAT_COMPLEX
from ..tensor import wrap
from .. import convert
from ..checks import check_dtype
from ..ground import add, multiply, reduce_sum, reshape, scalar_like
from .arithmetic_ops import cast, negative, subtract
from .array_ops import expand_dims, eye, getitem, matrix_transpose
from .exponential_ops import log
from .matmul_ops import matmul
from .. import batching
from ..batching import own_vjp
from .. import shape_rules
from ..table import defshape


def _shape(x):
    return tuple(x._value.shape)


def _mT(x):
    return matrix_transpose(x)


def _adj_value(a):
    """The conjugate transpose of an array's last two axes (a plain transpose when real)."""
    t = xp.swapaxes(a, -1, -2)
    return xp.conj(t) if t.dtype.kind == "c" else t


def _square_matrix(x, prim):
    x = convert.tensor(x)
    s = _shape(x)
    if len(s) < 2 or s[-1] != s[-2]:
        raise InvalidArgumentError(f"Input must be a square matrix (or a batch of them), got shape "
                                   f"[{','.join(map(str, s))}] [Op:{prim.name}]")
    check_dtype(prim, x)                       # TensorFlow's dtypes for the op (checks/)
    return x


# TensorFlow's words where it has its own; NumPy's (which differ between NumPy versions) never.
_SINGULAR = {"MatrixInverse": "Input is not invertible.",
             "MatrixSolve": "Input matrix is not invertible."}


def _singular(op):
    return (f"{_SINGULAR.get(op) or op + ': the matrix is singular or not positive definite'} "
            f"[Op:{op}]")


def _eigen_factors(a):
    """For matrices holding a NaN or an infinity, what TensorFlow's MatrixInverse and MatrixSolve
    do: their kernels factor each matrix with Eigen's partial-pivoting LU and refuse it as not
    invertible when the smallest |pivot| is not > 0; with NaN in play that depends on Eigen's
    comparisons (NaN is never greater or smaller, so which entry becomes a pivot and which pivot
    counts as smallest depends on order), followed here step by step. A factorization holding a
    NaN makes every entry of that matrix's result NaN. Returns (refused, one flag per matrix:
    its result is all NaN)."""
    batch = a.reshape((-1,) + a.shape[-2:]).astype(xp.complex128 if a.dtype.kind == "c"
                                                   else xp.float64)
    factors = [_eigen_lu(m.copy()) for m in batch]
    refused = any(not _smallest_pivot(lu) > 0 for lu in factors)
    return refused, xp.asarray([bool(xp.isnan(lu).any()) for lu in factors])


def _eigen_lu(lu):
    n = lu.shape[0]
    for k in range(n):
        col = xp.abs(lu[k:, k])
        row = 0
        for i in range(1, n - k):       # maxCoeff(&index): the first whose score is greater
            if col[i] > col[row]:
                row = i
        if col[row] != 0:                # (NaN is not 0: Eigen divides by it)
            lu[[k, k + row]] = lu[[k + row, k]]
            lu[k + 1:, k] /= lu[k, k]
        lu[k + 1:, k + 1:] -= xp.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu


def _smallest_pivot(lu):
    pivots = xp.abs(xp.diagonal(lu))
    smallest = pivots[0]
    for p in pivots[1:]:                 # minCoeff(): std::min, element by element
        if p < smallest:
            smallest = p
    return smallest


def _quiet_linalg(fn, op):
    def impl(*args, **kw):
        nans = None
        if op in _SINGULAR and not xp.all(xp.isfinite(args[0])):
            with xp.errstate(all="ignore"):
                refused, nans = _eigen_factors(_adj_value(args[0]) if kw.get("adjoint")
                                               else args[0])
            if refused:
                raise InvalidArgumentError(_singular(op))
        try:
            with xp.errstate(all="ignore"):
                out = fn(*args, **kw)
        except xp.linalg.LinAlgError:
            raise InvalidArgumentError(_singular(op)) from None
        # Pyodide's NumPy (no LAPACK) returns nan/inf here instead of raising: same error.
        if all(xp.all(xp.isfinite(a)) for a in args if hasattr(a, "dtype")) and \
                not xp.all(xp.isfinite(out)):
            raise InvalidArgumentError(_singular(op))
        if nans is not None and nans.any():
            out = _nan_where(out, nans)
        return out
    return impl


def _nan_where(out, nans):
    """``out`` with the results of the flagged matrices all NaN (as Eigen's solves give them)."""
    flat = out.reshape((-1,) + out.shape[-2:]).copy()
    if flat.shape[0] == nans.shape[0]:
        flat[nans] = xp.nan
    return flat.reshape(out.shape)


def _mask(n, m, lower, dtype, half_diagonal=False):
    """A constant lower (or upper) triangular mask; ``half_diagonal`` puts 0.5 on the diagonal."""
    mask = xp.tril(xp.ones((n, m), dtype)) if lower else xp.triu(xp.ones((n, m), dtype))
    if half_diagonal:
        mask = mask - 0.5 * xp.eye(n, m, dtype=dtype)
    return wrap(mask)


def _triangle(x, lower):
    s = _shape(x)
    return multiply(x, _mask(s[-2], s[-1], lower, x._value.dtype))


# -- inverse --------------------------------------------------------------------------------------
def _inv_impl(a, adjoint):
    a = _adj_value(a) if adjoint else a
    if a.dtype == xp.float16:       # TensorFlow inverts half matrices; NumPy's LAPACK cannot
        return xp.linalg.inv(a.astype(xp.float32)).astype(xp.float16)
    return xp.linalg.inv(a)


INV = primitive("MatrixInverse", _quiet_linalg(_inv_impl, "MatrixInverse"), dtypes=FLOAT_COMPLEX)
defshape(INV, shape_rules.square_matrix)


def _inv_vjp(g, ans, a, adjoint):
    r = negative(matmul(ans, matmul(g, ans, adjoint_b=True), adjoint_a=True))
    return matrix_transpose(r, conjugate=True) if adjoint else r


def _inv_jvp(t, ans, a, adjoint):
    return negative(matmul(ans, matmul(matrix_transpose(t, conjugate=True) if adjoint else t,
                                       ans)))


defvjp(INV, _inv_vjp)
defjvp(INV, _inv_jvp)


def inv(input, adjoint=False, name=None):  # noqa: A002
    """The inverse of each square matrix (of its conjugate transpose when ``adjoint``)."""
    return bind(INV, (_square_matrix(input, INV),), {"adjoint": bool(adjoint)})


# -- determinants -----------------------------------------------------------------------------
def _expand2(x):
    return reshape(x, _shape(x) + (1, 1))


DET = primitive("MatrixDeterminant", lambda a: xp.asarray(xp.linalg.det(a), dtype=a.dtype),
                dtypes=FLOAT_COMPLEX.no_kernel("float16"))
# d det(A) = det(A) * trace(A^-1 dA); the gradient is det(A) * A^-T (undefined when singular).
defvjp(DET, lambda g, ans, a: multiply(_expand2(multiply(g, ans)), _mT(inv(a))))
defjvp(DET, lambda t, ans, a: multiply(ans, reduce_sum(multiply(_mT(inv(a)), t), axis=(-2, -1))))
defshape(DET, shape_rules.matrix_scalar)


def _logabsdet_impl(a):
    sign, logdet = xp.linalg.slogdet(a)
    return xp.asarray(logdet, dtype=a.dtype)


LOG_ABS_DET = primitive("LogMatrixDeterminant", _logabsdet_impl,
                        dtypes=FLOAT_COMPLEX.no_kernel("float16"))
defvjp(LOG_ABS_DET, lambda g, ans, a: multiply(_expand2(g), _mT(inv(a))))
defjvp(LOG_ABS_DET, lambda t, ans, a: reduce_sum(multiply(_mT(inv(a)), t), axis=(-2, -1)))
defshape(LOG_ABS_DET, shape_rules.matrix_scalar)


def det(input, name=None):  # noqa: A002
    """The determinant of each square matrix."""
    return bind(DET, (_square_matrix(input, DET),), {})


def slogdet(input, name=None):  # noqa: A002
    """(sign, log|det|) of each square matrix; the sign is a constant (no gradient)."""
    x = _square_matrix(input, LOG_ABS_DET)
    sign = wrap(xp.asarray(xp.linalg.slogdet(x._value)[0], dtype=x._value.dtype))
    return sign, bind(LOG_ABS_DET, (x,), {})


def logdet(matrix, name=None):
    """log(det(A)) of a positive definite matrix, via its Cholesky factor."""
    ch = cholesky(matrix)
    out = multiply(scalar_like(2, ch), reduce_sum(log(diag_part(ch)), axis=-1))
    if ch._value.dtype.kind == "c":   # Hermitian: the log-determinant is real, as TF gives it
        out = cast(out, xp.float32 if ch._value.dtype == xp.complex64 else xp.float64)
    return out


# -- solves --------------------------------------------------------------------------------------------
def _solve_impl(a, b, adjoint):
    return xp.linalg.solve(_adj_value(a) if adjoint else a, b)


SOLVE = primitive("MatrixSolve", _quiet_linalg(_solve_impl, "MatrixSolve"),
                  dtypes=FLOAT_COMPLEX.no_kernel("float16"))
defshape(SOLVE, shape_rules.solve)


def _solve_cotangents(g, ans, inputs, wanted, gb, adjoint, cut):
    """A solve's cotangents from ``gb`` (g solved with the matrix's adjoint): ``cut(-gb x^H)``
    (``-x gb^H`` when ``adjoint``) for the matrix and ``gb`` for the right-hand side, each summed
    back to its input's shape; ``g`` may have leading rows beyond ``ans`` (``own_vjp``)."""
    a, b = inputs
    lead = batching.lead_of(g, ans)
    ca = cb = None
    if wanted[0]:
        r = matmul(ans, gb, adjoint_b=True) if adjoint else matmul(gb, ans, adjoint_b=True)
        ca = batching.unbroadcast_lead(cut(negative(r)), _shape(a), lead)
    if wanted[1]:
        cb = batching.unbroadcast_lead(gb, _shape(b), lead)
    return [ca, cb]


def _solve_vjp(g, ans, inputs, attrs, wanted):
    adjoint = attrs["adjoint"]
    gb = solve(inputs[0], g, adjoint=not adjoint)   # a broadcasts over any rows of g
    return _solve_cotangents(g, ans, inputs, wanted, gb, adjoint, lambda r: r)


SOLVE.vjp = _solve_vjp
defjvp(SOLVE, lambda t, ans, a, b, adjoint: solve(
           a, negative(matmul(t, ans, adjoint_a=adjoint)), adjoint=adjoint),
       lambda t, ans, a, b, adjoint: solve(a, t, adjoint=adjoint))


def _check_rhs(a, b, op):
    if b._value.ndim < 2 or _shape(b)[-2] != _shape(a)[-1]:
        raise InvalidArgumentError(f"Input matrix and right-hand side must have the same number of "
                                   f"rows: {list(_shape(a))} vs. {list(_shape(b))} [Op:{op}]")


def solve(matrix, rhs, adjoint=False, name=None):
    """X with ``matrix @ X = rhs`` (``matrix^H @ X = rhs`` when ``adjoint``); rhs is [..., M, K]."""
    a = _square_matrix(matrix, SOLVE)
    a, b = convert.binary(a, rhs, "MatrixSolve")
    _check_rhs(a, b, "MatrixSolve")
    return bind(SOLVE, (a, b), {"adjoint": bool(adjoint)})


def _tri_solve_impl(a, b, lower, adjoint):
    t = xp.tril(a) if lower else xp.triu(a)
    return xp.linalg.solve(_adj_value(t) if adjoint else t, b)


TRI_SOLVE = primitive("MatrixTriangularSolve", _quiet_linalg(_tri_solve_impl,
                                                             "MatrixTriangularSolve"),
                      dtypes=FLOAT_COMPLEX.no_kernel("float16"))
defshape(TRI_SOLVE, shape_rules.solve)


def _tri_vjp(g, ans, inputs, attrs, wanted):
    lower, adjoint = attrs["lower"], attrs["adjoint"]
    gb = triangular_solve(inputs[0], g, lower=lower, adjoint=not adjoint)
    return _solve_cotangents(g, ans, inputs, wanted, gb, adjoint, lambda r: _triangle(r, lower))


def _tri_jvp_a(t, ans, a, b, lower, adjoint):
    ta = _triangle(t, lower)
    return triangular_solve(a, negative(matmul(ta, ans, adjoint_a=adjoint)), lower=lower,
                            adjoint=adjoint)


TRI_SOLVE.vjp = _tri_vjp
defjvp(TRI_SOLVE, _tri_jvp_a, lambda t, ans, a, b, lower, adjoint: triangular_solve(
    a, t, lower=lower, adjoint=adjoint))


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solves with the lower (or upper) triangle of ``matrix``; the other triangle is ignored."""
    a = _square_matrix(matrix, TRI_SOLVE)
    a, b = convert.binary(a, rhs, "MatrixTriangularSolve")
    _check_rhs(a, b, "MatrixTriangularSolve")
    return bind(TRI_SOLVE, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)})


# -- Cholesky ---------------------------------------------------------------------------------------
def _cholesky_impl(a):
    return xp.linalg.cholesky(a)


CHOLESKY = primitive("Cholesky", _quiet_linalg(_cholesky_impl, "Cholesky"),
                     dtypes=FLOAT_COMPLEX.no_kernel("float16"))
defshape(CHOLESKY, shape_rules.square_matrix)


def _phi(x):
    """The lower triangle of x with its diagonal halved."""
    s = _shape(x)
    return multiply(x, _mask(s[-2], s[-1], True, x._value.dtype, half_diagonal=True))


def _cholesky_vjp(g, ans, a):
    n = _shape(a)[-1]
    l_inv = triangular_solve(ans, eye(n, dtype=a.dtype), lower=True)
    middle = _phi(matmul(ans, g, transpose_a=True))
    s = matmul(matmul(l_inv, middle, transpose_a=True), l_inv)
    return multiply(scalar_like(0.5, s), add(s, _mT(s)))


def _cholesky_jvp(t, ans, a):
    n = _shape(a)[-1]
    l_inv = triangular_solve(ans, eye(n, dtype=a.dtype), lower=True)
    sym = multiply(scalar_like(0.5, t), add(t, _mT(t)))
    return matmul(ans, _phi(matmul(matmul(l_inv, sym), l_inv, transpose_b=True)))


defvjp(CHOLESKY, _cholesky_vjp)
defjvp(CHOLESKY, _cholesky_jvp)


def cholesky(input, name=None):  # noqa: A002
    """The lower-triangular L with ``L @ L^T = input`` (reads only the lower triangle). The
    gradient is symmetric, as TensorFlow's."""
    return bind(CHOLESKY, (_square_matrix(input, CHOLESKY),), {})


def cholesky_solve(chol, rhs, name=None):
    """X with ``(chol @ chol^T) X = rhs``."""
    y = triangular_solve(chol, rhs, lower=True)
    return triangular_solve(chol, y, lower=True, adjoint=True)


# -- diagonals, trace, bands (composites) ------------------------------------------------------------
def diag(diagonal, name=None, k=0, **unsupported):
    """A (batch of) square matrix with ``diagonal`` on its main diagonal."""
    if k != 0 or unsupported:
        raise NotImplementedError("linalg.diag: only the main diagonal (k=0) is implemented")
    v = convert.tensor(diagonal)
    n = _shape(v)[-1]
    if v._value.dtype.kind == "b":  # no arithmetic on bool (and no gradient to keep)
        return wrap(v._value[..., None] & xp.eye(n, dtype=bool))
    return multiply(expand_dims(v, -1), wrap(xp.eye(n, dtype=v._value.dtype)))


def diag_part(input, name=None, k=0, **unsupported):  # noqa: A002
    """The main diagonal of each matrix (length min(rows, cols))."""
    if k != 0 or unsupported:
        raise NotImplementedError("linalg.diag_part: only the main diagonal (k=0) is implemented")
    x = convert.tensor(input)
    if x._value.ndim < 2:
        raise ValueError(f"diag_part: input must be at least 2-D, got shape {x.shape}")
    if x._value.dtype.kind == "b":  # no arithmetic on bool (and no gradient to keep)
        return wrap(xp.ascontiguousarray(xp.diagonal(x._value, axis1=-2, axis2=-1)))
    m, n = _shape(x)[-2:]
    r = reduce_sum(multiply(x, wrap(xp.eye(m, n, dtype=x._value.dtype))), axis=-1)
    return getitem(r, (Ellipsis, slice(0, min(m, n)))) if m > n else r


def trace(x, name=None):
    """Sum of the main diagonal of each matrix."""
    return reduce_sum(diag_part(x), axis=-1)


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """Keeps ``num_lower`` sub-diagonals and ``num_upper`` super-diagonals (-1: all)."""
    x = convert.tensor(input)
    m, n = _shape(x)[-2:]
    i = xp.arange(m).reshape(m, 1)
    j = xp.arange(n).reshape(1, n)
    keep = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
    if x._value.dtype.kind == "b":  # no arithmetic on bool (and no gradient to keep)
        return wrap(x._value & keep)
    return multiply(x, wrap(keep.astype(x._value.dtype)))


def set_diag(input, diagonal, name=None, k=0):  # noqa: A002
    """``input`` with its main diagonal replaced by ``diagonal``."""
    if k != 0:
        raise NotImplementedError("linalg.set_diag: only the main diagonal (k=0) is implemented")
    x = convert.tensor(input)
    m, n = _shape(x)[-2:]
    if m != n:
        raise NotImplementedError("linalg.set_diag: only square matrices are implemented")
    if x._value.dtype.kind == "b":  # no arithmetic on bool (and no gradient to keep)
        out = x._value.copy()
        i = xp.arange(n)
        out[..., i, i] = convert.tensor(diagonal)._value
        return wrap(out)
    eye = wrap(xp.eye(n, dtype=x._value.dtype))
    return add(subtract(x, multiply(x, eye)), diag(diagonal))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(CHOLESKY, INV, DET, LOG_ABS_DET, SOLVE, TRI_SOLVE)
