"""A concrete function's ``.graph`` as TensorFlow's ``FuncGraph`` shows it: the operations its
trace recorded (``get_operations()``), its ``inputs`` and ``outputs``, and ``as_graph_def()``
listing the nodes with their inputs.

Node types are TensorFlow's where the trace has them: ``Placeholder`` for each input (and for
each variable the graph captures, as TensorFlow's resource handles), ``Const`` for constants,
the primitive's op name for each op, ``ReadVariableOp`` / ``AssignVariableOp`` /
``AssignAddVariableOp`` / ``AssignSubVariableOp`` for variables and ``Identity`` for each output;
a reduction's axes are a ``Const`` input listed before it, as TensorFlow's
(``Sum/reduction_indices``, ``ArgMax/dimension``, or ``Const`` for all axes), and so are
Reshape's shape, ConcatV2's axis and Transpose's perm (``Reshape/shape``...). An op's shape is
unknown where it follows a signature's unknown dimension (told by the hidden trace with other
sizes that ``ConcreteFunction`` runs), as TensorFlow's graph infers it.
An engine function called again on each replay (``replayed.py``: a random draw, ``Unique``)
is one node of the TensorFlow op type it declares, with one output per tensor it gives; a
value-dependent shape is listed as unknown (``None``), as TensorFlow's.
A gradient taken inside the function is one ``SymbolicGradient`` node per reverse rule
(TensorFlow lists the rule's own ops there). Node names are the type's, made unique as
TensorFlow does (``AddV2``, ``AddV2_1``); TensorFlow names ops after the Python call instead
(``add`` for ``x + 1``).
"""
from ..dtypes import int32 as _INT32
from .graph import ASSIGN, CALL, OP, READ, VJP, _Out, _leaves
from .symbolic import GraphTensorView

_ASSIGN_TYPES = {"assign": "AssignVariableOp", "assign_add": "AssignAddVariableOp",
                 "assign_sub": "AssignSubVariableOp"}


class Operation:
    """One node: ``name``, ``type``, its ``inputs`` and ``outputs`` (graph tensors)."""

    def __init__(self, name, type_, inputs, outputs):
        self.name, self.type, self.inputs, self.outputs = name, type_, inputs, outputs

    @property
    def node_def(self):
        return NodeDef(self.name, self.type, [t.name.rpartition(":")[0] for t in self.inputs])

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


class NodeDef:
    """A node of ``as_graph_def()``: ``name``, ``op`` and the names of its ``input`` nodes."""

    def __init__(self, name, op, inputs):
        self.name, self.op, self.input = name, op, inputs

    def __repr__(self):
        return f"NodeDef(name={self.name!r}, op={self.op!r}, input={self.input!r})"


class GraphDef:
    """What ``as_graph_def()`` gives: its ``node`` list."""

    def __init__(self, nodes):
        self.node = nodes

    def __repr__(self):
        return "\n".join(f'node {{ name: "{n.name}" op: "{n.op}" }}' for n in self.node)


class FuncGraph:
    """The graph of one trace (see the module docstring)."""

    def __init__(self, name, trace, input_views, output_views, second=None):
        self.name = name
        self._ops = []
        self._names = {}
        self._tensors = {}              # slot -> GraphTensorView
        self._open = _open_dims(trace, second)
        self.inputs = []
        for (_, slot), view in zip(trace.inputs, input_views):
            op = self._add(view.name.rpartition(":")[0], "Placeholder", [], None, trace)
            op.outputs.append(view)
            self._tensors[slot] = view
            self.inputs.append(view)
        self._captured = {}
        for node in trace.nodes:
            self._add_node(node, trace)
        self.outputs = []
        flat = [x for x in _flat(trace.outputs) if isinstance(x, _Out)]
        for out, view in zip(flat, output_views):
            ident = self._add("Identity", "Identity", [self._value(out.i, trace)], None, trace)
            if view is not None:
                ident.outputs.append(view)
            self.outputs.append(ident.outputs[0])
        self.inputs += list(self._captured.values())

    def _unique(self, base):
        n = self._names.get(base, 0)
        self._names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def _add(self, name, type_, inputs, slot, trace, dims=None, dtype=None):
        name = self._unique(name)
        outputs = []
        op = Operation(name, type_, inputs, outputs)
        if slot is not None:
            self._output(op, slot, trace, dims, dtype)
        self._ops.append(op)
        return op

    def _output(self, op, slot, trace, dims=None, dtype=None):
        """A new output of ``op`` holding ``slot``: the trace's shape and dtype there (a
        value-dependent size unknown), else ``dims`` and ``dtype``."""
        t = trace.example(slot)
        if t is not None:
            seen = self._open.get(slot, t.shape)
            dims, dtype = tuple(None if slot in trace.dynamic else d for d in seen), t.dtype
        view = GraphTensorView(f"{op.name}:{len(op.outputs)}", dims, dtype)
        self._tensors[slot] = view
        op.outputs.append(view)

    def _value(self, slot, trace):
        view = self._tensors.get(slot)
        if view is None:                # a constant, listed where first used
            view = self._add("Const", "Const", [], slot, trace).outputs[0]
        return view

    def _axis_const(self, op, attrs, ins, trace):
        """TensorFlow's reductions take their axes as a tensor input, a ``Const`` node listed
        before the op: ``Sum/reduction_indices`` for axes given (one axis a scalar for
        ``axis=k``, of shape (1,) for ``axis=[k]``), ``Const`` with one entry per input dimension for all axes,
        ``ArgMax/dimension`` for an arg reduction. Ours hold the axes as a setting."""
        if op not in _REDUCTIONS and op not in _ARG_REDUCTIONS:
            return []
        axes = attrs.get("axes", ())
        if op in _ARG_REDUCTIONS:
            base, dims = "dimension", ()
        elif axes is None:
            shape = trace.example(ins[0]).shape if ins else None
            base, dims = None, None if shape is None else (len(shape),)
        else:
            listed = getattr(axes, "listed", False)      # axis=[0] (ground.ListedAxes)
            base, dims = "reduction_indices", () if len(axes) == 1 and not listed else (len(axes),)
        return self._const_input("Const" if base is None else f"{self._next_name(op)}/{base}", dims)

    def _setting_const(self, op, attrs):
        """A setting TensorFlow's op takes as a tensor input (``_SETTING_INPUTS``: Reshape's
        shape, ConcatV2's axis, Transpose's perm), ours as an attribute: a ``Const`` listed
        before the op, named ``op/input`` as TensorFlow names it."""
        if op not in _SETTING_INPUTS:
            return []
        attr, scalar = _SETTING_INPUTS[op]
        value = attrs.get(attr)
        if value is None:
            return []
        return self._const_input(f"{self._next_name(op)}/{attr}", () if scalar else (len(value),))

    def _const_input(self, base, dims):
        """An int32 ``Const`` node named after ``base``, listed now (before the op it feeds)."""
        name = self._unique(base)
        view = GraphTensorView(f"{name}:0", dims, _INT32)
        self._ops.append(Operation(name, "Const", [], [view]))
        return [view]

    def _next_name(self, base):
        """The name ``_unique(base)`` will give next."""
        n = self._names.get(base, 0)
        return base if n == 0 else f"{base}_{n}"

    def _handle(self, var):
        key = id(var)
        if key not in self._captured:
            name = self._unique("resource") if not isinstance(var, int) else f"args_{var}"
            self._captured[key] = GraphTensorView(f"{name}:0", (), _RESOURCE)
            self._ops.append(Operation(name, "Placeholder", [], [self._captured[key]]))
        return self._captured[key]

    def _add_node(self, node, trace):
        kind = node[0]
        if kind is OP:
            _, prim, attrs, ins, slot = node
            inputs = [self._value(i, trace) for i in ins]
            setting = self._axis_const(prim.name, attrs, ins, trace) or \
                self._setting_const(prim.name, attrs)
            self._add(prim.name, prim.name, inputs + setting, slot, trace)
        elif kind is READ:
            self._add("ReadVariableOp", "ReadVariableOp", [self._handle(node[1])], node[2], trace)
        elif kind is ASSIGN:
            type_ = _ASSIGN_TYPES.get(node[2], "AssignVariableOp")
            self._add(type_, type_, [self._handle(node[1]), self._value(node[3], trace)], None,
                      trace)
        elif kind is CALL:
            self._add_call(node, trace)
        elif kind is VJP:
            ins = [self._handle(i[0]) if isinstance(i, tuple) else self._value(i, trace)
                   for i in node[4]]
            op = self._add(f"gradient_tape/{node[6]}", "SymbolicGradient", ins, None, trace)
            for slot in node[5]:
                if slot is not None:
                    self._output(op, slot, trace)

    def _add_call(self, node, trace):
        _, call, _context, ins, outs, _guard, _shapes = node
        inputs = [self._value(x.i, trace) for x in _leaves(ins) if isinstance(x, _Out)]
        op = self._add(call.op, call.op, inputs, None, trace)
        for slot in outs:
            if slot is not None:
                self._output(op, slot, trace)

    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        for op in self._ops:
            if op.name == name:
                return op
        raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")

    def as_graph_def(self, add_shapes=False):
        return GraphDef([op.node_def for op in self._ops])

    def __repr__(self):
        return f"<FuncGraph name={self.name}>"


_REDUCTIONS = {"Sum", "Mean", "Max", "Min", "Prod", "All", "Any"}
_ARG_REDUCTIONS = {"ArgMax", "ArgMin"}
# op -> (its attribute TensorFlow takes as an input, whether that input is a scalar)
_SETTING_INPUTS = {"Reshape": ("shape", False), "ConcatV2": ("axis", True), "Transpose": ("perm", False)}


class _Resource:
    name = "resource"

    def __repr__(self):
        return "tf.resource"


_RESOURCE = _Resource()


def _out_slots(node):
    """The slots a node gives (None where an output is not a tensor)."""
    kind = node[0]
    if kind is OP:
        return [node[4]]
    if kind is READ:
        return [node[2]]
    if kind is CALL:
        return list(node[4])
    if kind is VJP:
        return list(node[5])
    return []


def _open_dims(first, second):
    """slot of ``first`` -> its dimensions with None where the trace with an open signature's
    unknown sizes 1 (``first``) and the hidden one with sizes 2 (``second``) saw different sizes:
    the dimensions that follow the open ones, which TensorFlow's graph shows unknown. Empty when
    there is no second trace or it recorded other ops (the body took another path)."""
    if second is None or len(first.nodes) != len(second.nodes) or any(
            a[0] is not b[0] or (a[0] is OP and a[1] is not b[1]) for a, b in zip(first.nodes, second.nodes)):
        return {}
    pairs = [(a, b) for (_, a), (_, b) in zip(first.inputs, second.inputs)]
    for a, b in zip(first.nodes, second.nodes):
        pairs += zip(_out_slots(a), _out_slots(b))
    out = {}
    for a, b in pairs:
        if not isinstance(a, int) or not isinstance(b, int):
            continue
        sa, sb = first.example(a).shape, second.example(b).shape
        if sa is not None and sb is not None and len(sa) == len(sb):
            out[a] = tuple(x if x == y else None for x, y in zip(sa, sb))
    return out


def _flat(structure):
    if isinstance(structure, dict):
        return [x for v in structure.values() for x in _flat(v)]
    if isinstance(structure, (list, tuple)):
        return [x for v in structure for x in _flat(v)]
    return [structure]
