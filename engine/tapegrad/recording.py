"""Running a primitive and letting every active recorder see it: the engine's hot path.

Recorders are the ``GradientTape``s and ``ForwardAccumulator``s active in the calling thread,
outermost first (``thread_state.state.active``: each thread has its own). A tape
appends a plain ``Record`` when one of the op's inputs is watched by it; an accumulator computes
the output's tangent. ``bind`` is the only place where ops are executed.
"""
import bisect
import os
import sys

from .errors import (
    InvalidArgumentError, OpError, _numpy_shape_and_type, out_of_memory, too_big,
)
from .tensor import EagerTensor, _next_id
from .thread_state import ThreadList, anywhere, state

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
# Frames in the engine and in NumPy (which calls back into tensors) are not the user's line.
_SKIP_DIRS = (_PKG_DIR, os.path.dirname(os.path.abspath(__import__("numpy").__file__)))
capture_source_lines = True


class Record:
    """One recorded op: what ran, on which tensors, what came out, and the user's line.

    ``where`` is ``(filename, line number, function name)`` or None. Recording keeps only the
    user's code object and instruction offset (see ``GradientTape.on_op``); the line is looked up the first
    time someone asks, which keeps the hot path free of line-table decoding. A tape fills the
    slots of ``Record()`` one by one (no Python ``__init__`` on the hot path); ``Record.of``
    builds one from a resolved line.
    """

    __slots__ = ("op", "inputs", "output", "attrs", "scope", "_where", "_lasti")

    @classmethod
    def of(cls, op, inputs, output, attrs, where, scope):
        rec = cls()
        rec.op = op
        rec.inputs = inputs
        rec.output = output
        rec.attrs = attrs
        rec.scope = scope
        rec._where = where
        rec._lasti = -1
        return rec

    @property
    def where(self):
        w = self._where
        if type(w) is _CodeType:
            w = self._where = (w.co_filename, line_at(w, self._lasti), w.co_name)
        return w

    def __repr__(self):
        ins = ", ".join(str(x._id) for x in self.inputs)
        return f"<Record {self.op.name}({ins}) -> {self.output._id}>"


def line_at(code, lasti):
    """The source line of the instruction at byte offset ``lasti`` in ``code`` (what the frame's
    ``f_lineno`` read at that instruction)."""
    if lasti < 0:
        return code.co_firstlineno
    table = _line_tables.get(id(code))
    if table is None or table[0] is not code:
        starts, lines = [], []
        for start, _end, line in code.co_lines():
            starts.append(start)
            lines.append(line)
        if len(_line_tables) >= 10_000:
            _line_tables.clear()
        table = _line_tables[id(code)] = (code, starts, lines)
    i = bisect.bisect_right(table[1], lasti) - 1
    return table[2][i] if i >= 0 else None   # None where the code has no line, as f_lineno


_CodeType = type(line_at.__code__)
_line_tables = {}  # id(code) -> (code, range starts, their lines), for lazy source lines


def user_frame(f):
    """The innermost frame from ``f`` outwards that is outside the engine and NumPy (the user's
    code), or None. Each file is classified once (``engine_files``): this runs at every recorded
    op (see ``GradientTape.on_op``)."""
    engine = engine_files
    while f is not None:
        if not engine[f.f_code.co_filename]:
            return f
        f = f.f_back
    return None


def user_line():
    """(filename, line number, function name) of the innermost frame outside the engine, from
    the caller's caller on; None when source lines are not captured."""
    if not capture_source_lines:
        return None
    f = user_frame(_getframe(2))
    if f is None:
        return None
    code = f.f_code
    return (code.co_filename, f.f_lineno, code.co_name)


class _EngineFiles(dict):
    """File name -> whether it belongs to the engine or NumPy (whose frames are not the user's
    line), classified on first lookup. Keyed by the name, whose hash Python keeps: a code
    object's hash covers its constants, which takes microseconds for a module's code."""

    def __missing__(self, filename):
        if len(self) >= 100_000:  # names made at run time (exec with generated names)
            self.clear()
        inside = self[filename] = filename.startswith(_SKIP_DIRS)
        return inside


engine_files = _EngineFiles()
_getframe = sys._getframe


scope_stack = ThreadList("scopes")  # names of this thread's open module/function scopes
active = ThreadList("active")       # this thread's recorders (the engine reads state.active)


def bind(prim, inputs, attrs):
    """Runs ``prim`` on ``inputs`` (Tensors) and shows the result to every active recorder."""
    try:
        # The plain path is ``prim.impl(*[x._value for x in inputs], **attrs)``. Speed: one and
        # two inputs spelled out, with no empty ``**{}``, save 0.2-0.3 us per op (measured).
        n = len(inputs)
        if n == 1:
            out = prim.impl(inputs[0]._value, **attrs) if attrs else prim.impl(inputs[0]._value)
        elif n == 2:
            x, y = inputs
            out = prim.impl(x._value, y._value, **attrs) if attrs else prim.impl(x._value, y._value)
        else:
            out = prim.impl(*[x._value for x in inputs], **attrs)
    except (ValueError, TypeError, IndexError) as e:
        raise op_error(prim, inputs, attrs, e) from None
    except MemoryError as e:   # TensorFlow's ResourceExhaustedError (still a MemoryError)
        raise e if isinstance(e, OpError) else out_of_memory(prim.name, *_numpy_shape_and_type(e)) \
            from None
    t = EagerTensor()
    t._value = out
    t._id = _next_id()
    if anywhere:
        active = state.active
        if active:
            # A recorder may narrow ``active`` while it works (see ``suspended``), but it always
            # restores it before returning, so iterating the live list is safe.
            for r in active:
                r.on_op(prim, inputs, attrs, t)
    return t


def op_error(prim, inputs, attrs, exc):
    if isinstance(exc, OpError):   # raised by a check (tapegrad.checks): already TF's error
        return exc
    if too_big(exc):
        return out_of_memory(prim.name)
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

    __slots__ = ("recorder", "saved", "active")

    def __init__(self, recorder):
        self.recorder = recorder

    def __enter__(self):
        active = self.active = state.active
        self.saved = active[:]
        if self.recorder in active:
            del active[active.index(self.recorder):]

    def __exit__(self, *exc):
        self.active[:] = self.saved
        return False
