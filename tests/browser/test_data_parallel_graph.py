"""Watching data-parallel training in the page (issue 32, item 5): the gallery's data-parallel
example runs in Pyodide (no threads: the replicas run one after another) and its graph draws each
replica's step as a group and the AllReduce joining them; the backward animation runs through
both replicas. The pane's screenshot goes to test-results/browser/graph-data-parallel.png.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "web" / "examples" / "manifest.json").read_text())["examples"]
EXAMPLE = next(e for e in MANIFEST if e["id"] == "data-parallel")
GRAPH = "[data-testid=graph]"


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    page = module_page("", viewport=(1366, 768))
    play = as_playground(page)
    play.wait_ready()
    page.locator("[data-testid=examples] summary").click()
    page.locator("[data-example='data-parallel']").click()
    assert play.run() == "ok", play.last_run_output()
    page.wait_for_selector(f"{GRAPH} svg .tg-graph-node")
    page.wait_for_function("() => document.querySelector('[data-testid=graph] svg').dataset.lod")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return play


def test_the_example_runs_in_the_page_and_prints_what_it_promises(pg):
    out = pg.last_run_output()
    pos = 0
    for line in EXAMPLE["expect"]:
        found = out.find(line, pos)
        assert found >= 0, (line, out)
        pos = found + len(line)


def test_each_replica_is_a_group_and_one_all_reduce_joins_them(pg, shot):
    page = pg.pg
    frames = page.eval_on_selector_all(f"{GRAPH} svg [data-group-id]",
                                       "els => els.map(e => e.dataset.groupId)")
    boxes = page.eval_on_selector_all(f"{GRAPH} svg .tg-graph-node[data-kind=group]",
                                      "els => els.map(e => e.dataset.nodeId)")
    replicas = sorted({g.split("/")[-1] for g in frames + boxes if g.split("/")[-1].startswith("replica:")})
    assert replicas == ["replica:0", "replica:1"], (frames, boxes)
    labels = page.eval_on_selector_all(f"{GRAPH} svg text", "els => els.map(e => e.textContent)")
    assert sum(t.startswith("AllRe") for t in labels) == 1, " | ".join(labels)   # (shortened)
    assert any("replica 0" in t for t in labels) and any("replica 1" in t for t in labels), labels
    shot(page, "graph-data-parallel-page")
    for _ in range(2):                  # the whole step in view: the AllReduce on the right
        page.click("[data-testid=graph-zoom-out]")
    where = ROOT / "test-results" / "browser"
    where.mkdir(parents=True, exist_ok=True)
    page.locator(GRAPH).screenshot(path=str(where / "graph-data-parallel.png"))


def test_backward_animation_runs_through_both_replicas(pg):
    page = pg.pg
    assert page.get_attribute("[data-testid=graph-panel]", "data-mode") == "backward"
    # each replica's first op, one MatMul in each replica's frame (rows of the drawing)
    matmuls = page.eval_on_selector_all(
        f"{GRAPH} svg .tg-graph-node[data-kind=op]",
        "els => els.filter(e => e.textContent.includes('MatMul')).map(e => e.dataset.nodeId)")
    assert len(matmuls) == 2, matmuls
    page.click("[data-testid=timeline-first]")
    total = int(page.locator("[data-testid=timeline] input[type=range]").get_attribute("max"))
    lit = set()
    for _ in range(total):
        page.click("[data-testid=timeline-next]")
        lit.update(page.eval_on_selector_all(f"{GRAPH} svg .tg-graph-node.tg-graph-current",
                                             "els => els.map(e => e.dataset.nodeId)"))
    assert set(matmuls) <= lit, (matmuls, lit)
