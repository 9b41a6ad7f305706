"""Structured square operators given by a few parameters: ``LinearOperatorToeplitz``,
``LinearOperatorCirculant`` (and its 2-D and 3-D forms), ``LinearOperatorHouseholder``,
``LinearOperatorPermutation``, ``LinearOperatorTridiag`` and ``LinearOperatorLowRankUpdate``.

Each builds its dense matrix from its parameters with differentiable ops (a gather of the
Toeplitz/circulant entries, I - 2 v v^H / v^H v, ...), so gradients reach the parameters;
products use the structure where it is cheap (a Householder reflection, a permutation, a
low-rank update), and the rest falls back to the base class's dense methods.

The circulant's matrix is F^-1 diag(spectrum) F (F the DFT): its first column is
ifft(spectrum), and entry (i, j) is that column's entry (i - j) mod N.
"""
from ..backend import xp
from ..dtypes import as_dtype, complex64, float32
from ..variables import Variable
from .. import ops
from .core import LinearOperator, adjoint_of, product, tensor


def _param(x, dtype=None):
    return x if isinstance(x, Variable) else tensor(x, dtype)


def _by_index(values, index):
    """values[..., index] for a constant integer index array (a differentiable gather)."""
    lead = len(values.shape) - 1
    return ops.gather(values, tensor(index.astype(xp.int32)), axis=lead, batch_dims=0)


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column ``col`` and first row ``row`` (``row[0]`` is
    ignored; the diagonal is ``col[0]``).

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorToeplitz(col=[1.0, 2.0, 3.0], row=[1.0, 4.0, 5.0])
    >>> op.to_dense().numpy().tolist()
    [[1.0, 4.0, 5.0], [2.0, 1.0, 4.0], [3.0, 2.0, 1.0]]
    """

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorToeplitz"):
        self.col, self.row = _param(col), _param(row)
        c, r = tensor(self.col), tensor(self.row)
        if c.dtype != r.dtype:
            raise TypeError(f"col and row must have the same dtype, got {c.dtype.name} and "
                            f"{r.dtype.name}")
        if c.shape[-1] != r.shape[-1]:
            raise ValueError(f"col and row must have the same length, got {c.shape[-1]} and "
                             f"{r.shape[-1]}")
        super().__init__(c.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"col": col, "row": row, "name": name})

    def _shape(self):
        c, r = tensor(self.col), tensor(self.row)
        batch = tuple(xp.broadcast_shapes(tuple(c.shape[:-1]), tuple(r.shape[:-1])))
        return batch + (c.shape[-1], c.shape[-1])

    def _to_dense(self):
        c, r = tensor(self.col), tensor(self.row)
        n = c.shape[-1]
        batch = self._shape()[:-2]
        c = ops.broadcast_to(c, batch + (n,))
        r = ops.broadcast_to(r, batch + (n,))
        # entries: reversed row tail, then the column; (i, j) -> position (n - 1) + i - j
        values = ops.concat([ops.reverse(r[..., 1:], [-1]), c], axis=-1)
        i = xp.arange(n)
        return _by_index(values, (n - 1) + i[:, None] - i[None, :])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return product(self.to_dense(), x, adjoint, adjoint_arg)


class LinearOperatorCirculant(LinearOperator):
    """The circulant operator with eigenvalues ``spectrum`` [..., N] (complex), acting on
    ``input_output_dtype`` (real dtypes take the real part: pass a Hermitian spectrum).

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorCirculant(tf.constant([6.0, -2.0, -2.0], tf.complex128),
    ...                                        input_output_dtype=tf.float64)
    >>> op.to_dense().numpy().round(4).tolist()
    [[0.6667, 2.6667, 2.6667], [2.6667, 0.6667, 2.6667], [2.6667, 2.6667, 0.6667]]
    """

    _block_depth = 1

    def __init__(self, spectrum, input_output_dtype=complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant"):
        if not is_square:
            raise ValueError("A circulant operator is always square.")
        self.spectrum = _param(spectrum)
        s = tensor(self.spectrum)
        if s.dtype.name not in ("float16", "float32", "float64", "complex64", "complex128"):
            raise TypeError(f"Argument spectrum must have dtype in [float16, float32, float64, "
                            f"complex64, complex128]. Found: {s.dtype.name}")
        if len(s.shape) < self._block_depth:
            raise ValueError(f"Argument spectrum must have at least {self._block_depth} "
                             f"dimensions. Found: {list(s.shape)}")
        super().__init__(as_dtype(input_output_dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"spectrum": spectrum,
                                     "input_output_dtype": input_output_dtype, "name": name})

    def _complex_spectrum(self):
        s = tensor(self.spectrum)
        if not s.dtype.is_complex:
            s = ops.complex(s, ops.zeros_like(s))
        return s

    def _block_shape(self):
        return tuple(tensor(self.spectrum).shape[-self._block_depth:])

    def _shape(self):
        s = tuple(tensor(self.spectrum).shape)
        n = int(xp.prod(self._block_shape()))
        return s[:-self._block_depth] + (n, n)

    def _kernel(self):
        inverse = {1: ops.ifft, 2: ops.ifft2d, 3: ops.ifft3d}[self._block_depth]
        return inverse(self._complex_spectrum())

    def convolution_kernel(self, name="convolution_kernel"):
        """The kernel a product circularly convolves with: the inverse DFT of the spectrum, in
        ``input_output_dtype`` (its real part for a real dtype)."""
        kernel = self._kernel()
        if not self.dtype.is_complex:
            return ops.cast(ops.real(kernel), self.dtype)
        return kernel if kernel.dtype == self.dtype else ops.cast(kernel, self.dtype)

    def _to_dense(self):
        kernel = self._kernel()
        dims = self._block_shape()
        lead = tuple(kernel.shape[:-self._block_depth])
        flat = ops.reshape(kernel, lead + (int(xp.prod(dims)),))
        # entry (i, j) of the flattened index grid is the kernel at (i - j) mod dims, per axis
        grid = xp.indices(dims).reshape(len(dims), -1)
        diff = (grid[:, :, None] - grid[:, None, :]) % xp.asarray(dims)[:, None, None]
        dense = _by_index(flat, xp.ravel_multi_index(tuple(diff), dims))
        if not self.dtype.is_complex:
            dense = ops.cast(ops.real(dense), self.dtype)
        elif dense.dtype != self.dtype:
            dense = ops.cast(dense, self.dtype)
        return dense

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return product(self.to_dense(), x, adjoint, adjoint_arg)

    def _adjoint_operator(self):
        # TensorFlow quirk matched: the adjoint drops input_output_dtype (complex64 again)
        s = tensor(self.spectrum)
        return type(self)(ops.conj(s) if s.dtype.is_complex else s,
                          is_non_singular=self.is_non_singular,
                          is_self_adjoint=self.is_self_adjoint,
                          is_positive_definite=self.is_positive_definite)

    def _inverse_operator(self):
        return type(self)(ops.reciprocal(tensor(self.spectrum)), input_output_dtype=self.dtype,
                          is_non_singular=self.is_non_singular,
                          is_self_adjoint=self.is_self_adjoint,
                          is_positive_definite=self.is_positive_definite)


def _circulant_init(default_name):
    """``LinearOperatorCirculant.__init__`` with another default ``name`` (TensorFlow's
    signature of the 2-D and 3-D operators)."""
    def __init__(self, spectrum, input_output_dtype=complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name=default_name):
        LinearOperatorCirculant.__init__(self, spectrum, input_output_dtype, is_non_singular,
                                         is_self_adjoint, is_positive_definite, is_square, name)
    return __init__


class LinearOperatorCirculant2D(LinearOperatorCirculant):
    """The block-circulant operator with circulant blocks, for ``spectrum`` [..., N1, N2]: it
    acts on 2-D signals flattened row-major into N1 * N2 entries (a 2-D circular convolution).

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorCirculant2D(tf.ones([2, 2], tf.complex128),
    ...                                          input_output_dtype=tf.float64)
    >>> op.to_dense().numpy().tolist()
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
    """

    _block_depth = 2

    __init__ = _circulant_init("LinearOperatorCirculant2D")


class LinearOperatorCirculant3D(LinearOperatorCirculant):
    """As ``LinearOperatorCirculant2D`` for 3-D signals: ``spectrum`` [..., N1, N2, N3]."""

    _block_depth = 3

    __init__ = _circulant_init("LinearOperatorCirculant3D")


class LinearOperatorHouseholder(LinearOperator):
    """The reflection ``I - 2 v v^H / (v^H v)`` across the hyperplane orthogonal to
    ``reflection_axis`` v (self-adjoint, its own inverse, determinant -1).

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorHouseholder([1.0, 0.0])
    >>> op.matvec([3.0, 4.0]).numpy().tolist(), float(op.determinant())
    ([-3.0, 4.0], -1.0)
    """

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorHouseholder"):
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_non_singular is False:
            raise ValueError("A Householder operator is always non-singular.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        self.reflection_axis = _param(reflection_axis)
        v = tensor(self.reflection_axis)
        super().__init__(v.dtype, is_non_singular=is_non_singular, is_self_adjoint=True,
                         is_positive_definite=False, is_square=True, name=name,
                         parameters={"reflection_axis": reflection_axis, "name": name})

    def _shape(self):
        s = tuple(tensor(self.reflection_axis).shape)
        return s[:-1] + (s[-1], s[-1])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_of(x) if adjoint_arg else x
        v = ops.expand_dims(tensor(self.reflection_axis), -1)             # [..., n, 1]
        norm2 = product(v, v, adjoint_a=True)                          # [..., 1, 1]
        projection = ops.matmul(v, product(v, x, adjoint_a=True))      # v (v^H x)
        two = tensor(xp.asarray(2.0, self.dtype.as_numpy_dtype))
        return ops.subtract(x, ops.multiply(two, ops.divide(projection, norm2)))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self):
        batch = self._shape()[:-2]
        return tensor(xp.full(batch, -1.0, self.dtype.as_numpy_dtype))

    def _log_abs_determinant(self):
        batch = self._shape()[:-2]
        return tensor(xp.zeros(batch, self.dtype.as_numpy_dtype))

    def _inverse_operator(self):
        return self


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix P with ``(P x)[i] = x[perm[i]]``.

    >>> import tapegrad as tf
    >>> tf.linalg.LinearOperatorPermutation([1, 2, 0]).matvec([10.0, 20.0, 30.0]).numpy().tolist()
    [20.0, 30.0, 10.0]
    """

    def __init__(self, perm, dtype=float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        if is_non_singular is False:
            raise ValueError("A Permutation operator is always non-singular.")
        if is_square is False:
            raise ValueError("A Permutation operator is always square.")
        self.perm = tensor(perm)
        p = self.perm.numpy()
        if p.dtype.kind not in "iu":
            raise TypeError(f"Argument perm must have dtype int32 or int64. Found: "
                            f"{self.perm.dtype.name}")
        if p.ndim < 1 or not (xp.sort(p, axis=-1) == xp.arange(p.shape[-1])).all():
            raise ValueError(f"Argument perm must be a permutation of 0..N-1, got {p.tolist()}")
        super().__init__(as_dtype(dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"perm": perm, "dtype": dtype, "name": name})

    def _shape(self):
        s = tuple(self.perm.shape)
        return s[:-1] + (s[-1], s[-1])

    def _to_dense(self):
        p = self.perm.numpy()
        return tensor((p[..., :, None] == xp.arange(p.shape[-1])).astype(
            self.dtype.as_numpy_dtype))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return product(self.to_dense(), x, adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return product(self.to_dense(), rhs, not adjoint, adjoint_arg)

    def _determinant(self):
        p = self.perm.numpy().reshape(-1, self.perm.shape[-1])
        signs = [xp.linalg.det((row[:, None] == xp.arange(len(row))).astype(float)) for row in p]
        return tensor(xp.asarray(signs).reshape(self._shape()[:-2]).round().astype(
            self.dtype.as_numpy_dtype))

    def _log_abs_determinant(self):
        return tensor(xp.zeros(self._shape()[:-2], self.dtype.as_numpy_dtype))


class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal matrix from its diagonals, in ``tf.linalg.tridiagonal_solve``'s formats
    ('compact' [..., 3, N], 'sequence' [super, main, sub], 'matrix' [..., N, N]).

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorTridiag([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0], [0.0, 1.0, 1.0]])
    >>> op.to_dense().numpy().tolist()
    [[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]]
    """

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorTridiag"):
        if diagonals_format not in ("compact", "sequence", "matrix"):
            raise ValueError(f"Diagonals Format must be one of compact, matrix, sequence, got: "
                             f"{diagonals_format}")
        if diagonals_format == "sequence":
            self.diagonals = [_param(d) for d in diagonals]
            dtype = tensor(self.diagonals[0]).dtype
        else:
            self.diagonals = _param(diagonals)
            dtype = tensor(self.diagonals).dtype
        self.diagonals_format = diagonals_format
        super().__init__(dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"diagonals": diagonals,
                                     "diagonals_format": diagonals_format, "name": name})

    def _diagonals(self):
        if self.diagonals_format == "sequence":
            return [tensor(d) for d in self.diagonals]
        return tensor(self.diagonals)

    def _shape(self):
        d = self._diagonals()
        if self.diagonals_format == "sequence":
            s = tuple(d[1].shape)
            return s[:-1] + (s[-1], s[-1])
        if self.diagonals_format == "compact":
            s = tuple(d.shape)
            return s[:-2] + (s[-1], s[-1])
        return tuple(d.shape)

    def _to_dense(self):
        n = self._shape()[-1]
        ident = tensor(xp.eye(n, dtype=self.dtype.as_numpy_dtype))
        return ops.tridiagonal_matmul(self._diagonals(), ident,
                                      diagonals_format=self.diagonals_format)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_of(x) if adjoint_arg else x
        if adjoint:
            return product(self.to_dense(), x, adjoint_a=True)
        return ops.tridiagonal_matmul(self._diagonals(), x, diagonals_format=self.diagonals_format)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        if adjoint:
            return ops.solve(adjoint_of(self.to_dense()), rhs)
        return ops.tridiagonal_solve(self._diagonals(), rhs,
                                     diagonals_format=self.diagonals_format)


class LinearOperatorLowRankUpdate(LinearOperator):
    """``base_operator + U diag(diag_update) V^H`` (V = U when not given; no diag_update: the
    identity), never formed for products.

    >>> import tapegrad as tf
    >>> base = tf.linalg.LinearOperatorDiag([1.0, 1.0])
    >>> op = tf.linalg.LinearOperatorLowRankUpdate(base, u=[[1.0], [1.0]])
    >>> op.to_dense().numpy().tolist(), float(op.determinant())
    ([[2.0, 1.0], [1.0, 2.0]], 3.0)
    """

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorLowRankUpdate"):
        self.base_operator = base_operator
        self.u = _param(u, base_operator.dtype)
        self.v = None if v is None else _param(v, base_operator.dtype)
        self.diag_update = None if diag_update is None else \
            _param(diag_update, base_operator.dtype)
        if v is None and base_operator.is_self_adjoint and (
                diag_update is None or is_diag_update_positive):
            is_self_adjoint = True if is_self_adjoint is None else is_self_adjoint
            if base_operator.is_positive_definite:
                is_positive_definite = True if is_positive_definite is None else \
                    is_positive_definite
        super().__init__(base_operator.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite,
                         is_square=is_square if is_square is not None else base_operator.is_square,
                         name=name, parameters={"base_operator": base_operator, "u": u,
                                                "diag_update": diag_update, "v": v,
                                                "name": name})

    def _factors(self):
        u = tensor(self.u)
        v = u if self.v is None else tensor(self.v)
        return u, v

    def _shape(self):
        return self.base_operator._shape()

    def _low_rank_times(self, x, adjoint):
        u, v = self._factors()
        if adjoint:
            u, v = v, u
        inner = product(v, x, adjoint_a=True)                          # V^H x
        if self.diag_update is not None:
            d = tensor(self.diag_update)
            d = ops.conj(d) if adjoint and d.dtype.is_complex else d
            inner = ops.multiply(ops.expand_dims(d, -1), inner)
        return ops.matmul(u, inner)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_of(x) if adjoint_arg else x
        return ops.add(self.base_operator._matmul(x, adjoint=adjoint),
                       self._low_rank_times(x, adjoint))

    def _to_dense(self):
        u, v = self._factors()
        if self.diag_update is not None:
            u = ops.multiply(u, ops.expand_dims(tensor(self.diag_update), -2))
        return ops.add(self.base_operator.to_dense(), product(u, v, adjoint_b=True))
