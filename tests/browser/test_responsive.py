"""The playground at a phone (390x844), a tablet upright (768x1024) and a laptop (1280x800).

After a run that draws a graph and explains None gradients, every visible control must be the
element found at its own centre (nothing lies over it), no label may be cut short
(scrollWidth <= clientWidth), text must be at least 11 px, and on the narrow layouts every control
must be at least 44 px each way and the graph's labels drawn at 11 px or more. The narrow header
is one row whose menu holds the rest; the graph pans and zooms by touch. Screenshots go to
test-results/browser/responsive-*.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NONE_EXAMPLE = (ROOT / "web" / "examples" / "10_causes_of_none.py").read_text()

VIEWPORTS = {"phone": (390, 844), "tablet": (768, 1024), "laptop": (1280, 800)}
NARROW = {"phone", "tablet"}

# Everything a user can tap or click, outside the editor's own text area.
CONTROLS_JS = """
(root) => {
  const sel = 'button, a[href], select, input, textarea, summary, [tabindex]:not([tabindex="-1"])';
  const shown = (el) => {
    // checkVisibility: false inside display:none, visibility:hidden or a closed <details>
    if (el.closest('.skip') || !el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  return [...document.querySelector(root).querySelectorAll(sel)].filter(shown);
}
"""

# For each visible control: scrolled into view, is the element at its centre the control (or in it)?
OVERLAP_JS = """
(controls) => {
  const bad = [];
  const name = (el) => el ? `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
    `${el.dataset && el.dataset.testid ? '[' + el.dataset.testid + ']' : ''} "${(el.textContent || '').trim().slice(0, 30)}"` : 'nothing';
  for (const el of controls) {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!(hit === el || el.contains(hit))) bad.push(`${name(el)} is covered by ${name(hit)}`);
  }
  return bad;
}
"""

SMALL_TARGETS_JS = """
(controls) => controls
  .filter((el) => !el.disabled && !el.closest('.line-link'))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([el, r]) => `${el.tagName.toLowerCase()}${el.dataset.testid ? '[' + el.dataset.testid + ']' : ''}`
       + ` "${el.textContent.trim().slice(0, 30)}" is ${r.width.toFixed(0)}x${r.height.toFixed(0)}`)
"""

# Label-like elements whose text must not be cut short.
CLIPPED_JS = """
() => {
  const sel = 'button, summary, a, h1, h2, label, .hint, .status-text, .tg-graph-info, .tg-graph-counter,'
    + ' .tg-graph-caption, .tg-graph-why-line, .tg-graph-legend-list li, .gallery-title, .gallery-topic,'
    + ' .tg-graph-details-title, .pane-head';
  return [...document.querySelectorAll(sel)]
    .filter((el) => !el.closest('.skip') && el.checkVisibility({ visibilityProperty: true }) && el.clientWidth > 0)
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`
         + ` needs ${el.scrollWidth}px, has ${el.clientWidth}px`);
}
"""

# Visible text smaller than 11 px (HTML text; the editor's text is CodeMirror's, at 13.5 px).
SMALL_TEXT_JS = """
() => {
  const bad = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest('.skip, svg') || !el.checkVisibility({ visibilityProperty: true })) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 11) bad.add(`${el.tagName.toLowerCase()}.${el.className} "${n.textContent.trim().slice(0, 20)}" at ${size}px`);
  }
  return [...bad];
}
"""

# Graph texts as drawn on screen: font size times the scene's current scale.
GRAPH_TEXT_PX_JS = """
() => [...document.querySelectorAll('[data-testid=graph] svg text')]
  .filter((t) => t.textContent.trim() && t.getClientRects().length)
  .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)
"""


@pytest.fixture(scope="module")
def pages(module_page, as_playground):
    """One playground per viewport, each having run the None example (booted once per viewport)."""
    made = {}

    def get(name):
        if name not in made:
            w, h = VIEWPORTS[name]
            pg = module_page("", viewport=(w, h), has_touch=name in NARROW)
            play = as_playground(pg)
            play.wait_ready()
            play.set_code(NONE_EXAMPLE)
            assert play.run() == "ok", play.console_text()
            pg.wait_for_selector("[data-testid=graph] [data-node-id]")
            pg.evaluate("() => window.scrollTo(0, 0)")
            made[name] = play
        return made[name]

    return get


def controls(pg, root="body"):
    return pg.evaluate_handle(CONTROLS_JS, root)


@pytest.mark.parametrize("name", VIEWPORTS)
def test_no_control_is_covered_and_no_label_is_cut(pages, name, shot):
    pg = pages(name).pg
    shot(pg, f"responsive-{name}")
    shot(pg, f"responsive-{name}-page", full_page=True)
    assert pg.evaluate(OVERLAP_JS, controls(pg)) == []
    assert pg.evaluate(CLIPPED_JS) == []
    assert pg.evaluate(SMALL_TEXT_JS) == []
    if name in NARROW:
        assert pg.evaluate(SMALL_TARGETS_JS, controls(pg)) == []
        sizes = pg.evaluate(GRAPH_TEXT_PX_JS)
        assert sizes and min(sizes) >= 11 - 0.01, sorted(sizes)[:5]
    pg.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("name", VIEWPORTS)
def test_the_header_is_one_row_on_narrow_screens_and_its_menu_holds_the_rest(pages, name, shot):
    pg = pages(name).pg
    pg.evaluate("() => window.scrollTo(0, 0)")
    header = pg.locator(".topbar").bounding_box()
    menu = pg.locator("[data-testid=menu]")
    if name not in NARROW:
        assert menu.is_hidden()
        for hook in ("examples", "share"):
            assert pg.locator(f"[data-testid={hook}]").is_visible()
        return
    assert header["height"] <= 64, header
    run = pg.locator("[data-testid=run]").bounding_box()
    assert run["y"] + run["height"] <= header["y"] + header["height"]
    # the header stays at the top while the page scrolls
    pg.evaluate("() => window.scrollTo(0, 900)")
    assert pg.locator("[data-testid=run]").bounding_box()["y"] < 64
    pg.evaluate("() => window.scrollTo(0, 0)")
    assert pg.locator("[data-testid=share]").is_hidden()
    menu.click()
    assert menu.get_attribute("aria-expanded") == "true"
    pg.locator("[data-testid=examples] summary").click()
    pg.wait_for_selector(".gallery-item")
    shot(pg, f"responsive-{name}-menu")
    for hook in ("examples", "share"):
        assert pg.locator(f"[data-testid={hook}]").is_visible()
    # the open menu lies over the page: what it and the header hold must be free to tap
    assert pg.evaluate(OVERLAP_JS, controls(pg, ".topbar")) == []
    assert pg.evaluate(SMALL_TARGETS_JS, controls(pg, ".topbar")) == []
    assert pg.evaluate(CLIPPED_JS) == []
    pg.locator("[data-testid=examples] summary").click()
    pg.keyboard.press("Escape")
    assert menu.get_attribute("aria-expanded") == "false"
    assert pg.locator("[data-testid=share]").is_hidden()


def scene_transform(pg) -> tuple[float, float, float]:
    """(scale, translate x, translate y) of the graph's scene."""
    return tuple(pg.evaluate("""() => {
        const m = document.querySelector('[data-testid=graph] svg g.tg-graph-scene').transform.baseVal.consolidate();
        return m ? [m.matrix.a, m.matrix.e, m.matrix.f] : [1, 0, 0]; }"""))


def touch(cdp, kind, points):
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def touch_point_on_graph(pg, down=0.5):
    """A CDP session for touch events and a point on the graph's stage (scrolled into view):
    the middle of its width, ``down`` of the way down its height."""
    stage = pg.locator("[data-testid=graph] .tg-graph-stage")
    stage.scroll_into_view_if_needed()
    box = stage.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] * down
    return pg.context.new_cdp_session(pg), cx, cy


def test_the_graph_pans_and_zooms_by_touch(pages, shot):
    pg = pages("phone").pg
    cdp, cx, cy = touch_point_on_graph(pg)
    k0, x0, y0 = scene_transform(pg)

    # one finger drags the drawing
    touch(cdp, "touchStart", [(cx, cy)])
    for i in range(1, 6):
        touch(cdp, "touchMove", [(cx + 12 * i, cy + 6 * i)])
    touch(cdp, "touchEnd", [])
    pg.wait_for_timeout(100)
    k1, x1, y1 = scene_transform(pg)
    assert k1 == pytest.approx(k0) and x1 - x0 == pytest.approx(60, abs=2) and y1 - y0 == pytest.approx(30, abs=2)

    # two fingers spreading apart zoom in around their middle
    touch(cdp, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for i in range(1, 6):
        touch(cdp, "touchMove", [(cx - 30 - 12 * i, cy), (cx + 30 + 12 * i, cy)])
    touch(cdp, "touchEnd", [])
    pg.wait_for_timeout(100)
    k2, _, _ = scene_transform(pg)
    assert k2 == pytest.approx(k1 * 180 / 60, rel=0.02)   # the fingers went from 60 px apart to 180
    # touching a node to pan does not cover the drawing with its details; a tap shows them
    assert pg.locator("[data-testid=node-details]").is_hidden()
    at = pg.evaluate("""() => {
        for (const n of document.querySelectorAll('[data-testid=graph] svg [data-node-id]')) {
          const r = n.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
          if (n.contains(document.elementFromPoint(x, y))) return [x, y, n.dataset.nodeId];
        }
        return null; }""")
    assert at, "no node of the drawing is in view"
    pg.touchscreen.tap(at[0], at[1])
    assert pg.locator("[data-testid=node-details]").is_visible()
    assert pg.get_attribute("[data-testid=node-details]", "data-details-for") == at[2]
    shot(pg, "responsive-phone-pinched")
    empty = pg.evaluate("""() => {
        const svg = document.querySelector('[data-testid=graph] svg'), r = svg.getBoundingClientRect();
        for (let y = r.top + 4; y < Math.min(r.bottom, innerHeight); y += 8)
          for (let x = r.left + 4; x < r.right; x += 8) if (document.elementFromPoint(x, y) === svg) return [x, y];
        return null; }""")
    pg.touchscreen.tap(empty[0], empty[1])
    assert pg.locator("[data-testid=node-details]").is_hidden()
    cdp.detach()
