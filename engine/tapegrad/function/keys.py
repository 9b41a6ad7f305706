"""Trace keys: what makes TensorFlow trace a ``tf.function`` again.

A call's key holds the structure of its arguments, the shapes and dtypes of their tensors, the
values of Python scalars and strings and the identity of other objects. A trace made for one key
(its pattern, where ``None`` dimensions fit any size) serves every call whose key fits it.

A RaggedTensor is walked as TensorFlow's composite tensors are, as its component tensors (flat
values, then the row splits of each ragged axis, outermost first): its key is TensorFlow's
``RaggedTensorSpec`` (the number of rows, the dtype, the ragged rank and the uniform inner
dimensions; the row lengths are not part of it), and its components are the trace's inputs.
A SparseTensor likewise, as its indices, values and dense shape: its key is its
``SparseTensorSpec`` (the dense shape's values and the dtype), the number of entries not part of it.
"""
from ..backend import xp as np
from ..ops.ragged_array_ops import RaggedTensorSpec
from ..ops.ragged_ops import RaggedTensor
from ..ops.sparse_array_ops import SparseTensorSpec
from ..ops.sparse_ops import SparseTensor
from ..tensor import Tensor, convert_to_tensor
from ..tensor_spec import TensorSpec, dims_compatible, most_specific_common_shape
from ..variables import Variable

_TENSOR, _VARIABLE, _PYTHON, _OBJECT = "tensor", "variable", "python", "object"
_RAGGED, _SPARSE = "ragged", "sparse"
_SHAPE = "dense shape"     # a SparseTensor's static shape: compared as a tensor's dims, not an input
_LEAF_KINDS = (_VARIABLE, _PYTHON, _OBJECT)


def is_array(x):
    return isinstance(x, (np.ndarray, np.generic))


def as_tensor_leaf(x):
    """NumPy arrays and scalars become tensors, as TensorFlow's placeholders are."""
    return convert_to_tensor(x) if is_array(x) else x


def trace_key(x):
    """The signature of one argument: structure, tensor shapes and dtypes, Python values, and
    the identity of other objects."""
    if isinstance(x, Tensor):
        return (_TENSOR, tuple(x.shape), x.dtype.name)
    if isinstance(x, TensorSpec):
        return (_TENSOR, x._dims, x.dtype.name)
    if isinstance(x, Variable):
        return (_VARIABLE, tuple(x.shape), x.dtype.name)
    if isinstance(x, RaggedTensor):
        return _ragged_key(int(x.nrows()._value), x.ragged_rank,
                           tuple(x.flat_values._value.shape[1:]), x.dtype.name,
                           x.row_splits.dtype.name)
    if isinstance(x, RaggedTensorSpec):
        dims = x.shape.as_list() if x.shape.rank is not None else [None] * (x.ragged_rank + 1)
        return _ragged_key(dims[0], x.ragged_rank, tuple(dims[x.ragged_rank + 1:]), x.dtype.name,
                           x.row_splits_dtype.name)
    if isinstance(x, (SparseTensor, SparseTensorSpec)):
        shape = x.shape
        return _sparse_key(None if shape.rank is None else tuple(shape.as_list()), x.dtype.name)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(trace_key(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, trace_key(v)) for k, v in x.items()))
    if x is None or isinstance(x, (bool, int, float, complex, str, bytes)):
        return (_PYTHON, x)
    return (_OBJECT, id(x))


def _ragged_key(nrows, ragged_rank, inner, dtype, splits_dtype):
    """A RaggedTensor's key, as its components': flat values (any number, ``inner`` dims after
    the first), the outer row splits (``nrows + 1``) and the inner ones (any number)."""
    outer = None if nrows is None else nrows + 1
    splits = [(_TENSOR, (outer,), splits_dtype)] + \
        [(_TENSOR, (None,), splits_dtype)] * (ragged_rank - 1)
    return (_RAGGED, ((_TENSOR, (None,) + inner, dtype), *splits))


def _sparse_key(dims, dtype):
    """A SparseTensor's key: its static shape, then its components' (indices, values, shape)."""
    rank = None if dims is None else len(dims)
    return (_SPARSE, ((_SHAPE, dims, "int64"), (_TENSOR, (None, rank), "int64"),
                      (_TENSOR, (None,), dtype), (_TENSOR, (rank,), "int64")))


def _dims_kind(k):
    return k[0] in (_TENSOR, _SHAPE)


def fits(pattern, key):
    """Whether a call with ``key`` can use the trace made for ``pattern`` (None dims fit any)."""
    if _dims_kind(pattern) and pattern[0] == key[0]:
        return pattern[2] == key[2] and dims_compatible(pattern[1], key[1])
    if pattern[0] != key[0] or len(pattern) != len(key):
        return False
    if pattern[0] in _LEAF_KINDS:
        return pattern == key
    a, b = pattern[1], key[1]
    if len(a) != len(b):
        return False
    if pattern[0] == "dict":
        return all(ka == kb and fits(va, vb) for (ka, va), (kb, vb) in zip(a, b))
    return all(fits(va, vb) for va, vb in zip(a, b))


def relaxed(old, new):
    """``reduce_retracing``: the key that covers both, tensor dimensions that differ made
    ``None``; None where the two differ in anything but tensor shapes."""
    if _dims_kind(old) and old[0] == new[0]:
        if old[2] != new[2]:
            return None
        shape = most_specific_common_shape(old[1], new[1])
        return (old[0], None if shape.rank is None else tuple(shape), new[2])
    if old[0] != new[0] or old[0] in _LEAF_KINDS:
        return new if old == new else None
    a, b = old[1], new[1]
    if len(a) != len(b):
        return None
    if old[0] == "dict":
        if [k for k, _ in a] != [k for k, _ in b]:
            return None
        parts = [(k, relaxed(va, vb)) for (k, va), (_, vb) in zip(a, b)]
        return None if any(p is None for _, p in parts) else (old[0], tuple(parts))
    parts = [relaxed(va, vb) for va, vb in zip(a, b)]
    return None if any(p is None for p in parts) else (old[0], tuple(parts))


def tensor_dims(key, kind=_TENSOR):
    """The dims of each tensor in ``key``, in the order ``map_leaves`` visits them (with
    ``kind="dense shape"``: each SparseTensor's static shape instead)."""
    out = []
    stack = [key]
    while stack:
        k = stack.pop()
        if k[0] in (_TENSOR, _SHAPE):
            if k[0] == kind:
                out.append(k[1])
        elif k[0] == "dict":
            stack.extend(v for _, v in reversed(k[1]))
        elif k[0] not in _LEAF_KINDS:
            stack.extend(reversed(k[1]))
    return out


class RaggedParts(tuple):
    """A RaggedTensor's components once mapped to something other than tensors (specs, a graph's
    output slots); mapped back to tensors, they make a RaggedTensor again."""
    __slots__ = ()


    def __repr__(self):
        """As TensorFlow prints a RaggedTensor of graph tensors: ``tf.RaggedTensor(values=...,
        row_splits=...)``, nested once per ragged axis."""
        return ragged_graph_text(self[0], self[1:])

    __str__ = __repr__


def ragged_graph_text(flat_values, nested_row_splits):
    if not nested_row_splits:
        return str(flat_values)
    inner = ragged_graph_text(flat_values, nested_row_splits[1:])
    return f"tf.RaggedTensor(values={inner}, row_splits={nested_row_splits[0]!s})"


class SparseParts(tuple):
    """A SparseTensor's components (indices, values, dense shape) mapped to something other than
    tensors; printed as TensorFlow prints a SparseTensor of graph tensors."""
    __slots__ = ()

    def __repr__(self):
        return f"SparseTensor(indices={self[0]!s}, values={self[1]!s}, dense_shape={self[2]!s})"

    __str__ = __repr__


def _assemble(parts):
    if all(isinstance(p, Tensor) for p in parts):
        return RaggedTensor._from_components(parts[0], parts[1:])
    return RaggedParts(parts)


def _assemble_sparse(parts):
    if all(isinstance(p, Tensor) for p in parts):
        return SparseTensor._from_components(*parts)
    return SparseParts(parts)


def map_leaves(fn, x):
    """``fn`` applied to every leaf of ``x`` (lists, tuples, namedtuples, dicts in their order;
    a RaggedTensor's components)."""
    if isinstance(x, RaggedTensor):
        return _assemble([map_leaves(fn, c) for c in (x.flat_values, *x.nested_row_splits)])
    if isinstance(x, RaggedParts):
        return _assemble([map_leaves(fn, c) for c in x])
    if isinstance(x, SparseTensor):
        return _assemble_sparse([map_leaves(fn, c) for c in (x.indices, x.values, x.dense_shape)])
    if isinstance(x, SparseParts):
        return _assemble_sparse([map_leaves(fn, c) for c in x])
    if isinstance(x, dict):
        return type(x)((k, map_leaves(fn, v)) for k, v in x.items())
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*[map_leaves(fn, v) for v in x])
    if isinstance(x, (list, tuple)):
        return type(x)(map_leaves(fn, v) for v in x)
    return fn(x)


def zip_leaves(fn, value, template):
    """``fn(leaf, template_leaf)`` for each leaf of ``value``, walked as ``template`` is."""
    if isinstance(template, dict):
        return {k: zip_leaves(fn, value[k], template[k]) for k in template}
    if isinstance(template, (list, tuple)):
        return type(value)(zip_leaves(fn, v, t) for v, t in zip(value, template))
    return fn(value, template)


def common_dims(a, b):
    """The dims two traces agree on; ``None`` where they differ."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def flat_inputs(values):
    """The tensor and variable leaves of a call's argument values, in ``map_leaves`` order."""
    out = []

    def visit(leaf):
        if isinstance(leaf, (Tensor, Variable)):
            out.append(leaf)
        return leaf
    for v in values:
        map_leaves(visit, v)
    return out


def open_inputs(key, flat):
    """For each of a call's flat inputs (``flat_inputs``), whether the trace ``key`` leaves a
    dimension of it unknown (an ``input_signature``'s ``None``, or a relaxed retrace)."""
    dims = iter(tensor_dims(key))
    return [isinstance(x, Tensor) and _open(next(dims, ())) for x in flat]


def _open(dims):
    return dims is None or None in dims


def input_shapes(flat):
    """The concrete shapes of a call's inputs: a recorded graph serves calls of these alone
    (shapes a Python body read while tracing are constants in its graph)."""
    return tuple([x._value.shape for x in flat])
