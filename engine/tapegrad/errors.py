"""``tf.errors``: TensorFlow's error classes, so ``except tf.errors.InvalidArgumentError`` works.

Each class is also a subclass of the builtin error tapegrad raised before it had TensorFlow's
classes (``InvalidArgumentError`` is a ``ValueError``, ``UnimplementedError`` a
``NotImplementedError``...), so code written against either keeps working.

They are built as TensorFlow builds them, ``InvalidArgumentError(node_def, op, message)``, or
with the message alone, as the engine raises them::

    >>> import tapegrad as tf
    >>> try:
    ...     tf.reshape(tf.zeros([6]), [4, -1])
    ... except tf.errors.InvalidArgumentError as e:
    ...     print(type(e).__name__, e.error_code == tf.errors.INVALID_ARGUMENT)
    InvalidArgumentError True

Where TensorFlow raises ``InvalidArgumentError`` for what Python code would call a type error
(a float axis, a dtype an op does not accept), ``invalid_argument(message, TypeError)`` gives an
``InvalidArgumentError`` that is also a ``TypeError``.
"""

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """An op could not run; the message names the op as ``[Op:Name]``."""

    error_code = UNKNOWN

    def __init__(self, *args):
        if len(args) >= 3:          # TensorFlow's form: (node_def, op, message, *rest)
            node_def, op, message = args[:3]
        elif len(args) == 1:        # the engine's form: (message,)
            node_def, op, message = None, None, args[0]
        elif not args:
            node_def, op, message = None, None, ""
        else:
            raise TypeError(f"{type(self).__name__}() takes (node_def, op, message) or "
                            f"(message), got {len(args)} arguments")
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    def __str__(self):
        return str(self._message)

    def __reduce__(self):
        return type(self), (self._node_def, self._op, self._message)


def _error(name, code, builtin, doc):
    bases = (OpError,) if builtin is None else (OpError, builtin)
    return type(name, bases, {"error_code": code, "__doc__": doc, "__module__": __name__})


# TensorFlow's error classes: name, code, the builtin error each also is, what it means.
_CLASSES = [_error(*row) for row in (
    ("CancelledError", CANCELLED, None, "An operation was cancelled."),
    ("UnknownError", UNKNOWN, None, "An unknown error."),
    ("InvalidArgumentError", INVALID_ARGUMENT, ValueError,
     "An op received an argument it cannot accept."),
    ("DeadlineExceededError", DEADLINE_EXCEEDED, None,
     "A deadline expired before the operation completed."),
    ("NotFoundError", NOT_FOUND, LookupError, "A requested entity (a file, a name) was not found."),
    ("AlreadyExistsError", ALREADY_EXISTS, None,
     "An entity that was to be created already exists."),
    ("PermissionDeniedError", PERMISSION_DENIED, PermissionError,
     "The caller may not run this operation."),
    ("UnauthenticatedError", UNAUTHENTICATED, None, "The request has no valid credentials."),
    ("ResourceExhaustedError", RESOURCE_EXHAUSTED, MemoryError,
     "Some resource (memory, a quota) is exhausted."),
    ("FailedPreconditionError", FAILED_PRECONDITION, RuntimeError,
     "The system is not in a state this operation needs."),
    ("AbortedError", ABORTED, None, "The operation was aborted."),
    ("OutOfRangeError", OUT_OF_RANGE, IndexError,
     "An index or an iteration went past the valid range."),
    ("UnimplementedError", UNIMPLEMENTED, NotImplementedError,
     "The operation is not implemented or not supported."),
    ("InternalError", INTERNAL, RuntimeError, "An internal invariant broke."),
    ("UnavailableError", UNAVAILABLE, None, "The runtime is currently unavailable."),
    ("DataLossError", DATA_LOSS, None, "Unrecoverable data loss or corruption."),
)]
(CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
 AlreadyExistsError, PermissionDeniedError, UnauthenticatedError, ResourceExhaustedError,
 FailedPreconditionError, AbortedError, OutOfRangeError, UnimplementedError, InternalError,
 UnavailableError, DataLossError) = _CLASSES
_BY_CODE = {cls.error_code: cls for cls in _CLASSES}

_mixed = {}


def with_builtin(cls, builtin):
    """``cls`` made also a subclass of ``builtin`` (cached), for errors that TensorFlow raises as
    ``cls`` where Python code expects ``builtin`` (``TypeError``, ``IndexError``...)."""
    if issubclass(cls, builtin):
        return cls
    key = (cls, builtin)
    mixed = _mixed.get(key)
    if mixed is None:
        mixed = _mixed[key] = type(cls.__name__, (cls, builtin),
                                   {"__module__": __name__, "__doc__": cls.__doc__,
                                    "__qualname__": cls.__name__})
    return mixed


def invalid_argument(message, builtin=None):
    """An ``InvalidArgumentError`` (also a ``builtin`` error when one is given)."""
    cls = InvalidArgumentError if builtin is None else with_builtin(InvalidArgumentError, builtin)
    return cls(message)


def found_while_building(error, graph_class, graph_message=None):
    """Marks ``error``, which an op raises from its inputs' shapes or dtypes alone, as one that
    TensorFlow's graphs raise while they are built: as ``graph_class`` (``ValueError`` for a
    shape, ``TypeError`` for a dtype) with ``graph_message``. Eagerly it stays as it is; a
    ``tf.function`` that meets it while tracing raises it so (function/graph.py,
    ``as_built_graph_error``)."""
    error.graph_class = graph_class
    error.graph_message = graph_message if graph_message is not None else str(error)
    return error


def out_of_memory(op, shape=None, dtype=None):
    """TensorFlow's ``ResourceExhaustedError`` for an allocation that failed (it is also a
    ``MemoryError``, so either ``except`` catches it), naming the shape and dtype when known."""
    what = "" if shape is None else f" with shape[{','.join(str(d) for d in shape)}]"
    kind = "" if dtype is None else f" and type {dtype}"
    return ResourceExhaustedError(
        None, op, f"OOM when allocating tensor{what}{kind} on "
                  f"/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu [Op:{op}]")


def allocating(op):
    """Decorates a function that allocates a new array (``tf.zeros``): NumPy's ``MemoryError``
    becomes ``out_of_memory(op)``."""
    def decorate(fn):
        def allocate(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except (MemoryError, ValueError) as e:
                if isinstance(e, OpError) or not too_big(e):
                    raise
                raise out_of_memory(op, *_numpy_shape_and_type(e)) from None
        allocate.__name__, allocate.__qualname__ = fn.__name__, fn.__qualname__
        allocate.__doc__, allocate.__module__, allocate.__wrapped__ = fn.__doc__, fn.__module__, fn
        return allocate
    return decorate


def too_big(exc):
    """Whether ``exc`` is an allocation that failed: NumPy's ``MemoryError``, or its
    ``ValueError`` for a size past the address space (32-bit WebAssembly: "array is too big",
    or "iterator is too large" for a broadcast)."""
    return isinstance(exc, MemoryError) or str(exc).startswith(("array is too big",
                                                                 "iterator is too large"))


# the names TensorFlow's op attributes give these dtypes in messages ("of float is not in the list")
TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _numpy_shape_and_type(exc):
    """(shape, TensorFlow type name) from NumPy's "Unable to allocate ... with shape (a, b) and
    data type float32", or (None, None)."""
    shape, dtype = getattr(exc, "shape", None), getattr(exc, "dtype", None)
    if shape is None:
        return None, None
    name = str(dtype)
    return tuple(shape), TF_TYPE_NAMES.get(name, name)


def exception_type_from_error_code(code):
    return _BY_CODE[code]


def error_code_from_exception_type(cls):
    return cls.error_code


class OperatorNotAllowedInGraphError(TypeError):
    """An operation not allowed while building a graph (such as iterating over a symbolic
    tensor); TensorFlow raises it inside ``tf.function``. tapegrad runs functions eagerly, so
    it is here for ``except`` clauses."""
