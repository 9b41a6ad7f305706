"""The collapsed view of a tape too big to lay out node by node (docs/graph-json.md, "Big tapes").

Ops are taken in the order they ran (their output's id) and consecutive ops with the same key
fold into one box: the outermost group (a user function, a Keras layer or model, a name scope)
or, outside groups, the source line. Past ``MAX_BOXES`` boxes, consecutive boxes merge into
blocks of about equal op counts. An op's inputs ran before it, so every edge between boxes goes
from an earlier box to a later one: the boxes form a DAG, and only they (with the variables and
watched tensors, drawn on their own) are laid out.
"""
from collections import Counter

from .compact import KINDS
from .dag import Dag
from .layout import NODE_SIZE, layered_layout

MAX_BOXES = 60         # more boxes than this merge into blocks (a readable overview)
MIN_BOXES = 3        # fewer boxes than this: look one group level deeper
OP, TENSOR, CONSTANT = (KINDS.index(k) for k in ("op", "tensor", "constant"))


def group_label(part):
    """"f()" for a user function's group part ("function:f"), "dense (Dense)" for a layer's,
    "digits_cnn (Sequential)" for a Keras model's ("model:Sequential:digits_cnn"), "outer
    (name_scope)" and "step (tf.function)" for a name scope's and a tf.function call's, "replica
    0 (replica)" for a tf.distribute replica's step ("replica:0")."""
    kind, _, name = part.partition(":")
    if kind == "model":
        kind, _, name = name.partition(":")
    if kind == "replica":
        name = f"replica {name}"
    return f"{name}()" if kind == "function" else f"{name} ({kind})"


def group_path(function, scope):
    """An op's groups, outermost first: the user function it ran in ("function:f"), then its
    scopes (Keras model, layers, tf.function calls, name scopes). The function is left out at
    module level, when its first scope is its own tf.function call ("tf.function:f"), inside a
    Keras model (the model is the group: its custom layers' ``call`` methods run in other
    functions than its built-in layers) and for a layer's own ``call``."""
    path = list(scope or ())
    first = path[0] if path else ""
    if (function and function != "<module>" and first != f"tf.function:{function}"
            and not first.startswith("model:") and not (function == "call" and path)):
        path.insert(0, f"function:{function}")
    return path


def group_kind(part):
    """What a group part stands for: "function" (the user's), "model", "layer", "name_scope",
    "tf.function" or "replica" (docs/graph-json.md, groups)."""
    kind = part.partition(":")[0]
    return kind if kind in ("function", "model", "name_scope", "tf.function", "replica") \
        else "layer"


def collapse(cols):
    """Folds the nodes of ``cols`` (compact.NodeColumns) into boxes and lays them out; gives the
    nodes drawn on their own a position. Returns the boxes as groups, the layout and the count."""
    c, tables = cols.cols, cols.t.tables
    ops = sorted((r for r, k in enumerate(c["kind"]) if k == OP),
                 key=lambda r: c["id"][r] if isinstance(c["id"][r], int) else 0)
    units = _units(c, tables, ops)
    box_of = _assign(c, cols.edges, units)
    dag = Dag()
    for i, (_, members) in enumerate(units):
        dag.add_node(("u", i), order=members[0], kind="group")
    for row, b in enumerate(box_of):
        if b is None:
            dag.add_node(("n", row), order=row, kind=KINDS[c["kind"][row]])
    vis = [("n", row) if b is None else ("u", b) for row, b in enumerate(box_of)]
    carried = Counter((vis[s], vis[t]) for s, t in zip(cols.edges["source"], cols.edges["target"])
                      if vis[s] != vis[t])
    for (a, b), n in carried.items():
        dag.add_edge(a, b, count=n)
    coords, layers = layered_layout(dag)
    members = [[] for _ in units]
    for row, b in enumerate(box_of):
        if b is not None:
            members[b].append(row)
        else:
            x, y = coords[("n", row)]
            c["x"][row], c["y"][row] = x, y
            c["size"][row] = cols.t.add("sizes", list(NODE_SIZE[KINDS[c["kind"][row]]]))
    gw, gh = NODE_SIZE["group"]
    groups = []
    done = 0
    for i, (key, ops_in) in enumerate(units):
        label, sub = _describe(key, ops_in, c, tables, done)
        done += len(ops_in)
        x, y = coords[("u", i)]
        groups.append({"id": f"u:{i}", "label": label, "sub": sub,
                       "parent": None, "nodes": members[i], "box": [x, y, gw, gh],
                       "ops": len(ops_in)})
    ids = {("u", i): f"u:{i}" for i in range(len(units))}
    ids.update((("n", row), nid) for nid, row in cols.index.items() if box_of[row] is None)
    layout = {"width": max((x for x, _ in coords.values()), default=0) + 120,
              "height": max((y for _, y in coords.values()), default=0) + 80,
              "layers": len(layers), "collapsed": True,
              "edges": [[ids[a], ids[b], n] for (a, b), n in carried.items()]}
    return groups, layout, len(units)


def _keys(c, tables, ops, depth):
    """Each op's box key: ("group", its group path cut at ``depth``) or, for an op in fewer
    groups, ("line", its group path, file, line); and the longest group path."""
    cache = {}
    keys = []
    deepest = 0
    for r in ops:
        k = (c["scope"][r], c["where"][r])
        key = cache.get(k)
        if key is None:
            scope = tables["lists"][k[0]] if k[0] >= 0 else []
            where = tables["sources"][k[1]] if k[1] >= 0 else [None, None, None]
            fn = where[2]
            path = tuple(group_path(fn, scope))
            key = cache[k] = (("group", path[:depth]) if len(path) >= depth else
                              ("line", path, where[0], where[1]))
            deepest = max(deepest, len(path))
        keys.append(key)
    return keys, deepest


def _units(c, tables, ops):
    """The boxes: runs of ops with one key, at the shallowest group depth (up to 4) that gives
    at least MIN_BOXES of them (else the one that gives most), merged into blocks past
    MAX_BOXES."""
    units = []
    for depth in range(1, 5):
        keys, deepest = _keys(c, tables, ops, depth)
        deeper = _runs(ops, keys)
        if len(deeper) > len(units):
            units = deeper
        if len(units) >= MIN_BOXES or deepest < depth:     # (deeper keys would be the same)
            break
    return _blocks(units, len(ops)) if len(units) > MAX_BOXES else units


def _runs(ops, keys):
    """[(key, [op rows])]: maximal runs of consecutive ops with the same key."""
    units = []
    for r, key in zip(ops, keys):
        if units and units[-1][0] == key:
            units[-1][1].append(r)
        else:
            units.append((key, [r]))
    return units


def _blocks(units, total):
    """Consecutive units merged into at most about MAX_BOXES blocks of similar op counts."""
    target = -(-total // MAX_BOXES)
    blocks = []
    for key, rows in units:
        if blocks and len(blocks[-1][1]) < target:
            blocks[-1][1].extend(rows)
        else:
            blocks.append((("block",), list(rows)))
    return blocks


def _assign(c, edges, units):
    """Each node's box (None: drawn on its own): an op's, its output's and its constants' are
    the op's box; variables, watched tensors and unconsumed inputs stand alone."""
    box_of = [None] * len(c["kind"])
    for i, (_, rows) in enumerate(units):
        for r in rows:
            box_of[r] = i
    kinds = c["kind"]
    for s, t in zip(edges["source"], edges["target"]):
        if kinds[s] == OP and box_of[t] is None:
            box_of[t] = box_of[s]
        elif kinds[t] == OP and kinds[s] == CONSTANT and box_of[s] is None:
            box_of[s] = box_of[t]
    return box_of


def _describe(key, ops, c, tables, before):
    """A box's label and the line under it (``before``: how many ops ran before its first)."""
    strings = tables["strings"]
    lines = [tables["sources"][c["where"][r]][1] for r in ops if c["where"][r] >= 0]
    lines = [n for n in lines if n is not None]
    where = (f"line {lines[0]}" if min(lines) == max(lines) else
             f"lines {min(lines)}–{max(lines)}") if lines else "no line"
    names = Counter(strings[c["op"][r]] for r in ops if c["op"][r] >= 0).most_common(3)
    text = ", ".join(n for n, _ in names[:2]) + ("…" if len(names) > 2 else "")
    if key[0] == "group":
        return group_label(key[1][-1]), f"{len(ops)} ops, {where}"
    if key[0] == "block":
        return f"ops {before + 1}–{before + len(ops)}", f"{text}, {where}"
    return f"{text} ×{len(ops)}", where
