"""``tf.GradientTape``: records ops on watched tensors and runs reverse-mode differentiation.

The tape is a flat list of ``Record``s in execution order (so it is already topologically
sorted). ``gradient`` walks it once forwards to find what depends on the sources, then once
backwards over just those records, calling each primitive's VJP from the table.

>>> import tapegrad as tf
>>> x = tf.Variable(3.0)
>>> with tf.GradientTape() as tape:
...     y = x ** 2
>>> print(tape.gradient(y, x))
tf.Tensor(6.0, shape=(), dtype=float32)
"""
import enum
import logging
import sys

from .backend import xp as np  # the array seam (see backend.py)

from . import nest
from . import recording
from .recording import Record, active, scope_stack, user_line
from .table import BINARY_RULES, defvjp, primitive
from .tensor import Tensor, convert_to_tensor, wrap
from .variables import Variable

log = logging.getLogger("tapegrad")
_engine_files, _classify = recording.engine_files, recording.classify
_getframe = sys._getframe

# Reading a variable inside a tape: the edge from the variable to the tensor that was read.
READ = primitive("ReadVariableOp", None)
defvjp(READ, lambda g, ans, v: g)


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


def _warn(message):
    log.warning(message)


class GradientTape:
    """Records operations for automatic differentiation.

    ``persistent=True`` allows several ``gradient`` calls; ``watch_accessed_variables=False``
    records only what ``watch`` names.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._records = []
        self._watched = set()          # ids of tensors and variables this tape follows
        self._watched_vars = {}        # id -> Variable, in order of first access
        self._recording = False
        self._spent = False            # a non-persistent tape after its gradient call
        self.listeners = []            # graph/explain observers of gradient calls (tapegrad.graph)
        # Facts kept only to explain a None gradient later (tapegrad.graph.explain):
        self._notes = TapeNotes()
        self._watched_at = {}          # id -> (file, line) of the watch() call
        for hook in creation_hooks:
            hook(self)

    # -- context ------------------------------------------------------------------------------
    def __enter__(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an "
                             "already-active tape.")
        self._push()
        return self

    def __exit__(self, exc_type, exc, tb):
        if self._recording:
            self._pop()
        return False

    def _push(self):
        active.append(self)
        self._recording = True

    def _pop(self):
        if self in active:
            active.remove(self)
        self._recording = False

    class _StopRecording:
        def __init__(self, tape):
            self.tape = tape

        def __enter__(self):
            if not self.tape._recording:
                raise ValueError("Tape must be recording when a pause is requested (use "
                                 "stop_recording inside the tape's `with` block).")
            self.index = active.index(self.tape)
            self.tape._pop()
            self.witness = _PauseWitness(self.tape)
            active.insert(self.index, self.witness)

        def __exit__(self, *exc):
            if self.witness in active:
                active.remove(self.witness)
            active.insert(min(self.index, len(active)), self.tape)
            self.tape._recording = True
            return False

    def stop_recording(self):
        """A context in which this tape records nothing (other tapes are not affected)."""
        return GradientTape._StopRecording(self)

    def reset(self):
        """Forgets everything recorded so far; recording continues if the tape is active."""
        self._notes.resets.append((user_line(), {r.output._id for r in self._records or ()}))
        self._records = []
        self._watched = set()
        self._watched_vars = {}
        self._spent = False

    # -- watching -------------------------------------------------------------------------------
    def watch(self, tensor):
        """Follows a tensor, a variable, or a nested structure of them."""
        for t in nest.flatten(tensor):
            if isinstance(t, Variable):
                self._watch_variable(t)
            elif isinstance(t, Tensor):
                if t._value.dtype.kind not in "fc":
                    _warn("The dtype of the watched tensor must be floating (e.g. tf.float32), "
                          f"got tf.{t.dtype.name}")
                    continue
                self._watched.add(t._id)
                self._watched_at.setdefault(t._id, user_line())
            else:
                raise ValueError(f"Passed in object of type {type(t)}, not tf.Tensor or "
                                 f"tf.Variable or ExtensionType.")

    def _watch_variable(self, v):
        if v._value.dtype.kind not in "fc":
            _warn("The dtype of the watched tensor must be floating (e.g. tf.float32), "
                  f"got tf.{v.dtype.name}")
            return
        self._watched.add(v._id)
        self._watched_vars.setdefault(v._id, v)
        self._watched_at.setdefault(v._id, user_line())

    def watched_variables(self):
        """The variables this tape watches, in the order they were first accessed."""
        return tuple(self._watched_vars.values())

    # -- recorder protocol (called by bind and Variable.read_value) ------------------------------
    def on_op(self, prim, inputs, attrs, out):
        watched = self._watched
        if not inputs or inputs[0]._id not in watched:  # (the first input, most often watched)
            for x in inputs:
                if x._id in watched:
                    break
            else:
                cut = self._notes.cut
                if cut:  # follow values derived from a cut (an int cast) to explain a None later
                    for x in inputs:
                        c = cut.get(x._id)
                        if c is not None:
                            cut[out._id] = c
                            break
                return
        # The hot path: the Record is filled slot by slot and its source line is kept as the
        # user's code object and instruction offset, resolved only when ``where`` is read.
        rec = Record()
        rec.op = prim
        rec.inputs = inputs
        rec.output = out
        rec.attrs = attrs
        rec.scope = tuple(scope_stack) if scope_stack else None
        rec._where = None
        if recording.capture_source_lines:
            # The user's line: the innermost frame from bind's caller on (depth 2 from here,
            # under bind) that is outside the engine and NumPy. Each file is classified once;
            # a frame object is made only for frames actually looked at.
            engine = _engine_files
            f = _getframe(2)
            while f is not None:
                code = f.f_code
                inside = engine.get(code.co_filename)
                if inside is None:
                    inside = _classify(code.co_filename)
                if not inside:
                    rec._where = code
                    rec._lasti = f.f_lasti
                    break
                f = f.f_back
        if out._value.dtype.kind in "fc":
            watched.add(out._id)
        else:
            self._notes.cut[out._id] = rec
        self._records.append(rec)

    def on_read(self, var, t):
        if var._id not in self._watched:
            if not (self._watch_accessed and var._trainable):
                return
            if var._value.dtype.kind not in "fc":
                # TF lists an accessed integer variable silently (no gradient can flow)
                self._watched_vars.setdefault(var._id, var)
                return
            self._watch_variable(var)
            if var._id not in self._watched:
                return
        self._watched.add(t._id)
        self._records.append(Record.of(READ, (var,), t, {}, user_line(),
                                       tuple(scope_stack) if scope_stack else None))

    def on_export(self, t):
        """A watched tensor's value was taken by NumPy (``np.mean(x)``): the tape loses it."""
        if t._id in self._watched:
            self._notes.exported.setdefault(t._id, user_line())

    def on_assign(self, var, value, kind):
        """A watched value was written into a variable: assignments are not differentiable."""
        if value is not None and value._id in self._watched:
            self._notes.assigned.append((var, value._id, kind, user_line()))

    # -- differentiation ------------------------------------------------------------------------
    def _check_usable(self):
        if self._spent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set "
                               "of gradients (or jacobians)")
        if self._recording:
            if not self._persistent:
                self._pop()
            else:
                _warn_once("Calling GradientTape.gradient on a persistent tape inside its context "
                           "is significantly less efficient than calling it outside the context "
                           "(it causes the gradient ops to be recorded on the tape, leading to "
                           "increased CPU and memory usage). Only call GradientTape.gradient inside "
                           "the context if you actually want to trace the gradient in order to "
                           "compute higher order derivatives.")

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(sum of targets)/d(source) for each source, in the structure of ``sources``.

        Targets and sources may be any nesting of lists, tuples and dicts. A non-scalar target
        gives the gradient of its sum; ``output_gradients`` weights each target instead.
        """
        self._check_usable()
        if target is None:
            raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                            "Variables or CompositeTensors to be differentiated, but received None.")
        unconnected = _unconnected(unconnected_gradients)
        flat_targets = [_as_target(t) for t in nest.flatten(target)]
        flat_sources = nest.flatten(sources)
        for s in flat_sources:
            if not isinstance(s, (Tensor, Variable)):
                raise ValueError(f"Passed in object of type {type(s)}, not tf.Tensor or "
                                 f"tf.Variable or ExtensionType.")
        seeds = _seeds(flat_targets, output_gradients)
        for t in flat_targets:
            if t._value.dtype.kind not in "fc":
                _warn("The dtype of the target tensor must be floating (e.g. tf.float32) when "
                      f"calling GradientTape.gradient, got tf.{t.dtype.name}")
        for s in flat_sources:
            if s._value.dtype.kind not in "fc":
                _warn("The dtype of the source tensor must be floating (e.g. tf.float32) when "
                      f"calling GradientTape.gradient, got tf.{s.dtype.name}")
        source_ids = [s._id for s in flat_sources]
        events = [] if self.listeners else None
        records = self._records
        grads = backward(records, flat_targets, seeds, source_ids, self, events)
        results = []
        for s in flat_sources:
            g = grads.get(s._id) if s._value.dtype.kind in "fc" else None
            if g is None and unconnected is UnconnectedGradients.ZERO:
                g = wrap(np.zeros(s._value.shape, s._value.dtype))
            results.append(g)
        if not self._persistent:
            self._spent = True
            self._notes.released = records  # kept only so that explain() can still answer
            self._records = None
        for listener in self.listeners:
            listener.on_gradient(self, GradientCall(records, flat_targets, flat_sources, seeds,
                                                    results, events, unconnected))
        return nest.pack_sequence_as(sources, results)

    def explain(self, target, source):
        """One sentence saying why ``gradient(target, source)`` is None (or zero), else None.

        >>> import tapegrad as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * x
        >>> print(tape.explain(y, x))  # doctest: +ELLIPSIS
        x is a tf.Tensor that the tape did not watch...
        """
        from .graph.explain import explain
        import sys
        return explain(self, target, source, sys._getframe(1))

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target / d source with shape ``target.shape + source.shape`` (tapegrad.jacobians)."""
        from .jacobians import jacobian
        return jacobian(self, target, sources, unconnected_gradients, parallel_iterations,
                        experimental_use_pfor)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobian with shape ``target.shape + source.shape[1:]``."""
        from .jacobians import batch_jacobian
        return batch_jacobian(self, target, source, unconnected_gradients, parallel_iterations,
                              experimental_use_pfor)

    def _repr_svg_(self):
        """Notebook display: the tape's graph as SVG."""
        from .graph.export import tape_svg
        return tape_svg(self)

    @property
    def records(self):
        """The recorded ops, in order (read-only view for graph export and explanations)."""
        return tuple(self._records if self._records is not None else self._notes.released or ())


creation_hooks = []   # called with each new tape (tapegrad.graph.capture uses this)


class TapeNotes:
    """What happened to watched values that the tape itself cannot record."""

    __slots__ = ("resets", "paused", "exported", "assigned", "released", "cut", "paused_reads")

    def __init__(self):
        self.resets = []      # (line, ids of outputs that were forgotten)
        self.paused = {}      # output id -> (op name, line) of ops run inside stop_recording
        self.exported = {}    # tensor id -> line where NumPy took its value
        self.assigned = []    # (variable, value id, kind, line)
        self.released = None  # records of a non-persistent tape after its gradient call
        self.cut = {}         # id of a value derived from a non-float output -> that record
        self.paused_reads = {}  # variable id -> line where it was read inside stop_recording


class GradientCall:
    """One ``gradient`` call as the graph and its animation need it."""

    __slots__ = ("records", "targets", "sources", "seeds", "results", "events", "unconnected",
                 "kind", "row")

    def __init__(self, records, targets, sources, seeds, results, events, unconnected,
                 kind="gradient", row=None):
        self.records = tuple(records)
        self.targets, self.sources, self.seeds = targets, sources, seeds
        self.results, self.events, self.unconnected = results, events, unconnected
        self.kind, self.row = kind, row    # "gradient", or "jacobian" with the row index


class _PauseWitness:
    """Stands in for a tape inside ``stop_recording``: records nothing, but remembers which
    watched values were used, so that a None gradient can be explained."""

    def __init__(self, tape):
        self.tape = tape

    def on_op(self, prim, inputs, attrs, out):
        watched = self.tape._watched
        notes = self.tape._notes
        if any(x._id in watched or x._id in notes.paused for x in inputs):
            notes.paused[out._id] = (prim.name, user_line())

    def on_read(self, var, t):
        tape = self.tape
        if var._id in tape._watched or (tape._watch_accessed and var._trainable):
            tape._notes.paused[t._id] = ("ReadVariableOp", user_line())

    def on_export(self, t):
        pass

    def on_assign(self, var, value, kind):
        pass


_warned = set()


def _warn_once(message):
    if message not in _warned:
        _warned.add(message)
        _warn(message)


def _unconnected(value):
    if isinstance(value, UnconnectedGradients):
        return value
    try:
        return UnconnectedGradients(str(value).lower())
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r} (expected "
                         f"'none', 'zero' or tf.UnconnectedGradients)") from None


def _as_target(t):
    if isinstance(t, Tensor):
        return t
    if isinstance(t, Variable):
        return _VariableTarget(t)
    return convert_to_tensor(t)


class _VariableTarget:
    """A variable used as a target: differentiated through its handle, not a fresh read."""
    __slots__ = ("_value", "_id", "dtype")

    def __init__(self, v):
        self._value, self._id, self.dtype = v._value, v._id, v.dtype


def _seeds(targets, output_gradients):
    if output_gradients is None:
        return [wrap(np.ones(t._value.shape, t._value.dtype)) for t in targets]
    flat = nest.flatten(output_gradients) if isinstance(output_gradients, (list, tuple, dict)) \
        else [output_gradients]
    if len(flat) != len(targets):
        raise ValueError(f"output_gradients has {len(flat)} entries but there are "
                         f"{len(targets)} targets")
    out = []
    for t, g in zip(targets, flat):
        if g is None:
            out.append(wrap(np.ones(t._value.shape, t._value.dtype)))
            continue
        g = g.read_value() if isinstance(g, Variable) else convert_to_tensor(g, dtype=t.dtype)
        if g._value.shape != t._value.shape:
            raise ValueError(f"output_gradients shape {g.shape} does not match target shape "
                             f"{tuple(t._value.shape)}")
        out.append(g)
    return out


def backward(records, targets, seeds, source_ids, tape=None, events=None):
    """Reverse pass over ``records``: returns ``{id: gradient}`` for the ids in ``source_ids``.

    Only records whose inputs depend on a source are visited (found in one forward sweep); the
    backward sweep is a plain loop, so depth is never limited by Python's recursion. While no
    recorder is active the sums at fan-out are done in place in buffers the engine owns;
    otherwise with the engine's ``add``, so an outer tape records them (higher order).
    """
    from .ops.math_ops import add
    # Only what the tape follows can receive a gradient: an unwatched tensor used beside a
    # watched one is a constant to the tape, so its gradient is None (as in TensorFlow).
    # A source that is itself a target still gets its seed (d x / d x = 1).
    if tape is None:
        reach = set(source_ids)
    else:
        target_ids = {t._id for t in targets}
        reach = {i for i in source_ids if i in tape._watched or i in target_ids}
    relevant = []
    keep_record = relevant.append
    reached = reach.add
    for rec in records:
        for x in rec.inputs:
            if x._id in reach:
                keep_record(rec)
                reached(rec.output._id)
                break
    keep = set(source_ids)
    grads = {}
    owned = set()
    recording = bool(active)

    def accumulate(key, ct):
        prev = grads.get(key)
        if prev is None:
            grads[key] = ct
        elif recording:
            grads[key] = add(prev, ct)
        elif key in owned:
            np.add(prev._value, ct._value, out=prev._value)
        else:
            total = np.add(prev._value, ct._value)
            grads[key] = wrap(total)
            if isinstance(total, np.ndarray):  # 0-d sums come back as NumPy scalars
                owned.add(key)

    for t, s in zip(targets, seeds):
        if t._id in reach and t._value.dtype.kind in "fc":
            accumulate(t._id, s)
    take, peek = grads.pop, grads.get
    binary_rules = BINARY_RULES
    for rec in reversed(relevant):
        oid = rec.output._id
        g = take(oid, None) if oid not in keep else peek(oid)
        if g is None:
            continue
        vjp = rec.op.vjp
        if vjp is None:
            raise LookupError(f"gradient registry has no entry for: {rec.op.name}")
        inputs = rec.inputs
        if len(inputs) == 2:  # the common cases, unrolled: one or both inputs, first gradient
            a, b = inputs
            wa = a._id in reach
            wb = b._id in reach
            rules = None if rec.attrs else binary_rules.get(vjp)
            if rules is not None:  # defvjp's rules called here, as its vjp would call them
                f0, f1 = rules
                ans = rec.output
                ca = f0(g, ans, a, b) if wa and f0 is not None else None
                cb = f1(g, ans, a, b) if wb and f1 is not None else None
                if events is not None:
                    events.append((rec, g, (ca, cb), (wa, wb)))
            else:
                wanted = (wa, wb)
                cts = vjp(g, rec.output, inputs, rec.attrs, wanted)
                if events is not None:
                    events.append((rec, g, cts, wanted))
                if len(cts) != 2:
                    _accumulate_each(accumulate, inputs, cts, wanted)
                    continue
                ca, cb = cts
            if ca is not None and wa:
                if a._id in grads:
                    accumulate(a._id, ca)
                else:
                    grads[a._id] = ca
            if cb is not None and wb:
                if b._id in grads:
                    accumulate(b._id, cb)
                else:
                    grads[b._id] = cb
            continue
        wanted = [x._id in reach for x in inputs]
        cts = vjp(g, rec.output, inputs, rec.attrs, wanted)
        if events is not None:
            events.append((rec, g, cts, wanted))
        _accumulate_each(accumulate, inputs, cts, wanted)
    return {k: grads[k] for k in keep if k in grads}


def _accumulate_each(accumulate, inputs, cts, wanted):
    for x, ct, w in zip(inputs, cts, wanted):
        if w and ct is not None:
            accumulate(x._id, ct)
