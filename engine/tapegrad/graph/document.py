"""The JSON document of captured tapes: graph, layout, forward and backward event streams and
the reasons for each None gradient, built in one pass over each tape's provenance view
(``tape.observer``: its records and watch lines) and the gradient calls captured on it.

The schema is documented in docs/graph-json.md.
"""
import gc

from ..backprop import READ
from ..variables import Variable
from .collapsed import collapse, group_kind, group_label, group_path
from .compact import CONTRIBUTION, VERSION as COMPACT_VERSION, NodeColumns, compact_tape, preview_doc
from .explain import none_sentence, short_label
from .layout import NODE_SIZE, layered_layout
from .model import ColumnBuilder, GraphBuilder, watched_lines
from .summary import value_summary

SCHEMA_VERSION = 1
MAX_NODES = 1000


def export_dict(tapes, calls, max_nodes=MAX_NODES, tape_names=None, preview=None):
    """The graph document of the tapes and the gradient calls captured on them.

    Up to ``max_nodes`` / 2 recorded ops: version 1, every node laid out. A bigger tape gives the
    compact version 2 (compact.py) of its collapsed view: ops folded into boxes by group or source
    line (collapsed.py), only the boxes laid out, tensors summarized by shape and dtype; then
    ``preview`` (when given) is called first with the collapsed view alone, as soon as it is laid
    out (``compact.preview_doc``: what the page draws while the rest is exported)."""
    views = [tape.observer for tape in tapes]   # each tape's provenance: records, watch lines
    ops = sum(1 for view in views for rec in view.records if rec.op is not READ)
    if 2 * ops > max_nodes:
        collecting = gc.isenabled()
        gc.disable()    # the export makes no cycles; each collection would walk the whole tape
        try:
            return _collapsed_dict(tapes, views, calls, tape_names, preview)
        finally:
            if collecting:
                gc.enable()
    b, streams = _build(GraphBuilder(), views, calls)
    g = b.g
    coords, layers = layered_layout(g)
    groups = _groups(g)          # before the node dicts: it sets each op's "group"
    nodes = []
    for n, data in g.nodes(data=True):
        x, y = coords[n]
        w, h = NODE_SIZE.get(data.get("kind"), (60, 30))
        d = {"id": n, **{k: v for k, v in data.items() if k != "order"}, "x": x, "y": y,
             "w": w, "h": h}
        nodes.append(d)
    edges = [{"source": u, "target": v, "index": d.get("index", 0)} for u, v, d in g.edges(data=True)]
    order = {n: data["order"] for n, data in g.nodes(data=True)}
    tape_docs = _tape_docs(b, tapes, streams, calls, tape_names, order, _event_dicts)
    width = max((c[0] for c in coords.values()), default=0) + 120
    height = max((c[1] for c in coords.values()), default=0) + 80
    return {"version": SCHEMA_VERSION, "nodes": nodes, "edges": edges, "groups": groups,
            "tapes": tape_docs, "layout": {"width": width, "height": height,
                                           "layers": len(layers)},
            "summarized": None}


def _collapsed_dict(tapes, views, calls, tape_names, preview=None):
    """The compact document of a big tape: its nodes and edges whole, only boxes laid out;
    ``preview(doc)``: called with the collapsed view alone before the rest is made."""
    cols = NodeColumns()
    b, streams = _build(ColumnBuilder(cols), views, calls)
    groups, layout, boxes, shapes = collapse(cols)
    doc = {"version": COMPACT_VERSION, "tables": cols.t.tables, "nodes": cols.finish(),
           "edges": cols.edges, "groups": groups, "tapes": [], "layout": layout,
           "summarized": {"original_nodes": len(cols), "nodes": len(cols), "folded_repeats": 0,
                          "boxes": boxes}}
    if preview is not None:
        preview(preview_doc(doc, shapes, [_tape_meta(i, tape, tape_names)
                                          for i, tape in enumerate(tapes)]))
    tape_docs = _tape_docs(b, tapes, streams, calls, tape_names, cols.index, _event_columns)
    doc["tapes"] = [compact_tape(t, cols) for t in tape_docs]
    return doc


def _build(b, views, calls):
    """Adds every tape's records and each gradient call's sources and targets (with the user's
    names for them) to the builder; returns it and each tape's forward stream."""
    streams = []
    watched = [watched_lines(view) for view in views]
    for i, view in enumerate(views):
        streams.append(b.add_records(view.records, i, watched[i]))
    # make sure every gradient call's sources and targets are nodes (even unconnected ones)
    for ti, call, names, *_ in calls:
        for x in list(call.sources) + list(call.targets):
            if b.node_of_id(x._id) is None:
                b.node_for(x, ti, watched[ti])
    for ti, call, names, *_ in calls:   # the user's names for sources and targets
        for x in list(call.sources) + list(call.targets):
            nid = b.node_of_id(x._id)
            name = names.get(id(x))
            if name:
                b.name_node(nid, name)
    return b, streams


def _tape_docs(b, tapes, streams, calls, tape_names, order, events_of):
    tape_docs = [{**_tape_meta(i, tape, tape_names), "forward": streams[i], "gradients": []}
                 for i, tape in enumerate(tapes)]
    for ti, call, names, reasons, line in calls:
        doc = _gradient_doc(b, order, call, names, reasons, len(tape_docs[ti]["gradients"]),
                            events_of)
        doc["line"] = line                 # where tape.gradient / tape.jacobian was called
        tape_docs[ti]["gradients"].append(doc)
    return tape_docs


def _tape_meta(i, tape, tape_names):
    """A tape's fields in the document, but its forward stream and gradient calls."""
    return {"id": i, "label": f"tape {i}", "name": (tape_names or {}).get(i),
            "persistent": tape.persistent,
            "watch_accessed_variables": tape.watch_accessed_variables}


def _label_of(names, x, fallback):
    n = names.get(id(x))
    if n:
        return n
    if isinstance(x, Variable):
        return x.name
    return fallback


def _walk(b, call):
    """Each backward event: (record, op id, [(input node, index, code, gradient)]).

    Each event is one rule applied to one op: the upstream gradient that arrived at its output
    and the contribution it sent to each input; code 0 a contribution, 1 one added to a node that
    already had one (fan-out: ``summed``), 2 an input that does not lead to a source
    (``pruned``), 3 an input the rule gives no gradient for (``none``)."""
    seen = set()
    for rec, upstream, cts, wanted in call.events or ():
        if rec.op is READ:
            continue
        yield rec, upstream, f"o{rec.output._id}", _parts(rec, cts, wanted, b.node_of_id, seen)


def _parts(rec, cts, wanted, node_of, seen):
    """One event's [(input node, index, code, gradient)] (codes as ``_walk`` says); ``seen``: the
    nodes that already got a contribution in this call."""
    parts = []
    for k, (x, ct, w) in enumerate(zip(rec.inputs, cts, wanted)):
        to = node_of(x._id)
        if not w or ct is None:
            parts.append((to, k, 2 if not w else 3, None))
            continue
        parts.append((to, k, 1 if to in seen else 0, ct))
        seen.add(to)
    return parts


def _event_dicts(b, call):
    """The events of a gradient call as dicts with value summaries (docs/graph-json.md)."""
    events = []
    for rec, upstream, op_id, parts in _walk(b, call):
        contributions = []
        for to, k, code, ct in parts:
            if code >= 2:
                contributions.append({"to": to, "index": k, CONTRIBUTION[code]: True})
            else:
                contributions.append({"to": to, "index": k, "value": value_summary(ct),
                                      "summed": code == 1})
        events.append({"step": len(events), "op": op_id, "output": f"t{rec.output._id}",
                       "upstream": value_summary(upstream), "contributions": contributions,
                       "line": rec.where[1] if rec.where else None})
    return events, {e["op"] for e in events}


def _event_columns(b, call):
    """The events of a big tape's gradient call, as compact columns without values (one loop, no
    generator: a big tape has an event per op)."""
    g = b.g
    row, tensor_rows, row_of = g.index, g.tensor_rows, _row_of_id(b)
    ops, outputs, lines, parts, flat = [], [], [], [], []
    visited, seen = set(), set()
    none = g.t.add("values", None)
    for rec, _upstream, cts, wanted in call.events or ():
        if rec.op is READ:
            continue
        out_id = rec.output._id
        op_id = f"o{out_id}"
        visited.add(op_id)
        ops.append(row[op_id])
        outputs.append(tensor_rows[out_id])
        where = rec.where
        lines.append(where[1] if where else None)
        event = _parts(rec, cts, wanted, row_of, seen)
        parts.append(len(event))
        for to, k, code, _ in event:
            flat += (-1 if to is None else to, k, code, -1 if code >= 2 else none)
    return {"op": ops, "output": outputs, "line": lines, "upstream": [none] * len(ops),
            "parts": parts, "contributions": flat}, visited


def _row_of_id(b):
    """``row_of(tensor id)``: the row of its node in a big tape's columns (None if it has none),
    as ``b.node_of_id`` finds the node."""
    alias, index, tensor_rows = b.alias, b.g.index, b.g.tensor_rows

    def row_of(tid):
        nid = alias.get(tid)
        if nid is not None:
            return index[nid]
        r = tensor_rows.get(tid)
        return r if r is not None else index.get(f"v{tid}")
    return row_of


def _gradient_doc(b, order, call, names, reasons, index, events_of):
    """One gradient call: its backward pass as animation events (``events_of(b, call)``:
    ``_event_dicts`` or, for a big tape, ``_event_columns``), targets, results and why each
    None. Recorded ops the pass never visited are listed in ``unvisited``."""
    events, visited = events_of(b, call)
    targets = []
    for t, s in zip(call.targets, call.seeds):
        targets.append({"node": b.node_of_id(t._id), "label": _label_of(names, t, "target"),
                        "seed": value_summary(s)})
    results = []
    target_text = ", ".join(short_label(t["label"]) for t in targets) or "the target"
    for src, res, reason in zip(call.sources, call.results, reasons):
        label = _label_of(names, src, "source")
        why = None if res is not None else none_sentence(target_text, short_label(label),
                                                          (reason or {}).get("message"))
        results.append({"node": b.node_of_id(src._id), "label": label, "gradient": value_summary(res),
                        "none": res is None, "reason": reason, "why": why})
    ops_in_call = {f"o{r.output._id}" for r in call.records if r.op is not READ}
    return {"id": index, "kind": call.kind, "row": call.row,
            "targets": targets, "results": results, "events": events,
            "unvisited": sorted(ops_in_call - visited, key=lambda n: order.get(n, 0)),
            "unconnected_gradients": call.unconnected.value}


def _groups(g):
    """Module scopes and user functions as collapsible groups of op nodes."""
    groups = {}
    for n, data in g.nodes(data=True):
        if data.get("kind") != "op":
            continue
        path = group_path(data.get("function"), data.get("scope"))
        parent = None
        for depth in range(len(path)):
            gid = "g:" + "/".join(path[:depth + 1])
            groups.setdefault(gid, {"id": gid, "label": group_label(path[depth]),
                                    "kind": group_kind(path[depth]), "parent": parent,
                                    "nodes": []})
            parent = gid
        if path:
            groups[parent]["nodes"].append(n)
            out = next(iter(g.successors(n)), None)
            if out is not None:
                groups[parent]["nodes"].append(out)
            data["group"] = parent
    return list(groups.values())
