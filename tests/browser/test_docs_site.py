"""The example docs site (docs/example-site, tapegrad.sphinx): built with the real Sphinx from the
dist/ the suite serves (TAPEGRAD_DIST or dist/), served like dist/; it copies only the runtime its
examples need (under 25 MB, measured from the files written, no memory snapshot), its pre-rendered
output is on the page before Python boots, and an example edited and run in the browser, booted
from that copy, shows the new gradient and replaces the pre-rendered output. The MkDocs path
(tapegrad.markdown and the `python -m tapegrad.docs_runtime` copy) the same, with Python-Markdown
itself: MkDocs is not installed (build/setup_docs.sh), and it only publishes docs/ as it is."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import zipfile

import pytest

from conftest import DIST, ROOT, Playground, _close, _factory  # noqa: E402

SITE = ROOT / "build" / "out" / "example-site"
MD_SITE = ROOT / "build" / "out" / "example-site-md"
RUNTIME = SITE / "_static" / "tapegrad"
LIMIT = 25_000_000


def _serve(folder):
    proc = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(folder), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        pytest.fail(f"build/serve.mjs did not start: {line!r}")
    return proc, line[line.index("http://"):].strip().rstrip("/") + "/"


@pytest.fixture(scope="module")
def site_url():
    pytest.importorskip("sphinx", reason="Sphinx is not installed: bash build/setup_docs.sh")
    built = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-E", "-b", "html",
                            str(ROOT / "docs" / "example-site"), str(SITE)], timeout=300,
                           env={**os.environ, "TAPEGRAD_DIST": str(DIST)}, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    proc, url = _serve(SITE)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def site_page(browser, site_url):
    opened: list = []
    yield _factory(browser, site_url, opened)
    _close(opened)


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _check_runtime_copy(folder):
    """The copy a docs site made: under 25 MB as written; the element, its worker, Pyodide's core
    and the wheels of NumPy and tapegrad, deflated, each matching the copy's lock; nothing else."""
    files = {p.relative_to(folder).as_posix(): p.stat().st_size for p in folder.rglob("*") if p.is_file()}
    total = sum(files.values())
    assert total <= LIMIT, f"the docs site's runtime copy weighs {total} bytes: {files}"
    info = json.loads((DIST / "build-info.json").read_text())
    pdir = info["pyodide_dir"]
    lock = json.loads((folder / pdir / "pyodide-lock.json").read_text())
    assert sorted(lock["packages"]) == ["numpy", "tapegrad"]        # the examples import no more
    wheels = {f"{pdir}/{entry['file_name']}": entry for entry in lock["packages"].values()}
    for rel, entry in wheels.items():
        assert _sha(folder / rel) == entry["sha256"], rel              # as Pyodide checks it
        with zipfile.ZipFile(folder / rel) as z:
            assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist() if i.file_size > 1000), rel
    workers = {rel for rel in files if rel.startswith("assets/") and rel.endswith(".js")}   # the worker
    assert workers, sorted(files)
    expected = {"tapegrad-playground.js", "tapegrad-playground.css", *workers,
                "docs-runtime.json", f"{pdir}/pyodide-lock.json", *wheels,
                *(f"{pdir}/{name}" for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm",
                                                "python_stdlib.zip"))}
    assert set(files) - {"docs-example.css"} == expected, sorted(files)   # no snapshot, .br/.gz, maps
    for rel in expected - {"docs-runtime.json", f"{pdir}/pyodide-lock.json", *wheels}:
        assert _sha(folder / rel) == info["files"][rel], rel           # the dist's own files
    return total


def test_the_site_copies_only_the_runtime_its_examples_need(site_url):
    _check_runtime_copy(RUNTIME)


EDITED = """import tapegrad as tf

x = tf.Variable(5.0, name="x")
with tf.GradientTape() as tape:
    y = x * x * x
print("dy/dx =", tape.gradient(y, x).numpy())
"""


def _edit_and_run(pg):
    """Replaces the first example's code by EDITED, runs it: the new gradient and its graph."""
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


def test_edited_example_runs_and_shows_the_new_gradient(site_page, shot):
    pg = site_page("index.html", viewport=(1100, 900))
    pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
    pre = pg.locator("[data-testid=prerendered]").first
    assert "dy/dx = 6.0" in pre.inner_text()                       # built natively, no boot
    assert pre.locator("svg text").count() > 0
    _edit_and_run(pg)
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


MD_PAGE = """# Gradients you can edit

```tapegrad height=160
import tensorflow as tf

x = tf.Variable(3.0, name="x")
with tf.GradientTape() as tape:
    y = x * x
print("dy/dx =", tape.gradient(y, x).numpy())
```
"""


@pytest.fixture(scope="module")
def md_site_url():
    """A Markdown page (tapegrad.markdown, as MkDocs would render it) in a published folder whose
    tapegrad/ holds the copy `python -m tapegrad.docs_runtime` made from the pages' sources."""
    markdown = pytest.importorskip("markdown", reason="Python-Markdown is not installed: bash build/setup_docs.sh")
    src, site = MD_SITE / "docs", MD_SITE / "site"
    src.mkdir(parents=True, exist_ok=True)
    site.mkdir(parents=True, exist_ok=True)
    (src / "index.md").write_text(MD_PAGE)
    body = markdown.markdown(MD_PAGE, extensions=["tapegrad.markdown"])
    (site / "favicon.svg").write_bytes((ROOT / "web" / "assets" / "favicon.svg").read_bytes())
    (site / "index.html").write_text('<!doctype html><html lang="en"><head><meta charset="utf-8">'
                                     '<link rel="icon" href="favicon.svg">'   # else a /favicon.ico 404
                                     f"<title>Gradients</title></head><body>{body}</body></html>\n")
    done = subprocess.run([sys.executable, "-m", "tapegrad.docs_runtime", str(DIST), str(site / "tapegrad"),
                           str(src)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "packages: numpy, tapegrad" in done.stdout              # the size, printed
    proc, url = _serve(site)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def test_markdown_site_copies_the_runtime_and_its_example_runs_from_it(browser, md_site_url):
    total = _check_runtime_copy(MD_SITE / "site" / "tapegrad")
    out = subprocess.run([sys.executable, "-m", "tapegrad.docs_runtime", str(DIST), str(MD_SITE / "site" / "tapegrad"),
                          str(MD_SITE / "docs")], capture_output=True, text=True, timeout=300).stdout
    assert f"({total} bytes)" in out                                 # what it prints is what it wrote
    opened: list = []
    try:
        pg = _factory(browser, md_site_url, opened)("index.html", viewport=(1100, 900))
        pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
        assert "dy/dx = 6.0" in Playground(pg, "tapegrad-playground").console_text()   # pre-rendered
        _edit_and_run(pg)
    finally:
        _close(opened)
