"""The example docs site (docs/example-site, tapegrad.sphinx): built with the real Sphinx, served
like dist/, its pre-rendered output is on the page before Python boots; an example edited and run
in the browser shows the new gradient and replaces the pre-rendered output."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, Playground, _close, _factory  # noqa: E402

SITE = ROOT / "build" / "out" / "example-site"


@pytest.fixture(scope="module")
def site_url():
    pytest.importorskip("sphinx", reason="Sphinx is not installed: bash build/setup_docs.sh")
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html",
                    str(ROOT / "docs" / "example-site"), str(SITE)], check=True, timeout=300)
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(SITE), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        pytest.fail(f"build/serve.mjs did not start: {line!r}")
    yield line[line.index("http://"):].strip().rstrip("/") + "/"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def site_page(browser, site_url):
    opened: list = []
    yield _factory(browser, site_url, opened)
    _close(opened)


EDITED = """import tapegrad as tf

x = tf.Variable(5.0, name="x")
with tf.GradientTape() as tape:
    y = x * x * x
print("dy/dx =", tape.gradient(y, x).numpy())
"""


def test_edited_example_runs_and_shows_the_new_gradient(site_page, shot):
    pg = site_page("index.html", viewport=(1100, 900))
    pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
    pre = pg.locator("[data-testid=prerendered]").first
    assert "dy/dx = 6.0" in pre.inner_text()                       # built natively, no boot
    assert pre.locator("svg text").count() > 0
    example = Playground(pg, "tapegrad-playground")
    content = example.root.locator(".cm-content")
    content.click()
    pg.keyboard.press("Control+A")
    pg.keyboard.press("Backspace")          # (typing over a selection makes Chromium add inline styles)
    pg.keyboard.insert_text(EDITED)
    assert "x * x * x" in example.editor_text()
    assert example.run() == "ok", example.console_text()
    assert "dy/dx = 75.0" in example.last_run_output()             # 3 * 5**2
    assert example.root.locator("[data-testid=graph] [data-node-id]").count() > 0
    assert not pre.is_visible()                                    # the live output replaced it
    shot(pg, "docs-site-edited", full_page=True)


BELOW = "() => document.querySelector('.tapegrad-example + *').getBoundingClientRect().top + scrollY"


def test_the_built_output_is_shown_in_place_and_run_does_not_move_the_page(site_page):
    """The pre-rendered output and graph are shown in the element's own console and graph boxes
    (one style, one size), which keep their size: what follows the example does not move when
    the reader runs it, while it runs or after."""
    pg = site_page("index.html", viewport=(1100, 900))
    pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
    example = Playground(pg, "tapegrad-playground")
    assert "dy/dx = 6.0" in example.console_text()
    assert example.root.locator("[data-testid=static-graph] svg text").count() > 0
    assert not pg.locator("[data-testid=prerendered]").first.is_visible()
    top = pg.evaluate(BELOW)
    n = example.click_run()
    pg.wait_for_timeout(300)
    assert abs(pg.evaluate(BELOW) - top) < 1, "the page moved when Run was pressed"
    assert example.wait_run(n) == "ok", example.console_text()
    assert "dy/dx = 6.0" in example.last_run_output()
    assert example.root.locator("[data-testid=graph] [data-node-id]").count() > 0
    assert example.root.locator("[data-testid=static-graph]").count() == 0
    assert abs(pg.evaluate(BELOW) - top) < 1, "the page moved when the run ended"


def test_readonly_page_shows_the_none_explanation_before_booting(site_page):
    pg = site_page("none-gradients.html", viewport=(1100, 900))
    pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
    assert pg.locator(".cm-content").get_attribute("aria-readonly") == "true"
    assert "the tape never watched" in pg.locator("[data-testid=prerendered]").inner_text()
