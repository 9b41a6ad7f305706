"""The Tape pane follows training (issue 28, item 3): while `fit` or a custom training loop runs,
the graph pane shows the latest complete step's graph (kind "live-graph", throttled to about once
a second in the worker), and the run ends with its last complete step's graph.

The graph box carries data-live-step (the step drawn while the run goes on) and data-step (the
run's step, once it has ended); an observer records every value seen while the page is running.
No timing is asserted: the cost of the live graphs is a benchmark figure
(tests/browser/bench_live_graph.py). How often the pane is refreshed depends on what an export
costs against the run (the worker keeps the exports under about 2% of the run's time), and the first
export in a fresh page costs the most: the custom loop runs first, and the fit is long (12 epochs).
"""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIGITS = (ROOT / "web" / "examples" / "16_conv_digits.py").read_text()

# Records, while the run is in progress, each step the graph pane draws and whether the pane said
# "Nothing recorded yet" after a step graph had been drawn.
WATCH_STEPS = """() => {
  window.__liveSteps = [];
  window.__liveGroups = [];
  const box = document.querySelector('[data-testid=graph]');
  const seen = () => {
    if (document.body.dataset.state !== 'running') return;
    const step = box.dataset.liveStep;
    if (step && window.__liveSteps[window.__liveSteps.length - 1] !== step) {
      window.__liveSteps.push(step);
      window.__liveGroups.push([...box.querySelectorAll('svg [data-kind=group]')].length);
    }
  };
  new MutationObserver(seen).observe(box, { subtree: true, childList: true, attributes: true });
}"""

LOOP = """\
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
x = np.linspace(-1, 1, 128, dtype="float32")[:, None]
y = np.sin(3 * x)
w1 = tf.Variable(tf.random.normal((1, 16)))
b1 = tf.Variable(tf.zeros(16))
w2 = tf.Variable(tf.random.normal((16, 1)))
opt = tf.keras.optimizers.Adam(0.01)
for step in range(STEPS):
    with tf.GradientTape() as tape:
        h = tf.tanh(x @ w1 + b1)
        loss = tf.reduce_mean((h @ w2 - y) ** 2)
    grads = tape.gradient(loss, [w1, b1, w2])
    opt.apply_gradients(zip(grads, [w1, b1, w2]))
print("loss", float(loss) < 1.0)
"""


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    play = as_playground(module_page("", viewport=(1366, 768)))
    play.wait_ready()
    return play


def live_steps(page) -> list[int]:
    return [int(s) for s in page.evaluate("window.__liveSteps")]


def test_the_graph_pane_follows_a_custom_training_loop(pg):
    page = pg.pg
    # each step held 2 ms longer: the loop lasts more than 3 s however fast the machine
    code = "import time\n" + LOOP.replace("STEPS", "1500").replace(
        "    opt.apply_gradients(zip(grads, [w1, b1, w2]))\n",
        "    opt.apply_gradients(zip(grads, [w1, b1, w2]))\n    time.sleep(0.002)\n")
    assert "time.sleep(0.002)" in code
    pg.set_code(code)
    page.evaluate(WATCH_STEPS)
    assert pg.run() == "ok", pg.last_run_output()
    assert "loss True" in pg.last_run_output()
    steps = live_steps(page)
    assert len(steps) >= 2, steps
    assert steps == sorted(steps) and steps[-1] < 1500
    assert page.locator("[data-testid=graph]").get_attribute("data-step") == "1500"
    assert "step 1500 of 1500" in page.locator("[data-testid=tape-select]").inner_text()


def test_the_graph_pane_follows_fit_and_ends_with_the_last_complete_step(pg, shot):
    page = pg.pg
    # 12 epochs, each step held 12 ms longer by a callback: the fit lasts more than 3 s however
    # fast the machine (a quiet one trains the 276 steps in about 1.5 s, one live graph's time)
    code = DIGITS.replace("epochs=4,", "epochs=12, callbacks=[Slow()],").replace(
        "model.fit(", "import time\nclass Slow(tf.keras.callbacks.Callback):\n"
        "    def on_train_batch_end(self, batch, logs=None):\n        time.sleep(0.012)\n\nmodel.fit(", 1)
    assert "callbacks=[Slow()]" in code and "class Slow" in code
    pg.set_code(code)
    page.evaluate(WATCH_STEPS)
    n = pg.click_run()
    # a step graph is drawn while the run goes on: the pane does not say "Nothing recorded yet"
    page.wait_for_function("() => document.querySelector('[data-testid=graph]').dataset.liveStep",
                           timeout=120_000)
    assert page.locator("[data-testid=graph-empty]").is_hidden()
    assert page.evaluate("document.body.dataset.state") == "running"
    shot(page, "live-graph-during-fit")
    assert pg.wait_run(n) == "ok", pg.last_run_output()
    steps = live_steps(page)
    assert len(steps) >= 2, steps                      # at least two different step graphs
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    # each was a Keras step: the model's layers as groups
    assert min(page.evaluate("window.__liveGroups")) >= 4
    # the end: the last complete step (12 epochs of 23 steps: tape 276 of 276), no longer live
    box = page.locator("[data-testid=graph]")
    assert box.get_attribute("data-live-step") == ""
    assert box.get_attribute("data-step") == "276"
    assert steps[-1] < 276
    assert "step 276 of 276" in page.locator("[data-testid=tape-select]").inner_text()
    out = pg.last_run_output()
    assert "One training step shown: the last complete one (tape 276 of 276 recorded)" in out
    assert out.count("One training step shown") == 1   # the live graphs add no console lines


def test_a_short_run_draws_its_graph_once_at_the_end(pg):
    page = pg.pg
    pg.set_code(LOOP.replace("STEPS", "5"))
    page.evaluate(WATCH_STEPS)
    assert pg.run() == "ok", pg.last_run_output()
    assert live_steps(page) == []                      # under a second: nothing live
    assert page.locator("[data-testid=graph]").get_attribute("data-step") == "5"
