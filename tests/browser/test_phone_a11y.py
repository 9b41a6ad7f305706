"""Phone and keyboard (issue 28, item 6): at a phone's viewport (390x844, touch, mobile) the
default example's graph fits the pane's width and pans and zooms by touch, Run brings the console
into view, and every control is at least 44 px each way on touch screens; on any screen the page
says how to leave the editor with the keyboard (Esc then Tab), which works in CodeMirror; axe-core
(node_modules/axe-core, injected into the page) finds no serious or critical violation, before and
after a run. Screenshots go to test-results/browser/phone-*.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from test_responsive import scene_transform, touch, touch_point_on_graph

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
NONE_EXAMPLE = (ROOT / "web" / "examples" / "10_causes_of_none.py").read_text()
PHONE = {"viewport": (390, 844), "has_touch": True, "is_mobile": True}

# Every button, select and input shown (inside the page and the graph panel), with its size. (A
# disabled select is a choice of one, drawn as plain text: graph.css; nothing to tap.)
CONTROL_SIZES_JS = """
() => [...document.querySelectorAll('button, select, input, summary, a.button')]
  .filter((el) => !el.closest('.skip') && el.checkVisibility({ visibilityProperty: true }))
  .filter((el) => !(el.tagName === 'SELECT' && el.disabled))
  .map((el) => { const r = el.getBoundingClientRect();
    return { what: `${el.tagName.toLowerCase()}${el.dataset.testid ? '[' + el.dataset.testid + ']' : ''}`
                   + `${el.className ? '.' + String(el.className).split(' ')[0] : ''} "${(el.textContent || el.value || el.ariaLabel || '').trim().slice(0, 24)}"`,
             w: r.width, h: r.height, inline: !!el.closest('.line-link, .none-line, .traceback') }; })
  .filter((c) => c.w > 0 && c.h > 0)
"""

# Each node's box on screen against the graph's drawing area.
NODES_OUTSIDE_JS = """
() => {
  const svg = document.querySelector('[data-testid=graph] svg'), s = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('[data-node-id]')].map((n) => [n.dataset.nodeId, n.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && (r.left < s.left - 1 || r.right > s.right + 1))
    .map(([id, r]) => `${id}: ${r.left.toFixed(0)}..${r.right.toFixed(0)} outside ${s.left.toFixed(0)}..${s.right.toFixed(0)}`);
}
"""

AXE_RUN_JS = """
async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} -- ` + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | '));
}
"""


def with_axe(ctx):
    ctx.add_init_script(path=str(AXE))      # through the browser, not the page: the CSP stays


@pytest.fixture(scope="module")
def phone(module_page, as_playground):
    """The playground on a phone, booted; nothing run yet."""
    if not AXE.is_file():
        pytest.fail("node_modules/axe-core is missing: run bash build/setup_node.sh (npm ci)")
    play = as_playground(module_page("", on_context=with_axe, **{
        k: v for k, v in PHONE.items() if k != "viewport"}, viewport=PHONE["viewport"]))
    play.wait_ready()
    play.pg.wait_for_selector("[data-testid=editor] .cm-content", timeout=30_000)
    return play


@pytest.fixture(scope="module")
def desktop(module_page, as_playground):
    play = as_playground(module_page("", viewport=(1366, 768), on_context=with_axe))
    play.wait_ready()
    play.pg.wait_for_selector("[data-testid=editor] .cm-content", timeout=30_000)
    return play


def console_in_view(pg) -> bool:
    return pg.evaluate("""() => { const r = document.querySelector('.console-pane').getBoundingClientRect();
                                 return r.top >= 0 && r.top < innerHeight / 2; }""")


def test_run_on_a_phone_brings_the_console_into_view_and_the_graph_fits_the_width(phone, shot):
    pg = phone.pg
    pg.evaluate("() => window.scrollTo(0, 0)")
    assert not console_in_view(pg)                        # it starts screens below Run
    assert phone.run() == "ok", phone.console_text()      # the default example
    pg.wait_for_function("""() => { const r = document.querySelector('.console-pane').getBoundingClientRect();
                                    return r.top >= 0 && r.top < innerHeight / 2; }""")
    assert "slope = 24.0" in pg.locator("[data-testid=console]").inner_text()
    shot(pg, "phone-after-run")
    # the header (sticky) does not cover the console's head
    head = pg.locator(".console-pane .pane-head").bounding_box()
    bar = pg.locator(".topbar").bounding_box()
    assert head["y"] >= bar["y"] + bar["height"] - 1
    pg.locator("[data-testid=graph]").scroll_into_view_if_needed()
    pg.wait_for_selector("[data-testid=graph] [data-node-id]")
    assert pg.evaluate(NODES_OUTSIDE_JS) == []
    assert pg.evaluate("document.querySelectorAll('[data-testid=graph] [data-node-id]').length") >= 5
    shot(pg, "phone-graph")


def test_the_graph_pans_and_zooms_by_touch_on_a_phone(phone):
    pg = phone.pg
    if not pg.evaluate("document.querySelectorAll('[data-testid=graph] [data-node-id]').length"):
        assert phone.run() == "ok"
    cdp, cx, cy = touch_point_on_graph(pg, down=1 / 3)
    k0, x0, y0 = scene_transform(pg)
    touch(cdp, "touchStart", [(cx, cy)])
    for i in range(1, 5):
        touch(cdp, "touchMove", [(cx - 10 * i, cy + 5 * i)])
    touch(cdp, "touchEnd", [])
    pg.wait_for_timeout(100)
    k1, x1, y1 = scene_transform(pg)
    assert k1 == pytest.approx(k0) and x1 - x0 == pytest.approx(-40, abs=2) and y1 - y0 == pytest.approx(20, abs=2)
    touch(cdp, "touchStart", [(cx - 40, cy), (cx + 40, cy)])
    for i in range(1, 5):
        touch(cdp, "touchMove", [(cx - 40 - 10 * i, cy), (cx + 40 + 10 * i, cy)])
    touch(cdp, "touchEnd", [])
    pg.wait_for_timeout(100)
    assert scene_transform(pg)[0] == pytest.approx(k1 * 160 / 80, rel=0.02)   # 80 px apart to 160
    cdp.detach()


def small_controls(pg, skip_inline: bool) -> list[str]:
    return [f"{c['what']} is {c['w']:.0f}x{c['h']:.0f}" for c in pg.evaluate(CONTROL_SIZES_JS)
            if (c["w"] < 43.5 or c["h"] < 43.5) and not (skip_inline and c["inline"])]


def test_every_control_is_at_least_44_px_on_touch_screens(phone, module_page, as_playground, shot):
    pg = phone.pg
    phone.set_code(NONE_EXAMPLE)          # tracebacks' and explanations' links, the graph's selects
    assert phone.run() == "ok"
    pg.wait_for_selector("[data-testid=graph] [data-node-id]")
    pg.evaluate("() => window.scrollTo(0, 0)")
    assert pg.evaluate("matchMedia('(pointer: coarse)').matches")
    # the line numbers inside the console's sentences are words of the text (WCAG 2.5.8's inline
    # exception): they are measured too, and must at least be a line high
    assert small_controls(pg, skip_inline=True) == []
    inline = [c for c in pg.evaluate(CONTROL_SIZES_JS) if c["inline"]]
    assert inline and min(c["h"] for c in inline) >= 16
    pg.locator("[data-testid=menu]").click()
    pg.locator("[data-testid=examples] summary").click()
    pg.wait_for_selector(".gallery-item")
    assert small_controls(pg, skip_inline=True) == []
    pg.locator("[data-testid=examples] summary").click()
    pg.keyboard.press("Escape")
    # a touch tablet held sideways: wide enough for the desktop layout, still a touch screen
    tablet = as_playground(module_page("", viewport=(1180, 820), has_touch=True, is_mobile=True))
    tablet.wait_ready()
    tablet.set_code(NONE_EXAMPLE)
    assert tablet.run() == "ok"
    tablet.pg.wait_for_selector("[data-testid=graph] [data-node-id]")
    assert small_controls(tablet.pg, skip_inline=True) == []
    shot(tablet.pg, "touch-tablet-landscape")


def test_the_page_says_how_to_leave_the_editor_and_esc_then_tab_does(desktop):
    pg = desktop.pg
    hint = pg.locator("#editor-keys")
    assert hint.is_visible()
    assert hint.inner_text().split() == ["Esc", "then", "Tab", "leaves", "the", "editor"]
    inside = """() => { const host = document.querySelector('[data-testid=editor] .cm-host');
                        return !!host && document.activeElement === host && !!host.shadowRoot.activeElement; }"""
    content = pg.locator("[data-testid=editor] .cm-content")
    content.click()
    assert pg.evaluate(inside)
    before = desktop.editor_text()
    pg.keyboard.press("Tab")                  # Tab alone indents: focus stays
    assert pg.evaluate(inside)
    assert desktop.editor_text() != before
    pg.keyboard.press("Control+z")
    pg.keyboard.press("Escape")
    pg.keyboard.press("Tab")                  # Esc then Tab: focus moves on, out of the editor
    assert not pg.evaluate(inside)
    assert pg.evaluate("document.activeElement && document.activeElement !== document.body")
    assert "".join(desktop.editor_text().split()) == "".join(before.split())
    pg.keyboard.press("Shift+Tab")            # and back in with Shift+Tab
    assert pg.evaluate(inside)


def test_axe_finds_no_serious_or_critical_violation(desktop, phone, shot):
    for play in (desktop, phone):
        pg = play.pg
        play.set_code(NONE_EXAMPLE)
        pg.evaluate("() => window.scrollTo(0, 0)")
        assert pg.evaluate(AXE_RUN_JS) == [], "before a run"
        assert play.run() == "ok"
        pg.wait_for_selector("[data-testid=graph] [data-node-id]")
        assert pg.evaluate(AXE_RUN_JS) == [], "after a run"
