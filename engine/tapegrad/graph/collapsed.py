"""The collapsed view of a tape too big to lay out node by node (docs/graph-json.md, "Big tapes").

Ops are taken in the order they ran (their output's id) and consecutive ops with the same key
fold into one box: the outermost group (a user function, a Keras layer or model, a name scope)
or, outside groups, the source line. Past ``MAX_BOXES`` boxes, consecutive boxes merge into
blocks of about equal op counts. An op's inputs ran before it, so every edge between boxes goes
from an earlier box to a later one: the boxes form a DAG, and only they (with the variables and
watched tensors, drawn on their own) are laid out.
"""
from ..backend import host as np
from .compact import KINDS, PREFIX
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
    nodes drawn on their own a position. Returns the boxes as groups, the layout, the count and
    the shape each drawn edge carries (as the page names it: "4", "2×3", "scalar"; None where its
    edges carry different shapes; for the preview, ``preview_doc``).
    (The columns are read as NumPy arrays: a big tape has tens of thousands of nodes.)"""
    c, tables = cols.cols, cols.t.tables
    kinds = np.asarray(c["kind"], dtype=np.int8)
    ops = _ops_in_order(c["id"], np.flatnonzero(kinds == OP))
    units = _units(c, tables, ops)
    box_of = _assign(kinds, cols.edges, units)
    alone = np.flatnonzero(box_of < 0).tolist()
    dag = Dag()
    for i, (_, members) in enumerate(units):
        dag.add_node(("u", i), order=int(members[0]), kind="group")
    for row in alone:
        dag.add_node(("n", row), order=row, kind=KINDS[c["kind"][row]])
    carried, shapes = _carried(box_of, cols.edges, len(units), _shape_ids(c, tables))
    for a, b, n in carried:
        dag.add_edge(a, b, count=n)
    coords, layers = layered_layout(dag)
    for row in alone:
        c["x"][row], c["y"][row] = coords[("n", row)]
        c["size"][row] = cols.t.add("sizes", list(NODE_SIZE[KINDS[c["kind"][row]]]))
    groups = _boxes(c, tables, units, box_of, coords)
    ids = {("u", i): f"u:{i}" for i in range(len(units))}
    ids.update((("n", row), _node_id(c, row)) for row in alone)
    layout = {"width": max((x for x, _ in coords.values()), default=0) + 120,
              "height": max((y for _, y in coords.values()), default=0) + 80,
              "layers": len(layers), "collapsed": True,
              "edges": [[ids[a], ids[b], n] for a, b, n in carried]}
    return groups, layout, len(units), shapes


def _ops_in_order(ids, ops):
    """The op rows in the order they ran: by their id (an output's number; 0 for a named one)."""
    try:
        numbers = np.asarray(ids, dtype=np.int64)[ops]
    except (TypeError, ValueError):       # some node has a name for an id
        numbers = np.array([ids[r] if ids[r].__class__ is int else 0 for r in ops.tolist()],
                           dtype=np.int64)
    return ops[np.argsort(numbers, kind="stable")]


def _node_id(c, row):
    number = c["id"][row]
    return PREFIX.get(KINDS[c["kind"][row]], "t") + str(number) if number.__class__ is int else number


def _boxes(c, tables, units, box_of, coords):
    """Each unit as a group with its box and its member rows (ops, outputs, constants)."""
    order = np.argsort(box_of, kind="stable")
    starts = np.searchsorted(box_of[order], np.arange(len(units) + 1))
    gw, gh = NODE_SIZE["group"]
    groups = []
    done = 0
    for i, (key, ops_in) in enumerate(units):
        label, sub = _describe(key, ops_in, c, tables, done)
        done += len(ops_in)
        x, y = coords[("u", i)]
        groups.append({"id": f"u:{i}", "label": label, "sub": sub, "parent": None,
                       "nodes": order[starts[i]:starts[i + 1]].tolist(), "box": [x, y, gw, gh],
                       "ops": len(ops_in)})
    return groups


def _carried(box_of, edges, n_units, shape_ids):
    """[(from, to, count)]: the edges between drawn items (("u", box) or ("n", row)) and how many
    edges of the graph each carries, in the order they first occur; and the shape each carries
    (``shape_ids``: (each row's shape's index, the shapes); None where they differ)."""
    src, dst = np.asarray(edges["source"], dtype=np.int64), np.asarray(edges["target"], dtype=np.int64)
    n = len(box_of)
    vis = np.where(box_of >= 0, box_of, n_units + np.arange(n))
    vs, vt = vis[src], vis[dst]
    keep = vs != vt
    pairs = vs[keep] * (n_units + n) + vt[keep]
    uniq, first, inverse, counts = np.unique(pairs, return_index=True, return_inverse=True,
                                             return_counts=True)
    of_row, names = shape_ids
    carried = of_row[src[keep]]
    low = np.full(len(uniq), len(names), dtype=np.int64)
    high = np.full(len(uniq), -1, dtype=np.int64)
    np.minimum.at(low, inverse.ravel(), carried)
    np.maximum.at(high, inverse.ravel(), carried)
    item = (lambda v: ("u", v) if v < n_units else ("n", v - n_units))
    out, shapes = [], []
    for k in np.argsort(first, kind="stable").tolist():
        a, b = divmod(int(uniq[k]), n_units + n)
        out.append((item(a), item(b), int(counts[k])))
        shapes.append(names[int(low[k])] if low[k] == high[k] else None)
    return out, shapes


def _shape_ids(c, tables):
    """(each row's index into the list of shape names, that list): the name of a row's value's
    shape as the page writes it on an edge ("4", "2×3", "scalar"; None when it has none)."""
    names, index, of_value = [], {}, []
    for v in [*tables["values"], None]:          # (the last one: a row with no value, -1)
        shape = v.get("shape") if isinstance(v, dict) else None
        name = ("×".join("" if d is None else str(d) for d in shape) or "scalar"
                if isinstance(shape, list) else None)
        if name not in index:
            index[name] = len(names)
            names.append(name)
        of_value.append(index[name])
    return np.asarray(of_value, dtype=np.int64)[np.asarray(c["value"], dtype=np.int64)], names


def _keys(c, tables, ops, depth):
    """Each op's box key, as an index into the list of distinct keys: ("group", its group path
    cut at ``depth``) or, for an op in fewer groups, ("line", its group path, file, line); and
    the longest group path. Ops share a key through their (scope, source) pair."""
    scope = np.asarray(c["scope"], dtype=np.int64)[ops]
    where = np.asarray(c["where"], dtype=np.int64)[ops]
    width = len(tables["sources"]) + 2
    pairs, inverse = np.unique((scope + 1) * width + (where + 1), return_inverse=True)
    distinct, index_of, of_pair = [], {}, []
    deepest = 0
    for code in pairs.tolist():
        s, w = divmod(code, width)
        scope_list = tables["lists"][s - 1] if s > 0 else []
        src = tables["sources"][w - 1] if w > 0 else [None, None, None]
        path = tuple(group_path(src[2], scope_list))
        key = ("group", path[:depth]) if len(path) >= depth else ("line", path, src[0], src[1])
        deepest = max(deepest, len(path))
        if key not in index_of:
            index_of[key] = len(distinct)
            distinct.append(key)
        of_pair.append(index_of[key])
    return distinct, np.asarray(of_pair, dtype=np.int64)[inverse.ravel()], deepest


def _units(c, tables, ops):
    """The boxes: runs of ops with one key, at the shallowest group depth (up to 4) that gives
    at least MIN_BOXES of them (else the one that gives most), merged into blocks past
    MAX_BOXES."""
    units = []
    for depth in range(1, 5):
        distinct, keys, deepest = _keys(c, tables, ops, depth)
        deeper = _runs(ops, distinct, keys)
        if len(deeper) > len(units):
            units = deeper
        if len(units) >= MIN_BOXES or deepest < depth:     # (deeper keys would be the same)
            break
    return _blocks(units, len(ops)) if len(units) > MAX_BOXES else units


def _runs(ops, distinct, keys):
    """[(key, op rows)]: maximal runs of consecutive ops with the same key."""
    if not len(ops):
        return []
    starts = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), len(ops)]
    return [(distinct[keys[a]], ops[a:b]) for a, b in zip(starts, starts[1:])]


def _blocks(units, total):
    """Consecutive units merged into at most about MAX_BOXES blocks of similar op counts."""
    target = -(-total // MAX_BOXES)
    blocks, size = [], 0
    for _key, rows in units:
        if blocks and size < target:
            blocks[-1].append(rows)
            size += len(rows)
        else:
            blocks.append([rows])
            size = len(rows)
    return [(("block",), np.concatenate(parts)) for parts in blocks]


def _assign(kinds, edges, units):
    """Each node's box (-1: drawn on its own): an op's, its output's and its constants' are the
    op's box (the first edge that links them decides); variables, watched tensors and unconsumed
    inputs stand alone."""
    box_of = np.full(len(kinds), -1, dtype=np.int64)
    for i, (_, rows) in enumerate(units):
        box_of[rows] = i
    src, dst = np.asarray(edges["source"], dtype=np.int64), np.asarray(edges["target"], dtype=np.int64)
    ks, kt = kinds[src], kinds[dst]
    first = box_of.copy()
    out = (ks == OP) & (first[dst] < 0)            # an op's output goes into the op's box
    rows, at = np.unique(dst[out], return_index=True)
    box_of[rows] = first[src[out]][at]
    const = (kt == OP) & (ks == CONSTANT) & (first[src] < 0)   # a constant into its first op's
    rows, at = np.unique(src[const], return_index=True)
    box_of[rows] = first[dst[const]][at]
    return box_of


def _describe(key, ops, c, tables, before):
    """A box's label and the line under it (``before``: how many ops ran before its first)."""
    strings, sources = tables["strings"], tables["sources"]
    where = np.asarray(c["where"], dtype=np.int64)[ops]
    lines = [sources[w][1] for w in np.unique(where[where >= 0]).tolist()]
    lines = [n for n in lines if n is not None]
    where = (f"line {lines[0]}" if min(lines) == max(lines) else
             f"lines {min(lines)}–{max(lines)}") if lines else "no line"
    op = np.asarray(c["op"], dtype=np.int64)[ops]
    names, first, counts = np.unique(op[op >= 0], return_index=True, return_counts=True)
    top = sorted(zip((-counts).tolist(), first.tolist(), names.tolist()))[:3]
    text = ", ".join(strings[n] for *_, n in top[:2]) + ("…" if len(top) > 2 else "")
    if key[0] == "group":
        return group_label(key[1][-1]), f"{len(ops)} ops, {where}"
    if key[0] == "block":
        return f"ops {before + 1}–{before + len(ops)}", f"{text}, {where}"
    return f"{text} ×{len(ops)}", where
