"""Composite tensors (RaggedTensor, SparseTensor) in concrete functions: the spec a trace shows
for each, the example value a spec is traced with, and the spec of a traced result."""
from ..backend import xp as np
from ..ops.ragged_array_ops import RaggedTensorSpec
from ..ops.ragged_ops import RaggedTensor
from ..ops.sparse_array_ops import SparseTensorSpec
from ..ops.sparse_ops import SparseTensor
from ..tensor import Tensor, convert_to_tensor
from .keys import RaggedParts, SparseParts

COMPOSITES = (RaggedTensor, RaggedTensorSpec, SparseTensor, SparseTensorSpec)
COMPOSITE_SPECS = (RaggedTensorSpec, SparseTensorSpec)
SPARSE = (SparseTensor, SparseTensorSpec)


def map_structure(fn, x):
    """``fn`` applied to each leaf of ``x``'s lists, tuples and dicts; composites are leaves."""
    if isinstance(x, dict):
        return type(x)((k, map_structure(fn, v)) for k, v in x.items())
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*[map_structure(fn, v) for v in x])
    if isinstance(x, (list, tuple)) and not isinstance(x, (RaggedParts, SparseParts)):
        return type(x)(map_structure(fn, v) for v in x)
    return fn(x)


def component_count(x):
    """How many component tensors a composite (or its spec) has."""
    if isinstance(x, (RaggedTensor, RaggedTensorSpec)):
        return 1 + x.ragged_rank
    return 3


def spec_from_dims(x, dims, sparse_shape):
    """The spec of composite ``x`` (a value or a spec) with its components' trace dims (and for
    a SparseTensor, the trace's static shape)."""
    if isinstance(x, (SparseTensor, SparseTensorSpec)):
        return SparseTensorSpec(sparse_shape, x.dtype)
    return ragged_spec(dims[0], dims[1], dims[2:], x.dtype, x.row_splits_dtype
                       if isinstance(x, RaggedTensorSpec) else x.row_splits.dtype)


def ragged_spec(flat_dims, outer_dims, inner_splits, dtype, splits_dtype="int64"):
    """A RaggedTensorSpec from its components' dims: rows from the outer splits' length."""
    outer = None if outer_dims is None else outer_dims[0]
    nrows = None if outer is None else outer - 1
    inner = [None] if flat_dims is None else list(flat_dims[1:])
    return RaggedTensorSpec([nrows] + [None] * (1 + len(inner_splits)) + inner, dtype,
                            1 + len(inner_splits), splits_dtype)


def example(spec, unknown_size, sparse_shape_open=False):
    """A value of ``spec`` to trace with: one entry per row on each ragged axis (up to
    ``unknown_size`` entries in a SparseTensor), unknown dimensions of size ``unknown_size``
    (with ``sparse_shape_open``, a SparseTensor's known ones made ``unknown_size - 1`` larger)."""
    grow = unknown_size - 1 if sparse_shape_open and isinstance(spec, SparseTensorSpec) else 0
    dims = [unknown_size if d is None else d + grow for d in
            (spec.shape.as_list() if spec.shape.rank is not None else [None])]
    if isinstance(spec, SparseTensorSpec):
        return _sparse_example(dims, spec.dtype, unknown_size)
    nrows, rank = dims[0], spec.ragged_rank
    flat = np.zeros([nrows] + dims[rank + 1:], dtype=spec.dtype.as_numpy_dtype)
    splits = [convert_to_tensor(np.arange(nrows + 1, dtype=spec.row_splits_dtype.as_numpy_dtype))
              for _ in range(rank)]
    return RaggedTensor._from_components(convert_to_tensor(flat), splits)


def _sparse_example(dims, dtype, entries):
    """A SparseTensor of shape ``dims`` with ``entries`` zero entries (fewer if it has fewer
    positions), at its first positions in row-major order."""
    count = min(entries, int(np.prod(dims)))
    indices = np.stack(np.unravel_index(np.arange(count), dims), axis=-1) if dims else \
        np.zeros((count, 0))
    return SparseTensor._from_components(
        convert_to_tensor(np.asarray(indices, dtype=np.int64).reshape(count, len(dims))),
        convert_to_tensor(np.zeros((count,), dtype=dtype.as_numpy_dtype)),
        convert_to_tensor(np.asarray(dims, dtype=np.int64)))


def value_spec(x):
    """A composite value's spec (a spec as it is)."""
    if isinstance(x, RaggedTensor):
        return RaggedTensorSpec.from_value(x)
    if isinstance(x, SparseTensor):
        return SparseTensorSpec.from_value(x)
    return x


def output_spec(x, tensor_spec):
    """The spec of a traced result's leaf (components as ``GraphTensorView``s or tensors)."""
    if isinstance(x, RaggedParts):
        dims = [tensor_spec(p)._dims for p in x]
        return ragged_spec(dims[0], dims[1], dims[2:], x[0].dtype, x[1].dtype)
    if isinstance(x, SparseParts):
        # a graph's dense shape is a tensor: its rank is known, not its values
        rank = tensor_spec(x[2])._dims
        return SparseTensorSpec(None if rank is None or rank[0] is None else [None] * rank[0],
                                x[1].dtype)
    if isinstance(x, Tensor) or hasattr(x, "_dims"):
        return tensor_spec(x)
    return x
