"""``tf.cond``, ``tf.case``, ``tf.switch_case`` and ``tf.while_loop`` called while a
``tf.function`` traces, over a predicate (or loop) the trace computed: one ``COND`` or ``WHILE``
node of the trace's graph (``function.control``, the nodes AutoGraph's converted statements
make), so later calls replay it for any input, with TensorFlow's graph-time checks (branches of
different structures or dtypes, a loop variable changing dtype, or shape without
``shape_invariants``). Each function returns ``NOT_TRACED`` where there is no such trace: the
caller then runs eagerly. Tapes around the call record the replayed ops, so gradients flow
through the branch taken and the iterations run.
"""
from .. import nest
from ..function.control import NOT_TRACED, ControlFlowError, traced, traced_cond, traced_while
from ..function.graph import in_user_code
from ..ops.logic_ops import equal, logical_and, less
from ..tensor import Tensor, convert_to_tensor
from ..tensor_shape import TensorShape
from .structure import assert_same_structure

_SAME = ("true_fn and false_fn arguments to tf.cond must have the same number, type, and "
         "overall structure of return values.")


def _raised(frame, error):
    """``error`` as TensorFlow raises it, from the user's line in ``frame``."""
    cls = type(error)
    return cls(in_user_code(frame, f"{cls.__name__}: {error}"))


def _check_branches(true_out, false_out):
    """TensorFlow's checks of ``tf.cond``'s two results (``traced_cond``'s ``check``)."""
    true_flat, false_flat = nest.flatten(true_out), nest.flatten(false_out)
    if len(true_flat) != len(false_flat):
        raise ControlFlowError(AssertionError(f"[{len(true_flat)}, {len(false_flat)}]"))
    detail = None
    try:
        assert_same_structure(true_out, false_out, what="true_fn outputs")
    except (ValueError, TypeError):
        detail = "The two structures don't have the same nested structure."
    for a, b in zip(true_flat, false_flat):
        if detail is None and isinstance(a, Tensor) and isinstance(b, Tensor) and \
                a.dtype != b.dtype:
            detail = f"{a!r} and {b!r} have different types"
    if detail is not None:
        raise ControlFlowError(TypeError(
            f"{_SAME}\n\ntrue_fn output: {true_out!r}\nfalse_fn output: {false_out!r}\n\n"
            f"Error details:\n{detail}"))
    return true_out, false_out


def cond(pred, true_fn, false_fn, frame):
    """``tf.cond`` as a graph node, or ``NOT_TRACED``."""
    try:
        return traced_cond(pred, true_fn, false_fn, check=_check_branches)
    except ControlFlowError as e:
        raise _raised(frame, e.args[0]) from None


def _chain(preds, fns, default):
    """``fns[0]()`` if ``preds[0]`` else ... else ``default()``, as nested ``tf.cond``s."""
    if not preds:
        return default()
    return traced_cond(preds[0], fns[0], lambda: _chain(preds[1:], fns[1:], default),
                       check=_check_branches)


def chain(preds, fns, default, frame):
    """``tf.case`` (its first true predicate's function, else ``default``) as nested graph
    nodes, or ``NOT_TRACED`` where a predicate is not one the trace computed."""
    if not all(traced(p) for p in preds):
        return NOT_TRACED
    try:
        return _chain(preds, fns, default)
    except ControlFlowError as e:
        raise _raised(frame, e.args[0]) from None


def switch_case(branch_index, actions, frame):
    """``tf.switch_case`` over ``actions`` (the last one also for indices out of range)."""
    if not traced(branch_index):
        return NOT_TRACED
    preds = [equal(branch_index, i) for i in range(len(actions) - 1)]
    return chain(preds, actions[:-1], actions[-1], frame)


def _loop_check(invariants, offset):
    """TensorFlow's checks of ``tf.while_loop``'s variables after one iteration:
    ``invariants`` (per loop variable, after ``offset`` counters) a shape each may take."""
    def check(before, after):
        for i, (a, b) in enumerate(zip(before, after)):
            if i < offset:
                continue
            name = f"loop_vars[{i - offset}]"
            if a.dtype != b.dtype:
                raise ControlFlowError(TypeError(
                    f"Loop var {name} enters the loop with type <dtype: '{a.dtype.name}'> but "
                    f"has type <dtype: '{b.dtype.name}'> after 1 iteration. {name} type should "
                    "remain constant."))
            invariant = invariants[i - offset]
            allowed = TensorShape(a.shape) if invariant is None else TensorShape(invariant)
            if not allowed.is_compatible_with(TensorShape(b.shape)):
                raise ControlFlowError(ValueError(
                    f"Input tensor `{name}` enters the loop with shape {TensorShape(a.shape)}, "
                    f"but has shape {TensorShape(b.shape)} after one iteration. To allow the "
                    "shape to vary across iterations, use the `shape_invariants` argument of "
                    "tf.while_loop to specify a less-specific shape."))
    return check


def _invariants(loop_vars, shape_invariants):
    """One shape (or None) per loop variable, or None where they cannot be lined up (nested
    loop variables with invariants: the loop then runs eagerly)."""
    if shape_invariants is None:
        return [None] * len(nest.flatten(loop_vars))
    if any(nest.is_nested(v) for v in loop_vars) or \
            not isinstance(shape_invariants, (list, tuple)) or \
            len(shape_invariants) != len(loop_vars):
        return None
    return list(shape_invariants)


def _step(results, out):
    """The body's result ``out`` as the loop variables (TensorFlow's errors, from the user's
    line, where they do not match)."""
    try:
        return results(out)
    except (ValueError, TypeError) as e:
        raise ControlFlowError(e) from None


def while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations, results, frame):
    """``tf.while_loop`` as a graph node, or ``NOT_TRACED``; ``results(out)``: the body's
    result as a list of the loop variables (``loops``' checks)."""
    invariants = _invariants(loop_vars, shape_invariants)
    if not isinstance(loop_vars, (list, tuple)) or invariants is None:
        return NOT_TRACED
    if maximum_iterations is None:
        state, offset = loop_vars, 0
        step_cond = cond
        step_body = lambda *lv: _step(results, body(*lv))   # noqa: E731
    else:
        limit = convert_to_tensor(maximum_iterations)
        if limit.ndim != 0:
            raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: "
                             f"{limit.shape}")
        state, offset = (convert_to_tensor(0, dtype=limit.dtype), loop_vars), 1
        step_cond = lambda i, lv: logical_and(less(i, limit), cond(*lv))   # noqa: E731
        step_body = lambda i, lv: (i + 1, _step(results, body(*lv)))   # noqa: E731
    try:
        out = traced_while(step_cond, step_body, state, check=_loop_check(invariants, offset))
    except ControlFlowError as e:
        raise _raised(frame, e.args[0]) from None
    if out is NOT_TRACED or maximum_iterations is None:
        return out
    return out[1]
