"""A trace's graph: the primitives a ``tf.function`` call ran while its Python body ran, recorded
so that later calls with the same signature run them again without running Python.

While a call traces, a ``TraceRecorder`` is one of the thread's recorders (the list every
``recording.bind`` shows its op to, as it does to tapes), so it sees each primitive the body
applies, each variable read and each assignment, exactly as a tape does. Every value the graph
uses is one of: an input (a tensor or variable argument), a variable read (read again on every
replay: variables are never baked in), a constant (a tensor made from Python values, or one
captured from outside the function), or an earlier node's output. A gradient taken inside the
body is traced through its reverse rules: the graph holds the primitives they bind, except for a
rule kept as one node, replayed by calling it again (see ``_recorded_vjp``). A replay that nothing
records runs the graph compiled into one Python function (``compiled.py``). While a trace
runs, ``.numpy()`` on a tensor it computed raises TensorFlow's graph ``AttributeError``.

A trace can be replayed only when nothing in it depended on a tensor's value outside the
primitives; otherwise the graph is marked not replayable, with the reason, and that signature runs
the Python body on every call, as before (see the package docstring). What marks it:

* a value read in Python (``.numpy()``, ``float()``, ``int()``, ``bool()``, ``operator.index``,
  NumPy conversion): the body branched or computed on a value;
* a tensor made in Python from another tensor's array, or by an engine function that is not a
  primitive (random ops and their global generator state, ``tf.unique``, ...), used by the graph;
* an op that is not a primitive (``tf.py_function``, ``tf.custom_gradient``);
* text written by the engine (``tf.print``), a sparse variable update, the same tensor passed as
  two arguments.

An engine function marked ``@replayed`` (``replayed.py``: random draws, ``tf.unique``,
``tf.sparse.to_dense``...) is not a primitive but is recorded as one ``CALL`` node, called again on
every replay.

Shapes a replay may change are tracked (``TraceRecorder.dynamic``): an input's size the
signature leaves open (``None``), and a result whose shape depends on the values
(``dynamic_shape``: ``TraceRecorder.valued``), with every tensor computed from them. A trace that
read none of those shapes in Python serves every open size (``TraceGraph.any_size``); else it
serves the input shapes it was recorded for. A trace that read a value-dependent shape checks it
on every replay, and a replay that finds another shape runs the Python body instead
(``ShapeChanged``).
"""
import inspect
import linecache
import sys

from .. import backprop, convert, ground, replayed, tensor as tensor_module
from ..backend import NAME, host as np   # (NumPy itself: its arrays are what is watched)
from ..errors import OperatorNotAllowedInGraphError
from ..ops import array_ops, shape_ops, sparse_ops, sparse_xent_ops
from ..primitives import TABLE, Primitive
from ..recording import bind, scope_stack
from ..tape import GradientTape
from ..tensor import EagerTensor, Tensor, convert_to_tensor
from ..thread_state import entered, state
from ..variables import Variable
from .calls import _ENGINE_DIR, _HiddenPrints
from .compiled import (ASSIGN, CALL, COND, OP, READ, VJP, WHILE, as_tensor, compile_nodes,
                       unguarded)
from .keys import map_leaves

PREPARED_OP = "prepared op"       # an op as ``prepare`` makes it, for a replay nothing records

_recorders = []          # the TraceRecorders of the traces in progress in this process
_real_next_id = tensor_module._next_id
def _codes(fn):
    """``fn``'s code object and those of the functions and comprehensions inside it."""
    stack, out = [inspect.unwrap(fn).__code__], []
    while stack:
        code = stack.pop()
        out.append(code)
        stack.extend(c for c in code.co_consts if isinstance(c, _CodeType))
    return out


_CodeType = type(_codes.__code__)
# Engine functions that make tensors from Python values, shapes and dtypes alone (a tensor made
# anywhere else in the engine while tracing came from arrays the graph cannot replay), each with
# the arguments that must not hold tensors the trace computed (or variables) for that to hold.
_CONSTANT_MAKERS = {code: python_args for fn, python_args in (
    (tensor_module.convert_to_tensor, ("value",)), (tensor_module.constant, ("value",)),
    (tensor_module.Tensor.__init__, ("value",)), (convert.binary, ()),   # (wraps Python numbers)
    (array_ops.zeros, ("shape",)), (array_ops.ones, ("shape",)), (array_ops.zeros_like, ()),
    (array_ops.ones_like, ()), (array_ops.shape, ()), (array_ops.size, ()), (array_ops.rank, ()),
    (array_ops.eye, ("num_rows", "num_columns", "batch_shape")),
    (array_ops.fill, ("dims", "value")),
    (array_ops.range_, ("start", "limit", "delta")), (shape_ops.shape_n, ()),
    (ground.zeros_of, ()), (ground.ones_of, ()), (ground.scalar_like, ("value",)),
    (backprop.seeds, ()),                       # a gradient's ones
    (GradientTape.gradient, ()),                # an unconnected gradient's zeros
    (sparse_xent_ops._onehot, ("z",)),          # the labels' one-hot in its reverse rule
    (sparse_ops.SparseTensor.__init__, ("indices", "dense_shape")),
) for code in _codes(fn)}
_WRAP = tensor_module.wrap.__code__


def _constant(f):
    """Whether frame ``f``, which makes a tensor, makes it from Python values or shapes."""
    python_args = _CONSTANT_MAKERS.get(f.f_code)
    if python_args is None:
        return False
    local = f.f_locals
    return not any(_computed(local.get(a)) for a in python_args)


def _computed(x):
    """Whether ``x`` (or an item of it) is a variable or a tensor a trace in progress computed
    (an argument, a read, an op's output), whose value a replay would change."""
    if isinstance(x, (list, tuple)):
        return any(_computed(v) for v in x)
    if isinstance(x, Variable):
        return True
    return isinstance(x, Tensor) and any(r.computed(x) for r in _recorders)


def _noting_next_id():
    """``tensor._next_id`` while tracing: numbers the tensor and tells the recorders which engine
    function made it, unless that is a constant made from Python values or shapes."""
    i = _real_next_id()
    f = sys._getframe(1)
    if f.f_code is _WRAP:
        f = f.f_back
    if not _constant(f):
        for r in _recorders:
            if not r.opaque:
                r.made_in_python[i] = f.f_code.co_name
    return i


def _noting(method, what):
    def noted(self):
        for r in _recorders:
            if not r.opaque:
                r.fail(f"{what} of a tensor was taken in Python")
        return method(self)
    return noted


def _recorded_vjp(prim, vjp):
    """``vjp`` as the primitives hold it while tracing: traced through, so that the ops the rule
    binds are the graph's ops (a replay runs them as it runs any op). The rule stays one node
    of the graph, replayed by calling ``vjp`` again, where it did what a replay cannot repeat
    (read a value in Python, made a tensor in Python from arrays), and where it has an array
    path of its own for when nothing records (it then makes fewer tensors than the ops it binds
    while recorded: a fused kernel, a NumPy formula), which is what an eager step runs."""
    def traced_vjp(g, ans, inputs, attrs, wanted):
        active = state.active
        seeing = [r for r in _recorders if not r.opaque and r in active]
        marks = [r.enter_rule() for r in seeing]
        out = vjp(g, ans, inputs, attrs, wanted)
        bound = max([len(r.nodes) - start for r, (start, *_) in zip(seeing, marks)], default=0)
        fused = _engine_rule(vjp) and (prim.hands_on or (
            bound > 1 and _tensors_made_alone(vjp, g, ans, inputs, attrs, wanted) < bound))
        for r, mark in zip(seeing, marks):
            r.leave_rule(mark, prim, vjp, (g, ans, *inputs), attrs, wanted, out, fused)
        return out
    return traced_vjp


def _engine_rule(vjp):
    """Whether ``vjp`` and the functions its closure holds are the engine's (a gradient the user
    registered is never run a second time: its Python side effects happen once per trace)."""
    functions = [vjp] + [c.cell_contents for c in vjp.__closure__ or ()
                         if callable(getattr(c, "cell_contents", None))]
    return all(getattr(getattr(f, "__code__", None), "co_filename", "").startswith(_ENGINE_DIR)
               for f in functions if not isinstance(f, type))


def _tensors_made_alone(vjp, g, ans, inputs, attrs, wanted):
    """How many tensors ``vjp`` makes when nothing records (run again, unseen by the traces)."""
    active = state.active
    saved = active[:]
    del active[:]
    for r in _recorders:
        r.opaque += 1
    try:
        before = _real_next_id()
        vjp(g, ans, inputs, attrs, wanted)
        return _real_next_id() - before - 1
    except Exception:       # (it raises alone: the ops traced through are the graph's)
        return len(TABLE)
    finally:
        for r in _recorders:
            r.opaque -= 1
        active[:] = saved


_saved_vjps = {}


def _graph_numpy(self):
    """``Tensor.numpy`` while tracing: TensorFlow's graph tensors have no ``numpy``, so the
    user's code calling it on a tensor the trace computed gets TensorFlow's AttributeError."""
    f = sys._getframe(1)
    if _recorders and _recorders[-1].computed(self) and \
            not f.f_code.co_filename.startswith(_ENGINE_DIR):
        raise AttributeError(in_user_code(
            f, "AttributeError: 'SymbolicTensor' object has no attribute 'numpy'"))
    return Tensor.numpy(self)


def in_user_code(frame, error, lineno=None):
    """TensorFlow's text for an error raised while tracing the user's line in ``frame``."""
    code = frame.f_code
    lineno = frame.f_lineno if lineno is None else lineno
    line = linecache.getline(code.co_filename, lineno).strip()
    return (f'in user code:\n\n    File "{code.co_filename}", line {lineno}, in '
            f'{code.co_name}  *\n        {line}\n\n    {error}\n')


def as_built_graph_error(error, shapes_known=True):
    """The error TensorFlow raises, while a ``tf.function`` is traced, for ``error`` (one an op
    found from shapes or dtypes alone, ``errors.found_while_building``): its graph class
    (``ValueError``, ``TypeError``) with the user's line; None for any other error, and for a
    shape's error where the trace leaves dimensions unknown (``shapes_known`` false: the graph
    is built, and the error comes when it runs)."""
    graph_class = getattr(error, "graph_class", None)
    if graph_class is None or (graph_class is ValueError and not shapes_known):
        return None
    tb, user = error.__traceback__, None
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_ENGINE_DIR):
            user = tb
        tb = tb.tb_next
    text = f"{graph_class.__name__}: {error.graph_message}"
    return graph_class(text if user is None else in_user_code(user.tb_frame, text, user.tb_lineno))


# ``Tensor._value`` (the slot holding a tensor's array) while tracing. An op that turns a tensor
# the trace computed into its settings (``tf.tile(c, [tf.reduce_max(x)])``, ``tf.slice``'s
# ``begin``, a shape built from a value) reads that array in Python before the primitive is
# bound, and a replay would keep the first call's settings. So outside the recording machinery
# such an array is handed out as a ``_Watched`` stand-in: its shape and dtype are free (graphs are
# per concrete input shape), and anything that reaches its values (NumPy conversion, indexing,
# arithmetic, Python numbers) marks the trace, which then runs its Python body on every call.
_SLOT = Tensor.__dict__["_value"]
_MACHINERY = (_ENGINE_DIR + "recording.py", _ENGINE_DIR + "function")
_METADATA = frozenset({"shape", "dtype", "ndim", "size", "itemsize", "nbytes"})
# A variable's assignments are nodes of the graph (replayed by calling them again), so the
# value they read is theirs to read; so is a new variable's initial value (variables are made by
# the first trace only, as TensorFlow lifts their initializers out of the graph).
_ASSIGNING = frozenset(getattr(Variable, name).__code__ for name in (
    "assign", "assign_add", "assign_sub", "_new_value", "__init__"))


def _mark(where):
    for r in _recorders:
        if not r.opaque:
            r.fail(f"an op read the values of a tensor the trace computed in Python ({where})")


class _Watched(np.ndarray):
    """An array of a computed tensor as engine code outside the machinery sees it: a view (no
    copy) that passes every ``isinstance`` check; reaching its values marks the trace."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        _mark(ufunc.__name__)
        inputs = tuple(x.view(np.ndarray) if isinstance(x, _Watched) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        _mark(func.__name__)
        return func._implementation(*_plain(args), **_plain(kwargs))


def _plain(x):
    if isinstance(x, _Watched):
        return x.view(np.ndarray)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def _forwarding(name):
    def forward(self, *args, **kwargs):
        _mark(name)
        return getattr(self.view(np.ndarray), name)(*args, **kwargs)
    forward.__name__ = name
    return forward


for _name in ("__int__", "__float__", "__index__", "__bool__", "__complex__", "__iter__",
              "__getitem__", "__contains__", "__array__", "tolist", "item", "tobytes", "copy",
              "astype", "reshape", "ravel", "flatten", "__repr__", "__str__", "__format__",
              "__reduce__", "__reduce_ex__", "__copy__", "__deepcopy__", "all", "any", "sum",
              "max", "min", "mean", "prod", "argmax", "argmin", "nonzero", "view_values"):
    if _name != "view_values":
        setattr(_Watched, _name, _forwarding(_name))


def _converting(convert):
    """NumPy's ``asarray``/``array`` while tracing: they turn a ``_Watched`` (or a list holding
    one) into a plain array without calling any of its methods, so they mark the trace here."""
    def converted(a, *args, **kwargs):
        if type(a) is _Watched or (type(a) in (list, tuple) and
                                   any(type(v) is _Watched for v in a)):
            _mark(convert.__name__)
        return convert(a, *args, **kwargs)
    converted.__name__ = convert.__name__
    return converted


_CONVERTERS = {name: getattr(np, name) for name in ("asarray", "array", "ascontiguousarray")}


def _read_array(self):
    value = _SLOT.__get__(self, Tensor)
    f = sys._getframe(1)
    if f.f_code in _ASSIGNING or f.f_code.co_filename.startswith(_MACHINERY) or \
            not any(not r.opaque and r.computed(self) for r in _recorders):
        return value
    if NAME != "numpy":      # (another array library: any read marks the trace)
        _mark(f.f_code.co_name)
        return value
    if type(value) is np.ndarray:
        return _watched(self, value)
    # (a reduction's value is a NumPy scalar: it is watched as a 0-d array)
    return np.asarray(value).view(_Watched) if isinstance(value, np.generic) else value


_GUARDED_SLOT = property(_read_array, _SLOT.__set__)


def _watched(t, value):
    """``value`` (``t``'s array) as engine code sees it while tracing: a ``_WatchedShape`` where
    a trace may see ``t`` with another shape on a replay, else a ``_Watched``."""
    dynamic = [r for r in _recorders if not r.opaque and r.dynamic and
               r._slot.get(t._id) in r.dynamic]
    if not dynamic:
        return value.view(_Watched)
    view = value.view(_WatchedShape)
    view.readers = [(r, r._slot[t._id] in r.valued) for r in dynamic]
    return view


def _shape_read(view):
    for r, valued in getattr(view, "readers", ()):
        r.shape_read = True
        if valued:
            r.value_shape_read = True


class _WatchedShape(_Watched):
    """The array of a tensor whose shape depends on values (see ``replayed.py``): reading its
    shape in Python makes the graph check that shape on every replay."""

    @property
    def shape(self):
        _shape_read(self)
        return np.ndarray.shape.__get__(self)

    @property
    def size(self):
        _shape_read(self)
        return np.ndarray.size.__get__(self)

    def __len__(self):
        _shape_read(self)
        return np.ndarray.__len__(self)


class lifted:  # noqa: N801 - a context, named as one
    """Code run out of the traces in progress (``tf.init_scope``), or out of ``recorders``
    (a ``@replayed`` call): they do not see its ops, draws and variables; what it makes is a
    constant to them."""

    def __init__(self, recorders=None):
        self._paused = recorders

    def __enter__(self):
        active = state.active
        self._saved = active[:]
        if self._paused is None:
            self._paused = [r for r in _recorders if r in active and not r.opaque]
        active[:] = [a for a in active if a not in self._paused]
        for r in self._paused:
            r.opaque += 1
        return self

    def __exit__(self, *exc):
        for r in self._paused:
            r.opaque -= 1
        state.active[:] = self._saved
        return False


class ShapeChanged(Exception):
    """A replay found a value-dependent shape other than the trace's, and the trace read it."""


def _trace_call(call, args, kwargs):
    """A ``@replayed`` function called while tracing (``replayed.tracer``): run unseen by the
    traces, then recorded as one ``CALL`` node by each (see ``TraceRecorder.on_call``)."""
    active = state.active
    seeing = [r for r in _recorders if not r.opaque and r in active]
    if call.only_dynamic:
        seeing = [r for r in seeing if r.any_dynamic((args, kwargs))]
    if not seeing:
        return call.fn(*args, **kwargs)
    context = call.node_context(args, kwargs, seeing[-1].calls)
    first = _real_next_id()
    with lifted(seeing):
        out = call.run(context, args, kwargs)
    made = range(first + 1, _real_next_id())     # (a tensor made inside, not a result, that a
    for r in seeing:                              # gradient taken in the body uses: not replayable)
        r.made_in_python.update(dict.fromkeys(made, call.fn.__name__))
        r.on_call(call, context, args, kwargs, out)
    return out


_SYMBOLIC_BOOL = (
    "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the "
    "following resolutions to the problem: If you are running in Graph mode, use Eager "
    "execution mode or decorate this function with @tf.function. If you are using AutoGraph, "
    "you can try decorating this function with @tf.function. If that does not work, then you "
    "may be using an unsupported feature or your source code may not be visible to AutoGraph. "
    "See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
    "g3doc/reference/limitations.md#access-to-source-code for more information.")


def _bool(self):
    """``bool()`` of a tensor while tracing: marks the trace; in a trace without AutoGraph
    (``strict``), the user's ``bool()`` of a tensor it computed is TensorFlow's error."""
    for r in _recorders:
        if not r.opaque:
            if r.strict and r.computed(self) and \
                    not sys._getframe(1).f_code.co_filename.startswith(_ENGINE_DIR):
                raise OperatorNotAllowedInGraphError(_SYMBOLIC_BOOL)
            r.fail("bool() of a tensor was taken in Python")
    return Tensor.__bool__(self)
_index = _noting(Tensor.__index__, "operator.index()")


class _EngineText:
    """Stands for ``sys.stdout``/``sys.stderr`` while tracing: text written from engine code
    (``tf.print``) marks the trace, since a replay would not print it."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        if sys._getframe(1).f_code.co_filename.startswith(_ENGINE_DIR):
            for r in _recorders:
                if not r.opaque:      # (tf.print itself is a node called again: replayed.py)
                    r.fail("the engine printed")
        elif isinstance(self._stream, _HiddenPrints):   # (it would see this frame as the writer)
            return len(text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


_saved_streams = []


def _install():
    for prim in TABLE.values():
        if prim.vjp is not None:
            _saved_vjps[prim] = prim.vjp
            prim.vjp = _recorded_vjp(prim, prim.vjp)
    tensor_module._next_id = _noting_next_id
    replayed.tracer = _trace_call
    Tensor._value = _GUARDED_SLOT
    for name, convert in _CONVERTERS.items():
        setattr(np, name, _converting(convert))
    EagerTensor.__bool__ = _bool
    EagerTensor.__index__ = _index
    EagerTensor.numpy = _graph_numpy
    _saved_streams[:] = [sys.stdout, sys.stderr]
    sys.stdout, sys.stderr = _EngineText(sys.stdout), _EngineText(sys.stderr)


def _uninstall():
    for prim, vjp in _saved_vjps.items():
        prim.vjp = vjp
    _saved_vjps.clear()
    tensor_module._next_id = _real_next_id
    replayed.tracer = None
    Tensor._value = _SLOT
    for name, convert in _CONVERTERS.items():
        setattr(np, name, convert)
    del EagerTensor.__bool__, EagerTensor.__index__, EagerTensor.numpy
    if isinstance(sys.stdout, _EngineText):
        sys.stdout = _saved_streams[0]
    if isinstance(sys.stderr, _EngineText):
        sys.stderr = _saved_streams[1]


class _Out:
    """An output leaf: the value in slot ``i``."""

    __slots__ = ("i",)

    def __init__(self, i):
        self.i = i


class TraceRecorder:
    """Records one traced call (see the module docstring). Enter it around the body; ``finish``
    gives the ``TraceGraph``."""

    def __init__(self, flat_inputs, strict=False, open_inputs=None):
        self.strict = strict          # no AutoGraph: bool() of a computed tensor is an error
        self.made_in_python = {}      # tensor id -> the engine function that made it in Python
        self.reason = None            # why the trace cannot be replayed (the first reason)
        self.nodes = []               # (OP, prim, attrs, input slots, out slot), (READ, ...), ...
        self.constants = {}           # slot -> captured tensor
        self._slot = {}               # tensor id -> slot
        self._arg_of_variable = {}    # id(variable argument) -> its input index
        self.specs = []               # slot -> (shape, dtype) seen while tracing
        self.held = []                # slot -> the tensor seen there while tracing
        self.undo = None              # while an untaken branch records: [(variable, array)]
        self.branched = False         # a COND or WHILE node was recorded
        self.opaque = 0               # > 0 while a reverse rule runs unseen (_tensors_made_alone)
        self.calls = 0                # CALL nodes recorded (a node's ordinal: ``replayed``)
        self.dynamic = set()          # slots whose shape a replay may change (module docstring)
        self.valued = set()           # those whose shape depends on values (``replayed``)
        self.shape_read = False       # a dynamic shape was read in Python: per-shape graph
        self.value_shape_read = False     # a valued one was: replays check it
        self.guard = [False]          # (the CALL nodes': ``value_shape_read`` at the end)
        self.inputs = []              # (input index, slot) for tensor inputs
        self.flat_inputs = flat_inputs
        for i, x in enumerate(flat_inputs):
            if isinstance(x, Variable):
                self._arg_of_variable[id(x)] = i
            elif x._id in self._slot:
                self.fail("the same tensor was passed as two arguments")
            else:
                self._slot[x._id] = self._new(x)
                self.inputs.append((i, self._slot[x._id]))
                if open_inputs and open_inputs[i]:    # (a size the signature leaves open)
                    self.dynamic.add(self._slot[x._id])

    def _new_slot(self, t):
        """A new slot for tensor ``t``, which now stands for it."""
        self._slot[t._id] = i = self._new(t)
        return i

    def _new(self, example):
        """A new slot, for values like ``example`` (its shape and dtype are kept for listing)."""
        self.specs.append((tuple(example._value.shape), example.dtype))
        self.held.append(example)
        return len(self.specs) - 1

    def fail(self, reason):
        if self.reason is None:
            self.reason = reason

    # -- what the engine tells recorders -----------------------------------------------------
    def on_op(self, prim, inputs, attrs, out):
        if self.opaque:
            return
        if not isinstance(prim, Primitive):
            self.fail(f"{getattr(prim, 'name', prim)!s} is not a primitive")
        ins = tuple(self.slot_of(x) for x in inputs)
        slot = self._new_slot(out)
        self._shaped(slot, *self._inherited(ins))
        self.nodes.append((OP, prim, attrs, ins, slot))

    def _inherited(self, ins):
        """``(dynamic, valued)`` for a result of an op on the slots ``ins``: as its inputs."""
        dynamic = bool(self.dynamic) and not self.dynamic.isdisjoint(ins)
        return dynamic, dynamic and not self.valued.isdisjoint(ins)

    def _shaped(self, slot, dynamic, valued):
        """Notes that a replay may change ``slot``'s shape (``valued``: with the values)."""
        if dynamic:
            self.dynamic.add(slot)
        if valued:
            self.valued.add(slot)

    def any_dynamic(self, structure, within=None):
        """Whether a tensor in ``structure`` has a shape a replay may change (one of ``within``:
        default ``dynamic``)."""
        slots = self.dynamic if within is None else within
        return any(isinstance(x, Tensor) and self._slot.get(x._id) in slots
                   for x in _leaves(structure))

    def on_call(self, call, context, args, kwargs, out):
        """A ``@replayed`` function ran on ``args`` and gave ``out`` (its tensors become slots);
        ``context``: what each run of the node enters (``replayed.Call.node_context``)."""
        def slot(x):
            if isinstance(x, Tensor):
                return _Out(self.slot_of(x))
            if any(isinstance(v, Tensor) and self.computed(v)
                   for v in getattr(x, "__dict__", {}).values()):
                self.fail(f"{call.op} was given a {type(x).__name__} of tensors the trace computed")
            return x
        dynamic = call.dynamic_shape or \
            (not call.only_dynamic and self.any_dynamic((args, kwargs)))
        valued = call.dynamic_shape or \
            (not call.only_dynamic and self.any_dynamic((args, kwargs), self.valued))
        ins = map_leaves(slot, args), map_leaves(slot, kwargs)
        outs, shapes = [], []
        for x in _leaves(out):
            if isinstance(x, Tensor):
                i = self._new_slot(x)
                self._shaped(i, dynamic, valued)
                outs.append(i)
                shapes.append(self.specs[i][0])
            else:
                outs.append(None)
                shapes.append(None)
        self.nodes.append((CALL, call, context, ins, tuple(outs),
                           self.guard if valued else None, tuple(shapes)))
        self.calls += 1

    def on_read(self, var, t):
        if self.opaque:
            self.fail("a reverse rule read a variable")
        slot = self._slot[t._id] = self._new(t)
        self.nodes.append((READ, self._variable_ref(var), slot))

    def on_assign(self, var, value, kind):
        if value is None:
            # A Python value (``v.assign_add(1)``): the update's own frame holds it.
            raw = sys._getframe(1).f_locals.get("value")
            if raw is None or isinstance(raw, Tensor):
                self.fail("a sparse variable update")
                return
            value = convert_to_tensor(raw, dtype=var.dtype)
        if self.undo is not None:
            self.undo.append((var, var._value))
        self.nodes.append((ASSIGN, self._variable_ref(var), kind, self.slot_of(value)))

    def enter_rule(self):
        """A reverse rule starts running through the trace: where its nodes start, and the
        reason the trace cannot be replayed so far (the rule's own reason is told apart)."""
        mark = (len(self.nodes), self.reason, self.shape_read, self.value_shape_read)
        self.reason = None
        self.shape_read = self.value_shape_read = False
        return mark

    def leave_rule(self, mark, prim, vjp, inputs, attrs, wanted, out, fused):
        """The rule that started at ``mark`` gave ``out``: its ops stay the graph's, unless
        something in it cannot be replayed, or it is ``fused`` (see ``_recorded_vjp``), or it
        read a shape a replay may change (an engine rule: called again, it reads the replay's);
        then they give way to one ``VJP`` node."""
        start, reason, shape_read, value_shape_read = mark
        made = self.made_in_python
        read = (self.shape_read, self.value_shape_read)
        absorbed = read[0] and _engine_rule(vjp)
        self.shape_read = shape_read or (read[0] and not absorbed)
        self.value_shape_read = value_shape_read or (read[1] and not absorbed)
        if not fused and not absorbed and self.reason is None and not self.branched and all(
                c is None or (isinstance(c, Tensor) and (c._id in self._slot or c._id not in made))
                for c in out):
            self.reason = reason
            return
        del self.nodes[start:]
        self.reason = reason
        self.on_vjp(prim, vjp, inputs, attrs, wanted, out)

    def on_vjp(self, prim, vjp, inputs, attrs, wanted, out):
        """A reverse rule ran on ``inputs`` (the cotangent, the op's output, its inputs)."""
        if self.branched:      # (a gradient taken inside would follow the branches taken)
            self.fail("a gradient was taken inside the function after converted control flow")
        if not all(isinstance(x, (Tensor, Variable)) for x in inputs) or \
                not all(c is None or isinstance(c, Tensor) for c in out):
            self.fail("a gradient that is not a dense tensor")
            return
        # (a variable is the input of its read: ``(variable or input index,)`` stands for it)
        ins = tuple((self._variable_ref(x),) if isinstance(x, Variable) else self.slot_of(x)
                    for x in inputs)
        inherited = self._inherited([i for i in ins if type(i) is int])
        outs = []
        for c in out:
            if c is not None:
                self._shaped(self._new_slot(c), *inherited)
            outs.append(None if c is None else self._slot[c._id])
        self.nodes.append((VJP, vjp, attrs, tuple(wanted), ins, tuple(outs), prim.name))

    def on_export(self, x):
        if self.opaque:
            return
        self.fail("a tensor's value was read in Python (.numpy(), float(), int(), NumPy)")

    def __getattr__(self, name):
        if name.startswith("on_"):     # other events (a tape's observers): nothing to record
            return _ignore
        raise AttributeError(name)

    # -- values ------------------------------------------------------------------------------
    def _variable_ref(self, var):
        i = self._arg_of_variable.get(id(var))
        return var if i is None else i

    def computed(self, x):
        """Whether the trace computed ``x`` (an input, a read or an op's output)."""
        slot = self._slot.get(x._id)
        return slot is not None and slot not in self.constants

    def slot_of(self, x):
        slot = self._slot.get(x._id)
        if slot is None:
            maker = self.made_in_python.get(x._id)
            if maker is not None:
                self.fail(f"a tensor made in Python by {maker}() was used")
            slot = self._slot[x._id] = self._new(x)
            self.constants[slot] = x
        return slot

    def __enter__(self):
        if not _recorders:
            _install()
        _recorders.append(self)
        state.active.append(self)
        entered(1)
        return self

    def __exit__(self, *exc):
        active = state.active
        if self in active:
            del active[active.index(self)]
        entered(-1)
        _recorders.remove(self)
        if not _recorders:
            _uninstall()
        return False

    def finish(self, result):
        """The graph, with ``result`` (the call's outputs) as its outputs."""
        def out(leaf):
            return _Out(self.slot_of(leaf)) if isinstance(leaf, Tensor) else leaf
        outputs = map_leaves(out, result)
        self.guard[0] = self.value_shape_read
        if self.value_shape_read and _changes_state(self.nodes):
            self.fail("a shape that depends on values was read in Python, in a function that "
                      "updates variables, draws or prints")
        return TraceGraph(self, outputs)


def _changes_state(nodes):
    """Whether ``nodes`` (branches and loop bodies included) update a variable or call a
    ``@replayed`` function that changes state (a draw, an optimizer's update, a print)."""
    for node in nodes:
        kind = node[0]
        inner = (node[2][0], node[3][0]) if kind is COND else \
            (node[3][0], node[4][0]) if kind is WHILE else ()
        if kind is ASSIGN or (kind is CALL and not node[1].pure) or \
                any(_changes_state(nodes) for nodes in inner):
            return True
    return False


def _variable(ref, flat_inputs):
    return flat_inputs[ref] if type(ref) is int else ref


def _ignore(*args, **kwargs):
    return None


class _Seen:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


class TraceGraph:
    """The recorded program of one trace; ``replay`` runs it on new inputs."""

    def __init__(self, recorder, outputs):
        self.reason = recorder.reason
        self.replayable = recorder.reason is None
        self.nodes = tuple(recorder.nodes)
        self.constants = dict(recorder.constants)
        self.inputs = tuple(recorder.inputs)
        self.outputs = outputs
        self.dynamic = frozenset(getattr(recorder, "dynamic", ()))   # (see TraceRecorder)
        # It serves every size its signature leaves open: some input's size is open, and no
        # shape of a tensor depending on one was read in Python.
        self.any_size = self.replayable and any(s in self.dynamic for _, s in self.inputs) and \
            not getattr(recorder, "shape_read", True)
        self._specs = recorder.specs
        self._prepared = None         # the nodes as ``prepare`` makes them, on the first replay
        self._program = None          # the compiled nodes (False: they do not compile)
        self._template = [None] * len(recorder.specs)
        # a rule kept as one node reuses what its forward kept while something records
        # (``Primitive.hands_on``): a replay then counts as recording for the forwards
        self._keeps = any(node[0] is VJP and node[6] in TABLE and TABLE[node[6]].hands_on
                          for node in self.nodes)
        for slot, t in self.constants.items():
            self._template[slot] = t

    def example(self, slot):
        """What the trace saw in ``slot``: its ``shape`` and ``dtype``."""
        shape, dtype = self._specs[slot]
        return _Seen(shape, dtype)

    def replay_in(self, label, flat_inputs):
        """``replay`` with its ops grouped under ``label`` (the call's cluster in the tape
        graph; nothing records a replay while no tape or accumulator is active)."""
        if not state.active:
            return self.replay(flat_inputs)
        scopes = scope_stack.mine()
        scopes.append(label)
        try:
            return self.replay(flat_inputs)
        finally:
            scopes.pop()

    def replay(self, flat_inputs):
        """The outputs for ``flat_inputs`` (the call's tensor and variable leaves), computed by
        running the nodes through ``recording.bind`` (tapes around the call record them); where
        no tape or accumulator is active, by the compiled program (``compiled.py``), or where
        the graph does not compile, by the prepared steps (``prepare``), which run the same
        implementations on the same arrays without ``bind``'s per-op work."""
        if not state.active and self._keeps:
            entered(1)
            try:
                return self._replay(flat_inputs)
            finally:
                entered(-1)
        return self._replay(flat_inputs)

    def _replay(self, flat_inputs):
        if not state.active:
            program = self._program
            if program is None:
                program = self._program = self._compile() or False
            if program:
                try:
                    got = program.run(flat_inputs)
                except Exception as e:
                    got = self._resume(program, e, flat_inputs)
                if got is not None:
                    by_slot = dict(zip(program.out_slots, got))
                    return map_leaves(lambda x: by_slot[x.i] if isinstance(x, _Out) else x,
                                      self.outputs)
                self._program = None        # (an implementation was replaced: compile again)
        vals = self._template[:]
        for i, slot in self.inputs:
            vals[slot] = flat_inputs[i]
        if state.active:
            run_nodes(self.nodes, vals, flat_inputs)
        else:
            if self._prepared is None:
                self._prepared = prepare(self.nodes)
            run_nodes(self._prepared, vals, flat_inputs)
        return map_leaves(lambda x: vals[x.i] if isinstance(x, _Out) else x, self.outputs)

    def _compile(self):
        out_slots = []
        map_leaves(lambda x: isinstance(x, _Out) and x.i not in out_slots and
                   out_slots.append(x.i), self.outputs)
        prims = {node[1]: None for node in self.nodes if node[0] is OP}
        return compile_nodes(self.nodes, self.constants, self.inputs, out_slots, list(prims))

    def _resume(self, program, error, flat_inputs):
        """A compiled run raised ``error``: the nodes from the one that raised on run through
        ``recording.bind`` from the values the run had (raising the eager error, as an eager
        call does); returns the output tensors in ``program.out_slots``' order."""
        failed = program.failed_node(error)
        if failed is None:
            raise error
        k, local = failed
        vals = self._template[:]
        for slot, value in program.folded.items():
            vals[slot] = as_tensor(value)
        for slot in range(len(vals)):
            value = local.get(f"v{slot}")
            if vals[slot] is None and value is not None:
                vals[slot] = as_tensor(value)
        for i, slot in self.inputs:
            vals[slot] = flat_inputs[i]
        run_nodes(self.nodes[k:], vals, flat_inputs)
        return tuple(vals[slot] for slot in program.out_slots)


def truth(t):
    """A scalar tensor's truth value, read without marking a trace (the machinery's read)."""
    return bool(_SLOT.__get__(t, Tensor))


def _replay_vjp(node, vals, flat_inputs):
    ins = [vals[j] if type(j) is int else _variable(j[0], flat_inputs) for j in node[4]]
    out = node[1](ins[0], ins[1], tuple(ins[2:]), node[2], node[3])
    for slot, c in zip(node[5], out):
        if slot is not None:
            vals[slot] = c


def _replay_call(node, vals):
    """``(CALL, replayed.Call, context, (args, kwargs), results, guard, shapes)``: the function
    called again on the slots' tensors; with the guard set, a result of another shape than the
    trace's raises ``ShapeChanged``."""
    _, call, context, (args, kwargs), outs, guard, shapes = node

    def fill(x):
        return vals[x.i] if isinstance(x, _Out) else x
    got = call.run(context, map_leaves(fill, args), map_leaves(fill, kwargs))
    for slot, value, shape in zip(outs, _leaves(got), shapes):
        if slot is not None:
            if guard is not None and guard[0] and tuple(value._value.shape) != shape:
                raise ShapeChanged(call.op)
            vals[slot] = value


def _leaves(x):
    """The leaves of a call's result: tensors (a composite's components) and other values."""
    if isinstance(x, (list, tuple)):
        return [leaf for v in x for leaf in _leaves(v)]
    if isinstance(x, dict):
        return [leaf for v in x.values() for leaf in _leaves(v)]
    if isinstance(x, Tensor):
        return [x]
    found = []
    map_leaves(found.append, x)        # (a SparseTensor's or RaggedTensor's components)
    return found


def _replay_cond(node, vals, flat_inputs):
    """``(COND, predicate slot, (nodes, output slots) per branch, output slots)``."""
    nodes, outs = node[2] if truth(vals[node[1]]) else node[3]
    run_nodes(nodes, vals, flat_inputs)
    for slot, src in zip(node[4], outs):
        vals[slot] = vals[src]


def _replay_while(node, vals, flat_inputs):
    """``(WHILE, loop slots, initial slots, (cond nodes, cond slot), (body nodes, body
    output slots))``: the loop's values end in its loop slots."""
    _, loop, initial, (cond_nodes, cond_slot), (body_nodes, body_outs) = node
    for slot, src in zip(loop, initial):
        vals[slot] = vals[src]
    while True:
        run_nodes(cond_nodes, vals, flat_inputs)
        if not truth(vals[cond_slot]):
            return
        run_nodes(body_nodes, vals, flat_inputs)
        new = [vals[src] for src in body_outs]
        for slot, v in zip(loop, new):
            vals[slot] = v


def run_nodes(nodes, vals, flat_inputs):
    """Runs recorded ``nodes`` on ``vals`` (slot -> value), through ``recording.bind``, or
    ``prepare``'s steps (an op run without ``bind``: see ``prepare``)."""
    next_id = tensor_module._next_id
    for node in nodes:
        kind = node[0]
        if kind is PREPARED_OP:
            _, prim, impl, raw, attrs, ins, out = node
            if prim.impl is not impl:       # (replaced since: check_numerics, kernels)
                raw = unguarded(prim.impl)
            try:
                value = raw(*[vals[j]._value for j in ins], **attrs)
            except Exception:
                vals[out] = bind(prim, tuple([vals[j] for j in ins]), attrs)
                continue
            t = EagerTensor()
            t._value = value
            t._id = next_id()
            vals[out] = t
        elif kind is OP:
            vals[node[4]] = bind(node[1], tuple([vals[j] for j in node[3]]), node[2])
        elif kind is VJP:
            _replay_vjp(node, vals, flat_inputs)
        elif kind is READ:
            var = node[1]
            vals[node[2]] = (flat_inputs[var] if type(var) is int else var).read_value()
        elif kind is COND:
            _replay_cond(node, vals, flat_inputs)
        elif kind is WHILE:
            _replay_while(node, vals, flat_inputs)
        elif kind is CALL:
            _replay_call(node, vals)
        else:
            var = node[1]
            var = flat_inputs[var] if type(var) is int else var
            getattr(var, node[2])(vals[node[3]], read_value=False)


# -- replay where nothing records ----------------------------------------------------------------
# A replay that no tape or accumulator sees need not go through ``recording.bind`` for each op:
# the trace already checked the op's dtypes (a trace is per input dtypes and shapes), and no
# recorder is told. ``prepare`` turns the nodes into steps once: an op is its implementation
# without the dtype guard (``checks.dtype_rules.guard``), its attributes and its slots; the other
# nodes stay as they are. An op that raises is run again through ``bind``, which raises its
# error exactly as an eager call does.
def prepare(nodes):
    """``nodes`` as steps for ``run_nodes``: an op becomes ``(PREPARED_OP, prim, the impl it
    had, that impl unguarded, attrs, input slots, output slot)``; a cond's or while loop's
    nodes are prepared inside it."""
    steps = []
    for node in nodes:
        kind = node[0]
        if kind is OP:
            prim = node[1]
            steps.append((PREPARED_OP, prim, prim.impl, unguarded(prim.impl), node[2] or {},
                          node[3], node[4]))
        elif kind is COND:
            steps.append((COND, node[1], (prepare(node[2][0]), node[2][1]),
                          (prepare(node[3][0]), node[3][1]), node[4]))
        elif kind is WHILE:
            _, loop, initial, (cond_nodes, cond_slot), (body_nodes, body_outs) = node
            steps.append((WHILE, loop, initial, (prepare(cond_nodes), cond_slot),
                          (prepare(body_nodes), body_outs)))
        else:
            steps.append(node)
    return steps

