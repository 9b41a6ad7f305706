"""The SVG writer: one drawing of a graph document for the notebook (``tape._repr_svg_``), the
command line (``python -m tapegrad graph --svg out.svg script.py``) and the docs pages.

It draws what the page shows first (view.py): groups collapsed or framed as the page starts
them. Each drawn node or collapsed group is one element with ``data-node-id`` and each edge one
``<path class="edge">`` (an edge into or out of a group says how many it carries); a big
tape's collapsed view draws its boxes (``data-node-id="u:3"``) and the edges between them, each
with the number of edges it carries.
"""
import html

from .compact import expand, expand_nodes, laid_out_rows, node_ids
from .view import edge_text, visible_graph

MARGIN = 20
# Average widths of a character (px) in the drawing's fonts: 12 px, 12 px bold and 11 px (every
# text is at least 11 px, as in the page), for shortening a name to the box it is written in.
CHAR_W = {"12": 6.6, "bold": 7.3, "11": 6.2}

KIND_STYLE = {
    "variable": ("#dbeafe", "#1d4ed8"),
    "watched": ("#ede9fe", "#6d28d9"),
    "constant": ("#f3f4f6", "#6b7280"),
    "op": ("#fef3c7", "#b45309"),
    "tensor": ("#ffffff", "#374151"),
    "group": ("#ecfdf5", "#047857"),
}


def node_text(n):
    """The text drawn in a node of a version 1 document."""
    if n["kind"] == "tensor":
        v = n.get("value") or {}
        return v.get("text", "")[:24] if v.get("data") is not None else "×".join(map(str, v.get("shape", [])))
    if n["kind"] == "op":
        return n.get("label", n.get("op", "op"))
    return str(n.get("label", n["id"]))


def fit(text, width, font="12"):
    """``text`` shortened with an ellipsis to what fits ``width`` px in ``font`` (CHAR_W), escaped.

    >>> fit("SparseSoftmaxCrossEntropyWithLogits", 84, "bold")
    'SparseSoft…'
    >>> fit("<b>", 100)
    '&lt;b&gt;'
    """
    text = str(text)
    room = max(3, int(width // CHAR_W[font]))
    return html.escape(text if len(text) <= room else text[:room - 1] + "…")


def _head(w, h, origin=(0, 0)):
    x, y = origin
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" '
            f'viewBox="{x:g} {y:g} {w:g} {h:g}" font-family="Helvetica, Arial, sans-serif" '
            'font-size="12">',
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            'fill="#9ca3af"/></marker></defs>',
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="#ffffff"/>']


def _edge(a, b, text=None):
    """A curve from the right side of ``a`` to the left of ``b`` (dicts with x, y, w)."""
    x1, y1 = a["x"] + a["w"] / 2, a["y"]
    x2, y2 = b["x"] - b["w"] / 2 - 2, b["y"]
    mx = (x1 + x2) / 2
    path = (f'<path class="edge" d="M{x1:.1f},{y1:.1f} C{mx:.1f},{y1:.1f} {mx:.1f},{y2:.1f} '
            f'{x2:.1f},{y2:.1f}" fill="none" stroke="#9ca3af" stroke-width="1.4" '
            f'marker-end="url(#arrow)"/>')
    if text is None:
        return path
    return (f'{path}<text x="{mx:.1f}" y="{(y1 + y2) / 2 - 4:.1f}" text-anchor="middle" '
            f'fill="#6b7280" font-size="11">{html.escape(text)}</text>')


def to_svg(doc, gradient=None):
    """An SVG drawing of the layout: sources on the left, the forward pass to the right. With
    ``gradient`` = (tape index, call index), each source also shows its gradient or None. A big
    tape's document (its layout ``collapsed``) is drawn as its boxes.

    >>> doc = {"version": 1, "layout": {"width": 200, "height": 80}, "edges": [], "tapes": [],
    ...        "nodes": [{"id": "o1", "kind": "op", "label": "Exp", "x": 60, "y": 40, "w": 96,
    ...                   "h": 34}]}
    >>> ">Exp<" in to_svg(doc)
    True
    """
    if doc["layout"].get("collapsed"):
        return _collapsed_svg(doc)
    doc = expand(doc)
    view = visible_graph(doc)
    results = {}
    if gradient is not None:
        ti, ci = gradient
        for r in doc["tapes"][ti]["gradients"][ci]["results"]:
            results[r["node"]] = r
    b = view["box"] if view["items"] else {"x0": 0, "y0": 0, "x1": 0, "y1": 0}
    top = b["y0"] - (24 if results else 0)     # room for the gradients written above sources
    out = _head(b["x1"] - b["x0"] + 2 * MARGIN, b["y1"] - top + 2 * MARGIN,
                (b["x0"] - MARGIN, top - MARGIN))
    for f in view["frames"]:
        out.append(_frame(f))
    items = {it["id"]: it for it in view["items"]}
    for e in view["edges"]:
        out.append(_edge(items[e["source"]], items[e["target"]], edge_text(e) or None))
    for it in view["items"]:
        out.extend(_group(it) if it["kind"] == "group" else _node({**it["node"], **it}))
        r = results.get(it["id"])
        if r is not None:
            g = "None" if r["none"] else (r["gradient"] or {}).get("text", "")
            color = "#b91c1c" if r["none"] else "#047857"
            out.append(f'<text x="{it["x"]}" y="{it["y"] - it["h"] / 2 - 6}" text-anchor="middle" '
                       f'fill="{color}" font-size="11">grad: {html.escape(g[:24])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _node(n):
    """A node's shape and text (a tensor: a dot with its value or shape under it)."""
    fill, stroke = KIND_STYLE.get(n["kind"], ("#fff", "#000"))
    x, y, nw, nh = n["x"], n["y"], n["w"], n["h"]
    nid = html.escape(n["id"])
    if n["kind"] == "tensor":
        v = n.get("value") or {}
        text = v.get("text", "") if v.get("data") is not None and len(v.get("text", "")) <= 18 \
            else "×".join(map(str, v.get("shape", []))) or "scalar"
        return [f'<circle data-node-id="{nid}" data-kind="tensor" cx="{x}" cy="{y}" r="{nw / 2}" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>',
                f'<text x="{x}" y="{y + nw / 2 + 13}" text-anchor="middle" fill="#374151" '
                f'font-size="11">{fit(text, 110, "11")}</text>']
    rx = 8 if n["kind"] != "constant" else 4
    return [f'<rect data-node-id="{nid}" data-kind="{n["kind"]}" x="{x - nw / 2}" '
            f'y="{y - nh / 2}" width="{nw}" height="{nh}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1.5"/>',
            f'<text x="{x}" y="{y + 4}" text-anchor="middle" fill="{stroke}" '
            f'font-weight="{"bold" if n["kind"] == "op" else "normal"}">'
            f'{fit(node_text(n), nw - 12, "bold" if n["kind"] == "op" else "12")}</text>']


def _group(it):
    """A collapsed group: a box with its name and what it holds, as the page draws it."""
    g = it["group"]
    fill, stroke = KIND_STYLE["group"]
    x, y, w, h = it["x"], it["y"], it["w"], it["h"]
    sub = g["sub"] or f"▸ {len(g['members'])} nodes"
    return [f'<rect data-node-id="{html.escape(g["id"])}" data-kind="group" '
            f'data-group-kind="{html.escape(g["kind"])}" x="{x - w / 2}" y="{y - h / 2}" '
            f'width="{w}" height="{h}" rx="8" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="1.5"/>',
            f'<text x="{x}" y="{y - 3}" text-anchor="middle" fill="{stroke}" '
            f'font-weight="bold">{fit(g["label"], w - 10, "bold")}</text>',
            f'<text x="{x}" y="{y + 12}" text-anchor="middle" fill="#374151" '
            f'font-size="11">{fit(sub, w - 8, "11")}</text>']


def _frame(f):
    """An open group: a frame around what is drawn inside it, titled with its name."""
    g = f["group"]
    return (f'<g data-group-id="{html.escape(g["id"])}" data-group-kind="{html.escape(g["kind"])}">'
            f'<rect x="{f["x0"]}" y="{f["y0"]}" width="{f["x1"] - f["x0"]}" '
            f'height="{f["y1"] - f["y0"]}" rx="10" fill="none" stroke="#94a3b8" '
            f'stroke-dasharray="4 3"/><text x="{f["x0"] + 8}" y="{f["y0"] + 13}" fill="#475569" '
            f'font-size="11">▾ {html.escape(g["label"])}</text></g>')


def _collapsed_svg(doc):
    """A big tape's collapsed view: a box per group of ops, the variables and watched tensors on
    their own, and one edge per pair of boxes saying how many edges it carries."""
    lay = doc["layout"]
    out = _head(lay["width"], lay["height"])
    items = {}
    for g in doc["groups"]:
        x, y, w, h = g["box"]
        items[g["id"]] = {"id": g["id"], "kind": "group", "label": g["label"], "sub": g.get("sub"),
                          "x": x, "y": y, "w": w, "h": h}
    cols = doc["nodes"]
    for n in expand_nodes(cols, doc["tables"], node_ids(cols, doc["tables"]), laid_out_rows(doc)):
        items[n["id"]] = n
    for source, target, count in lay["edges"]:
        out.append(_edge(items[source], items[target], f"×{count}" if count > 1 else None))
    for it in items.values():
        fill, stroke = KIND_STYLE.get(it["kind"], ("#fff", "#000"))
        x, y, w, h = it["x"], it["y"], it["w"], it["h"]
        out.append(f'<rect data-node-id="{html.escape(str(it["id"]))}" x="{x - w / 2}" '
                   f'y="{y - h / 2}" width="{w}" height="{h}" rx="8" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="1.5"/>')
        label = it["label"] if it["kind"] == "group" else node_text(it)
        out.append(f'<text x="{x}" y="{y - 2 if it.get("sub") else y + 4}" text-anchor="middle" '
                   f'fill="{stroke}" font-weight="bold">{fit(label, w - 10, "bold")}</text>')
        if it.get("sub"):
            out.append(f'<text x="{x}" y="{y + 13}" text-anchor="middle" fill="#374151" '
                       f'font-size="11">{fit(it["sub"], w - 8, "11")}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
