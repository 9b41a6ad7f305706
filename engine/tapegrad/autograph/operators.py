"""What converted code calls (as ``ag__``): each statement AutoGraph converts runs as Python when
its condition or iterable is a Python value, and as graph control flow (``function.control``)
when it is a tensor a trace computed; an eager tensor (no trace) runs as Python too.

A converted statement hands over its bodies as functions and its variables through
``get_state``/``set_state`` (a tuple of the variables it assigns, named by ``names``).
"""
import sys

from ..function.control import NOT_TRACED, ControlFlowError, traced_cond, traced_while
from ..function.graph import in_user_code
from ..ops.indexing_ops import gather
from ..tensor import Tensor, convert_to_tensor


class Undefined:
    """The value of a variable no statement has assigned yet (what Python would have unbound)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<undefined {self.name}>"


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
                raise ControlFlowError(ValueError(
                    f"'{names[i]}' must also be initialized in the {branch} branch"))
            keep.append(i)
        kept[:] = keep
        return tuple(true_out[i] for i in keep), tuple(false_out[i] for i in keep)
    return check


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


def _loop_state(get_state, set_state):
    """``(initial, kept, put)``: the loop's variables defined before it (the loop carries
    those), and ``put(values)`` setting them."""
    initial = get_state()
    kept = [i for i, v in enumerate(initial) if not isinstance(v, Undefined)]

    def put(values):
        state = list(get_state())
        for i, v in zip(kept, values):
            state[i] = v
        set_state(tuple(state))
    return initial, kept, put


def _run_loop(frame, cond, body, loop_vars, names):
    try:
        return traced_while(cond, body, loop_vars)
    except ControlFlowError as e:
        raise _user_error(frame, _named(e.args[0], names)) from None


def while_stmt(test, body, get_state, set_state, names):
    """A converted ``while test(): body()``."""
    frame = sys._getframe(1)
    initial, kept, put = _loop_state(get_state, set_state)

    def loop_cond(*values):
        put(values)
        return test()

    def loop_body(*values):
        put(values)
        body()
        state = get_state()
        return tuple(state[i] for i in kept)
    if isinstance(test(), Tensor):
        out = _run_loop(frame, loop_cond, loop_body, tuple(initial[i] for i in kept),
                        [names[i] for i in kept])
        if out is not NOT_TRACED:
            put(out)
            return
        set_state(initial)
    while test():
        body()


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


def _range_loop(frame, iterable, body, get_state, set_state, names):
    """A converted ``for`` over ``tf.range``: a graph loop, or NOT_TRACED."""
    initial, kept, put = _loop_state(get_state, set_state)
    start, limit, delta = iterable.bounds()

    def loop_cond(i, *values):
        return (limit - i) * delta > 0

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
        set_state(initial)
    return out


def for_stmt(iterable, body, get_state, set_state, names):
    """A converted ``for target in iterable: body(item)``: a loop over ``tf.range`` or a
    tensor's rows is graph control flow; any other iterable runs (unrolls) in Python."""
    if isinstance(iterable, Range):
        if _range_loop(sys._getframe(1), iterable, body, get_state, set_state,
                       names) is not NOT_TRACED:
            return
        iterable = iterable.make(*iterable.args, **iterable.kwargs)
    if not isinstance(iterable, Tensor) or not iterable.shape.rank:
        for item in iterable:
            body(item)
        return
    frame = sys._getframe(1)
    initial, kept, put = _loop_state(get_state, set_state)
    n = iterable.shape[0]

    def loop_cond(i, *values):
        return i < n

    def loop_body(i, *values):
        put(values)
        body(gather(iterable, i))
        state = get_state()
        return (i + 1,) + tuple(state[j] for j in kept)
    start = (convert_to_tensor(0),) + tuple(initial[j] for j in kept)
    out = _run_loop(frame, loop_cond, loop_body, start, ["<index>"] + [names[j] for j in kept])
    if out is NOT_TRACED:
        set_state(initial)
        for item in iterable:
            body(item)
    else:
        put(out[1:])
