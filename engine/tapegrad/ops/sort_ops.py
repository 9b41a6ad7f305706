"""Ordering: ``top_k``, ``sort``, ``argsort``, ``in_top_k``, ``unique``.

Two linear primitives, transposes of each other, carry the gradients: ``GatherAlongAxis`` picks
entries of the last axis by per-row indices, ``ScatterAlongAxis`` adds them back into zeros.
So the gradient of ``top_k`` (and of ``sort``, built on it) flows to the selected entries only.
Ties are broken as TensorFlow does: among equal values the lower index comes first.
"""
from .. import checks
from ..backend import xp
from ..dtypes import as_dtype
from ..errors import InvalidArgumentError
from ..recording import bind
from ..replayed import replayed
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import INTERNAL
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from .arithmetic_ops import negative
from .array_ops import transpose
from .. import batching
from .. import shape_rules
from ..table import defshape


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _gather_along(x, indices):
    return xp.take_along_axis(x, indices.astype(xp.intp, copy=False), axis=-1)


def _scatter_along(g, indices, n):
    rows = int(xp.prod(g.shape[:-1], dtype=xp.int64)) if g.ndim > 1 else 1
    k = g.shape[-1] if g.ndim else 1
    out = xp.zeros((rows, n), g.dtype)
    idx = indices.reshape(rows, k).astype(xp.intp, copy=False)
    xp.add.at(out, (xp.arange(rows)[:, None], idx), g.reshape(rows, k))
    return out.reshape(g.shape[:-1] + (n,))


GATHER_ALONG = primitive("GatherAlongAxis", _gather_along, exempt=INTERNAL)
defshape(GATHER_ALONG, lambda x, indices: shape_rules.Spec(indices.shape, x.dtype))
SCATTER_ALONG = primitive("ScatterAlongAxis", _scatter_along, exempt=INTERNAL)
defshape(SCATTER_ALONG, lambda g, indices, n: shape_rules.Spec(
    None if g.shape is None else g.shape[:-1] + (n,), g.dtype))
# linear in their first input only (the indices are data), so the JVP is the op on the tangent
defvjp(GATHER_ALONG,
       lambda g, ans, x, idx: bind(SCATTER_ALONG, (g, idx), {"n": x._value.shape[-1]}), None)
defjvp(GATHER_ALONG, lambda t, ans, x, idx: bind(GATHER_ALONG, (t, idx), {}), None)
defvjp(SCATTER_ALONG, lambda g, ans, u, idx, n: bind(GATHER_ALONG, (g, idx), {}), None)
defjvp(SCATTER_ALONG, lambda t, ans, u, idx, n: bind(SCATTER_ALONG, (t, idx), {"n": n}), None)


def _descending_order(a):
    """Indices sorting the last axis by decreasing value, equal values by increasing index."""
    # a stable ascending sort of the reversed row lists equal values by decreasing index;
    # reversing that list gives decreasing values with equal ones by increasing index
    ascending_of_reversed = xp.argsort(xp.flip(a, -1), axis=-1, kind="stable")
    return xp.flip((a.shape[-1] - 1) - ascending_of_reversed, -1)


def _ascending_order(a):
    return xp.argsort(a, axis=-1, kind="stable")


def result_pair(name, first, second, module, doc=None, named_repr=True):
    """A tuple class of two results, also readable by the names ``first`` and ``second`` (as
    TensorFlow's namedtuples are); ``named_repr`` shows it as ``name(first=..., second=...)``."""
    def new(cls, a, b):
        return tuple.__new__(cls, (a, b))

    body = {"__slots__": (), "__doc__": doc, "__module__": module, "__new__": new,
            first: property(lambda self: self[0]), second: property(lambda self: self[1])}
    if named_repr:
        body["__repr__"] = lambda self: f"{name}({first}={self[0]!r}, {second}={self[1]!r})"
    return type(name, (tuple,), body)


TopKV2 = result_pair("TopKV2", "values", "indices", __name__,
                     "``(values, indices)``, also readable as ``.values`` and ``.indices`` "
                     "(TF's namedtuple).")


def top_k(input, k=1, sorted=True, index_type="int32", name=None):  # noqa: A002
    """The ``k`` largest entries of the last axis and their indices.

    >>> import tapegrad as tf
    >>> v, i = tf.math.top_k([1.0, 3.0, 2.0], k=2)
    >>> v.numpy().tolist(), i.numpy().tolist()
    ([3.0, 2.0], [1, 2])
    """
    x = _tensor(input)
    k = int(k)
    if x._value.ndim < 1:
        raise InvalidArgumentError(f"input must be >= 1-D, got shape {x.shape} [Op:TopKV2]")
    n = x._value.shape[-1]
    if k < 0:
        raise InvalidArgumentError(f"Need k >= 0, got {k} [Op:TopKV2]")
    if n < k:
        raise InvalidArgumentError(f"input must have at least k columns. Had {n}, needed {k} "
                                   f"[Op:TopKV2]")
    order = _descending_order(x._value)[..., :k]
    indices = wrap(xp.ascontiguousarray(order.astype(as_dtype(index_type).as_numpy_dtype)))
    return TopKV2(bind(GATHER_ALONG, (x, indices), {}), indices)


def _move_last(x, axis, op):
    nd = x._value.ndim
    axis = checks.axis(op, axis, nd)
    if axis == nd - 1:
        return x, None
    perm = [i for i in range(nd) if i != axis] + [axis]
    back = [0] * nd
    for pos, a in enumerate(perm):
        back[a] = pos
    return transpose(x, perm), back


def _check_direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"direction should be one of ASCENDING, DESCENDING, got {direction!r}")


def _sorting(values, axis, direction, op):
    """``values`` with ``axis`` moved last, the permutation back (None if it was last) and the
    order that sorts its last axis in ``direction``."""
    _check_direction(direction)
    moved, back = _move_last(_tensor(values), axis, op)
    a = moved._value
    return moved, back, _descending_order(a) if direction == "DESCENDING" else _ascending_order(a)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """The entries sorted along ``axis``; the gradient returns to where each came from.

    >>> import tapegrad as tf
    >>> tf.sort([3, 1, 2]).numpy().tolist()
    [1, 2, 3]
    """
    moved, back, order = _sorting(values, axis, direction, "Sort")
    out = bind(GATHER_ALONG, (moved, wrap(xp.ascontiguousarray(order))), {})
    return out if back is None else transpose(out, back)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """Indices (int32) that sort ``values`` along ``axis`` (equal values keep their order).

    >>> import tapegrad as tf
    >>> tf.argsort([3, 1, 2]).numpy().tolist()
    [1, 2, 0]
    """
    moved, back, order = _sorting(values, axis, direction, "ArgSort")
    out = wrap(xp.ascontiguousarray(order.astype(xp.int32)))
    return out if back is None else transpose(out, back)


def in_top_k(targets, predictions, k, name=None):
    """Whether ``predictions[i, targets[i]]`` is among the row's ``k`` largest (entries tied
    with it count as in, as in TensorFlow; a non-finite prediction is never in).

    >>> import tapegrad as tf
    >>> tf.math.in_top_k([1], [[0.2, 0.7, 0.1]], k=1).numpy().tolist()
    [True]
    """
    p = _tensor(predictions)._value
    t = _tensor(targets)._value
    if p.ndim != 2:
        raise InvalidArgumentError(f"predictions must be 2-dimensional, got shape "
                                   f"{list(p.shape)} [Op:InTopKV2]")
    if t.ndim != 1 or t.shape[0] != p.shape[0]:
        raise InvalidArgumentError(f"First dimension of predictions {p.shape[0]} must match "
                                   f"length of targets {t.shape[0] if t.ndim else 0} "
                                   f"[Op:InTopKV2]")
    rows = xp.arange(p.shape[0])
    valid = (t >= 0) & (t < p.shape[1])
    target_value = p[rows, xp.clip(t, 0, p.shape[1] - 1)]
    higher = (p > target_value[:, None]).sum(axis=1)
    return wrap(valid & xp.isfinite(target_value) & (higher < int(k)))


_Unique = result_pair("_Unique", "y", "idx", __name__, named_repr=False)


@replayed("Unique", dynamic_shape=True)
def unique(x, out_idx="int32", name=None):
    """``(y, idx)``: the distinct values of a 1-D tensor in order of first appearance, and for
    each entry of ``x`` its position in ``y``.

    >>> import tapegrad as tf
    >>> y, idx = tf.unique([4, 1, 4, 2])
    >>> y.numpy().tolist(), idx.numpy().tolist()
    ([4, 1, 2], [0, 1, 0, 2])
    """
    a = _tensor(x)._value
    if a.ndim != 1:
        raise InvalidArgumentError(f"unique expects a 1D vector. [Op:Unique]")
    values, first, inverse = xp.unique(a, return_index=True, return_inverse=True)
    order = xp.argsort(first, kind="stable")
    rank = xp.empty_like(order)
    rank[order] = xp.arange(order.size)
    idx = rank[inverse.reshape(-1)].astype(as_dtype(out_idx).as_numpy_dtype)
    return _Unique(wrap(xp.ascontiguousarray(values[order])), wrap(idx))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
batching.rows_first(GATHER_ALONG, SCATTER_ALONG, data=(1,))   # the indices for each row
