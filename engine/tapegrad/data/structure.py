"""Elements of a dataset: nested tuples and dicts whose leaves are tensors, and their specs.

As in ``tf.data``, tuples (named ones included) and dicts are structure, while a Python list is
one tensor: ``from_tensor_slices([[1, 2], [3, 4]])`` slices a 2x2 matrix. A function given to
``map`` that returns a list returns a tuple.

A leaf may also be a ``tf.sparse.SparseTensor``; its spec is a ``tf.SparseTensorSpec`` (its dense
shape and dtype). Its rows are sparse tensors of one rank less (``sparse_rows``: how
``from_tensor_slices`` and ``unbatch`` slice it), and a batch of sparse tensors of one rank is one
sparse tensor, each dense dimension the largest in the batch (``stack_sparse``), as TensorFlow
batches them.
"""
from ..backend import xp as np
from .. import nest
from ..errors import InvalidArgumentError
from ..ops.sparse_array_ops import SparseTensorSpec
from ..ops.sparse_ops import SparseTensor
from ..tensor import convert_to_tensor, wrap
from ..tensor_spec import TensorSpec, most_specific_common_shape
from ..variables import Variable


def to_tensor(value, what="element"):
    """One leaf as a tensor (Python values get TensorFlow's dtypes: int -> int32...); a
    SparseTensor stays one."""
    if isinstance(value, SparseTensor):
        return value
    if value is None:
        raise InvalidArgumentError(f"A dataset {what} cannot be None: every component of an "
                                   f"element must be a tensor or convertible to one.")
    if isinstance(value, Variable):
        return value.read_value()
    try:
        t = convert_to_tensor(value)
    except (TypeError, ValueError) as e:
        if "inhomogeneous" in str(e):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        raise type(e)(f"Cannot convert {value!r} to a tensor for a dataset {what}: {e}") from None
    return _as_bytes(t)


def _as_bytes(t):
    """A string tensor holds ``bytes``, as TF's do (Python lists of ``str`` convert to arrays of
    ``str`` objects, which ``as_numpy_iterator`` would hand out unencoded)."""
    a = t._value
    if a.dtype != object or not any(isinstance(s, str) for s in a.flat):
        return t
    encoded = np.array([s.encode() if isinstance(s, str) else s for s in a.flat], dtype=object)
    return wrap(encoded.reshape(a.shape))


def normalize(element, what="element"):
    """``element`` with every leaf a tensor; lists become tensors, tuples and dicts stay."""
    if isinstance(element, dict):
        return type(element)((k, normalize(v, what)) for k, v in element.items())
    if isinstance(element, tuple):
        items = [normalize(v, what) for v in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    return to_tensor(element, what)


def normalize_output(value, what="return value of the function"):
    """What a user function returned, as an element: a top-level list is read as a tuple."""
    if isinstance(value, list):
        value = tuple(value)
    return normalize(value, what)


def flatten(element):
    return nest.flatten(element)


def pack(structure, flat):
    return nest.pack_sequence_as(structure, flat)


def _is_flat_tuple(layout):
    return type(layout) is tuple and not any(isinstance(v, (tuple, dict)) for v in layout)


def packer(layout):
    """A function ``flat -> element`` for elements shaped like ``layout``, chosen once per
    dataset (a single tensor and a plain ``(x, y)`` tuple skip the general walk)."""
    if not isinstance(layout, (tuple, dict)):
        return _first
    if _is_flat_tuple(layout):
        return tuple
    return lambda flat: nest.pack_sequence_as(layout, flat)


def flattener(layout):
    """A function ``element -> list of tensors`` for elements shaped like ``layout``."""
    if not isinstance(layout, (tuple, dict)):
        return _alone
    if _is_flat_tuple(layout):
        return list
    return nest.flatten


def _first(flat):
    return flat[0]


def _alone(element):
    return [element]


def leaf_spec(t):
    """``TensorSpec`` of a tensor, ``SparseTensorSpec`` of a SparseTensor."""
    if isinstance(t, SparseTensor):
        return SparseTensorSpec(t.shape, t.dtype)
    return TensorSpec.from_tensor(t)


def spec_like(spec, shape, dtype=None):
    """A spec of the same kind as ``spec`` (dense or sparse) with another shape."""
    kind = SparseTensorSpec if isinstance(spec, SparseTensorSpec) else TensorSpec
    return kind(shape, spec.dtype if dtype is None else dtype)


def spec_of(element):
    """The ``element_spec`` of one element: its structure with a ``TensorSpec`` per leaf (a
    ``SparseTensorSpec`` per SparseTensor)."""
    return nest.map_structure(leaf_spec, element)


# -- sparse leaves ---------------------------------------------------------------------------------
def sparse_rows(sp):
    """The rows of a SparseTensor along its first dimension, each a SparseTensor."""
    shape = sp.dense_shape._value
    indices, values = sp.indices._value, sp.values._value
    order = np.argsort(indices[:, 0], kind="stable")
    indices, values = indices[order], values[order]
    bounds = np.searchsorted(indices[:, 0], np.arange(int(shape[0]) + 1))
    return [SparseTensor(wrap(indices[a:b, 1:].copy()), wrap(values[a:b].copy()),
                         wrap(shape[1:].copy()))
            for a, b in zip(bounds[:-1], bounds[1:])]


def stack_sparse(parts):
    """One SparseTensor of the SparseTensors ``parts`` (all of one rank) along a new first
    dimension; each dense dimension is the largest in ``parts``."""
    ranks = {len(p.dense_shape._value) for p in parts}
    if len(ranks) > 1:
        raise InvalidArgumentError(f"Cannot batch sparse tensors of different ranks: "
                                   f"{sorted(ranks)}")
    shape = np.max(np.stack([p.dense_shape._value for p in parts]), axis=0)
    indices = [np.concatenate([np.full((p.indices._value.shape[0], 1), i, np.int64),
                               p.indices._value], axis=1) for i, p in enumerate(parts)]
    values = np.concatenate([p.values._value for p in parts])
    return SparseTensor(wrap(np.concatenate(indices)), wrap(values),
                        wrap(np.concatenate([[len(parts)], shape]).astype(np.int64)))


def leaf_rows(t):
    """The rows of one leaf (a tensor or a SparseTensor) along its first dimension."""
    if isinstance(t, SparseTensor):
        return sparse_rows(t)
    a = t._value
    return [wrap(a[i, ...]) for i in range(a.shape[0])]


def leading_size(t):
    return int(t.dense_shape._value[0]) if isinstance(t, SparseTensor) else t._value.shape[0]


def is_sparse(t):
    return isinstance(t, (SparseTensor, SparseTensorSpec))


def same_structure(a, b):
    """Whether two elements or specs have the same nesting (same tuple lengths, dict keys)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and sorted(a) == sorted(b)
                and all(same_structure(a[k], b[k]) for k in a))
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(same_structure(x, y) for x, y in zip(a, b)))
    return True


def common_spec(a, b):
    """The spec both ``a`` and ``b`` fit, or None where the structures or dtypes differ."""
    if not same_structure(a, b):
        return None
    flat_a, flat_b = flatten(a), flatten(b)
    if any(x.dtype != y.dtype or is_sparse(x) != is_sparse(y) for x, y in zip(flat_a, flat_b)):
        return None
    return pack(a, [spec_like(x, most_specific_common_shape(x.shape, y.shape))
                    for x, y in zip(flat_a, flat_b)])


def _numpy(t):
    if isinstance(t, SparseTensor):           # as TensorFlow's iterator gives them: dense
        dense = np.zeros(tuple(int(d) for d in t.dense_shape._value), t.values._value.dtype)
        if t.indices._value.size:
            dense[tuple(t.indices._value.T)] = t.values._value
        return dense
    return t.numpy()


def to_numpy(element):
    """The element with NumPy values (``as_numpy_iterator``): scalars as NumPy scalars, a
    SparseTensor as its dense array."""
    return nest.map_structure(_numpy, element)
