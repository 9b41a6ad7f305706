"""What is drawn of a graph document (version 1) when it first shows: the same view as the page's
and the notebook widget's (web/src/graph/model.js: ``initiallyCollapsed`` and ``visibleGraph``),
so that the static SVG (svg.py) draws a Keras model's tape with its layers as boxes too.

Past ``COLLAPSE_ABOVE`` nodes every group starts collapsed, except a model, function,
tf.function call or name scope holding groups, which stays open as a frame around their boxes;
in a smaller graph layers and (in a graph this small) tf.function calls start collapsed. A
collapsed group takes the place of its rightmost op; the columns and rows that only hidden
members used are taken out; an edge into or out of a collapsed group carries ``count`` edges
and the ``shape`` they carry (None when they differ).
"""
GROUP_SIZE = (130, 44)
FRAME_PAD = 12
FRAME_HEADER = 18
EDGE_ROOM = 44      # free length between two neighbouring columns' boxes, for an edge
ROW_GAP = 64        # the layout's distance between two rows (layout.py)
COLLAPSE_ABOVE = 40


class ViewModel:
    """The document's nodes, edges and groups indexed as the page indexes them."""

    def __init__(self, doc):
        self.nodes = {n["id"]: n for n in doc["nodes"]}
        self.edges = [(e["source"], e["target"]) for e in doc["edges"]]
        self.targets_of = {}
        for s, t in self.edges:
            self.targets_of.setdefault(s, []).append(t)
        self.groups = {}
        for g in doc.get("groups", []):
            self.groups[g["id"]] = {"id": g["id"], "label": str(g.get("label", g["id"])),
                                    "parent": g.get("parent"), "own": list(g["nodes"]),
                                    "children": [], "members": [], "kind": g.get("kind", "layer"),
                                    "box": g.get("box"), "sub": g.get("sub")}
        for g in self.groups.values():
            if g["parent"] is not None:
                self.groups[g["parent"]]["children"].append(g["id"])
        self.chains = self._chains()

    def _chains(self):
        """Each node's groups, innermost first; fills each group's ``members``."""
        innermost = {m: g["id"] for g in self.groups.values() for m in g["own"]}
        chains = {}
        for nid in self.nodes:
            chain = []
            g = innermost.get(nid)
            while g is not None:
                chain.append(g)
                g = self.groups[g]["parent"]
            for gid in chain:
                self.groups[gid]["members"].append(nid)
            chains[nid] = chain
        return chains

    def initially_collapsed(self):
        big = len(self.nodes) > COLLAPSE_ABOVE
        out = set()
        for g in self.groups.values():
            frame = big and g["kind"] != "layer" and bool(g["children"])
            library = g["kind"] == "layer" or (not big and g["kind"] == "tf.function")
            if g["box"] is not None or library or (big and not frame):
                out.add(g["id"])
        return out


def visible_graph(doc, collapsed=None):
    """{"items", "edges", "frames", "box"} of the document with ``collapsed`` groups (default:
    those that start collapsed). Items are nodes ({"id", "kind", x, y, w, h, "node"}) and
    collapsed groups ({..., "kind": "group", "group"}); edges {"source", "target", "count",
    "shape", "grouped"}; frames {"group", "depth", x0, y0, x1, y1} around open groups."""
    m = ViewModel(doc)
    collapsed = m.initially_collapsed() if collapsed is None else set(collapsed)
    shown = {}
    for nid in m.nodes:
        shown[nid] = nid
        for g in m.chains[nid]:
            if g in collapsed:
                shown[nid] = g
    _fold_constants(m, shown)
    items = [{"id": n["id"], "kind": n["kind"], "x": n["x"], "y": n["y"], "w": n["w"],
              "h": n["h"], "node": n} for n in m.nodes.values() if shown[n["id"]] == n["id"]]
    open_groups = []
    for g in m.groups.values():
        ancestors = _ancestors(m, g)
        if any(a in collapsed for a in ancestors) or not g["members"]:
            continue
        if g["id"] in collapsed:
            x, y, w, h = g["box"] or (*_anchor(m, g), *GROUP_SIZE)
            items.append({"id": g["id"], "kind": "group", "x": x, "y": y, "w": w, "h": h,
                          "group": g})
        else:
            open_groups.append((g, len(ancestors)))
    _compact_columns(items)
    _compact_rows(items)
    frames = _frames(m, items, open_groups)
    boxes = items + [{"x": (f["x0"] + f["x1"]) / 2, "y": (f["y0"] + f["y1"]) / 2,
                      "w": f["x1"] - f["x0"], "h": f["y1"] - f["y0"]} for f in frames]
    return {"items": items, "edges": _edges(m, shown), "frames": frames, "box": _bounds(boxes)}


def _ancestors(m, g):
    out = []
    p = g["parent"]
    while p is not None:
        out.append(p)
        p = m.groups[p]["parent"]
    return out


def _fold_constants(m, shown):
    """A constant that only ops of one collapsed group use is drawn inside that group."""
    for n in m.nodes.values():
        if n["kind"] != "constant" or shown[n["id"]] != n["id"]:
            continue
        into = {shown[t] for t in m.targets_of.get(n["id"], [])}
        if len(into) == 1:
            (only,) = into
            if only in m.groups:
                shown[n["id"]] = only


def _anchor(m, g):
    """The place of a collapsed group: its rightmost op's (else its first member's)."""
    best = None
    for nid in g["members"]:
        n = m.nodes[nid]
        if n["kind"] == "op" and (best is None or n["x"] > best["x"]):
            best = n
    best = best or m.nodes[g["members"][0]]
    return best["x"], best["y"]


def _compact_columns(items):
    """Each gap between neighbouring columns shrinks to what their widest boxes and an edge
    need (never grows)."""
    half = {}
    for it in items:
        half[it["x"]] = max(half.get(it["x"], 0), it["w"] / 2)
    to = {}
    xs = sorted(half)
    for i, x in enumerate(xs):
        to[x] = x if i == 0 else to[xs[i - 1]] + min(x - xs[i - 1],
                                                     half[xs[i - 1]] + half[x] + EDGE_ROOM)
    for it in items:
        it["x"] = to[it["x"]]


def _compact_rows(items):
    """A gap between neighbouring rows wider than the layout's row distance shrinks to it."""
    ys = sorted({it["y"] for it in items})
    to = {}
    for i, y in enumerate(ys):
        to[y] = y if i == 0 else to[ys[i - 1]] + min(y - ys[i - 1], ROW_GAP)
    for it in items:
        it["y"] = to[it["y"]]


def _frames(m, items, open_groups):
    """The frames of the open groups (outermost first) around what is drawn inside each."""
    inside = {g["id"]: [] for g, _ in open_groups}
    for it in items:
        first = (next((g for g in m.chains[it["id"]] if g in inside), None) if "node" in it
                 else it["group"]["parent"])
        g = first
        while g is not None:
            if g in inside:
                inside[g].append(it)
                break
            g = m.groups[g]["parent"]
    frames = []
    for g, depth in sorted(open_groups, key=lambda o: -o[1]):     # innermost first
        content = inside[g["id"]]
        if not content:
            continue
        b = _bounds(content)
        f = {"group": g, "depth": depth, "x0": b["x0"] - FRAME_PAD,
             "y0": b["y0"] - FRAME_PAD - FRAME_HEADER, "x1": b["x1"] + FRAME_PAD,
             "y1": b["y1"] + FRAME_PAD}
        frames.append(f)
        p = g["parent"]
        while p is not None:
            if p in inside:
                inside[p].append({"x": (f["x0"] + f["x1"]) / 2, "y": (f["y0"] + f["y1"]) / 2,
                                  "w": f["x1"] - f["x0"], "h": f["y1"] - f["y0"]})
                break
            p = m.groups[p]["parent"]
    return sorted(frames, key=lambda f: f["depth"])


def _edges(m, shown):
    """The edges between drawn items, each with how many of the document's it carries."""
    out = {}
    for s0, t0 in m.edges:
        s, t = shown[s0], shown[t0]
        if s == t:
            continue
        e = out.get((s, t))
        if e is None:
            e = out[(s, t)] = {"source": s, "target": t, "count": 0, "shape": "",
                               "grouped": s != s0 or t != t0}
        e["count"] += 1
        value = m.nodes[s0].get("value")
        shape = ("×".join(map(str, value["shape"])) or "scalar"
                 if isinstance(value, dict) and isinstance(value.get("shape"), list) else None)
        e["shape"] = shape if e["shape"] == "" or e["shape"] == shape else None
    return list(out.values())


def edge_text(e):
    """What the page writes on an edge into or out of a collapsed group: "3× 64×10"."""
    if not e["grouped"]:
        return ""
    return " ".join(p for p in (f"{e['count']}×" if e["count"] > 1 else "", e["shape"] or "") if p)


def _bounds(items):
    return {"x0": min((it["x"] - it["w"] / 2 for it in items), default=0),
            "y0": min((it["y"] - it["h"] / 2 for it in items), default=0),
            "x1": max((it["x"] + it["w"] / 2 for it in items), default=0),
            "y1": max((it["y"] + it["h"] / 2 for it in items), default=0)}
