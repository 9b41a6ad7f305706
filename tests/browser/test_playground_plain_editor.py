"""The page's first editor: its own textarea, there with the default example at the first paint,
until CodeMirror (a script chunk of its own, loaded once Python has booted) takes over with the
text, the cursor, the focus and the marks (web/src/plain-editor.js, web/src/page-editor.js).
The editor's chunk is held back here (a route answered later), so the plain editor stays for as
long as a test needs it."""
from __future__ import annotations

import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRST_EXAMPLE = json.loads((ROOT / "web" / "examples" / "manifest.json").read_text())["examples"][0]
FIRST_CODE = (ROOT / "web" / "examples" / FIRST_EXAMPLE["file"]).read_text()
EDITOR_CHUNK = "**/assets/chunks/editor-*.js"
AREA = "[data-testid=editor] textarea"
CM = "[data-testid=editor] .cm-content"


def hold_editor_chunk():
    """(held routes, on_context): the editor chunk's requests wait in `held` until continued."""
    held = []
    return held, lambda ctx: ctx.route(EDITOR_CHUNK, lambda route: held.append(route))


def release(pg, held, timeout_s: float = 30) -> None:
    end = time.monotonic() + timeout_s
    while not held:
        assert time.monotonic() < end, "the page never asked for the editor's chunk"
        pg.wait_for_timeout(50)
    for route in held:
        route.continue_()
    pg.wait_for_selector(CM)


def typed_before_codemirror(page, code: str):
    """A new page with the editor's chunk held back and `code` typed over the default example:
    (page, the textarea)."""
    held, setup = hold_editor_chunk()
    pg = page("", on_context=setup)
    area = pg.locator(AREA)
    area.click()
    area.press("Control+a")
    pg.keyboard.insert_text(code)
    return pg, area


def test_the_default_example_is_in_the_page_itself(page, base_url):
    pg = page("")
    html = pg.evaluate("fetch('./').then((r) => r.text())")
    # HTML-escaped in the textarea: on screen before any of the page's scripts has run.
    first_line = next(line for line in FIRST_CODE.splitlines() if "<" not in line and "&" not in line and line)
    assert first_line in html and "<textarea" in html
    assert pg.locator(AREA).input_value() == FIRST_CODE or pg.locator(CM).count() == 1


def test_typing_before_codemirror_runs_and_is_carried_over(page, as_playground, shot):
    held, setup = hold_editor_chunk()
    pg = page("", on_context=setup)
    play = as_playground(pg)
    area = pg.locator(AREA)
    assert area.input_value() == FIRST_CODE
    area.click()
    pg.keyboard.press("Control+End")
    pg.keyboard.type("for k in range(2):\n")
    pg.keyboard.press("Tab")            # indents (four spaces) instead of leaving the editor
    pg.keyboard.type("print('typed early', 6 * 7 + k)\n")
    code = area.input_value()
    assert code.endswith("for k in range(2):\n    print('typed early', 6 * 7 + k)\n")
    assert area.evaluate("a => a === document.activeElement"), "Tab stayed in the editor"
    pg.wait_for_function("() => (localStorage.getItem('tapegrad.playground.page') || '').includes('typed early')")

    play.wait_ready()
    assert play.run() == "ok"
    assert "typed early 42" in play.last_run_output() and "typed early 43" in play.last_run_output()
    assert pg.locator(".cm-host").count() == 0, "CodeMirror is held back: the textarea did all that"
    shot(pg, "plain-editor-before-codemirror")

    area.evaluate("a => { a.focus(); a.setSelectionRange(2, 5); }")   # "The" of "# The smallest..."
    release(pg, held)
    assert pg.locator(AREA).count() == 0
    assert "".join(play.editor_text().split()) == "".join(code.split())
    # The focus and the selection came along: typing replaces the selected word.
    pg.keyboard.type("A")
    pg.wait_for_function("() => (localStorage.getItem('tapegrad.playground.page') || '').includes('# A smallest')")
    shot(pg, "plain-editor-after-codemirror")


def test_an_error_mark_made_in_the_plain_editor_shows_in_codemirror(page, as_playground):
    held, setup = hold_editor_chunk()
    pg = page("", on_context=setup)
    play = as_playground(pg)
    play.set_code("x = 1\nraise ValueError('boom')\n")
    play.wait_ready()
    assert play.run() == "error"
    release(pg, held)
    mark = pg.locator("[data-testid=editor] .cm-mark-error")
    mark.wait_for()
    assert "raise ValueError" in mark.inner_text()


def test_a_returning_visitor_sees_their_saved_code_not_the_default(page, as_playground):
    pg, _ = typed_before_codemirror(page, "print('mine')\n")
    pg.wait_for_function("() => (localStorage.getItem('tapegrad.playground.page') || '').includes('mine')")

    again = pg.context.new_page()      # same browser profile, page opened again
    again.goto(pg.url)
    again.wait_for_function("() => !document.documentElement.hasAttribute('data-code')")
    assert again.locator(AREA).input_value() == "print('mine')\n"
    assert again.locator(AREA).evaluate("a => !a.readOnly")
    again.close()


def test_the_plain_editor_stays_when_codemirror_cannot_load(page, as_playground):
    pg = page("", on_context=lambda ctx: ctx.route(EDITOR_CHUNK, lambda route: route.abort()),
              allow=["editor-", "Failed to load", "Failed to fetch dynamically imported module"])
    play = as_playground(pg)
    pg.wait_for_function(
        "() => document.querySelector('[data-testid=console]').innerText.includes('The code editor could not load')",
        timeout=60_000)
    play.wait_ready()
    pg.locator(AREA).fill("print('still here', 2 + 2)\n")
    assert play.run() == "ok"
    assert "still here 4" in play.last_run_output()


def test_the_embedded_page_gets_codemirror_without_booting_python(page):
    pg = page("?embed=1")
    pg.wait_for_selector(CM)
    assert pg.evaluate("document.body.dataset.state") == "idle"
    assert pg.locator(AREA).count() == 0


def test_an_example_picked_in_the_plain_editor_can_be_undone(page):
    pg, area = typed_before_codemirror(page, "print('before the example')\n")
    pg.locator("[data-testid=examples] summary").click()
    second = json.loads((ROOT / "web" / "examples" / "manifest.json").read_text())["examples"][1]
    pg.locator(f"[data-example={second['id']}]").click()
    assert area.input_value() == (ROOT / "web" / "examples" / second["file"]).read_text()
    assert area.evaluate("a => a === document.activeElement")
    pg.keyboard.press("Control+z")
    assert area.input_value() == "print('before the example')\n"
