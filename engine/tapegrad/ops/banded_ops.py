"""Banded matrices: ``tridiagonal_solve``, ``tridiagonal_matmul``, ``eigh_tridiagonal``,
``banded_triangular_solve``, and ``tensor_diag_part``.

The bands are placed into a dense matrix (each band times a constant 0/1 shift matrix, so the
placement is differentiable and the gradient of a band is the dense gradient read back along
it; entries the storage format ignores get zero), then the dense solve or product runs. This
costs O(M^3) instead of O(M), which is fine for the sizes a notebook uses.

Storage formats, as TensorFlow's:

* tridiagonal 'compact': ``[..., 3, M]`` rows (superdiagonal, diagonal, subdiagonal); the last
  superdiagonal entry and the first subdiagonal entry are ignored. 'sequence': the same three
  ``[..., M]`` tensors as a list. 'matrix': ``[..., M, M]``, only its tridiagonal band is read.
* banded triangular ``[..., K, M]``: lower: row r is the r-th subdiagonal, right-aligned
  (entry i is element (i, i - r)); upper: row r is the (K-1-r)-th superdiagonal, left-aligned
  (entry i is element (i, i + K-1-r)). So the main diagonal is the first row when lower, the
  last when upper.
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import add, multiply, reshape
from .array_ops import expand_dims, getitem, matrix_transpose, unstack
from .complex_ops import conj
from .indexing_ops import gather
from .decomposition_ops import eigh
from .linalg_ops import band_part, diag_part, solve, triangular_solve
from .shape_ops import pad
from .matmul_ops import matmul


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _shifted(values, offset):
    """A [..., M, M] matrix whose row i holds values[..., i] at column i + offset."""
    m = values._value.shape[-1]
    return multiply(expand_dims(values, -1), wrap(xp.eye(m, k=offset, dtype=values._value.dtype)))


def _tridiagonal_matrix(diagonals, diagonals_format, op):
    if diagonals_format == "compact":
        d = _tensor(diagonals)
        if d._value.ndim < 2 or d._value.shape[-2] != 3:
            raise ValueError(f"Expected diagonals to have shape [..., 3, M], got "
                             f"{list(d._value.shape)}")
        sup, main, sub = unstack(d, axis=-2)
    elif diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        sup, main, sub = [_tensor(t) for t in diagonals]
        if not sup._value.shape == main._value.shape == sub._value.shape:
            raise ValueError("Tensors representing the three diagonals must have the same "
                             "shape.")
    elif diagonals_format == "matrix":
        d = _tensor(diagonals)
        s = d._value.shape
        if d._value.ndim < 2 or s[-1] != s[-2]:
            raise ValueError(f"Expected last two dimensions of diagonals to be the same, got "
                             f"{list(s)}")
        return band_part(d, 1, 1)
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    if main._value.dtype.kind not in "fc":
        raise InvalidArgumentError(f"{op}: the diagonals must be floating point or complex, got "
                                   f"{main.dtype.name}")
    return add(add(_shifted(main, 0), _shifted(sup, 1)), _shifted(sub, -1))


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
    """X with ``T X = rhs`` for tridiagonal T (see the module for the formats); ``rhs`` is
    ``[..., M, K]`` or ``[..., M]`` (``[..., K, M]`` when ``transpose_rhs``).

    >>> import tapegrad as tf
    >>> d = [[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]]
    >>> tf.linalg.tridiagonal_solve(d, [3.0, 4.0, 3.0]).numpy().round(4).tolist()
    [1.0, 1.0, 1.0]
    """
    if perturb_singular:
        raise NotImplementedError("tridiagonal_solve: perturb_singular=True is not implemented")
    t = _tridiagonal_matrix(diagonals, diagonals_format, "TridiagonalSolve")
    b = _tensor(rhs)
    if b._value.dtype != t._value.dtype:
        raise InvalidArgumentError(f"cannot compute TridiagonalSolve as input #1 was expected to "
                                   f"be a {t.dtype.name} tensor but is a {b.dtype.name} tensor")
    m = t._value.shape[-1]
    vector = b._value.ndim == t._value.ndim - 1
    if vector:
        b = expand_dims(b, -1)
    elif transpose_rhs:
        b = matrix_transpose(b)
    if conjugate_rhs:
        b = conj(b)
    if b._value.shape[-2] != m:
        raise ValueError(f"Incompatible shapes: the system has {m} rows, the right-hand side "
                         f"{list(_tensor(rhs)._value.shape)}")
    x = solve(t, b)
    return getitem(x, (Ellipsis, 0)) if vector else x


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """The product of a tridiagonal matrix (see the module for the formats) and ``rhs``
    ``[..., M, N]``.

    >>> import tapegrad as tf
    >>> d = [[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]]
    >>> tf.linalg.tridiagonal_matmul(d, [[1.0], [1.0], [1.0]]).numpy().tolist()
    [[3.0], [4.0], [3.0]]
    """
    t = _tridiagonal_matrix(diagonals, diagonals_format, "TridiagonalMatMul")
    return matmul(t, _tensor(rhs))


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """X with ``A X = rhs`` (``A^H X = rhs`` when ``adjoint``) for a triangular A stored as
    ``[..., K, M]`` bands (see the module for the layout).

    >>> import tapegrad as tf
    >>> tf.linalg.banded_triangular_solve([[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]],
    ...                                   tf.ones([3, 1])).numpy().tolist()
    [[0.5], [0.0], [0.25]]
    """
    x = _tensor(bands)
    if x._value.ndim < 2:
        raise ValueError(f"bands must have rank at least 2, got shape {list(x._value.shape)}")
    k = x._value.shape[-2]
    m = x._value.shape[-1]
    if k > m:
        raise InvalidArgumentError(f"BandedTriangularSolve: {k} bands for a {m}x{m} matrix")
    rows = unstack(x, axis=-2)
    dense = None
    for r, band in enumerate(rows):
        part = _shifted(band, -r if lower else k - 1 - r)
        dense = part if dense is None else add(dense, part)
    if adjoint:         # A^H, conjugated explicitly (for complex bands), is the other triangle
        return triangular_solve(conj(matrix_transpose(dense)), _tensor(rhs), lower=not lower)
    return triangular_solve(dense, _tensor(rhs), lower=lower)


def tensor_diag_part(input, name=None):  # noqa: A002
    """The diagonal of a tensor of shape ``[D1, ..., Dk, D1, ..., Dk]``: shape ``[D1, ..., Dk]``
    with entry ``input[i1, ..., ik, i1, ..., ik]``.

    >>> import tapegrad as tf
    >>> tf.linalg.tensor_diag_part([[1, 2], [3, 4]]).numpy().tolist()
    [1, 4]
    """
    x = _tensor(input)
    shape = x._value.shape
    half = len(shape) // 2
    if len(shape) % 2 or shape[:half] != shape[half:]:
        raise InvalidArgumentError(f"Input must have even rank and matching halves, got shape "
                                   f"{list(shape)} [Op:DiagPart]")
    n = 1
    for d in shape[:half]:
        n *= d
    return reshape(diag_part(reshape(x, (n, n))), shape[:half])


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None,
                     name=None):
    """Eigenvalues (ascending), and with ``eigvals_only=False`` eigenvectors (columns), of the
    symmetric (Hermitian) tridiagonal matrix with diagonal ``alpha`` [n] and off-diagonal
    ``beta`` [n - 1]. ``select``: 'a' all, 'v' those in (lo, hi], 'i' indices lo..hi.

    Computed from the dense matrix with ``eigh``, so the gradient is the exact one; TensorFlow
    differentiates through its bisection iterations instead, which gives other numbers.

    >>> import tapegrad as tf
    >>> tf.linalg.eigh_tridiagonal([2.0, 2.0], [1.0]).numpy().round(4).tolist()
    [1.0, 3.0]
    """
    a, b = _tensor(alpha), _tensor(beta)
    if a._value.ndim != 1 or b._value.ndim != 1 or b._value.shape[0] != a._value.shape[0] - 1:
        raise ValueError(f"alpha must be a vector of n entries and beta of n - 1, got shapes "
                         f"{list(a._value.shape)} and {list(b._value.shape)}")
    if select not in ("a", "v", "i"):
        raise ValueError(f"Invalid select: {select!r} (expected 'a', 'v' or 'i')")
    if b._value.dtype != a._value.dtype:
        b = convert_to_tensor(b._value.astype(a._value.dtype))
    dense = add(add(_shifted(a, 0), _shifted(_padded_end(b), 1)),
                _shifted(_padded_start(conj(b) if b._value.dtype.kind == "c" else b), -1))
    values, vectors = eigh(dense)
    keep = _selected(values._value.real, select, select_range)
    if keep is not None:
        values = gather(values, keep)
        vectors = gather(vectors, keep, axis=1)
    return values if eigvals_only else (values, vectors)


def _padded_end(b):
    return pad(b, [[0, 1]])


def _padded_start(b):
    return pad(b, [[1, 0]])


def _selected(values, select, select_range):
    if select == "a":
        return None
    if select_range is None or len(select_range) != 2:
        raise ValueError("select_range must be a pair [lo, hi] when select is 'v' or 'i'")
    lo, hi = [float(getattr(v, "_value", v)) for v in select_range]
    if select == "v":
        return [i for i, v in enumerate(values) if lo < v <= hi]
    return list(range(int(lo), int(hi) + 1))
