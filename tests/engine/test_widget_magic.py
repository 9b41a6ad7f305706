"""%%tapegrad in a real IPython shell: a cell that trains shows its last complete step (as the
playground does), its widget following the training while the cell runs, and an interrupt ends
the cell with a quiet "Stopped at line N." and its graph, no traceback."""
import json

import pytest

IPython = pytest.importorskip("IPython")

from tapegrad.graph.training_view import LiveSteps  # noqa: E402
from tapegrad.widget import display as widget_display  # noqa: E402
from tapegrad.widget import magic  # noqa: E402

LOOP = """\
import tapegrad as tf
w = tf.Variable(2.0, name="w")
for step in range(6):
    with tf.GradientTape() as tape:
        loss = tf.square(w - 1.0)
    w.assign_sub(0.1 * tape.gradient(loss, w))
    if step == STOP_AT:
        raise KeyboardInterrupt
"""


@pytest.fixture
def shown(monkeypatch):
    """What %%tapegrad displays, and each document its widget was given (a dict per update; the
    widget's class is anywidget's when installed, else the SVG fallback is what is displayed)."""
    from IPython.core.interactiveshell import InteractiveShell
    import IPython.display
    shell = InteractiveShell.instance()
    shown, docs = [], []

    def show(obj):
        shown.append(obj)
        if hasattr(obj, "observe"):
            obj.observe(lambda change: docs.append(json.loads(change["new"])), names="doc")
    monkeypatch.setattr(IPython.display, "display", show)
    yield shell, shown, docs
    InteractiveShell.clear_instance()        # get_ipython() is None again for the other tests


def test_a_training_loop_shows_its_last_complete_step(shown, capsys):
    shell, views, docs = shown
    magic._cell_magic("", LOOP.replace("STOP_AT", "-1"))
    out = capsys.readouterr().out
    assert "One training step shown: the last complete one (tape 6 of 6 recorded)." in out
    assert len(views) == 1
    if docs:                                 # anywidget installed: the widget's last document
        doc = docs[-1]
        assert len(doc["tapes"]) == 1 and doc["representative"]["tape"] == 5
        assert [n["op"] for n in doc["nodes"] if n["kind"] == "op"].count("Square") == 1
        # lines as the notebook numbers the cell (line 1 is %%tapegrad): tape.gradient on line 7
        assert [call["line"] for call in doc["tapes"][0]["gradients"]] == [7]
        assert {n["line"] for n in doc["nodes"] if n.get("op") == "Square"} == {6}
    assert shell.user_ns["w"].numpy() == pytest.approx(2.0 - 0.2 * sum(0.8 ** k for k in range(6)))


def test_the_widget_follows_the_training_while_the_cell_runs(shown, monkeypatch):
    """Shown when the cell starts, then given each complete step (the throttle opened wide here:
    the playground's test_live_graph_runtime tests its pace), then the last step at the end."""
    pytest.importorskip("anywidget")
    shell, views, docs = shown
    monkeypatch.setattr(LiveSteps, "EVERY_S", 0.0)
    monkeypatch.setattr(LiveSteps, "MAX_SHARE", 1e9)
    magic._cell_magic("", LOOP.replace("STOP_AT", "-1"))
    (view,) = views
    live = [d["live"]["tape"] for d in docs if "live" in d]
    assert live == [1, 2, 3, 4, 5]               # from the loop's second step on
    assert all(d["live"]["text"].startswith("Training: step") for d in docs[:-1])
    assert "live" not in docs[-1] and docs[-1]["representative"]["tape"] == 5
    assert json.loads(view.doc) == docs[-1]


def test_an_interrupt_is_a_quiet_stop_with_the_graph_kept(shown, capsys):
    shell, views, docs = shown
    custom = shell.custom_exceptions
    magic._cell_magic("", LOOP.replace("STOP_AT", "2"))
    captured = capsys.readouterr()
    # the raise: the code's line 8, the notebook cell's line 9 (its line 1 is %%tapegrad)
    assert "Stopped at line 9." in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert "KeyboardInterrupt" not in captured.out + captured.err
    assert "One training step shown: the last complete one (tape 3 of 3 recorded)." in captured.out
    assert len(views) == 1
    assert shell.custom_exceptions == custom                    # the shell's handlers restored
    shell.run_cell("raise KeyboardInterrupt", store_history=False)   # outside %%tapegrad: as before
    assert "KeyboardInterrupt" in "".join(capsys.readouterr())


def test_the_stopped_line_is_the_cells_innermost():
    def cell():
        def inner():
            raise KeyboardInterrupt
        inner()

    def run_code():       # IPython's frame comes first in the traceback
        cell()
    try:
        run_code()
    except KeyboardInterrupt as e:
        tb = e.__traceback__.tb_next     # from run_code's frame on
    assert magic.cell_line(tb) == inner_line(cell)


def inner_line(fn):
    import inspect
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, text in enumerate(lines) if "raise KeyboardInterrupt" in text)


def test_a_graph_document_is_displayed_as_it_is():
    doc = {"version": 1, "nodes": [], "edges": [], "tapes": [], "layout": {}}
    assert widget_display.graph_document(doc) is doc


PACED = """\
import time
import tapegrad as tf
w = tf.Variable(2.0, name="w")
for step in range(40):
    with tf.GradientTape() as tape:
        loss = tf.square(w - 1.0)
    w.assign_sub(0.1 * tape.gradient(loss, w))
    time.sleep(0.08)
"""


def test_the_widget_is_updated_at_most_about_once_a_second(shown, monkeypatch):
    """At the live graph's own pace (no throttle changed): a loop of 40 steps held 0.08 s each
    (over 3 s on any machine) gives its widget a step 2 or 3 times while it runs, at least a
    second apart, each a later step; the last update is the last complete step."""
    pytest.importorskip("anywidget")
    import time
    import IPython.display
    shell, views, docs = shown
    show, stamps = IPython.display.display, []

    def timed(view):         # each update's time, beside the fixture's document
        show(view)
        view.observe(lambda change: stamps.append(time.monotonic()), names="doc")
    monkeypatch.setattr(IPython.display, "display", timed)
    started = time.monotonic()
    magic._cell_magic("", PACED)
    ended = time.monotonic()
    live = [(at, d["live"]["tape"]) for at, d in zip(stamps, docs) if "live" in d]
    assert 2 <= len(live) <= (ended - started) / LiveSteps.EVERY_S, live
    assert live[0][0] - started >= LiveSteps.EVERY_S
    assert all(b[0] - a[0] >= LiveSteps.EVERY_S and b[1] > a[1] for a, b in zip(live, live[1:]))
    assert len(docs) == len(stamps) == len(live) + 1
    assert "live" not in docs[-1] and docs[-1]["representative"]["tape"] == 39


def test_without_anywidget_the_cell_shows_its_step_as_svg(shown, monkeypatch, capsys):
    """No widget class: nothing is shown while the cell runs, then the last complete step's SVG."""
    import IPython.display
    from xml.etree import ElementTree
    shell, views, docs = shown
    monkeypatch.setattr(magic, "_widget_class", lambda: None)
    magic._cell_magic("", LOOP.replace("STOP_AT", "-1"))
    assert "(tape 6 of 6 recorded)" in capsys.readouterr().out
    (svg,) = views
    assert isinstance(svg, IPython.display.SVG) and not docs
    texts = [el.text for el in ElementTree.fromstring(svg.data).iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("Square") == 1 and "w" in texts


FIT = """\
import numpy as np
import tapegrad as tf
class Stop(tf.keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        if batch == STOP_AT:
            raise KeyboardInterrupt
model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
x = np.linspace(0, 1, 192, dtype=np.float32).reshape(64, 3)
model.fit(x, x[:, :1], batch_size=8, epochs=2, verbose=0, callbacks=[Stop()])
print("fitted")
"""


@pytest.mark.parametrize("stop_at, steps", [(-1, 16), (4, 5)])
def test_a_fit_shows_its_last_complete_step_stopped_or_not(shown, capsys, stop_at, steps):
    """A Keras fit of 16 steps (2 epochs of 8 batches), and the same fit interrupted after its
    5th batch: the widget (or SVG) is one step, the last complete one, with the model's layers;
    the stop is the quiet line, at the cell's line that raised (the callback's, line 7 under
    %%tapegrad), no traceback."""
    shell, views, docs = shown
    magic._cell_magic("", FIT.replace("STOP_AT", str(stop_at)))
    captured = capsys.readouterr()
    assert f"One training step shown: the last complete one (tape {steps} of {steps} recorded)." \
        in captured.out
    assert ("fitted" in captured.out) == (stop_at < 0)
    assert ("Stopped at line 7." in captured.out) == (stop_at >= 0)
    assert "Traceback" not in captured.out + captured.err
    assert len(views) == 1
    if docs:
        doc = docs[-1]
        assert len(doc["tapes"]) == 1 and doc["representative"]["tape"] == steps - 1
        layers = {g["id"] for g in doc["groups"] if g["kind"] == "layer" and "(Dense)" in g["label"]}
        in_layer = {n["group"] for n in doc["nodes"] if n.get("op") == "MatMul"}
        assert len(layers) == 2 and in_layer == layers          # the model's two Dense layers


def test_a_cell_magic_under_tapegrad_still_runs_the_cell(shown, capsys):
    """%%tapegrad then %%time: the inner magic is on the code's first line, where IPython reads it
    (the comment that numbers the lines as the notebook does is not put before it)."""
    shell, views, docs = shown
    magic._cell_magic("", "%%time\n" + LOOP.replace("STOP_AT", "-1"))
    out = capsys.readouterr().out
    assert "Wall time" in out and "(tape 6 of 6 recorded)" in out, out
    assert len(views) == 1
