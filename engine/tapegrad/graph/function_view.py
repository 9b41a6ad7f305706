"""The traced graphs of ``tf.function``s as graph documents the page's pane draws.

``function_graph_doc(graph)`` turns one concrete function's ``.graph`` (a ``FuncGraph``: its
operations with their types, inputs and outputs) into a version 1 graph document
(docs/graph-json.md) of one "tape" with no gradient calls: each input (``Placeholder``) and
constant (``Const``) a source node, each other operation an op node labelled by its type
(``MatMul``, ``AddV2``, ``ReadVariableOp``, ``Identity``) followed by its output tensors, laid out
as the tape's graph is. ``traced_functions(functions)`` lists, for each ``tf.function`` that
traced, its traces in order (the first, then each retrace with the signature that caused it),
each with that document: the playground sends it with the run's graph (field ``functions``).
"""
from ..function.func_graph import FuncGraph, _flat
from ..function.graph import _Out
from ..function.keys import tensor_dims
from ..function.polymorphic import Function
from ..function.symbolic import GraphTensorView
from ..tensor_spec import TensorSpec
from .dag import Dag
from .layout import NODE_SIZE, layered_layout

_SOURCES = {"Placeholder": "watched", "Const": "constant"}


def function_graph_doc(graph, label="graph"):
    """The graph document of a ``FuncGraph`` (see the module docstring); ``label`` names its
    one tape in the pane's selector."""
    g, forward, ids = Dag(), [], {}
    for k, op in enumerate(graph.get_operations()):
        kind = _SOURCES.get(op.type)
        if kind is not None:              # an input or constant: its output is the node
            for t in op.outputs:
                ids[t.name] = nid = f"t{len(ids)}"
                g.add_node(nid, kind=kind, label=op.name, name=op.name, op=op.type,
                           value=_value(t), order=len(g))
            continue
        oid = f"o{k}"
        g.add_node(oid, kind="op", label=op.type, name=op.name, op=op.type, attrs={},
                   order=len(g))
        for index, t in enumerate(op.inputs):
            if t.name in ids:
                g.add_edge(ids[t.name], oid, index=index)
        # (an Identity is the function's output: its box ends the graph, with no tensor after it)
        outputs = [] if op.type == "Identity" else op.outputs
        for t in outputs:
            ids[t.name] = tid = f"t{len(ids)}"
            g.add_node(tid, kind="tensor", label=t.name, value=_value(t), order=len(g))
            g.add_edge(oid, tid, index=0)
        forward.append({"op": oid, "output": ids[outputs[0].name] if outputs else oid,
                        "record": len(forward), "line": None})
    coords, layers = layered_layout(g)
    nodes = []
    for n, data in g.nodes(data=True):
        x, y = coords[n]
        w, h = NODE_SIZE[data["kind"]]
        if data["kind"] == "op":           # wide enough for the type's whole name (ReadVariableOp)
            w = max(w, 8 * len(data["label"]) + 20)
        nodes.append({"id": n, **{k: v for k, v in data.items() if k != "order"},
                      "tapes": [0], "x": x, "y": y, "w": w, "h": h})
    edges = [{"source": u, "target": v, "index": d.get("index", 0)} for u, v, d in g.edges(data=True)]
    forward = [s for s in forward if s["output"] != s["op"]]   # (an op without outputs: no step)
    return {"version": 1, "nodes": nodes, "edges": edges, "groups": [],
            "tapes": [{"id": 0, "label": label, "name": None, "persistent": False,
                       "watch_accessed_variables": True, "forward": forward, "gradients": []}],
            "layout": {"width": max((c[0] for c in coords.values()), default=0) + 120,
                       "height": max((c[1] for c in coords.values()), default=0) + 80,
                       "layers": len(layers)},
            "summarized": None}


def _value(t):
    """A graph tensor's value summary: its shape and dtype (a graph holds no values)."""
    dims = getattr(t, "_dims", None)
    dtype = getattr(t.dtype, "name", str(t.dtype))
    return {"shape": None if dims is None else list(dims), "dtype": dtype,
            "text": f"{'?' if dims is None else tuple(dims)} {dtype}"}


def traced_functions(functions):
    """``[{"name", "traces": [{"index", "retrace", "signature", "text", "graph"}]}]`` for each
    ``tf.function`` of ``functions`` (any objects: others are skipped) that traced, in the order
    given; ``text`` is the pane's entry for the trace (``trace 2 (retrace): x: TensorSpec(...)``)
    and ``graph`` its graph document."""
    out, seen = [], set()
    for f in functions:
        if not isinstance(f, Function) or id(f) in seen or not f._traces:
            continue
        seen.add(id(f))
        traces = []
        for pattern in f._traces:
            graph = _func_graph(f, pattern)
            if graph is None:
                continue
            n = len(traces) + 1
            signature = _signature_text(f, pattern)
            text = f"trace {n}" + (" (retrace)" if n > 1 else "") + f": {signature}"
            traces.append({"index": n, "retrace": n > 1, "signature": signature, "text": text,
                           "graph": function_graph_doc(graph, f"{f.name}, trace {n}")})
        if traces:
            out.append({"name": f.name, "traces": traces})
    return out


def _func_graph(f, pattern):
    """The ``FuncGraph`` of trace ``pattern`` of ``f``: its concrete function's when it has one,
    else made from the graph the first call of the trace recorded (None if none was)."""
    concrete = f._concrete.get(pattern)
    if concrete is not None:
        return concrete.graph
    recorded = next(iter(f._graphs.get(pattern, {}).values()), None)
    if recorded is None:
        return None
    names = _leaf_names(f, pattern)
    views = []
    for (i, slot) in recorded.inputs:
        seen = recorded.example(slot)
        views.append(GraphTensorView(f"{names[i] if i < len(names) else f'args_{i}'}:0",
                                     tuple(seen.shape), seen.dtype))
    outs = [x for x in _flat(recorded.outputs) if isinstance(x, _Out)]
    out_views = [GraphTensorView("Identity:0" if k == 0 else f"Identity_{k}:0",
                                 tuple(recorded.example(x.i).shape), recorded.example(x.i).dtype)
                 for k, x in enumerate(outs)]
    return FuncGraph(f"__inference_{f.name}", recorded, views, out_views)


def _leaf_names(f, pattern):
    """Each tensor leaf's name, as TensorFlow names a trace's inputs (``x``, ``x_1``...)."""
    names = []
    for name, key in zip(f._signature.parameters, pattern[1]):
        count = len(tensor_dims(("tuple", (key,))))
        names += [name if i == 0 else f"{name}_{i}" for i in range(count)]
    return names


def _signature_text(f, pattern):
    """``x: TensorSpec(shape=(3,), dtype=tf.float32, name=None)`` for each parameter."""
    parts = []
    for name, key in zip(f._signature.parameters, pattern[1]):
        if isinstance(key, tuple) and len(key) == 3 and key[0] == "tensor":
            parts.append(f"{name}: {TensorSpec(key[1], key[2])!r}")
        else:
            parts.append(f"{name}: {key!r}")
    return ", ".join(parts)
