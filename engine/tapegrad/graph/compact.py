"""The compact form of the graph JSON (version 2, docs/graph-json.md).

Strings, values, lists, source lines and node sizes are stored once each in tables; nodes, edges,
forward streams and backward events are columns of small integers that index them (-1: the field
is absent), so the document grows linearly with the tape. ``compact(doc)`` encodes the document
``export_dict`` builds (version 1), ``expand(doc)`` decodes it back to the same nodes, edges,
groups and tapes; the page decodes it once, in web/src/graph/compact.js.

>>> doc = {"version": 1, "nodes": [{"id": "o3", "kind": "op", "label": "Mul", "x": 1, "y": 2}],
...        "edges": [], "groups": [], "tapes": [], "layout": {}, "summarized": None}
>>> expand(compact(doc)) == doc
True
"""
VERSION = 2
from ..backend import host as np

KINDS = ("variable", "watched", "constant", "op", "tensor")
PREFIX = {"variable": "v", "op": "o"}           # the id's letter; the other kinds are "t"
WHERE = ("file", "line", "function")
# node columns: field -> the table its values index ("where" is file, line and function together)
COLUMNS = {"label": "strings", "op": "strings", "value": "values", "tapes": "lists",
           "scope": "lists", "attrs": "objects", "where": "sources", "group": "strings",
           "size": "sizes", "rest": "objects"}
CONTRIBUTION = ("value", "summed", "pruned", "none")   # codes 0..3 of a contribution
_ABSENT = object()
FIELDS = ("kind", "x", "y", *(k for k in COLUMNS if k != "tapes"))   # a row's interned fields


class Tables:
    """Interned values: each distinct value stored once, referenced by its index."""

    def __init__(self):
        self.tables = {name: [] for name in ("strings", "values", "lists", "objects", "sources",
                                             "sizes", "fields")}
        self._keys = {name: {} for name in self.tables}
        self._by_object = {}      # id(value) -> (table, index), for values kept in a table

    def add(self, table, value):
        """The index of ``value`` in ``table`` (added when new)."""
        if value.__class__ is str:
            key = value
        else:
            known = self._by_object.get(id(value))
            if known is not None and known[0] == table:
                return known[1]
            key = _quick_key(value)
        keys = self._keys[table]
        try:
            index = keys.get(key)
        except TypeError:                    # a list or dict inside: the slower exact key
            key = _freeze(value)
            index = keys.get(key)
        if index is None:
            index = keys[key] = len(self.tables[table])
            self.tables[table].append(value)
            if value.__class__ is not str:
                self._by_object[id(value)] = (table, index)
        return index


def _quick_key(v):
    """A key of a flat dict, list or tuple (unhashable if something inside is a list or dict)."""
    cls = v.__class__
    if cls is dict:
        return (dict, tuple(v.items()), tuple(map(type, v.values())))
    if cls is list or cls is tuple:
        return (list, tuple(v), tuple(map(type, v)))
    return (cls, v)


def _freeze(v):
    """A hashable key of a JSON value (1, 1.0 and True stay apart)."""
    if isinstance(v, dict):
        return (dict, tuple(sorted((k, _freeze(x)) for k, x in v.items())))
    if isinstance(v, (list, tuple)):
        return (list, tuple(_freeze(x) for x in v))
    return (v.__class__, v)


class NodeColumns:
    """The node columns, filled one node at a time (so a big export keeps no dict per node).

    Also serves the graph builder as its graph (``in``, ``add_node``, ``add_edge``). While nodes
    are added each is one tuple of interned fields; ``cols`` turns them into columns once."""

    def __init__(self, tables=None):
        self.t = tables or Tables()
        self.index = {}                          # node id -> row
        self.ids = []
        self.rows = []                           # row -> its FIELDS
        self.edges = {"source": [], "target": [], "index": []}
        self.tapes = []                          # row -> tuple of tape indices (or None)
        self.tensor_rows = {}                    # a tensor node's ("t" + number) number -> row
        self._cols = None
        self._tape_lists = {}
        self._columns = [(k, table) for k, table in COLUMNS.items() if k not in ("tapes", "rest")]

    def __contains__(self, nid):
        return nid in self.index

    def __len__(self):
        return len(self.index)

    @property
    def cols(self):
        """{column: [value per row]}, made from the rows on first use (no nodes added after)."""
        if self._cols is None:
            columns = list(zip(*self.rows)) or [()] * len(FIELDS)
            self._cols = {"id": self.ids, **{k: list(v) for k, v in zip(FIELDS, columns)}}
            self.rows = None
        return self._cols

    def _new_row(self, nid, kind, tapes, number=None):
        """A row for node ``nid`` (``number``: the number in its id, when the caller knows it)."""
        self.index[nid] = row = len(self.ids)
        if number is None:
            digits = nid[1:]
            number = (int(digits) if nid[:1] == PREFIX.get(kind, "t") and digits.isdigit()
                      and str(int(digits)) == digits else nid)
        if nid[:1] == "t" and number.__class__ is int:
            self.tensor_rows[number] = row
        self.ids.append(number)
        self.tapes.append(tapes if tapes is None or tapes.__class__ is tuple else tuple(tapes))
        return row

    def add_node(self, nid, kind, order=None, tapes=None, x=None, y=None, **attrs):
        row = self._new_row(nid, kind, tapes)
        if "file" in attrs and "line" in attrs and "function" in attrs:
            attrs["where"] = (attrs.pop("file"), attrs.pop("line"), attrs.pop("function"))
        if "w" in attrs and "h" in attrs:
            attrs["size"] = (attrs.pop("w"), attrs.pop("h"))
        add = self.t.add
        fields = [KINDS.index(kind), x, y]
        for k, table in self._columns:
            v = attrs.pop(k, _ABSENT)
            fields.append(-1 if v is _ABSENT else add(table, v))
        fields.append(add("objects", attrs) if attrs else -1)
        self.rows.append(tuple(fields))
        return row

    def template(self, row):
        """The interned fields of a row (all but id, tapes and position), for ``add_like``."""
        return self.rows[row]

    def add_like(self, nid, kind, tapes, template, number=None):
        """Adds a node whose fields are those of ``template`` (a big tape's repeated ops)."""
        row = self._new_row(nid, kind, tapes, number)
        self.rows.append(template)
        return row

    def add_op_pair(self, number, tapes, templates):
        """Adds op ``"o{number}"`` and its output ``"t{number}"`` with the fields of
        ``templates`` (their rows in a shortcut of the builder); returns the op's row."""
        row = len(self.ids)
        self.index[f"o{number}"] = row
        self.index[f"t{number}"] = row + 1
        self.tensor_rows[number] = row + 1
        self.ids += (number, number)
        self.tapes += (tapes, tapes)
        self.rows += templates
        return row

    def add_tapes(self, nid, tapes):
        row = self.index[nid]
        have = self.tapes[row] or ()
        more = tuple(t for t in tapes if t not in have)
        if more:
            self.tapes[row] = have + more

    def name_node(self, nid, name):
        """As ``GraphBuilder.name_node``, on a node already in the columns."""
        row = self.index[nid]
        fields = dict(zip(FIELDS, self.rows[row]))
        kind = KINDS[fields["kind"]]
        if kind == "op":
            return
        t = self.t
        i = fields["rest"]
        rest = dict(t.tables["objects"][i]) if i >= 0 else {}
        rest.setdefault("name", name)
        fields["rest"] = t.add("objects", rest)
        if kind in ("constant", "watched", "tensor"):
            fields["label"] = t.add("strings", name)
        self.rows[row] = tuple(fields.values())

    def add_edge(self, u, v, index=0):
        self.edges["source"].append(self.index[u])
        self.edges["target"].append(self.index[v])
        self.edges["index"].append(index)

    def finish(self):
        """{"id": [...], "fields": [...]}: each node's id and the index of its fields (FIELDS and
        its tapes) in the table "fields", where nodes alike (a big tape's) share one entry."""
        c = self.cols
        lists = self._tape_lists
        tapes = []
        for t in self.tapes:
            if t is not None and t not in lists:
                lists[t] = self.t.add("lists", list(t))
            tapes.append(-1 if t is None else lists[t])
        table = self.t.tables.setdefault("fields", [])
        known = {}
        rows = []
        for fields in zip(*(c[k] for k in FIELDS), tapes):
            i = known.get(fields)
            if i is None:
                i = known[fields] = len(table)
                table.append(list(fields))
            rows.append(i)
        return {"id": c["id"], "fields": rows}


def compact(doc):
    """The compact form (version 2) of a version 1 document; a version 2 one is returned as is."""
    if doc.get("version") == VERSION:
        return doc
    cols = NodeColumns()
    for n in doc["nodes"]:
        n = dict(n)
        cols.add_node(n.pop("id"), **n)
    for e in doc["edges"]:
        cols.add_edge(e["source"], e["target"], e.get("index", 0))
    out = {k: v for k, v in doc.items() if k not in ("nodes", "edges", "groups", "tapes")}
    out["version"] = VERSION
    out["nodes"] = cols.finish()
    out["edges"] = cols.edges
    out["groups"] = [{**g, "nodes": [cols.index[m] for m in g["nodes"]]} for g in doc["groups"]]
    out["tapes"] = [compact_tape(t, cols) for t in doc["tapes"]]
    out["tables"] = cols.t.tables
    return out


def compact_tape(tape, cols):
    """A tape's forward stream and gradient calls as columns of node rows."""
    row = cols.index
    fwd = tape["forward"]
    out = dict(tape)
    if not isinstance(fwd, dict):          # (a big tape's builder gives columns already)
        out["forward"] = {"op": [row[s["op"]] for s in fwd],
                          "output": [row[s["output"]] for s in fwd],
                          "record": [s["record"] for s in fwd], "line": [s["line"] for s in fwd]}
    out["gradients"] = [compact_call(c, cols) for c in tape["gradients"]]
    return out


def compact_call(call, cols):
    row = cols.index

    def ref(nid):
        return -1 if nid is None else row[nid]

    def value(v):
        return cols.t.add("values", v)

    events = call["events"]
    out = dict(call)
    out["targets"] = [{**t, "node": ref(t["node"])} for t in call["targets"]]
    out["results"] = [{**r, "node": ref(r["node"])} for r in call["results"]]
    out["unvisited"] = [row[n] for n in call["unvisited"]]
    if isinstance(events, dict):           # (a big tape's events are columns already)
        return out
    out["events"] = {
        "op": [row[e["op"]] for e in events], "output": [row[e["output"]] for e in events],
        "line": [e["line"] for e in events], "upstream": [value(e["upstream"]) for e in events],
        "parts": [len(e["contributions"]) for e in events],
        "contributions": [x for e in events for c in e["contributions"]
                          for x in _contribution(c, ref, value)]}
    return out


def _contribution(c, ref, value):
    """(to, index, code, value): code 0 a value, 1 a value summed into one already there,
    2 pruned, 3 none (value -1 for codes 2 and 3); an event's ``parts`` such quadruples follow
    one another in the flat list ``contributions``."""
    if c.get("pruned"):
        return [ref(c["to"]), c["index"], 2, -1]
    if c.get("none"):
        return [ref(c["to"]), c["index"], 3, -1]
    return [ref(c["to"]), c["index"], 1 if c.get("summed") else 0, value(c.get("value"))]


def preview_doc(doc, shapes, tapes):
    """The collapsed view alone of a big tape's compact document ``doc`` (made before its tapes'
    streams): a small version 1 document with ``"preview": true`` (docs/graph-json.md, "Preview")
    that the page draws while the whole one is exported and sent. Its nodes are those drawn on
    their own, its groups the boxes without their members (``"fixed": true``), it has no edges
    (``layout["edges"]`` gives the drawn ones, each with the shape it carries: ``shapes``) and
    ``tapes`` has each tape's fields without its forward stream and gradient calls."""
    tables, cols = doc["tables"], doc["nodes"]
    kinds = tables["fields"]
    rows = laid_out_rows(doc)
    ids = {}
    for row in rows:
        i = cols["id"][row]
        ids[row] = i if isinstance(i, str) else PREFIX.get(KINDS[kinds[cols["fields"][row]][0]],
                                                            "t") + str(i)
    layout = doc["layout"]
    return {"version": 1, "preview": True, "nodes": list(expand_nodes(cols, tables, ids, rows)),
            "edges": [], "groups": [{**g, "nodes": [], "fixed": True} for g in doc["groups"]],
            "tapes": [{**t, "forward": [], "gradients": []} for t in tapes],
            "layout": {**layout, "edges": [[*e, s] for e, s in zip(layout["edges"], shapes)]},
            "summarized": doc["summarized"]}


# -- back to version 1 ---------------------------------------------------------------------------
def expand(doc):
    """The version 1 document of a compact one (a version 1 one is returned as is)."""
    if doc.get("version") != VERSION:
        return doc
    tables = doc["tables"]
    ids = node_ids(doc["nodes"], tables)
    out = {k: v for k, v in doc.items() if k not in ("nodes", "edges", "groups", "tapes", "tables")}
    out["version"] = 1
    out["nodes"] = list(expand_nodes(doc["nodes"], tables, ids))
    e = doc["edges"]
    out["edges"] = [{"source": ids[s], "target": ids[t], "index": i}
                    for s, t, i in zip(e["source"], e["target"], e["index"])]
    out["groups"] = [{**g, "nodes": [ids[m] for m in g["nodes"]]} for g in doc["groups"]]
    out["tapes"] = [expand_tape(t, tables, ids) for t in doc["tapes"]]
    return out


def node_ids(cols, tables):
    kinds = [KINDS[f[0]] for f in tables["fields"]]
    return [i if isinstance(i, str) else PREFIX.get(kinds[f], "t") + str(i)
            for i, f in zip(cols["id"], cols["fields"])]


def laid_out_rows(doc):
    """The rows of the nodes that have a position of their own."""
    table = doc["tables"]["fields"]
    placed = {i for i, f in enumerate(table) if f[1] is not None}
    return [row for row, f in enumerate(doc["nodes"]["fields"]) if f in placed]


def expand_nodes(cols, tables, ids, rows=None):
    """Each node's version 1 dict, in order (only those of ``rows`` when given)."""
    table = tables["fields"]
    for row in range(len(ids)) if rows is None else rows:
        fields = dict(zip(FIELDS + ("tapes",), table[cols["fields"][row]]))
        n = {"id": ids[row], "kind": KINDS[fields["kind"]]}
        for k, table_name in COLUMNS.items():
            i = fields[k]
            if i < 0:
                continue
            v = tables[table_name][i]
            if k == "where":
                n.update(zip(WHERE, v))
            elif k == "size":
                n["w"], n["h"] = v
            elif k == "rest":
                n.update(v)
            else:
                n[k] = list(v) if table_name == "lists" else v
        if fields["x"] is not None:
            n["x"], n["y"] = fields["x"], fields["y"]
        yield n


def expand_tape(tape, tables, ids):
    fwd = tape["forward"]
    out = dict(tape)
    out["forward"] = [{"step": i, "op": ids[o], "output": ids[t], "record": r, "line": line}
                      for i, (o, t, r, line) in enumerate(zip(fwd["op"], fwd["output"],
                                                              fwd["record"], fwd["line"]))]
    out["gradients"] = [expand_call(c, tables, ids) for c in tape["gradients"]]
    return out


def expand_call(call, tables, ids):
    values = tables["values"]

    def node(i):
        return None if i < 0 else ids[i]

    ev = call["events"]
    out = dict(call)
    out["targets"] = [{**t, "node": node(t["node"])} for t in call["targets"]]
    out["results"] = [{**r, "node": node(r["node"])} for r in call["results"]]
    out["unvisited"] = [ids[i] for i in call["unvisited"]]
    out["events"] = []
    flat = ev["contributions"]
    at = 0
    for step, (op, output, line, up, n) in enumerate(zip(ev["op"], ev["output"], ev["line"],
                                                         ev["upstream"], ev["parts"])):
        contributions = []
        for to, index, code, value in zip(*[iter(flat[at:at + 4 * n])] * 4):
            c = {"to": node(to), "index": index}
            if code >= 2:
                c[CONTRIBUTION[code]] = True
            else:
                c["value"] = values[value]
                c["summed"] = code == 1
            contributions.append(c)
        at += 4 * n
        out["events"].append({"step": step, "op": ids[op], "output": ids[output],
                              "upstream": values[up], "contributions": contributions,
                              "line": line})
    return out


# -- a big tape's box view: its collapsed view with the steps of its boxes -----------------------
MEMBERS_PAGE = 200     # members of a box sent per request (box_members)


def box_view(doc, preview):
    """The document the page holds of a big tape (docs/graph-json.md, "The box view"): its
    collapsed view ``preview`` (``preview_doc``'s, made from the compact document ``doc``) with
    each tape's forward stream and backward events at the level of what is drawn: consecutive
    steps whose op lies in one box are one step of that box (``"count"``: how many), and an event
    sends its gradients along the drawn edges into the box. Its members stay with ``doc``
    (``box_members``); its size is the boxes', not the tape's."""
    items = _items_of_rows(doc, preview)
    tapes = [{**meta, "forward": _box_forward(t["forward"], items),
              "gradients": [_box_call(c, items) for c in t["gradients"]]}
             for meta, t in zip(preview["tapes"], doc["tapes"])]
    out = {k: v for k, v in preview.items() if k != "preview"}
    out["tapes"] = tapes
    out["boxes"] = True
    return out


def _items_of_rows(doc, preview):
    """Each row's drawn item as a number (-1: none) and the items' ids: the boxes', then the
    nodes' drawn on their own."""
    names = [g["id"] for g in doc["groups"]]
    item = np.full(len(doc["nodes"]["id"]), -1, dtype=np.intp)
    for k, g in enumerate(doc["groups"]):
        item[np.asarray(g["nodes"], dtype=np.intp)] = k
    placed = [i for i, f in enumerate(doc["tables"]["fields"]) if f[1] is not None]
    rows = np.flatnonzero(np.isin(np.asarray(doc["nodes"]["fields"]), placed)).tolist()
    ids = node_ids({"id": [doc["nodes"]["id"][r] for r in rows],
                    "fields": [doc["nodes"]["fields"][r] for r in rows]}, doc["tables"])
    drawn = {n["id"] for n in preview["nodes"]}
    for row, i in zip(rows, ids):
        if item[row] < 0 and i in drawn:
            item[row] = len(names)
            names.append(i)
    return item, names


def _runs(keys):
    """The start of each run of equal consecutive keys (an array), and the run of each key."""
    change = np.ones(len(keys), dtype=bool)
    change[1:] = keys[1:] != keys[:-1]
    return np.flatnonzero(change), np.cumsum(change) - 1


def _box_forward(fwd, items):
    item, names = items
    ops = item[np.asarray(fwd["op"], dtype=np.intp)]
    starts, _ = _runs(ops)
    ends = np.append(starts[1:], len(ops))
    return [{"step": k, "op": names[ops[a]], "output": names[ops[a]], "record": fwd["record"][a],
             "line": fwd["line"][a], "count": int(b - a)}
            for k, (a, b) in enumerate(zip(starts.tolist(), ends.tolist()))]


def _box_call(call, items):
    """A gradient call's events as steps of the drawn items; targets, results and unvisited
    ops named by their drawn item."""
    item, names = items
    ev = call["events"]
    ops = item[np.asarray(ev["op"], dtype=np.intp)]
    starts, run_of = _runs(ops)
    ends = np.append(starts[1:], len(ops))
    flat = np.asarray(ev["contributions"], dtype=np.intp).reshape(-1, 4)
    run = np.repeat(run_of, np.asarray(ev["parts"], dtype=np.intp))
    to = np.where(flat[:, 0] >= 0, item[np.maximum(flat[:, 0], 0)], -1)
    keep = (to >= 0) & (to != ops[starts[run]] if len(run) else to >= 0)
    sent = [{} for _ in starts]             # per run: drawn item -> codes of what it was sent
    for r, t, code in set(zip(run[keep].tolist(), to[keep].tolist(), flat[keep, 2].tolist())):
        sent[r].setdefault(t, set()).add(code)
    events = [{"step": k, "op": names[ops[a]], "output": names[ops[a]], "upstream": None,
               "line": ev["line"][a], "count": int(b - a),
               "contributions": [_box_contribution(names[t], c) for t, c in sorted(sent[k].items())]}
              for k, (a, b) in enumerate(zip(starts.tolist(), ends.tolist()))]
    ran = set(ops.tolist())
    unvisited = {int(i) for i in item[np.asarray(call["unvisited"], dtype=np.intp)]} - ran - {-1}
    return {**call, "events": events,
            "targets": [{**t, "node": _item(items, t["node"])} for t in call["targets"]],
            "results": [{**r, "node": _item(items, r["node"])} for r in call["results"]],
            "unvisited": [names[i] for i in sorted(unvisited)]}


def _item(items, row):
    item, names = items
    return None if row < 0 or item[row] < 0 else names[item[row]]


def _box_contribution(to, codes):
    """What a run of events sent one drawn item: pruned or None only when all of it was."""
    if codes <= {2}:
        return {"to": to, "index": 0, "pruned": True}
    if codes <= {3}:
        return {"to": to, "index": 0, "none": True}
    return {"to": to, "index": 0, "value": None, "summed": 1 in codes}


def box_members(doc, group, start=0, count=MEMBERS_PAGE):
    """Members ``start`` to ``start + count`` of the box ``group`` of the compact document ``doc``
    (the page asks for them when a box is opened): ``{"group", "total", "start", "members"}``,
    each member ``{"id", "kind", "label", "op", "shape", "dtype", "line"}`` (absent fields left
    out); ``total`` is -1 for a group the document does not have."""
    box = next((g for g in doc["groups"] if g["id"] == group), None)
    if box is None:
        return {"group": group, "total": -1, "start": start, "members": []}
    rows = box["nodes"][start:start + count]
    tables, cols = doc["tables"], doc["nodes"]
    ids = {}
    for row in rows:
        i = cols["id"][row]
        kind = KINDS[tables["fields"][cols["fields"][row]][0]]
        ids[row] = i if isinstance(i, str) else PREFIX.get(kind, "t") + str(i)
    members = []
    for n in expand_nodes(cols, tables, ids, rows):
        value = n.get("value") or {}
        m = {"id": n["id"], "kind": n["kind"], "label": n.get("label"), "op": n.get("op"),
             "shape": value.get("shape"), "dtype": value.get("dtype"), "line": n.get("line")}
        members.append({k: v for k, v in m.items() if v is not None})
    return {"group": group, "total": len(box["nodes"]), "start": start, "members": members}
