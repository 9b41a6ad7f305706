"""Stop is not an error (issue 28, item 7): a run ended by Stop, in a long loop or during
``model.fit``, ends with one quiet line "■ Stopped at line N." (N the user's line that was
running); its output, its charts and its graph stay; no traceback, no error mark in the editor.

One page (one Pyodide boot) serves the module.
"""
from __future__ import annotations

import re

import pytest

LOOP = """\
import tensorflow as tf
x = tf.Variable(1.0)
print("before the loop")
step = 0
while True:
    with tf.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, x)
    step += 1
    if step % 20 == 0:
        print("step", step)
"""
LOOP_LINES = range(5, 12)   # the `while` and its body
# (it prints regularly: a write soon after a batch waits for the next write, see output.py)

FIT = """\
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
x = np.linspace(-1, 1, 256, dtype="float32")[:, None]
model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(8, activation="tanh"),
                             tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
print("training")
model.fit(x, x ** 2, epochs=1000, batch_size=16, verbose=0)
print("never printed")
"""
FIT_LINE = 9


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    play = as_playground(module_page("", viewport=(1400, 900)))
    play.wait_ready()
    play.pg.wait_for_selector("[data-testid=editor] .cm-content", timeout=30_000)   # CodeMirror's marks
    return play


# The console's tracebacks and error notes after the last "▶ Run N" line (earlier runs' stay).
LAST_RUN_ERRORS = """console => {
  const runs = [...console.querySelectorAll('.note.run')];
  const last = runs[runs.length - 1];
  return [...console.querySelectorAll('[data-stream=traceback], .note.error')]
    .filter((e) => last.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)
    .map((e) => e.textContent);
}"""


def stop(pg, n: int) -> str:
    pg.pg.locator("[data-testid=stop]").click()
    return pg.wait_run(n, timeout_ms=10_000)


def assert_quiet(pg) -> str:
    """The last run ended with one quiet stop line and nothing that looks like an error; returns
    the line."""
    page = pg.pg
    out = pg.last_run_output()
    assert "KeyboardInterrupt" not in out and "Traceback" not in out, out
    assert "restarted" not in out
    console = page.locator("[data-testid=console]")
    assert console.evaluate(LAST_RUN_ERRORS) == [], "the run's console shows an error"
    assert page.locator("[data-testid=editor] .cm-mark-error").count() == 0
    notes = console.locator(".note.stop")
    assert notes.count() >= 1
    line = notes.last.inner_text()
    assert out.rstrip().endswith(line)                     # the run's last line
    # quiet: the console's ordinary ink, not the error colour of a traceback
    colour = notes.last.evaluate("e => getComputedStyle(e).color")
    error = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--error')")
    assert colour != "rgb(180, 35, 24)" and error.strip() == "#b42318", colour
    return line


def test_stop_in_a_loop_says_the_line_and_keeps_output_and_graph(pg, shot):
    page = pg.pg
    pg.set_code(LOOP)
    n = pg.click_run()
    page.wait_for_function("() => document.querySelector('[data-testid=console]').innerText"
                           ".includes('step 100')", timeout=60_000)
    assert stop(pg, n) == "interrupted"
    line = assert_quiet(pg)
    match = re.fullmatch(r"■ Stopped at line (\d+)\.", line)
    assert match and int(match.group(1)) in LOOP_LINES, line
    out = pg.last_run_output()
    assert "before the loop" in out and "step 100" in out             # output kept
    page.wait_for_selector("[data-testid=graph] svg [data-node-id]")   # the graph of a step
    assert "One training step shown" in out
    shot(page, "stop-quiet-loop")
    # the next run works, and an error still is one
    pg.set_code("print(6 * 7)\nraise ValueError('a real error')\n")
    assert pg.run() == "error"
    assert page.locator("[data-testid=editor] .cm-mark-error").count() == 1


def test_stop_during_fit_ends_between_steps_at_the_fit_line_keeping_the_charts(pg, shot):
    page = pg.pg
    pg.set_code(FIT)
    n = pg.click_run()
    page.wait_for_function("() => +(document.querySelector('[data-testid=training-plot]')?.dataset.renders || 0) >= 3",
                           timeout=120_000)
    assert stop(pg, n) == "interrupted"
    line = assert_quiet(pg)
    assert line.startswith(f"■ Stopped at line {FIT_LINE}, between training steps (epoch "), line
    assert "the model keeps the weights of the" in line
    out = pg.last_run_output()
    assert "training" in out and "never printed" not in out
    plot = page.locator("[data-testid=training-plot]")
    assert plot.is_visible() and plot.locator("svg.training-chart").count() >= 1   # charts kept
    assert "stopped" in plot.locator("figcaption").inner_text()
    page.wait_for_selector("[data-testid=graph] svg [data-node-id]")             # graph kept
    shot(page, "stop-quiet-fit")


def test_stop_right_after_run_ends_the_run_every_time(pg):
    """Run, then Stop at once, again and again: the worker's own Python work between runs (keeping
    the boot's files, warming the graph export) used to take the interrupt meant for the run behind
    it, which then never ended and Python was restarted (4 runs in 6 before the fix). Each run
    now ends quietly, stopped before its code started or in its loop."""
    page = pg.pg
    ends = []
    for i in range(6):   # back to back: the next run is asked for while the last one's work goes on
        pg.set_code(f"print('spin {i}')\nwhile True:\n    pass\n")
        n = pg.click_run()
        page.locator("[data-testid=stop]").click()
        ends.append((pg.wait_run(n, timeout_ms=10_000), pg.last_run_output().splitlines()[-1]))
    # never the restart (which comes STOP_GRACE_MS = 1.5 s after an unread interrupt)
    for how, line in ends:
        assert how == "interrupted" and line in (
            "■ Stopped before the code started.", "■ Stopped at line 2.", "■ Stopped at line 3."), ends
    assert_quiet(pg)
    pg.set_code("print(6 * 7)\n")
    assert pg.run() == "ok" and "42" in pg.last_run_output()


CLEANUP = """\
import time
print("working")
try:
    while True:
        pass
except KeyboardInterrupt:
    started = time.monotonic()
    while time.monotonic() - started < 3.0:   # a slow cleanup, past Stop's 1.5 s grace
        pass
    print("cleaned up")
print("after the loop")
"""


def test_a_run_that_took_the_interrupt_gets_time_to_finish(pg):
    """Python read the interrupt (the run is ending) but takes 3 s on its way out: the worker is
    not replaced at the 1.5 s grace; the run ends on its own, the session kept."""
    page = pg.pg
    pg.set_code("kept = 'from before'\n")
    assert pg.run() == "ok"
    pg.set_code(CLEANUP)
    n = pg.click_run()
    page.wait_for_function("() => document.querySelector('[data-testid=console]').innerText"
                           ".includes('working')")
    page.locator("[data-testid=stop]").click()
    assert pg.wait_run(n, timeout_ms=15_000) == "ok"      # it caught the KeyboardInterrupt itself
    out = pg.last_run_output()
    assert "cleaned up" in out and "after the loop" in out and "restarted" not in out, out


SWALLOW = """\
print("stubborn")
while True:
    try:
        while True:
            pass
    except KeyboardInterrupt:
        pass
"""


def test_a_run_that_swallows_every_interrupt_is_ended_by_a_restart(pg):
    """A loop that catches KeyboardInterrupt and goes on: once the longer wait for a run that read
    the interrupt (1.5 + 6 s) is over, Python is restarted, the code kept."""
    page = pg.pg
    pg.set_code(SWALLOW)
    n = pg.click_run()
    page.wait_for_function("() => document.querySelector('[data-testid=console]').innerText"
                           ".includes('stubborn')")
    page.locator("[data-testid=stop]").click()
    assert pg.wait_run(n, timeout_ms=20_000) == "interrupted"
    assert "Python was restarted" in pg.last_run_output()
    assert "while True:" in pg.editor_text()
    pg.wait_ready()
    pg.set_code("print(6 * 7)\n")
    assert pg.run() == "ok" and "42" in pg.last_run_output()


def test_stop_while_the_run_downloads_its_packages_ends_it_before_its_code(page, as_playground):
    """Stop while a run still downloads the packages it imports (a slow network): Python is not
    restarted at the 1.5 s grace (the download is not Python being stuck); once the download
    is done the run ends without starting its code, the session kept."""
    held = []
    pg = page("", on_context=lambda ctx: ctx.route("**/pyparsing-*", lambda route: held.append(route)))
    play = as_playground(pg)
    play.wait_ready()
    play.set_code("kept = 'from before'\n")
    assert play.run() == "ok"
    play.set_code("import pyparsing\nprint('pyparsing imported')\n")
    n = play.click_run()
    for _ in range(300):                 # the worker asks for the package's wheel
        if held:
            break
        pg.wait_for_timeout(100)
    assert held, "the run did not ask for pyparsing's wheel"
    pg.locator("[data-testid=stop]").click()
    pg.wait_for_timeout(3_000)           # past the 1.5 s grace: still waiting, not restarted
    assert pg.evaluate("document.body.dataset.runs") == str(n - 1)
    for route in held:
        route.continue_()
    assert play.wait_run(n, timeout_ms=30_000) == "interrupted"
    out = play.last_run_output()
    assert "■ Stopped before the code started." in out, out
    assert "pyparsing imported" not in out and "restarted" not in out
    play.set_code("print(kept if 'kept' in dir() else 'fresh globals', 6 * 7)\n")
    assert play.run() == "ok" and "42" in play.last_run_output()
