"""``tf.summary``: scalars, histograms and text written to a log directory.

TensorFlow writes TensorBoard event files (protobuf records). tapegrad writes a simple log a
person or a script can read instead: ``<logdir>/events.out.tapegrad.jsonl``, one JSON object per
line, ``{"wall_time", "step", "tag", "kind", ...}`` with ``"value"`` for a scalar or text and
``"buckets"`` (``[left, right, count]`` triples) for a histogram; ``image`` keeps PNG files and
``audio`` 16-bit WAV files (base64 strings in ``"png"`` / ``"wav"``), ``write`` any tensor's
values (``"value"``, with ``"dtype"`` and ``"shape"``). TensorBoard cannot read it.
Nothing is printed, in the page either: the file is the output (read it back, or plot it). The
calls answer as TensorFlow's do: a bool tensor, true when written, false without a default
writer or while ``record_if(False)``; no step anywhere is a ``ValueError``.

>>> import json, os, tempfile, tapegrad as tf
>>> logdir = tempfile.mkdtemp()
>>> writer = tf.summary.create_file_writer(logdir)
>>> with writer.as_default(step=3):
...     tf.summary.scalar("loss", 0.25)
<tf.Tensor: shape=(), dtype=bool, numpy=True>
>>> writer.flush()
>>> line = open(os.path.join(logdir, "events.out.tapegrad.jsonl")).readline()
>>> json.loads(line)["value"], json.loads(line)["step"]
(0.25, 3)

Graphs (``trace_on`` / ``trace_export``): between ``trace_on(graph=True)`` and
``trace_export(name, step)`` the ``tf.function`` calls made (not those made inside another
function's call) are kept; ``trace_export`` writes one entry for them, ``"kind": "graph"``, with
``"graphs"``: for each distinct concrete function called, in the order of the first calls,
``{"name": "__inference_f_1", "function": "f", "node": [{"name", "op", "input"}, ...]}``, the
nodes of its ``graph.as_graph_def()`` (see ``function/func_graph.py`` for the node types). With
``graph=False`` the entry is ``"kind": "run_metadata"`` with ``"functions"``, the concrete
functions' names. The export ends the trace; as TensorFlow's, it is a ``ValueError`` without
``trace_on`` before it, and without a default writer it writes nothing (and ends the trace).
tapegrad has no profiler: ``profiler=True`` is accepted, with TensorFlow's warning when no
``profiler_outdir`` is given, and writes no profile.

>>> @tf.function
... def double(x):
...     return x * 2.0
>>> tf.summary.trace_on(graph=True)
>>> _ = double(tf.constant(1.0))
>>> with writer.as_default():
...     tf.summary.trace_export("double_trace", step=0)
>>> entry = json.loads(open(os.path.join(logdir, "events.out.tapegrad.jsonl")).readlines()[-1])
>>> [n["op"] for n in entry["graphs"][0]["node"]]
['Placeholder', 'Const', 'Mul', 'Identity']
"""
import base64
import contextlib
import json
import logging
import os
import struct
import threading
import time

from .backend import xp
from .dtypes import uint8
from .function.calls import call_watchers
from .function.func_graph import FuncGraph, GraphDef
from .name_scope import get_current_name_scope
from .ops.image_ops import convert_image_dtype
from .ops.png_codec import encode_png
from .tensor import Tensor, convert_to_tensor, wrap

LOG_NAME = "events.out.tapegrad.jsonl"


class _State(threading.local):
    def __init__(self):
        self.writer = None
        self.step = None
        self.record = [lambda: True]   # record_if conditions, innermost last


_state = _State()


class SummaryWriter:
    """Appends summaries to ``<logdir>/events.out.tapegrad.jsonl`` (see the module's notes)."""

    def __init__(self, logdir):
        self._logdir = logdir
        self._pending = []
        self._closed = False

    def set_as_default(self, step=None):
        _state.writer = self
        if step is not None:
            _state.step = step

    @contextlib.contextmanager
    def as_default(self, step=None):
        saved_writer, saved_step = _state.writer, _state.step
        _state.writer = self
        if step is not None:
            _state.step = step
        try:
            yield self
        finally:
            self.flush()
            _state.writer, _state.step = saved_writer, saved_step

    def _add(self, entry):
        if self._closed:
            raise RuntimeError("SummaryWriter is already closed")
        self._pending.append(entry)

    def init(self):
        os.makedirs(self._logdir, exist_ok=True)

    def flush(self):
        """Writes what is pending to the log file."""
        if not self._pending:
            return
        os.makedirs(self._logdir, exist_ok=True)
        with open(os.path.join(self._logdir, LOG_NAME), "a", encoding="utf-8") as f:
            for entry in self._pending:
                f.write(json.dumps(entry) + "\n")
        self._pending = []

    def close(self):
        self.flush()
        self._closed = True


class _NoopWriter(SummaryWriter):
    def __init__(self):
        super().__init__(None)

    def _add(self, entry):
        pass

    def flush(self):
        pass


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A writer appending to ``<logdir>/events.out.tapegrad.jsonl`` (the directory is made on
    the first flush)."""
    return SummaryWriter(os.fspath(logdir))


def create_noop_writer():
    """A writer that drops everything."""
    return _NoopWriter()


def flush(writer=None, name=None):
    w = writer if writer is not None else _state.writer
    if w is not None:
        w.flush()


def should_record_summaries():
    return _state.writer is not None and bool(_state.record[-1]())


@contextlib.contextmanager
def record_if(condition):
    """Summaries inside are written only while ``condition`` (a bool or a function giving
    one) holds."""
    _state.record.append(condition if callable(condition) else (lambda: condition))
    try:
        yield
    finally:
        _state.record.pop()


def _step(step):
    step = _state.step if step is None else step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument "
                         "or through tf.summary.experimental.set_step()")
    return int(step.numpy() if hasattr(step, "numpy") else step)


def _tag(name):
    scope = get_current_name_scope()
    return f"{scope}/{name}" if scope else name


def _write(name, step, kind, **fields):
    """Adds one entry to the default writer; the answer is a bool tensor, as TensorFlow's."""
    if not should_record_summaries():
        return wrap(xp.asarray(False))
    entry = {"wall_time": time.time(), "step": _step(step), "tag": _tag(name), "kind": kind}
    entry.update(fields)
    _state.writer._add(entry)
    return wrap(xp.asarray(True))


def _value(data):
    return convert_to_tensor(data)._value if not isinstance(data, Tensor) else data._value


def scalar(name, data, step=None, description=None):
    """Logs one number under ``name`` at ``step``."""
    v = _value(data)
    if v.size != 1:
        raise ValueError(f"Expected scalar shape, saw shape: {v.shape}.")
    return _write(name, step, "scalar", value=float(v.reshape(()).real))


def histogram(name, data, step=None, buckets=None, description=None):
    """Logs the distribution of ``data`` as ``buckets`` (30 by default) equal-width bins
    between its minimum and maximum."""
    v = _value(data).astype(xp.float64).reshape(-1)
    n = 30 if buckets is None else int(buckets)
    if v.size == 0 or n == 0:
        bins = []
    else:
        lo, hi = float(v.min()), float(v.max())
        if lo == hi:
            bins = [[lo - 0.5, hi + 0.5, int(v.size)]]
        else:
            counts, edges = xp.histogram(v, bins=n, range=(lo, hi))
            bins = [[float(a), float(b), int(c)] for a, b, c in zip(edges[:-1], edges[1:], counts)]
    return _write(name, step, "histogram", buckets=bins)


def text(name, data, step=None, description=None):
    """Logs a string (or a tensor of strings) under ``name``."""
    v = convert_to_tensor(data)._value
    value = _as_text(v.item()) if v.ndim == 0 else [_as_text(x) for x in v.reshape(-1).tolist()]
    return _write(name, step, "text", value=value)


def _as_text(x):
    return x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x)


def write(tag, tensor, step=None, metadata=None, name=None):
    """Logs any tensor's values (as JSON lists) under ``tag``."""
    v = convert_to_tensor(tensor)
    return _write(tag, step, "tensor", dtype=v.dtype.name, shape=list(v._value.shape),
                  value=_json_values(v._value))


def _json_values(a):
    if a.dtype == object:
        return [_as_text(x) for x in a.reshape(-1).tolist()] if a.ndim else _as_text(a.item())
    return a.tolist()


def _rank(v, rank):
    if v.ndim != rank:
        raise ValueError(f"Tensor  must have rank {rank}.  Received rank {v.ndim}, "
                         f"shape {tuple(v.shape)}")


def image(name, data, step=None, max_outputs=3, description=None):
    """Logs up to ``max_outputs`` images of ``data`` [k, height, width, channels] (1 to 4
    channels; floats in [0, 1] or integers) as PNG, base64 in the log."""
    x = convert_to_tensor(data)
    _rank(x._value, 4)
    if not should_record_summaries():
        return wrap(xp.asarray(False))
    pixels = convert_image_dtype(x, uint8, saturate=True)._value[:int(max_outputs)]
    pngs = [base64.b64encode(encode_png(p)._value.item()).decode("ascii") for p in pixels]
    return _write(name, step, "image", width=int(x._value.shape[2]),
                  height=int(x._value.shape[1]), png=pngs)


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """Logs up to ``max_outputs`` clips of ``data`` [k, frames, channels] (floats in [-1, 1]) as
    16-bit WAV files, base64 in the log."""
    v = convert_to_tensor(data)._value
    _rank(v, 3)
    if not should_record_summaries():
        return wrap(xp.asarray(False))
    rate = int(convert_to_tensor(sample_rate)._value)
    clips = [base64.b64encode(_wav(c, rate)).decode("ascii") for c in v[:int(max_outputs)]]
    return _write(name, step, "audio", sample_rate=rate, wav=clips)


def _wav(clip, rate):
    """A 16-bit PCM WAV file of ``clip`` [frames, channels]."""
    samples = (xp.clip(clip.astype(xp.float64), -1.0, 1.0) * 32767).round().astype("<i2")
    channels = clip.shape[1]
    body = samples.tobytes()
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(body), b"WAVE", b"fmt ", 16, 1,
                         channels, rate, rate * channels * 2, channels * 2, 16, b"data",
                         len(body))
    return header + body


def graph(graph_data):
    """Logs a graph's nodes: a traced function's ``.graph`` or its ``as_graph_def()``."""
    if isinstance(graph_data, FuncGraph):
        graph_data = graph_data.as_graph_def()
    if not isinstance(graph_data, GraphDef):
        raise ValueError(f"Argument 'graph_data' is not tf.Graph or tf.compat.v1.GraphDef. "
                         f"Received graph_data={graph_data!r} of type "
                         f"{type(graph_data).__name__}.")
    return _write("graph", 0, "graph", graphs=[{"node": _nodes_json(graph_data)}])


class experimental:  # noqa: N801 - a namespace, as tf.summary.experimental
    @staticmethod
    def set_step(step):
        """The step summaries use when none is given."""
        _state.step = step

    @staticmethod
    def get_step():
        return _state.step


# -- graphs: trace_on / trace_off / trace_export ---------------------------------------------------
class _Trace:
    """The trace in progress: whether graphs are kept, and the calls made since ``trace_on``."""

    def __init__(self, graph):
        self.graph = graph
        self.calls = []

    def __call__(self, function, args, kwargs):
        self.calls.append((function, args, kwargs))


_trace = [None]
_log = logging.getLogger("tapegrad")


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts keeping the ``tf.function`` calls whose graphs ``trace_export`` writes (see the
    module's notes); a second ``trace_on`` before the export only warns."""
    if _trace[0] is not None:
        _log.warning("Trace already enabled")
        return
    if profiler and profiler_outdir is None:
        _log.warning("No `profiler_outdir` passed to trace_on(). Profiler won't be enabled.")
    _trace[0] = _Trace(bool(graph))
    call_watchers.append(_trace[0])


def trace_off():
    """Stops the trace without writing it (nothing happens without one)."""
    trace = _trace[0]
    if trace is not None:
        call_watchers.remove(trace)
        _trace[0] = None


def trace_export(name, step=None, profiler_outdir=None):
    """Writes the graphs of the calls made since ``trace_on`` under ``name`` at ``step`` to the
    default writer, and ends the trace."""
    trace = _trace[0]
    if trace is None:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    if _state.writer is None:
        trace_off()
        return
    step = _step(step)
    concrete = _concrete_functions(trace.calls)
    trace_off()
    if trace.graph:
        _write(name, step, "graph", graphs=[_graph_json(cf) for cf in concrete])
    else:
        _write(name, step, "run_metadata", functions=[cf.name.decode() for cf in concrete])


def _concrete_functions(calls):
    """The distinct concrete functions the calls ran, in the order of their first calls."""
    found = []
    for function, args, kwargs in calls:
        cf = function.get_concrete_function(*args, **kwargs)
        if not any(cf is f for f in found):
            found.append(cf)
    return found


def _graph_json(cf):
    return {"name": cf.name.decode(), "function": cf._function._name,
            "node": _nodes_json(cf.graph.as_graph_def())}


def _nodes_json(graph_def):
    return [{"name": n.name, "op": n.op, "input": list(n.input)} for n in graph_def.node]
