"""Keras training in the page: the live plot, Keras's progress line, Stop between steps, the graph
of one training step with layer clusters, and weights kept in the browser's storage.

One page (one Pyodide boot) serves the module.
"""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIGITS = (ROOT / "web" / "examples" / "16_conv_digits.py").read_text()

# Records, while the run is in progress, each distinct drawing of the training plot's lines.
WATCH_RENDERS = """() => {
  window.__renders = new Set();
  const seen = () => {
    if (document.body.dataset.state !== "running") return;
    const paths = [...document.querySelectorAll("[data-testid=training-plot] path.train-line")];
    if (paths.length) window.__renders.add(paths.map((p) => p.getAttribute("d")).join("|"));
  };
  new MutationObserver(seen).observe(document.querySelector("[data-testid=plot]"),
                                     { subtree: true, childList: true, attributes: true });
}"""


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    play = as_playground(module_page("", viewport=(1400, 900)))
    play.wait_ready()
    return play


def test_fit_plots_live_shows_one_progress_line_per_epoch_and_one_step_graph(pg, shot):
    page = pg.pg
    pg.set_code(DIGITS)
    page.evaluate(WATCH_RENDERS)
    assert pg.run() == "ok", pg.last_run_output()
    assert page.evaluate("window.__renders.size") >= 2       # the plot moved while training ran
    out = pg.last_run_output()
    assert "test accuracy above 0.85: True" in out
    # Keras's progress bar redraws one line with \r, \b and ANSI colours: one line per epoch here
    assert "\x1b" not in out and "[1m" not in out and "[0m" not in out and "\b" not in out
    bars = [line for line in out.splitlines() if " 23/23 " in f" {line}" or line.startswith("23/23")]
    assert len(bars) == 4, out
    assert all("val_loss" in line for line in bars)
    assert not any(line.startswith(" 1/23") or "17/23" in line for line in out.splitlines())
    plot = page.locator("[data-testid=training-plot]")
    assert plot.is_visible()
    metrics = [plot.locator("svg.training-chart").nth(i).get_attribute("data-metric")
               for i in range(plot.locator("svg.training-chart").count())]
    assert sorted(metrics) == ["accuracy", "loss"]
    assert plot.locator("circle.val-dot").count() == 2 * 4          # validation per epoch
    assert "done" in plot.locator("figcaption").inner_text()
    # the graph: one training step, the model's layers as clusters named after them
    assert "One training step shown: the last complete one (tape 92 of 92 recorded)" in out
    groups = page.eval_on_selector_all(
        "[data-testid=graph] svg [data-kind=group]",
        "els => els.map(e => [e.dataset.nodeId, e.textContent])")
    ids = sorted(i.rsplit("/", 1)[-1].removeprefix("g:") for i, _ in groups)
    assert ids == ["Conv2D:conv", "Dense:logits", "Flatten:flatten", "MaxPooling2D:pool"], groups
    assert any("conv" in text for _, text in groups)
    shot(page, "training-live-plot-and-layer-clusters")
    for _ in range(3):
        page.locator("[data-testid=graph] button", has_text="+").first.click()
    page.locator("[data-testid=graph]").screenshot(path=str(ROOT / "test-results" / "browser" / "training-layer-clusters-zoomed.png"))


def test_stop_mid_training_ends_between_steps_and_the_page_stays_usable(pg, shot):
    page = pg.pg
    code = DIGITS.replace("epochs=4,", "epochs=200,")
    assert code != DIGITS
    pg.set_code(code)
    n = pg.click_run()
    page.wait_for_function("() => +(document.querySelector('[data-testid=training-plot]')?.dataset.renders || 0) >= 3",
                           timeout=120_000)
    page.locator("[data-testid=stop]").click()
    page.wait_for_selector(f"body[data-runs='{n}']", state="attached", timeout=3_000)
    assert page.evaluate("document.body.dataset.lastRun") == "interrupted"
    out = pg.last_run_output()
    assert "Stopped at line " in out and ", between training steps (epoch" in out
    assert "KeyboardInterrupt" not in out and "Traceback" not in out   # Stop is not an error
    assert "restarted" not in out
    assert "stopped" in page.locator("[data-testid=training-plot] figcaption").inner_text()
    shot(page, "training-stopped")
    pg.set_code("print(6 * 7)\n")
    assert pg.run() == "ok"
    assert "42" in pg.last_run_output()


SAVE = """
import numpy as np
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1, name="d")])
model.layers[0].kernel.assign([[1.5], [-2.5]])
model.save_weights("kept.weights.h5")
print("saved")
"""
LOAD = """
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1, name="d")])
model.load_weights("kept.weights.h5")
print("loaded kernel:", model.layers[0].kernel.numpy().ravel().tolist())
"""


def test_save_weights_persists_in_the_browser_and_load_weights_reads_it_after_a_reload(pg, as_playground):
    page = pg.pg
    pg.set_code(SAVE)
    assert pg.run() == "ok", pg.last_run_output()
    out = pg.last_run_output()
    assert "Weights saved to /home/pyodide/kept.weights.h5 in this browser" in out
    stored = page.evaluate("localStorage.getItem('tapegrad.playground.weights:/home/pyodide/kept.weights.h5')")
    assert stored and len(stored) > 100
    page.reload()
    fresh = as_playground(page)
    fresh.wait_ready()
    fresh.set_code(LOAD)
    assert fresh.run() == "ok", fresh.last_run_output()
    assert "loaded kernel: [1.5, -2.5]" in fresh.last_run_output()
    page.evaluate("localStorage.removeItem('tapegrad.playground.weights:/home/pyodide/kept.weights.h5')")
