"""The page under output floods (issue 30, item 2): stdout is batched and rate-limited in Python
(web/python/playground_runtime/output.py), the console keeps at most MAX_LINES lines with an
"N earlier lines hidden" line, "Save output" saves all of the run's output, Stop answers within
1 s, the page's JS heap stays bounded; the same for a flood of figures and of tapes.

The batcher's own rules are checked natively first; then one page (one Pyodide boot) serves the
browser tests.
"""
from __future__ import annotations

import importlib
import io
import json
import logging
import sys
import time

import pytest

from conftest import load_runtime  # noqa: E402

MAX_LINES = 5000            # web/src/console.js
# Not a timed goal (those are measured by benchmarks): a frozen page took over 20 s and never
# answered; these bounds only tell "answers" from "frozen". The measured times are printed.
STOP_WITHIN_S = 10.0
ANSWERS_WITHIN_S = 5.0
HEAP_GROWTH_LIMIT = 100 * 1024 * 1024


# -- the batcher, natively ------------------------------------------------------------------------

def _output():
    """playground_runtime.output (the package is imported by load_runtime, its path kept)."""
    load_runtime()
    return importlib.import_module("playground_runtime.output")


def test_a_long_batch_shows_its_head_and_tail_and_keeps_its_whole_text():
    output = _output()
    text = "".join(f"{i}\n" for i in range(10_000))
    message, whole = output.batch_message([("stdout", text[:20]), ("stderr", text[20:])])
    assert whole == text and message["full"] == text
    streams = [stream for stream, _ in message["parts"]]
    assert streams == ["stdout", "stderr", "skipped", "stderr"]
    shown = "".join(t for s, t in message["parts"] if s != "skipped")
    assert shown.splitlines() == [str(i) for i in range(output.HEAD_LINES)] + \
        [str(i) for i in range(10_000 - output.TAIL_LINES, 10_000)]
    hidden = 10_000 - output.HEAD_LINES - output.TAIL_LINES
    assert message["parts"][2][1] == f"… {hidden:,} lines not shown (Save output keeps them) …"


def test_a_short_batch_is_sent_as_it_is():
    output = _output()
    message, _ = output.batch_message([("stdout", "a\nb"), ("stderr", "c\n")])
    assert message == {"parts": [["stdout", "a\nb"], ["stderr", "c\n"]]}


def test_writes_go_out_at_most_once_per_interval_and_all_at_the_end():
    runtime, output = load_runtime(), _output()
    sent = []
    batcher = output.OutputBatcher(lambda kind, payload: sent.append((kind, json.loads(payload))))
    session = runtime.Session(batcher.send, batcher.flush)
    start = time.monotonic()
    status = batcher.run(session, "import time\nt = time.monotonic()\n"
                                  "while time.monotonic() - t < 0.5:\n    print('x')\nprint('end')\n")
    took = time.monotonic() - start
    assert status["ok"]
    batches = [m for k, m in sent if k == "output"]
    assert 2 <= len(batches) <= took / output.SEND_EVERY_S + 2
    saved = "".join(m.get("full", "".join(t for s, t in m["parts"] if s != "skipped")) for m in batches)
    assert saved.endswith("x\nend\n") and set(saved.splitlines()) == {"x", "end"}
    kinds = [k for k, _ in sent]
    assert kinds.index("graph") > max(i for i, k in enumerate(kinds) if k == "output"), kinds


def test_what_is_kept_for_saving_is_bounded_per_run(monkeypatch):
    runtime, output = load_runtime(), _output()
    monkeypatch.setattr(output, "SAVE_LIMIT", 1000)
    sent = []
    batcher = output.OutputBatcher(lambda kind, payload: sent.append((kind, json.loads(payload))))
    session = runtime.Session(batcher.send, batcher.flush)
    assert batcher.run(session, "for i in range(3):\n    print('y' * 999)\n")["ok"]
    batches = [m for k, m in sent if k == "output"]
    kept = "".join(m.get("full", "".join(t for s, t in m["parts"] if s != "skipped")) for m in batches)
    assert len(kept) == 1000 and sum(m.get("unsaved", 0) for m in batches) == 3000 - 1000


def test_a_warning_from_a_handler_made_before_the_run_keeps_its_place_between_printed_lines():
    """tapegrad's logging handler is made at its import, before the run, with the sys.stderr of
    then: during the run its warnings join the batch in the order written (not ahead of the
    stdout still waiting), and after the run the handler writes where it wrote before."""
    runtime, output = load_runtime(), _output()
    sent = []
    batcher = output.OutputBatcher(lambda kind, payload: sent.append((kind, json.loads(payload))))
    log = logging.getLogger("tapegrad-order-test")
    before = io.StringIO()
    log.addHandler(logging.StreamHandler(before))
    sys_stderr = sys.stderr
    try:
        sys.stderr = before   # the handler holds the stderr of before the run
        session = runtime.Session(batcher.send, batcher.flush)
        code = ("import logging\nprint('1. before:', 4.0)\n"
                "logging.getLogger('tapegrad-order-test').warning('careful')\nprint('2. after')\n")
        assert batcher.run(session, code)["ok"]
        log.warning("outside a run")
    finally:
        sys.stderr = sys_stderr
        log.handlers.clear()
    parts = [part for k, m in sent if k == "output" for part in m["parts"]]
    assert "".join(t for _, t in parts) == "1. before: 4.0\ncareful\n2. after\n", parts
    assert [s for s, t in parts if "careful" in t] == ["stderr"]
    assert before.getvalue() == "outside a run\n"


# -- the page ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    page = module_page("")
    play = as_playground(page)
    play.wait_ready()
    return play


def _heap_used(page) -> int:
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("HeapProfiler.collectGarbage")
        return cdp.send("Runtime.getHeapUsage")["usedSize"]
    finally:
        cdp.detach()


def _console_lines(page) -> int:
    return page.evaluate("""() => {
        const log = document.querySelector('[data-testid=console] .console-log');
        return log.innerText.split('\\n').length;
    }""")


def _stop_seconds(pg) -> float:
    """Clicks Stop; seconds until the page says Ready again."""
    page = pg.pg
    start = time.monotonic()
    page.locator("[data-testid=stop]").click()
    page.wait_for_selector("body[data-state=ready]", timeout=20_000)
    return time.monotonic() - start


def _flood(pg, code: str, seconds: float) -> int:
    """Starts `code` (a loop without end) and lets it run `seconds`; the run's number."""
    pg.set_code(code)
    n = pg.click_run()
    pg.pg.wait_for_selector("body[data-state=running]", timeout=30_000)
    time.sleep(seconds)
    return n


def test_a_print_flood_keeps_the_page_answering_and_stop_works_at_once(pg, shot):
    page = pg.pg
    before = _heap_used(page)
    n = _flood(pg, "i = 0\nwhile True:\n    print('x', i)\n    i += 1\n", 10)
    # the page answers during the flood
    start = time.monotonic()
    assert page.evaluate("1 + 1") == 2
    answered = time.monotonic() - start
    print(f"flood: the page answered in {answered:.2f} s")
    assert answered < ANSWERS_WITHIN_S
    during = _heap_used(page)
    took = _stop_seconds(pg)
    assert pg.wait_run(n, 5_000) == "interrupted"
    print(f"flood: Stop to Ready {took:.2f} s")
    assert took < STOP_WITHIN_S, f"Stop took {took:.2f} s"
    assert during - before < HEAP_GROWTH_LIMIT, (before, during)
    assert _console_lines(page) <= MAX_LINES + 50
    hidden = page.locator("[data-testid=hidden-lines]")
    assert hidden.count() == 1 and "earlier lines hidden" in hidden.inner_text()
    assert page.locator(".console-log .note.skipped").count() >= 1      # batches were cut
    text = pg.console_text()
    assert "■ Stopped at line " in text and "KeyboardInterrupt" not in text
    shot(page, "console-after-flood")


def test_save_output_gives_every_line_of_a_finite_flood(pg):
    page = pg.pg
    pg.set_code("for i in range(200000):\n    print(i)\n")
    assert pg.run() == "ok"
    assert _console_lines(page) <= MAX_LINES + 50
    assert page.locator("[data-testid=hidden-lines]").count() == 1
    # (the run's "▶ Run N" line is among the hidden ones: the console's text ends the run)
    assert pg.console_text().rstrip().endswith("199999")
    with page.expect_download() as info:
        page.locator("[data-testid=save-output]").click()
    saved = open(info.value.path(), encoding="utf-8").read()
    assert saved.splitlines() == [str(i) for i in range(200000)]
    assert info.value.suggested_filename.endswith(".txt")


def test_progress_bars_and_colours_still_render_as_a_terminal(pg):
    page = pg.pg
    pg.set_code("import sys\nfor i in range(5):\n    sys.stdout.write(f'\\r{i}/4 \\x1b[32mok\\x1b[0m')\n"
                "    sys.stdout.flush()\nprint()\nprint('ab\\bc')\n")
    assert pg.run() == "ok"
    out = pg.last_run_output()
    assert "4/4 ok" in out and "0/4" not in out and "ac" in out
    assert page.locator(".console-log .ansi-fg-32").last.inner_text() == "ok"


def test_a_figure_flood_is_capped_with_a_note(pg):
    page = pg.pg
    pg.set_code("import matplotlib.pyplot as plt\nfor i in range(70):\n    plt.plot([0, i])\n"
                "    plt.show()\n")
    assert pg.run() == "ok", pg.console_text()
    assert page.locator("[data-testid=plot] img").count() == 50
    out = pg.last_run_output()
    assert "Plots: a run shows its first 50 figures" in out
    assert "Plots: 20 more figures not shown" in out


def test_a_flood_of_figures_without_end_stops_at_once(pg):
    page = pg.pg
    before = _heap_used(page)
    n = _flood(pg, "import matplotlib.pyplot as plt\ni = 0\nwhile True:\n    plt.plot([0, i])\n"
                   "    plt.show()\n    i += 1\n", 8)
    took = _stop_seconds(pg)
    assert pg.wait_run(n, 5_000) == "interrupted"
    print(f"flood: Stop to Ready {took:.2f} s")
    assert took < STOP_WITHIN_S, f"Stop took {took:.2f} s"
    assert page.locator("[data-testid=plot] img").count() <= 50
    assert _heap_used(page) - before < HEAP_GROWTH_LIMIT


# Was a strict xfail (the run outlived Stop's grace, the worker was restarted and the output
# lost): the graph export of a big tape became column by column (fd99db2) and Stop now ends it.
def test_a_flood_of_tapes_stops_at_once_and_shows_the_last_step(pg):
    page = pg.pg
    before = _heap_used(page)
    n = _flood(pg, "import tensorflow as tf\nx = tf.Variable(2.0)\nwhile True:\n"
                   "    with tf.GradientTape() as tape:\n        y = x * x\n"
                   "    print(tape.gradient(y, x).numpy())\n", 8)
    took = _stop_seconds(pg)
    assert pg.wait_run(n, 5_000) == "interrupted"
    print(f"flood: Stop to Ready {took:.2f} s")
    assert took < STOP_WITHIN_S, f"Stop took {took:.2f} s"
    assert "One training step shown" in pg.last_run_output()
    assert _heap_used(page) - before < HEAP_GROWTH_LIMIT
    assert _console_lines(page) <= MAX_LINES + 50


def test_a_warning_keeps_its_place_between_printed_lines(pg):
    """tapegrad's logger, made before the run, writes its warning between the printed lines around
    it, in the order written (it used to land inside the first line)."""
    pg.set_code("import logging\nprint('1. before the warning:', 4.0)\n"
                "logging.getLogger('tapegrad').warning('careful')\nprint('2. after')\n"
                "print('3. end')\n")
    assert pg.run() == "ok"
    out = pg.last_run_output()
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines[1:5] == ["1. before the warning: 4.0", "WARNING:tapegrad:careful", "2. after",
                          "3. end"], out
