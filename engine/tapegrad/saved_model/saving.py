"""``tf.saved_model.save``: writes an object's variables, the graphs of its ``tf.function``s and
its signatures into a directory (the format is docs/saved-model.md)."""
import io
import json
import os

from .. import nest
from ..backend import host as np
from ..function import ConcreteFunction, Function
from ..function.keys import zip_leaves
from ..module import Module
from ..tensor_spec import TensorSpec
from . import dims
from .encoding import NotSaveable, encode, encode_graph, encode_structure
from .keras_serving import keras_serving
from .objects import ObjectGraph, is_keras

FORMAT = "tapegrad-saved-model"
VERSION = 1
MODEL_FILE = "saved_model.json"
VARIABLES_FILE = os.path.join("variables", "variables.npz")
CONSTANTS_FILE = "constants.npz"
SERVING = "serving_default"


class SaveOptions:
    """``tf.saved_model.SaveOptions``: accepted; tapegrad's format has no options."""

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_io_device=None, experimental_variable_policy=None,
                 experimental_custom_gradients=True, experimental_image_format=False,
                 experimental_skip_saver=False, experimental_sharding_callback=None,
                 extra_tags=None):
        self.function_aliases = function_aliases or {}


# ---------------------------------------------------------------- concrete functions
def _template(key):
    """An argument value for a trace key: a TensorSpec for a tensor, the Python value."""
    kind = key[0]
    if kind == "tensor":
        return TensorSpec(key[1], key[2])
    if kind == "python":
        return key[1]
    if kind in ("list", "tuple"):
        items = [_template(k) for k in key[1]]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        return {k: _template(v) for k, v in key[1]}
    raise NotSaveable("a tf.function traced with a variable or an object as argument cannot be "
                      "saved: pass tensors (or Python numbers and strings) to it.")


def concrete_functions(fn):
    """The concrete functions TensorFlow would save for ``fn``: one per signature it traced
    (or its ``input_signature``'s), none for a function never traced."""
    if fn._input_signature is not None and not fn._traces:
        return [fn.get_concrete_function()]
    out = []
    for pattern in list(fn._traces):
        cf = fn._concrete.get(pattern)
        if cf is None:
            cf = fn.get_concrete_function(*_template(pattern))
        if all(cf is not c for c in out):
            out.append(cf)
    return out


def _known(cf):
    return all(d is not None for s in nest.flatten(cf._input_specs)
               if isinstance(s, TensorSpec) for d in (s._dims or (None,)))


def _checked(graph, where):
    if not graph.replayable:
        raise NotSaveable(
            f"{where} cannot be saved: its trace cannot be stored as a graph of the engine's "
            f"primitives ({graph.reason}). Python code run by the function (tf.py_function, "
            f"tf.numpy_function, a value read in Python) cannot be written to a SavedModel.")
    return graph


def saved_graph(cf, variable_node, where):
    """``(json, constants)`` of a graph for ``cf`` that serves every shape its signature allows:
    where a dimension is unknown, one whose sizes are placeholders (see ``dims``)."""
    if _known(cf):
        return encode_graph(_checked(cf._trace_graph, where), variable_node, where)
    axes = dims.unknown_axes(cf)
    if axes is None or len(axes) > len(dims.SIZES[0]):
        raise NotSaveable(f"{where} cannot be saved for {_signature_text(cf)}: a SavedModel "
                          f"needs the rank of every input.")
    sizes = [s[:len(axes)] for s in dims.SIZES]
    traced = [encode_graph(_checked(dims.trace_with(cf, axes, n), where), variable_node, where)
              for n in sizes]
    try:
        body, constants = _generalized(traced[0], traced[1], sizes[0], sizes[1])
        if not _serves(body, constants, traced[2], sizes[2]):
            raise dims.Differs()
    except dims.Differs:
        raise NotSaveable(
            f"{where} cannot be saved for {_signature_text(cf)}: its graph depends on the "
            f"size of an unknown dimension in a way a SavedModel cannot replay (an op's settings "
            f"or a constant change with it). Give that dimension a fixed size in the "
            f"input_signature.") from None
    body["dims"] = [list(a) for a in axes]
    return body, constants


def _without_specs(body):
    return {k: v for k, v in body.items() if k != "specs"}


def _generalized(a, b, sizes_a, sizes_b):
    """Two traces' ``(json, constants)`` as one graph: constants that differ are written into
    the JSON (``sized_constants``), sized; the others stay arrays."""
    (body_a, const_a), (body_b, const_b) = a, b
    body = dims.generalize(_without_specs(body_a), _without_specs(body_b), sizes_a, sizes_b)
    body["specs"] = body_a["specs"]
    body["sized_constants"], constants = {}, {}
    for slot, t in const_a.items():
        if _same_value(t, const_b[slot]):
            constants[slot] = t
            continue
        pair = [encode(np.asarray(c._value), "a constant") for c in (t, const_b[slot])]
        body["sized_constants"][str(slot)] = dims.generalize_constant(*pair, sizes_a, sizes_b)
    return body, constants


def _serves(body, constants, traced, sizes):
    """Whether the generalized graph, given ``sizes``, is the graph ``traced`` for them."""
    body_c, const_c = traced
    graph = dims.instantiate(body, sizes)
    sized = graph.pop("sized_constants")
    return _without_specs(graph) == _without_specs(body_c) and \
        all(_same_value(t, const_c[slot]) for slot, t in constants.items()) and \
        all(v == encode(np.asarray(const_c[int(k)]._value), "a constant")
            for k, v in sized.items())


def _same_value(a, b):
    a, b = np.asarray(a._value), np.asarray(b._value)
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.all(a == b))


def _signature_text(cf):
    return ", ".join(repr(s) for s in nest.flatten(cf._input_specs)
                     if isinstance(s, TensorSpec))


def _inputs_json(cf, where):
    """Each parameter's name and specs; a spec keeps the name an input signature gave it."""
    def named(spec, template):
        if isinstance(template, TensorSpec) and template.name and isinstance(spec, TensorSpec):
            return TensorSpec(spec._dims, spec.dtype, template.name)
        return spec
    return [[name, encode_structure(zip_leaves(named, spec, template), where)]
            for name, spec, template in zip(cf._names, cf._input_specs, cf._templates)]


# ---------------------------------------------------------------- signatures
def _signature_function(value):
    """The concrete function a ``signatures`` entry names, or TensorFlow's ``ValueError``."""
    if isinstance(value, ConcreteFunction):
        return value
    if isinstance(value, Function) and value._input_signature is not None:
        return value.get_concrete_function()
    raise ValueError(f"Expected a TensorFlow function for which to generate a signature, but got "
                     f"{value!r}. Only `tf.functions` with an input signature or concrete "
                     f"functions can be used as a signature.")


def signature_functions(obj, signatures):
    """``{signature key: concrete function}``: the ``signatures`` given (one function is
    ``serving_default``), else the one ``tf.function`` with an input signature of ``obj``, else
    a Keras model's call on its inputs."""
    if signatures is None:
        if is_keras(obj):
            return {SERVING: keras_serving(obj).get_concrete_function()}
        found = [fn for _, fn in _own_functions(obj)]
        return {SERVING: found[0].get_concrete_function()} if len(found) == 1 else {}
    if not isinstance(signatures, dict):
        signatures = {SERVING: signatures}
    out = {}
    for key, value in signatures.items():
        if not isinstance(key, str):
            raise ValueError(f"Invalid signature key: {key!r}. The keys of `signatures` must "
                             f"be strings.")
        out[key] = _signature_function(value)
    return out


def _own_functions(obj):
    graph = ObjectGraph(obj)
    return [(name, graph.nodes[i][1]) for name, i in graph.children[0]
            if graph.nodes[i][0] == "function" and graph.nodes[i][1]._input_signature is not None]


# ---------------------------------------------------------------- the directory
class Trackable:
    """An object ``save`` accepts besides a ``tf.Module`` (``model.export`` saves one)."""


def save(obj, export_dir, signatures=None, options=None):
    """``tf.saved_model.save``: writes ``obj``'s object graph, variables, the graphs of its
    ``tf.function``s and its ``signatures`` into the directory ``export_dir``."""
    if not isinstance(obj, (Module, Trackable)):
        raise ValueError(f"Expected an object of type `Trackable`, such as `tf.Module` or a "
                         f"subclass of the `Trackable` class, for export. Got {obj!r} with type "
                         f"{type(obj)}.")
    graph = ObjectGraph(obj)
    concretes, functions = [], {}

    def add(cf):
        for i, c in enumerate(concretes):
            if c is cf:
                return i
        concretes.append(cf)
        return len(concretes) - 1
    for i, fn in graph.of_kind("function"):
        functions[i] = [add(cf) for cf in concrete_functions(fn)]
    for i, cf in graph.of_kind("concrete"):
        functions[i] = [add(cf)]
    signature_ids = {key: add(cf) for key, cf in signature_functions(obj, signatures).items()}
    saved, arrays = [], {}
    for k, cf in enumerate(concretes):   # (``concretes`` may grow: none is added here)
        where = f"The function {cf._function._name!r}"
        body, constants = saved_graph(cf, graph.node_of, where)
        body["inline_constants"] = {}
        for slot, t in constants.items():
            value = np.asarray(t._value)
            if value.dtype == object or value.dtype.kind in "SU":
                body["inline_constants"][str(slot)] = encode(value, where)
            else:
                arrays[f"{k}/{slot}"] = value
        saved.append({"name": cf._function._name, "inputs": _inputs_json(cf, where),
                      "output_specs": encode_structure(cf._output_specs(), where),
                      "graph": body})
    document = {"format": FORMAT, "version": VERSION,
                "objects": _objects_json(graph, functions),
                "concrete_functions": saved,
                "signatures": {key: {"concrete": i} for key, i in signature_ids.items()}}
    _write(os.fspath(export_dir), document, graph, arrays)


def _objects_json(graph, functions):
    out = []
    for i, (kind, obj) in enumerate(graph.nodes):
        entry = {"kind": kind, "children": [[name, j] for name, j in graph.children[i]]}
        if kind == "variable":
            entry.update(name=obj.name.rpartition(":")[0] or obj.name, dtype=obj.dtype.name,
                         shape=list(obj.shape), trainable=bool(obj.trainable))
        elif kind in ("function", "concrete"):
            entry.update(concrete=functions[i], name=getattr(obj, "_name", None) or
                         obj._function._name)
        elif kind == "list":
            entry["tuple"] = isinstance(obj, tuple)
        out.append(entry)
    return out


def _npz(arrays):
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _write(path, document, graph, constants):
    os.makedirs(os.path.join(path, "variables"), exist_ok=True)
    values = {f"node_{i}": np.asarray(v.numpy()) for i, v in graph.of_kind("variable")}
    files = {MODEL_FILE: json.dumps(document, indent=1).encode(), VARIABLES_FILE: _npz(values),
             CONSTANTS_FILE: _npz(constants)}
    for name, data in files.items():
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)
