"""``tf.saved_model.load``: the object a SavedModel directory describes, its variables restored as
``tf.Variable``s and its functions as callables that replay the saved graphs (see
docs/saved-model.md)."""
import io
import json
import os
import types

from .. import dtypes, replayed
from ..backend import host as np
from ..function.graph import ASSIGN, CALL, OP, READ, VJP, TraceGraph, _saved_vjps
from ..primitives import TABLE
from ..tensor import wrap
from ..variables import Variable
from . import dims
from .encoding import decode
from .restored import RestoredConcreteFunction, RestoredFunction, SignatureMap
from .saving import CONSTANTS_FILE, FORMAT, MODEL_FILE, VARIABLES_FILE


class _UserObject:
    """A restored object: its attributes are the saved ones (variables, functions, objects)."""


class _CallableUserObject(_UserObject):
    """A restored object that had a ``__call__`` ``tf.function``: calling it calls that."""

    def __call__(self, *args, **kwargs):
        return vars(self)["__call__"](*args, **kwargs)


class LoadOptions:
    """``tf.saved_model.LoadOptions``: accepted; tapegrad's format has no options."""

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        pass


def contains_saved_model(export_dir):
    """Whether ``export_dir`` holds a SavedModel written by ``tf.saved_model.save``."""
    return os.path.isfile(os.path.join(os.fspath(export_dir), MODEL_FILE))


def _read(path, name):
    with open(os.path.join(path, name), "rb") as f:
        return f.read()


def _arrays(data):
    with np.load(io.BytesIO(data), allow_pickle=False) as stored:
        return {name: stored[name] for name in stored.files}


def load(export_dir, tags=None, options=None):
    """``tf.saved_model.load``: the saved object, rebuilt (see the module docstring)."""
    path = os.fspath(export_dir)
    if not contains_saved_model(path):
        raise OSError(f"SavedModel file does not exist at: {path}/{{{MODEL_FILE}}}")
    document = json.loads(_read(path, MODEL_FILE))
    if document.get("format") != FORMAT:
        raise ValueError(f"{path}/{MODEL_FILE} is not a SavedModel written by tapegrad.")
    values = _arrays(_read(path, VARIABLES_FILE))
    constants = _arrays(_read(path, CONSTANTS_FILE))
    entries = document["objects"]
    nodes = [_new_node(i, entry, values) for i, entry in enumerate(entries)]
    concretes = [_concrete(k, saved, nodes, constants)
                 for k, saved in enumerate(document["concrete_functions"])]
    for i, entry in enumerate(entries):
        if entry["kind"] == "function":
            nodes[i] = RestoredFunction(entry["name"], [concretes[k] for k in entry["concrete"]])
        elif entry["kind"] == "concrete":
            nodes[i] = concretes[entry["concrete"][0]]
    for i, entry in enumerate(entries):
        _attach(nodes[i], entry, nodes)
    root = nodes[0]
    if isinstance(root, _UserObject):
        root.signatures = SignatureMap({key: concretes[s["concrete"]]
                                        for key, s in document["signatures"].items()})
    return root


def _new_node(i, entry, values):
    kind = entry["kind"]
    if kind == "variable":
        return Variable(values[f"node_{i}"], name=entry["name"], trainable=entry["trainable"],
                        dtype=dtypes.as_dtype(entry["dtype"]))
    if kind == "list":
        return []
    if kind == "dict":
        return {}
    return _UserObject()


def _attach(node, entry, nodes):
    for name, j in entry["children"]:
        if isinstance(node, list):
            node.append(nodes[j])
        elif isinstance(node, dict):
            node[name] = nodes[j]
        elif isinstance(node, _UserObject):
            setattr(node, name, nodes[j])
            if name == "__call__":
                node.__class__ = _CallableUserObject


def _concrete(k, saved, nodes, constants):
    """A restored concrete function: its graph rebuilt with the restored variables (for a
    signature with unknown dimensions, once for each call's sizes: see ``dims``)."""
    body = saved["graph"]
    arrays = {int(slot): wrap(constants[f"{k}/{slot}"]) for slot in body["constants"]
              if f"{k}/{slot}" in constants}
    for slot, value in body["inline_constants"].items():
        arrays[int(slot)] = wrap(np.asarray(decode(value)))

    def build(sizes):
        graph = dims.instantiate(body, sizes) if sizes else body
        values = dict(arrays)
        for slot, value in graph.get("sized_constants", {}).items():
            values[int(slot)] = wrap(np.asarray(decode(value)))
        recorder = types.SimpleNamespace(
            reason=None, nodes=_nodes(graph["nodes"], nodes), constants=values,
            inputs=[tuple(p) for p in graph["inputs"]],
            specs=[(tuple(s), dtypes.as_dtype(d)) for s, d in graph["specs"]])
        return TraceGraph(recorder, decode(graph["outputs"]))
    inputs = [(name, decode(spec)) for name, spec in saved["inputs"]]
    return RestoredConcreteFunction(saved["name"], inputs, build, body.get("dims", []),
                                    decode(saved["output_specs"]))


def _ref(ref, nodes):
    return ref["arg"] if "arg" in ref else nodes[ref["variable"]]


def _nodes(saved, nodes):
    """The nodes of a saved graph; a ``CALL`` node's context is made again from its place
    among the graph's calls (``replayed.Call.node_context``)."""
    out, calls = [], 0
    for n in saved:
        if "call" in n:
            out.append(_call_node(n, calls))
            calls += 1
        else:
            out.append(_node(n, nodes))
    return out


def _call_node(n, ordinal):
    call = replayed.CALLS.get(n["call"])
    if call is None:
        raise ValueError(f"this SavedModel calls {n['call']}, which this tapegrad does not have")
    args, kwargs = decode(n["args"]), decode(n["kwargs"])
    return (CALL, call, call.node_context(args, kwargs, ordinal), (args, kwargs),
            tuple(n["out"]), [n["guard"]] if n["dynamic"] else None,
            tuple(None if s is None else tuple(s) for s in n["shapes"]))


def _node(n, nodes):
    """A node of ``TraceGraph.nodes`` from its JSON."""
    if "op" in n:
        return (OP, TABLE[n["op"]], decode(n["attrs"]), tuple(n["in"]), n["out"])
    if "read" in n:
        return (READ, _ref(n["read"], nodes), n["out"])
    if "assign" in n:
        return (ASSIGN, _ref(n["assign"], nodes), n["kind"], n["in"])
    prim = TABLE[n["vjp"]]
    ins = tuple((_ref(i, nodes),) if isinstance(i, dict) else i for i in n["in"])
    return (VJP, _saved_vjps.get(prim, prim.vjp), decode(n["attrs"]), tuple(n["wanted"]), ins,
            tuple(n["out"]), n["vjp"])
