"""tf.summary.trace_on / trace_off / trace_export: the graphs of the tf.function calls made while
tracing, written to the JSON-lines log."""
import json
import os

import pytest

import tapegrad as tf


def _entries(logdir):
    with open(os.path.join(logdir, "events.out.tapegrad.jsonl")) as f:
        return [json.loads(line) for line in f]


@pytest.fixture(autouse=True)
def _no_trace_left():
    tf.summary.trace_off()
    yield
    tf.summary.trace_off()


def test_export_writes_each_called_function_graph_once(tmp_path):
    @tf.function
    def double(x):
        return x * 2.0

    @tf.function
    def inner(x):
        return x + 1.0

    @tf.function
    def outer(x):
        return inner(x) - 3.0
    double(tf.constant(0.0))                      # before trace_on: not kept
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True, profiler=False)
    double(tf.constant(1.0))
    double(tf.constant(2.0))                      # the same concrete function
    outer(tf.constant([1.0, 2.0]))                # inner is called inside outer: not its own
    with writer.as_default():
        assert tf.summary.trace_export("calls", step=4) is None
    (entry,) = _entries(str(tmp_path))
    assert (entry["tag"], entry["kind"], entry["step"]) == ("calls", "graph", 4)
    assert [g["function"] for g in entry["graphs"]] == ["double", "outer"]
    assert all(g["name"].startswith("__inference_") for g in entry["graphs"])
    nodes = entry["graphs"][0]["node"]
    assert [n["op"] for n in nodes] == ["Placeholder", "Const", "Mul", "Identity"]
    assert nodes[2]["input"] == [nodes[0]["name"], nodes[1]["name"]]
    with pytest.raises(ValueError, match="Must enable trace"):
        tf.summary.trace_export("again", step=5)  # the export ended the trace


def test_graph_false_writes_the_function_names_only(tmp_path):
    f = tf.function(lambda x: x * x)
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=False)
    f(tf.constant(3.0))
    with writer.as_default(step=2):
        tf.summary.trace_export("meta")
    (entry,) = _entries(str(tmp_path))
    assert entry["kind"] == "run_metadata" and entry["step"] == 2
    assert len(entry["functions"]) == 1 and entry["functions"][0].startswith("__inference_")
    assert "graphs" not in entry


def test_warnings_and_errors_as_tensorflow(tmp_path, tapegrad_log):
    with pytest.raises(ValueError, match="Must enable trace before export"):
        tf.summary.trace_export("x", step=0)
    tf.summary.trace_on(graph=True, profiler=True)
    tf.summary.trace_on()
    assert tapegrad_log() == [
        "WARNING:tapegrad:No `profiler_outdir` passed to trace_on(). Profiler won't be enabled.",
        "WARNING:tapegrad:Trace already enabled"]
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.trace_export("x")          # the trace goes on
        tf.summary.trace_export("x", step=1)
    assert [e["tag"] for e in _entries(str(tmp_path))] == ["x"]
    tf.summary.trace_on()
    assert tf.summary.trace_export("no_writer", step=0) is None    # writes nothing, ends it
    with pytest.raises(ValueError):
        tf.summary.trace_export("no_writer", step=0)
    assert tf.summary.trace_off() is None and tf.summary.trace_off() is None


def test_trace_off_stops_keeping_calls(tmp_path):
    f = tf.function(lambda x: x - 1)
    tf.summary.trace_on()
    tf.summary.trace_off()
    f(tf.constant(1))
    tf.summary.trace_on()
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        tf.summary.trace_export("empty", step=0)
    assert _entries(str(tmp_path))[0]["graphs"] == []
