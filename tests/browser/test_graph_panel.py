"""The playground's graph panel (web/src/graph/), driven in the real page in headless Chromium.

Each snippet runs in the playground (opened as `#code=<base64url>`, then Run) and natively through
`tapegrad.graph.capture()`; the panel must draw what the engine's JSON holds. Node ids depend on
how many tensors a process made before, so nodes are compared by kind and label, not by id.
One page boots Pyodide once for the whole module. Screenshots go to test-results/browser/.
"""
from __future__ import annotations

import base64
import re
from collections import Counter

import pytest

tf = pytest.importorskip("tapegrad")
from tapegrad.graph import capture  # noqa: E402
from conftest import EDITOR_TEXT_JS  # noqa: E402

SCALAR = """\
import tensorflow as tf
x = tf.Variable(3.0, name="x")
w = tf.Variable(2.0, name="w", trainable=False)
with tf.GradientTape(persistent=True) as tape:
    y = x * x
    z = y + tf.sin(x)
    u = tf.exp(z)
dz = tape.gradient(z, [x, w])
du = tape.gradient(u, x)
"""

NESTED = """\
import tensorflow as tf
x = tf.Variable(1.5, name="x")
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x * x * x
    dy = inner.gradient(y, x)
d2y = outer.gradient(dy, x)
"""

DENSE = """\
import tensorflow as tf
layer = tf.keras.layers.Dense(2, activation="relu", name="dense")
x = tf.constant([[1.0, 2.0, 3.0]])
with tf.GradientTape() as tape:
    y = layer(x)
    loss = tf.reduce_mean(y ** 2)
grads = tape.gradient(loss, layer.trainable_variables)
"""

HOSTILE_NAME = """\
import tensorflow as tf
v = tf.Variable(2.0, name="<img src=x onerror=alert(1)>")
with tf.GradientTape() as tape:
    y = v * 3.0
g = tape.gradient(y, v)
"""

LARGE = """\
import tensorflow as tf
x = tf.Variable(0.5, name="x")
y = x
with tf.GradientTape() as tape:
    for i in range(120):
        y = tf.tanh(tf.sin(y) * x + 0.1)
g = tape.gradient(y, x)
"""


def native_doc(source: str) -> dict:
    """The graph JSON of `source`, captured natively (compiled as main.py, as the page does; the
    page maps `tensorflow` onto tapegrad, here the import line says so, keeping line numbers)."""
    native = source.replace("import tensorflow as tf", "import tapegrad as tf")
    with capture() as cap:
        exec(compile(native, "main.py", "exec"), {"__name__": "__main__"})
    return cap.to_dict()


def fragment(source: str) -> str:
    return "#code=" + base64.urlsafe_b64encode(source.encode()).decode().rstrip("=")


def source_line(source: str, line: int) -> str:
    return source.splitlines()[line - 1]


@pytest.fixture(scope="module")
def pg(module_page):
    page = module_page("", viewport=(1400, 900))
    page.wait_for_selector("[data-testid=graph-panel]")
    return page


def run(pg, source: str) -> None:
    """Loads `source` through the #code= link, runs it and waits for its graph."""
    runs = int(pg.evaluate("document.body.dataset.runs || '0'"))
    pg.evaluate("h => { location.hash = h; }", fragment(source))
    pg.wait_for_function(f"line => {EDITOR_TEXT_JS}.includes(line)", arg=source.splitlines()[1])
    pg.click("[data-testid=run]")
    pg.wait_for_function("n => Number(document.body.dataset.runs || 0) > n", arg=runs, timeout=90_000)
    assert pg.evaluate("document.body.dataset.lastRun") == "ok", pg.text_content("[data-testid=console]")
    pg.wait_for_selector("[data-testid=graph] [data-node-id]")


def drawn_kinds(pg) -> Counter:
    kinds = pg.eval_on_selector_all("[data-testid=graph] svg [data-node-id]", "els => els.map(e => e.dataset.kind)")
    return Counter(kinds)


def open_all_groups(pg) -> None:
    button = pg.locator("[data-testid=graph-groups]")
    if button.is_visible() and button.text_content() == "open groups":
        button.click()


def caption(pg) -> str:
    return pg.text_content("[data-testid=timeline-caption]")


def highlighted(pg) -> str | None:
    el = pg.query_selector("[data-testid=editor] .cm-mark-step")
    return el.text_content() if el else None


def counter(pg) -> tuple[int, int]:
    pos, total = pg.text_content("[data-testid=timeline-counter]").split(" / ")
    return int(pos), int(total)


def node_selector(pg, kind: str, label: str) -> str:
    """A selector for the drawn node of `kind` whose first text is `label`."""
    node_id = pg.evaluate("""([kind, label]) => {
        for (const el of document.querySelectorAll(`[data-testid=graph] svg [data-kind="${kind}"]`)) {
            if (el.querySelector('text').textContent === label) return el.dataset.nodeId;
        }
        return null; }""", [kind, label])
    assert node_id, f"no drawn {kind} node labelled {label!r}"
    return f'[data-testid=graph] svg [data-node-id="{node_id}"]'


def badge_of(pg, selector: str) -> str | None:
    node_id = pg.get_attribute(selector, "data-node-id")
    el = pg.query_selector(f'[data-testid=graph] .tg-graph-badge[data-for="{node_id}"]')
    return el.text_content() if el else None


def fmt(x: float) -> str:
    """The panel's number format (6 significant digits, like %g)."""
    return f"{x:.6g}"


# The texts on edges that lie over a node's box, its texts or a badge ([] when none): each pair as
# "edge label text / node's kind". Measured on screen (getBoundingClientRect), 1 px tolerance.
LABELS_OVER_NODES_JS = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => [e, e.getBoundingClientRect()]);
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const nodes = boxes('[data-testid=graph] .tg-graph-node .tg-graph-shape, [data-testid=graph] .tg-graph-node text, [data-testid=graph] .tg-graph-badge');
  const hits = [];
  for (const [bg, r] of boxes('[data-testid=graph] .tg-graph-edge-label-bg')) {
    for (const [n, q] of nodes) {
      if (meets(r, q)) hits.push(`${bg.parentNode.textContent} / ${n.closest('.tg-graph-node')?.dataset.kind ?? n.getAttribute('class')}`);
    }
  }
  return hits;
}"""


# -- tests ---------------------------------------------------------------------------------------

def test_graph_has_the_engines_nodes_and_the_timeline_highlights_each_line(pg, shot):
    doc = native_doc(SCALAR)
    run(pg, SCALAR)
    assert pg.get_attribute("[data-testid=graph-panel]", "data-node-count") == str(len(doc["nodes"]))
    open_all_groups(pg)
    assert drawn_kinds(pg) == Counter(n["kind"] for n in doc["nodes"])
    assert pg.locator("[data-testid=graph] svg path.tg-graph-edge").count() == len(doc["edges"])

    pg.click("[data-testid=timeline-forward]")
    pg.click("[data-testid=timeline-first]")
    forward = doc["tapes"][0]["forward"]
    assert counter(pg) == (0, len(forward))
    ops = {n["id"]: n for n in doc["nodes"]}
    for i, step in enumerate(forward, start=1):
        pg.click("[data-testid=timeline-next]")
        assert counter(pg) == (i, len(forward))
        assert ops[step["op"]]["label"] in caption(pg)
        assert highlighted(pg) == source_line(SCALAR, step["line"])
        current = pg.eval_on_selector_all("[data-testid=graph] svg .tg-graph-node.tg-graph-current",
                                          "els => els.map(e => e.dataset.kind)")
        assert sorted(current) == ["op", "tensor"]
        assert pg.evaluate(LABELS_OVER_NODES_JS) == []     # a shape on an edge touches no box
        if i == 2:
            shot(pg, "graph-forward-step")
    # ops not recorded yet are drawn as ghosts: back to the start, every op is one
    pg.click("[data-testid=timeline-first]")
    assert pg.locator("[data-testid=graph] svg .tg-graph-node.tg-graph-future[data-kind=op]").count() == len(forward)


def test_backward_animation_reaches_the_sources_with_values_on_edges(pg, shot):
    doc = native_doc(SCALAR)
    call = doc["tapes"][0]["gradients"][0]
    pg.select_option("[data-testid=gradient-select]", "0")
    pg.click("[data-testid=timeline-backward]")
    pg.click("[data-testid=timeline-first]")
    assert "seed" in caption(pg)
    assert highlighted(pg) == source_line(SCALAR, call["line"])    # the tape.gradient line
    x = node_selector(pg, "variable", "x")
    labels_seen = []
    for i, event in enumerate(call["events"], start=1):
        pg.click("[data-testid=timeline-next]")
        assert counter(pg) == (i, len(call["events"]))
        assert highlighted(pg) == source_line(SCALAR, event["line"])
        labels_seen.append(pg.eval_on_selector_all("[data-testid=graph] .tg-graph-edge-label",
                                                   "els => els.map(e => e.textContent)"))
    # every step adds gradient values on edges; x*x sends 3 twice along one edge: a sum at fan-out
    assert all(len(b) > len(a) for a, b in zip(labels_seen, labels_seen[1:]))
    assert "3 + 3" in labels_seen[-1]
    assert pg.evaluate(LABELS_OVER_NODES_JS) == []
    assert "tg-graph-summed" in pg.get_attribute(x, "class")
    # at the end the source shows the engine's gradient, the non-trainable w shows None
    result = call["results"][0]
    assert badge_of(pg, x) == "∂ " + fmt(result["gradient"]["data"])
    assert "tg-graph-result" in pg.get_attribute(x, "class")
    w = node_selector(pg, "variable", "w")
    assert badge_of(pg, w) == "None" and "tg-graph-none" in pg.get_attribute(w, "class")
    # the op that only the second call uses (Exp) is greyed as not on the path
    exp = node_selector(pg, "op", "Exp")
    assert "tg-graph-unvisited" in pg.get_attribute(exp, "class")
    shot(pg, "graph-backward-end")


def test_current_edges_march_only_while_the_timeline_plays(pg):
    """A shown graph repaints nothing while idle: the current step's edges stand still (their
    animation paused) until Play, and stand still again at Pause."""
    pg.select_option("[data-testid=gradient-select]", "0")
    pg.click("[data-testid=timeline-backward]")
    pg.click("[data-testid=timeline-first]")
    pg.click("[data-testid=timeline-next]")
    states = lambda: set(pg.eval_on_selector_all(   # noqa: E731
        "[data-testid=graph] svg path.tg-graph-edge.tg-graph-current",
        "els => els.map(e => getComputedStyle(e).animationPlayState)"))
    assert states() == {"paused"}
    pg.click("[data-testid=timeline-play]")
    assert states() == {"running"}
    pg.click("[data-testid=timeline-play]")          # pause
    assert states() == {"paused"}


def test_hover_shows_value_shape_dtype_gradient_and_the_none_reason(pg, shot):
    doc = native_doc(SCALAR)
    call = doc["tapes"][0]["gradients"][0]
    pg.select_option("[data-testid=gradient-select]", "0")
    details = "[data-testid=node-details]"
    pg.hover(node_selector(pg, "variable", "x"))
    assert pg.is_visible(details)
    assert pg.text_content(f"{details} [data-testid=node-value]") == "3"
    assert pg.text_content(f"{details} [data-testid=node-shape]") == "scalar"
    assert pg.text_content(f"{details} [data-testid=node-dtype]") == "float32"
    assert pg.text_content(f"{details} [data-testid=node-gradient]") == call["results"][0]["gradient"]["text"]
    pg.click(node_selector(pg, "variable", "x"))           # pinned: the line button can be reached
    pg.click(f"{details} [data-testid=node-line]")
    assert highlighted(pg) == source_line(SCALAR, 2)

    w = node_selector(pg, "variable", "w")
    pg.hover(w)
    reason = call["results"][1]["reason"]
    assert pg.text_content(f"{details} [data-testid=node-gradient]") == "None"
    assert pg.text_content(f"{details} [data-testid=node-reason]") == reason["message"]
    shot(pg, "graph-none-reason")
    pg.click("[data-testid=graph] svg", position={"x": 5, "y": 5})   # the background unpins
    pg.mouse.move(2, 2)


def test_persistent_tape_offers_each_gradient_call(pg):
    doc = native_doc(SCALAR)
    calls = doc["tapes"][0]["gradients"]
    options = pg.eval_on_selector_all("[data-testid=gradient-select] option", "els => els.map(e => e.textContent)")
    assert len(options) == 2 and "d z / d x, w" in options[0] and "d u / d x" in options[1]
    pg.select_option("[data-testid=gradient-select]", "1")
    assert pg.get_attribute("[data-testid=graph-panel]", "data-mode") == "backward"
    assert counter(pg) == (len(calls[1]["events"]), len(calls[1]["events"]))
    x = node_selector(pg, "variable", "x")
    assert badge_of(pg, x) == "∂ " + fmt(calls[1]["results"][0]["gradient"]["data"])
    # Exp is on this call's path
    assert "tg-graph-unvisited" not in pg.get_attribute(node_selector(pg, "op", "Exp"), "class")


def test_nested_tapes_are_selectable(pg, shot):
    doc = native_doc(NESTED)
    run(pg, NESTED)
    by_name = {t["name"]: t for t in doc["tapes"]}
    options = pg.eval_on_selector_all("[data-testid=tape-select] option", "els => els.map(e => e.textContent)")
    assert len(options) == 2
    for t in doc["tapes"]:
        assert options[t["id"]].startswith(f"{t['name']} (tape {t['id']})")
        pg.select_option("[data-testid=tape-select]", str(t["id"]))
        pg.click("[data-testid=timeline-backward]")
        assert counter(pg)[1] == len(t["gradients"][0]["events"])
        pg.click("[data-testid=timeline-forward]")
        assert counter(pg) == (len(t["forward"]), len(t["forward"]))
    # the outer tape also recorded the inner tape's backward ops
    assert len(by_name["outer"]["forward"]) > len(by_name["inner"]["forward"])
    pg.select_option("[data-testid=tape-select]", str(by_name["outer"]["id"]))
    pg.click("[data-testid=timeline-backward]")
    x = node_selector(pg, "variable", "x")
    assert badge_of(pg, x) == "∂ " + fmt(by_name["outer"]["gradients"][0]["results"][0]["gradient"]["data"])
    shot(pg, "graph-nested-outer")


def test_dense_layer_group_collapses_and_expands(pg, shot):
    doc = native_doc(DENSE)
    run(pg, DENSE)
    group = next(g for g in doc["groups"] if g["label"] == "dense (Dense)")
    box = f'[data-testid=graph] svg [data-node-id="{group["id"]}"]'
    assert pg.get_attribute(box, "data-kind") == "group"
    ops_in_group = sum(1 for n in doc["nodes"] if n["id"] in group["nodes"] and n["kind"] == "op")
    collapsed_ops = drawn_kinds(pg)["op"]
    shot(pg, "graph-dense-collapsed")
    pg.click(box)
    assert pg.locator(box).count() == 0
    assert drawn_kinds(pg)["op"] == collapsed_ops + ops_in_group
    assert drawn_kinds(pg) == Counter(n["kind"] for n in doc["nodes"])
    shot(pg, "graph-dense-expanded")
    pg.click(f'[data-testid=graph] [data-group-id="{group["id"]}"] .tg-graph-frame-title')
    assert pg.get_attribute(box, "data-kind") == "group"


def test_names_from_the_code_are_drawn_as_text(pg):
    run(pg, HOSTILE_NAME)
    assert pg.locator("[data-testid=graph] img").count() == 0
    texts = pg.eval_on_selector_all("[data-testid=graph] svg text", "els => els.map(e => e.textContent)")
    assert any("<img" in t for t in texts)
    pg.hover('[data-testid=graph] svg [data-kind="variable"]')
    assert "<img src=x" in pg.text_content("[data-testid=node-details]")
    assert pg.locator("[data-testid=node-details] img").count() == 0


def test_a_thousand_node_graph_renders_and_stays_usable(pg, shot):
    doc = native_doc(LARGE)
    assert len(doc["nodes"]) >= 900
    run(pg, LARGE)
    assert pg.get_attribute("[data-testid=graph-panel]", "data-node-count") == str(len(doc["nodes"]))
    assert sum(drawn_kinds(pg).values()) == len(doc["nodes"])
    scene = "[data-testid=graph] svg g.tg-graph-scene"
    before = pg.get_attribute(scene, "transform")
    pg.click("[data-testid=graph-zoom-in]")
    pg.wait_for_function("([sel, t]) => document.querySelector(sel).getAttribute('transform') !== t", arg=[scene, before])
    pg.click("[data-testid=timeline-first]")
    for _ in range(5):
        pg.click("[data-testid=timeline-next]")
    assert counter(pg)[0] == 5
    assert re.search(r"step 5 of \d+", caption(pg))
    current = pg.locator("[data-testid=graph] svg .tg-graph-node.tg-graph-current")
    assert current.count() == 1
    current.hover()
    assert pg.text_content("[data-testid=node-details] [data-testid=node-gradient]")
    shot(pg, "graph-large-stepping")


SHORT_EDGE = """\
import tensorflow as tf
x = tf.constant(X, name="x")
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.sin(x)
g = tape.gradient(y, x)
"""


@pytest.mark.parametrize("x, sent", [("1.0", "0.540302"), ("3.0", "-0.989992")])
def test_a_value_too_long_for_its_edge_sits_above_the_boxes(pg, shot, x, sent):
    """x -> Sin: the gradient sent back along the short edge (cos x) is wider than the gap
    between the boxes; it is drawn above them, over neither box nor the badge of x."""
    run(pg, SHORT_EDGE.replace("X", x))
    pg.click("[data-testid=timeline-backward]")
    if pg.locator("[data-testid=timeline-first]").is_enabled():
        pg.click("[data-testid=timeline-first]")
    pg.click("[data-testid=timeline-next]")           # Sin sends its gradient back to x
    assert counter(pg) == (1, 1)
    texts = pg.eval_on_selector_all("[data-testid=graph] .tg-graph-edge-label", "els => els.map(e => e.textContent)")
    assert sent in texts
    assert pg.evaluate(LABELS_OVER_NODES_JS) == []
    shot(pg, f"graph-short-edge-label-{x}")
