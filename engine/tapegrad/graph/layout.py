"""A deterministic layered layout of a ``dag.Dag``.

Layers are topological generations (every edge goes to a later layer), so the forward pass reads
left to right. Within each layer, nodes are ordered by the barycentre of their neighbours in a
few alternating sweeps, which reduces edge crossings. Ties keep insertion order, so the same
tape always gets the same coordinates.
"""
LAYER_GAP = 150      # horizontal distance between layers
ROW_GAP = 64         # vertical distance between nodes of one layer
SWEEPS = 4

NODE_SIZE = {"op": (96, 34), "tensor": (18, 18), "variable": (110, 40), "watched": (110, 40),
             "constant": (70, 28), "group": (130, 44)}


def layered_layout(g):
    """{node: (x, y)} plus the layers, for a graph whose nodes carry an ``order`` attribute."""
    if g.number_of_nodes() == 0:
        return {}, []
    order = {n: data["order"] for n, data in g.nodes(data=True) if "order" in data}
    layer_of = {n: i for i, gen in enumerate(g.topological_generations()) for n in gen}
    # A source (constant, variable) sits just before its first consumer, not in column 0.
    for n in g.nodes:
        if g.in_degree(n) == 0 and g.out_degree(n):
            layer_of[n] = min(layer_of[m] for m in g.successors(n)) - 1
    layers = [[] for _ in range(max(layer_of.values()) + 1)]
    for n in sorted(g.nodes, key=lambda n: order.get(n, 0)):
        layers[layer_of[n]].append(n)
    layers = [layer for layer in layers if layer]
    layer_of = {n: i for i, layer in enumerate(layers) for n in layer}
    pos_in = {n: j for layer in layers for j, n in enumerate(layer)}

    def reorder(layer, neighbours):
        keyed = []
        for j, n in enumerate(layer):
            ns = [pos_in[m] for m in neighbours(n)]
            bary = sum(ns) / len(ns) if ns else pos_in[n]
            keyed.append((bary, j, n))
        keyed.sort()
        for j, (_, _, n) in enumerate(keyed):
            pos_in[n] = j
        return [n for _, _, n in keyed]

    for sweep in range(SWEEPS):
        if sweep % 2 == 0:
            for i in range(1, len(layers)):
                layers[i] = reorder(layers[i], lambda n: [m for m in g.predecessors(n)
                                                          if layer_of[m] < layer_of[n]])
        else:
            for i in range(len(layers) - 2, -1, -1):
                layers[i] = reorder(layers[i], lambda n: [m for m in g.successors(n)
                                                          if layer_of[m] > layer_of[n]])
    tallest = max(len(layer) for layer in layers)
    coords = {}
    for i, layer in enumerate(layers):
        offset = (tallest - len(layer)) * ROW_GAP / 2
        for j, n in enumerate(layer):
            coords[n] = (40 + i * LAYER_GAP + 60, 40 + offset + j * ROW_GAP + 20)
    return coords, layers


def count_crossings(g, coords):
    """Edge crossings between consecutive layers (used by tests and to judge the layout)."""
    edges = [(coords[u], coords[v]) for u, v in g.edges]
    crossings = 0
    for i in range(len(edges)):
        (ax, ay), (bx, by) = edges[i]
        for j in range(i + 1, len(edges)):
            (cx, cy), (dx, dy) = edges[j]
            if ax == cx and bx == dx and (ay - cy) * (by - dy) < 0:
                crossings += 1
    return crossings
