"""``tf.io.parse_example``, ``parse_single_example``, ``parse_sequence_example`` and
``parse_single_sequence_example``: serialized ``tf.train.Example`` and ``SequenceExample``
protos read into tensors as the feature configurations say.

- ``FixedLenFeature(shape, dtype, default_value)``: a dense tensor of ``shape`` per example (the
  default where the feature is missing; without one a missing feature is an error).
- ``VarLenFeature(dtype)``: a ``SparseTensor`` of the values, one row per example.
- ``RaggedFeature(dtype, value_key, partitions)``: a ``RaggedTensor`` (a plain tensor for one
  example without partitions), the values split by each partition, outermost first.
- ``SparseFeature(index_key, value_key, dtype, size)``: a ``SparseTensor`` of ``size`` with
  the values of ``value_key`` at the indices of ``index_key`` (sorted unless
  ``already_sorted``; indices are not checked against ``size``, as in TensorFlow).
- ``FixedLenSequenceFeature(shape, dtype, allow_missing, default_value)``: in an ``Example``,
  any number of ``shape`` blocks per example (padded to the longest); in a
  ``SequenceExample``'s feature lists, one block per step.

Each example is parsed eagerly, so they work on string tensors and inside ``Dataset.map``.
``row_splits_dtype`` is accepted, but tapegrad's ragged tensors keep their row splits as int64.

>>> import tapegrad as tf
>>> feature = tf.train.Feature(int64_list=tf.train.Int64List(value=[4, 5]))
>>> data = tf.train.Example(features=tf.train.Features(feature={"x": feature}))
>>> parsed = tf.io.parse_single_example(data.SerializeToString(),
...                                     {"x": tf.io.FixedLenFeature([2], tf.int64)})
>>> parsed["x"].numpy().tolist()
[4, 5]
"""
import collections

from .. import dtypes, errors
from ..backend import xp
from ..ops.ragged_ops import RaggedTensor
from ..ops.sparse_ops import SparseTensor
from ..tensor import convert_to_tensor, wrap
from .messages import DecodeError, Example, SequenceExample


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of ``shape`` values in every example (``default_value`` where missing)."""
    __slots__ = ()

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """Any number of ``shape`` blocks of values per example or sequence."""
    __slots__ = ()

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """Any number of values per example, read as a ``SparseTensor``."""
    __slots__ = ()


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """Values placed at the indices other features hold: a ``SparseTensor`` of ``size`` (a
    list of sizes and of index keys for more dimensions) per example."""
    __slots__ = ()

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


def _partition(name, fields):
    return type(name, (collections.namedtuple(name, fields),), {"__slots__": ()})


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """Values read as a ``RaggedTensor``, split by ``partitions`` (outermost first)."""
    __slots__ = ()
    RowSplits = _partition("RowSplits", ["key"])
    RowLengths = _partition("RowLengths", ["key"])
    RowStarts = _partition("RowStarts", ["key"])
    RowLimits = _partition("RowLimits", ["key"])
    ValueRowIds = _partition("ValueRowIds", ["key"])
    UniformRowLength = _partition("UniformRowLength", ["length"])

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        return super().__new__(cls, dtypes.as_dtype(dtype), value_key, tuple(partitions),
                               dtypes.as_dtype(row_splits_dtype), validate)


_KINDS = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_TYPE_NAMES = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}
_FEATURE_TYPES = (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, RaggedFeature,
                  SparseFeature)


# -- checking the configuration -------------------------------------------------------------
def _check_dtype(dtype):
    d = dtypes.as_dtype(dtype)
    if d.name not in _KINDS:
        shown = {"float64": "double"}.get(d.name, d.name)
        raise errors.InvalidArgumentError(f"Value for attr 'Tdense' of {shown} is not in the "
                                          f"list of allowed values: float, int64, string")
    return d


def _check_features(features, allowed):
    """The configuration, each feature of a type in ``allowed``, checked as TensorFlow does."""
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    for key, feature in features.items():
        if not isinstance(feature, allowed):
            raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}'")
        if isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)) \
                and feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        if isinstance(feature, SparseFeature):
            _check_sparse_feature(feature)
        _check_dtype(feature.dtype)
    ragged = sorted({f.value_key or k for k, f in features.items()
                     if isinstance(f, RaggedFeature)})
    sparse = sorted(k for k, f in features.items() if isinstance(f, VarLenFeature))
    both = set(ragged) & set(sparse)
    if both:
        raise ValueError(f"Ragged and sparse keys must not intersect; ragged_keys: {ragged}, "
                         f"sparse_keys: {sparse}, intersection: {both}")
    return features


def _check_sparse_feature(feature):
    for field in ("index_key", "value_key"):
        if not getattr(feature, field):
            raise ValueError(f"Missing {field} for SparseFeature {feature}.")
    if feature.size is None:
        raise TypeError("vocab_size has to be a Tensor or Python int. Found <class "
                        "'NoneType'>")


def _shape(feature):
    return tuple(int(d) for d in feature.shape)


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _array(values, dtype, shape=None):
    d = dtypes.as_dtype(dtype)
    arr = xp.array(values, dtype=object if d == dtypes.string else d._np)
    if shape is not None:
        arr = arr.reshape(shape)
    return arr


def _tensor(arr, dtype):
    if dtypes.as_dtype(dtype) == dtypes.string:
        return convert_to_tensor(arr, dtype=dtypes.string)
    return wrap(arr)


def _default(feature):
    """The default value as a flat list of ``shape``'s size, or ``None``."""
    if feature.default_value is None:
        return None
    shape = _shape(feature)
    flat = _array(convert_to_tensor(feature.default_value, dtype=feature.dtype)._value,
                  feature.dtype).reshape(-1)
    if flat.size != _size(shape):
        raise errors.InvalidArgumentError(f"Input to reshape is a tensor with {flat.size} "
                                          f"values, but the requested shape has {_size(shape)}")
    return flat.tolist()


def _zero(dtype):
    return b"" if dtypes.as_dtype(dtype) == dtypes.string else 0


# -- reading one example's features ---------------------------------------------------------
def _feature_values(feature_map, key, dtype, style, index=0):
    """The values of feature ``key`` as a list (``None`` if missing or empty of any kind),
    their kind checked against ``dtype``. ``style`` picks the message TensorFlow gives for a
    wrong kind: "dense" (FixedLenFeature), "sparse" (the others), "context" (a
    SequenceExample's context) or "list" (its feature lists, ``index`` the step)."""
    f = dict.get(feature_map, key)
    kind = None if f is None else f.WhichOneof("kind")
    if kind is None:
        return None
    want = _KINDS[dtypes.as_dtype(dtype).name]
    if kind != want:
        have, expected = _TYPE_NAMES[kind], _TYPE_NAMES[want]
        raise errors.InvalidArgumentError({
            "dense": f"Key: {key}.  Data types don't match. Data type: {have} but expected "
                     f"type: {expected}",
            "sparse": f"Key: {key}.  Data types don't match. Expected type: {expected}, "
                      f"Actual type: {have}",
            "context": f"Name: <unknown>, Context feature: {key}.  Data types don't match. "
                       f"Expected type: {expected}",
            "list": f"Name: <unknown>, Feature list: {key}, Index: {index}.  Data types don't "
                    f"match. Expected type: {expected}"}[style])
    return list(getattr(f, kind).value)


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _fixed(feature_map, key, feature, default, batch, index, context):
    values = _feature_values(feature_map, key, feature.dtype, "context" if context else "dense")
    shape = _shape(feature)
    if context and (values is None and default is None or
                    values is not None and len(values) != _size(shape)):
        raise errors.InvalidArgumentError(
            f"Inconsistent max number of elements for feature {key}: expected {_size(shape)}, "
            f"but found {len(values or ())}")
    if values is None:
        if default is None:
            name = _TYPE_NAMES[_KINDS[dtypes.as_dtype(feature.dtype).name]]
            raise errors.InvalidArgumentError(
                f"{'Name: <unknown>, ' if batch else ''}Feature: {key} (data type: {name}) is "
                f"required but could not be found.")
        return default
    if len(values) != _size(shape):
        kind = _KINDS[dtypes.as_dtype(feature.dtype).name]
        if not batch:
            raise errors.InvalidArgumentError(f"Key: {key}.  Can't parse serialized Example: "
                                              f"Some {kind} slice was not parsed.")
        raise errors.InvalidArgumentError(
            f"Name: <unknown>, Key: {key}, Index: {index}.  Number of "
            f"{_TYPE_NAMES[kind].replace('string', 'bytes')} values != expected.  Values size: "
            f"{len(values)} but output shape: {_shape_text(shape)}")
    return values


def _blocks(values, key, feature, batch, index):
    """``values`` cut into blocks of the feature's shape (FixedLenSequenceFeature)."""
    stride = _size(_shape(feature))
    values = values or []
    if stride and len(values) % stride:
        kind = _TYPE_NAMES[_KINDS[dtypes.as_dtype(feature.dtype).name]]
        if batch:
            raise errors.InvalidArgumentError(
                f"Name: <unknown>, Key: {key}, Index: {index}.  Number of {kind} values is not a "
                f"multiple of stride length. Saw {len(values)} values but output shape is: "
                f"{_shape_text(('?',) + _shape(feature))}")
        raise errors.InvalidArgumentError(
            f"Error while parsing feature with key {key}: number of elements should be "
            f"divisible by {stride}, found {len(values)} instead")
    return [values[i:i + stride] for i in range(0, len(values), stride)] if stride else []


def _padded(rows, feature, inner_shape):
    """Per-example lists of blocks as one array, padded with the default to the longest."""
    longest = max((len(r) for r in rows), default=0)
    fill = _default(feature) if feature.default_value is not None else \
        [_zero(feature.dtype)] * _size(inner_shape)
    flat = [v for r in rows for block in r + [fill] * (longest - len(r)) for v in block]
    return _array(flat, feature.dtype, (len(rows), longest) + inner_shape)


def _sparse(rows, dtype, batch):
    """Per-example lists of values as a SparseTensor (one row each; ``batch=False``: the only
    example's values as a vector)."""
    if not batch:
        values = rows[0]
        return SparseTensor(_array([[i] for i in range(len(values))], dtypes.int64, (-1, 1)),
                            _tensor(_array(values, dtype), dtype), [len(values)])
    indices = [[b, i] for b, r in enumerate(rows) for i in range(len(r))]
    values = [v for r in rows for v in r]
    longest = max((len(r) for r in rows), default=0)
    return SparseTensor(_array(indices, dtypes.int64, (-1, 2)),
                        _tensor(_array(values, dtype), dtype), [len(rows), longest])


def _partition_lengths(partition, feature_map, inner):
    """One partition of one example as ("uniform", length) or ("lengths", row lengths);
    ``inner``: the number of rows (or values) it splits."""
    if isinstance(partition, RaggedFeature.UniformRowLength):
        size = int(partition.length)
        if size and inner % size:
            raise errors.InvalidArgumentError(
                f"Input to reshape is a tensor with {inner} values, but the requested shape "
                f"requires a multiple of {size}")
        return ("uniform", size), (inner // size if size else 0)
    got = [int(v) for v in _feature_values(feature_map, partition.key, dtypes.int64, "sparse")
           or []]
    if isinstance(partition, RaggedFeature.RowLengths):
        lengths = got
    elif isinstance(partition, RaggedFeature.RowSplits):
        lengths = [b - a for a, b in zip(got, got[1:])]
    elif isinstance(partition, RaggedFeature.RowStarts):
        lengths = [b - a for a, b in zip(got, got[1:] + [inner])]
    elif isinstance(partition, RaggedFeature.RowLimits):
        lengths = [b - a for a, b in zip([0] + got, got)]
    else:                                   # ValueRowIds
        lengths = [0] * (max(got) + 1 if got else 0)
        for i in got:
            lengths[i] += 1
    return ("lengths", lengths), len(lengths)


def _ragged_parts(feature_map, key, feature, style):
    """One example's values, its partitions (outermost first) and its number of rows."""
    values = _feature_values(feature_map, feature.value_key or key, feature.dtype, style) or []
    levels, rows = [], len(values)
    for partition in reversed(feature.partitions):
        level, rows = _partition_lengths(partition, feature_map, rows)
        levels.insert(0, level)
    return values, levels, rows


def _ragged(parts, feature, batch):
    """Per-example (values, partitions, rows) as one RaggedTensor (one row per example), or
    for a single example its values split by its partitions."""
    values = _array([v for p in parts for v in p[0]], feature.dtype)
    if not batch and not feature.partitions:
        return _tensor(values, feature.dtype)
    if not batch and all(isinstance(p, RaggedFeature.UniformRowLength)
                         for p in feature.partitions):
        sizes = [int(p.length) for p in feature.partitions]
        return _tensor(values.reshape([-1] + sizes), feature.dtype)
    out = _tensor(values, feature.dtype)
    for depth in reversed(range(len(feature.partitions))):
        kinds = [p[1][depth] for p in parts]
        if kinds[0][0] == "uniform":
            out = RaggedTensor.from_uniform_row_length(out, kinds[0][1], validate=False)
        else:
            out = RaggedTensor.from_row_lengths(out, [n for k in kinds for n in k[1]],
                                                validate=False)
    if batch:
        out = RaggedTensor.from_row_lengths(out, [p[2] for p in parts], validate=False)
    return out


# -- Example ---------------------------------------------------------------------------------
def _records(serialized, cls):
    """The messages of a scalar or vector of serialized protos, and whether it was a vector."""
    data = convert_to_tensor(serialized, dtype=dtypes.string)._value
    if data.ndim > 1:
        raise errors.InvalidArgumentError(f"Expected serialized to be a scalar or vector, got "
                                          f"shape: {_shape_text(data.shape)}")
    batch = data.ndim == 1
    out = []
    for record in data.reshape(-1).tolist():
        record = record if isinstance(record, bytes) else str(record).encode()
        try:
            out.append(cls.FromString(record))
        except DecodeError:
            shown = record.decode("utf-8", "replace")
            raise errors.InvalidArgumentError(f"Could not parse example input, value: "
                                              f"'{shown}'") from None
    return out, batch


def _read_features(maps, features, batch, context=False):
    """Each feature of ``features`` read from the examples' feature maps (``context``: those of
    SequenceExamples), in TensorFlow's order: sparse, dense, then ragged, each by key."""
    out = {}
    lead = (len(maps),) if batch else ()
    style = "context" if context else "sparse"
    for key, f in _in_output_order(features):
        if isinstance(f, FixedLenFeature):
            default = _default(f)
            rows = [_fixed(m, key, f, default, batch, i, context) for i, m in enumerate(maps)]
            out[key] = _tensor(_array([v for r in rows for v in r], f.dtype,
                                      lead + _shape(f)), f.dtype)
        elif isinstance(f, FixedLenSequenceFeature):
            rows = [_blocks(_feature_values(m, key, f.dtype, style), key, f, batch, i)
                    for i, m in enumerate(maps)]
            arr = _padded(rows, f, _shape(f))
            out[key] = _tensor(arr if batch else arr[0], f.dtype)
        elif isinstance(f, VarLenFeature):
            rows = [_feature_values(m, key, f.dtype, style) or [] for m in maps]
            out[key] = _sparse(rows, f.dtype, batch)
        elif isinstance(f, SparseFeature):
            out[key] = _sparse_feature(maps, f, batch)
        else:
            out[key] = _ragged([_ragged_parts(m, key, f, style) for m in maps], f, batch)
    return out


def _in_output_order(features):
    def rank(item):
        f = item[1]
        return (0 if isinstance(f, VarLenFeature) else 1 if isinstance(f, SparseFeature)
                else 3 if isinstance(f, RaggedFeature) else 2), item[0]
    return sorted(features.items(), key=rank)


def _example_features(features):
    _check_features(features, _FEATURE_TYPES)
    for f in features.values():
        if isinstance(f, FixedLenSequenceFeature) and not f.allow_missing:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to "
                             "be True.")
    return features


def parse_example(serialized, features, example_names=None, name=None):
    """A dict of tensors (one row per example) read from a vector of serialized
    ``tf.train.Example`` protos, each feature as its configuration in ``features`` says."""
    features = _example_features(features)
    examples, batch = _records(serialized, Example)
    return _read_features([e.features.feature for e in examples], features, batch)


def parse_single_example(serialized, features, example_names=None, name=None):
    """``parse_example`` for one serialized ``tf.train.Example`` (a scalar string)."""
    features = _example_features(features)
    data = convert_to_tensor(serialized, dtype=dtypes.string)
    if data._value.ndim != 0:
        raise ValueError(f"Input serialized must be a scalar (got shape "
                         f"{list(data._value.shape)}).")
    examples, _ = _records(data, Example)
    return _read_features([e.features.feature for e in examples], features, False)


def _sparse_feature(maps, f, batch):
    """Each example's values at the indices its index features hold, as one SparseTensor."""
    keys = [f.index_key] if isinstance(f.index_key, str) else list(f.index_key)
    sizes = [f.size] if isinstance(f.size, int) else [int(n) for n in f.size]
    indices, values = [], []
    for b, m in enumerate(maps):
        vals = _feature_values(m, f.value_key, f.dtype, "sparse") or []
        places = [_feature_values(m, k, dtypes.int64, "sparse") or [] for k in keys]
        for where in places:
            if len(where) != len(vals):
                raise ValueError(f"Dimensions {len(where)} and {len(vals)} are not compatible")
        entries = [(tuple(int(p[j]) for p in places), v) for j, v in enumerate(vals)]
        if not f.already_sorted:
            entries.sort(key=lambda e: e[0])
        indices += [([b] if batch else []) + list(at) for at, _ in entries]
        values += [v for _, v in entries]
    shape = ([len(maps)] if batch else []) + sizes
    return SparseTensor(_array(indices, dtypes.int64, (-1, len(shape))),
                        _tensor(_array(values, f.dtype), f.dtype), shape)


# -- SequenceExample -------------------------------------------------------------------------
def _steps(lists, key, f):
    """The values of each step of feature list ``key`` (``None`` if the list is missing)."""
    feature_list = dict.get(lists, key)
    if feature_list is None:
        return None
    steps = []
    for feature in feature_list.feature:
        steps.append(_feature_values({key: feature}, key, f.dtype, "list", len(steps)) or [])
    return steps


def _dense_steps(lists, key, f):
    steps = _steps(lists, key, f)
    if steps is None:
        if not f.allow_missing:
            raise errors.InvalidArgumentError(
                f"Name: <unknown>, Feature list '{key}' is required but could not be found.  "
                f"Did you mean to include it in feature_list_dense_missing_assumed_empty or "
                f"feature_list_dense_defaults?")
        return []
    shape = _shape(f)
    for i, values in enumerate(steps):
        if len(values) != _size(shape):
            raise errors.InvalidArgumentError(
                f"Name: <unknown>, Key: {key}, Index: {i}.  Number of values != expected.  "
                f"values size: {len(values)} but output shape: {_shape_text(shape)}")
    return steps


def _sparse_steps(per_example, dtype, batch):
    """Per-example lists of steps' values as a SparseTensor [example,] step, value."""
    indices, values = [], []
    for b, steps in enumerate(per_example):
        for t, step in enumerate(steps):
            indices += [([b] if batch else []) + [t, j] for j in range(len(step))]
            values += step
    longest = max((len(s) for steps in per_example for s in steps), default=0)
    count = max((len(steps) for steps in per_example), default=0)
    shape = ([len(per_example)] if batch else []) + [count, longest]
    return SparseTensor(_array(indices, dtypes.int64, (-1, len(shape))),
                        _tensor(_array(values, dtype), dtype), shape)


def _read_lists(all_lists, features, batch):
    """The feature lists of the sequence examples, and the lengths of the dense ones."""
    out, lengths = {}, {}
    for key, f in _in_output_order(features):
        if isinstance(f, FixedLenSequenceFeature):
            rows = [_dense_steps(lists, key, f) for lists in all_lists]
            arr = _padded(rows, f, _shape(f))
            out[key] = _tensor(arr if batch else arr[0], f.dtype)
            lengths[key] = wrap(_array([len(r) for r in rows], dtypes.int64))
        elif isinstance(f, VarLenFeature):
            out[key] = _sparse_steps([_steps(lists, key, f) or [] for lists in all_lists],
                                     f.dtype, batch)
        else:
            per_example = [_steps(lists, f.value_key or key, f) or [] for lists in all_lists]
            values = _array([v for steps in per_example for s in steps for v in s], f.dtype)
            out[key] = RaggedTensor.from_row_lengths(
                _tensor(values, f.dtype), [len(s) for steps in per_example for s in steps],
                validate=False)
            if batch:
                out[key] = RaggedTensor.from_row_lengths(
                    out[key], [len(steps) for steps in per_example], validate=False)
    return out, lengths


def _sequence(serialized, context_features, sequence_features):
    if not context_features and not sequence_features:
        raise ValueError("Both context_features and sequence_features are None, but at least "
                         "one should have values.")
    context = _check_features(context_features, (FixedLenFeature, VarLenFeature,
                                                 RaggedFeature)) if context_features else {}
    lists = _check_features(sequence_features, (FixedLenSequenceFeature, VarLenFeature,
                                                RaggedFeature)) if sequence_features else {}
    examples, batch = _records(serialized, SequenceExample)
    parsed_context = _read_features([e.context.feature for e in examples], context, batch,
                                    context=True)
    parsed_lists, lengths = _read_lists([e.feature_lists.feature_list for e in examples],
                                        lists, batch)
    return parsed_context, parsed_lists, lengths


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """(context, feature lists, lengths) read from a vector of serialized
    ``tf.train.SequenceExample`` protos: feature lists padded to the longest sequence, and
    the length of each sequence for each ``FixedLenSequenceFeature``."""
    return _sequence(serialized, context_features, sequence_features)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """(context, feature lists) read from one serialized ``tf.train.SequenceExample``."""
    context, lists, _ = _sequence(serialized, context_features, sequence_features)
    return context, lists
