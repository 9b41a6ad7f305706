"""The dark theme (web/src/theme.js, web/styles/dark.css): the page follows the system's colour
scheme until the visitor picks one with the theme button, which is remembered; the page, the
graph panel, the editor and the training charts follow it, and axe-core finds no serious or
critical violation (contrast included) in the dark theme, before and after a run."""
from __future__ import annotations

from test_phone_a11y import AXE, AXE_RUN_JS, NONE_EXAMPLE, with_axe

import pytest

# The relative luminance of an element's computed background (0 black .. 1 white).
LUMINANCE = """(el) => {
  const [r, g, b] = getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number)
    .map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def luminance(pg, selector):
    return pg.locator(selector).first.evaluate(LUMINANCE)


def test_the_system_dark_scheme_darkens_the_page_graph_and_editor(page, as_playground, shot):
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run bash build/setup_node.sh (npm ci)")
    pg = page("", viewport=(1366, 768), color_scheme="dark", on_context=with_axe)
    play = as_playground(pg)
    play.wait_ready()
    pg.wait_for_selector("[data-testid=editor] .cm-content", timeout=30_000)
    assert pg.evaluate("document.documentElement.dataset.theme") == "dark"
    assert luminance(pg, "body") < 0.05
    assert luminance(pg, "[data-testid=editor] .cm-editor") < 0.05      # One Dark
    play.set_code(NONE_EXAMPLE)
    assert pg.evaluate(AXE_RUN_JS) == [], "before a run"
    assert play.run() == "ok"
    pg.wait_for_selector("[data-testid=graph] [data-node-id]")
    assert luminance(pg, "[data-testid=graph] .tg-graph") < 0.05
    assert pg.evaluate(AXE_RUN_JS) == [], "after a run"
    shot(pg, "theme-dark")


def test_the_theme_button_switches_and_is_remembered(page, as_playground):
    pg = page("", viewport=(1366, 768), color_scheme="dark")
    play = as_playground(pg)
    play.wait_ready()
    pg.wait_for_selector("[data-testid=editor] .cm-content", timeout=30_000)
    button = pg.locator("[data-testid=theme]")
    assert button.inner_text() == "Light theme"
    button.click()
    assert pg.evaluate("document.documentElement.dataset.theme") == "light"
    assert luminance(pg, "body") > 0.8
    assert luminance(pg, "[data-testid=editor] .cm-editor") > 0.8 or \
        pg.locator("[data-testid=editor] .cm-editor").first.evaluate(
            "el => getComputedStyle(el).backgroundColor") == "rgba(0, 0, 0, 0)"
    assert button.inner_text() == "Dark theme"
    pg.reload()
    play.wait_ready()
    assert pg.evaluate("document.documentElement.dataset.theme") == "light", "the choice is kept"
