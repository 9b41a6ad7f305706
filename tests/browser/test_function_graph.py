"""The graph tf.function traces, in the page (issue 29, item 7): a run that traced a tf.function
shows the graph pane's "Tape | graph of f" bar; "graph of f" draws f's concrete function (its ops
as the pane labels them: MatMul, AddV2...) and lists f's traces in a select, the retrace marked;
"Tape" draws the tape again. axe finds no serious or critical violation in that view, in the light
and dark themes; its controls are 44 px on a touch screen. Screenshots: test-results/browser/function-graph-*.png.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SHOTS
from test_phone_a11y import AXE, AXE_RUN_JS, CONTROL_SIZES_JS, with_axe

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "web" / "examples" / "manifest.json").read_text())["examples"]
(ENTRY,) = [e for e in MANIFEST if e["id"] == "tf-function-graph"]
EXAMPLE = (ROOT / "web" / "examples" / ENTRY["file"]).read_text()

LABELS_JS = """() => [...document.querySelectorAll('[data-testid=graph] [data-node-id] .tg-graph-label')]
  .map((t) => t.textContent)"""


def _run_example(play):
    play.wait_ready()
    play.set_code(EXAMPLE)
    assert play.run() == "ok", play.console_text()
    pg = play.pg
    pg.wait_for_selector("[data-testid=graph] [data-node-id]")
    for line in ENTRY["expect"]:
        assert line in play.last_run_output()
    return pg


def _whole_labels(pg):
    """The nodes' names, zoomed in until none is shortened (zoomed out, the pane shortens them)."""
    for _ in range(8):
        labels = pg.evaluate(LABELS_JS)
        if not any(label.endswith("…") for label in labels):
            return labels
        pg.locator("[data-testid=graph-zoom-in]").click()
    return labels


def _shot(pg, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.locator("[data-testid=graph]").screenshot(path=str(SHOTS / f"function-graph-{name}.png"))


def test_graph_of_f_draws_the_traced_ops_and_lists_both_traces(page, as_playground):
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run bash build/setup_node.sh (npm ci)")
    play = as_playground(page("", viewport=(1366, 900), on_context=with_axe))
    pg = _run_example(play)
    views = pg.locator("[data-testid=graph-views]")
    assert views.is_visible()
    tape_labels = pg.evaluate(LABELS_JS)
    tabs = views.locator("button")
    assert tabs.all_inner_texts() == ["Tape", "graph of f"]
    assert tabs.first.get_attribute("aria-pressed") == "true"
    assert not pg.locator("[data-testid=function-trace-select]").is_visible()

    tabs.nth(1).click()
    assert tabs.nth(1).get_attribute("aria-pressed") == "true"
    pg.wait_for_function("() => document.querySelector('[data-testid=graph-views]').dataset.view === '0'")
    _shot(pg, "graph-of-f-trace-1")
    labels = _whole_labels(pg)
    for op in ("x", "ReadVariableOp", "MatMul", "AddV2", "Tanh", "Identity"):   # x: the input
        assert op in labels, (op, labels)
    select = pg.locator("[data-testid=function-trace-select]")
    assert select.is_visible() and select.get_attribute("aria-label") == "concrete function"
    options = select.locator("option").all_inner_texts()
    assert options == [
        "trace 1: x: TensorSpec(shape=(1, 3), dtype=tf.float32, name=None)",
        "trace 2 (retrace): x: TensorSpec(shape=(2, 3), dtype=tf.float32, name=None)"]
    # no backward animation for a traced graph: it has no gradient call
    assert pg.locator("[data-testid=timeline-backward]").is_disabled()
    assert pg.evaluate(AXE_RUN_JS) == [], "graph of f"

    # the retrace's graph
    select.select_option("1")
    pg.wait_for_function("() => [...document.querySelectorAll('[data-testid=graph] [data-node-id]')].length > 0")
    assert select.input_value() == "1"
    _shot(pg, "graph-of-f-trace-2")
    assert "MatMul" in _whole_labels(pg)

    # keyboard: the tabs are buttons in the tab order; Enter on "Tape" goes back
    tabs.first.focus()
    pg.keyboard.press("Enter")
    pg.wait_for_function("() => document.querySelector('[data-testid=graph-views]').dataset.view === 'tape'")
    assert pg.evaluate(LABELS_JS) == tape_labels
    assert not select.is_visible()
    assert not pg.locator("[data-testid=timeline-backward]").is_disabled()


def test_the_bar_is_hidden_without_traces_and_large_enough_by_touch_in_the_dark(page, as_playground):
    play = as_playground(page("", viewport=(1180, 820), has_touch=True, is_mobile=True,
                              color_scheme="dark", on_context=with_axe))
    pg = _run_example(play)
    assert pg.evaluate("document.documentElement.dataset.theme") == "dark"
    pg.locator("[data-testid=graph-view-function]").click()
    pg.wait_for_selector("[data-testid=function-trace-select]", state="visible")
    sizes = [c for c in pg.evaluate(CONTROL_SIZES_JS)
             if "graph-view" in c["what"] or "function-trace" in c["what"]]
    assert len(sizes) == 3 and all(c["w"] >= 44 and c["h"] >= 44 for c in sizes), sizes
    assert pg.evaluate(AXE_RUN_JS) == [], "graph of f, dark"
    _shot(pg, "graph-of-f-dark-touch")
    play.set_code("import tensorflow as tf\nx = tf.Variable(2.0)\nwith tf.GradientTape() as t:\n"
                  "    y = x * x\nprint(t.gradient(y, x))\n")
    assert play.run() == "ok"
    assert not pg.locator("[data-testid=graph-views]").is_visible()


DRAWING = """import tensorflow as tf

runs = []

@tf.function
def noisy_distinct(x):
    runs.append(1)
    y, idx = tf.unique(x)
    return tf.nn.dropout(tf.cast(y, tf.float32), rate=0.5), tf.size(y)

for values in ([1, 1, 2], [3, 4, 5], [6, 6, 6]):
    dropped, n = noisy_distinct(tf.constant(values))
    print(int(n), dropped.shape)
print("python ran", len(runs))
"""


def test_graph_of_f_shows_draws_and_value_dependent_shapes_as_nodes(page, as_playground):
    """A traced function holding a random draw and tf.unique: its Python runs once (as in
    TensorFlow), and its graph lists those ops as nodes."""
    play = as_playground(page("", viewport=(1366, 900)))
    play.wait_ready()
    play.set_code(DRAWING)
    assert play.run() == "ok", play.console_text()
    out = play.last_run_output()
    assert "2 (2,)\n3 (3,)\n1 (1,)\npython ran 1" in out, out
    pg = play.pg
    pg.locator("[data-testid=graph-view-function]").click()
    pg.wait_for_function("() => document.querySelector('[data-testid=graph-views]').dataset.view === '0'")
    labels = _whole_labels(pg)
    for op in ("Unique", "RandomUniform", "Size", "Mul"):
        assert op in labels, (op, labels)
    _shot(pg, "graph-of-f-draws")
