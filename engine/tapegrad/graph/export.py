"""Native exports of the captured graph, with no system tool: JSON (the compact form), DOT and
SVG (svg.py)."""
import json

from .compact import compact, expand
from .document import export_dict
from .svg import KIND_STYLE, node_text, to_svg

__all__ = ["to_json", "to_dot", "to_svg", "tape_svg", "compact", "expand"]


def to_json(doc, indent=None):
    """The document as JSON text, in the compact form (version 2, docs/graph-json.md)."""
    return json.dumps(compact(doc), indent=indent, allow_nan=False, separators=(",", ":")
                      if indent is None else None)


def to_dot(doc):
    doc = expand(doc)
    lines = ["digraph tape {", "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10];']
    shapes = {"op": "box", "tensor": "point", "variable": "box", "watched": "box",
              "constant": "plaintext"}
    for n in doc["nodes"]:
        label = node_text(n).replace('"', '\\"')
        fill, stroke = KIND_STYLE.get(n["kind"], ("#fff", "#000"))
        extra = ', style="rounded,filled"' if n["kind"] in ("op", "variable", "watched") else ""
        lines.append(f'  "{n["id"]}" [label="{label}", shape={shapes.get(n["kind"], "box")}, '
                     f'fillcolor="{fill}", color="{stroke}"{extra}];')
    for e in doc["edges"]:
        lines.append(f'  "{e["source"]}" -> "{e["target"]}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def tape_svg(tape):
    """The SVG of one tape (used for notebook display)."""
    return to_svg(export_dict([tape], []))
