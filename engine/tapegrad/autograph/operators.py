"""What converted code calls (as ``ag__``): each statement AutoGraph converts runs as Python when
its condition or iterable is a Python value, and as graph control flow (``function.control``)
when it is a tensor a trace computed; an eager tensor (no trace) runs as Python too.

A converted statement hands over its bodies as functions and its variables through
``get_state``/``set_state`` (a tuple of the variables it assigns, named by ``names``).
"""
import sys

from ..control_flow.structure import assert_same_structure
from ..function.control import (NOT_TRACED, ControlFlowError, staged, traced, traced_cond,
                                traced_while, tracing)
from ..function.graph import in_user_code
from ..ops.array_ops import zeros
from ..ops.indexing_ops import gather
from ..ops.logic_ops import logical_and, logical_not
from ..tensor import Tensor, convert_to_tensor


class Undefined:
    """The value of a variable no statement has assigned yet (what Python would have unbound)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<undefined {self.name}>"


class UndefinedReturnValue(Undefined):
    """``retval_`` before a lowered ``return`` has set it."""

    def __init__(self):
        super().__init__("retval_")


def not_(x):
    """A lowered ``not x``: ``tf.logical_not`` of a tensor."""
    return logical_not(x) if isinstance(x, Tensor) else not x


def and_(a, b):
    """A lowered ``a() and b()``: over a tensor ``tf.logical_and`` (both computed, as a
    graph's condition is), else Python's short-circuit ``and``."""
    x = a()
    if isinstance(x, Tensor):
        return logical_and(x, b())
    return x and b()


def ret(value, did_return):
    """The value a function with lowered returns gives: None where none was set."""
    return None if isinstance(value, UndefinedReturnValue) else value


_PY_LOOP_TENSOR = {
    "for": "break and return statements which depend on a TF condition are not supported in "
           "Python for loops. Did you intend to make it a TF loop?",
    "while": "The condition of while loop started as non-Tensor, then changed to Tensor. This "
             "may happen either because variables changed type, or when a break or return "
             "statement inside the loop depends on a Tensor condition. In both cases, changing "
             "to a TF loop should remove the error."}
_LIMITATIONS = ("\nSee https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/"
                "autograph/g3doc/reference/limitations.md#consistency-of-control-flow-types "
                "for more info.")


def _go_on(value, kind, frame):
    """A Python loop's test: a tensor the trace computed (a ``break`` or ``return`` under a
    tensor condition) is TensorFlow's NotImplementedError, from the loop's line in ``frame``."""
    if traced(value):
        raise _user_error(frame, NotImplementedError(_PY_LOOP_TENSOR[kind] + _LIMITATIONS))
    return bool(value)


def _user_error(frame, error):
    """``error`` as TensorFlow raises it from the converted statement called in ``frame``."""
    cls = type(error)
    return cls(in_user_code(frame, f"{cls.__name__}: {error}"))


def _prune(names, outside, kept):
    """The check of a converted ``if`` (``traced_cond``'s ``check``): a variable set by one
    branch only and read after the ``if`` (in ``outside``) is TensorFlow's ValueError; one set
    by neither, or by one and read only inside it, is left out (``kept``: the names that
    stay)."""
    def check(true_out, false_out):
        keep = []
        for i, (a, b) in enumerate(zip(true_out, false_out)):
            a_undefined, b_undefined = isinstance(a, Undefined), isinstance(b, Undefined)
            if (a_undefined and b_undefined) or ((a_undefined or b_undefined)
                                                 and names[i] not in outside):
                continue
            if a_undefined or b_undefined:
                branch = "main" if a_undefined else "else"
                if isinstance(a if a_undefined else b, UndefinedReturnValue):
                    raise ControlFlowError(ValueError(
                        f"the {branch} branch must also have a return statement."))
                raise ControlFlowError(ValueError(
                    f"'{names[i]}' must also be initialized in the {branch} branch"))
            _same_nesting(names[i], a, b)
            keep.append(i)
        kept[:] = keep
        return tuple(true_out[i] for i in keep), tuple(false_out[i] for i in keep)
    return check


def _same_nesting(name, a, b):
    """TensorFlow's TypeError for a variable nested differently by the two branches."""
    try:
        assert_same_structure(a, b)
    except (ValueError, TypeError):
        raise ControlFlowError(TypeError(
            f"'{name}' must have the same nested structure in the main and else branches:\n\n"
            f"The two structures don't have the same nested structure.\n\nFirst structure: "
            f"type={type(a).__name__} str={a!r}\n\nSecond structure: type={type(b).__name__} "
            f"str={b!r}")) from None


def if_stmt(cond, body, orelse, get_state, set_state, names, outside):
    """A converted ``if cond: body() else: orelse()``: ``names`` its variables, ``outside``
    those read elsewhere in the function."""
    if isinstance(cond, Tensor):
        frame = sys._getframe(1)
        init = get_state()

        def branch(fn):
            def run():
                set_state(init)
                fn()
                return get_state()
            return run
        kept = []
        try:
            out = traced_cond(cond, branch(body), branch(orelse), names=None,
                              check=_prune(names, outside, kept))
        except ControlFlowError as e:
            raise _user_error(frame, _named(e.args[0], [names[i] for i in kept])) from None
        if out is not NOT_TRACED:
            state = list(init)
            for i, v in zip(kept, out):
                state[i] = v
            set_state(tuple(state))
            return
    if cond:
        body()
    else:
        orelse()


def _named(error, names):
    """``error`` with the ``output i`` of ``function.control``'s messages named."""
    text = str(error)
    for i, name in enumerate(names):
        text = text.replace(f"output {i} ", f"'{name}' ")
    return type(error)(text)


def _loop_state(get_state, set_state, loop=None):
    """``(initial, kept, put)``: the loop's variables defined before it (the loop carries
    those), and ``put(values)`` setting them. For a graph loop, ``loop`` is ``(stage, names,
    outside, frame)``: variables undefined before the loop and read after it start as zeros of
    what one staged run of the body (``stage()``) makes them, and are carried too, as
    TensorFlow does (its errors where that cannot be)."""
    initial = get_state()
    if loop is not None:
        initial = _placeholders(initial, get_state, set_state, *loop)
    kept = [i for i, v in enumerate(initial) if not isinstance(v, Undefined)]

    def put(values):
        state = list(get_state())
        for i, v in zip(kept, values):
            state[i] = v
        set_state(tuple(state))
    return initial, kept, put


_RETURN_IN_LOOP = ("a return statement cannot be placed inside this TensorFlow loop; this may "
                   "happen if a return statement depends on a static Python condition such as "
                   "a hyperparameter")


def _placeholders(initial, get_state, set_state, stage, names, outside, frame):
    needed = [i for i, v in enumerate(initial)
              if isinstance(v, Undefined) and names[i] in outside]
    if not needed:
        return initial
    if any(isinstance(initial[i], UndefinedReturnValue) for i in needed):
        raise _user_error(frame, NotImplementedError(_RETURN_IN_LOOP))

    def run():
        stage()
        return get_state()
    note = ""
    try:
        after = staged(run)
    except (UnboundLocalError, TypeError, ValueError, KeyError) as e:
        after, note = initial, ("\nNote: AutoGraph tried to define it automatically, but ran "
                                f"into a {type(e).__name__}: {e}")
    finally:
        set_state(initial)
    out = list(initial)
    for i in needed:
        a = after[i]
        if not isinstance(a, (Tensor, int, float)):
            raise _user_error(frame, ValueError(
                f"'{names[i]}' must be defined before the loop{note}"))
        a = _as_tensor(a)
        out[i] = zeros(a.shape, a.dtype)
    return tuple(out)


def _as_tensor(x):
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def _run_loop(frame, cond, body, loop_vars, names):
    try:
        return traced_while(cond, body, loop_vars)
    except ControlFlowError as e:
        raise _user_error(frame, _named(e.args[0], names)) from None


def while_stmt(test, body, get_state, set_state, names, outside=()):
    """A converted ``while test(): body()``; ``outside``: its variables read after it."""
    frame = sys._getframe(1)
    first, before = test(), get_state()
    if isinstance(first, Tensor):
        initial, kept, put = _loop_state(get_state, set_state, (body, names, outside, frame)
                                         if traced(first) else None)

        def loop_cond(*values):
            put(values)
            return test()

        def loop_body(*values):
            put(values)
            body()
            state = get_state()
            return tuple(state[i] for i in kept)
        out = _run_loop(frame, loop_cond, loop_body, tuple(initial[i] for i in kept),
                        [names[i] for i in kept])
        if out is not NOT_TRACED:
            put(out)
            return
        set_state(before)
        while test():
            body()
        return
    while _go_on(first, "while", frame):
        body()
        first = test()


class Range:
    """``tf.range(...)`` as the iterable of a converted ``for``: not made (its length may be a
    tensor the trace computed); the loop counts from ``start`` by ``delta`` instead."""

    def __init__(self, make, *args, **kwargs):
        self.make, self.args, self.kwargs = make, args, kwargs

    def bounds(self):
        args = dict(zip(("start", "limit", "delta", "dtype"), self.args), **self.kwargs)
        start, limit = args.get("start", 0), args.get("limit")
        if limit is None:
            start, limit = 0, start
        dtype = args.get("dtype")
        start = convert_to_tensor(start, dtype=dtype)
        return start, convert_to_tensor(limit, dtype=start.dtype), \
            convert_to_tensor(args.get("delta", 1), dtype=start.dtype)


def _with_extra(in_range, extra_test):
    """A graph loop's condition: in range, and the lowered ``break``/``return`` flags unset."""
    if extra_test is None:
        return in_range
    return logical_and(in_range, extra_test())


def _range_loop(frame, iterable, body, get_state, set_state, names, outside, extra_test):
    """A converted ``for`` over ``tf.range``: a graph loop, or NOT_TRACED."""
    start, limit, delta = iterable.bounds()
    loop = ((lambda: body(start)), names, outside, frame) if tracing() else None
    before = get_state()
    initial, kept, put = _loop_state(get_state, set_state, loop)

    def loop_cond(i, *values):
        put(values)
        return _with_extra((limit - i) * delta > 0, extra_test)

    def loop_body(i, *values):
        put(values)
        body(i)
        state = get_state()
        return (i + delta,) + tuple(state[j] for j in kept)
    out = _run_loop(frame, loop_cond, loop_body, (start,) + tuple(initial[j] for j in kept),
                    ["<index>"] + [names[j] for j in kept])
    if out is not NOT_TRACED:
        put(out[1:])
    else:
        set_state(before)
    return out


def _py_for(iterable, body, extra_test, frame):
    """A ``for`` run (unrolled) in Python; ``extra_test`` (lowered flags) ends it."""
    if extra_test is not None and not _go_on(extra_test(), "for", frame):
        return
    for item in iterable:
        body(item)
        if extra_test is not None and not _go_on(extra_test(), "for", frame):
            return


def for_stmt(iterable, body, get_state, set_state, names, outside=(), extra_test=None):
    """A converted ``for target in iterable: body(item)``: a loop over ``tf.range`` or a
    tensor's rows is graph control flow; any other iterable runs (unrolls) in Python.
    ``extra_test``: the lowered ``break``/``return`` flags' test, which also ends the loop."""
    if isinstance(iterable, Range):
        if _range_loop(sys._getframe(1), iterable, body, get_state, set_state,
                       names, outside, extra_test) is not NOT_TRACED:
            return
        iterable = iterable.make(*iterable.args, **iterable.kwargs)
    frame = sys._getframe(1)
    if not isinstance(iterable, Tensor) or not iterable.shape.rank:
        _py_for(iterable, body, extra_test, frame)
        return
    n = iterable.shape[0]
    loop = ((lambda: body(gather(iterable, 0))), names, outside, frame) \
        if traced(iterable) and n else None
    before = get_state()
    initial, kept, put = _loop_state(get_state, set_state, loop)

    def loop_cond(i, *values):
        put(values)
        return _with_extra(i < n, extra_test)

    def loop_body(i, *values):
        put(values)
        body(gather(iterable, i))
        state = get_state()
        return (i + 1,) + tuple(state[j] for j in kept)
    start = (convert_to_tensor(0),) + tuple(initial[j] for j in kept)
    out = _run_loop(frame, loop_cond, loop_body, start, ["<index>"] + [names[j] for j in kept])
    if out is NOT_TRACED:
        set_state(before)
        _py_for(iterable, body, extra_test, frame)
    else:
        put(out[1:])
