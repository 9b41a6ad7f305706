"""Operators built from other operators: ``LinearOperatorBlockDiag``,
``LinearOperatorBlockLowerTriangular`` and ``LinearOperatorKronecker``.

Products split the argument into the blocks' pieces (``tf.split`` along the rows), apply each
block and join the results; determinants and solves use the blocks' own (the product of the
diagonal blocks' determinants; block substitution). A Kronecker product is formed densely for
products and solves; its determinant is det(A)^q det(B)^p for A [p, p] and B [q, q].
"""
from .. import ops
from .core import (LinearOperator, adjoint_of, broadcast_batch, check_dtypes, implied_hints,
                   product, tensor)


def _broadcast_to_batch(x, batch):
    if tuple(x.shape[:-2]) == tuple(batch):
        return x
    return ops.broadcast_to(x, tuple(batch) + tuple(x.shape[-2:]))


def _block_dense(rows, batch, dtype):
    """The dense matrix from a grid of dense blocks (None: zeros of the right size)."""
    heights = [next(b for b in row if b is not None).shape[-2] for row in rows]
    widths = [next(row[j] for row in rows if row[j] is not None).shape[-1]
              for j in range(len(rows[0]))]
    out_rows = []
    for i, row in enumerate(rows):
        pieces = []
        for j, block in enumerate(row):
            if block is None:
                block = ops.zeros(tuple(batch) + (heights[i], widths[j]), dtype=dtype)
            pieces.append(_broadcast_to_batch(block, batch))
        out_rows.append(ops.concat(pieces, axis=-1))
    return ops.concat(out_rows, axis=-2)


class LinearOperatorBlockDiag(LinearOperator):
    """The block-diagonal matrix with ``operators`` on its diagonal.

    >>> import tapegrad as tf
    >>> a = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    >>> b = tf.linalg.LinearOperatorDiag([5.0])
    >>> tf.linalg.LinearOperatorBlockDiag([a, b]).to_dense().numpy().tolist()
    [[1.0, 2.0, 0.0], [3.0, 4.0, 0.0], [0.0, 0.0, 5.0]]
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        operators = list(operators)
        check_dtypes(operators)
        hints = implied_hints("The direct sum", operators, is_non_singular=is_non_singular,
                              is_self_adjoint=is_self_adjoint,
                              is_positive_definite=is_positive_definite)
        self._init_combined(
            operators, operators, "_ds_", name,
            is_square=is_square if all(op.is_square for op in operators) else None, **hints)

    def _batch(self):
        return broadcast_batch(*[op._shape()[:-2] for op in self.operators])

    def _shape(self):
        return self._batch() + (sum(op._shape()[-2] for op in self.operators),
                                 sum(op._shape()[-1] for op in self.operators))

    def _apply(self, x, adjoint, adjoint_arg, method):
        x = adjoint_of(x) if adjoint_arg else x
        sizes = [op._shape()[-2] if (adjoint != (method == "_solve")) else op._shape()[-1]
                 for op in self.operators]
        pieces = ops.split(x, sizes, axis=-2)
        outs = [getattr(op, method)(p, adjoint=adjoint) for op, p in zip(self.operators, pieces)]
        batch = broadcast_batch(*[o.shape[:-2] for o in outs])
        return ops.concat([_broadcast_to_batch(o, batch) for o in outs], axis=-2)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._apply(x, adjoint, adjoint_arg, "_matmul")

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._apply(rhs, adjoint, adjoint_arg, "_solve")

    def _to_dense(self):
        n = len(self.operators)
        rows = [[op.to_dense() if i == j else None for j, op in enumerate(self.operators)]
                for i in range(n)]
        return _block_dense(rows, self._batch(), self.dtype)

    def _diag_part(self):
        if not all(op.is_square for op in self.operators):
            return super()._diag_part()
        batch = self._batch()
        parts = [op.diag_part() for op in self.operators]
        parts = [ops.broadcast_to(p, tuple(batch) + tuple(p.shape[-1:])) for p in parts]
        return ops.concat(parts, axis=-1)

    def _determinant(self):
        out = self.operators[0].determinant()
        for op in self.operators[1:]:
            out = ops.multiply(out, op.determinant())
        return out

    def _log_abs_determinant(self):
        out = self.operators[0].log_abs_determinant()
        for op in self.operators[1:]:
            out = ops.add(out, op.log_abs_determinant())
        return out

    def _eigvals(self):
        return ops.concat([op.eigvals() for op in self.operators], axis=-1)

    def _adjoint_operator(self):
        return LinearOperatorBlockDiag([op.adjoint() for op in self.operators])

    def _inverse_operator(self):
        return LinearOperatorBlockDiag([op.inverse() for op in self.operators])

    def _cholesky_operator(self):
        return LinearOperatorBlockDiag([op.cholesky() for op in self.operators])


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A square block lower-triangular matrix: ``operators[i]`` lists row i's blocks
    ``[A_i0, ..., A_ii]`` (the diagonal ones square; zeros above).

    >>> import tapegrad as tf
    >>> a = tf.linalg.LinearOperatorDiag([2.0])
    >>> b = tf.linalg.LinearOperatorFullMatrix([[1.0]])
    >>> op = tf.linalg.LinearOperatorBlockLowerTriangular([[a], [b, a]])
    >>> op.to_dense().numpy().tolist(), float(op.determinant())
    ([[2.0, 0.0], [1.0, 2.0]], 4.0)
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        operators = [list(row) for row in operators]
        for i, row in enumerate(operators):
            if len(row) != i + 1:
                raise ValueError(f"Argument operators[{i}] must contain {i + 1} blocks (row i "
                                 f"of a block lower-triangular operator); found {len(row)}.")
        check_dtypes([op for row in operators for op in row])
        diagonal = [row[-1] for row in operators]
        hints = implied_hints(None, diagonal, "A blockwise lower-triangular operator with "
                              "non-singular operators on the main diagonal is always "
                              "non-singular.", is_non_singular=is_non_singular)
        if is_square is False:
            raise ValueError("A blockwise lower-triangular operator is always square.")
        self._init_combined(operators, diagonal, "_ds_", name, is_self_adjoint=is_self_adjoint,
                            is_positive_definite=is_positive_definite, is_square=True, **hints)

    def _sizes(self):
        return [row[-1]._shape()[-1] for row in self.operators]

    def _batch(self):
        return broadcast_batch(*[op._shape()[:-2] for row in self.operators for op in row])

    def _shape(self):
        n = sum(self._sizes())
        return self._batch() + (n, n)

    def _to_dense(self):
        k = len(self.operators)
        rows = [[self.operators[i][j].to_dense() if j <= i else None for j in range(k)]
                for i in range(k)]
        return _block_dense(rows, self._batch(), self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        if adjoint:
            return product(self.to_dense(), x, adjoint_a=True, adjoint_b=adjoint_arg)
        x = adjoint_of(x) if adjoint_arg else x
        pieces = ops.split(x, self._sizes(), axis=-2)
        outs = []
        for row in self.operators:
            total = None
            for op, p in zip(row, pieces):
                y = op._matmul(p)
                total = y if total is None else ops.add(total, y)
            outs.append(total)
        batch = broadcast_batch(*[o.shape[:-2] for o in outs])
        return ops.concat([_broadcast_to_batch(o, batch) for o in outs], axis=-2)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if adjoint:
            return LinearOperator._solve(self, rhs, adjoint, adjoint_arg)
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        pieces = ops.split(rhs, self._sizes(), axis=-2)
        solved = []
        for row, b in zip(self.operators, pieces):     # block forward substitution
            for op, x in zip(row[:-1], solved):
                b = ops.subtract(b, op._matmul(x))
            solved.append(row[-1]._solve(b))
        batch = broadcast_batch(*[s.shape[:-2] for s in solved])
        return ops.concat([_broadcast_to_batch(s, batch) for s in solved], axis=-2)

    def _determinant(self):
        out = self.operators[0][-1].determinant()
        for row in self.operators[1:]:
            out = ops.multiply(out, row[-1].determinant())
        return out

    def _log_abs_determinant(self):
        out = self.operators[0][-1].log_abs_determinant()
        for row in self.operators[1:]:
            out = ops.add(out, row[-1].log_abs_determinant())
        return out

    def _diag_part(self):
        return ops.concat([row[-1].diag_part() for row in self.operators], axis=-1)


def _kron_dense(a, b):
    p, q = a.shape[-2:]
    r, s = b.shape[-2:]
    k = ops.einsum("...ij,...kl->...ikjl", a, b)
    return ops.reshape(k, tuple(k.shape[:-4]) + (p * r, q * s))


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product ``A1 (x) A2 (x) ...`` of ``operators``.

    >>> import tapegrad as tf
    >>> a = tf.linalg.LinearOperatorDiag([1.0, 2.0])
    >>> b = tf.linalg.LinearOperatorFullMatrix([[0.0, 1.0], [1.0, 0.0]])
    >>> tf.linalg.LinearOperatorKronecker([a, b]).to_dense().numpy().tolist()
    [[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 2.0, 0.0]]
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        operators = list(operators)
        check_dtypes(operators)
        hints = implied_hints("The Kronecker product", operators,
                              is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint)
        self._init_combined(operators, operators, "_x_", name,
                            is_positive_definite=is_positive_definite, is_square=is_square,
                            **hints)

    def _shape(self):
        rows = cols = 1
        for op in self.operators:
            rows *= op._shape()[-2]
            cols *= op._shape()[-1]
        return broadcast_batch(*[op._shape()[:-2] for op in self.operators]) + (rows, cols)

    def _to_dense(self):
        out = self.operators[0].to_dense()
        for op in self.operators[1:]:
            out = _kron_dense(out, op.to_dense())
        return out

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return product(self.to_dense(), x, adjoint, adjoint_arg)

    def _determinant(self):
        if not all(op._shape()[-1] == op._shape()[-2] for op in self.operators):
            return super()._determinant()
        total = self._shape()[-1]
        out = None
        for op in self.operators:
            power = total // op._shape()[-1]
            d = ops.pow(op.determinant(), tensor(float(power), op.dtype))
            out = d if out is None else ops.multiply(out, d)
        return out

    def _log_abs_determinant(self):
        if not all(op._shape()[-1] == op._shape()[-2] for op in self.operators):
            return super()._log_abs_determinant()
        total = self._shape()[-1]
        out = None
        for op in self.operators:
            lad = op.log_abs_determinant()
            d = ops.multiply(lad, tensor(float(total // op._shape()[-1]), lad.dtype))
            out = d if out is None else ops.add(out, d)
        return out

    def _inverse_operator(self):
        return LinearOperatorKronecker([op.inverse() for op in self.operators])

    def _adjoint_operator(self):
        return LinearOperatorKronecker([op.adjoint() for op in self.operators])
