"""The object graph a SavedModel keeps: from the saved object, each attribute that is a variable,
a ``tf.Module`` (or a list or dict holding such things), a ``tf.function`` or a concrete function,
numbered in the order they are first reached (the saved object is node 0).

A Keras layer or model is kept as a node without attributes (TensorFlow keeps a Keras 3 object
given to ``tf.saved_model.save`` as its serving signature alone): the variables its functions
read are saved all the same, as variables no attribute leads to.
"""
from ..function import ConcreteFunction, Function
from ..module import Module
from ..variables import Variable


def is_keras(obj):
    """A Keras layer or model (known by the weights list every Keras layer keeps)."""
    return isinstance(obj, Module) and "_own_weights" in vars(obj)


def _attributes(obj):
    """``(name, value)`` for the attributes of ``obj`` the object graph keeps: its own (not
    dunder) attributes and the ``tf.function`` methods of its class."""
    if is_keras(obj):
        return []
    found = [(k, v) for k, v in sorted(vars(obj).items()) if not k.startswith("__")]
    for name in sorted(dir(type(obj))):
        if isinstance(getattr(type(obj), name, None), Function) and name not in vars(obj):
            found.append((name, getattr(obj, name)))
    return found


def _holds_trackable(value):
    """Whether the object graph keeps ``value``: an empty list or dict (a place for them) or
    one holding variables, modules or functions."""
    if isinstance(value, dict):
        return not value or any(_holds_trackable(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return not value or any(_holds_trackable(v) for v in value)
    return isinstance(value, (Variable, Module, Function, ConcreteFunction))


class ObjectGraph:
    """The nodes reached from ``root``: ``nodes[i]`` is ``(kind, object)`` with kind one of
    ``"object"``, ``"variable"``, ``"list"``, ``"dict"``, ``"function"``, ``"concrete"``;
    ``children[i]`` the ``(attribute or key, node)`` pairs of node ``i``."""

    def __init__(self, root):
        self.nodes, self.children, self._ids = [], [], {}
        self.node_of(root)
        i = 0
        while i < len(self.nodes):
            kind, obj = self.nodes[i]
            if kind == "object":
                pairs = _attributes(obj)
            elif kind == "list":
                pairs = [(str(k), v) for k, v in enumerate(obj)]
            elif kind == "dict":
                pairs = [(k, v) for k, v in obj.items() if isinstance(k, str)]
            else:
                pairs = []
            self.children[i] = [(name, self.node_of(v)) for name, v in pairs
                                if _holds_trackable(v)]
            i += 1

    def node_of(self, obj):
        """The node of ``obj``, added (without children yet) when it is new."""
        key = id(obj)
        if key not in self._ids:
            if isinstance(obj, Variable):
                kind = "variable"
            elif isinstance(obj, Function):
                kind = "function"
            elif isinstance(obj, ConcreteFunction):
                kind = "concrete"
            elif isinstance(obj, dict):
                kind = "dict"
            elif isinstance(obj, (list, tuple)):
                kind = "list"
            else:
                kind = "object"
            self._ids[key] = len(self.nodes)
            self.nodes.append((kind, obj))
            self.children.append([])
        return self._ids[key]

    def of_kind(self, kind):
        return [(i, obj) for i, (k, obj) in enumerate(self.nodes) if k == kind]
