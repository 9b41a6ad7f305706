"""Every cause of a None gradient, from one table (tests/conformance/cases/none_causes.py, where
TensorFlow's None is recorded for each): ``tape.explain`` gives the cause's reason, and the graph
JSON that the page and the notebook widget show carries the same sentence, built once by
``tapegrad.graph.explain.none_sentence``. (tests/browser/test_none_explained.py checks what the
page and the widget draw of it.)"""
import logging
import sys
from pathlib import Path

import pytest

from tapegrad import widget
from tapegrad.graph.explain import none_sentence
from tapegrad.widget import magic

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "conformance"))
import cases  # noqa: E402
from test_web_examples import runtime  # noqa: E402  (the playground's Python side)

CAUSES = cases.load("none_causes").CAUSES
FALLBACK = "through anything the tape recorded"   # the sentence when no reason was found


def program(name, module):
    """The cause's program as a user writes it, with ``why = tape.explain(target, source)``."""
    _, target, source, body = CAUSES[name]
    return f"import {module} as tf\n{body}why = tape.explain({target}, {source})\n"


def run_native(name):
    """Runs the program in a graph capture: (its namespace, the capture)."""
    namespace = {"__name__": "__main__"}
    code = compile(program(name, "tapegrad"), "main.py", "exec")
    cap, _ = magic.run_captured(lambda: exec(code, namespace))
    return namespace, cap


@pytest.fixture(autouse=True)
def _quiet_dtype_warnings():
    logging.getLogger("tapegrad").disabled = True   # the integer and string sources warn, as TF does
    yield
    logging.getLogger("tapegrad").disabled = False


@pytest.mark.parametrize("name", list(CAUSES))
def test_tape_explain_names_the_cause(name):
    code, target, source, _ = CAUSES[name]
    ns, _ = run_native(name)
    assert ns["g"] is None                                # as TensorFlow (the fixture)
    why = ns["why"]
    assert why is not None and why.code == code, why
    assert source in why.message and FALLBACK not in why.message
    if why.line is not None:
        assert f"line {why.line}" in why.message


@pytest.mark.parametrize("name", list(CAUSES))
def test_graph_json_of_the_page_and_the_widget_carries_the_same_sentence(name):
    _, target, source, _ = CAUSES[name]
    ns, cap = run_native(name)
    sentence = none_sentence(target, source, ns["why"].message)
    # the notebook widget draws the document of the tape
    doc = widget.graph_document(ns["tape"])
    whys = [r["why"] for t in doc["tapes"] for c in t["gradients"] for r in c["results"] if r["none"]]
    assert whys == [sentence]
    # the page: its console's line and its graph, from the run's graph document (the runtime's
    # Session sends both; tests/browser/test_none_explained.py runs them in the page)
    page_doc = cap.to_dict()
    (item,) = runtime.none_explanations(page_doc)
    assert item["message"] == ns["why"].message
    assert item["text"] == sentence[:1].lower() + sentence[1:]
    page_whys = [r["why"] for t in page_doc["tapes"] for c in t["gradients"] for r in c["results"]
                 if r["none"]]
    assert page_whys == [sentence]


def test_the_used_constant_is_not_said_to_be_unused():
    """The issue's case: y = c * v with c a tf.constant; the graph shows c feeding y."""
    ns, _ = run_native("used_not_watched")
    message = ns["why"].message
    assert message.startswith("c was used at line 5, but the tape never watched it")
    assert "tape.watch(c)" in message and "make c a tf.Variable" in message
    assert ns["why"].line == 5
    assert "does not depend" not in message
