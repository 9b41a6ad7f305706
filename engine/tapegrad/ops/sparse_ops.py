"""``tf.sparse``: ``SparseTensor`` (indices, values, dense_shape) and the everyday functions.

Conversions go through ``scatter_nd``/``gather_nd``, so gradients reach the values (and the
dense operand of ``sparse_dense_matmul``), as in TensorFlow.
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..tensor import Tensor, TensorShape, convert_to_tensor, wrap
from ..variables import Variable
from ..ground import (add as _add, broadcast_to as _broadcast_to, multiply as _multiply,
                      reduce_sum as _reduce_sum, reshape as _reshape)
from .arithmetic_ops import truediv as _truediv
from .. import shape_rules
from ..checks.dtype_rules import NUMBER
from ..batching import own_vjp
from ..recording import bind
from ..replayed import replayed
from ..table import defshape, defvjp, exempt, primitive
from .array_ops import concat, fill
from .indexing_ops import gather, gather_nd, scatter_nd
from .logic_ops import where
from .matmul_ops import matmul
from .segment_ops import unsorted_segment_sum


def _tensor(x, dtype=None):
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x, dtype=dtype)


def _index_matrix(indices, rank):
    """``indices`` as an int64 matrix with one column per dimension (a scalar's has none)."""
    a = xp.asarray(getattr(indices, "_value", indices), dtype=xp.int64)
    if a.ndim == 2 or rank == 0 and a.size == 0:
        return a.reshape(a.shape[0] if a.ndim == 2 else 0, rank) if a.size == 0 else a
    return a.reshape(-1, rank)


class SparseTensor:
    """A tensor given by the positions and values of its non-default entries.

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor(indices=[[0, 1]], values=[5.0], dense_shape=[2, 2])
    >>> tf.sparse.to_dense(st).numpy().tolist()
    [[0.0, 5.0], [0.0, 0.0]]
    """

    def __init__(self, indices, values, dense_shape):
        self.dense_shape = wrap(xp.asarray(getattr(dense_shape, "_value", dense_shape),
                                           dtype=xp.int64).reshape(-1))
        self.indices = wrap(_index_matrix(indices, len(self.dense_shape._value)))
        self.values = _tensor(values)
        if self.values._value.ndim != 1 or \
                self.values._value.shape[0] != self.indices._value.shape[0]:
            raise ValueError(f"SparseTensor: values must be a vector with one entry per row of "
                             f"indices, got {self.values._value.shape[0] if self.values._value.ndim else 'a scalar'} "
                             f"values for {self.indices._value.shape[0]} indices")

    @classmethod
    def _from_components(cls, indices, values, dense_shape):
        """The SparseTensor of these component tensors, kept as they are (not checked): how a
        ``tf.function`` trace rebuilds its sparse arguments and results."""
        out = cls.__new__(cls)
        out.indices, out.values, out.dense_shape = indices, values, dense_shape
        return out

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return TensorShape([int(d) for d in self.dense_shape._value])

    def get_shape(self):
        return self.shape

    def __mul__(self, other):
        return _with_dense(self, other, _multiply, SCALAR_MUL)

    def __truediv__(self, other):
        return _with_dense(self, other, _truediv, SCALAR_DIV)

    __div__ = __truediv__
    # TensorFlow defines no reflected forms (``2 * st`` is a TypeError) and no ``+``/``-``.

    def __repr__(self):
        return (f"SparseTensor(indices={self.indices!s}, values={self.values!s}, "
                f"dense_shape={self.dense_shape!s})")

    __str__ = __repr__


def _scalar_gradient(g, ans, values, scalar):
    raise InvalidArgumentError("params must be at least a vector [Op:GatherNd]")


def _scalar_operand(name, impl):
    """``values * scalar`` (or ``/``) as TensorFlow's SparseDenseCwise op with a scalar dense
    operand. Its gradient fails in TensorFlow 2.21 (it gathers from the scalar), so a tape asked
    through it raises TensorFlow's error here too (a TensorFlow bug kept: docs/coverage.md)."""
    prim = primitive(name, impl, dtypes=NUMBER)
    defshape(prim, shape_rules.same)
    defvjp(prim, _scalar_gradient, _scalar_gradient)
    own_vjp(prim)   # it raises for rows too
    return exempt(prim, jvp="TensorFlow's gradient of a sparse-times-scalar fails; so does "
                  "its forward mode")


SCALAR_MUL = _scalar_operand("SparseDenseCwiseMul", lambda values, scalar: values * scalar)
SCALAR_DIV = _scalar_operand("SparseDenseCwiseDiv", lambda values, scalar: values / scalar)


def _with_dense(sp, other, fn, scalar_prim):
    """``sp * dense`` and ``sp / dense`` as TensorFlow's SparseDenseCwise ops: the dense
    operand, broadcast to the sparse one's shape, taken at its entries; the result keeps the
    sparse one's indices. Another SparseTensor is not a dense operand."""
    if isinstance(other, SparseTensor):
        raise ValueError(f"Attempt to convert a value ({other!r}) with an unsupported type "
                         f"({type(other)}) to a Tensor.")
    dense = _tensor(other, sp.dtype)
    if dense.shape.rank:
        values = fn(sp.values, gather_nd(_broadcast_to(dense, sp.dense_shape), sp.indices))
    else:
        values = bind(scalar_prim, (sp.values, dense), {})
    return SparseTensor(sp.indices, values, sp.dense_shape)


def _sparse(x, op):
    if not isinstance(x, SparseTensor):
        raise TypeError(f"{op}: expected a SparseTensor, got {type(x).__name__}")
    return x


@replayed("SparseToDense", dynamic_shape=True)
def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor: the values at their indices, ``default_value`` (0) elsewhere."""
    sp = _sparse(sp_input, "sparse.to_dense")
    shape = tuple(int(d) for d in sp.dense_shape._value)
    idx = sp.indices._value
    if idx.size and ((idx < 0).any() or (idx >= xp.asarray(shape)).any()):
        raise InvalidArgumentError(f"indices is out of bounds for dense_shape {list(shape)} "
                                   f"[Op:SparseToDense]")
    if not shape:   # a scalar: its one value, or the default (ScatterNd has no scalar form)
        empty = _tensor(0 if default_value is None else default_value, sp.dtype)
        return _reshape(sp.values[-1:], ()) if idx.shape[0] else empty
    dense = scatter_nd(sp.indices, sp.values, shape)
    if default_value is None:
        return dense
    filled = xp.zeros(shape, bool)
    if idx.size:
        filled[tuple(idx.T)] = True
    return where(wrap(filled), dense, fill(shape, _tensor(default_value, sp.dtype)))


def from_dense(tensor, name=None):
    """The SparseTensor of the non-zero entries, in row-major order."""
    t = _tensor(tensor)
    idx = xp.argwhere(t._value != 0).astype(xp.int64)
    values = gather_nd(t, wrap(idx)) if idx.size else wrap(t._value.reshape(-1)[:0].copy())
    return SparseTensor(wrap(idx), values, t._value.shape)


def reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major order."""
    sp = _sparse(sp_input, "sparse.reorder")
    idx = sp.indices._value
    order = xp.lexsort(idx.T[::-1]) if idx.size else xp.arange(0)
    return SparseTensor(wrap(idx[order]), gather(sp.values, wrap(order.astype(xp.int64))),
                        sp.dense_shape)


def reduce_sum(sp_input, axis=None, keepdims=False, output_is_sparse=False, name=None):
    """The sum over ``axis`` (all entries when None), as a dense tensor (a SparseTensor of
    the non-empty groups with ``output_is_sparse``)."""
    if output_is_sparse:
        return reduce_groups(_sparse(sp_input, "sparse.reduce_sum"), axis, bool(keepdims), True,
                             unsorted_segment_sum, "SparseReduceSum")
    return _reduce_sum(to_dense(sp_input), axis=axis, keepdims=keepdims)


def groups(sp, axis, op):
    """``(reduced axes, kept axes, kept shape, group id of each entry)`` for reducing a
    SparseTensor over ``axis``."""
    shape = [int(d) for d in sp.dense_shape._value]
    rank = len(shape)
    if axis is None:
        axes = list(range(rank))
    else:
        axes = sorted({int(a) % rank for a in xp.asarray(axis).reshape(-1).tolist()})
    kept = [d for d in range(rank) if d not in axes]
    kept_shape = [shape[d] for d in kept]
    idx = sp.indices._value[:, kept]
    ids = xp.ravel_multi_index(tuple(idx.T), kept_shape) if kept and idx.size else \
        xp.zeros(idx.shape[0], xp.int64)
    return axes, kept, kept_shape, ids.astype(xp.int64)


def reduce_groups(sp, axis, keepdims, output_is_sparse, segment_fn, op):
    """``segment_fn`` (a segment reduction) of the entries of each group left by reducing
    over ``axis``: dense (empty groups 0), or a SparseTensor of the non-empty groups."""
    axes, kept, kept_shape, ids = groups(sp, axis, op)
    size = int(xp.prod(kept_shape)) if kept_shape else 1
    full_shape = [1 if d in axes else s for d, s in enumerate([int(d) for d in sp.dense_shape._value])] if keepdims \
        else kept_shape
    if output_is_sparse:
        present = xp.unique(ids)
        compact = xp.searchsorted(present, ids)
        values = segment_fn(sp.values, wrap(compact.astype(xp.int64)), int(present.size))
        idx = xp.stack(xp.unravel_index(present, kept_shape), axis=1) if kept_shape else \
            xp.zeros((present.size, 0), xp.int64)
        if keepdims:
            full = xp.zeros((present.size, len([int(d) for d in sp.dense_shape._value])), xp.int64)
            full[:, kept] = idx
            idx = full
        return SparseTensor(wrap(idx.astype(xp.int64)), values, full_shape)
    reduced = segment_fn(sp.values, wrap(ids), size)
    # groups with no entry give 0, as TensorFlow's kernels do
    counts = xp.bincount(ids.astype(xp.intp), minlength=size)[:size]
    reduced = where(wrap(counts > 0), reduced, fill([size], xp.zeros((), sp.values._value.dtype)))
    return _reshape(reduced, full_shape)




def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """The matrix product of a 2-D SparseTensor and a dense matrix."""
    sp = _sparse(sp_a, "sparse.sparse_dense_matmul")
    return matmul(to_dense(sp), _tensor(b), adjoint_a=adjoint_a, adjoint_b=adjoint_b)


def add(a, b, threshold=0, name=None):
    """Sparse + sparse gives a SparseTensor (entries at the union of the indices); sparse +
    dense gives a dense tensor."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        if not xp.array_equal(a.dense_shape._value, b.dense_shape._value):
            raise InvalidArgumentError(f"Operands' shapes do not match: "
                                       f"{a.dense_shape._value.tolist()} vs. "
                                       f"{b.dense_shape._value.tolist()} [Op:SparseAdd]")
        idx = xp.concatenate([a.indices._value, b.indices._value])
        unique, inverse = xp.unique(idx, axis=0, return_inverse=True)
        values = unsorted_segment_sum(
            _concat(a.values, b.values), wrap(inverse.reshape(-1).astype(xp.int64)),
            unique.shape[0])
        if threshold:
            keep = xp.abs(values._value) >= threshold
            unique = unique[keep]
            values = gather(values, wrap(xp.nonzero(keep)[0].astype(xp.int64)))
        return SparseTensor(wrap(unique.astype(xp.int64)), values, a.dense_shape)
    if isinstance(a, SparseTensor):
        return _add(to_dense(a), _tensor(b))
    if isinstance(b, SparseTensor):
        return _add(_tensor(a), to_dense(b))
    raise TypeError("sparse.add: at least one argument must be a SparseTensor")


def _concat(x, y):
    return concat([x, y], axis=0)


del Tensor


def transpose(sp_input, perm=None, name=None):
    """The SparseTensor with its axes permuted (reversed by default), entries re-sorted."""
    sp = _sparse(sp_input, "sparse.transpose")
    rank = sp.indices._value.shape[1]
    perm = list(reversed(range(rank))) if perm is None else [int(p) for p in perm]
    moved = SparseTensor(wrap(sp.indices._value[:, perm]), sp.values,
                         sp.dense_shape._value[perm])
    return reorder(moved)


def slice(sp_input, start, size, name=None):  # noqa: A001
    """The entries inside the box ``[start, start + size)``, re-indexed from ``start``."""
    sp = _sparse(sp_input, "sparse.slice")
    start = xp.asarray(start, dtype=xp.int64)
    shape = sp.dense_shape._value
    end = xp.minimum(start + xp.asarray(size, dtype=xp.int64), shape)
    idx = sp.indices._value
    inside = ((idx >= start) & (idx < end)).all(axis=1)
    keep = xp.nonzero(inside)[0].astype(xp.int64)
    return SparseTensor(wrap(idx[inside] - start), gather(sp.values, wrap(keep)),
                        xp.maximum(end - start, 0))


def expand_dims(sp_input, axis=None, name=None):
    """The SparseTensor with a new axis of size 1 at ``axis``."""
    sp = _sparse(sp_input, "sparse.expand_dims")
    rank = sp.indices._value.shape[1]
    axis = 0 if axis is None else int(axis) % (rank + 1)
    idx = xp.insert(sp.indices._value, axis, 0, axis=1)
    shape = xp.insert(sp.dense_shape._value, axis, 1)
    return SparseTensor(wrap(idx), sp.values, shape)
