"""A 100,000-op tape in the page (issue 28, item 4): the page holds its box view, not its whole
document (docs/graph-json.md, "The box view"). Its collapsed view is drawn, the backward
animation runs through its boxes, opening a box lists its members (asked from the worker, which
keeps the whole document) and the SVG export draws the boxes. Nothing here is timed:
engine/bench/graph_export.py --page prints the draw times and the long tasks after the drawing.
Screenshots go to test-results/browser/.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from test_graph_export import CHAIN, run, save

OPS = 100_000
BOXES = "[data-testid=graph] svg [data-kind=group]"


@pytest.fixture(scope="module")
def big(module_page):
    page = module_page("", viewport=(1400, 900))
    page.wait_for_selector("[data-testid=graph-panel]")
    run(page, CHAIN.format(ops=OPS), timeout_ms=600_000)
    page.wait_for_function("() => !document.querySelector('[data-testid=graph-panel]').dataset.preview",
                           timeout=600_000)
    return page


def test_a_hundred_thousand_op_tape_draws_its_collapsed_view(big, shot):
    panel = "[data-testid=graph-panel]"
    assert big.get_attribute(panel, "data-node-count") == str(3 * OPS)
    assert "300000 nodes in" in big.text_content("[data-testid=graph-info]")
    kinds = big.eval_on_selector_all("[data-testid=graph] svg [data-node-id]", "els => els.map(e => e.dataset.kind)")
    assert kinds.count("group") >= 2 and kinds.count("variable") == 1 and len(kinds) <= 201
    assert big.locator("[data-testid=graph] svg path.tg-graph-edge").count() >= 2
    shot(big, "graph-100k-collapsed")
    # the SVG button saves the drawing as it is
    svg = ET.fromstring(save(big, "graph-save-svg", "chain-100k.svg"))
    assert len([el for el in svg.iter() if el.get("data-node-id")]) == len(kinds)


def test_the_backward_animation_runs_through_the_boxes(big):
    panel = "[data-testid=graph-panel]"
    assert big.get_attribute(panel, "data-mode") == "backward"
    big.click("[data-testid=timeline-first]")
    assert "steps back to the sources" in big.text_content("[data-testid=timeline-caption]")
    big.click("[data-testid=timeline-next]")       # the sum: one op
    big.click("[data-testid=timeline-next]")       # the chain's box: 99,999 ops at once
    caption = big.text_content("[data-testid=timeline-caption]")
    assert "ran the gradient rules of 99999 ops" in caption, caption
    lit = big.eval_on_selector_all(f"{BOXES}.tg-graph-current", "els => els.map(e => e.dataset.nodeId)")
    assert len(lit) == 1
    assert big.locator("[data-testid=graph] svg path.tg-graph-edge.tg-graph-flow").count() >= 1
    # (that was the last step: the source's gradient is there)
    assert big.get_attribute(panel, "data-position") == "2"
    assert big.locator("[data-testid=graph] svg [data-kind=variable].tg-graph-result").count() == 1


def test_opening_a_box_lists_its_members(big, shot):
    count = big.locator(BOXES).count()
    box = big.locator(f"{BOXES}", has_text="Mul").first
    box_id = box.get_attribute("data-node-id")
    box.click()
    members = "[data-testid=node-details] [data-testid=group-members] li"
    big.wait_for_function(f"() => document.querySelectorAll('{members}').length > 0", timeout=60_000)
    assert big.locator(BOXES).count() == count              # listed, not drawn
    assert big.get_attribute("[data-testid=node-details]", "data-details-for") == box_id
    first = big.eval_on_selector_all(members, "els => els.map(e => e.textContent)")
    assert len(first) == 200 and any("Mul" in t for t in first) and any("(4,) float32" in t for t in first)
    total = re.search(r"200 of (\d+) nodes", big.text_content("[data-testid=node-details]"))
    assert total and int(total.group(1)) > 2 * OPS          # the chain's ops, outputs and constants
    shot(big, "graph-100k-box-members")
    big.click("[data-testid=group-more]")
    big.wait_for_function(f"() => document.querySelectorAll('{members}').length === 400", timeout=60_000)
    ids = big.eval_on_selector_all(members, "els => els.map(e => e.dataset.memberId)")
    assert len(set(ids)) == 400
