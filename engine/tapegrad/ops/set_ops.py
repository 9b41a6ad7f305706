"""``tf.sets``: set operations along the last axis. Each row (all axes but the last) of a dense
tensor or SparseTensor is a set of its values; the result is a SparseTensor whose rows hold the
sorted members, with last dimension the largest row's size. No gradient (integer and string
sets)."""
from ..backend import xp
from ..dtypes import int8, int16, int32, int64, string, uint8, uint16
from ..errors import InvalidArgumentError
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from .sparse_ops import SparseTensor

_SET_DTYPES = (int8, int16, int32, int64, uint8, uint16, string)
_SUPPORTED = "frozenset({tf.int32, tf.uint8, tf.int16, tf.int8, tf.string, tf.int64, tf.uint16})"


def _checked(x, arg):
    if isinstance(x, SparseTensor):
        dtype = x.dtype
    else:
        x = x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)
        dtype = x.dtype
    if dtype not in _SET_DTYPES:
        raise TypeError(f"'{arg}' has invalid dtype `{dtype}` not in supported dtypes: "
                        f"`{_SUPPORTED}`.")
    return x


def _rows(x, op):
    """``(outer shape, {row index tuple: set of values})`` of a dense tensor or SparseTensor."""
    if isinstance(x, SparseTensor):
        shape = tuple(int(d) for d in x.dense_shape._value)
        if len(shape) < 2:
            raise InvalidArgumentError(f"Shape {list(shape)} has rank {len(shape)} < 2 [Op:{op}]")
        rows = {}
        for idx, v in zip(x.indices._value.tolist(), x.values._value.tolist()):
            rows.setdefault(tuple(idx[:-1]), set()).add(v)
        return shape[:-1], rows
    a = x._value
    if a.ndim < 2:
        raise InvalidArgumentError(f"Shape {list(a.shape)} has rank {a.ndim} < 2 [Op:{op}]")
    outer = a.shape[:-1]
    flat = a.reshape(-1, a.shape[-1]).tolist()
    rows = {}
    for i, idx in enumerate(xp.ndindex(*outer)):
        if flat[i]:
            rows[idx] = set(flat[i])
    return outer, rows


def _op_name(a, b):
    kind = lambda x: "Sparse" if isinstance(x, SparseTensor) else "Dense"  # noqa: E731
    return f"{kind(a)}To{kind(b)}SetOperation"


def _result(outer, members, dtype):
    indices, values = [], []
    width = 0
    for idx in xp.ndindex(*outer):
        row = sorted(members.get(idx, ()))
        width = max(width, len(row))
        for j, v in enumerate(row):
            indices.append(list(idx) + [j])
            values.append(v)
    np_type = dtype._np
    vals = xp.empty(len(values), dtype=object) if np_type == object else \
        xp.asarray(values, dtype=np_type).reshape(-1)
    if np_type == object:
        vals[:] = values
    idx = xp.asarray(indices, dtype=xp.int64).reshape(-1, len(outer) + 1)
    return SparseTensor(wrap(idx), wrap(vals), list(outer) + [width])


def _set_operation(a, b, combine):
    a, b = _checked(a, "a"), _checked(b, "b")
    op = _op_name(a, b)
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}.")
    outer_a, rows_a = _rows(a, op)
    outer_b, rows_b = _rows(b, op)
    if outer_a != outer_b:
        raise InvalidArgumentError(f"Shapes {list(outer_a)} and {list(outer_b)} of the sets' "
                                   f"groups do not match [Op:{op}]")
    members = {idx: combine(rows_a.get(idx, set()), rows_b.get(idx, set()))
               for idx in xp.ndindex(*outer_a)}
    return _result(outer_a, members, a.dtype)


def size(a, validate_indices=True):
    """The number of distinct values in each row of the SparseTensor ``a`` (int32).

    >>> import tapegrad as tf
    >>> st = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [3, 3, 1], [2, 3])
    >>> tf.sets.size(st).numpy().tolist()
    [1, 1]
    """
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a!s}.")
    a = _checked(a, "a")
    outer, rows = _rows(a, "SetSize")
    out = [len(rows.get(idx, ())) for idx in xp.ndindex(*outer)]
    return wrap(xp.asarray(out, dtype=xp.int32).reshape(outer))


def intersection(a, b, validate_indices=True):
    """The values in both ``a`` and ``b``, row by row, as a SparseTensor.

    >>> import tapegrad as tf
    >>> tf.sparse.to_dense(tf.sets.intersection([[1, 2, 3]], [[2, 3, 4]])).numpy().tolist()
    [[2, 3]]
    """
    return _set_operation(a, b, lambda x, y: x & y)


def union(a, b, validate_indices=True):
    """The values in ``a`` or ``b``, row by row, as a SparseTensor.

    >>> import tapegrad as tf
    >>> tf.sparse.to_dense(tf.sets.union([[1, 2]], [[2, 5]])).numpy().tolist()
    [[1, 2, 5]]
    """
    return _set_operation(a, b, lambda x, y: x | y)


def difference(a, b, aminusb=True, validate_indices=True):
    """The values of ``a`` not in ``b`` (``aminusb=False``: of ``b`` not in ``a``).

    >>> import tapegrad as tf
    >>> tf.sparse.to_dense(tf.sets.difference([[1, 2, 3]], [[2]])).numpy().tolist()
    [[1, 3]]
    """
    return _set_operation(a, b, (lambda x, y: x - y) if aminusb else (lambda x, y: y - x))
