"""Running a primitive and letting every active recorder see it: the engine's hot path.

Recorders are the active ``GradientTape``s and ``ForwardAccumulator``s, outermost first. A tape
appends a plain ``Record`` when one of the op's inputs is watched by it; an accumulator computes
the output's tangent. ``bind`` is the only place where ops are executed.
"""
import os
import sys

from .errors import InvalidArgumentError
from .tensor import EagerTensor, _next_id, _new

active = []          # recorders, outermost first
_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
# Frames in the engine and in NumPy (which calls back into tensors) are not the user's line.
_SKIP_DIRS = (_PKG_DIR, os.path.dirname(os.path.abspath(__import__("numpy").__file__)))
capture_source_lines = True


class Record:
    """One recorded op: what ran, on which tensors, what came out, and the user's line."""

    __slots__ = ("op", "inputs", "output", "attrs", "where", "scope")

    def __init__(self, op, inputs, output, attrs, where, scope):
        self.op = op
        self.inputs = inputs
        self.output = output
        self.attrs = attrs
        self.where = where
        self.scope = scope

    def __repr__(self):
        ins = ", ".join(str(x._id) for x in self.inputs)
        return f"<Record {self.op.name}({ins}) -> {self.output._id}>"


def user_line():
    """(filename, line number, function name) of the innermost frame outside the engine."""
    if not capture_source_lines:
        return None
    f = sys._getframe(2)
    engine = _engine_codes
    while f is not None:
        code = f.f_code
        inside = engine.get(code)
        if inside is None:
            inside = engine[code] = code.co_filename.startswith(_SKIP_DIRS)
        if not inside:
            return (code.co_filename, f.f_lineno, code.co_name)
        f = f.f_back
    return None


_engine_codes = {}  # code object -> whether it belongs to the engine


def user_frame():
    """The innermost frame outside the engine and NumPy (the user's code), or None."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_SKIP_DIRS):
        f = f.f_back
    return f


scope_stack = []     # names of open module/function scopes (for the graph's groups)


def bind(prim, inputs, attrs):
    """Runs ``prim`` on ``inputs`` (Tensors) and shows the result to every active recorder."""
    try:
        n = len(inputs)
        if n == 2:
            out = prim.impl(inputs[0]._value, inputs[1]._value, **attrs)
        elif n == 1:
            out = prim.impl(inputs[0]._value, **attrs)
        else:
            out = prim.impl(*[x._value for x in inputs], **attrs)
    except (ValueError, TypeError, IndexError) as e:
        raise op_error(prim, inputs, attrs, e) from None
    t = _new(EagerTensor)
    t._value = out
    t._id = _next_id()
    if active:
        # A recorder may narrow ``active`` while it works (see ``suspended``), but it always
        # restores it before returning, so iterating the live list is safe.
        for r in active:
            r.on_op(prim, inputs, attrs, t)
    return t


def op_error(prim, inputs, attrs, exc):
    if prim.error is not None:
        msg = prim.error(inputs, attrs, exc)
        if msg:
            return InvalidArgumentError(f"{msg} [Op:{prim.name}]")
    shapes = ", ".join(_shape_text(x) for x in inputs)
    return InvalidArgumentError(f"{exc} (input shapes: {shapes}) [Op:{prim.name}]")


def _shape_text(x):
    return "[" + ",".join(str(d) for d in x._value.shape) + "]"


class suspended:
    """Within this block only the recorders outside ``recorder`` see ops (used while a
    recorder computes derived ops, such as a tangent, that it must not record itself)."""

    __slots__ = ("recorder", "saved")

    def __init__(self, recorder):
        self.recorder = recorder

    def __enter__(self):
        self.saved = active[:]
        if self.recorder in active:
            del active[active.index(self.recorder):]

    def __exit__(self, *exc):
        active[:] = self.saved
        return False


class paused_all:
    """No recorder sees ops within this block (used by ``tape.stop_recording``)."""

    def __enter__(self):
        self.saved = active[:]
        active.clear()

    def __exit__(self, *exc):
        active[:] = self.saved
        return False
