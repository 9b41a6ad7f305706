"""The graph at real scale (issue 28): readable at the default fit, grouped, and usable with the
keyboard, on the gallery's five real programs, in headless Chromium at 1366x768.

Each program runs in the playground (picked from the gallery, then Run). At the fit the panel
chooses, every text drawn in the graph must be at least 11 CSS px tall on screen (its font size
times the scene's scale) and no two node boxes may overlap; the level of detail hides what cannot
meet that. Screenshots go to the test's tmp dir (and test-results/browser/ through `shot`).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "web" / "examples" / "manifest.json").read_text())["examples"]
REAL = ["mlp-digits", "conv-digits", "lstm-text", "skip-connection", "custom-loop"]
GRAPH = "[data-testid=graph]"

# Every text drawn in the graph: its on-screen font size (CSS px), and every node box's
# screen rectangle (inset by half a pixel: boxes that only touch do not overlap).
MEASURE_JS = """() => {
  const svg = document.querySelector('[data-testid=graph] svg.tg-graph-svg');
  const texts = [];
  for (const t of svg.querySelectorAll('text')) {
    if (!t.textContent.trim() || t.getClientRects().length === 0) continue;   // not drawn
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    texts.push({text: t.textContent, px, cls: t.getAttribute('class') || ''});
  }
  const boxes = [...svg.querySelectorAll('.tg-graph-node .tg-graph-shape')].map((s) => {
    const r = s.getBoundingClientRect();
    return {id: s.parentNode.dataset.nodeId, x0: r.left + .5, y0: r.top + .5, x1: r.right - .5, y1: r.bottom - .5};
  });
  return {texts, boxes, lod: svg.dataset.lod,
          zoom: svg.querySelector('g.tg-graph-scene').transform.baseVal.consolidate().matrix.a};
}"""


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    page = module_page("", viewport=(1366, 768))
    play = as_playground(page)
    play.wait_ready()
    return play


def run_example(pg, example_id: str) -> None:
    page = pg.pg
    page.locator("[data-testid=examples] summary").click()
    page.locator(f"[data-example='{example_id}']").click()
    assert pg.run() == "ok", pg.last_run_output()
    page.wait_for_selector(f"{GRAPH} svg .tg-graph-node")
    # the fit is written on the next animation frame; wait for the level of detail it gives
    page.wait_for_function("() => document.querySelector('[data-testid=graph] svg').dataset.lod")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def overlaps(boxes):
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["y0"] < b["y1"] and b["y0"] < a["y1"]:
                out.append((a["id"], b["id"]))
    return out


def test_the_five_programs_are_in_the_gallery():
    ids = [e["id"] for e in MANIFEST]
    assert all(i in ids for i in REAL), ids


@pytest.mark.parametrize("example_id", REAL)
def test_default_fit_is_readable_and_boxes_do_not_overlap(pg, example_id, tmp_path, shot):
    run_example(pg, example_id)
    page = pg.pg
    m = page.evaluate(MEASURE_JS)
    path = tmp_path / f"readable-{example_id}.png"
    page.locator(GRAPH).screenshot(path=str(path))
    shot(page, f"graph-readable-{example_id}")
    small = [(t["text"], round(t["px"], 2)) for t in m["texts"] if t["px"] < 11 - 1e-6]
    assert not small, (m["lod"], m["zoom"], small)
    assert m["boxes"], "nothing drawn"
    assert not overlaps(m["boxes"]), overlaps(m["boxes"])
    # the names in the boxes are drawn (the level of detail keeps them at this fit)
    assert any("tg-graph-label" in t["cls"] for t in m["texts"]), (m["lod"], m["zoom"])
    # the pane needs no scrolling: the timeline's caption is inside it (the "Tape | graph of f"
    # bar of the custom loop's tf.function takes a row of its own)
    fits = page.evaluate("""() => { const pane = document.querySelector('[data-testid=graph]');
      const cap = pane.querySelector('.tg-graph-caption').getBoundingClientRect();
      return [pane.scrollHeight <= pane.clientHeight, cap.bottom <= pane.getBoundingClientRect().bottom]; }""")
    assert fits == [True, True], fits
    print(f"{example_id}: zoom {m['zoom']:.2f}, lod {m['lod']}, {len(m['boxes'])} boxes, "
          f"{len(m['texts'])} texts, screenshot {path}")


RIGHTMOST_JS = """() => {
  const svg = document.querySelector('[data-testid=graph] svg.tg-graph-svg').getBoundingClientRect();
  const rights = [...document.querySelectorAll('[data-testid=graph] svg .tg-graph-node .tg-graph-shape')]
    .map((s) => s.getBoundingClientRect().right);
  return {paneRight: svg.right, paneLeft: svg.left, nodesRight: Math.max(...rights)};
}"""


def test_a_graph_wider_than_the_pane_says_more_lies_beyond_and_pans_to_it(pg, shot):
    """At a readable fit a long step runs past the pane's right edge: a "more ▸" button says so
    and pans to it, until the last node is in view; "◂ more" then leads back."""
    run_example(pg, "mlp-digits")
    page = pg.pg
    right, left = page.locator("[data-testid=graph-more-right]"), page.locator("[data-testid=graph-more-left]")
    m = page.evaluate(RIGHTMOST_JS)
    assert m["nodesRight"] > m["paneRight"] + 24, m          # (this example is wider than the pane)
    assert right.is_visible() and left.is_hidden()
    shot(page, "graph-more-right")
    for _ in range(10):
        if right.is_hidden():
            break
        right.click()
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    m = page.evaluate(RIGHTMOST_JS)
    assert right.is_hidden() and m["nodesRight"] <= m["paneRight"] + 24, m
    assert left.is_visible()
    left.click()
    page.wait_for_function("() => !document.querySelector('[data-testid=graph-more-right]').hidden")


def test_zooming_out_hides_texts_instead_of_shrinking_them(pg):
    run_example(pg, "lstm-text")
    page = pg.pg
    for _ in range(12):
        page.click("[data-testid=graph-zoom-out]")
    page.wait_for_function("() => document.querySelector('[data-testid=graph] svg').dataset.lod === 'shapes'")
    m = page.evaluate(MEASURE_JS)
    assert m["texts"] == [], m["texts"][:5]
    for _ in range(16):                                          # back past a zoom of 1
        page.click("[data-testid=graph-zoom-in]")
    page.wait_for_function("() => document.querySelector('[data-testid=graph] svg').dataset.lod === 'full'")
    m = page.evaluate(MEASURE_JS)
    assert m["texts"] and min(t["px"] for t in m["texts"]) >= 11


def test_keras_model_is_a_frame_around_collapsed_layers_with_aggregated_edges(pg, shot, tmp_path):
    run_example(pg, "lstm-text")
    page = pg.pg
    frames = page.eval_on_selector_all(f"{GRAPH} svg [data-group-id]", "els => els.map(e => e.dataset.groupId)")
    assert any(f.endswith("model:Sequential:char_lstm") for f in frames), frames
    boxes = page.eval_on_selector_all(f"{GRAPH} svg .tg-graph-node[data-kind=group]",
                                      "els => els.map(e => e.dataset.nodeId.split('/').pop())")
    assert sorted(boxes) == ["Dense:next_char", "Embedding:embed", "LSTM:lstm"], boxes
    counts = page.eval_on_selector_all(f"{GRAPH} svg .tg-graph-edge-count", "els => els.map(e => e.textContent)")
    assert any("×" in c for c in counts), counts                 # count and shape carried
    shot(page, "graph-keras-collapsed")
    # the pane alone, as README.md shows it (docs/graph-keras.png is a copy)
    for where in (tmp_path, ROOT / "test-results" / "browser"):
        where.mkdir(parents=True, exist_ok=True)
        page.locator(GRAPH).screenshot(path=str(where / "graph-keras.png"))


def item_positions(page):
    return dict(page.eval_on_selector_all(
        f"{GRAPH} svg .tg-graph-node",
        "els => els.map(e => [e.dataset.nodeId, [e.transform.baseVal.consolidate().matrix.e,"
        " e.transform.baseVal.consolidate().matrix.f]])"))


def test_opening_a_group_keeps_the_rest_of_the_layout(pg, shot):
    run_example(pg, "skip-connection")
    page = pg.pg
    before = item_positions(page)
    block = next(i for i in before if i.endswith("Dense:block"))
    page.locator(f'{GRAPH} svg [data-node-id="{block}"]').click()
    page.wait_for_function(f"() => !document.querySelector('{GRAPH} svg [data-node-id=\"{block}\"]')")
    after = item_positions(page)
    kept = [i for i in before if i != block and i in after]
    assert len(kept) == len(before) - 1
    opened = [after[i][0] for i in after if i not in before]     # the group's members, drawn now
    bx = before[block][0]
    left = [i for i in kept if before[i][0] < min(opened)]
    right = [i for i in kept if before[i][0] > bx]
    assert left and right
    assert all(after[i] == before[i] for i in left), [(i, before[i], after[i]) for i in left]
    shifts = {round(after[i][0] - before[i][0], 3) for i in right}
    assert len(shifts) == 1 and shifts.pop() > 0                   # all moved right by one distance
    assert all(after[i][1] == before[i][1] for i in kept)          # and no node moved up or down
    shot(page, "graph-group-opened")


def test_backward_animation_lights_a_collapsed_group(pg):
    run_example(pg, "mlp-digits")
    page = pg.pg
    assert page.get_attribute("[data-testid=graph-panel]", "data-mode") == "backward"
    page.click("[data-testid=timeline-first]")
    lit = set()
    total = int(page.locator("[data-testid=timeline] input[type=range]").get_attribute("max"))
    for _ in range(total):
        page.click("[data-testid=timeline-next]")
        lit.update(page.eval_on_selector_all(f"{GRAPH} svg .tg-graph-node.tg-graph-current",
                                             "els => els.map(e => e.dataset.kind + ' ' + e.dataset.nodeId)"))
    groups = {x.split("/")[-1] for x in lit if x.startswith("group ")}
    assert groups == {"Dense:hidden", "Dense:logits"}, lit


def test_arrow_keys_move_between_neighbours_and_enter_shows_details(pg, shot):
    run_example(pg, "mlp-digits")
    page = pg.pg
    focused = "() => document.activeElement && document.activeElement.dataset.nodeId"
    stops = page.eval_on_selector_all(f"{GRAPH} svg .tg-graph-node[tabindex='0']", "els => els.length")
    assert stops == 1                                            # one tab stop for the drawing
    page.locator(f"{GRAPH} svg .tg-graph-node[tabindex='0']").focus()
    start = page.evaluate(focused)
    edges = page.eval_on_selector_all(f"{GRAPH} svg .tg-graph-edge", "els => els.map(e => e.dataset.edge.split('>'))")
    page.keyboard.press("ArrowRight")
    step = page.evaluate(focused)
    assert [start, step] in edges, (start, step)                 # along an edge, forward
    page.keyboard.press("ArrowLeft")
    assert [page.evaluate(focused), step] in edges               # and back along one
    # walk right to a layer's box, then Enter shows its details and Enter again opens it
    for _ in range(12):
        if page.evaluate("() => document.activeElement.dataset.kind") == "group":
            break
        page.keyboard.press("ArrowRight")
    group = page.evaluate(focused)
    assert page.evaluate("() => document.activeElement.dataset.kind") == "group", group
    page.keyboard.press("Enter")
    details = page.locator("[data-testid=node-details]")
    assert details.is_visible() and details.get_attribute("data-details-for") == group
    shot(page, "graph-keyboard-details")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => !document.querySelector('{GRAPH} svg [data-node-id=\"{group}\"]')")
    assert page.evaluate(focused)                                 # the focus stays in the drawing
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert details.is_visible() and details.get_attribute("data-details-for") == page.evaluate(focused)
    page.keyboard.press("Escape")
    assert details.is_hidden()
