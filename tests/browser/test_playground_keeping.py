"""Keeping and sharing work: share links (#code= and the compressed #z=), autosave, reset, clear."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRST_EXAMPLE = json.loads((ROOT / "web" / "examples" / "manifest.json").read_text())["examples"][0]
FIRST_CODE = (ROOT / "web" / "examples" / FIRST_EXAMPLE["file"]).read_text()


def squash(text: str) -> str:
    return "".join(text.split())


def stored(pg) -> dict:
    return pg.evaluate("Object.fromEntries(Object.entries(localStorage))")


def test_share_link_round_trip(page, base_url, as_playground, shot):
    pg = page("")
    play = as_playground(pg)
    code = "# shared ✓ π ≈ 3.14159, ünïcode and <tags>\n" + "\n".join(f"print({i} * {i})" for i in range(40)) + "\n"
    play.set_code(code)
    pg.locator("[data-testid=share]").click()
    dialog = pg.locator("[data-testid=share-dialog]")
    dialog.wait_for(state="visible")
    url = pg.locator("[data-testid=share-url]").input_value()
    assert url.startswith(base_url) and ("#z=" in url or "#code=" in url)
    assert "#z=" in url, "forty similar lines compress: the shorter #z= form is offered"
    shot(pg, "share-dialog")
    pg.keyboard.press("Escape")

    other = as_playground(page(url[len(base_url):]))       # a fresh browser profile
    other.pg.wait_for_function("() => location.hash === ''")  # the page took the code and tidied the URL
    assert squash(other.editor_text()) == squash(code)
    assert "Opened the code from the link." in other.console_text()


def test_plain_code_fragment_is_accepted(page, as_playground):
    code = "x = 'ß → ∂'\nprint(x)\n"
    play = as_playground(page(as_playground.fragment(code)))
    play.pg.wait_for_function("() => location.hash === ''")
    assert squash(play.editor_text()) == squash(code)


def test_a_malformed_link_is_reported_and_the_page_still_works(page, as_playground):
    play = as_playground(page("#code=%%%not-base64"))
    play.pg.wait_for_function(
        "() => document.querySelector('[data-testid=console]').innerText.includes('Could not open the shared code')")
    assert "The smallest tape" in play.editor_text()


def test_autosave_restores_after_reload_and_clear_my_data_forgets(page, as_playground):
    pg = page("")
    play = as_playground(pg)
    pg.locator("[data-testid=editor] .cm-content").click()
    pg.keyboard.press("Control+End")
    pg.keyboard.insert_text("\nprint('typed by hand')\n")
    pg.wait_for_function("() => (localStorage.getItem('tapegrad.playground.page') || '').includes('typed by hand')")
    pg.reload()
    pg.wait_for_selector("[data-testid=editor] .cm-content")
    assert "print('typed by hand')" in play.editor_text()
    assert "The smallest tape" in play.editor_text()

    # An edit whose autosave is still pending when the data is cleared must not come back.
    pg.locator("[data-testid=editor] .cm-content").click()
    pg.keyboard.insert_text("# pending autosave\n")
    pg.locator("#clear-data").click()
    assert stored(pg) == {}
    assert "Cleared" in play.console_text()
    pg.wait_for_timeout(600)                       # past the autosave delay
    assert stored(pg) == {}
    # Leaving the page (tab switch, close) must not save the cleared state back either.
    pg.evaluate("""() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
        window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
        delete document.hidden;
    }""")
    assert stored(pg) == {}
    pg.reload()
    pg.wait_for_selector("[data-testid=editor] .cm-content")
    assert stored(pg) == {}
    assert "typed by hand" not in play.editor_text()
    assert squash(play.editor_text()) == squash(FIRST_CODE)


def test_reset_puts_the_example_back(page, as_playground):
    pg = page("?example=higher-order")
    play = as_playground(pg)
    original = play.editor_text()
    assert "outer.gradient" in original
    play.set_code("print('something else')\n")
    pg.locator("#reset").click()
    assert squash(play.editor_text()) == squash(original)
