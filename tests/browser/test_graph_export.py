"""Taking the graph away from the page, and big tapes in the page (issue 28, items 4 and 8).

The graph pane's SVG and PNG buttons download the drawing as it is now: an SVG that parses, with
one element per drawn node and edge and their labels, and a PNG with the PNG signature and the
size the panel promises (2 pixels per SVG unit). A 10,000-op tape arrives in the compact JSON
form and is drawn as its collapsed view (boxes only); the panel's own draw time is printed, not
asserted (engine/bench/graph_export.py --page measures it). Screenshots go to
test-results/browser/, the downloads to test-results/browser/downloads/.
"""
from __future__ import annotations

import base64
import struct
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT, SHOTS

SVG = "{http://www.w3.org/2000/svg}"
SMALL = """\
import tensorflow as tf
x = tf.Variable(3.0, name="x")
with tf.GradientTape() as tape:
    y = x * x
    z = y + tf.sin(x)
dz = tape.gradient(z, x)
"""
CHAIN = """\
import numpy as np
import tensorflow as tf
x = tf.Variable(np.ones(4, np.float32), name="x")
with tf.GradientTape() as tape:
    y = x
    for _ in range({ops} - 1):
        y = y * 1.0001
    loss = tf.reduce_sum(y)
g = tape.gradient(loss, x)
print("user code done")
"""


def fragment(source: str) -> str:
    return "#code=" + base64.urlsafe_b64encode(source.encode()).decode().rstrip("=")


@pytest.fixture(scope="module")
def pg(module_page):
    page = module_page("", viewport=(1400, 900))
    page.wait_for_selector("[data-testid=graph-panel]")
    return page


def run(pg, source: str, timeout_ms: int = 120_000) -> None:
    """Loads `source` through the #code= link, runs it and waits for its graph."""
    runs = int(pg.evaluate("document.body.dataset.runs || '0'"))
    pg.evaluate("h => { location.hash = h; }", fragment(source))
    pg.wait_for_function("() => location.hash === ''")
    pg.click("[data-testid=run]")
    pg.wait_for_function("n => Number(document.body.dataset.runs || 0) > n", arg=runs, timeout=timeout_ms)
    assert pg.evaluate("document.body.dataset.lastRun") == "ok", pg.text_content("[data-testid=console]")
    pg.wait_for_selector("[data-testid=graph] [data-node-id]")


def save(pg, button: str, name: str) -> bytes:
    with pg.expect_download() as info:
        pg.click(f"[data-testid={button}]")
    download = info.value
    folder = SHOTS / "downloads"
    folder.mkdir(parents=True, exist_ok=True)
    download.save_as(folder / name)
    return (folder / name).read_bytes()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def drawn(pg) -> dict:
    return pg.evaluate("""() => ({
        nodes: [...document.querySelectorAll('[data-testid=graph] svg [data-node-id]')].map(e => e.dataset.nodeId),
        edges: document.querySelectorAll('[data-testid=graph] svg path.tg-graph-edge').length,
        texts: [...document.querySelectorAll('[data-testid=graph] svg .tg-graph-nodes text')].map(e => e.textContent),
    })""")


def test_svg_and_png_buttons_download_the_drawing(pg, shot):
    run(pg, SMALL)
    page_view = drawn(pg)
    svg = save(pg, "graph-save-svg", "small.svg")
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    ids = [el.get("data-node-id") for el in root.iter() if el.get("data-node-id")]
    assert sorted(ids) == sorted(page_view["nodes"])
    edges = [el for el in root.iter(SVG + "path") if "tg-graph-edge" in (el.get("class") or "")]
    assert len(edges) == page_view["edges"] > 0
    texts = [el.text for el in root.iter(SVG + "text")]
    assert {"x", "Mul", "Sin", "AddV2"} <= set(texts)
    assert all("fill:" in (el.get("style") or "") for el in root.iter(SVG + "text"))   # stands alone
    width, height = float(root.get("width")), float(root.get("height"))

    png = save(pg, "graph-save-png", "small.png")
    assert png_size(png) == (round(2 * width), round(2 * height))
    # the exported files as an image viewer shows them
    view = pg.context.new_page()
    view.set_content(f'<img id="a" src="data:image/svg+xml;base64,{base64.b64encode(svg).decode()}">'
                     f'<img id="b" src="data:image/png;base64,{base64.b64encode(png).decode()}" width="{width}">')
    view.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    view.screenshot(path=str(SHOTS / "graph-exported-svg-png.png"), full_page=True)
    view.close()
    shot(pg, "graph-export-small")


# Keeps what the panel drew each time it drew: the items at their places, the edges' texts.
DRAWINGS_JS = """() => {
    const drawings = window.__drawings = [];
    const panel = document.querySelector('[data-testid=graph-panel]');
    let last = panel.dataset.renderMs;
    new MutationObserver(() => {
        if (panel.dataset.renderMs === last) return;
        last = panel.dataset.renderMs;
        const svg = document.querySelector('[data-testid=graph] svg');
        drawings.push({preview: panel.dataset.preview, count: panel.dataset.nodeCount,
            info: document.querySelector('[data-testid=graph-info]').textContent,
            items: [...svg.querySelectorAll('[data-node-id]')].map(e => [e.dataset.nodeId, e.dataset.kind,
                e.getAttribute('transform'), e.textContent]),
            edges: [...svg.querySelectorAll('path.tg-graph-edge')].map(e => e.getAttribute('d')),
            texts: [...svg.querySelectorAll('.tg-graph-edge-count')].map(e => e.textContent)});
    }).observe(panel, {attributes: true});
}"""


def test_a_ten_thousand_op_tape_is_drawn_collapsed(pg, shot):
    pg.evaluate(DRAWINGS_JS)
    run(pg, CHAIN.format(ops=10_000), timeout_ms=300_000)
    # its preview first (the collapsed view alone), then the whole document: the same drawing
    preview, whole = pg.evaluate("window.__drawings")
    assert (preview["preview"], whole["preview"]) == ("true", "")
    assert preview["count"] == whole["count"] == "30000" and preview["info"] == whole["info"]
    assert {k: v for k, v in preview.items() if k != "preview"} == \
        {k: v for k, v in whole.items() if k != "preview"}
    assert len(whole["items"]) >= 3 and whole["texts"]
    panel = "[data-testid=graph-panel]"
    assert pg.get_attribute(panel, "data-node-count") == str(3 * 10_000)
    kinds = pg.eval_on_selector_all("[data-testid=graph] svg [data-node-id]", "els => els.map(e => e.dataset.kind)")
    assert kinds.count("group") >= 2 and kinds.count("variable") == 1 and len(kinds) <= 201
    assert "×" in "".join(drawn(pg)["texts"])
    assert "30000 nodes in" in pg.text_content("[data-testid=graph-info]")
    print(f"10k-op tape: panel draw {pg.get_attribute(panel, 'data-render-ms')} ms")
    # a box cannot be opened (its members have no layout), and the SVG export draws the boxes
    box = pg.locator('[data-testid=graph] svg [data-kind="group"]').first
    box.click()
    assert pg.locator('[data-testid=graph] svg [data-kind="group"]').count() == kinds.count("group")
    svg = ET.fromstring(save(pg, "graph-save-svg", "chain-10k.svg"))
    assert len([el for el in svg.iter() if el.get("data-node-id")]) == len(kinds)
    shot(pg, "graph-10k-collapsed")


# Notes when the console shows the program's last line, when the graph is first drawn after it
# (a big tape's preview: its collapsed view) and when its whole document is drawn.
WATCH_JS = """() => {
    const times = window.__graphTimes = {};
    const panel = document.querySelector('[data-testid=graph-panel]');
    let last = panel.dataset.renderMs;
    // this run's line only: the console still shows the runs before it (each under its header)
    const header = '▶ Run ' + (Number(document.body.dataset.runs || 0) + 1);
    // the page's long tasks (Performance long tasks: over 50 ms on the main thread)
    times.long = [];
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) times.long.push([e.startTime, e.duration]);
    }).observe({entryTypes: ['longtask']});
    const watch = new MutationObserver(() => {
        const now = performance.now();
        const text = document.querySelector('[data-testid=console]').textContent;
        const at = text.lastIndexOf(header);
        if (!times.printed && at >= 0 && text.indexOf('user code done', at) >= 0) times.printed = now;
        if (times.printed && panel.dataset.renderMs !== last) {
            last = panel.dataset.renderMs;
            if (!times.drawn) { times.drawn = now; times.firstMs = Number(last); }
            if (!panel.dataset.preview && !times.whole) { times.whole = now; times.wholeMs = Number(last); }
        }
    });
    watch.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}
"""


def draw_times(programs: dict, dist=None, runs: int = 1, idle: bool = False) -> dict:
    """{key: [(ms from the program's last printed line to the first drawing, the panel's own ms
    for it, ms to the whole document drawn, the panel's ms for that, the longest task on the
    page's main thread from the first drawing to a second after the whole one)] per run} for each program,
    each run in a fresh tab of the playground in headless Chromium (for
    engine/bench/graph_export.py --page; outside pytest). A big tape's first drawing is its
    preview (docs/graph-json.md); the times include the export inside Pyodide and the message.
    ``idle``: the run starts once the worker has warmed the graph export at idle after its boot
    (mark "tapegrad:graphWarm"), not at once."""
    import subprocess
    from playwright.sync_api import sync_playwright

    from conftest import CHROMIUM, CHROMIUM_ARGS, DIST, ROOT
    server = subprocess.Popen(["node", str(ROOT / "build" / "serve.mjs"), "--dir", str(dist or DIST),
                               "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    out = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for key, source in programs.items():
                out[key] = []
                for _ in range(runs):
                    page = browser.new_page(viewport={"width": 1400, "height": 900})
                    page.goto(line[line.index("http://"):].strip())
                    page.wait_for_selector("[data-testid=graph-panel]")
                    if idle:
                        page.wait_for_function("() => performance.getEntriesByName("
                                               "'tapegrad:graphWarm').length > 0", timeout=180_000)
                    page.evaluate(WATCH_JS)
                    run(page, source, timeout_ms=600_000)
                    page.wait_for_function("() => window.__graphTimes.whole", timeout=600_000)
                    page.wait_for_timeout(1000)
                    t = page.evaluate("window.__graphTimes")
                    longest = max((d for s, d in t["long"] if s + d >= t["drawn"]), default=0)
                    out[key].append((t["drawn"] - t["printed"], t["firstMs"], t["whole"] - t["printed"],
                                     t["wholeMs"], longest))
                    page.close()
            browser.close()
    finally:
        server.terminate()
    return out


# the program the engine's static-SVG test draws too (tests/engine/test_graph_hierarchy.py)
KERAS_STEP = (ROOT / "tests" / "engine" / "graph_programs" / "keras_step.py").read_text()


def native_view(source: str) -> dict:
    """The static drawing's view (tapegrad.graph.view, what svg.py draws) of ``source``'s tapes."""
    import tapegrad
    from tapegrad.graph import capture
    from tapegrad.graph.view import visible_graph
    tapegrad.keras.backend.clear_session()
    with capture() as cap:
        exec(compile(source, "main.py", "exec"), {"__name__": "__main__"})
    return visible_graph(cap.to_dict())


def test_the_static_svg_draws_what_the_page_first_shows(pg):
    """The page, the widget (the same code) and svg.py (view.py) start a Keras step alike: the
    same groups closed at the same places, the same frames, and the same number of each kind."""
    run(pg, KERAS_STEP)
    page = pg.evaluate("""() => [...document.querySelectorAll('[data-testid=graph] svg [data-node-id]')].map(e => {
        const m = /translate\\(([-\\d.]+),([-\\d.]+)\\)/.exec(e.getAttribute('transform'));
        return [e.dataset.nodeId, e.dataset.kind, Number(m[1]), Number(m[2])]; })""")
    frames = pg.eval_on_selector_all("[data-testid=graph] svg [data-group-id]", "els => els.map(e => e.dataset.groupId)")
    view = native_view(KERAS_STEP)
    page_groups = {i: (x, y) for i, kind, x, y in page if kind == "group"}
    native_groups = {it["id"]: (it["x"], it["y"]) for it in view["items"] if it["kind"] == "group"}
    assert len(native_groups) >= 5 and page_groups == native_groups
    assert sorted(k for _, k, _, _ in page) == sorted(it["kind"] for it in view["items"])
    assert sorted(frames) == sorted(f["group"]["id"] for f in view["frames"])
