"""The functional API: ``tf.keras.Input`` gives a symbolic ``KerasTensor``; calling layers on
symbolic tensors records a graph of nodes; ``tf.keras.Model(inputs, outputs)`` replays it.

>>> import tapegrad as tf
>>> inputs = tf.keras.Input(shape=(3,))
>>> outputs = tf.keras.layers.Dense(2)(inputs)
>>> model = tf.keras.Model(inputs, outputs)
>>> model(tf.ones((4, 3))).shape
TensorShape([4, 2])
"""
import operator
import re

from ... import nest
from ..layers.base import SymbolicOp
from ..layers.core.input_layer import Input, InputLayer  # noqa: F401  (the graph starts there)
from ..serialization import deserialize_keras_object, serialize_keras_object
from ..symbolic import KerasTensor


class Graph:
    """The nodes between ``inputs`` and ``outputs`` in an order that runs them."""

    def __init__(self, inputs, outputs):
        self.inputs, self.outputs = inputs, outputs
        self.flat_inputs = nest.flatten(inputs)
        self.flat_outputs = nest.flatten(outputs)
        for t in self.flat_inputs + self.flat_outputs:
            if not isinstance(t, KerasTensor):
                raise ValueError(f"All `inputs` and `outputs` of a functional model should be "
                                 f"symbolic tensors (from tf.keras.Input and layer calls), "
                                 f"received: {t!r}")
        given = {id(t) for t in self.flat_inputs}
        order, seen, first_seen = [], set(), {}
        for out in self.flat_outputs:
            self._visit(out, given, seen, order, set(), first_seen)
        self.nodes = order
        self.layers = self._layers_by_depth(order, first_seen)

    def _layers_by_depth(self, order, first_seen):
        """Layers from the inputs' to the outputs' (a node's depth is its longest distance to an
        output), ties in the order a walk back from the outputs first met them: Keras's
        ``model.layers`` order."""
        input_nodes = [t._keras_history[1] for t in self.flat_inputs]
        depth, layer_depth = {}, {}
        for node in reversed(order):
            d = max(depth.get(id(node), 0), layer_depth.get(id(node.layer), 0))
            layer_depth[id(node.layer)] = d
            depth[id(node)] = d
            for t in node.inputs:
                parent = t._keras_history[1]
                depth[id(parent)] = max(d + 1, depth.get(id(parent), 0))
        for node in input_nodes:
            layer_depth[id(node.layer)] = max(layer_depth.get(id(node.layer), 0),
                                              depth.get(id(node), 0))
        layers = {}
        for node in input_nodes + order:
            layers.setdefault(id(node.layer), node.layer)
        return sorted(layers.values(), key=lambda l: (-layer_depth[id(l)],
                                                      first_seen.get(id(l), 0)))

    def _visit(self, tensor, given, seen, order, path, first_seen):
        layer, node, _ = tensor._keras_history
        first_seen.setdefault(id(layer), len(first_seen))
        if id(tensor) in given:
            return
        if isinstance(layer, InputLayer):
            raise ValueError(f"Graph disconnected: cannot obtain value for tensor {tensor.name} "
                             f"at layer '{layer.name}'. It is not among the model's `inputs`.")
        if id(node) in seen:
            return
        if id(node) in path:
            raise ValueError("The functional graph has a cycle")
        path.add(id(node))
        for t in node.inputs:
            self._visit(t, given, seen, order, path, first_seen)
        seen.add(id(node))
        order.append(node)

    def run(self, inputs):
        """The outputs for concrete ``inputs`` (``training`` reaches the layers through the call
        context of the model's own call)."""
        values = {}
        if isinstance(self.inputs, dict) and isinstance(inputs, dict):
            flat = [inputs[k] for k in sorted(self.inputs)]
        else:
            flat = nest.flatten(inputs)
            if isinstance(inputs, dict) and not isinstance(self.inputs, dict):
                by_name = {t._keras_history[0].name: t for t in self.flat_inputs}
                flat = [inputs[t._keras_history[0].name] if t._keras_history[0].name in inputs
                        else inputs[t.name] for t in by_name.values()]
        if len(flat) != len(self.flat_inputs):
            raise ValueError(f"The model expects {len(self.flat_inputs)} input(s), but it "
                             f"received {len(flat)} input tensors.")
        for t, v in zip(self.flat_inputs, flat):
            values[id(t)] = v
        fill = (lambda t: values[id(t)] if isinstance(t, KerasTensor) else t)
        for node in self.nodes:
            args = nest.map_structure(fill, list(node.args))
            kwargs = nest.map_structure(fill, dict(node.kwargs))
            out = node.layer(*args, **kwargs)
            for t, v in zip(nest.flatten(node.outputs), nest.flatten(out)):
                values[id(t)] = v
        return nest.map_structure(fill, self.outputs)


# ---------------------------------------------------------------- config (Keras 3's form)
# Arithmetic on symbolic tensors as Keras 3 describes it: one operation of keras.src.ops.numpy.
OPS_MODULE = "keras.src.ops.numpy"
KERAS_OPS = {operator.add: "Add", operator.sub: "Subtract", operator.mul: "Multiply",
             operator.truediv: "TrueDivide", operator.floordiv: "FloorDivide",
             operator.mod: "Mod", operator.pow: "Power", operator.matmul: "Matmul",
             operator.neg: "Negative", operator.abs: "Absolute", operator.getitem: "GetItem"}
_OPS_BY_NAME = {name: fn for fn, name in KERAS_OPS.items()}


def _config_names(layers):
    """Each layer's name in the config: its own, or for an operation Keras's default name
    (``multiply``, ``true_divide``...), numbered when taken."""
    taken = {layer.name for layer in layers if not getattr(layer, "is_symbolic_op", False)}
    names = {}
    for layer in layers:
        if not getattr(layer, "is_symbolic_op", False):
            names[id(layer)] = layer.name
            continue
        if layer.fn not in KERAS_OPS:
            raise NotImplementedError(f"Saving a functional model that applies {layer.fn!r} to "
                                      f"symbolic tensors is not implemented")
        base = re.sub(r"(?<!^)(?=[A-Z])", "_", KERAS_OPS[layer.fn]).lower()
        name, n = base, 0
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names[id(layer)] = name
    return names


def _op_description(layer, name):
    cls = KERAS_OPS[layer.fn]
    return {"module": OPS_MODULE, "class_name": cls, "config": {"name": name},
            "registered_name": cls}


def functional_config(model):
    """A functional model's config: its ``name`` and ``trainable``, each layer's description
    with its ``name`` and the calls (``inbound_nodes``) that made the model, and where the
    ``input_layers`` and ``output_layers`` are (``[layer name, node index, tensor index]``)."""
    graph = model._graph
    own = {id(node) for node in graph.nodes} | {id(t._keras_history[1])
                                                for t in graph.flat_inputs}
    names = _config_names(graph.layers)
    index = {}   # node -> its index among its layer's nodes that belong to this model
    for layer in graph.layers:
        kept = [node for node in layer._inbound_nodes if id(node) in own]
        index.update({id(node): i for i, node in enumerate(kept)})

    def place(tensor):
        layer, node, i = tensor._keras_history
        return [names[id(layer)], index[id(node)], i]

    def tensor_description(t):
        if not isinstance(t, KerasTensor):
            return t
        return {"class_name": "__keras_tensor__",
                "config": {"shape": list(t.shape), "dtype": t.dtype, "keras_history": place(t)}}

    layers = []
    for layer in graph.layers:
        name = names[id(layer)]
        description = _op_description(layer, name) if getattr(layer, "is_symbolic_op", False) \
            else serialize_keras_object(layer)
        description["name"] = name
        description["inbound_nodes"] = [
            {"args": serialize_keras_object(nest.map_structure(tensor_description,
                                                               list(node.args))),
             "kwargs": serialize_keras_object(nest.map_structure(tensor_description,
                                                                 dict(node.kwargs)))}
            for node in layer._inbound_nodes if id(node) in own and node.inputs]
        layers.append(description)
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": nest.map_structure(place, graph.inputs),
            "output_layers": nest.map_structure(place, graph.outputs)}


def functional_from_config(cls, config, custom_objects=None):
    """The functional model ``functional_config`` describes: each layer rebuilt, then called
    on the tensors its nodes name, once the layers those come from have been called."""
    config = dict(config)
    layers_data = config.pop("layers")
    input_layers, output_layers = config.pop("input_layers"), config.pop("output_layers")
    name, trainable = config.pop("name", None), config.pop("trainable", None)
    created, pending = {}, []
    for data in layers_data:
        if data.get("module") == OPS_MODULE and data.get("class_name") in _OPS_BY_NAME:
            layer = SymbolicOp(_OPS_BY_NAME[data["class_name"]])
        else:
            layer = deserialize_keras_object(data, custom_objects)
        created[data["name"]] = layer
        pending += [(layer, node) for node in data.get("inbound_nodes", [])]
    while pending:
        waiting = []
        for layer, node in pending:
            if waiting and waiting[-1][0] is layer or not _ready(node, created):
                waiting.append((layer, node))   # a layer's calls keep their order
                continue
            fill = _tensor_filler(created)
            args = fill(node["args"])
            if getattr(layer, "fn", None) is operator.getitem and isinstance(args[1], list):
                args[1] = tuple(args[1])   # JSON gave the index back as a list
            layer(*args, **fill(node["kwargs"]))
        if len(waiting) == len(pending):
            raise ValueError(f"Invalid Functional model configuration. The graph of the "
                             f"Functional model either has loops or disconnected nodes. The "
                             f"following nodes failed to be resolved: {waiting}")
        pending = waiting

    def find(tensors):
        if isinstance(tensors, list) and len(tensors) == 3 and isinstance(tensors[0], str):
            return _output_of(created, *tensors)
        if isinstance(tensors, dict):
            return {k: find(v) for k, v in tensors.items()}
        return [find(v) for v in tensors]

    model = cls(inputs=find(input_layers), outputs=find(output_layers), name=name, **config)
    if trainable is False:   # True would unfreeze the layers saved frozen
        model.trainable = False
    return model


def _is_tensor_description(x):
    return isinstance(x, dict) and x.get("class_name") == "__keras_tensor__"


def _history_of(data):
    return data["config"]["keras_history"]


def _ready(node, created):
    for leaf in _descriptions(node):
        layer_name, node_index, _ = _history_of(leaf)
        layer = created.get(layer_name)
        if layer is None or len(layer._inbound_nodes) <= node_index:
            return False
    return True


def _descriptions(data):
    if _is_tensor_description(data):
        return [data]
    if isinstance(data, dict):
        return [d for v in data.values() for d in _descriptions(v)]
    if isinstance(data, (list, tuple)):
        return [d for v in data for d in _descriptions(v)]
    return []


def _output_of(created, layer_name, node_index, tensor_index):
    if layer_name not in created:
        raise RuntimeError(f"Internal error: could not find layer {layer_name}.")
    outputs = created[layer_name]._inbound_nodes[node_index].outputs
    return nest.flatten(outputs)[tensor_index]


def _tensor_filler(created):
    def fill(data):
        if _is_tensor_description(data):
            return _output_of(created, *_history_of(data))
        if isinstance(data, dict) and "class_name" in data and "config" in data:
            return deserialize_keras_object(data)
        if isinstance(data, dict):
            return {k: fill(v) for k, v in data.items()}
        if isinstance(data, (list, tuple)):
            return [fill(v) for v in data]
        return data
    return fill
