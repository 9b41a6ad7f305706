"""Datasets made from values: ``from_tensor_slices``, ``from_tensors``, ``range``,
``from_generator`` and ``counter``."""
import itertools

from ..backend import xp as np
from .. import dtypes
from ..errors import InvalidArgumentError
from ..tensor import convert_to_tensor, wrap
from ..tensor_spec import TensorSpec
from . import structure
from .dataset import DatasetV2, UNKNOWN, implementations


def as_int(value, what=None):
    """A Python int from an int, NumPy integer or int64 tensor, with TF's errors otherwise
    (a float, or a tensor of another dtype: TF converts these arguments to int64 tensors, and
    names the argument ``what`` when a tensor has another dtype)."""
    try:
        return int(convert_to_tensor(value, dtype=dtypes.int64).numpy())
    except ValueError as e:
        if what is None:
            raise
        raise ValueError(f"{what}: {e}") from None


class _TensorSliceDataset(DatasetV2):
    """``Dataset.from_tensor_slices``: one element per row of the given tensors."""

    def __init__(self, tensors):
        if tensors is None or (isinstance(tensors, (tuple, dict)) and not structure.flatten(
                tensors)):
            raise ValueError("Invalid `element`. `element` should not be empty.")
        self._structure = structure.normalize(tensors)
        leaves = structure.flatten(self._structure)
        rows = None
        for t in leaves:
            _check_sliceable(t)
            if rows is not None and structure.leading_size(t) != rows:
                raise ValueError(f"Dimensions {rows} and {structure.leading_size(t)} are not "
                                 f"compatible")
            rows = structure.leading_size(t)
        self._rows = rows
        self._cardinality = rows
        self._spec = structure.pack(self._structure, [
            structure.spec_like(structure.leaf_spec(t), t.shape[1:]) for t in leaves])
        # sparse leaves are cut into their rows once; dense ones are sliced as they are read
        self._sparse = any(structure.is_sparse(t) for t in leaves)
        self._arrays = [structure.sparse_rows(t) if structure.is_sparse(t) else t._value
                        for t in leaves]

    def _elements(self):
        arrays = self._arrays
        if self._sparse:
            pack = structure.packer(self._structure)
            for i in range(self._rows):
                yield pack([a[i] if isinstance(a, list) else wrap(a[i, ...]) for a in arrays])
            return
        if len(arrays) == 1 and not isinstance(self._structure, (tuple, dict)):
            (a,) = arrays
            for i in range(self._rows):
                yield wrap(a[i, ...])
            return
        pack = structure.packer(self._structure)
        for i in range(self._rows):
            yield pack([wrap(a[i, ...]) for a in arrays])

    def _batches(self, size, drop_remainder):
        """Batches cut straight from the arrays (``batch`` right after the slices)."""
        pack = structure.packer(self._structure)
        stop = self._rows - self._rows % size if drop_remainder else self._rows
        for i in range(0, stop, size):
            yield pack([wrap(a[i:i + size]) for a in self._arrays])

    def _batches_at(self, positions, size, drop_remainder):
        """Batches of the rows at ``positions`` (an iterator of row numbers), in that order
        (``shuffle`` then ``batch`` right after the slices)."""
        pack = structure.packer(self._structure)
        while True:
            rows = list(itertools.islice(positions, size))
            if not rows or (drop_remainder and len(rows) < size):
                return
            index = np.array(rows)
            yield pack([wrap(a[index]) for a in self._arrays])


def _check_sliceable(t):
    """TensorFlow's errors for a leaf that has no rows to slice (a scalar; a sparse vector,
    whose rows would be sparse scalars)."""
    if not structure.is_sparse(t):
        if t._value.ndim == 0:
            raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        return
    rank = len(t.dense_shape._value)
    if rank == 0:
        raise ValueError(f"Unbatching a sparse tensor is only supported for rank >= 1. "
                         f"Obtained input: {t}.")
    if rank == 1:
        raise InvalidArgumentError(f"Rank of input SparseTensor should be > 1, but saw rank: "
                                   f"{rank} [Op:SerializeManySparse]")


class _TensorDataset(DatasetV2):
    """``Dataset.from_tensors``: a single element."""

    _cardinality = 1

    def __init__(self, tensors):
        if isinstance(tensors, (tuple, dict)) and not structure.flatten(tensors):
            raise InvalidArgumentError("A dataset element must have at least one component; "
                                       "got an empty structure.")
        self._element = structure.normalize(tensors)
        self._spec = structure.spec_of(self._element)

    def _elements(self):
        yield self._element


class _RangeDataset(DatasetV2):
    """``Dataset.range``: ``start, start + step, ...`` below ``stop`` (above, for a negative
    step)."""

    def __init__(self, args, output_type=dtypes.int64):
        if not 1 <= len(args) <= 3:
            raise ValueError("Invalid `args`. The length of `args` should be between 1 and 3 "
                             f"but was {len(args)}.")
        values = [as_int(a) for a in args]
        start, stop, step = (0, values[0], 1) if len(values) == 1 else (
            values + [1] if len(values) == 2 else values)
        if step == 0:
            raise InvalidArgumentError("step must be a non-zero integer.")
        self._start, self._stop, self._step = start, stop, step
        self._dtype = dtypes.as_dtype(output_type)
        self._spec = TensorSpec((), self._dtype)
        span = (stop - start + step - (1 if step > 0 else -1)) // step
        self._cardinality = max(0, span)

    def _elements(self):
        npd = self._dtype._np
        value, stop, step = self._start, self._stop, self._step
        while (value < stop) if step > 0 else (value > stop):
            yield wrap(np.array(value, npd))
            value += step


class _GeneratorDataset(DatasetV2):
    """The elements a Python generator yields, converted to the declared signature. TF's
    ``from_generator`` builds this as a ``flat_map`` over one element, hence the class name
    ``_FlatMapDataset`` that TF prints."""

    _cardinality = UNKNOWN
    _stateful = True          # an iterator over it cannot be checkpointed

    def __init__(self, generator, args, spec):
        self._generator = generator
        self._args = args
        self._spec = spec

    def _elements(self):
        args = [convert_to_tensor(a).numpy() for a in self._args]
        for value in self._generator(*args):
            yield _conform(value, self._spec)


_GeneratorDataset.__name__ = _GeneratorDataset.__qualname__ = "_FlatMapDataset"


def _conform(value, spec):
    """``value`` (as yielded) converted to the dtypes of ``spec``, its shapes checked."""
    if isinstance(spec, tuple) and isinstance(value, list):
        value = tuple(value)
    if isinstance(spec, dict):
        if not isinstance(value, dict) or sorted(value) != sorted(spec):
            raise TypeError(f"`generator` yielded an element that did not match the expected "
                            f"structure. The expected structure was {spec}, but the yielded "
                            f"element was {value!r}.")
        return {k: _conform(value[k], spec[k]) for k in value}
    if isinstance(spec, tuple):
        if not isinstance(value, tuple) or len(value) != len(spec):
            raise TypeError(f"`generator` yielded an element that did not match the expected "
                            f"structure. The expected structure was {spec}, but the yielded "
                            f"element was {value!r}.")
        return tuple(_conform(v, s) for v, s in zip(value, spec))
    try:
        t = convert_to_tensor(value, dtype=spec.dtype)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"TypeError: `generator` yielded an element that could not be converted to the "
            f"expected type. The expected type was {spec.dtype.name}, but the yielded element "
            f"was {value!r}.") from None
    if not spec.is_compatible_with(t):
        raise InvalidArgumentError(
            f"TypeError: `generator` yielded an element of shape {t.shape} where an element "
            f"of shape {spec.shape} was expected.")
    return t


def from_generator(generator, output_types, output_shapes, args, output_signature):
    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError("The `output_types` and `output_shapes` arguments can only be used "
                            "when `output_signature` is not set.")
        spec = _signature(output_signature)
    elif output_types is None:
        raise TypeError("To specify the output signature you need to provide either the "
                        "`output_signature` argument or the `output_types` argument.")
    else:
        spec = _specs_from_types(output_types, output_shapes)
    return _GeneratorDataset(generator, tuple(args or ()), spec)


def _signature(sig):
    if isinstance(sig, list):
        sig = tuple(sig)
    if isinstance(sig, dict):
        return {k: _signature(v) for k, v in sig.items()}
    if isinstance(sig, tuple):
        return tuple(_signature(s) for s in sig)
    if not isinstance(sig, TensorSpec):
        raise TypeError(f"Invalid `output_signature`: every leaf must be a `tf.TensorSpec`, "
                        f"got {sig!r}.")
    return sig


def _specs_from_types(types, shapes):
    if isinstance(types, (tuple, list, dict)):
        if isinstance(types, dict):
            return {k: _specs_from_types(types[k], None if shapes is None else shapes[k])
                    for k in types}
        return tuple(_specs_from_types(t, None if shapes is None else shapes[i])
                     for i, t in enumerate(types))
    return TensorSpec(shapes, dtypes.as_dtype(types))


def counter(start, step, dtype):
    """``Dataset.counter``: an endless ``scan`` over a repeated element, as TF builds it."""
    start_t = convert_to_tensor(start, dtype=dtype)
    step_t = convert_to_tensor(step, dtype=dtype)
    ones = _TensorDataset(0).repeat()
    return ones.scan(start_t, lambda state, _: (state + step_t, state))


implementations.add(_TensorSliceDataset, _TensorDataset, _RangeDataset, from_generator, counter)
