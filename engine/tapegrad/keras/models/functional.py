"""The functional API: ``tf.keras.Input`` gives a symbolic ``KerasTensor``; calling layers on
symbolic tensors records a graph of nodes; ``tf.keras.Model(inputs, outputs)`` replays it.

>>> import tapegrad as tf
>>> inputs = tf.keras.Input(shape=(3,))
>>> outputs = tf.keras.layers.Dense(2)(inputs)
>>> model = tf.keras.Model(inputs, outputs)
>>> model(tf.ones((4, 3))).shape
TensorShape([4, 2])
"""
from ... import nest
from ..layers.core.input_layer import Input, InputLayer  # noqa: F401  (the graph starts there)
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
