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
    assert "Stopped at line 8." in captured.out                 # the raise, in the cell
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
