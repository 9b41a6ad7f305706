"""A trace's graph compiled into one straight-line Python function, for replays that nothing
records (no tape or accumulator active).

The graph's nodes kinds are declared here (``graph`` records them). ``compile_nodes`` writes the
source of a function ``_replay(fi)`` (``fi``: the call's flat inputs) with one line per node and
one local variable per slot, holding the slot's array (not a tensor):

* an op is its primitive's implementation without the dtype guard (``checks.dtype_rules.guard``:
  the trace checked the dtypes, and a graph is per input dtypes and shapes), called on the
  arrays with its attributes as keywords;
* a variable read takes the variable's array, as ``Variable.read_value`` does with nothing
  recording (a variable class with its own ``read_value`` is called);
* an assignment calls the variable's own method (``assign_sub``...) with a tensor, as eager;
* a reverse rule kept as one node is called on tensors around the arrays, as eager calls it;
* the implementations, constants' arrays, variables and attributes are bound in a closure;
* an op whose inputs are all constants is computed once, when compiling (a primitive is a
  function of its inputs alone: a gradient's seed broadcast and divided by a count);
* the first line checks that every primitive still has the implementation compiled in
  (``check_numerics`` and the kernels replace them): if not, ``_replay`` returns None and the
  caller compiles again.

Graphs with ``cond``/``while`` nodes, or an engine function called again (``call``, see
``replayed.py``), do not compile (they run ``graph.run_nodes``'s steps). An op that raises is
found by the line it raised on (``failed_node``), so the caller can run the graph on from that node
through ``recording.bind``, which raises the eager error.
"""
from ..tensor import EagerTensor, wrap
from ..variables import Variable

OP, READ, ASSIGN, VJP, COND, WHILE, CALL = "op", "read", "assign", "vjp", "cond", "while", "call"
_COMPILED_KINDS = (OP, READ, ASSIGN, VJP)
_FILENAME = "<tapegrad traced graph>"
_LITERALS = (bool, int, type(None), str)


def unguarded(impl):
    """``impl`` without the dtype guard ``checks`` put in front of it."""
    return impl.__wrapped__ if getattr(impl, "_dtype_rule", False) else impl


class Program:
    """A compiled graph: ``run(flat_inputs)`` gives the output tensors, one per slot of
    ``out_slots`` (None when an implementation was replaced since); ``code`` is the function's
    code object and ``node_at`` maps its line numbers to node indexes."""

    __slots__ = ("run", "code", "node_at", "out_slots", "folded")

    def __init__(self, run, node_at, out_slots, folded):
        self.run, self.code, self.node_at, self.out_slots = run, run.__code__, node_at, out_slots
        self.folded = folded         # slot -> array of the ops computed when compiling

    def failed_node(self, error):
        """The index of the node whose line raised ``error`` and the function's local variables
        then (``v<slot>`` -> array); None when ``error`` did not come from a node's line."""
        tb = error.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code is self.code:
                k = self.node_at.get(tb.tb_lineno)
                return None if k is None else (k, tb.tb_frame.f_locals)
            tb = tb.tb_next
        return None


class _Writer:
    """The generated source and the values its closure binds."""

    def __init__(self, constants, inputs):
        self.bound = {}               # closure name -> value
        self._names = {}              # (kind, id(value)) -> closure name
        self.lines = []
        self.node_at = {}
        self.tensor_of = {}           # slot -> expression of its tensor (inputs, constants)
        self.known = {}               # slot -> its array, known now: constants, folded ops
        self.folded = {}              # slot -> the array of an op folded now
        self._constants = constants
        for i, slot in inputs:
            self.lines.append(f"v{slot} = fi[{i}]._value")
            self.tensor_of[slot] = f"fi[{i}]"
        for slot, t in constants.items():
            self.bound[f"v{slot}"] = self.known[slot] = t._value

    def bind(self, kind, value):
        key = (kind, id(value))
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = f"{kind}{len(self._names)}"
            self.bound[name] = value
        return name

    def literal(self, value):
        if type(value) in _LITERALS or (type(value) is tuple and all(type(v) is int for v in value)):
            return repr(value)
        return self.bind("K", value)

    def tensor(self, slot):
        """The expression of a slot's tensor: an input's or a constant's own, else a new one."""
        if slot in self.tensor_of:
            return self.tensor_of[slot]
        if slot in self._constants:
            self.tensor_of[slot] = self.bind("T", self._constants[slot])
            return self.tensor_of[slot]
        return f"W(v{slot})"

    def fold(self, impl, ins, attrs, out):
        """Computes now an op whose inputs are all known (a primitive is a function of its
        inputs alone); False where it raises (the run raises as eager does)."""
        if not all(j in self.known for j in ins):
            return False
        try:
            value = impl(*[self.known[j] for j in ins], **attrs)
        except Exception:
            return False
        self.bound[f"v{out}"] = self.known[out] = self.folded[out] = value
        return True

    def variable(self, ref):
        """The expression of a variable node's variable (an argument's index, or the variable)."""
        return f"fi[{ref}]" if type(ref) is int else self.bind("V", ref)

    def node(self, k, node):
        kind = node[0]
        if kind is OP:
            _, prim, attrs, ins, out = node
            if self.fold(unguarded(prim.impl), ins, attrs or {}, out):
                return
            impl = self.bind("F", unguarded(prim.impl))
            args = [f"v{j}" for j in ins]
            args += [f"{name}={self.literal(v)}" for name, v in (attrs or {}).items()]
            text = f"v{out} = {impl}({', '.join(args)})"
        elif kind is READ:
            ref, out = node[1], node[2]
            plain = type(ref) is not int and type(ref).read_value is Variable.read_value
            var = self.variable(ref)
            text = f"v{out} = {var}._value" if plain else f"v{out} = {var}.read_value()._value"
        elif kind is VJP:
            _, vjp, attrs, wanted, ins, outs, _name = node
            rule = self.bind("J", _rule_on_arrays(vjp, attrs, wanted))
            args = [self.variable(j[0]) if type(j) is tuple else f"v{j}" for j in ins]
            targets = "".join(f"v{slot}, " if slot is not None else "_, " for slot in outs)
            text = f"{targets}= {rule}({', '.join(args)})"
        else:
            _, ref, method, slot = node
            text = f"{self.variable(ref)}.{method}({self.tensor(slot)}, read_value=False)"
        self.lines.append(text)
        # (its line in ``_factory``'s source: that line, ``def _replay``, the guard's two)
        self.node_at[len(self.lines) + 4] = k


def _rule_on_arrays(vjp, attrs, wanted):
    """A reverse rule kept as one node (see ``graph._recorded_vjp``) as a compiled line calls
    it: on the arrays of the cotangent, the op's output and its inputs (a variable stays one),
    giving one array (or None) per input."""
    def rule(g, ans, *inputs):
        ins = tuple([x if isinstance(x, Variable) else wrap(x) for x in inputs])
        out = vjp(wrap(g), wrap(ans), ins, attrs, wanted)
        return [None if c is None else c._value for c in out]
    return rule


def compile_nodes(nodes, constants, inputs, out_slots, prims):
    """A ``Program`` for ``nodes`` (see the module docstring), or None when a node's kind does
    not compile. ``constants``: slot -> tensor; ``inputs``: (input index, slot) pairs;
    ``out_slots``: the slots whose tensors ``run`` returns; ``prims``: the primitives
    (``compile_nodes`` reads their ``impl`` now, and the function checks it on each run)."""
    if any(node[0] not in _COMPILED_KINDS for node in nodes):
        return None
    w = _Writer(constants, inputs)
    for k, node in enumerate(nodes):
        w.node(k, node)
    outs = ", ".join(w.tensor(slot) for slot in out_slots)
    w.lines.append(f"return ({outs}{',' if len(out_slots) == 1 else ''})")
    guard = " or ".join(f"{w.bind('P', p)}.impl is not {w.bind('I', p.impl)}" for p in prims)
    source = (f"def _replay(fi):\n    if {guard or 'False'}:\n        return None\n" +
              "".join(f"    {line}\n" for line in w.lines))
    names = list(w.bound)
    factory = f"def _factory({', '.join(['W', *names])}):\n" + \
        "".join(f"    {line}\n" for line in source.splitlines()) + "    return _replay\n"
    namespace = {"__name__": __name__}
    exec(compile(factory, _FILENAME, "exec"), namespace)
    run = namespace["_factory"](wrap, *[w.bound[n] for n in names])
    return Program(run, w.node_at, tuple(out_slots), w.folded)


def as_tensor(value):
    """A slot's value of a compiled run as ``graph.run_nodes`` holds it (a tensor)."""
    return value if isinstance(value, EagerTensor) else wrap(value)
