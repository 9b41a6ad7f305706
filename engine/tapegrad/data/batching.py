"""``batch``, ``padded_batch``, ``unbatch``, ``rebatch`` and ``window``."""
import itertools

from ..backend import xp as np
from .. import dtypes
from ..errors import DataLossError, InvalidArgumentError
from ..tensor import TensorShape, convert_to_tensor, wrap
from ..tensor_spec import TensorSpec
from . import functions, structure
from .dataset import DatasetV2, INFINITE, UNKNOWN, implementations
from .sources import _TensorSliceDataset, as_int
from .transforms import _ShuffleDataset, _UnaryDataset


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _batched_spec(spec, size):
    def one(s):
        if s.shape.rank is None:
            return structure.spec_like(s, None)
        return structure.spec_like(s, TensorShape([size] + list(s.shape)))
    return structure.pack(spec, [one(s) for s in structure.flatten(spec)])


def _batch_cardinality(n, size, drop_remainder):
    if n in (INFINITE, UNKNOWN):
        return n
    return n // size if drop_remainder else -(-n // size)


def _groups(elements, size, drop_remainder):
    group = []
    for element in elements:
        group.append(element)
        if len(group) == size:
            yield group
            group = []
    if group and not drop_remainder:
        yield group


class _BatchDataset(_UnaryDataset):
    """``batch``: ``batch_size`` consecutive elements stacked along a new first dimension."""

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        self._size = as_int(batch_size, "batch_size")
        if self._size <= 0:
            raise InvalidArgumentError("Batch size must be greater than zero.")
        self._drop = bool(drop_remainder)
        self._spec = _batched_spec(input_dataset.element_spec,
                                   self._size if self._drop else None)
        self._cardinality = _batch_cardinality(input_dataset._cardinality, self._size,
                                               self._drop)

    def _elements(self):
        source = self._input
        if any(structure.is_sparse(s) for s in structure.flatten(source.element_spec)):
            return self._stacked()
        if type(source) is _TensorSliceDataset:
            return source._batches(self._size, self._drop)
        if (type(source) is _ShuffleDataset and type(source._input) is _TensorSliceDataset
                and not functions.is_probing()):
            slices = source._input
            return slices._batches_at(source._positions(slices._rows), self._size, self._drop)
        return self._stacked()

    def _stacked(self):
        spec = self._input.element_spec
        flatten, pack = structure.flattener(spec), structure.packer(spec)
        for group in _groups(self._input._elements(), self._size, self._drop):
            yield _stack(group, flatten, pack)


def _stack(group, flatten, pack):
    """One batch: each component of the elements stacked (all must have one shape)."""
    flats = [flatten(e) for e in group]
    columns = []
    for j in range(len(flats[0])):
        if structure.is_sparse(flats[0][j]):
            columns.append(structure.stack_sparse([f[j] for f in flats]))
            continue
        arrays = [f[j]._value for f in flats]
        first = arrays[0].shape
        for i, a in enumerate(arrays[1:], 1):
            if a.shape != first:
                if a.size != arrays[0].size:
                    raise InvalidArgumentError(
                        f"Cannot add tensor to the batch: number of elements does not match. "
                        f"Shapes are: [tensor]: {_shape_text(a.shape)}, [batch]: "
                        f"{_shape_text(first)}")
                raise InvalidArgumentError(
                    f"Cannot batch tensors with different shapes in component {j}. First "
                    f"element had shape {_shape_text(first)} and element {i} had shape "
                    f"{_shape_text(a.shape)}.")
        columns.append(wrap(np.stack(arrays)))
    return pack(columns)


class _PaddedBatchDataset(_UnaryDataset):
    """``padded_batch``: each component padded to ``padded_shapes`` (unknown sizes: to the
    largest in the batch) with ``padding_values``, then stacked."""

    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values,
                 drop_remainder):
        super().__init__(input_dataset)
        self._size = as_int(batch_size, "batch_size")
        if self._size <= 0:
            raise InvalidArgumentError("Batch size must be greater than zero.")
        self._drop = bool(drop_remainder)
        spec = input_dataset.element_spec
        leaves = structure.flatten(spec)
        for s in leaves:
            if not isinstance(s, TensorSpec):
                raise TypeError(f"`padded_batch` is only supported for datasets that produce "
                                f"tensor elements but type spec of elements in the input "
                                f"dataset is not a subclass of TensorSpec: `{s}`.")
        self._shapes = self._padded_shapes(spec, leaves, padded_shapes)
        # Without padded_shapes every dimension pads to the largest in its batch (a spec
        # learned from a probe may be more specific than the elements are).
        self._targets = self._shapes if padded_shapes is not None else [
            [None] * s.rank for s in self._shapes]
        self._values = self._padding_values(spec, leaves, padding_values)
        self._spec = _batched_spec(
            structure.pack(spec, [TensorSpec(shape, s.dtype)
                                  for shape, s in zip(self._shapes, leaves)]),
            self._size if self._drop else None)
        self._cardinality = _batch_cardinality(input_dataset._cardinality, self._size,
                                               self._drop)

    @staticmethod
    def _padded_shapes(spec, leaves, padded_shapes):
        if padded_shapes is None:
            for i, s in enumerate(leaves):
                if s.shape.rank is None:
                    raise ValueError("You must provide `padded_shapes` argument because "
                                     f"component {i} has unknown rank.")
            return [s.shape for s in leaves]
        given = _shape_leaves(spec, padded_shapes)
        shapes = []
        for shape, s in zip(given, leaves):
            padded = TensorSpec(shape).shape
            if s.shape.rank is not None and (
                    padded.rank != s.shape.rank
                    or any(p is not None and d is not None and p != d
                           for p, d in zip(padded, s.shape))):
                raise ValueError(f"The padded shape {padded} is not compatible with the shape "
                                 f"{s.shape} of the corresponding input component.")
            shapes.append(padded)
        return shapes

    @staticmethod
    def _padding_values(spec, leaves, padding_values):
        if padding_values is None:
            given = [None] * len(leaves)
        elif isinstance(spec, (tuple, dict)) and isinstance(padding_values, (tuple, dict)):
            given = structure.flatten(padding_values)
        else:
            given = [padding_values] * len(leaves)
        values = []
        for value, s in zip(given, leaves):
            if value is None:
                values.append(b"" if s.dtype == dtypes.string else s.dtype._np.type(0))
                continue
            t = convert_to_tensor(value, dtype_hint=s.dtype)
            if t.dtype != s.dtype:
                raise TypeError(f"Invalid `padding_values`. `padding_values` values type "
                                f"{t.dtype} does not match type {s.dtype} of the "
                                f"corresponding input component.")
            if t.shape.rank != 0:
                raise ValueError(f"Invalid `padding_values`. `padding_values` values should "
                                 f"be scalars, but got {t.shape}.")
            values.append(t._value[()])
        return values

    def _elements(self):
        for group in _groups(self._input._elements(), self._size, self._drop):
            yield self._pad(group)

    def _pad(self, group):
        flats = [structure.flatten(e) for e in group]
        columns = []
        for j, (shape, fill) in enumerate(zip(self._targets, self._values)):
            arrays = [f[j]._value for f in flats]
            target = [d if d is not None else max(a.shape[k] for a in arrays)
                      for k, d in enumerate(shape)]
            out = np.full([len(arrays)] + target, fill, dtype=arrays[0].dtype)
            for i, a in enumerate(arrays):
                if any(n > t for n, t in zip(a.shape, target)):
                    raise DataLossError("Attempted to pad to a smaller size than the input "
                                        "element.")
                out[(i,) + tuple(slice(0, n) for n in a.shape)] = a
            columns.append(wrap(out))
        return structure.pack(group[0], columns)


def _shape_leaves(spec, shapes):
    """The padded shapes in the order of the spec's leaves (a shape is a list or tuple too,
    so the spec says where the structure ends)."""
    if isinstance(spec, dict):
        if not isinstance(shapes, dict) or sorted(shapes) != sorted(spec):
            raise ValueError(f"The `padded_shapes` {shapes!r} do not match the structure of "
                             f"the elements {spec}.")
        return [x for k in sorted(spec) for x in _shape_leaves(spec[k], shapes[k])]
    if isinstance(spec, tuple):
        if not isinstance(shapes, (tuple, list)) or len(shapes) != len(spec):
            raise ValueError(f"The `padded_shapes` {shapes!r} do not match the structure of "
                             f"the elements {spec}.")
        return [x for s, p in zip(spec, shapes) for x in _shape_leaves(s, p)]
    return [shapes]


class _UnbatchDataset(_UnaryDataset):
    """``unbatch``: each element split along its first dimension."""

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        leaves = structure.flatten(input_dataset.element_spec)
        leading = set()
        for s in leaves:
            if s.shape.rank == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")
            if s.shape.rank is not None and s.shape[0] is not None:
                leading.add(s.shape[0])
        if len(leading) > 1:
            a, b = sorted(leading)[:2]
            raise ValueError("`unbatch()` is only supported for datasets of elements whose "
                             "components have a matching leading dimension. Encountered both "
                             f"{a} and {b}.")
        self._spec = structure.pack(input_dataset.element_spec, [
            structure.spec_like(s, s.shape[1:] if s.shape.rank is not None else None)
            for s in leaves])
        # TensorFlow's count: the input's times a known, non-zero leading dimension; an
        # infinite or unknown input stays so, and anything else is unknown (a zero dimension too)
        n, rows = input_dataset._cardinality, next(iter(leading), 0)
        self._cardinality = n if n in (INFINITE, UNKNOWN) else n * rows if rows else UNKNOWN

    def _elements(self):
        for element in self._input._elements():
            leaves = structure.flatten(element)
            rows = structure.leading_size(leaves[0])
            for j, t in enumerate(leaves):
                if structure.leading_size(t) != rows:
                    raise InvalidArgumentError(
                        f"Input element must have the same batch size in each component. "
                        f"Component 0 had size {rows} but component {j} had size "
                        f"{structure.leading_size(t)}.")
            if not any(structure.is_sparse(t) for t in leaves):
                arrays = [t._value for t in leaves]
                for i in range(rows):
                    yield structure.pack(element, [wrap(a[i, ...]) for a in arrays])
                continue
            columns = [structure.leaf_rows(t) for t in leaves]
            for i in range(rows):
                yield structure.pack(element, [c[i] for c in columns])


class _RebatchDataset(_UnaryDataset):
    """``rebatch``: the elements of the batches cut again into batches of ``batch_size`` (a
    list of sizes is used in turn)."""

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        if any(s.shape.rank == 0 for s in structure.flatten(input_dataset.element_spec)):
            raise ValueError("Invalid `batch_sizes`. Expected dataset with rank of >= 1 but "
                             "found a dataset with scalar elements. Fix the issue by adding "
                             "the `batch` transformation to the dataset.")
        sizes = batch_size.numpy().tolist() if hasattr(batch_size, "numpy") else batch_size
        self._sizes = [as_int(s, "batch_size") for s in (
            sizes if isinstance(sizes, (list, tuple)) else [sizes])]
        if not self._sizes or any(s <= 0 for s in self._sizes):
            raise InvalidArgumentError("Batch sizes must be greater than zero.")
        self._drop = bool(drop_remainder)
        self._rows = _UnbatchDataset(input_dataset)
        fixed = self._sizes[0] if self._drop and len(set(self._sizes)) == 1 else None
        self._spec = _batched_spec(self._rows.element_spec, fixed)
        self._cardinality = UNKNOWN

    def _elements(self):
        spec = self._rows.element_spec
        flatten, pack = structure.flattener(spec), structure.packer(spec)
        sizes = itertools.cycle(self._sizes)
        size, group = next(sizes), []
        for element in self._rows._elements():
            group.append(element)
            if len(group) == size:
                yield _stack(group, flatten, pack)
                size, group = next(sizes), []
        if group and not self._drop:
            yield _stack(group, flatten, pack)


class DatasetSpec:
    """The spec of a dataset-valued component (a window): its ``element_spec`` and shape."""

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self._shape = TensorShape(dataset_shape)

    @property
    def shape(self):
        return self._shape

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and self.element_spec == other.element_spec
                and self._shape == other._shape)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"DatasetSpec({self.element_spec}, {self._shape!r})"


class _VariantDataset(DatasetV2):
    """A dataset over a list of elements already made (one component of a window)."""

    def __init__(self, elements, spec):
        self._items = elements
        self._spec = spec
        self._cardinality = len(elements)

    def _elements(self):
        return iter(self._items)


class _WindowDataset(_UnaryDataset):
    """``window``: datasets of ``size`` elements, ``stride`` apart, starting every ``shift``
    elements."""

    def __init__(self, input_dataset, size, shift, stride, drop_remainder):
        super().__init__(input_dataset)
        self._size = as_int(size, "size")
        self._shift = self._size if shift is None else as_int(shift, "shift")
        self._stride = as_int(stride, "stride")
        for name, v in (("size", self._size), ("shift", self._shift),
                        ("stride", self._stride)):
            if v <= 0:
                raise InvalidArgumentError(f"Window {name} must be greater than zero, but "
                                           f"got {v}.")
        self._drop = bool(drop_remainder)
        spec = input_dataset.element_spec
        self._component_specs = structure.flatten(spec)
        self._spec = structure.pack(spec, [DatasetSpec(s) for s in self._component_specs])
        n = input_dataset._cardinality
        if n in (INFINITE, UNKNOWN):
            self._cardinality = n
        elif self._drop:
            span = (self._size - 1) * self._stride + 1
            self._cardinality = 0 if n < span else (n - span) // self._shift + 1
        else:
            self._cardinality = -(-n // self._shift)

    def _elements(self):
        size, shift, stride = self._size, self._shift, self._stride
        source = self._input._elements()
        buffer, base, start, exhausted = [], 0, 0, False
        while True:
            needed = start + (size - 1) * stride + 1
            while not exhausted and base + len(buffer) < needed:
                try:
                    buffer.append(next(source))
                except StopIteration:
                    exhausted = True
            available = base + len(buffer)
            if available <= start:
                return
            picked = [buffer[i - base] for i in range(start, needed, stride) if i < available]
            if len(picked) < size and self._drop:
                return
            yield self._window(picked)
            start += shift
            drop = min(start - base, len(buffer))
            del buffer[:drop]
            base += drop

    def _window(self, elements):
        columns = list(zip(*[structure.flatten(e) for e in elements]))
        return structure.pack(elements[0], [
            _VariantDataset(list(col), s) for col, s in zip(columns, self._component_specs)])


implementations.add(_BatchDataset, _PaddedBatchDataset, _UnbatchDataset, _RebatchDataset,
                    _WindowDataset)
