"""Immutable NumPy-backed tensors, their shapes, and conversion of Python values.

>>> import tapegrad as tf
>>> tf.constant([1, 3.0])
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 3.], dtype=float32)>
>>> print(tf.constant(6.0))
tf.Tensor(6.0, shape=(), dtype=float32)

Operators (``+``, ``@``, indexing, ...) are attached by ``ops/operators.py``.
"""
import itertools

from .backend import gpu_count, host as host_numpy, to_host, xp as np  # the array seam (backend.py)

from . import dtypes
from .tensor_shape import TensorShape
from .thread_state import state

_next_id = itertools.count(1).__next__


def _known_shape(dims, _new=tuple.__new__):
    """A ``TensorShape`` of an array's (known, valid) dimensions, without re-checking them."""
    return _new(TensorShape, dims)


def _numpy_text(value, is_repr):
    if value.ndim == 0:
        text = str(value[()]) if value.dtype.kind != "O" else repr(value[()])
    else:
        text = repr(value) if is_repr else str(value)
        if is_repr:
            text = _platform_neutral_dtype(text, value.dtype)
    return "\n" + text if "\n" in text else text


def _platform_neutral_dtype(text, dtype):
    """NumPy omits ``dtype=`` for the platform's default int (int64 natively, int32 on wasm32).
    Print what 64-bit TensorFlow prints everywhere: int32 shown, int64 omitted."""
    if dtype == np.int32 and "dtype=" not in text:
        return text[:-1] + ", dtype=int32)"
    if dtype == np.int64:
        return text.replace(", dtype=int64)", ")")
    return text


def leaving(x):
    """``x``'s value leaves the engine (``.numpy()``, NumPy, ``float()``): active tapes note it,
    so that a None gradient can be explained by where the path left."""
    active = state.active
    if active:
        for r in active:
            r.on_export(x)


def _undefined_when_eager(attribute):
    """A graph-only attribute, which an eager tensor does not have: reading it raises
    TensorFlow's ``AttributeError``."""
    def undefined(self):
        raise AttributeError(f"{attribute} is undefined when eager execution is enabled.")
    return property(undefined)


class ArrayProperties:
    """What a Tensor and a Variable both tell about the array they hold, and their Python and
    NumPy conversions (``bool``, ``float``, ``int``, ``len``, ``numpy()``)."""

    __slots__ = ()

    @property
    def shape(self):
        return _known_shape(self._value.shape)

    def get_shape(self):
        return self.shape

    @property
    def dtype(self):
        return dtypes.from_numpy(self._value.dtype)

    @property
    def ndim(self):
        return self._value.ndim

    @property
    def device(self):
        return DEVICE

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._value.shape[0]

    def __bool__(self):
        return bool(self._value)

    def __float__(self):
        leaving(self)
        return float(self._value)

    def __int__(self):
        leaving(self)
        return int(self._value)

    def numpy(self):
        """A NumPy copy of the value (a NumPy scalar for a scalar tensor)."""
        leaving(self)
        v = to_host(self._value)   # a device array (CuPy) comes to the host, as TensorFlow's does
        return v[()] if v.ndim == 0 else (v.copy() if v is self._value else v)

    # Graph-only attributes: eager tensors and variables have none (TensorFlow's errors).
    graph = _undefined_when_eager("Tensor.graph")
    op = _undefined_when_eager("Tensor.op")


# Where every value lives: the GPU when the array namespace computes on one (CuPy), else the CPU.
DEVICE = f"/job:localhost/replica:0/task:0/device:{'GPU' if gpu_count() else 'CPU'}:0"


class VariableBase(ArrayProperties):
    """What conversion to a tensor knows of ``tf.Variable`` (variables.py): it converts by
    ``read_value()``."""

    __slots__ = ()


# ndarray methods tensors have once tf.experimental.numpy.experimental_enable_numpy_behavior()
# has run (numpy_api/switch.py); before, TensorFlow's error names the switch.
_NUMPY_METHODS = frozenset("T astype ravel transpose reshape clip size tolist data".split())
_NUMPY_HINT = """
        If you are looking for numpy-related methods, please run the following:
        tf.experimental.numpy.experimental_enable_numpy_behavior()
      """


class _NumpyMethodHint:
    """Stands for an ndarray method tensors lack until the NumPy switch: reading it raises
    TensorFlow's AttributeError, which names the switch (``numpy_api/switch.py`` puts the real
    methods in its place). Speed: a descriptor per name, not ``Tensor.__getattr__``, which
    would keep CPython from specializing every other attribute read of a tensor (``t._value``,
    about 3% of a small training step's instructions)."""

    def __init__(self, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        raise AttributeError(f"{type(obj).__name__} object has no attribute '{self.name}'. "
                             + _NUMPY_HINT)


class Tensor(ArrayProperties):
    """An immutable multidimensional array, as ``tf.Tensor`` in eager mode.

    >>> import tapegrad as tf
    >>> x = tf.constant([[1., 2.], [3., 4.]])
    >>> x.shape, x.dtype, x[1, ::-1].numpy().tolist()
    (TensorShape([2, 2]), tf.float32, [4.0, 3.0])
    """

    __slots__ = ("_value", "_id", "__weakref__")
    __array_priority__ = 100

    def __init__(self, value, dtype=None):
        t = convert_to_tensor(value, dtype)
        self._value = t._value
        self._id = _next_id()

    # -- inspection (shape, dtype, ndim, device, graph, op come from ArrayProperties) ----
    name = _undefined_when_eager("Tensor.name")
    value_index = _undefined_when_eager("Tensor.value_index")

    def consumers(self):
        raise NotImplementedError("Tensor.consumers is undefined when eager execution is enabled.")

    def eval(self, feed_dict=None, session=None):
        raise NotImplementedError("eval is not supported when eager execution is enabled, is "
                                  ".numpy() what you're looking for?")

    @property
    def backing_device(self):
        """Where the value's memory lives (the device of every value)."""
        return self.device

    @property
    def is_packed(self):
        return False

    def cpu(self):
        """A copy of the tensor (values stay where the array namespace keeps them)."""
        return wrap(self._value.copy())

    def gpu(self, gpu_index=0):
        raise RuntimeError(f"GPU:{gpu_index} unknown device.")

    def set_shape(self, shape):
        """Checks that ``shape`` is compatible with the tensor's (eager shapes are fixed).

        >>> import tapegrad as tf
        >>> tf.constant([[1., 2.]]).set_shape([None, 2])
        """
        supplied = TensorShape(shape)
        if not self.shape.is_compatible_with(supplied):
            raise ValueError(f"Tensor's shape {tuple(self.shape)} is not compatible with "
                             f"supplied shape {tuple(supplied)}.")

    def __array__(self, dtype=None, copy=None):
        leaving(self)
        # A reduction's value is a NumPy scalar; __array__ must hand NumPy an array.
        host = to_host(self._value)
        v = host_numpy.asarray(host) if dtype is None else host_numpy.asarray(host, dtype=dtype)
        return v.copy() if copy else v

    def ref(self):
        return _Reference(self)

    def experimental_ref(self):
        return _Reference(self)

    def __repr__(self):
        return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (
            self.shape, self.dtype.name, _numpy_text(self._value, True))

    def __str__(self):
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (
            _numpy_text(self._value, False), self.shape, self.dtype.name)

    def __format__(self, spec):
        """As TensorFlow's: the value's NumPy formatting, so a scalar takes a number's format
        (``f"{loss:.3f}"``) and anything else only the empty one (NumPy's refusal otherwise)."""
        return host_numpy.asarray(to_host(self._value)).__format__(spec)

    # -- Python protocol ----------------------------------------------------
    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        for i in range(self._value.shape[0]):
            yield self[i]

    def __index__(self):
        v = self._value
        if v.ndim:        # NumPy's refusal, which TensorFlow passes on
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        if v.dtype.kind not in "iu":
            raise AttributeError(f"'numpy.{v.dtype.name}' object has no attribute '__index__'")
        return int(v)

    def __complex__(self):
        return complex(self._value)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return constant, (self.numpy(),)


for _name in _NUMPY_METHODS:
    setattr(Tensor, _name, _NumpyMethodHint(_name))
del _name


class EagerTensor(Tensor):
    """The concrete class of every tensor the engine makes (``type(x).__name__`` reads as in TF).

    Only the engine makes them (``wrap``, ``bind``): ``EagerTensor()`` is an empty one whose
    slots the caller fills. It runs no Python ``__init__``, which is the cheapest allocation.
    """

    __slots__ = ()
    __init__ = object.__init__


class Reference:
    """Hashable handle to a tensor or variable, from ``x.ref()`` (``deref()`` gives it back)."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, Reference) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


_Reference = Reference


_ARRAY_SLOT = Tensor.__dict__["_value"]      # (a trace replaces ``Tensor._value``: function/graph.py)


def checked_shape(t):
    """``t``'s shape, for an op's check of its arguments that the op also makes when it runs:
    a trace in progress does not count this read as one its graph depends on."""
    return _ARRAY_SLOT.__get__(t, Tensor).shape


def wrap(array):
    """A new Tensor around ``array`` (no copy, no checks): the engine's hot path."""
    t = EagerTensor()
    t._value = array
    t._id = _next_id()
    return t


# -- conversion ---------------------------------------------------------------

def _infer_numpy(value):
    """TensorFlow's inference: Python floats are float32, ints int32, bools bool."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, bool):
        return np.array(value, np.bool_)
    if isinstance(value, float):
        return np.array(value, np.float32)
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return np.array(value, np.int32)
        return np.array(value, np.int64)
    if isinstance(value, complex):   # TensorFlow: a Python complex is complex128
        return np.array(value, np.complex128)
    if isinstance(value, (str, bytes)):
        return np.array(value.encode() if isinstance(value, str) else value, dtype=object)
    if isinstance(value, (list, tuple)):
        leaves = [_leaf_value(v) for v in value]
        try:
            arr = np.array(leaves)
        except UnicodeDecodeError:   # str beside non-ASCII bytes: all as bytes, as TensorFlow
            arr = np.array(_encoded(leaves), dtype=object)
        if arr.dtype == np.float64 and not _has_numpy_float64(value):
            arr = arr.astype(np.float32)
        elif arr.dtype == np.int64 and not _has_numpy_int64(value):
            if arr.size == 0 or (arr.min() >= -2**31 and arr.max() < 2**31):
                arr = arr.astype(np.int32)
        elif arr.dtype.kind in "US":    # (NumPy's fixed-width text drops trailing NUL bytes)
            arr = _exact_bytes(leaves, arr)
        return arr
    if hasattr(value, "__array__"):
        return np.asarray(value)
    raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                    f"({type(value)}) to a Tensor.")


def _encoded(x):
    """Nested lists of ``str``/``bytes`` with every ``str`` as UTF-8 ``bytes``."""
    if isinstance(x, (list, tuple)):
        return [_encoded(v) for v in x]
    return x.encode("utf-8") if isinstance(x, str) else x


def _exact_bytes(leaves, arr):
    """The object array of ``bytes`` that nested ``leaves`` hold, each as given (``str`` as
    UTF-8): ``arr``, NumPy's fixed-width form of them, lost their trailing NUL bytes, which
    TensorFlow keeps (``tf.io.decode_raw`` reads them)."""
    flat = []

    def walk(x):
        if isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim):
            for item in x:
                walk(item)
        else:
            flat.append(x.item() if isinstance(x, np.ndarray) else x)
    walk(leaves)
    flat = [x.encode("utf-8") if isinstance(x, str) else bytes(x) if isinstance(x, bytes) else x
            for x in flat]
    if len(flat) != arr.size or not all(isinstance(b, bytes) for b in flat):
        return _bytes_array(arr)
    return np.array(flat, dtype=object).reshape(arr.shape)


def _bytes_array(arr):
    """Text arrays as TensorFlow's string tensors hold them: an object array of ``bytes``."""
    if arr.dtype.kind == "U":
        return np.array([s.encode("utf-8") for s in arr.reshape(-1).tolist()] or [],
                        dtype=object).reshape(arr.shape)
    return arr.astype(object)


def _leaf_value(v):
    if isinstance(v, (Tensor, VariableBase)):
        return v._value
    if isinstance(v, (list, tuple)):
        return [_leaf_value(x) for x in v]
    return v


def _walk(value):
    stack = [value]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        else:
            yield x


def _has_numpy_float64(value):
    return any(isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.float64
               or isinstance(x, Tensor) and x._value.dtype == np.float64 for x in _walk(value))


def _has_numpy_int64(value):
    return any(isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.int64
               or isinstance(x, Tensor) and x._value.dtype == np.int64 for x in _walk(value))


def _cast_python_value(arr, value, dtype):
    """Converts inferred ``arr`` to ``dtype`` the way TensorFlow allows for Python values."""
    target = dtype._np
    if arr.dtype == target:
        return arr
    if target.kind in "iu" and arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if target.kind == "b" and arr.dtype.kind != "b":
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if target.kind == "O" and arr.size == 0:     # tf.constant([], tf.string)
        return np.empty(arr.shape, object)
    if target.kind == "O" or arr.dtype.kind == "O":
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if target.kind in "fc" and arr.dtype == np.float32 and not isinstance(value, (np.ndarray, np.generic)):
        # Python floats were inferred as float32: convert them again, or 0.7 loses its digits
        return np.array(_leaf_value(value), dtype=target)
    return arr.astype(target)


# (base type, function, priority) from tf.register_tensor_conversion_function, lowest first
conversion_functions = []


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Converts Python values, NumPy arrays, Tensors and Variables to a Tensor.

    >>> import tapegrad as tf
    >>> tf.convert_to_tensor([[1, 2]], dtype=tf.float32).dtype
    tf.float32
    """
    if isinstance(value, Tensor):
        if dtype is not None and value._value.dtype != dtypes.as_dtype(dtype)._np:
            raise ValueError(
                f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor "
                f"with dtype {value.dtype.name}: {value!r}")
        return value
    if isinstance(value, VariableBase):
        t = value.read_value()
        if dtype is not None and t._value.dtype != dtypes.as_dtype(dtype)._np:
            raise ValueError(
                f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for "
                f"Tensor with dtype {t.dtype.name}: {value!r}")
        return t
    conv = getattr(value, "_as_tensor", None)  # IndexedSlices and friends
    if conv is not None:
        return convert_to_tensor(conv(), dtype)
    if conversion_functions:                   # tf.register_tensor_conversion_function
        for base, fn, _priority in conversion_functions:
            if isinstance(value, base):
                out = fn(value, dtype=dtype, name=name, as_ref=False)
                if out is not NotImplemented:
                    return convert_to_tensor(out, dtype)
    arr = _infer_numpy(value)
    if dtype is not None:
        arr = _cast_python_value(arr, value, dtypes.as_dtype(dtype))
    elif dtype_hint is not None:
        try:
            arr = _cast_python_value(arr, value, dtypes.as_dtype(dtype_hint))
        except TypeError:
            pass
    if arr is value:
        arr = arr.copy()  # a tensor never aliases a caller's mutable array
    if arr.dtype.kind in "US":
        arr = _bytes_array(arr)
    return wrap(arr)


def constant(value, dtype=None, shape=None, name=None):
    """Creates a constant tensor; ``shape`` broadcasts a scalar or reshapes a list.

    >>> import tapegrad as tf
    >>> tf.constant(0.5, shape=(2,)).numpy().tolist()
    [0.5, 0.5]
    """
    if isinstance(value, Tensor) and dtype is not None and value.dtype != dtypes.as_dtype(dtype):
        arr = value._value.astype(dtypes.as_dtype(dtype)._np)
        t = wrap(arr)
    else:
        t = convert_to_tensor(value, dtype)
        if isinstance(value, Tensor):
            t = wrap(value._value)
    if shape is not None:
        shape = tuple(int(d) for d in shape)
        arr = t._value
        if arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), shape).copy()
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tried to "
                            f"convert a tensor with {arr.size} elements to shape {shape}")
        t = wrap(arr)
    return t


def is_tensor(x):
    return isinstance(x, (Tensor, VariableBase))
