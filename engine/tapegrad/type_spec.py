"""Type specs: what kind of value a ``tf.function`` argument or a dataset element is, without
the value. ``tf.TensorSpec`` (tensor_spec.py) is the common one; this module adds the base class
``tf.TypeSpec`` (``isinstance(tf.TensorSpec(...), tf.TypeSpec)`` holds, and for the ragged and
sparse specs of ops/ragged_array_ops.py and ops/sparse_array_ops.py too), the specs of the other
composite values: ``IndexedSlicesSpec``, ``TensorArraySpec``, ``OptionalSpec``,
``NoneTensorSpec``, and ``tf.type_spec_from_value``.
They print, compare and check compatibility as TensorFlow's do.

>>> import tapegrad as tf
>>> tf.type_spec_from_value(tf.ragged.constant([[1], [2, 3]]))
RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)
"""
import abc

from . import dtypes
from .control_flow import TensorArray
from .ops import IndexedSlices, RaggedTensor, RaggedTensorSpec, SparseTensor, SparseTensorSpec
from .tensor import Tensor, TensorShape, convert_to_tensor
from .tensor_spec import TensorSpec
from .variables import Variable


class TypeSpec(abc.ABC):
    """The base of every spec: ``value_type``, ``is_compatible_with``,
    ``most_specific_common_supertype``; equal when their parts are."""

    @property
    @abc.abstractmethod
    def value_type(self):
        """The Python type of the values this spec describes."""

    @abc.abstractmethod
    def _serialize(self):
        """The parts that define the spec (compared, hashed and printed)."""

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else \
            type_spec_from_value(spec_or_value)
        if type(other) is not type(self):
            return False
        return all(_compatible(a, b) for a, b in zip(self._serialize(), other._serialize()))

    def most_specific_common_supertype(self, others):
        """The most specific spec all of ``self`` and ``others`` fit (``None`` if none)."""
        parts = list(self._serialize())
        for other in others:
            if type(other) is not type(self):
                return None
            merged = []
            for a, b in zip(parts, other._serialize()):
                common = _common(a, b)
                if common is _NONE:
                    return None
                merged.append(common)
            parts = merged
        return type(self)(*parts)

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, repr(self._serialize())))

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(p) for p in self._serialize())})"


# the specs defined next to their values are TypeSpecs too
for _spec in (TensorSpec, RaggedTensorSpec, SparseTensorSpec):
    TypeSpec.register(_spec)
_NONE = object()


def _compatible(a, b):
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.is_compatible_with(b)
    if isinstance(a, TypeSpec) and isinstance(b, TypeSpec):
        return a.is_compatible_with(b)
    return a == b


def _common(a, b):
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        if a.rank is None or b.rank is None or a.rank != b.rank:
            return TensorShape(None)
        return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])
    if isinstance(a, TensorSpec) and isinstance(b, TensorSpec):
        if a.dtype != b.dtype:
            return _NONE
        return TensorSpec(_common(a.shape, b.shape), a.dtype)
    if isinstance(a, TypeSpec):
        common = a.most_specific_common_supertype([b])
        return _NONE if common is None else common
    return a if a == b else _NONE


def _shape(shape):
    if getattr(shape, "rank", 0) is None:     # an unknown shape, whatever its class
        return TensorShape(None)
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


class NoneTensorSpec(TypeSpec):
    """The spec of ``None`` (an absent optional value)."""

    @property
    def value_type(self):
        return type(None)

    def _serialize(self):
        return ()


class IndexedSlicesSpec(TypeSpec):
    """An ``IndexedSlices`` (a sparse gradient): dense shape, dtype, the indices' dtype, the
    dense-shape tensor's dtype (``None``: not given) and the indices' shape."""

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = _shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else \
            dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape([None]) if indices_shape is None else \
            _shape(indices_shape)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    @property
    def value_type(self):
        return IndexedSlices

    def _serialize(self):
        return (self._shape, self._dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)


class TensorArraySpec(TypeSpec):
    """A ``TensorArray``: element shape, dtype, ``dynamic_size``, ``infer_shape``."""

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self._element_shape = _shape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = bool(infer_shape)

    element_shape = property(lambda self: self._element_shape)
    dtype = property(lambda self: self._dtype)

    @property
    def value_type(self):
        return TensorArray

    def most_specific_common_supertype(self, others):
        # TensorFlow 2.21 keeps this spec's element shape whatever the others' (its shape
        # merge reads a generator that an earlier check already used up); matched.
        others = list(others)
        if not all(isinstance(o, TensorArraySpec) for o in others):
            return None
        if not all((o._dtype, o._dynamic_size, o._infer_shape) ==
                   (self._dtype, self._dynamic_size, self._infer_shape) for o in others):
            return None
        return TensorArraySpec(self._element_shape, self._dtype, self._dynamic_size,
                               self._infer_shape)

    def _serialize(self):
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)


class OptionalSpec(TypeSpec):
    """An optional value (``tf.experimental.Optional``) of ``element_spec``."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    element_spec = property(lambda self: self._element_spec)

    @property
    def value_type(self):
        return type(None) if isinstance(self._element_spec, NoneTensorSpec) else object

    def _serialize(self):
        return (self._element_spec,)

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"


class VariableSpec(TypeSpec):
    """A ``tf.Variable``'s spec, as ``tf.type_spec_from_value`` gives it."""

    def __init__(self, shape, dtype=dtypes.float32, trainable=True, alias_id=None):
        self._shape = _shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._trainable = bool(trainable)
        self._alias_id = alias_id

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    trainable = property(lambda self: self._trainable)

    @property
    def value_type(self):
        return Variable

    def _serialize(self):
        return (self._shape, self._dtype, self._trainable, self._alias_id)

    def __repr__(self):
        return (f"VariableSpec(shape={tuple(self._shape.as_list())}, dtype={self._dtype!r}, "
                f"trainable={self._trainable}, alias_id={self._alias_id})")


def type_spec_from_value(value):
    """The spec of ``value``: a tensor's ``TensorSpec``, a ragged or sparse tensor's, a
    variable's, ``NoneTensorSpec`` for ``None``; other values as ``tf.convert_to_tensor`` makes
    them a tensor (``TypeError`` for a dict and other structures).

    >>> import tapegrad as tf
    >>> tf.type_spec_from_value([1, 2])
    TensorSpec(shape=(2,), dtype=tf.int32, name=None)
    """
    if value is None:
        return NoneTensorSpec()
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec(value.shape, value.dtype, value.ragged_rank,
                                value.row_splits.dtype)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.dense_shape.numpy().tolist(), value.values.dtype)
    if isinstance(value, IndexedSlices):
        return IndexedSlicesSpec(value.shape, value.dtype, value.indices.dtype,
                                 value.dense_shape.dtype, value.indices.shape)
    if isinstance(value, TensorArray):
        element = value.element_shape
        return TensorArraySpec(None if element.rank is None else element.as_list(), value.dtype,
                               value.dynamic_size, True)
    if isinstance(value, Variable):
        return VariableSpec(value.shape, value.dtype, value.trainable)
    if isinstance(value, Tensor):
        return TensorSpec.from_tensor(value)
    if isinstance(value, dict):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                        f"{type(value)}.")
    try:
        return TensorSpec.from_tensor(convert_to_tensor(value))
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                        f"{type(value)}.") from None
