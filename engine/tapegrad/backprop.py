"""The backward pass and what the tape, jacobians, forward mode and the graph share about it.

``backward`` walks the records once forwards to find what depends on the sources, then once
backwards over just those records, calling each primitive's VJP from the table. It is a plain
loop, so depth is never limited by Python's recursion.
"""
import enum

from .backend import xp as np  # the array seam (see backend.py)

from . import nest
from .ground import add
from .primitives import BINARY_RULES, UNARY_RULES, defbatched, defvjp, exempt, primitive
from . import shape_rules
from .primitives import defshape
from .tensor import Tensor, convert_to_tensor, wrap
from .thread_state import state
from .variables import Variable

# Reading a variable inside a tape: the edge from the variable to the tensor that was read.
READ = primitive("ReadVariableOp", None)
defvjp(READ, lambda g, ans, v: g)
defbatched(READ, READ.vjp)   # it broadcasts over the rows of a batched pass
exempt(READ, impl="the tape records a variable's read; no kernel runs it",
       dtypes="no kernel runs it: the variable's own dtype passes through",
       jvp="forward mode gives the tangent to the tensor read from the variable (forward.py)")
defshape(READ, shape_rules.same)


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


def unconnected(value):
    """``unconnected_gradients`` as an ``UnconnectedGradients`` ('none', 'zero' or the enum)."""
    if isinstance(value, UnconnectedGradients):
        return value
    try:
        return UnconnectedGradients(str(value).lower())
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r} (expected "
                         f"'none', 'zero' or tf.UnconnectedGradients)") from None


def _not_text(t, what):
    """A Python string is no tensor to differentiate: TensorFlow raises ``TypeError`` (it asks
    the string for a dtype)."""
    if isinstance(t, (str, bytes)):
        raise TypeError(f"GradientTape.gradient: {what} {t!r} is a Python string, not a tensor or "
                        f"variable; pass the tensor computed inside the tape's block")


def as_target(t):
    if isinstance(t, Tensor):
        return t
    _not_text(t, "target")
    if isinstance(t, (bool, int, float, complex)):   # TensorFlow asks the number for its dtype
        raise AttributeError(f"'{type(t).__name__}' object has no attribute 'dtype': "
                             f"GradientTape.gradient differentiates a tensor computed inside the "
                             f"tape, got the Python value {t!r}")
    if isinstance(t, Variable):
        return VariableTarget(t)
    return convert_to_tensor(t)


class VariableTarget:
    """A variable used as a target: differentiated through its handle, not a fresh read."""
    __slots__ = ("_value", "_id", "dtype")

    def __init__(self, v):
        self._value, self._id, self.dtype = v._value, v._id, v.dtype


def check_sources(flat_sources):
    for s in flat_sources:
        if not isinstance(s, (Tensor, Variable)):
            _not_text(s, "source")
            raise ValueError(f"Passed in object of type {type(s)}, not tf.Tensor or "
                             f"tf.Variable or ExtensionType.")


def seeds(targets, output_gradients):
    """The cotangent each target starts with: ones, or ``output_gradients``."""
    if output_gradients is None:
        # Speed: a scalar target's 1 made by the array constructor (C), not ``ones``' Python.
        # (A scalar is told by its rank: in a trace, reading a shape a replay may change would
        # tie the graph to it.)
        return [wrap(np.array(1, t._value.dtype) if t._value.ndim == 0
                     and t._value.dtype.kind in "fc" else np.ones(t._value.shape, t._value.dtype))
                for t in targets]
    flat = nest.flatten(output_gradients) if isinstance(output_gradients, (list, tuple, dict)) \
        else [output_gradients]
    if len(flat) != len(targets):
        raise ValueError(f"output_gradients has {len(flat)} entries but there are "
                         f"{len(targets)} targets")
    out = []
    for t, g in zip(targets, flat):
        if g is None:
            out.append(wrap(np.ones(t._value.shape, t._value.dtype)))
            continue
        g = g.read_value() if isinstance(g, Variable) else convert_to_tensor(g, dtype=t.dtype)
        if g._value.shape != t._value.shape:
            raise ValueError(f"output_gradients shape {g.shape} does not match target shape "
                             f"{tuple(t._value.shape)}")
        out.append(g)
    return out


class GradientCall:
    """One ``gradient`` call (or one row of a jacobian) as the graph and its animation need it:
    ``events`` are ``(record, upstream, cotangents, wanted)`` in the order the rules ran."""

    __slots__ = ("records", "targets", "sources", "seeds", "results", "events", "unconnected",
                 "kind", "row")

    def __init__(self, records, targets, sources, seeds, results, events, unconnected,
                 kind="gradient", row=None):
        self.records = tuple(records)
        self.targets, self.sources, self.seeds = targets, sources, seeds
        self.results, self.events, self.unconnected = results, events, unconnected
        self.kind, self.row = kind, row    # "gradient", or "jacobian" with the row index


def backward(records, targets, seeds, source_ids, watched=None, events=None):
    """Reverse pass over ``records``: returns ``{id: gradient}`` for the ids in ``source_ids``.

    ``watched``: the ids a tape follows (None: every source). Only records whose inputs depend
    on a source are visited. While no recorder is active in this thread the sums at fan-out are
    done in place in buffers the engine owns; otherwise with the engine's ``add``, so an outer
    tape records them (higher order). ``events``, when a list, receives one entry per rule run.
    """
    relevant, reach = _relevant(records, targets, source_ids, watched)
    keep = set(source_ids)
    grads = {}
    accumulate = _accumulator(grads, bool(state.active))
    for t, s in zip(targets, seeds):
        if t._id in reach and t._value.dtype.kind in "fc":
            accumulate(t._id, s)
    take, peek, unary_rule = grads.pop, grads.get, UNARY_RULES.get
    for rec in reversed(relevant):
        oid = rec.output._id
        g = take(oid, None) if oid not in keep else peek(oid)
        if g is None:
            continue
        vjp = rec.op.vjp
        if vjp is None:
            raise LookupError(f"gradient registry has no entry for: {rec.op.name}")
        inputs = rec.inputs
        n_in = len(inputs)
        if n_in == 1 and events is None:
            rule = unary_rule(vjp)
            if rule is not None:
                # Speed: one input (reads, reshapes, elementwise ops), with defvjp's rule called
                # here (UNARY_RULES) and a first gradient stored without ``accumulate``: W2
                # 1.466M -> 1.407M, W6-hvp 1.132M -> 1.058M instructions per step (callgrind,
                # engine/bench/step_cost.py, 2026-11-23). Inline, not a helper: a Python call
                # per record costs ~500 instructions (W6-hvp +0.7%).
                a = inputs[0]
                if a._id in reach:
                    attrs = rec.attrs
                    ca = rule(g, rec.output, a, **attrs) if attrs else rule(g, rec.output, a)
                    if ca is not None:
                        if a._id in grads:
                            accumulate(a._id, ca)
                        else:
                            grads[a._id] = ca
                continue
        if n_in == 2:
            _binary_step(rec, g, vjp, reach, grads, accumulate, events)
        else:
            _plain_step(rec, g, vjp, [x._id in reach for x in inputs], accumulate, events)
    out = {}
    for k in keep:      # (a loop, not a comprehension: one Python call fewer per pass)
        if k in grads:
            out[k] = grads[k]
    return out


def _relevant(records, targets, source_ids, watched):
    """The records with an input that depends on a source, in order, and the ids a gradient may
    flow to.

    Only what the tape follows can receive a gradient: an unwatched tensor used beside a
    watched one is a constant to the tape, so its gradient is None (as in TensorFlow). A source
    that is itself a target still gets its seed (d x / d x = 1)."""
    if watched is None:
        reach = set(source_ids)
    else:
        target_ids = {t._id for t in targets}
        reach = {i for i in source_ids if i in watched or i in target_ids}
    relevant = []
    keep_record, reached = relevant.append, reach.add   # (bound once: the loop runs per record)
    for rec in records:
        for x in rec.inputs:
            if x._id in reach:
                keep_record(rec)
                reached(rec.output._id)
                break
    return relevant, reach


def _accumulator(grads, recording):
    """``accumulate(id, cotangent)``: adds into ``grads``. While recording with the engine's
    ``add`` (an outer tape sees it); otherwise in place in the sums this pass made itself."""
    owned = set()

    def accumulate(key, ct):
        prev = grads.get(key)
        if prev is None:
            grads[key] = ct
        elif recording:
            grads[key] = add(prev, ct)
        elif key in owned:
            np.add(prev._value, ct._value, out=prev._value)
        else:
            total = np.add(prev._value, ct._value)
            grads[key] = wrap(total)
            if isinstance(total, np.ndarray):  # 0-d sums come back as NumPy scalars
                owned.add(key)
    return accumulate


def _binary_step(rec, g, vjp, reach, grads, accumulate, events):
    """Speed: two inputs (most ops) unrolled, with defvjp's two rules called here rather than
    through its vjp (BINARY_RULES), and a first gradient stored without ``accumulate``: ~1 us
    per op less on W1's backward (measured 2026-11-23)."""
    a, b = inputs = rec.inputs
    wa = a._id in reach
    wb = b._id in reach
    rules = BINARY_RULES.get(vjp)
    if rules is not None:
        f0, f1 = rules
        ans = rec.output
        attrs = rec.attrs
        if attrs:   # (MatMul's transposes: defvjp's vjp passes them the same way)
            ca = f0(g, ans, a, b, **attrs) if wa and f0 is not None else None
            cb = f1(g, ans, a, b, **attrs) if wb and f1 is not None else None
        else:
            ca = f0(g, ans, a, b) if wa and f0 is not None else None
            cb = f1(g, ans, a, b) if wb and f1 is not None else None
        if events is not None:
            events.append((rec, g, (ca, cb), (wa, wb)))
    else:
        cts = vjp(g, rec.output, inputs, rec.attrs, (wa, wb))
        if events is not None:
            events.append((rec, g, cts, (wa, wb)))
        if len(cts) != 2:
            _accumulate_each(accumulate, inputs, cts, (wa, wb))
            return
        ca, cb = cts
    if ca is not None and wa:
        if a._id in grads:
            accumulate(a._id, ca)
        else:
            grads[a._id] = ca
    if cb is not None and wb:
        if b._id in grads:
            accumulate(b._id, cb)
        else:
            grads[b._id] = cb


def _plain_step(rec, g, vjp, wanted, accumulate, events):
    """Any other record: the op's vjp called with the inputs a gradient is wanted for."""
    cts = vjp(g, rec.output, rec.inputs, rec.attrs, wanted)
    if events is not None:
        events.append((rec, g, cts, wanted))
    _accumulate_each(accumulate, rec.inputs, cts, wanted)


def _accumulate_each(accumulate, inputs, cts, wanted):
    for x, ct, w in zip(inputs, cts, wanted):
        if w and ct is not None:
            accumulate(x._id, ct)
