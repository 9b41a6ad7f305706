"""Capturing the tapes of a piece of code, and their export as one JSON document.

    with tapegrad.graph.capture() as cap:
        exec(user_code)
    doc = cap.to_dict()      # graph, layout, forward/backward event streams, None reasons

The schema is documented in docs/graph-json.md.

A capture keeps every tape with the records its gradient call let go: in a training loop, every
step's activations. ``capture(let_go_steps=True)`` (the playground's, which shows one step of a
loop) bounds that: once the run has recorded more than ``KEEP_TAPES`` tapes, or its loops' steps
hold more than ``KEEP_BYTES`` of outputs, a loop's step (a tape whose gradient was asked on a
line that asked it of at least ``LOOP_STEPS`` tapes) lets go of its released records when the
step two after it on the same line has its gradient (the last two steps of each loop stay
whole). Small tapes (the tutorials') are all kept up to KEEP_TAPES. Such a step has nothing left to draw: ``to_dict`` leaves it
out (``let_go``, the indices of those tapes). A digits CNN's fit kept 44 MB per step natively
(2.8 GB after two epochs) and the Pyodide heap outgrew 2 GB in one epoch of issue 34's CNN.
"""
import sys

import numpy as np

from .. import tape as tape_module
from ..recording import user_frame
from .document import MAX_NODES, export_dict
from .explain import _names, explain
from .provenance import provenance_of


KEEP_TAPES = 30     # tapes kept whole whatever they are (the runtime's MAX_TAPES_FOR_NONES)
LOOP_STEPS = 3      # tapes asked on one line before it counts as a loop (as representative_step)
KEEP_BYTES = 64 * 2**20   # loop steps' outputs kept whole before KEEP_TAPES (a CNN step: 25 MB)


class Capture:
    """Collects every tape created while active, and every gradient call on them."""

    def __init__(self, let_go_steps=False):
        self.tapes = []
        self.calls = []          # (tape index, GradientCall, names, reasons, line)
        self.tape_names = {}     # tape index -> the user's name for the tape
        self.let_go = set()      # indices of loop steps whose records were let go
        self.let_go_steps = let_go_steps
        self._index = {}         # id(tape) -> its index (the tapes are kept: ids stay theirs)
        self._steps_of_line = {}     # line -> the tapes asked there, in order (let_go_steps)
        self._step_bytes = 0         # bytes of the outputs of the tapes asked so far (kept)
        self._hook = None

    def __enter__(self):
        tape_module.creation_hooks.append(self._on_tape)
        tape_module.showing.append(self)
        return self

    def __exit__(self, *exc):
        if self._on_tape in tape_module.creation_hooks:
            tape_module.creation_hooks.remove(self._on_tape)
        if self in tape_module.showing:
            tape_module.showing.remove(self)
        return False

    def add_tape(self, tape):
        """Adds a tape created outside the capture (for example for ``_repr_svg_``)."""
        if id(tape) not in self._index:
            self._on_tape(tape)

    def _on_tape(self, tape):
        self._index[id(tape)] = len(self.tapes)
        self.tapes.append(tape)
        provenance_of(tape).subscribers.append(self)

    def on_gradient(self, tape, call):
        frame = user_frame(sys._getframe())  # the user's frame that asked for the gradient
        names = _names(frame)
        index = self._index[id(tape)]
        if index not in self.tape_names:
            self.tape_names[index] = _tape_name(frame, tape)
        reasons = []
        zeros = call.unconnected.value == "zero"
        for src, res in zip(call.sources, call.results):
            if res is None or (zeros and not np.any(res._value)):
                r = explain(tape, call.targets, src, None, names)
                reasons.append(r.to_dict() if r is not None else None)
            else:
                reasons.append(None)
        line = frame.f_lineno if frame is not None else None
        self.calls.append((index, call, names, reasons, line))
        if self.let_go_steps:
            self._step_done(index, line, call)

    def _step_done(self, index, line, call):
        """Lets go of the records of the step two before ``index`` on ``line`` when that line
        is a loop and the run has more than KEEP_TAPES tapes or KEEP_BYTES of outputs kept (see
        the module's text)."""
        steps = self._steps_of_line.setdefault(line, [])
        if steps and steps[-1][0] == index:
            steps[-1][1].append(call)     # another gradient call on the same tape
            return
        steps.append((index, [call]))
        if len(self.tapes) <= KEEP_TAPES and self._step_bytes <= KEEP_BYTES:
            released = self.tapes[index].observer.released or ()
            self._step_bytes += sum(getattr(r.output._value, "nbytes", 0) for r in released)
            if self._step_bytes <= KEEP_BYTES:
                return
        if len(steps) < LOOP_STEPS:
            return
        while len(steps) > 2:
            old, calls = steps.pop(0)
            view = self.tapes[old].observer
            if view is None or view.released is None or old in self.let_go:
                continue      # a persistent tape keeps its records: nothing to let go
            view.released = None
            for c in calls:   # what the animation needed: the records and the backward events
                c.records, c.events = (), []
            self.let_go.add(old)

    # -- export -----------------------------------------------------------------------------
    def to_dict(self, max_nodes=MAX_NODES, preview=None):
        """The graph document (document.export_dict; ``preview``: called first with a big
        tape's collapsed view alone), without the loop steps that let go of their records."""
        if not self.let_go:
            return export_dict(self.tapes, self.calls, max_nodes, self.tape_names, preview)
        kept = [i for i in range(len(self.tapes)) if i not in self.let_go]
        new = {old: i for i, old in enumerate(kept)}
        calls = [(new[index], *rest) for index, *rest in self.calls if index in new]
        names = {new[i]: name for i, name in self.tape_names.items() if i in new}
        return export_dict([self.tapes[i] for i in kept], calls, max_nodes, names, preview)


def _tape_name(frame, tape):
    """The user's variable name for ``tape`` in ``frame`` (``outer``, ``tape``), or None."""
    if frame is None:
        return None
    for scope in (frame.f_locals, frame.f_globals):
        for k, v in scope.items():
            if v is tape and not k.startswith("_"):
                return k
    return None


def capture(let_go_steps=False):
    """A new ``Capture``; ``let_go_steps``: a loop's older steps let go of their records (see
    the module's text)."""
    return Capture(let_go_steps)
