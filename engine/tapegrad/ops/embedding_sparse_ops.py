"""Sparse embedding lookups: ``tf.nn.embedding_lookup_sparse`` and
``tf.nn.safe_embedding_lookup_sparse``.

Row r of the result combines the embeddings of the ids in row r of a SparseTensor:

- ``sum``: sum_i w_i e(id_i);  ``mean``: that sum / sum_i w_i;
  ``sqrtn``: that sum / sqrt(sum_i w_i^2)  (weights 1 without ``sp_weights``; 0 / 0 gives 0).

``embedding_lookup_sparse`` returns max(row) + 1 rows (as TensorFlow's segment sums: trailing
empty rows are dropped, inner ones are zeros). ``safe_embedding_lookup_sparse`` first drops ids
< 0 (and, except for ``sum``, weights <= 0), gives every empty row ``default_id``'s embedding (or
zeros), and keeps the full leading shape of a higher-rank ``sparse_ids``. Gradients reach the
embedding table (through a gather) and the weight values.
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..tensor import convert_to_tensor, wrap
from ..ground import multiply, reshape
from .arithmetic_ops import cast, divide_no_nan
from .array_ops import concat, fill, ones_like, zeros_like
from .exponential_ops import sqrt, square
from .indexing_ops import gather
from .logic_ops import where
from .nn_composite_ops import embedding_lookup
from .segment_ops import segment_sum
from .sparse_ops import SparseTensor

_COMBINERS = ("mean", "sqrtn", "sum")


def _table(params):
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("embedding lookups over a sharded table (a list of "
                                      f"{len(params)} tensors) are not supported; pass one tensor")
        params = params[0]
    return params


def _check_combiner(combiner):
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")


def _combine(params, ids, segments, weights, combiner, max_norm):
    """The core: ids, segment (row) ids and optional weights as plain tensors."""
    rows = embedding_lookup(params, ids, max_norm=max_norm)
    if weights is None:
        weights = ones_like(cast(ids, rows.dtype))
    elif weights.dtype != rows.dtype:
        weights = cast(weights, rows.dtype)
    w = reshape(weights, (-1,) + (1,) * (rows._value.ndim - 1))
    total = segment_sum(multiply(rows, w), segments)
    if combiner == "sum":
        return total
    if combiner == "mean":
        return divide_no_nan(total, segment_sum(w, segments))
    return divide_no_nan(total, sqrt(segment_sum(square(w), segments)))


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """Combined embeddings of each row of ``sp_ids`` (a [N, M] SparseTensor of ids), optionally
    weighted by ``sp_weights`` (same indices); ``combiner`` is ``mean`` (default), ``sqrtn`` or
    ``sum``.

    >>> import tapegrad as tf
    >>> ids = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 2, 1]), [2, 2])
    >>> table = tf.constant([[1.0], [2.0], [3.0]])
    >>> tf.nn.embedding_lookup_sparse(table, ids, None).numpy().tolist()
    [[2.0], [2.0]]
    """
    combiner = "mean" if combiner is None else combiner
    _check_combiner(combiner)
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor,got "
                        f"{type(sp_weights)}")
    if sp_weights is not None and \
            sp_weights.values._value.shape != sp_ids.values._value.shape:
        raise ValueError(f"sp_weights must have as many values as sp_ids: "
                         f"{sp_weights.values._value.shape[0]} vs {sp_ids.values._value.shape[0]}")
    segments = wrap(xp.asarray(sp_ids.indices._value[:, 0], xp.int64))
    weights = None if sp_weights is None else sp_weights.values
    return _combine(_table(params), sp_ids.values, segments, weights, combiner, max_norm)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """``embedding_lookup_sparse`` made safe for real data: invalid ids (< 0) and, except for
    ``sum``, non-positive weights are dropped; empty rows get ``default_id``'s embedding or
    zeros; ``sparse_ids`` may have rank > 2 (the result is its shape[:-1] + [dim]).

    >>> import tapegrad as tf
    >>> ids = tf.sparse.SparseTensor([[0, 0], [2, 0]], tf.constant([1, -1]), [3, 1])
    >>> table = tf.constant([[1.0], [2.0]])
    >>> tf.nn.safe_embedding_lookup_sparse(table, ids).numpy().tolist()
    [[2.0], [0.0], [0.0]]
    """
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    _check_combiner(combiner)
    params = _table(embedding_weights)
    if not isinstance(sparse_ids, SparseTensor):
        raise TypeError(f"sparse_ids must be SparseTensor, got {type(sparse_ids)}")
    shape = [int(d) for d in sparse_ids.dense_shape._value]
    if len(shape) < 2:
        raise InvalidArgumentError(f"safe_embedding_lookup_sparse: sparse_ids must have rank >= "
                                   f"2, got dense_shape {shape}")
    n_rows = int(xp.prod(shape[:-1], dtype=xp.int64))
    idx = xp.asarray(sparse_ids.indices._value, xp.int64)
    rows = xp.ravel_multi_index(tuple(idx[:, :-1].T), shape[:-1]) if len(idx) else \
        xp.zeros(0, xp.int64)
    ids_np = xp.asarray(sparse_ids.values._value)
    keep = ids_np >= 0
    if sparse_weights is not None and combiner != "sum":
        keep &= xp.asarray(sparse_weights.values._value) > 0
    kept = xp.nonzero(keep)[0]
    ids = gather(sparse_ids.values, wrap(kept))
    weights = None if sparse_weights is None else gather(sparse_weights.values, wrap(kept))
    rows = rows[kept]
    empty = xp.ones(n_rows, bool)
    empty[rows] = False
    # every empty row gets one entry (default_id or 0, weight 1), rows kept in order
    fill_rows = xp.nonzero(empty)[0]
    order = xp.argsort(xp.concatenate([rows, fill_rows]), kind="stable")
    fill_id = 0 if default_id is None else int(default_id)
    ids = gather(concat([ids, fill([len(fill_rows)],
                                                    convert_to_tensor(fill_id, dtype=ids.dtype))],
                        0), wrap(order))
    if weights is not None:
        weights = gather(concat([weights, fill([len(fill_rows)],
                                               convert_to_tensor(1.0, dtype=weights.dtype))], 0),
                         wrap(order))
    segments = wrap(xp.concatenate([rows, fill_rows])[order].astype(xp.int64))
    result = _combine(params, ids, segments, weights, combiner, max_norm)
    if default_id is None:
        mask = wrap(xp.broadcast_to(empty.reshape((-1,) + (1,) * (result._value.ndim - 1)),
                                    result._value.shape))
        result = where(mask, zeros_like(result), result)
    return reshape(result, tuple(shape[:-1]) + tuple(result._value.shape[1:]))
