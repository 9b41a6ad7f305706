"""A gradient that comes back None is explained where the eyes are: one plain sentence per None in
the console after the run (the engine's reason, the sentence `tape.explain` gives, with its line
number, which highlights the editor line), and the same sentence under the graph's step caption.
"""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest

from conftest import load_runtime  # noqa: E402
from tapegrad.graph.explain import none_sentence

ROOT = Path(__file__).resolve().parents[2]
NONE_EXAMPLE = (ROOT / "web" / "examples" / "10_causes_of_none.py").read_text()


@pytest.fixture(scope="module")
def native():
    """What the page's Python runtime sends for the example, run natively: (graph doc, None items)."""
    runtime = load_runtime()
    sent = []
    status = runtime.Session(lambda kind, payload: sent.append((kind, json.loads(payload)))).run(NONE_EXAMPLE)
    assert status["ok"], sent
    doc = next(p for k, p in sent if k == "graph")
    items = next(p for k, p in sent if k == "nones")["items"]
    assert items == runtime.none_explanations(doc)
    return doc, items, runtime


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    play = as_playground(module_page(""))
    play.wait_ready()
    play.set_code(NONE_EXAMPLE)
    assert play.run() == "ok", play.console_text()
    return play


def highlighted(pg) -> str | None:
    el = pg.query_selector("[data-testid=editor] .cm-mark-step")
    return el.text_content() if el else None


def test_every_none_result_has_one_reason_and_repeats_are_counted(native):
    doc, items, runtime = native
    nones = [(c["line"], r["label"]) for t in doc["tapes"] for c in t["gradients"] for r in c["results"] if r["none"]]
    assert [(i["line"], i["source"]) for i in items] == nones
    assert all(i["message"] and i["count"] == 1 for i in items)
    # the same None in a loop is one line with a count, not one line per iteration
    loop = runtime.Session(lambda kind, payload: sent.append((kind, json.loads(payload))))
    sent = []
    loop.run("import tensorflow as tf\nx = tf.Variable(1.0)\nu = tf.Variable(2.0)\nfor _ in range(3):\n"
             "    with tf.GradientTape() as tape:\n        y = x * x\n    g = tape.gradient(y, u)\n")
    (only,) = next(p for k, p in sent if k == "nones")["items"]
    assert only["count"] == 3 and only["line"] == 7 and only["source"] == "u"


def test_console_prints_one_plain_sentence_per_none_with_its_line(pg, native, shot):
    _, items, _ = native
    lines = pg.root.locator("[data-testid=console] [data-testid=none-explanation]")
    assert lines.count() == len(items) == 5
    for k, item in enumerate(items):
        text = lines.nth(k).inner_text()
        assert text.startswith(f"line {item['line']}: the gradient of {item['target']} with respect to "
                               f"{item['source']} is None.")
        assert item["message"] in text                      # the engine's own sentence
        assert text == f"line {item['line']}: {item['text']}"   # as the runtime built it
    # no bare jargon: the sentences say what to do, not which rule ran
    assert "ran no rule" not in pg.console_text()
    # the line number highlights that line of the editor (so does a line the reason mentions)
    assign = next(k for k, i in enumerate(items) if "assign_add" in i["message"])
    lines.nth(assign).locator(".line-link").first.click()
    assert highlighted(pg.pg) == NONE_EXAMPLE.splitlines()[items[assign]["line"] - 1]
    lines.nth(assign).locator(".line-link", has_text="line 32").click()
    assert highlighted(pg.pg) == NONE_EXAMPLE.splitlines()[31]
    pg.root.locator("[data-testid=console] [data-testid=none-explanation]").first.scroll_into_view_if_needed()
    shot(pg.pg, "none-console")


def test_graph_status_line_says_the_same(pg, native, shot):
    doc, items, _ = native
    page = pg.pg
    for item in items:
        tape = next(t for t in doc["tapes"] if any(c["line"] == item["line"] and any(r["none"] for r in c["results"])
                                                  for c in t["gradients"]))
        page.select_option("[data-testid=tape-select]", str(tape["id"]))
        why = page.locator("[data-testid=graph-why-line]")
        assert why.count() == 1
        text = why.inner_text()
        assert f"The gradient of {item['target']} with respect to {item['source']} is None." in text
        assert item["message"] in text
        whys = [r["why"] for c in tape["gradients"] if c["line"] == item["line"] for r in c["results"]
                if r["none"] and r["label"].removesuffix(":0") == item["source"]]
        assert text.startswith(whys[0])                     # the sentence of the graph JSON, whole
        caption = page.text_content("[data-testid=timeline-caption]")
        assert "rule" not in caption and "ran no" not in caption
    why.locator("button").click()
    line = items[-1]["reason_line"] or items[-1]["line"]
    assert highlighted(page) == NONE_EXAMPLE.splitlines()[line - 1]
    shot(page, "none-graph")
    # a tape whose gradient is not None shows no such line
    page.select_option("[data-testid=tape-select]", "0")
    assert page.locator("[data-testid=graph-why]").is_hidden()


WIDGET_PAGE = """
async ([source, doc]) => {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const widget = (await import(url)).default;
  const el = document.createElement("div");
  document.body.append(el);
  const model = { get: (key) => (key === "doc" ? doc : key === "height" ? 420 : undefined), on() {}, off() {} };
  widget.render({ model, el });
}
"""


def test_notebook_widget_renders_the_same_sentence(browser, native):
    """The widget's bundle (engine/tapegrad/widget/static/) draws the graph JSON's sentence as is."""
    doc, items, _ = native
    source = (ROOT / "engine" / "tapegrad" / "widget" / "static" / "graph-widget.js").read_text()
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        page.set_content("<!doctype html><html><body></body></html>")
        page.evaluate(WIDGET_PAGE, [source, json.dumps(doc)])
        tape = next(t for t in doc["tapes"] if any(r["none"] for c in t["gradients"] for r in c["results"]))
        page.select_option("[data-testid=tape-select]", str(tape["id"]))
        why = page.locator("[data-testid=graph-why-line]")
        call = tape["gradients"][-1]
        expected = [r["why"] for r in call["results"] if r["none"]]
        assert why.count() == len(expected) > 0
        for k, sentence in enumerate(expected):
            assert why.nth(k).inner_text().startswith(sentence)
        assert not errors, errors
    finally:
        ctx.close()


# -- every cause, in all three places (issue 28, item 5) -----------------------------------------
# The table: tests/conformance/cases/none_causes.py (TensorFlow's None recorded for each program).

sys.path.insert(0, str(ROOT / "tests" / "conformance"))
import cases  # noqa: E402

CAUSES = cases.load("none_causes").CAUSES


def cause_program(name, module):
    """The cause's program as the user writes it, printing ``tape.explain`` at its end."""
    _, target, source, body = CAUSES[name]
    return f"import {module} as tf\n{body}print(tape.explain({target}, {source}))\n"


def native_cause(name):
    """``tape.explain``'s reason, run natively, and the notebook widget's graph document."""
    from tapegrad import widget
    from tapegrad.widget import magic
    _, target, source, _ = CAUSES[name]
    namespace = {"__name__": "__main__"}
    code = compile(cause_program(name, "tapegrad").replace("print(tape.explain", "why = (tape.explain"),
                   "main.py", "exec")
    logging.getLogger("tapegrad").disabled = True     # integer and string sources warn, as TF does
    try:
        magic.run_captured(lambda: exec(code, namespace))
    finally:
        logging.getLogger("tapegrad").disabled = False
    why = namespace["why"]
    assert namespace["g"] is None and why is not None and why.code == CAUSES[name][0]
    return why, none_sentence(target, source, why.message), widget.graph_document(namespace["tape"])


def select_tape_with_a_none(page):
    """Shows the tape whose gradient call gave the None (the page shows the first tape first)."""
    select = page.locator("[data-testid=tape-select]")
    if select.count() == 0 or select.is_disabled():     # one tape: it is shown
        return
    for value in select.locator("option").evaluate_all("els => els.map(e => e.value)"):
        select.select_option(value)
        if page.locator("[data-testid=graph-why-line]").count():
            return


@pytest.fixture(scope="module")
def cause_page(module_page, as_playground):
    play = as_playground(module_page(""))
    play.wait_ready()
    return play


@pytest.mark.parametrize("name", list(CAUSES))
def test_each_cause_says_the_same_sentence_natively_and_on_the_page(cause_page, name, shot):
    why, sentence, _ = native_cause(name)
    play, page = cause_page, cause_page.pg
    play.set_code(cause_program(name, "tensorflow"))
    assert play.run() == "ok", play.last_run_output()
    out = play.last_run_output()
    assert why.message in out                               # tape.explain, printed by the page's run
    consoles = page.locator("[data-testid=console] [data-testid=none-explanation]")
    console = consoles.last.inner_text()
    gradient_line = next(k for k, line in enumerate(cause_program(name, "x").splitlines(), 1)
                         if "= tape.gradient(" in line)
    assert console == f"line {gradient_line}: {sentence[:1].lower()}{sentence[1:]}"
    select_tape_with_a_none(page)
    graph_why = page.locator("[data-testid=graph-why-line]")
    assert graph_why.count() == 1
    assert graph_why.inner_text().startswith(sentence)
    assert "does not depend on" not in sentence
    caption = page.text_content("[data-testid=timeline-caption]")
    assert "no recorded operation leads" not in caption     # the graph shows that one does
    if name == "used_not_watched":                          # the case, looked at
        shot(page, "none-used-not-watched")


def test_each_cause_says_the_same_sentence_in_the_notebook_widget(browser):
    source = (ROOT / "engine" / "tapegrad" / "widget" / "static" / "graph-widget.js").read_text()
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        for name in CAUSES:
            _, sentence, doc = native_cause(name)
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.set_content("<!doctype html><html><body></body></html>")
            page.evaluate(WIDGET_PAGE, [source, json.dumps(doc)])
            page.wait_for_selector("[data-testid=graph] svg [data-node-id], [data-testid=graph-why]",
                                   state="attached")
            select_tape_with_a_none(page)
            why = page.locator("[data-testid=graph-why-line]")
            assert why.count() == 1, name
            assert why.inner_text().startswith(sentence), (name, why.inner_text(), sentence)
            if name == "used_not_watched":
                page.screenshot(path=str(ROOT / "test-results" / "browser" / "none-widget-used-not-watched.png"))
            assert not errors, errors
            page.close()
    finally:
        ctx.close()
