"""Matrix decompositions, ``qr``, ``svd``, ``eigh``/``eigvalsh``, and what is computed with
them: ``norm`` (with the spectral norm), ``lstsq``, ``pinv``, ``matrix_rank``, ``normalize``,
``expm``; with ``matvec`` and ``cross``.

Each decomposition output is its own primitive (``Qr`` gives Q, ``QrR`` gives R, and so on),
computed by NumPy's LAPACK routines, so the sign conventions are LAPACK's (TensorFlow's CPU
kernels for ``svd`` and ``eigh`` are Eigen's solvers, whose vectors may differ in sign: see
PENDING in tests/conformance/cases/dtypes_table.py). A gradient reaching several outputs is the
sum of each output's rule, and the rules are written with the engine's ops (the decompositions
themselves included), so higher orders work.

Gradient conventions, recorded from TensorFlow 2.21:

* ``eigh``/``eigvalsh`` read only the lower triangle of the input, so the gradient is lower
  triangular: ``tril(G + G^T)`` with the diagonal halved, G = V (diag(g_e) + F * V^T g_V) V^T,
  F_ij = 1 / (e_j - e_i) off the diagonal.
* ``svd``: for A = U diag(s) V^T (reduced), with F_ij = 1 / (s_j^2 - s_i^2) off the diagonal,
  the gradient is U [diag(g_s) + (F * (U^T g_U - g_U^T U)) S + S (F * (V^T g_V - g_V^T V))] V^T
  + (I - U U^T) g_U S^-1 V^T + U S^-1 g_V^T (I - V V^T). Repeated singular values make it
  infinite, as in TensorFlow. ``full_matrices=True`` on a non-square input has TensorFlow's
  gradient when the sides differ by one (the extra column c of U or V adds
  -c (g_c^T U) S^-1 V^T); beyond that it raises NotImplementedError, as TensorFlow does.
* ``qr`` (rows >= columns): g_A = (g_Q + Q N) R^-T, N the symmetric matrix whose upper
  triangle is that of g_R R^T - Q^T g_Q. A wide A = [X | Y] has Q, U = qr(X) and R = [U | Q^T Y],
  so its gradient is X's from the square rule (with g_Q + Y g_V^T) beside Y's, Q g_V.
  ``full_matrices=True`` with more rows than columns has no gradient, as in TensorFlow.
"""
import math as _math

from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks import check_dtype
from ..checks.dtype_rules import FLOAT_COMPLEX
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import add, multiply, reduce_sum, reshape
from .arithmetic_ops import abs, cast, maximum, negative, subtract
from .array_ops import (
    concat, expand_dims, eye, matrix_transpose, ones_like, stack, transpose, zeros_like,
)
from .complex_ops import real
from .exponential_ops import reciprocal, sqrt, square
from .linalg_ops import band_part, cholesky, cholesky_solve, solve, triangular_solve
from .logic_ops import where
from .matmul_ops import matmul
from .reduction_ops import norm as _vector_and_simple_norm, reduce_max
from ..batching import own_vjp


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _matrix(x, op, rule=None):
    """``x`` as a tensor of matrices for the op named ``op``. ``rule``: the primitive whose dtype
    rule is checked first, as TensorFlow's kernel lookup is; without one (a composite), a
    floating or complex dtype is required."""
    x = _tensor(x)
    if rule is not None:
        check_dtype(rule, x)
    if x._value.ndim < 2:
        raise InvalidArgumentError(f"Input tensor 0 must have rank >= 2, got shape "
                                   f"{list(x._value.shape)} [Op:{op}]")
    if rule is None and not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"{op}: expected a floating-point tensor, got {x.dtype.name}")
    return x


def _T(x):
    return matrix_transpose(x)


def _diag(v):
    """Batched diagonal matrices from the last axis of ``v`` (composed: differentiable)."""
    n = v._value.shape[-1]
    return multiply(expand_dims(v, -1), eye(n, dtype=v.dtype))


def _diag_part(m):
    n = min(m._value.shape[-2:])
    sq = m if m._value.shape[-1] == m._value.shape[-2] else \
        (m[..., :n, :n])
    return reduce_sum(multiply(sq, eye(n, dtype=m.dtype)), axis=-1)


def _reciprocal(x):
    return reciprocal(x)


def _off_diagonal_reciprocal(d):
    """F_ij = 1 / (d_j - d_i) for i != j, 0 on the diagonal (inf where two entries are equal)."""
    n = d._value.shape[-1]
    ident = wrap(xp.eye(n, dtype=d._value.dtype))
    diff = subtract(expand_dims(d, -2), expand_dims(d, -1))
    # the diagonal of diff is 0: add 1 there before inverting, then mask it out
    return multiply(subtract(_ones(ident), ident), _reciprocal(add(diff, ident)))


def _quiet(fn, op):
    def impl(*args, **kw):
        try:
            with xp.errstate(all="ignore"):
                return fn(*args, **kw)
        except xp.linalg.LinAlgError as e:
            raise InvalidArgumentError(f"{op}: {e} [Op:{op}]") from None
    return impl


# -- eigh -------------------------------------------------------------------------------------------
def _eigh_values(a):
    return xp.linalg.eigh(a)[0].astype(a.dtype, copy=False)


def _eigh_vectors(a):
    return xp.ascontiguousarray(xp.linalg.eigh(a)[1].astype(a.dtype, copy=False))


# TensorFlow lists half for these decompositions but has no CPU kernel for it (Qr has one)
_NO_HALF = FLOAT_COMPLEX.no_kernel("float16")
EIGH_VALUES = primitive("SelfAdjointEigV2", _quiet(_eigh_values, "SelfAdjointEigV2"),
                        dtypes=_NO_HALF)
defshape(EIGH_VALUES, shape_rules.eig_values())
EIGH_VECTORS = primitive("SelfAdjointEigV2Vectors", _quiet(_eigh_vectors, "SelfAdjointEigV2"),
                         dtypes=_NO_HALF)
defshape(EIGH_VECTORS, shape_rules.square_matrix)


def _lower_symmetrized(g):
    """tril(g + g^T) with its diagonal halved: the gradient of a function of the lower triangle."""
    s = add(g, _T(g))
    n = g._value.shape[-1]
    lower_half = xp.tril(xp.ones((n, n), g._value.dtype)) - 0.5 * xp.eye(n, dtype=g._value.dtype)
    return multiply(s, wrap(lower_half))


def _symmetric_from_lower(t):
    n = t._value.shape[-1]
    lower = multiply(t, wrap(xp.tril(xp.ones((n, n), t._value.dtype))))
    strictly = multiply(t, wrap(xp.tril(xp.ones((n, n), t._value.dtype), -1)))
    return add(lower, _T(strictly))


def _eig_vjp_values(g, ans, a):
    v = bind(EIGH_VECTORS, (a,), {})
    return _lower_symmetrized(matmul(v, matmul(_diag(g), v, transpose_b=True)))


def _eig_vjp_vectors(g, ans, a):
    e = bind(EIGH_VALUES, (a,), {})
    f = _off_diagonal_reciprocal(e)
    inner = multiply(f, matmul(ans, g, transpose_a=True))
    return _lower_symmetrized(matmul(ans, matmul(inner, ans, transpose_b=True)))


def _eig_jvp_values(t, ans, a):
    v = bind(EIGH_VECTORS, (a,), {})
    return _diag_part(matmul(v, matmul(_symmetric_from_lower(t), v), transpose_a=True))


def _eig_jvp_vectors(t, ans, a):
    e = bind(EIGH_VALUES, (a,), {})
    f = _off_diagonal_reciprocal(e)
    p = matmul(ans, matmul(_symmetric_from_lower(t), ans), transpose_a=True)
    return matmul(ans, multiply(f, p))


defvjp(EIGH_VALUES, _eig_vjp_values)
defjvp(EIGH_VALUES, _eig_jvp_values)
defvjp(EIGH_VECTORS, _eig_vjp_vectors)
defjvp(EIGH_VECTORS, _eig_jvp_vectors)


def _square(x, op, rule=None):
    x = _matrix(x, op, rule)
    s = x._value.shape
    if s[-1] != s[-2]:
        raise InvalidArgumentError(f"Input matrix must be square, got shape {list(s)} [Op:{op}]")
    return x


def eigh(tensor, name=None):
    """``(e, v)``: eigenvalues (ascending) and eigenvectors (columns) of self-adjoint matrices;
    only the lower triangle is read.

    >>> import tapegrad as tf
    >>> e, v = tf.linalg.eigh([[2.0, 1.0], [1.0, 2.0]])
    >>> e.numpy().tolist()
    [1.0, 3.0]
    """
    a = _square(tensor, "SelfAdjointEigV2", EIGH_VALUES)
    return bind(EIGH_VALUES, (a,), {}), bind(EIGH_VECTORS, (a,), {})


def eigvalsh(tensor, name=None):
    """Eigenvalues (ascending) of self-adjoint matrices (the lower triangle is read)."""
    a = _square(tensor, "SelfAdjointEigV2", EIGH_VALUES)
    return bind(EIGH_VALUES, (a,), {})


# -- svd --------------------------------------------------------------------------------------------
def _svd_parts(a, full_matrices):
    u, s, vh = xp.linalg.svd(a, full_matrices=full_matrices)
    return u, s, xp.swapaxes(vh, -1, -2)


def _real_dtype(a):
    return xp.float32 if a.dtype == xp.complex64 else (
        xp.float64 if a.dtype == xp.complex128 else a.dtype)


def _singular_values_spec(a, **attrs):
    """The singular values are real, of a complex input too."""
    return shape_rules.Spec(shape_rules.decomposition("s")(a, **attrs).shape, a.dtype.real_dtype)


SVD_S = primitive("Svd", _quiet(lambda a: _svd_parts(a, False)[1].astype(
    _real_dtype(a), copy=False), "Svd"), dtypes=_NO_HALF)
defshape(SVD_S, _singular_values_spec)
SVD_U = primitive("SvdU", _quiet(lambda a, full_matrices: xp.ascontiguousarray(
    _svd_parts(a, full_matrices)[0].astype(a.dtype, copy=False)), "Svd"), dtypes=_NO_HALF)
defshape(SVD_U, shape_rules.decomposition("u"))
SVD_V = primitive("SvdV", _quiet(lambda a, full_matrices: xp.ascontiguousarray(
    _svd_parts(a, full_matrices)[2].astype(a.dtype, copy=False)), "Svd"), dtypes=_NO_HALF)
defshape(SVD_V, shape_rules.decomposition("v"))


def _complex(a):
    return a._value.dtype.kind == "c"


def _as_input_dtype(s, a):
    """Real singular values (or their gradient) in a complex input's dtype, as TensorFlow's
    rules compute with them."""
    return cast(s, a.dtype) if _complex(a) else s


def _reduced(a):
    """(s, u, v) of the reduced SVD, as recorded ops (s in ``a``'s dtype)."""
    return (_as_input_dtype(bind(SVD_S, (a,), {}), a),
            bind(SVD_U, (a,), {"full_matrices": False}),
            bind(SVD_V, (a,), {"full_matrices": False}))


def _check_full(a, full_matrices, forward=False):
    m, n = a._value.shape[-2:]
    if full_matrices and forward and m != n:
        raise NotImplementedError(f"svd: the forward-mode derivative of full_matrices=True is "
                                  f"implemented only for square matrices, got {m}x{n}")
    if full_matrices and abs(m - n) > 1:   # TensorFlow's own limit (its message)
        raise NotImplementedError(f"svd gradient is not implemented for abs(m - n) > 1 when "
                                  f"full_matrices is True. Received: m={min(m, n)} and "
                                  f"n={max(m, n)}")


def _extra_column_term(g_full, full, r, s, other):
    """The gradient through the one extra column c of a full U (or V) when |m - n| = 1:
    -c (g_c^T r) S^-1 other^T, r the reduced factor (TensorFlow's rule, as recorded)."""
    k = s._value.shape[-1]
    extra, g_extra = full[..., :, k:], g_full[..., :, k:]
    inner = multiply(matmul(g_extra, r, transpose_a=True), expand_dims(_reciprocal(s), -2))
    return negative(matmul(extra, matmul(inner, other, transpose_b=True)))


def _svd_vjp_s(g, ans, a):
    s, u, v = _reduced(a)
    return matmul(u, matmul(_diag(_as_input_dtype(g, a)), v, transpose_b=True))


def _svd_uv_terms(a):
    s, u, v = _reduced(a)
    f = _off_diagonal_reciprocal(square(s))
    return s, u, v, f


def _svd_vjp_u(g, ans, a, full_matrices):
    _check_full(a, full_matrices)
    s, u, v, f = _svd_uv_terms(a)
    m = a._value.shape[-2]
    g_full = g
    if full_matrices and m > s._value.shape[-1]:
        g = g[..., :, :s._value.shape[-1]]
    ut_g = matmul(u, g, transpose_a=True)
    core = matmul(multiply(f, subtract(ut_g, _T(ut_g))), _diag(s))
    out = matmul(u, matmul(core, v, transpose_b=True))
    if m > s._value.shape[-1]:
        rest = subtract(g, matmul(u, ut_g))                    # (I - U U^T) g_U
        out = add(out, matmul(multiply(rest, expand_dims(_reciprocal(s), -2)), v,
                              transpose_b=True))
        if full_matrices:
            out = add(out, _extra_column_term(g_full, ans, u, s, v))
    return out


def _svd_vjp_v(g, ans, a, full_matrices):
    _check_full(a, full_matrices)
    s, u, v, f = _svd_uv_terms(a)
    n = a._value.shape[-1]
    g_full = g
    if full_matrices and n > s._value.shape[-1]:
        g = g[..., :, :s._value.shape[-1]]
    vt_g = matmul(v, g, transpose_a=True)
    core = matmul(_diag(s), multiply(f, subtract(vt_g, _T(vt_g))))
    out = matmul(u, matmul(core, v, transpose_b=True))
    if n > s._value.shape[-1]:
        rest = subtract(g, matmul(v, vt_g))                    # (I - V V^T) g_V
        out = add(out, matmul(multiply(u, expand_dims(_reciprocal(s), -2)), rest,
                              transpose_b=True))
        if full_matrices:
            out = add(out, _T(_extra_column_term(g_full, ans, v, s, u)))
    return out


def _svd_jvp_s(t, ans, a):
    s, u, v = _reduced(a)
    tangent = _diag_part(matmul(u, matmul(t, v), transpose_a=True))
    return real(tangent) if _complex(a) else tangent


def _svd_jvp_u(t, ans, a, full_matrices):
    _check_full(a, full_matrices, forward=True)
    s, u, v, f = _svd_uv_terms(a)
    p = matmul(u, matmul(t, v), transpose_a=True)            # U^T dA V
    sm = _diag(s)
    out = matmul(u, multiply(f, add(matmul(p, sm), matmul(sm, _T(p)))))
    if a._value.shape[-2] > s._value.shape[-1]:
        dav = matmul(t, v)
        rest = subtract(dav, matmul(u, matmul(u, dav, transpose_a=True)))
        out = add(out, multiply(rest, expand_dims(_reciprocal(s), -2)))
    return out


def _svd_jvp_v(t, ans, a, full_matrices):
    _check_full(a, full_matrices, forward=True)
    s, u, v, f = _svd_uv_terms(a)
    p = matmul(u, matmul(t, v), transpose_a=True)
    sm = _diag(s)
    out = matmul(v, multiply(f, add(matmul(sm, p), matmul(_T(p), sm))))
    if a._value.shape[-1] > s._value.shape[-1]:
        datu = matmul(t, u, transpose_a=True)
        rest = subtract(datu, matmul(v, matmul(v, datu, transpose_a=True)))
        out = add(out, multiply(rest, expand_dims(_reciprocal(s), -2)))
    return out


defvjp(SVD_S, _svd_vjp_s)
defjvp(SVD_S, _svd_jvp_s)
defvjp(SVD_U, _svd_vjp_u)
defjvp(SVD_U, _svd_jvp_u)
defvjp(SVD_V, _svd_vjp_v)
defjvp(SVD_V, _svd_jvp_v)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values ``s`` (descending) or ``(s, u, v)`` with A = u diag(s) v^T (TensorFlow's
    order and its v, not v^T).

    >>> import tapegrad as tf
    >>> tf.linalg.svd([[3.0, 0.0], [0.0, -2.0]], compute_uv=False).numpy().tolist()
    [3.0, 2.0]
    """
    a = _matrix(tensor, "Svd", SVD_S)
    s = bind(SVD_S, (a,), {})
    if not compute_uv:
        return s
    return (s, bind(SVD_U, (a,), {"full_matrices": bool(full_matrices)}),
            bind(SVD_V, (a,), {"full_matrices": bool(full_matrices)}))


# -- qr -------------------------------------------------------------------------------------------
def _qr_impl(a, full_matrices, part):
    # LAPACK has no half precision: TensorFlow's half kernel is computed here in float32
    work = a.astype(xp.float32) if a.dtype == xp.float16 else a
    q, r = xp.linalg.qr(work, mode="complete" if full_matrices else "reduced")
    return xp.ascontiguousarray((q if part == 0 else r).astype(a.dtype, copy=False))


QR_Q = primitive("Qr", _quiet(lambda a, full_matrices: _qr_impl(a, full_matrices, 0), "Qr"),
                 dtypes=FLOAT_COMPLEX)
defshape(QR_Q, shape_rules.decomposition("q"))
QR_R = primitive("QrR", _quiet(lambda a, full_matrices: _qr_impl(a, full_matrices, 1), "Qr"),
                 dtypes=FLOAT_COMPLEX)
defshape(QR_R, shape_rules.decomposition("r"))


def _qr_factors(a):
    return (bind(QR_Q, (a,), {"full_matrices": False}),
            bind(QR_R, (a,), {"full_matrices": False}))


def _check_qr_gradient(a, full_matrices):
    m, n = a._value.shape[-2:]
    if full_matrices and m > n:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and full_matrices "
                                  "is true.")


def _times_r_inv_t(x, r):
    """x R^-T, by a triangular solve."""
    return _T(triangular_solve(r, _T(x), lower=False))


def _upper_symmetric(m):
    n = m._value.shape[-1]
    upper = multiply(m, wrap(xp.triu(xp.ones((n, n), m._value.dtype))))
    strictly = multiply(m, wrap(xp.triu(xp.ones((n, n), m._value.dtype), 1)))
    return add(upper, _T(strictly))


def _qr_vjp(gq, gr, a):
    q, r = _qr_factors(a)
    m = zeros_like(r)
    if gr is not None:
        m = add(m, matmul(gr, r, transpose_b=True))
    if gq is not None:
        m = subtract(m, matmul(q, gq, transpose_a=True))
    total = matmul(q, _upper_symmetric(m))
    if gq is not None:
        total = add(gq, total)
    return _times_r_inv_t(total, r)


def _qr_tangents(t, a):
    """(dQ, dR) for a tangent t of A (rows >= columns, reduced)."""
    q, r = _qr_factors(a)
    # C = Q^T t R^-1 = (R^-T (Q^T t)^T)^T
    c = _T(triangular_solve(r, _T(matmul(q, t, transpose_a=True)), lower=False, adjoint=True))
    n = r._value.shape[-1]
    strictly_lower = multiply(c, wrap(xp.tril(xp.ones((n, n), c._value.dtype), -1)))
    omega = subtract(strictly_lower, _T(strictly_lower))
    c_minus = subtract(c, omega)
    dr = matmul(c_minus, r)
    t_r_inv = _T(triangular_solve(r, _T(t), lower=False, adjoint=True))
    dq = subtract(t_r_inv, matmul(q, c_minus))
    return dq, dr


def _split_wide(a):
    """A wide matrix as [X | Y] with X square: Q, U = qr(X) and R = [U | Q^T Y]."""
    m = a._value.shape[-2]
    return a[..., :, :m], a[..., :, m:]


def _qr_vjp_any(gq, gr, a):
    m, n = a._value.shape[-2:]
    if m >= n:
        return _qr_vjp(gq, gr, a)
    x, y = _split_wide(a)
    q, _ = _qr_factors(x)
    gu = gy = None
    if gr is not None:
        gu, gv = gr[..., :, :m], gr[..., :, m:]
        through_q = matmul(y, gv, transpose_b=True)        # V = Q^T Y also depends on Q
        gq = through_q if gq is None else add(gq, through_q)
        gy = matmul(q, gv)
    gx = _qr_vjp(gq, gu, x)
    return concat([gx, zeros_like(y) if gy is None else gy], axis=-1)


def _qr_tangents_any(t, a):
    m, n = a._value.shape[-2:]
    if m >= n:
        return _qr_tangents(t, a)
    x, y = _split_wide(a)
    tx, ty = _split_wide(t)
    dq, du = _qr_tangents(tx, x)
    q, _ = _qr_factors(x)
    dv = add(matmul(dq, y, transpose_a=True), matmul(q, ty, transpose_a=True))
    return dq, concat([du, dv], axis=-1)


def _qr_vjp_q(g, ans, a, full_matrices):
    _check_qr_gradient(a, full_matrices)
    return _qr_vjp_any(g, None, a)


def _qr_vjp_r(g, ans, a, full_matrices):
    _check_qr_gradient(a, full_matrices)
    return _qr_vjp_any(None, g, a)


defvjp(QR_Q, _qr_vjp_q)
defvjp(QR_R, _qr_vjp_r)
defjvp(QR_Q, lambda t, ans, a, full_matrices: (_check_qr_gradient(a, full_matrices),
                                               _qr_tangents_any(t, a)[0])[1])
defjvp(QR_R, lambda t, ans, a, full_matrices: (_check_qr_gradient(a, full_matrices),
                                               _qr_tangents_any(t, a)[1])[1])


class _QR(tuple):
    __slots__ = ()

    def __new__(cls, q, r):
        return super().__new__(cls, (q, r))

    q = property(lambda self: self[0])
    r = property(lambda self: self[1])


def qr(input, full_matrices=False, name=None):  # noqa: A002
    """``(q, r)`` with A = q r, q with orthonormal columns and r upper triangular.

    >>> import tapegrad as tf
    >>> q, r = tf.linalg.qr([[3.0, 0.0], [4.0, 1.0]])
    >>> [round(float(v) ** 2, 4) for v in (r[0, 0], r[1, 1])]   # |r_ii|, squared
    [25.0, 0.36]
    """
    a = _matrix(input, "Qr", QR_Q)
    attrs = {"full_matrices": bool(full_matrices)}
    return _QR(bind(QR_Q, (a,), attrs), bind(QR_R, (a,), attrs))


# -- norm -----------------------------------------------------------------------------------------
def _norm_axes(axis, ndim):
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        axes = [int(a) for a in axis]
    else:
        axes = [int(a) for a in xp.asarray(getattr(axis, "_value", axis)).reshape(-1)]
    if len(axes) not in (1, 2) or (len(axes) == 2 and axes[0] % ndim == axes[1] % ndim):
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got "
                         f"{axis}")
    return [a % ndim for a in axes]


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector norms (``ord`` 'euclidean', 1, 2, inf, or any p > 0) over one axis or all of them,
    and matrix norms ('fro'/'euclidean', 1, 2 = the largest singular value, inf) over a pair.

    >>> import tapegrad as tf
    >>> float(tf.norm([[3.0, 0.0], [0.0, 4.0]], ord=2, axis=[0, 1]))
    4.0
    """
    x = _tensor(tensor)
    axes = _norm_axes(axis, max(x._value.ndim, 1))
    is_matrix = axes is not None and len(axes) == 2
    if is_matrix:
        if isinstance(ord, bool) or ord not in ("euclidean", "fro", 1, 2, _math.inf):
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, "
                             f"2, inf], got {ord}")
        if ord == 2 and not isinstance(ord, str):
            rows, cols = axes
            rest = [i for i in range(x._value.ndim) if i not in axes]
            moved = transpose(x, rest + [rows, cols])
            top = reduce_max(svd(moved, compute_uv=False), axis=-1)
            if keepdims:
                for a in sorted(axes):
                    top = expand_dims(top, a)
            return top
    else:
        if isinstance(ord, str) and ord != "euclidean" or \
                (not isinstance(ord, str) and (isinstance(ord, bool) or float(ord) <= 0)):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    return _vector_and_simple_norm(x, ord=ord, axis=axis, keepdims=keepdims)


# -- products, solvers, small helpers ----------------------------------------------------------------
def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """Matrix times vector over the last axes: ``a @ b[..., None]`` without the extra axis.

    >>> import tapegrad as tf
    >>> tf.linalg.matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, 1.0]).numpy().tolist()
    [3.0, 7.0]
    """
    out = matmul(a, expand_dims(_tensor(b), -1), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return out[..., 0]


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution X of ``matrix @ X = rhs`` (with an optional ridge term),
    from the normal equations solved by Cholesky, as TensorFlow's fast path.

    >>> import tapegrad as tf
    >>> tf.linalg.lstsq([[1.0], [1.0]], [[1.0], [3.0]]).numpy().tolist()
    [[2.0]]
    """
    a = _matrix(matrix, "MatrixSolveLs")
    b = _tensor(rhs)
    m, n = a._value.shape[-2:]
    if b._value.ndim < 2 or b._value.shape[-2] != m:
        raise InvalidArgumentError(f"Incompatible shapes: matrix {list(a._value.shape)} and rhs "
                                   f"{list(b._value.shape)} [Op:MatrixSolveLs]")
    if not fast:
        raise NotImplementedError("lstsq: only fast=True (the normal equations) is implemented")
    lam = convert_to_tensor(l2_regularizer, dtype=a.dtype)
    if m >= n:
        gram = add(matmul(a, a, transpose_a=True), multiply(lam, eye(n, dtype=a.dtype)))
        return cholesky_solve(cholesky(gram), matmul(a, b, transpose_a=True))
    gram = add(matmul(a, a, transpose_b=True), multiply(lam, eye(m, dtype=a.dtype)))
    return matmul(a, cholesky_solve(cholesky(gram), b), transpose_a=True)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse from the SVD, dropping singular values below
    ``rcond * max(s)`` (default rcond: 10 * max(rows, columns) * machine epsilon).

    >>> import tapegrad as tf
    >>> tf.linalg.pinv([[2.0, 0.0], [0.0, 0.0]]).numpy().tolist()
    [[0.5, 0.0], [0.0, 0.0]]
    """
    x = _matrix(a, "Pinv")
    m, n = x._value.shape[-2:]
    if rcond is None:
        rcond = 10.0 * max(m, n) * float(xp.finfo(x._value.dtype).eps)
    s, u, v = svd(x)
    cutoff = multiply(convert_to_tensor(rcond, dtype=x.dtype), reduce_max(s, axis=-1,
                                                                          keepdims=True))
    big = wrap(s._value > cutoff._value)
    s_inv = where(big, _reciprocal(where(big, s, _ones(s))), zeros_like(s))
    return matmul(multiply(v, expand_dims(s_inv, -2)), u, transpose_b=True)


def _ones(x):
    return ones_like(x)


def cross(a, b, name=None):
    """The cross product of 3-vectors along the last axis.

    >>> import tapegrad as tf
    >>> tf.linalg.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).numpy().tolist()
    [0.0, 0.0, 1.0]
    """
    a, b = _tensor(a), _tensor(b)
    if a._value.shape[-1:] != (3,) or b._value.shape[-1:] != (3,):
        raise InvalidArgumentError(f"Cross product requires the last dimension of both inputs to "
                                   f"be 3, got {list(a._value.shape)} and "
                                   f"{list(b._value.shape)} [Op:Cross]")
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return stack([subtract(multiply(a1, b2), multiply(a2, b1)),
                  subtract(multiply(a2, b0), multiply(a0, b2)),
                  subtract(multiply(a0, b1), multiply(a1, b0))], axis=-1)


# Pade approximant of degree 13 for exp (Higham 2005): numerator coefficients b_0..b_13.
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
           40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def expm(input, name=None):  # noqa: A002
    """The matrix exponential, by scaling and squaring with a degree-13 Pade approximant.

    >>> import tapegrad as tf
    >>> tf.linalg.expm(tf.constant([[0.0, 0.0], [0.0, 1.0]], tf.float64)).numpy().round(4).tolist()
    [[1.0, 0.0], [0.0, 2.7183]]
    """
    a = _square(input, "MatrixExponential")
    n = a._value.shape[-1]
    norm1 = float(xp.max(xp.sum(xp.abs(a._value), axis=-2))) if a._value.size else 0.0
    squarings = max(0, int(_math.ceil(_math.log2(norm1 / _THETA13)))) if norm1 > _THETA13 else 0
    x = multiply(a, convert_to_tensor(0.5 ** squarings, dtype=a.dtype))
    ident = eye(n, dtype=a.dtype)
    x2 = matmul(x, x)
    x4 = matmul(x2, x2)
    x6 = matmul(x4, x2)
    b = [convert_to_tensor(c, dtype=a.dtype) for c in _PADE13]
    u_high = matmul(x6, add(add(multiply(b[13], x6), multiply(b[11], x4)), multiply(b[9], x2)))
    u = matmul(x, add(add(add(add(u_high, multiply(b[7], x6)), multiply(b[5], x4)),
                          multiply(b[3], x2)), multiply(b[1], ident)))
    v_high = matmul(x6, add(add(multiply(b[12], x6), multiply(b[10], x4)), multiply(b[8], x2)))
    v = add(add(add(add(v_high, multiply(b[6], x6)), multiply(b[4], x4)), multiply(b[2], x2)),
            multiply(b[0], ident))
    result = solve(subtract(v, u), add(v, u))
    for _ in range(squarings):
        result = matmul(result, result)
    return result


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """``(tensor / norm, norm)``, the norm kept with size-1 axes (as ``tf.linalg.normalize``).

    >>> import tapegrad as tf
    >>> unit, length = tf.linalg.normalize([3.0, 4.0])
    >>> unit.numpy().tolist(), length.numpy().tolist()
    ([0.6000000238418579, 0.800000011920929], [5.0])
    """
    x = _tensor(tensor)
    length = norm(x, ord=ord, axis=axis, keepdims=True)
    return x / length, length


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above ``tol`` (default: max(s) * max(rows, columns) *
    machine epsilon), as int32."""
    x = _matrix(a, "MatrixRank")
    s = svd(x, compute_uv=False)._value
    if tol is None:
        m, n = x._value.shape[-2:]
        tol = s.max(axis=-1, keepdims=True) * max(m, n) * xp.finfo(s.dtype).eps
    return wrap(xp.sum(s > tol, axis=-1).astype(xp.int32))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(EIGH_VALUES, EIGH_VECTORS, SVD_S, SVD_U, SVD_V, QR_Q, QR_R)
