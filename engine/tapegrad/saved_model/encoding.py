"""Values of a SavedModel as JSON: an op's settings (``attrs``), the input and output structures of
a concrete function, and a trace's graph (``function.graph.TraceGraph``) node by node.

Every JSON value is plain (``null``, booleans, numbers, strings, lists) or a one-key object that
says what it stands for: ``{"tuple": [...]}``, ``{"dict": [[key, value], ...]}``,
``{"dtype": "float32"}`` (a ``tf.DType``), ``{"np_dtype": "float32"}``, ``{"array": {...}}`` (a
NumPy array or scalar: dtype, shape, values), ``{"slice": [start, stop, step]}``,
``{"ellipsis": true}``, ``{"spec": [dims, dtype, name]}`` (a ``TensorSpec``), ``{"slot": i}`` (an
output of the graph). Anything else (a Python function, an object) cannot be saved: ``encode``
raises ``ValueError`` naming it.
"""
from .. import dtypes
from ..backend import host as np
from ..function.graph import ASSIGN, CALL, OP, READ, _Out, _saved_vjps
from ..function.keys import RaggedParts, SparseParts
from ..primitives import TABLE
from ..tensor_spec import TensorSpec


class NotSaveable(ValueError):
    """A value a SavedModel cannot hold (raised at save time)."""


def encode(value, where):
    """``value`` as JSON (see the module docstring); ``where`` names it in the error."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [encode(v, where) for v in value]
    if isinstance(value, tuple):
        return {"tuple": [encode(v, where) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k, where), encode(v, where)] for k, v in value.items()]}
    if isinstance(value, dtypes.DType):
        return {"dtype": value.name}
    if isinstance(value, np.dtype):
        return {"np_dtype": value.str}
    if isinstance(value, (np.ndarray, np.generic)):
        return {"array": _array(np.asarray(value), where, scalar=isinstance(value, np.generic))}
    if isinstance(value, slice):
        return {"slice": [encode(value.start, where), encode(value.stop, where),
                          encode(value.step, where)]}
    if value is Ellipsis:
        return {"ellipsis": True}
    if isinstance(value, TensorSpec):
        return {"spec": [None if value._dims is None else list(value._dims), value.dtype.name,
                         value.name]}
    kind = "a Python function" if callable(value) else f"a {type(value).__name__}"
    raise NotSaveable(f"{where} holds {kind} ({value!r}), which a SavedModel cannot store: "
                      f"only tensors, shapes, dtypes and plain Python values can be saved.")


def _array(a, where, scalar):
    if a.dtype == object or a.dtype.kind in "SU":
        values = [v.decode("latin-1") if isinstance(v, bytes) else str(v)
                  for v in a.reshape(-1).tolist()]
        return {"dtype": "bytes" if a.dtype.kind != "U" else "str", "shape": list(a.shape),
                "values": values, "scalar": scalar}
    if a.dtype.kind == "c":
        values = [[v.real, v.imag] for v in a.reshape(-1).tolist()]
    else:
        values = a.reshape(-1).tolist()
    return {"dtype": a.dtype.str, "shape": list(a.shape), "values": values, "scalar": scalar}


def _unarray(d):
    kind = d["dtype"]
    if kind in ("bytes", "str"):
        values = [v.encode("latin-1") for v in d["values"]] if kind == "bytes" else d["values"]
        a = np.array(values, dtype=object).reshape(d["shape"])
    else:
        dtype = np.dtype(kind)
        values = [complex(*v) for v in d["values"]] if dtype.kind == "c" else d["values"]
        a = np.array(values, dtype=dtype).reshape(d["shape"])
    return a[()] if d["scalar"] else a


def decode(value):
    """The Python value ``encode`` wrote."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    (kind, body), = value.items()
    if kind == "tuple":
        return tuple(decode(v) for v in body)
    if kind == "dict":
        return {_hashable(decode(k)): decode(v) for k, v in body}
    if kind == "dtype":
        return dtypes.as_dtype(body)
    if kind == "np_dtype":
        return np.dtype(body)
    if kind == "array":
        return _unarray(body)
    if kind == "slice":
        return slice(*[decode(v) for v in body])
    if kind == "ellipsis":
        return Ellipsis
    if kind == "spec":
        return TensorSpec(body[0], dtypes.as_dtype(body[1]), body[2])
    if kind == "slot":
        return _Out(body)
    raise ValueError(f"this SavedModel holds a value of an unknown kind: {kind!r}")


def _hashable(key):
    return tuple(key) if isinstance(key, list) else key


# ---------------------------------------------------------------- structures
def encode_structure(value, where):
    """An input or output structure: graph outputs become ``{"slot": i}``."""
    if isinstance(value, _Out):
        return {"slot": value.i}
    if isinstance(value, dict):
        return {"dict": [[encode(k, where), encode_structure(v, where)]
                         for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        items = [encode_structure(v, where) for v in value]
        return items if isinstance(value, list) else {"tuple": items}
    return encode(value, where)


# ---------------------------------------------------------------- graphs
def _holds_composite(x):
    if isinstance(x, (RaggedParts, SparseParts)):
        return True
    if isinstance(x, dict):
        return any(_holds_composite(v) for v in x.values())
    return isinstance(x, (list, tuple)) and any(_holds_composite(v) for v in x)


def _encode_call(node, where):
    """A ``CALL`` node (``replayed.py``): the function by name, its arguments with the graph's
    tensors as slots, its results' slots and shapes (a seeded draw's stream is made again when
    the model is loaded, from the node's place among the graph's calls)."""
    _, call, context, (args, kwargs), outs, guard, shapes = node
    what = f"{where}: {call.op} ({call.fn.__qualname__})"
    if _holds_composite((args, kwargs)):
        raise NotSaveable(f"{what} takes a SparseTensor or RaggedTensor made inside the "
                          f"function, which a SavedModel cannot store: pass it as an argument.")
    return {"call": call.name, "args": encode_structure(args, what),
            "kwargs": encode_structure(kwargs, what), "out": list(outs),
            "dynamic": guard is not None, "guard": bool(guard and guard[0]),
            "shapes": [None if s is None else list(s) for s in shapes]}


def encode_graph(graph, variable_ids, where):
    """A ``TraceGraph`` as JSON and its constants as arrays: ``(json, {slot: array})``.
    ``variable_ids(variable)`` is the variable's node in the object graph."""
    def ref(v):
        return {"arg": v} if type(v) is int else {"variable": variable_ids(v)}
    nodes = []
    for node in graph.nodes:
        kind = node[0]
        if kind is OP:
            _, prim, attrs, ins, slot = node
            nodes.append({"op": prim.name, "attrs": encode(attrs, f"{where}: op {prim.name}"),
                          "in": list(ins), "out": slot})
        elif kind is READ:
            nodes.append({"read": ref(node[1]), "out": node[2]})
        elif kind is ASSIGN:
            nodes.append({"assign": ref(node[1]), "kind": node[2], "in": node[3]})
        elif kind is CALL:
            nodes.append(_encode_call(node, where))
        else:
            _, vjp, attrs, wanted, ins, outs, name = node
            if _saved_vjps.get(TABLE[name], TABLE[name].vjp) is not vjp:
                raise NotSaveable(f"{where}: the gradient of {name} taken inside the function "
                                  f"is a gradient registered in Python, which a SavedModel "
                                  f"cannot store.")
            nodes.append({"vjp": name, "attrs": encode(attrs, f"{where}: gradient of {name}"),
                          "wanted": list(wanted), "out": list(outs),
                          "in": [ref(i[0]) if isinstance(i, tuple) else i for i in ins]})
    constants = {slot: t for slot, t in graph.constants.items()}
    body = {"nodes": nodes, "inputs": [list(p) for p in graph.inputs],
            "outputs": encode_structure(graph.outputs, where),
            "specs": [[list(s), d.name] for s, d in graph._specs],
            "constants": sorted(constants)}
    return body, constants
