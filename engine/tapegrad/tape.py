"""``tf.GradientTape``: records ops on watched tensors and runs reverse-mode differentiation.

The tape is a flat list of ``Record``s in execution order (so it is already topologically
sorted); ``gradient`` hands it to ``backprop.backward``. A tape sees only the ops of the thread
it was entered in.

What the tape cannot record but the graph and ``explain`` need (where a tensor was watched, what
ran inside ``stop_recording``, values taken by NumPy, resets, assignments) goes to its
``observer``, a provenance recorder that tapegrad.graph attaches to every new tape.

>>> import tapegrad as tf
>>> x = tf.Variable(3.0)
>>> with tf.GradientTape() as tape:
...     y = x ** 2
>>> print(tape.gradient(y, x))
tf.Tensor(6.0, shape=(), dtype=float32)
"""
import logging
import sys

from .backend import xp as np  # the array seam (see backend.py)

from . import nest
from . import recording
from .backprop import (  # noqa: F401  (UnconnectedGradients is also tf.UnconnectedGradients)
    READ, GradientCall, UnconnectedGradients, as_target, backward, check_sources, seeds,
    unconnected,
)
from .jacobians import batch_jacobian, jacobian
from .recording import Record, user_frame
from .tensor import Tensor, wrap
from . import thread_state
from .thread_state import state
from .variables import Variable

log = logging.getLogger("tapegrad")
_getframe = sys._getframe

creation_hooks = []   # called with each new tape (tapegrad.graph attaches its observer)
showing = []          # the captures (graph.capturing) showing this run's tapes: the playground's,
                      # the notebook widget's (Keras's fit then steps eagerly, a tape per step)
notebook_display = None  # tapegrad.widget.display puts itself here (show, mimebundle)


def _warn(message):
    log.warning(message)


class GradientTape:
    """Records operations for automatic differentiation.

    ``persistent=True`` allows several ``gradient`` calls; ``watch_accessed_variables=False``
    records only what ``watch`` names. The read-only view that the graph and explanations use:
    ``records``, ``watched_ids``, ``is_watched``, ``persistent``, ``watch_accessed_variables``.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._records = []
        self._watched = set()          # ids of tensors and variables this tape follows
        self._watched_vars = {}        # id -> Variable, in order of first access
        self._recording = False
        self._spent = False            # a non-persistent tape after its gradient call
        self._active = None            # the recorder list of the thread it records in
        self._scopes = None            # that thread's scope stack
        self._follow_unrecorded = None  # observer hook, set once a recorded op gave an int
        self.observer = None           # provenance (tapegrad.graph), or None
        for hook in creation_hooks:
            hook(self)

    # -- the read-only view --------------------------------------------------------------------
    @property
    def records(self):
        """The recorded ops, in order (empty once a non-persistent tape gave its gradient)."""
        return tuple(self._records or ())

    @property
    def watched_ids(self):
        """The ids of the tensors and variables this tape follows."""
        return frozenset(self._watched)

    def is_watched(self, tensor_id):
        return tensor_id in self._watched

    @property
    def persistent(self):
        return self._persistent

    @property
    def watch_accessed_variables(self):
        return self._watch_accessed

    # -- context --------------------------------------------------------------------------------
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

    def _push(self, index=None):
        active = self._active = state.active
        self._scopes = state.scopes
        if index is None:
            active.append(self)
        else:
            active.insert(min(index, len(active)), self)
        thread_state.entered(1)
        self._recording = True

    def _pop(self):
        if self in self._active:
            self._active.remove(self)
            thread_state.entered(-1)
        self._recording = False

    class _StopRecording:
        def __init__(self, tape):
            self.tape = tape

        def __enter__(self):
            tape = self.tape
            if not tape._recording:
                raise ValueError("Tape must be recording when a pause is requested (use "
                                 "stop_recording inside the tape's `with` block).")
            self.index = tape._active.index(tape)
            tape._pop()
            # The observer may stand in for the tape meanwhile (it records nothing).
            self.stand_in = tape.observer.on_pause() if tape.observer is not None else None
            if self.stand_in is not None:
                tape._active.insert(self.index, self.stand_in)
                thread_state.entered(1)

        def __exit__(self, *exc):
            tape = self.tape
            if self.stand_in is not None and self.stand_in in tape._active:
                tape._active.remove(self.stand_in)
                thread_state.entered(-1)
            tape._push(self.index)
            return False

    def stop_recording(self):
        """A context in which this tape records nothing (other tapes are not affected)."""
        return GradientTape._StopRecording(self)

    def reset(self):
        """Forgets everything recorded so far; recording continues if the tape is active."""
        if self.observer is not None:
            self.observer.on_reset(self._records or ())
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
                if self.observer is not None:
                    self.observer.on_watch(t)
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

    def watched_variables(self):
        """The variables this tape watches, in the order they were created (as TensorFlow, which
        keeps them sorted by the variable's unique id)."""
        return tuple(sorted(self._watched_vars.values(), key=lambda v: v._uid))

    # -- recorder protocol (called by bind and Variable) ----------------------------------------
    def on_op(self, prim, inputs, attrs, out):
        """Records the op if one of its inputs is watched (the plain path of recording)."""
        watched = self._watched
        if not inputs or inputs[0]._id not in watched:  # (the first input, most often watched)
            for x in inputs:
                if x._id in watched:
                    break
            else:
                if self._follow_unrecorded is not None:
                    self._follow_unrecorded(inputs, out)
                return
        rec = Record()
        rec.op = prim
        rec.inputs = inputs
        rec.output = out
        rec.attrs = attrs
        scopes = self._scopes
        rec.scope = tuple(scopes) if scopes else None
        rec._where = None
        if recording.capture_source_lines:
            # The user's line, from bind's caller on. A record keeps its code and instruction
            # offset, and ``Record.where`` resolves the line when read. Speed: rather than
            # ``user_line``, which reads ``f_lineno`` at every op: ~0.45 us per op on W1, and
            # -27k instructions per W2 step for its six variable reads (measured 2026-11-23).
            f = user_frame(_getframe(2))
            if f is not None:
                rec._where = f.f_code
                rec._lasti = f.f_lasti
        if out._value.dtype.kind in "fc":
            watched.add(out._id)
        elif self.observer is not None:  # values derived from it are not recorded
            self._follow_unrecorded = self.observer.on_cut(rec)
        self._records.append(rec)

    def on_read(self, var, t):
        if var._id not in self._watched:
            if not (self._watch_accessed and var._trainable):
                return
            if var._value.dtype.kind not in "fc":
                # TF lists an accessed integer variable silently (no gradient can flow)
                self._watched_vars.setdefault(var._id, var)
                return
            self._watched.add(var._id)   # (``_watch_variable`` for a float variable)
            self._watched_vars.setdefault(var._id, var)
        self._watched.add(t._id)
        scopes = self._scopes
        rec = Record()
        rec.op = READ
        rec.inputs = (var,)
        rec.output = t
        rec.attrs = {}
        rec.scope = tuple(scopes) if scopes else None
        rec._where = None
        if recording.capture_source_lines:
            f = user_frame(_getframe(1))   # the user's line, as on_op
            if f is not None:
                rec._where = f.f_code
                rec._lasti = f.f_lasti
        self._records.append(rec)

    def on_export(self, t):
        """A value was taken out of the engine (``.numpy()``, ``np.mean(x)``, ``float(x)``): a
        watched one, or a variable this tape would watch on reading, leaves the tape."""
        if self.observer is not None and (
                t._id in self._watched
                or self._watch_accessed and getattr(t, "_trainable", False)):
            self.observer.on_export(t)

    def on_assign(self, var, value, kind):
        """A value was written into a variable: assignments are not differentiable."""
        if self.observer is not None and value is not None and value._id in self._watched:
            self.observer.on_assign(var, value, kind)

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

    def _release(self):
        """A non-persistent tape allows one gradient (or jacobian) call, as in TensorFlow."""
        if not self._persistent:
            self._spent = True
            if self.observer is not None:
                self.observer.on_release(self._records)
            self._records = None

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
        mode = unconnected(unconnected_gradients)
        # Speed: a single target, and a flat list or tuple of sources (the training step's
        # ``tape.gradient(loss, variables)``), without nest's generic walks: W2 -27k
        # instructions per step (callgrind).
        flat_targets = [target] if isinstance(target, Tensor) else \
            [as_target(t) for t in nest.flatten(target)]
        single = isinstance(sources, _LEAVES)   # (one tensor or variable: itself, unpacked)
        flat = single or type(sources) in _FLAT_KINDS
        if flat and not single:
            for s in sources:
                if isinstance(s, _NESTED):
                    flat = False
                    break
        flat_sources = [sources] if single else list(sources) if flat else nest.flatten(sources)
        check_sources(flat_sources)
        starts = seeds(flat_targets, output_gradients)
        for t in flat_targets:
            if t._value.dtype.kind not in "fc":
                _warn("The dtype of the target tensor must be floating (e.g. tf.float32) when "
                      f"calling GradientTape.gradient, got tf.{t.dtype.name}")
        for s in flat_sources:
            if s._value.dtype.kind not in "fc":
                _warn("The dtype of the source tensor must be floating (e.g. tf.float32) when "
                      f"calling GradientTape.gradient, got tf.{s.dtype.name}")
        observer = self.observer
        events = [] if observer is not None and observer.wants_events else None
        records = self._records
        grads = backward(records, flat_targets, starts, [s._id for s in flat_sources],
                         self._watched, events)
        results = []
        for s in flat_sources:
            g = grads.get(s._id) if s._value.dtype.kind in "fc" else None
            if g is None and mode is UnconnectedGradients.ZERO:
                g = wrap(np.zeros(s._value.shape, s._value.dtype))
            results.append(g)
        self._release()
        if observer is not None:
            observer.on_gradient(GradientCall(records, flat_targets, flat_sources, starts,
                                              results, events, mode))
        if single:
            return results[0]
        return type(sources)(results) if flat else nest.pack_sequence_as(sources, results)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target / d source with shape ``target.shape + source.shape`` (tapegrad.jacobians)."""
        self._check_usable()
        self._check_loop("jacobian", experimental_use_pfor)
        out = jacobian(self._records, self._watched, self.observer, target, sources,
                       unconnected_gradients, experimental_use_pfor)
        self._release()
        return out

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobian with shape ``target.shape + source.shape[1:]``."""
        self._check_usable()
        self._check_loop("batch_jacobian", experimental_use_pfor)
        out = batch_jacobian(self._records, self._watched, self.observer, target, source,
                             unconnected_gradients, experimental_use_pfor)
        self._release()
        return out

    def _check_loop(self, what, use_pfor):
        """TensorFlow's row loop (``experimental_use_pfor=False``) needs a persistent tape."""
        if not use_pfor and not self._persistent:
            raise RuntimeError(f"GradientTape must be created with persistent=True to compute the "
                               f"{what} with eager execution enabled and with "
                               f"experimental_use_pfor set to False.")

    # -- seeing the tape (answered by the observer, tapegrad.graph) ------------------------------
    def explain(self, target, source):
        """One sentence saying why ``gradient(target, source)`` is None (or zero), else None.

        >>> import tapegrad as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * x
        >>> print(tape.explain(y, x))  # doctest: +ELLIPSIS
        x is a tf.Tensor that the tape never watched...
        """
        return self._observer().explain(target, source, _getframe(1))

    def _repr_svg_(self):
        """Notebook display: the tape's graph as SVG."""
        return self._observer().svg()

    def show(self, height=420):
        """Draws the tape as the interactive graph panel in a Jupyter notebook (tapegrad.widget;
        the static SVG where anywidget is not installed)."""
        notebook_display.show(self, height)

    def _repr_mimebundle_(self, include=None, exclude=None):
        """Notebook display: the graph widget's view and the static SVG (tapegrad.widget)."""
        return notebook_display.mimebundle(self, include, exclude)

    def _observer(self):
        if self.observer is None:
            raise RuntimeError("This tape has no provenance recorder: it was created while "
                               "tapegrad.graph was not installed (import tapegrad first).")
        return self.observer


_FLAT_KINDS = (list, tuple)
_LEAVES = (Tensor, Variable)
_NESTED = (list, tuple, dict)


_warned = set()


def _warn_once(message):
    if message not in _warned:
        _warned.add(message)
        _warn(message)
