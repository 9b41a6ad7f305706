"""graph/dag.py: the export's small graph keeps networkx's orders exactly (node, edge, neighbour and
topological orders), so the export is what it was when built on networkx."""
import random

import networkx as nx
import pytest

from tapegrad.graph.dag import Dag, to_networkx


def random_dags(count=30, seed=7):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(1, 40)
        names = [f"n{i}" for i in rng.sample(range(100), n)]   # insertion order is not sorted order
        edges = [(names[i], names[j], {"index": rng.randint(0, 3)})
                 for i in range(n) for j in range(i + 1, n) if rng.random() < 0.15]
        rng.shuffle(edges)
        yield names, edges


def both(names, edges):
    d, g = Dag(), nx.DiGraph()
    for k, n in enumerate(names):
        d.add_node(n, order=k)
        g.add_node(n, order=k)
    for u, v, attrs in edges:
        d.add_edge(u, v, **attrs)
        g.add_edge(u, v, **attrs)
    return d, g


def same(d, g):
    assert list(d.nodes(data=True)) == list(g.nodes(data=True))
    assert list(d.edges(data=True)) == list(g.edges(data=True))
    for n in g.nodes:
        assert list(d.successors(n)) == list(g.successors(n))
        assert list(d.predecessors(n)) == list(g.predecessors(n))
        assert (d.in_degree(n), d.out_degree(n)) == (g.in_degree(n), g.out_degree(n))
    assert [list(x) for x in d.topological_generations()] == [list(x) for x in nx.topological_generations(g)]
    assert list(d.topological_sort()) == list(nx.topological_sort(g))


@pytest.mark.parametrize("names,edges", list(random_dags()))
def test_orders_match_networkx(names, edges):
    d, g = both(names, edges)
    same(d, g)
    same(d.copy(), g.copy())
    for n in names[::3]:            # removing nodes keeps the other orders
        d.remove_node(n)
        g.remove_node(n)
    same(d, g)


def test_edge_attributes_update_in_place_and_views_read_them():
    d = Dag()
    d.add_edge("a", "b", index=0)
    d.add_edge("a", "b", index=2)     # an existing edge: attributes updated, order kept
    d.add_node("a", kind="op")
    assert d.edges["a", "b"] == {"index": 2} and d.nodes["a"] == {"kind": "op"}
    assert "a" in d and "z" not in d and len(d) == d.number_of_nodes() == 2 and len(d.edges) == 1


def test_cycle_has_no_topological_order():
    d = Dag()
    d.add_edge("a", "b")
    d.add_edge("b", "a")
    with pytest.raises(ValueError, match="cycle"):
        list(d.topological_sort())


@pytest.mark.parametrize("names,edges", list(random_dags(10, seed=3)))
def test_to_networkx_is_the_graph_networkx_would_have_built(names, edges):
    d, g = both(names, edges)
    h = to_networkx(d)
    assert isinstance(h, nx.DiGraph)
    assert list(h.nodes(data=True)) == list(g.nodes(data=True))
    assert list(h.edges(data=True)) == list(g.edges(data=True))
    assert all(list(h.predecessors(n)) == list(g.predecessors(n)) for n in g)
