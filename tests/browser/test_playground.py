"""The playground page in headless Chromium: boot, the gallery, errors, Stop, text-only output.

One page (one Pyodide boot) serves the whole module; each test runs code on it.
"""
from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from tapegrad.graph.compact import expand

from conftest import load_runtime  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "web" / "examples"
MANIFEST = json.loads((EXAMPLES / "manifest.json").read_text())["examples"]


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    page = module_page("")
    play = as_playground(page)
    play.wait_ready()
    return play


@pytest.fixture(scope="module")
def native_graphs():
    """Each example's graph as the engine exports it natively (same runtime as the worker)."""
    if importlib.util.find_spec("matplotlib") is None:
        pytest.fail("matplotlib is missing from .venv; run: bash build/setup_plotting.sh")
    runtime = load_runtime()
    graphs = {}
    for ex in MANIFEST:
        sent = []
        status = runtime.Session(lambda kind, payload: sent.append((kind, payload))).run(
            (EXAMPLES / ex["file"]).read_text())
        assert status["ok"], sent
        # as the page reads it: the compact form expanded (web/src/graph/compact.js)
        graphs[ex["id"]] = expand(next(json.loads(p) for k, p in sent if k == "graph"))
    return graphs


def test_boot_shows_a_ready_playground(pg, shot):
    page = pg.pg
    assert page.evaluate("self.crossOriginIsolated") is True
    for hook in ("editor", "run", "stop", "console", "graph", "plot", "examples", "share"):
        assert page.locator(f"[data-testid={hook}]").count() == 1, hook
    assert "import tensorflow as tf" in page.locator(".tagline").inner_text()
    assert page.locator("[data-testid=status]").inner_text().strip() == "Ready"
    assert page.locator("[data-testid=run]").is_enabled()
    assert page.locator("[data-testid=stop]").is_disabled()
    assert "The smallest tape" in pg.editor_text()          # the first example, on a first visit
    shot(page, "playground-boot")


def test_boot_restores_the_snapshot_with_numpy_linked(pg):
    """The worker restored the build's snapshot (NumPy and tapegrad imported) and linked their
    shared libraries back in (web/src/snapshot-libs.js), rather than falling back to a plain
    start; NumPy's modules that were not imported at build time still load."""
    marks = pg.pg.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")
    assert "tapegrad:librariesLinked" in marks, marks
    pg.set_code(
        "import sys\n"
        "import numpy as np\n"
        "print('preloaded', 'tapegrad' in sys.modules and 'numpy.linalg' in sys.modules)\n"
        "print('fft', np.fft.fft(np.ones(4)).real.tolist())\n"
        "print('inv', np.linalg.inv(np.eye(2) * 2.0).tolist())\n"
        "print('rng', np.random.default_rng(3).integers(0, 100, 3).tolist())\n")
    assert pg.run() == "ok", pg.console_text()
    out = pg.last_run_output()
    assert "preloaded True" in out
    assert "fft [4.0, 0.0, 0.0, 0.0]" in out
    assert "inv [[0.5, 0.0], [0.0, 0.5]]" in out
    native = np.random.default_rng(3).integers(0, 100, 3).tolist()
    assert f"rng {native}" in out


@pytest.mark.parametrize("example", MANIFEST, ids=[e["id"] for e in MANIFEST])
def test_gallery_example_runs_and_draws_its_graph(pg, native_graphs, example, shot):
    page = pg.pg
    page.locator("[data-testid=examples] summary").click()
    page.locator(f"[data-example='{example['id']}']").click()
    assert example["title"] in pg.console_text()
    assert pg.run() == "ok", pg.last_run_output()
    out = pg.last_run_output()
    pos = 0
    for line in example["expect"]:
        found = out.find(line, pos)
        assert found >= 0, f"{line!r} missing (after position {pos}) in:\n{out}"
        pos = found + len(line)
    assert page.locator("[data-testid=plot] img").count() >= example["plots"]

    # Open every collapsed group, then count what is drawn against the engine's own export.
    collapsed = page.locator("[data-testid=graph] [data-kind=group]")
    for _ in range(3):
        if collapsed.count() == 0:
            break
        page.locator("[data-testid=graph-groups]").click()
    native = native_graphs[example["id"]]
    drawn = page.locator("[data-testid=graph] [data-node-id]:not([data-kind=group])")
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=graph] [data-node-id]:not([data-kind=group])').length === n",
        arg=len(native["nodes"]), timeout=10_000)
    kinds = Counter(drawn.nth(i).get_attribute("data-kind") for i in range(drawn.count()))
    assert kinds == Counter(n["kind"] for n in native["nodes"])
    shot(page, f"example-{example['id']}")


def test_sigmoid_example_renders_a_plot(pg, shot):
    page = pg.pg
    page.locator("[data-testid=examples] summary").click()
    page.locator("[data-example='non-scalar-targets']").click()
    assert pg.run() == "ok"
    img = page.locator("[data-testid=plot] img").first
    page.wait_for_function("img => img.complete && img.naturalWidth > 200", arg=img.element_handle())
    shot(page, "plot-sigmoid")


def test_exception_shows_its_line_and_the_link_jumps_there(pg):
    page = pg.pg
    pg.set_code("import tensorflow as tf\n\ndef inverse(v):\n    return 1 / v\n\nprint('before')\ninverse(0)\n")
    assert pg.run() == "error"
    out = pg.last_run_output()
    assert "before" in out and "ZeroDivisionError: division by zero" in out
    links = page.locator("[data-testid=console] .line-link")
    assert [links.nth(i).get_attribute("data-line") for i in range(links.count())][-2:] == ["7", "4"]
    marked = page.locator("[data-testid=editor] .cm-mark-error")
    assert marked.count() == 1 and "return 1 / v" in marked.inner_text()
    links.nth(links.count() - 2).click()        # line 7
    assert page.locator("[data-testid=editor] .cm-activeLine").inner_text() == "inverse(0)"


def test_syntax_error_shows_its_line(pg):
    page = pg.pg
    pg.set_code("x = 1\ny = 2\nif x > y\n    print(x)\n")
    assert pg.run() == "error"
    out = pg.last_run_output()
    assert "SyntaxError" in out and 'File "main.py", line 3' in out
    assert page.locator("[data-testid=console] .line-link").last.get_attribute("data-line") == "3"
    assert "if x > y" in page.locator("[data-testid=editor] .cm-mark-error").inner_text()


def test_html_in_code_output_and_names_is_shown_as_text(pg, shot):
    page = pg.pg
    page.evaluate("window.__pwned = 0")
    code = (
        "# <script>window.__pwned = 1</script>\n"
        "import tensorflow as tf\n"
        "x = tf.Variable(2.0, name='<img src=x onerror=\"window.__pwned=2\">')\n"
        "with tf.GradientTape() as tape:\n"
        "    y = x * x\n"
        "print('<b>bold?</b> <script>window.__pwned = 3</script>')\n"
        "print(tape.gradient(y, x))\n"
        "raise ValueError('<img src=y onerror=\"window.__pwned=4\">')\n"
    )
    pg.set_code(code)
    assert pg.run() == "error"
    out = pg.last_run_output()
    assert "<b>bold?</b> <script>window.__pwned = 3</script>" in out
    assert "ValueError: <img src=y onerror=\"window.__pwned=4\">" in out
    assert page.evaluate("window.__pwned") == 0
    for hook in ("console", "editor", "graph"):
        assert page.locator(f"[data-testid={hook}] img, [data-testid={hook}] b, [data-testid={hook}] script").count() == 0
    graph_text = page.locator("[data-testid=graph]").inner_text()
    assert "<img src=x on" in graph_text          # the variable's name, as text (the panel shortens it)
    shot(page, "html-as-text")


def test_stop_ends_an_endless_loop_and_the_next_run_works(pg):
    page = pg.pg
    pg.set_code("print('looping')\nwhile True:\n    pass\n")
    n = pg.click_run()
    page.wait_for_selector("body[data-state=running]")
    page.wait_for_function("() => document.querySelector('[data-testid=console]').innerText.includes('looping')")
    page.locator("[data-testid=stop]").click()
    # The promise: Stop ends `while True: pass` within 2 s (the interrupt buffer is used).
    page.wait_for_selector(f"body[data-runs='{n}']", state="attached", timeout=2_000)
    assert page.evaluate("document.body.dataset.lastRun") == "interrupted"
    out = pg.last_run_output()
    assert ("■ Stopped at line 2." in out or "■ Stopped at line 3." in out) and "restarted" not in out
    assert "KeyboardInterrupt" not in out                             # Stop is not an error
    assert "while True:" in pg.editor_text()
    pg.set_code("print(6 * 7)\n")
    assert pg.run() == "ok"
    assert "42" in pg.last_run_output()
    assert "looping" in pg.console_text()        # earlier output stays
