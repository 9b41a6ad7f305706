"""The JSON document of captured tapes: graph, layout, forward and backward event streams and
the reasons for each None gradient, built in one pass over each tape's provenance view
(``tape.observer``: its records and watch lines) and the gradient calls captured on it.

The schema is documented in docs/graph-json.md.
"""
from ..backprop import READ
from ..variables import Variable
from .explain import none_sentence, short_label
from .layout import NODE_SIZE, layered_layout
from .model import GraphBuilder, watched_lines
from .summary import value_summary

SCHEMA_VERSION = 1
MAX_NODES = 1000


def export_dict(tapes, calls, max_nodes=MAX_NODES, tape_names=None):
    b = GraphBuilder()
    streams = []
    views = [tape.observer for tape in tapes]   # each tape's provenance: records, watch lines
    watched = [watched_lines(view) for view in views]
    for i, view in enumerate(views):
        streams.append(b.add_records(view.records, i, watched[i]))
    # make sure every gradient call's sources and targets are nodes (even unconnected ones)
    for ti, call, names, *_ in calls:
        for x in list(call.sources) + list(call.targets):
            if b.node_of_id(x._id) is None:
                b.node_for(x, ti, watched[ti])
    g = b.g
    for ti, call, names, *_ in calls:   # the user's names for sources and targets
        for x in list(call.sources) + list(call.targets):
            nid = b.node_of_id(x._id)
            name = names.get(id(x))
            if nid in g and name and g.nodes[nid].get("kind") != "op":
                g.nodes[nid].setdefault("name", name)
                if g.nodes[nid].get("kind") in ("constant", "watched", "tensor"):
                    g.nodes[nid]["label"] = name
    summarized = None
    if g.number_of_nodes() > max_nodes:
        g, summarized = summarize(g, max_nodes)
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
    tape_docs = []
    for i, tape in enumerate(tapes):
        tape_docs.append({"id": i, "label": f"tape {i}", "name": (tape_names or {}).get(i),
                          "persistent": tape.persistent,
                          "watch_accessed_variables": tape.watch_accessed_variables,
                          "forward": streams[i], "gradients": []})
    for ti, call, names, reasons, line in calls:
        doc = _gradient_doc(b, g, call, names, reasons, len(tape_docs[ti]["gradients"]))
        doc["line"] = line                 # where tape.gradient / tape.jacobian was called
        tape_docs[ti]["gradients"].append(doc)
    width = max((c[0] for c in coords.values()), default=0) + 120
    height = max((c[1] for c in coords.values()), default=0) + 80
    return {"version": SCHEMA_VERSION, "nodes": nodes, "edges": edges, "groups": groups,
            "tapes": tape_docs, "layout": {"width": width, "height": height,
                                           "layers": len(layers)},
            "summarized": summarized}


def _label_of(names, x, fallback):
    n = names.get(id(x))
    if n:
        return n
    if isinstance(x, Variable):
        return x.name
    return fallback


def _gradient_doc(b, g, call, names, reasons, index):
    """The backward pass of one gradient call as animation events.

    Each event is one rule applied to one op: the upstream gradient that arrived at its output
    and the contribution it sent to each input. A contribution to a node that already had one is
    marked ``summed`` (fan-out). Inputs that do not lead to a source are ``pruned``; recorded ops
    the pass never visited are listed in ``unvisited``.
    """
    events = []
    seen = {}
    visited = set()
    for rec, upstream, cts, wanted in call.events or ():
        if rec.op is READ:
            continue
        op_id = f"o{rec.output._id}"
        visited.add(op_id)
        contributions = []
        for k, (x, ct, w) in enumerate(zip(rec.inputs, cts, wanted)):
            to = b.node_of_id(x._id)
            if not w:
                contributions.append({"to": to, "index": k, "pruned": True})
                continue
            if ct is None:
                contributions.append({"to": to, "index": k, "none": True})
                continue
            seen[to] = seen.get(to, 0) + 1
            contributions.append({"to": to, "index": k, "value": value_summary(ct),
                                  "summed": seen[to] > 1})
        events.append({"step": len(events), "op": op_id, "output": f"t{rec.output._id}",
                       "upstream": value_summary(upstream), "contributions": contributions,
                       "line": rec.where[1] if rec.where else None})
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
            "unvisited": sorted(ops_in_call - visited, key=lambda n: g.nodes[n]["order"]
                                if n in g else 0),
            "unconnected_gradients": call.unconnected.value}


def _groups(g):
    """Module scopes and user functions as collapsible groups of op nodes."""
    groups = {}
    for n, data in g.nodes(data=True):
        if data.get("kind") != "op":
            continue
        path = list(data.get("scope") or ())
        fn = data.get("function")
        if fn and fn != "<module>":
            path = [f"function:{fn}"] + path
        parent = None
        for depth in range(len(path)):
            gid = "g:" + "/".join(path[:depth + 1])
            grp = groups.setdefault(gid, {"id": gid, "label": _group_label(path[depth]),
                                          "parent": parent, "nodes": []})
            parent = gid
        if path:
            groups[parent]["nodes"].append(n)
            out = next(iter(g.successors(n)), None)
            if out is not None:
                groups[parent]["nodes"].append(out)
            data["group"] = parent
    return list(groups.values())


def _group_label(part):
    kind, _, name = part.partition(":")
    return f"{name}()" if kind == "function" else f"{name} ({kind})"


def summarize(g, max_nodes):
    """A smaller graph for a very large tape: runs of the same op on a chain become one node."""
    h = g.copy()
    merged = 0
    for n in list(g.topological_sort()):
        if n not in h or h.nodes[n].get("kind") != "op":
            continue
        # op -> tensor -> same op (single consumer): fold the repeat into this op
        while True:
            outs = list(h.successors(n))
            if len(outs) != 1:
                break
            t = outs[0]
            nxt = [m for m in h.successors(t)]
            if len(nxt) != 1 or h.nodes[nxt[0]].get("op") != h.nodes[n].get("op"):
                break
            m = nxt[0]
            for p in list(h.predecessors(m)):
                if p == t:
                    continue
                if h.nodes[p].get("kind") == "constant" and h.out_degree(p) == 1:
                    h.remove_node(p)       # a repeat's own constant folds with it
                else:
                    h.add_edge(p, n, index=h.edges[p, m].get("index", 0))
            for s in list(h.successors(m)):
                h.add_edge(n, s, index=0)
            h.remove_node(t)
            h.remove_node(m)
            h.nodes[n]["repeat"] = h.nodes[n].get("repeat", 1) + 1
            merged += 1
    for n, data in h.nodes(data=True):
        if data.get("repeat"):
            data["label"] = f"{data['op']} ×{data['repeat']}"
    return h, {"original_nodes": g.number_of_nodes(), "nodes": h.number_of_nodes(),
               "folded_repeats": merged}
