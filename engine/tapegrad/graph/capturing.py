"""Capturing the tapes of a piece of code, and their export as one JSON document.

    with tapegrad.graph.capture() as cap:
        exec(user_code)
    doc = cap.to_dict()      # graph, layout, forward/backward event streams, None reasons

The schema is documented in docs/graph-json.md.
"""
import sys

import numpy as np

from .. import tape as tape_module
from ..recording import user_frame
from .document import MAX_NODES, export_dict
from .explain import _names, explain
from .provenance import provenance_of


class Capture:
    """Collects every tape created while active, and every gradient call on them."""

    def __init__(self):
        self.tapes = []
        self.calls = []          # (tape index, GradientCall, names, reasons, line)
        self.tape_names = {}     # tape index -> the user's name for the tape
        self._hook = None

    def __enter__(self):
        tape_module.creation_hooks.append(self._on_tape)
        return self

    def __exit__(self, *exc):
        if self._on_tape in tape_module.creation_hooks:
            tape_module.creation_hooks.remove(self._on_tape)
        return False

    def add_tape(self, tape):
        """Adds a tape created outside the capture (for example for ``_repr_svg_``)."""
        if tape not in self.tapes:
            self._on_tape(tape)

    def _on_tape(self, tape):
        self.tapes.append(tape)
        provenance_of(tape).subscribers.append(self)

    def on_gradient(self, tape, call):
        frame = user_frame(sys._getframe())  # the user's frame that asked for the gradient
        names = _names(frame)
        index = self.tapes.index(tape)
        if index not in self.tape_names:
            self.tape_names[index] = _tape_name(frame, tape)
        reasons = []
        for src, res in zip(call.sources, call.results):
            zero = res is not None and call.unconnected.value == "zero" and not np.any(res._value)
            if res is None or zero:
                r = explain(tape, call.targets, src, None, names)
                reasons.append(r.to_dict() if r is not None else None)
            else:
                reasons.append(None)
        line = frame.f_lineno if frame is not None else None
        self.calls.append((index, call, names, reasons, line))

    # -- export -----------------------------------------------------------------------------
    def to_dict(self, max_nodes=MAX_NODES, preview=None):
        """The graph document (document.export_dict; ``preview``: called first with a big
        tape's collapsed view alone)."""
        return export_dict(self.tapes, self.calls, max_nodes, self.tape_names, preview)


def _tape_name(frame, tape):
    """The user's variable name for ``tape`` in ``frame`` (``outer``, ``tape``), or None."""
    if frame is None:
        return None
    for scope in (frame.f_locals, frame.f_globals):
        for k, v in scope.items():
            if v is tape and not k.startswith("_"):
                return k
    return None


def capture():
    return Capture()
