"""The small directed graph the graph export is built on, and its conversion to networkx.

The export of every run (the playground's tape panel, the SVGs, the notebook widget) needs only
nodes and edges with attributes, neighbours and a topological order, so it uses this class rather
than networkx: importing networkx takes 350 modules (0.8 s natively, 1-2 s in a browser, and a
quarter of the page's boot snapshot). ``to_networkx`` gives the same graph as a
``networkx.DiGraph`` (``tapegrad.graph.build_graph``), importing networkx then.

It keeps networkx's orders exactly (the export's node and edge order, and so its layout, are the
same as when it was built with networkx): nodes in insertion order, each node's successors and
predecessors in the order their edges were added; ``topological_generations`` is Kahn's algorithm
over those orders, as networkx's.
"""


class Dag:
    """A directed graph: nodes with attribute dicts, at most one edge per ordered pair."""

    def __init__(self):
        self._node = {}     # node -> its attributes
        self._succ = {}     # node -> {successor: the edge's attributes}
        self._pred = {}     # node -> {predecessor: the same dict}
        self._edges = []    # (u, v) in the order edges were first added (for to_networkx)

    # -- building -----------------------------------------------------------------------------
    def add_node(self, n, **attrs):
        if n not in self._node:
            self._node[n] = {}
            self._succ[n] = {}
            self._pred[n] = {}
        self._node[n].update(attrs)

    def add_edge(self, u, v, **attrs):
        for n in (u, v):
            if n not in self._node:
                self.add_node(n)
        data = self._succ[u].get(v)
        if data is None:
            data = {}
            self._edges.append((u, v))
        data.update(attrs)
        self._succ[u][v] = data
        self._pred[v][u] = data

    def remove_node(self, n):
        for v in self._succ.pop(n):
            del self._pred[v][n]
        for u in self._pred.pop(n):
            del self._succ[u][n]
        del self._node[n]      # (its edges stay in _edges: to_networkx skips edges that are gone)

    def copy(self):
        """A copy with copied attribute dicts (edges re-added in successor order, as networkx)."""
        h = Dag()
        for n, data in self._node.items():
            h.add_node(n, **data)
        for u, nbrs in self._succ.items():
            for v, data in nbrs.items():
                h.add_edge(u, v, **data)
        return h

    # -- reading ------------------------------------------------------------------------------
    def __contains__(self, n):
        return n in self._node

    def __len__(self):
        return len(self._node)

    def number_of_nodes(self):
        return len(self._node)

    @property
    def nodes(self):
        return _NodeView(self._node)

    @property
    def edges(self):
        return _EdgeView(self._succ)

    def successors(self, n):
        return iter(self._succ[n])

    def predecessors(self, n):
        return iter(self._pred[n])

    def in_degree(self, n):
        return len(self._pred[n])

    def out_degree(self, n):
        return len(self._succ[n])

    def topological_generations(self):
        """Lists of nodes, each after every predecessor of its nodes (networkx's order)."""
        indegree = {v: len(p) for v, p in self._pred.items() if p}
        zero = [v for v, p in self._pred.items() if not p]
        while zero:
            generation, zero = zero, []
            for node in generation:
                for child in self._succ[node]:
                    indegree[child] -= 1
                    if indegree[child] == 0:
                        zero.append(child)
                        del indegree[child]
            yield generation
        if indegree:
            raise ValueError("the graph has a cycle, so it has no topological order")

    def topological_sort(self):
        for generation in self.topological_generations():
            yield from generation


class _NodeView:
    """``g.nodes``: iterate the nodes, ``g.nodes[n]`` their attributes, ``g.nodes(data=True)`` pairs."""

    def __init__(self, nodes):
        self._nodes = nodes

    def __iter__(self):
        return iter(self._nodes)

    def __len__(self):
        return len(self._nodes)

    def __contains__(self, n):
        return n in self._nodes

    def __getitem__(self, n):
        return self._nodes[n]

    def __call__(self, data=False):
        return iter(self._nodes.items()) if data else iter(self._nodes)


class _EdgeView:
    """``g.edges``: iterate (u, v) pairs, ``g.edges[u, v]`` their attributes, ``g.edges(data=True)``."""

    def __init__(self, succ):
        self._succ = succ

    def __iter__(self):
        return ((u, v) for u, nbrs in self._succ.items() for v in nbrs)

    def __len__(self):
        return sum(len(nbrs) for nbrs in self._succ.values())

    def __getitem__(self, uv):
        u, v = uv
        return self._succ[u][v]

    def __call__(self, data=False):
        if data:
            return ((u, v, d) for u, nbrs in self._succ.items() for v, d in nbrs.items())
        return iter(self)


def to_networkx(g):
    """The graph as a ``networkx.DiGraph``: the same nodes, edges and attributes, added in the
    order ``g`` got them (so its successor and predecessor orders are ``g``'s too)."""
    import networkx as nx  # lazy: networkx, only for users who ask for a networkx graph

    out = nx.DiGraph()
    for n, data in g._node.items():
        out.add_node(n, **data)
    for u, v in g._edges:
        data = g._succ.get(u, {}).get(v)
        if data is not None and not out.has_edge(u, v):
            out.add_edge(u, v, **data)
    return out
