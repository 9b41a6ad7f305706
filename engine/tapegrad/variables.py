"""``tf.Variable``: mutable state whose reads a tape records.

Every use of a variable in an op reads it: the read gives a fresh Tensor sharing the current value,
and each active tape that watches the variable records a ``ReadVariableOp`` from the variable to
that tensor. Assignments replace the value and are never recorded, so gradients do not flow
through them (as in TensorFlow).

>>> import tapegrad as tf
>>> v = tf.Variable(3.0, name="x0")
>>> v.name, (v + 1.0).numpy()
('x0:0', 4.0)
"""
import itertools
import sys
import sysconfig

from .backend import to_host, xp as np  # the array seam (see backend.py)

from . import checks, dtypes
from .recording import user_line
from .tensor import (
    EagerTensor, Tensor, TensorShape, VariableBase, _next_id, _numpy_text, _Reference,
    convert_to_tensor, leaving, wrap,
)
from .thread_state import ThreadList, state
from .variable_updates import SparseUpdates

_next_uid = itertools.count(1).__next__

# An update's result may be written into the delta's own array when the delta is a tensor made
# for the call alone, as ``v.assign_sub(lr * g)`` passes it: nobody else can see that array. It is
# told by reference counts, which CPython 3.11-3.13 keep exactly (later versions and free-threaded
# builds may borrow references without counting them, so not there).
_REUSE = (sys.implementation.name == "cpython" and sys.version_info < (3, 14)
          and not sysconfig.get_config_var("Py_GIL_DISABLED") and np.__name__ == "numpy")
_getrefcount = sys.getrefcount
_ndarray = np.ndarray if _REUSE else None
_REUSE_BYTES = 1 << 16   # (64 KiB: beyond what a fresh allocation costs next to the checks)


def _temporary(d, delta):
    """Whether ``d``, ``delta``'s array as ``_new_value`` gave it, may take an update's result:
    ``delta`` is a temporary tensor owning ``d``. Called by an update method holding both in
    locals, as ``_temporary(d, delta)``: then a temporary ``delta`` has three references here (the
    method's, this call's, ``getrefcount``'s) and ``d`` four (the tensor's besides); one more means
    someone else can still see them. Only for arrays from 64 KiB on (the updates test the size
    first): a fresh small array costs less than the checks."""
    if type(delta) is EagerTensor and _getrefcount(delta) == 3 and _getrefcount(d) == 4:
        flags = d.flags
        return flags.owndata and flags.writeable
    return False


name_scope_stack = ThreadList("name_scopes")  # prefixes such as "dense/", per thread


ON_CREATE = []   # functions called with each new variable (tapegrad.distribute's scopes)


class Variable(VariableBase, SparseUpdates):
    __slots__ = ("_value", "_id", "_name", "_trainable", "_uid", "_where", "_declared",
                 "_constraint", "__weakref__")
    __array_priority__ = 100

    def __new__(cls, *args, **kwargs):
        # ``tf.Variable(...)`` makes a ResourceVariable, as in TensorFlow 2.
        return object.__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, shape=None,
                 validate_shape=True, constraint=None, **unused):
        if initial_value is None:
            raise ValueError("The `initial_value` arg (None) must be specified.")
        if callable(initial_value):
            initial_value = initial_value()
        if isinstance(initial_value, Variable):
            initial_value = initial_value._value
        t = convert_to_tensor(initial_value, dtype=dtype) if not isinstance(initial_value, Tensor) \
            else initial_value
        if dtype is not None and t.dtype != dtypes.as_dtype(dtype):
            t = wrap(t._value.astype(dtypes.as_dtype(dtype)._np))
        if shape is not None and validate_shape:   # TF's check of the declared shape (checks/)
            checks.compatible("Variable", shape, t._value.shape)
        # A declared shape with unknown sizes (``shape=[None]``) is the variable's shape, and
        # values of other sizes may be assigned later.
        declared = None if shape is None else TensorShape(shape)
        self._declared = declared if declared is not None and (
            declared.rank is None or None in declared.as_list()) else None
        self._value = np.array(t._value, copy=True)
        self._id = _next_id()
        self._uid = _next_uid()
        base = name if name is not None else "Variable"
        if base.endswith(":0"):
            base = base[:-2]
        self._name = "".join(state.name_scopes) + base + ":0"
        self._trainable = bool(trainable)
        if constraint is not None and not callable(constraint):
            # TensorFlow's message, its repeated words included
            raise ValueError(f"Argument `constraint` must be None or a callable. a callable. Got a "
                             f"{type(constraint)}:  {constraint}")
        self._constraint = constraint
        self._where = user_line()   # (file, line) where it was created, for explanations
        for observe in ON_CREATE:   # (a distribution strategy's scope keeps its variables)
            observe(self)

    @property
    def shape(self):
        declared = self._declared
        return declared if declared is not None else TensorShape(self._value.shape)

    # -- reading -----------------------------------------------------------
    def read_value(self):
        """The current value as a Tensor; active tapes record the read."""
        t = wrap(self._value)
        active = state.active
        if active:
            for r in tuple(active):
                r.on_read(self, t)
        return t

    value = read_value

    def __array__(self, dtype=None, copy=None):
        leaving(self)
        host = to_host(self._value)
        return host if dtype is None else host.astype(dtype)

    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @property
    def constraint(self):
        """The projection function given as ``constraint`` (optimizers apply it), or None."""
        return self._constraint

    @property
    def initializer(self):
        return None          # eager variables are initialized when made

    @property
    def initial_value(self):
        raise RuntimeError("This property is not supported when eager execution is enabled.")

    def is_initialized(self, name=None):
        return wrap(np.asarray(True))

    def read_value_no_copy(self):
        return self.read_value()

    # Graph-only methods: eager variables have none (TensorFlow's errors; ``graph`` and ``op``
    # come from ArrayProperties).
    def eval(self, session=None):
        raise RuntimeError("This operation is not supported when eager execution is enabled.")

    def to_proto(self, export_scope=None):
        raise RuntimeError("This operation is not supported when eager execution is enabled.")

    def set_shape(self, shape):
        """Checks ``shape`` against the variable's (``ValueError`` when incompatible)."""
        supplied = TensorShape(shape)
        if not self.shape.is_compatible_with(supplied):
            raise ValueError(f"Shapes {tuple(self.shape)} and {tuple(supplied)} are not "
                             f"compatible")

    def ref(self):
        return _Reference(self)

    experimental_ref = ref

    # -- stateful updates (never recorded) --------------------------------
    def _new_value(self, value, op):
        if isinstance(value, Tensor) and value._value.dtype == self._value.dtype:
            # Speed: what convert_to_tensor hands back for a tensor of the same dtype, without
            # it and the ``dtype`` property: W2's six ``assign_sub`` -26k instructions per step.
            t = value
        else:
            t = value.read_value() if isinstance(value, Variable) else \
                convert_to_tensor(value, dtype=self.dtype)
        if t._value.dtype != self._value.dtype:
            raise ValueError(f"Cannot {op} a value of dtype {t.dtype.name} to variable "
                             f"'{self._name}' of dtype {self.dtype.name}.")
        if not checks.fits(self._declared, t._value.shape) if self._declared is not None \
                else t._value.shape != self._value.shape:
            raise ValueError(
                f"Cannot {op} value to variable ' {self._name}': Shape mismatch.The variable shape "
                f"{self.shape}, and the assigned value shape {t.shape} are incompatible.")
        return t._value

    def _note_assign(self, value, kind):
        active = state.active
        if active:
            t = value.read_value() if isinstance(value, Variable) else \
                value if isinstance(value, Tensor) else None
            for r in active:
                r.on_assign(self, t, kind)

    def _unread(self):
        """What an update returns: the variable seen as TensorFlow's ``UnreadVariable``."""
        return _UnreadVariable(self)

    def _assign_array(self, array):
        """Replaces the value by ``array`` (a sparse update's result); never recorded."""
        self._note_assign(None, "assign")
        self._value = array

    # (Speed: ``_note_assign`` is called only while a recorder is active, one Python call fewer
    # per update otherwise.)
    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Replaces the value; returns the variable (None when ``read_value=False``)."""
        if state.active:
            self._note_assign(value, "assign")
        d = self._new_value(value, "assign")
        self._value = d if type(d) is _ndarray and d.nbytes >= _REUSE_BYTES \
            and _temporary(d, value) else np.array(d, copy=True)
        return self._unread() if read_value else None

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        if state.active:
            self._note_assign(delta, "assign_add")
        d = self._new_value(delta, "assign_add")
        self._value = np.add(self._value, d, d) if type(d) is _ndarray and d.nbytes >= \
            _REUSE_BYTES and d.shape == self._value.shape and _temporary(d, delta) \
            else self._value + d
        return self._unread() if read_value else None

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        if state.active:
            self._note_assign(delta, "assign_sub")
        d = self._new_value(delta, "assign_sub")
        self._value = np.subtract(self._value, d, d) if type(d) is _ndarray and d.nbytes >= \
            _REUSE_BYTES and d.shape == self._value.shape and _temporary(d, delta) \
            else self._value - d
        return self._unread() if read_value else None

    def load(self, value, session=None):
        """Assigns ``value`` (TensorFlow 1's name for ``assign``); returns None."""
        self.assign(value, read_value=False)

    # -- Python protocol -----------------------------------------------------
    def __repr__(self):
        return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
            self._name, self.shape, self.dtype.name, _numpy_text(self._value, True))

    def __str__(self):
        return repr(self)

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key. "
                        f"(Variable: {self!r})")

    def __index__(self):
        return self.read_value().__index__()

    def __iter__(self):
        return iter(self.read_value())

    def __deepcopy__(self, memo):
        return Variable(self._value.copy(), trainable=self._trainable, name=self._name)


class ResourceVariable(Variable):
    __slots__ = ()


def _delegate(slot):
    return property(lambda self: getattr(self._variable, slot),
                    lambda self, value: setattr(self._variable, slot, value))


class _UnreadVariable(ResourceVariable):
    """What ``assign`` and the scatter updates return: the same variable (reads, updates and
    gradients all go to it) under TensorFlow's printed name ``UnreadVariable``.

    >>> import tapegrad as tf
    >>> tf.Variable(1.0).assign(2.0)
    <tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>
    """

    __slots__ = ("_variable",)

    # Speed: made in ``__new__`` alone (no Python ``__init__``, and not Variable's ``__new__``):
    # every update returns one (W2: six per step).
    def __new__(cls, variable=None):   # (None: as copy and pickle make one, to fill)
        self = object.__new__(cls)
        object.__setattr__(self, "_variable", variable)
        return self

    __init__ = object.__init__

    for _slot in ("_value", "_id", "_trainable", "_uid", "_where", "_declared", "_constraint"):
        locals()[_slot] = _delegate(_slot)
    del _slot

    _name = "UnreadVariable"

    def read_value(self):
        return self._variable.read_value()

    value = read_value

    def _note_assign(self, value, kind):
        self._variable._note_assign(value, kind)

    def _unread(self):
        return self

    def ref(self):
        return self._variable.ref()

    experimental_ref = ref
