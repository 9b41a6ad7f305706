"""Graph control flow in a trace: a branch or a loop whose predicate the trace computed becomes one
node of the graph (``COND``, ``WHILE`` in ``graph``), so later calls replay it for any input.

While a trace records, ``traced_cond`` runs both branch functions (their Python runs once each, as
TensorFlow's tracing of ``tf.cond`` does), each into its own list of nodes; the untaken branch's
variable updates are undone. ``traced_while`` runs the condition and the body once each on
stand-ins for the loop variables, then computes the trace's own result by running the recorded
nodes round the loop (the body's Python runs once, whatever the number of iterations). Both
refuse what TensorFlow's graphs refuse: branches of different structures or dtypes, a loop
variable that changes dtype or shape. Either returns ``NOT_TRACED`` when there is no trace to
record into (eager code, a predicate from Python values): the caller then runs plain Python.
"""
from ..backend import host as np
from ..ops.arithmetic_ops import identity
from ..tape import GradientTape
from ..tensor import Tensor, convert_to_tensor, wrap
from ..thread_state import state
from .graph import _SLOT, COND, WHILE, _recorders, run_nodes, truth

NOT_TRACED = object()


class ControlFlowError(Exception):
    """Carries a graph error of converted control flow: ``error`` (TensorFlow's class and text)."""


def recorder_for(pred):
    """The trace recording ``pred``'s computation, or None (no trace, a constant predicate)."""
    if not _recorders or not isinstance(pred, Tensor):
        return None
    r = _recorders[-1]
    if r.opaque or not r.computed(pred):
        return None
    for outer in _recorders[:-1]:
        outer.fail("control flow converted inside a nested trace")
    active = state.active
    inner = active[active.index(r) + 1:] if r in active else ()
    if any(isinstance(t, GradientTape) for t in inner):
        r.fail("a tape inside the function watched converted control flow")
        return None
    return r


def tracing():
    """Whether a trace is recording (one whose ops are not hidden)."""
    return bool(_recorders) and not _recorders[-1].opaque


def traced(x):
    """Whether ``x`` is a tensor the innermost trace computed."""
    return isinstance(x, Tensor) and tracing() and _recorders[-1].computed(x)


def staged(fn):
    """``fn()`` run while the innermost trace records into a list that is thrown away (variable
    updates undone): a loop body staged once to see what its variables become."""
    return _record(_recorders[-1], fn, undo=True)[1]


def _leaves(x, out):
    if isinstance(x, dict):
        for v in x.values():
            _leaves(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _leaves(v, out)
    else:
        out.append(x)
    return out


def _rebuild(template, leaves):
    it = iter(leaves)

    def walk(x):
        if isinstance(x, dict):
            return type(x)((k, walk(v)) for k, v in x.items())
        if isinstance(x, tuple) and hasattr(x, "_fields"):
            return type(x)(*[walk(v) for v in x])
        if isinstance(x, (list, tuple)):
            return type(x)(walk(v) for v in x)
        return next(it)
    return walk(template)


def _record(r, fn, undo):
    """Runs ``fn()`` with ``r`` recording into a fresh node list: ``(nodes, result)``; with
    ``undo``, variables it assigned get their values back."""
    saved_nodes, saved_undo = r.nodes, r.undo
    r.nodes, r.undo = [], ([] if undo else saved_undo)
    try:
        result = fn()
    finally:
        nodes, undone = r.nodes, r.undo
        r.nodes, r.undo = saved_nodes, saved_undo
        if undo:
            for var, array in reversed(undone):
                var._value = array
    return nodes, result


def _shown(r, x):
    """``x`` passed through an identity no trace records (tapes do: gradients flow)."""
    r.opaque += 1
    try:
        return identity(x)
    finally:
        r.opaque -= 1


def _name(names, i):
    return f"'{names[i]}'" if names and i < len(names) else f"output {i}"


def _matched_leaves(true_leaves, false_leaves, names):
    """The two branches' leaves made comparable: Python values that differ become tensors;
    TensorFlow's errors for leaves of different kinds or dtypes."""
    if len(true_leaves) != len(false_leaves):
        raise ControlFlowError(ValueError(
            "true_fn and false_fn arguments to tf.cond must have the same number, type, and "
            "overall structure of return values."))
    pairs = []
    for i, (a, b) in enumerate(zip(true_leaves, false_leaves)):
        if not isinstance(a, Tensor) and not isinstance(b, Tensor) and _same(a, b):
            pairs.append((a, b))
            continue
        a, b = _as_tensor(a), _as_tensor(b)
        if a.dtype != b.dtype:
            raise ControlFlowError(TypeError(
                f"{_name(names, i)} has dtype {a.dtype.name} in the main branch, but dtype "
                f"{b.dtype.name} in the else branch"))
        pairs.append((a, b))
    return pairs


def _same(a, b):
    try:
        return a is b or bool(a == b)
    except Exception:            # (values Python cannot compare)
        return False


def _as_tensor(x):
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def traced_cond(pred, true_fn, false_fn, names=None, check=None):
    """``tf.cond`` as a node of the trace recording ``pred`` (see the module docstring), or
    ``NOT_TRACED``. ``names`` name the outputs in TensorFlow's errors (AutoGraph's variables);
    ``check(true_out, false_out)``, run once both branches have run, gives the outputs kept."""
    r = recorder_for(pred)
    if r is None:
        return NOT_TRACED
    taken = truth(pred)
    true_nodes, true_out = _record(r, true_fn, undo=not taken)
    false_nodes, false_out = _record(r, false_fn, undo=taken)
    if check is not None:
        true_out, false_out = check(true_out, false_out)
    pairs = _matched_leaves(_leaves(true_out, []), _leaves(false_out, []), names)
    true_slots, false_slots, outs, leaves = [], [], [], []
    for a, b in pairs:
        if not isinstance(a, Tensor):
            leaves.append(a)
            continue
        true_slots.append(r.slot_of(a))
        false_slots.append(r.slot_of(b))
        out = _shown(r, a if taken else b)
        r._slot[out._id] = slot = r._new(out)
        outs.append(slot)
        leaves.append(out)
    r.branched = True
    r.nodes.append((COND, r.slot_of(pred), (tuple(true_nodes), tuple(true_slots)),
                    (tuple(false_nodes), tuple(false_slots)), tuple(outs)))
    return _rebuild(true_out, leaves)


def _stand_in(r, x):
    """A fresh tensor holding ``x``'s value, given its own slot: a loop variable as the loop's
    condition and body see it."""
    r.opaque += 1
    try:
        t = wrap(_SLOT.__get__(x, Tensor))
    finally:
        r.opaque -= 1
    r._slot[t._id] = r._new(t)
    return t


def _check_loop_leaves(before, after, names):
    if len(before) != len(after):
        raise ControlFlowError(ValueError(
            "The two structures don't have the same nested structure (the loop variables "
            "before the loop and after one iteration)."))
    for i, (a, b) in enumerate(zip(before, after)):
        if a.dtype != b.dtype:
            raise ControlFlowError(TypeError(
                f"{_name(names, i)} has dtype {a.dtype.name} before the loop, but dtype "
                f"{b.dtype.name} after one iteration"))
        if tuple(a.shape) != tuple(b.shape):
            raise ControlFlowError(ValueError(
                f"{_name(names, i)} has shape {tuple(a.shape)} before the loop, but shape "
                f"{tuple(b.shape)} after one iteration. Use "
                f"tf.autograph.experimental.set_loop_options to set shape invariants."))


def traced_while(cond, body, loop_vars, names=None, check=None):
    """``tf.while_loop(cond, body, loop_vars)`` as a node of the trace recording the first
    value of ``cond`` (see the module docstring), or ``NOT_TRACED``. Non-tensor loop values
    become tensors. ``check(before, after)`` (the loop variables' leaves before the loop and
    after one iteration) replaces AutoGraph's checks of them."""
    flat = _leaves(loop_vars, [])
    if not all(isinstance(v, (Tensor, int, float, bool, np.ndarray)) for v in flat):
        return NOT_TRACED        # (a TensorArray, a Python object: the loop runs in Python)
    flat = [_as_tensor(v) for v in flat]
    first = cond(*_as_args(_rebuild(loop_vars, flat)))
    r = recorder_for(first)
    if r is None:
        return NOT_TRACED
    stand_ins = [_stand_in(r, v) for v in flat]
    structure = _rebuild(loop_vars, stand_ins)
    cond_nodes, c = _record(r, lambda: cond(*_as_args(structure)), undo=True)
    body_nodes, out = _record(r, lambda: body(*_as_args(structure)), undo=True)
    out_flat = [_as_tensor(v) for v in _leaves(out, [])]
    if len(flat) != len(out_flat) or check is None:
        _check_loop_leaves(flat, out_flat, names)
    else:
        check(flat, out_flat)
    loop = [r._slot[t._id] for t in stand_ins]
    node = (WHILE, tuple(loop), tuple(r.slot_of(v) for v in flat),
            (tuple(cond_nodes), r.slot_of(c)),
            (tuple(body_nodes), tuple(r.slot_of(v) for v in out_flat)))
    vals = list(r.held)
    reason = r.reason
    r.opaque += 1
    try:
        run_nodes([node], vals, r.flat_inputs)
        results = [identity(vals[slot]) for slot in loop]
    finally:
        r.opaque -= 1
        r.reason = reason     # (the loop's variable reads, seen while hidden, are its nodes')
    for t, slot in zip(results, loop):
        r._slot[t._id] = slot
        r.held[slot] = t
    r.branched = True
    r.nodes.append(node)
    return _rebuild(loop_vars, results)


def _as_args(structure):
    return structure if isinstance(structure, (list, tuple)) else (structure,)
