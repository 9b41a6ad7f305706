"""Provenance: what a tape cannot record but the graph and ``explain`` need, kept beside it.

Every new ``GradientTape`` gets a ``Provenance`` as its ``observer`` (installed when tapegrad is
imported). The tape tells it only about rare events, never about ordinary recorded ops: where a
tensor was watched, what ran inside ``stop_recording``, resets, values taken by NumPy,
assignments of watched values, values derived from an integer output (which the tape does not
record), and the records a non-persistent tape let go after its gradient call. Graph captures
subscribe to it for the gradient calls with their backward events.

Measured cost with no graph asked for: ~0.5 us per tape created (2.97 against 2.43 us for a
tape made, entered and left; 2026-11-23), nothing per recorded op.
"""
import weakref

from .. import tape as tape_module
from ..recording import user_line
from .explain import explain as explain_reason


class Provenance:
    """One tape's provenance; ``records`` and ``watched_at`` with the tape's own read-only view
    (``watched_ids``, ``persistent``, ``watch_accessed_variables``) are what the export reads."""

    __slots__ = ("_tape", "watched_at", "resets", "paused", "exported", "assigned", "released",
                 "cut", "subscribers", "__weakref__")
    live = weakref.WeakSet()   # every tape's provenance still alive (explain: "another tape")

    def __init__(self, tape):
        Provenance.live.add(self)
        self._tape = weakref.ref(tape)  # the tape holds its provenance: no reference cycle
        self.watched_at = {}   # tensor id -> line of its tape.watch() call
        self.resets = []       # (line, ids of outputs that were forgotten)
        self.paused = {}       # output id -> (op name, line) of ops run inside stop_recording
        self.exported = {}     # tensor id -> line where NumPy took its value
        self.assigned = []     # (variable, value id, kind, line)
        self.released = None   # records of a non-persistent tape after its gradient call
        self.cut = {}          # id of a value derived from a non-float output -> that record
        self.subscribers = []  # graph captures: on_gradient(tape, call)

    @property
    def tape(self):
        return self._tape()

    @property
    def records(self):
        """The tape's records, or those it let go after its (only) gradient call."""
        return self.tape.records or tuple(self.released or ())

    @property
    def wants_events(self):
        return bool(self.subscribers)

    # -- what the tape reports ------------------------------------------------------------------
    def on_watch(self, t):
        self.watched_at.setdefault(t._id, user_line())

    def on_reset(self, records):
        self.resets.append((user_line(), {r.output._id for r in records}))
        self.released = None

    def on_pause(self):
        return PauseWitness(self)

    def on_cut(self, rec):
        """A recorded op gave a non-float output: values derived from it are not recorded, so
        they are followed here (to explain a None later). Returns the tape's follow hook."""
        self.cut[rec.output._id] = rec
        return self.follow_cut

    def follow_cut(self, inputs, out):
        cut = self.cut
        for x in inputs:
            c = cut.get(x._id)
            if c is not None:
                cut[out._id] = c
                return

    def on_export(self, t):
        self.exported.setdefault(t._id, user_line())

    def on_assign(self, var, value, kind):
        self.assigned.append((var, value._id, kind, user_line()))

    def on_release(self, records):
        self.released = records

    def on_gradient(self, call):
        for s in self.subscribers:
            s.on_gradient(self.tape, call)

    # -- answers for the tape (tape.explain, notebook display) -----------------------------------
    def explain(self, target, source, frame=None):
        return explain_reason(self.tape, target, source, frame)

    def svg(self):
        from .export import tape_svg  # lazy: the export, on first use (allowed in test_import_layers)
        return tape_svg(self.tape)


class PauseWitness:
    """Stands in for a tape inside ``stop_recording``: records nothing, but remembers which
    watched values were used, so that a None gradient can be explained."""

    __slots__ = ("provenance",)

    def __init__(self, provenance):
        self.provenance = provenance

    def on_op(self, prim, inputs, attrs, out):
        tape = self.provenance.tape
        paused = self.provenance.paused
        if any(tape.is_watched(x._id) or x._id in paused for x in inputs):
            paused[out._id] = (prim.name, user_line())

    def on_read(self, var, t):
        tape = self.provenance.tape
        if tape.is_watched(var._id) or (tape.watch_accessed_variables and var._trainable):
            self.provenance.paused[t._id] = ("ReadVariableOp", user_line())

    def on_export(self, t):
        pass

    def on_assign(self, var, value, kind):
        pass


def provenance_of(tape):
    """The tape's provenance, attached now if it has none."""
    if tape.observer is None:
        tape.observer = Provenance(tape)
    return tape.observer


tape_module.creation_hooks.append(provenance_of)
