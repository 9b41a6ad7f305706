"""The playground's Python side (web/python/playground_runtime/) and its gallery (web/examples/).

Every example runs through the same Session the browser worker uses, with `tensorflow` resolving
to tapegrad, and must print the lines its manifest entry expects, send its figures and a graph.
Runs natively and inside Pyodide (the repository is mounted at its own path there).
"""
import base64
import importlib
import importlib.util
import sys
import json
from pathlib import Path

import pytest

from tapegrad.graph.compact import expand

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "web" / "examples"
MANIFEST = json.loads((EXAMPLES / "manifest.json").read_text())["examples"]


def _load_runtime():
    sys.path.insert(0, str(ROOT / "web" / "python"))
    try:
        return importlib.import_module("playground_runtime")
    finally:
        sys.path.remove(str(ROOT / "web" / "python"))


runtime = _load_runtime()


class Page:
    """Stands in for the browser page: collects what the session sends."""

    def __init__(self):
        self.messages = []

    def __call__(self, kind, payload):
        self.messages.append((kind, payload))

    def of(self, kind):
        """The messages of a kind, parsed; a graph's compact form (docs/graph-json.md) expanded,
        as the page does (web/src/graph/compact.js)."""
        parsed = [json.loads(p) for k, p in self.messages if k == kind]
        return [expand(m) for m in parsed] if kind == "graph" else parsed


def run(source, capsys=None):
    page = Page()
    status = runtime.Session(page).run(source)
    out = capsys.readouterr().out if capsys else ""
    return status, page, out


def assert_in_order(expected, text):
    pos = 0
    for line in expected:
        found = text.find(line, pos)
        assert found >= 0, f"expected {line!r} after position {pos} in the output:\n{text}"
        pos = found + len(line)


def test_manifest_lists_every_example_file_once():
    files = [e["file"] for e in MANIFEST]
    assert sorted(files) == sorted(p.name for p in EXAMPLES.glob("*.py"))
    assert len({e["id"] for e in MANIFEST}) == len(MANIFEST)
    for e in MANIFEST:
        assert e["title"] and e["topic"] and e["expect"], e["id"]


@pytest.mark.parametrize("example", MANIFEST, ids=[e["id"] for e in MANIFEST])
def test_example_runs_and_prints_what_it_promises(example, capsys):
    source = (EXAMPLES / example["file"]).read_text()
    if runtime.uses_matplotlib(source):
        pytest.importorskip("matplotlib", reason="matplotlib is not installed here (the browser suite runs it)")
    status, page, out = run(source, capsys)
    assert status == {"ok": True, "error": None, "interrupted": False}, page.of("traceback")
    assert_in_order(example["expect"], out)
    assert len(page.of("plot")) >= example["plots"]
    graphs = page.of("graph")
    assert [json.loads(p)["version"] for k, p in page.messages if k == "graph"] == [2]   # compact
    assert len(graphs) == 1 and graphs[0]["version"] == 1
    assert graphs[0]["nodes"], "every example records at least one tape"


def test_tensorflow_and_its_submodules_resolve_to_tapegrad():
    import tapegrad
    runtime.install_tensorflow_alias()
    import tensorflow
    import tensorflow.keras.layers as layers
    assert tensorflow is tapegrad
    assert layers is tapegrad.keras.layers


def test_exception_reports_the_user_line_without_runner_frames():
    source = "x = 1\n\ndef f():\n    return 1 / 0\nf()\n"
    status, page, _ = run(source)
    assert status["ok"] is False and status["error"] == {"type": "ZeroDivisionError", "line": 4}
    (tb,) = page.of("traceback")
    assert tb["line"] == 4
    assert 'File "main.py", line 5, in <module>' in tb["text"]
    assert 'File "main.py", line 4, in f' in tb["text"]
    assert "return 1 / 0" in tb["text"]           # the source line, from the registered main.py
    assert "playground_runtime" not in tb["text"]


def test_syntax_error_reports_its_line():
    status, page, _ = run("a = 1\nb = (2 +\nprint(a)\n")
    assert status["error"]["type"] == "SyntaxError"
    (tb,) = page.of("traceback")
    assert tb["line"] == status["error"]["line"] and tb["line"] in (2, 3)
    assert 'File "main.py"' in tb["text"]


def test_graph_is_sent_with_what_was_recorded_before_an_error():
    source = ("import tensorflow as tf\nx = tf.Variable(2.0)\nwith tf.GradientTape() as t:\n"
              "    y = x * x\nraise ValueError('after the tape')\n")
    status, page, _ = run(source)
    assert status["error"] == {"type": "ValueError", "line": 5}
    (graph,) = page.of("graph")
    ops = [n for n in graph["nodes"] if n["kind"] == "op"]
    assert [n["line"] for n in ops] == [4] and ops[0]["file"] == "main.py"


def test_keyboard_interrupt_is_reported_as_interrupted():
    status, page, _ = run("print('before')\nraise KeyboardInterrupt\n")
    assert status["interrupted"] is True and status["ok"] is False
    # Stop is not an error (issue 28, item 7): no traceback, no error line, one quiet sentence
    assert status["error"] is None and page.of("traceback") == []
    assert status["stopped"] == {"line": 2, "text": "Stopped at line 2."}
    assert len(page.of("graph")) == 1


def test_uses_matplotlib_sees_imports_only():
    assert runtime.uses_matplotlib("import numpy\nimport matplotlib.pyplot as plt\n")
    assert runtime.uses_matplotlib("from matplotlib import pyplot\n")
    assert not runtime.uses_matplotlib("# import matplotlib\nx = 'matplotlib'\n")


def test_figures_shown_paused_and_left_open_are_sent():
    pytest.importorskip("matplotlib")
    source = ("import matplotlib.pyplot as plt\n"
              "plt.plot([1, 2]); plt.pause(0.1)\n"     # live figure: key kept
              "plt.plot([2, 3]); plt.pause(0.1)\n"     # same figure again: same key
              "plt.show()\n"                           # sent once more, closed
              "plt.figure(); plt.plot([0, 1])\n")      # left open: sent at the end
    status, page, _ = run(source)
    assert status["ok"], page.of("traceback")
    keys = [p["key"] for p in page.of("plot")]
    assert keys[0] == keys[1] == keys[2] and len(keys) == 4 and keys[3] != keys[0]
    assert all(p["png"].startswith("iVBORw0KGgo") for p in page.of("plot"))   # PNG magic, base64


def test_print_goes_to_stdout(capsys):
    status, _, out = run("print('<b>hi</b>')\n", capsys)
    assert status["ok"] and out == "<b>hi</b>\n"


def test_a_failing_matplotlib_setup_is_reported_like_any_error(monkeypatch):
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("matplotlib is not installed")

    def broken_install(self):
        raise ImportError("matplotlib backend exploded")

    monkeypatch.setattr(runtime.PlotSender, "install", broken_install)
    page = Page()
    status = runtime.Session(page).run("import matplotlib.pyplot as plt\nprint('never')\n")
    assert status["ok"] is False and status["error"]["type"] == "ImportError"
    assert "matplotlib backend exploded" in page.of("traceback")[0]["text"]
    assert len(page.of("graph")) == 1, "the graph is still sent"


def test_a_late_stop_while_drawing_figures_does_not_escape(monkeypatch):
    def interrupted_flush(self):
        raise KeyboardInterrupt()

    monkeypatch.setattr(runtime.PlotSender, "flush", interrupted_flush)
    page = Page()
    status = runtime.Session(page).run("print('hi')\n")
    assert status["interrupted"] is True and status["ok"] is False
    assert page.of("traceback") == []
    assert status["stopped"] == {"line": None, "text": "Stopped while drawing figures."}
    assert len(page.of("graph")) == 1


def test_a_late_stop_while_exporting_the_graph_still_sends_the_graph(monkeypatch):
    send_graph = runtime.session.send_graph
    calls = []

    def interrupted_once(send, cap, values=()):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt()
        send_graph(send, cap, values)

    monkeypatch.setattr(runtime.session, "send_graph", interrupted_once)
    page = Page()
    status = runtime.Session(page).run("import tensorflow as tf\nx = tf.Variable(1.0)\n"
                                       "with tf.GradientTape() as t:\n    y = x * x\n")
    assert status["stopped"]["text"] == "Stopped while exporting the graph."
    assert page.of("traceback") == [] and len(page.of("graph")) == 1


# -- errors as the page shows them (issue 16, item 7) ------------------------------------------

def test_an_engine_error_shows_tensorflows_class_first_and_folds_engine_frames():
    source = ("import tensorflow as tf\n"
              "def f(t):\n"
              "    return tf.reshape(t, [4, -1])\n"
              "y = f(tf.zeros([6]))\n")
    status, page, _ = run(source)
    (tb,) = page.of("traceback")
    first = tb["text"].splitlines()[0]
    assert first.startswith("InvalidArgumentError: Input to reshape is a tensor with 6 values")
    assert first.endswith("(tf.errors.InvalidArgumentError)")
    assert tb["line"] == 3 and status["error"] == {"type": "InvalidArgumentError", "line": 3}
    assert 'File "main.py", line 4' in tb["text"] and 'File "main.py", line 3' in tb["text"]
    assert "engine/tapegrad" not in tb["text"] and "playground_runtime" not in tb["text"]
    assert tb["text"].rstrip().splitlines()[-1].startswith("  … ")
    assert "inside tapegrad" in tb["text"]


def test_a_plain_python_error_keeps_its_class_and_a_syntax_error_its_caret():
    _, page, _ = run("x = 1\nprint(undefined_name)\n")
    (tb,) = page.of("traceback")
    assert tb["text"].startswith("NameError: name 'undefined_name' is not defined")
    assert tb["line"] == 2
    _, page, _ = run("x = (1,\n")
    (tb,) = page.of("traceback")
    assert "SyntaxError" in tb["text"] and "^" in tb["text"] and tb["line"] == 1


# -- training in the page (issue 17, item 7) ---------------------------------------------------

FIT = """
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
x = np.linspace(-1, 1, 64, dtype="float32")[:, None]
model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(4, name="inner"),
                             tf.keras.layers.Dense(1, name="outer")])
model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
model.fit(x, 3 * x, epochs=3, batch_size=16, verbose=0{extra})
print("finished")
"""


def test_fit_feeds_the_live_plot_and_the_graph_shows_one_step_with_layer_clusters():
    status, page, out = run(FIT.format(extra=""))
    assert status["ok"], page.of("traceback")
    events = page.of("training")
    assert events[0] == {"event": "begin", "epochs": 3, "steps": 4}
    epochs = [e for e in events if e["event"] == "epoch"]
    assert [e["epoch"] for e in epochs] == [1, 2, 3]
    assert set(epochs[0]["logs"]) == {"loss", "mae"}
    assert epochs[-1]["logs"]["loss"] < epochs[0]["logs"]["loss"]
    assert [e["step"] for e in events if e["event"] == "step"][-1] == 12
    assert events[-1] == {"event": "end"}
    (graph,) = page.of("graph")
    assert graph["representative"]["tapes"] == 12 and graph["representative"]["tape"] == 11
    assert len(graph["tapes"]) == 1 and graph["tapes"][0]["label"] == "step 12 of 12"
    labels = [g["label"] for g in graph["groups"]]
    assert "inner (Dense)" in labels and "outer (Dense)" in labels


def test_a_custom_loop_is_followed_through_metric_results():
    source = ("import tensorflow as tf\n"
              "m = tf.keras.metrics.Mean(name='running')\n"
              "for v in [4.0, 2.0, 0.0]:\n"
              "    m.update_state(v)\n"
              "    m.result()\n")
    status, page, _ = run(source)
    assert status["ok"]
    points = [e for e in page.of("training") if e["event"] == "point"]
    assert [(p["name"], p["value"]) for p in points] == [("running", 4.0), ("running", 3.0),
                                                         ("running", 2.0)]


@pytest.mark.skipif(sys.platform == "emscripten", reason="signal.raise_signal needs a host OS")
def test_stop_during_fit_ends_the_run_between_steps():
    stop_at_step_5 = ", callbacks=[tf.keras.callbacks.LambdaCallback(on_train_batch_begin=" \
        "lambda b, logs: b == 1 and __import__('signal').raise_signal(__import__('signal').SIGINT))]"
    status, page, out = run(FIT.format(extra=stop_at_step_5))
    assert status["interrupted"] and not status["ok"]
    assert page.of("traceback") == [] and status["error"] is None
    fit_line = next(k for k, line in enumerate(FIT.format(extra=stop_at_step_5).splitlines(), 1)
                    if ".fit(" in line)
    assert status["stopped"]["line"] == fit_line
    assert status["stopped"]["text"].startswith(f"Stopped at line {fit_line}, between training steps "
                                                "(epoch 1, after step 2")
    events = page.of("training")
    assert events[-1] == {"event": "end", "stopped": True}
    assert [e["step"] for e in events if e["event"] == "step"][-1] == 2
    import signal
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_save_weights_sends_the_file_for_the_browsers_storage(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = FIT.format(extra="") + "model.save_weights('line.weights.h5')\n"
    status, page, _ = run(source)
    assert status["ok"], page.of("traceback")
    (saved,) = page.of("weights")
    assert saved["path"] == str(tmp_path / "line.weights.h5")
    assert base64.b64decode(saved["data"]) == (tmp_path / "line.weights.h5").read_bytes()


def test_a_saved_keras_model_is_sent_for_the_browsers_storage_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = FIT.format(extra="") + ("model.save('line.keras')\n"
                                     "tf.keras.saving.save_model(model, 'again.keras')\n")
    status, page, _ = run(source)
    assert status["ok"], page.of("traceback")
    sent = {s["path"]: base64.b64decode(s["data"]) for s in page.of("weights")}
    assert sent == {str(tmp_path / n): (tmp_path / n).read_bytes()
                    for n in ("line.keras", "again.keras")}


def test_each_run_starts_keras_names_afresh():
    source = "import tensorflow as tf\nprint(tf.keras.layers.Dense(1).name)\n"
    session_page = Page()
    session = runtime.Session(session_page)
    import contextlib
    import io
    for _ in range(2):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert session.run(source)["ok"]
        assert buf.getvalue() == "dense\n"


def test_input_says_the_playground_has_no_keyboard_input(capsys):
    status, page, out = run("name = input('Your name? ')\nprint('hello', name)\n", capsys)
    assert not status["ok"] and status["error"] == {"type": "EOFError", "line": 1}
    text = page.of("traceback")[0]["text"]
    assert "EOFError: input() has nothing to read here" in text and "name = \"Ada\"" in text
    assert out == "Your name? "   # the prompt is shown, as Python shows it before reading
    status, page, _ = run("import sys\nline = sys.stdin.readline()\n", capsys)
    assert status["error"] == {"type": "EOFError", "line": 2}
    import builtins
    assert builtins.input is not None and "NoStdin" not in type(sys.stdin).__name__
