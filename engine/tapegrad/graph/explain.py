"""Why is this gradient None? One sentence that names the source, the target and the line.

The answer is worked out from the tape's read-only view (its records, what it watched) and its
provenance (graph/provenance.py: where tensors were watched, resets, ``stop_recording``, values
taken by NumPy, assignments of watched values). Each reason has a stable ``code`` that the page can show.
"""
import os

from .. import nest
from ..backprop import backward, seeds
from ..thread_state import state
from ..tensor import Tensor
from ..variables import Variable


class Reason:
    """Why a gradient is None: ``code`` (stable identifier), ``message`` (one sentence), ``line``."""

    __slots__ = ("code", "message", "line")

    def __init__(self, code, message, line=None):
        self.code, self.message, self.line = code, message, line

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"Reason({self.code!r}, {self.message!r})"

    def to_dict(self):
        return {"code": self.code, "message": self.message, "line": self.line}


def none_sentence(target, source, message=None, count=1):
    """The sentence that says a gradient is None and why, as the page's graph panel, its console
    and the notebook widget show it (they only render it). ``message``: the ``Reason``'s message,
    or None when ``explain`` found no reason; ``count``: how many calls gave this same None.

    >>> none_sentence("y", "x", "x was never read while the tape was recording.")
    'The gradient of y with respect to x is None. x was never read while the tape was recording.'
    >>> none_sentence("y", "c", count=3)
    'The gradient of y with respect to c is None (3 times). y does not depend on c through anything the tape recorded.'
    """
    times = f" ({count} times)" if count > 1 else ""
    return f"The gradient of {target} with respect to {source} is None{times}. " \
           f"{message or no_recorded_path(target, source)}"


def no_recorded_path(target, source):
    """What a None gradient says when ``explain`` found no reason for it."""
    return f"{target} does not depend on {source} through anything the tape recorded."


def short_label(label):
    """A graph label as the sentences name it: ``x`` for the variable labelled ``x:0``."""
    return str(label).removesuffix(":0")


def _names(frame):
    """id(object) -> the user's name for it, from the caller's locals and globals."""
    names = {}
    if frame is None:
        return names
    for scope in (frame.f_globals, frame.f_locals):
        for k, v in scope.items():
            if not k.startswith("_") and isinstance(v, (Tensor, Variable)):
                names[id(v)] = k
    return names


def _line(where):
    return where[1] if where else None


def _at(where):
    return f" at line {where[1]}" if where else ""


def _created(where):
    return f" (created at line {where[1]})" if where else ""


def _dtype_name(x):
    return x.dtype.name


class _Namer:
    def __init__(self, frame, extra=None):
        self.names = _names(frame)
        if extra:
            self.names.update(extra)

    def __call__(self, obj, fallback):
        n = self.names.get(id(obj))
        if n:
            return n
        if isinstance(obj, Variable):
            return f"Variable '{obj.name}'"
        return fallback


def _reach(records, start_ids):
    """Forward sweep from ``start_ids`` through differentiable positions of the records.

    Returns (reached ids, cuts) where cuts are records that stop the flow: ops without a
    gradient (StopGradient, Floor, ...) and ops whose output is not floating point (casts to int).
    """
    reach = set(start_ids)
    cuts = []
    for rec in records:
        if not any(x._id in reach for x in rec.inputs):
            continue
        if rec.op.nondiff:
            cuts.append(rec)
        elif rec.output._value.dtype.kind not in "fc":
            cuts.append(rec)
        else:
            reach.add(rec.output._id)
    return reach, cuts


class _Case:
    """What ``explain`` works from: the tape's provenance, the source and the targets, named."""

    def __init__(self, tape, targets, source, namer):
        self.tape, self.source, self.namer = tape, source, namer
        self.t_name = namer(targets[0], "the target")
        self.s_name = namer(source, "the source")
        self.is_tensor_target = isinstance(targets[0], Tensor)
        self.notes = tape.observer          # the tape's provenance
        self.records = self.notes.records
        self.tids = {t._id for t in targets}
        self.sid = source._id
        self.s_where = (getattr(source, "_where", None) or self.notes.watched_at.get(self.sid)
                        or _producer_line(self.records, self.sid))
        self.reach, self.cuts = set(), []
        self.produced = {r.output._id for r in self.records}
        self._path_cuts = None

    def about_source(self, code, rest):
        """A reason that starts with the source's name and points at the line that made it."""
        return Reason(code, f"{self.s_name}{_created(self.s_where)}{rest}", _line(self.s_where))

    def path_cuts(self):
        """The cuts (see ``_reach``) that a target actually depends on."""
        if self._path_cuts is None:
            self._path_cuts = [rec for rec in self.cuts if _depends(self.records, self.notes, self.tids, rec)]
        return self._path_cuts


def explain(tape, target, source, frame=None, names=None):
    """The ``Reason`` ``tape.gradient(target, source)`` is None (or zero), or None if it is not."""
    targets = [t for t in nest.flatten(target) if hasattr(t, "_id") and hasattr(t, "_value")]
    if not targets:
        return None
    case = _Case(tape, targets, source, _Namer(frame, names))
    if source._value.dtype.kind not in "fc":
        return _first(case, _string_dtype, _integer_dtype)
    case.reach, case.cuts = _reach(case.records, [case.sid])
    followed = case.sid in tape.watched_ids or case.sid in case.produced
    if followed and case.tids & case.reach:
        return _rule_gave_none(case, targets)  # connected: None unless a rule gave None
    paused = _stop_recording(case)
    if paused:
        return paused
    if followed:
        return _first(case, _reset_of_targets, _numpy_on_path, _stateful_assign, _stop_gradient,
                      _integer_cast, _no_gradient_op, _outside_context, _watched_not_used, _no_path)
    if isinstance(source, Variable):
        return _first(case, _non_trainable, _watch_accessed_variables, _reset_of_targets,
                      _numpy_variable, _not_used)
    return _first(case, _reset_of_targets_or_source, _used_not_watched, _other_tape, _not_watched)


def _first(case, *causes):
    """The reason of the first cause that applies to ``case``."""
    for cause in causes:
        reason = cause(case)
        if reason is not None:
            return reason
    return None


# -- the causes, each a function of the case that returns its Reason or None --------------------

def _string_dtype(case):
    if case.source._value.dtype.kind not in "OSU":
        return None
    return case.about_source("string_dtype",
                             f" holds strings, and gradients flow only through floating-point "
                             f"tensors; watch the number made from it instead (for example the "
                             f"result of tf.strings.to_number({case.s_name})).")


def _integer_dtype(case):
    return case.about_source("integer_dtype",
                             f" has dtype {_dtype_name(case.source)}, and gradients flow only through "
                             f"floating-point tensors; create it as a float (for example 10.0 "
                             f"instead of 10).")


def _stop_recording(case):
    for tid in case.tids:
        if tid in case.notes.paused:
            _op, where = case.notes.paused[tid]
            return Reason("stop_recording",
                          f"{case.t_name} was computed inside tape.stop_recording(){_at(where)}, so the "
                          f"tape did not record its path from {case.s_name}.", _line(where))
    return None


def _non_trainable(case):
    if case.source.trainable:
        return None
    return case.about_source("non_trainable",
                             f" is a Variable with trainable=False, which a tape does not watch by "
                             f"itself; call tape.watch({case.s_name}) to follow it.")


def _watch_accessed_variables(case):
    if case.tape.watch_accessed_variables:
        return None
    return case.about_source("watch_accessed_variables",
                             " was not watched: the tape was created with "
                             "watch_accessed_variables=False, so it follows only what tape.watch() names.")


def _reset_of_targets(case):
    return _reset(case.notes, case.tids, case.s_name, case.t_name)


def _reset_of_targets_or_source(case):
    return _reset(case.notes, case.tids | {case.sid}, case.s_name, case.t_name)


def _numpy_variable(case):
    """The source variable itself left the engine (``.numpy()``, ``float()``) inside the tape."""
    if case.sid not in case.notes.exported:
        return None
    s_name, where = case.s_name, case.notes.exported[case.sid]
    return Reason("numpy",
                  f"The value of {s_name} left the engine through NumPy or a Python "
                  f"number{_at(where)} (.numpy(), float(), a NumPy function), so the "
                  f"tape never read {s_name} and {case.t_name} cannot depend on it; use tf "
                  f"ops (such as tf.square) on {s_name} itself inside the tape.", _line(where))


def _not_used(case):
    return case.about_source("not_used",
                             f" was never read while the tape was recording, so {case.t_name} cannot "
                             f"depend on it.")


def _rule_gave_none(case, targets):
    """A recorded path from the source reaches the target, yet a gradient rule on it gave None
    (a ``tf.custom_gradient`` whose grad returns None, say): that rule's record, or None when the
    gradient is not None. Runs the backward pass once, only while no tape records (it would
    record the rules' ops)."""
    if state.active:
        return None
    events = []
    grads = backward(case.records, targets, seeds(targets, None), [case.sid],
                     case.tape.watched_ids, events)
    if grads.get(case.sid) is not None:
        return None
    for rec, _upstream, cts, wanted in events:
        for x, ct, w in zip(rec.inputs, cts, wanted):
            if w and ct is None and x._id in case.reach:
                return Reason("rule_gave_none",
                              f"{case.s_name} reaches {case.t_name} through {rec.op.name}"
                              f"{_at(rec.where)}, but its gradient gave None for that input (a "
                              f"tf.custom_gradient whose grad returns None, for example), so "
                              f"nothing flows back to {case.s_name}.", _line(rec.where))
    return None


def _other_tape(case):
    other = _other_tape_line(case.notes, case.sid)
    if other is False:
        return None
    s_name = case.s_name
    return Reason("other_tape",
                  f"{s_name} was recorded by a different GradientTape{_at(other)}, not by "
                  f"this one, so this tape has no path from it to {case.t_name}; call "
                  f"tape.watch({s_name}) in this tape too, ask that tape for the "
                  f"gradient, or nest the tapes so the outer one sees both.", _line(other))


def _used_not_watched(case):
    """The tape recorded an op that read the source (another input was watched), but it never
    watched the source itself, so the backward pass stops there."""
    if not case.tids & case.reach:
        return None
    use = next((rec for rec in case.records if any(x._id == case.sid for x in rec.inputs)), None)
    s_name = case.s_name
    return Reason("not_watched",
                  f"{s_name} was used{_at(use and use.where)}, but the tape never watched it (a tape "
                  f"follows only trainable tf.Variables by itself); call tape.watch({s_name}) "
                  f"inside the `with` block before using it, or make {s_name} a tf.Variable.",
                  _line(use and use.where))


def _not_watched(case):
    s_name = case.s_name
    return Reason("not_watched",
                  f"{s_name} is a tf.Tensor that the tape never watched (a tape follows only "
                  f"trainable tf.Variables by itself); call tape.watch({s_name}) inside the "
                  f"`with` block before using it, or make {s_name} a tf.Variable.", None)


def _watched_not_used(case):
    """A watched source that no recorded operation read."""
    if any(x._id == case.sid for rec in case.records for x in rec.inputs):
        return None
    return _not_used(case)


def _numpy_on_path(case):
    """A value on the path from the source left the engine through NumPy."""
    for rid, where in case.notes.exported.items():
        if rid in case.reach:
            value = _name_of_id(case.namer, case.records, rid, case.s_name, case.source)
            return Reason("numpy",
                          f"The value of {value} left the engine through NumPy or a Python "
                          f"number{_at(where)}, so the tape cannot follow {case.s_name} into "
                          f"{case.t_name}; use tf ops (such as tf.reduce_mean) instead of NumPy "
                          f"inside the tape.", _line(where))
    return None


def _stateful_assign(case):
    for var, vid, kind, where in case.notes.assigned:
        if vid in case.reach:
            vname = case.namer(var, f"'{var.name}'")
            return Reason("stateful_assign",
                          f"{case.s_name} reaches {case.t_name} only through "
                          f"{vname}.{kind}(...){_at(where)}; assignments are not differentiable, so "
                          f"reading {vname} afterwards starts a new path without {case.s_name}.",
                          _line(where))
    return None


def _stop_gradient(case):
    for rec in case.path_cuts():
        if rec.op.name == "StopGradient":
            return Reason("stop_gradient",
                          f"The path from {case.s_name} to {case.t_name} goes through tf.stop_gradient"
                          f"{_at(rec.where)}, which blocks gradients by design.", _line(rec.where))
    return None


def _integer_cast(case):
    for rec in case.path_cuts():
        if rec.output._value.dtype.kind in "iub":
            what = (f"a cast to {rec.output.dtype.name}" if rec.op.name == "Cast"
                    else f"{rec.op.name}, which gives {rec.output.dtype.name}")
            return Reason("integer_cast",
                          f"The path from {case.s_name} to {case.t_name} is cut{_at(rec.where)} by {what}; "
                          f"integer and boolean tensors carry no gradient.", _line(rec.where))
    return None


def _no_gradient_op(case):
    for rec in case.path_cuts():
        return Reason("no_gradient_op",
                      f"The path from {case.s_name} to {case.t_name} goes through {rec.op.name}"
                      f"{_at(rec.where)}, an operation registered as not differentiable.",
                      _line(rec.where))
    return None


def _outside_context(case):
    if not case.is_tensor_target or case.tids & (case.produced | case.tape.watched_ids):
        return None
    return Reason("outside_context",
                  f"{case.t_name} was not recorded by this tape: it was computed outside the tape's "
                  f"`with` block, so there is no recorded path back to {case.s_name}.", None)


def _no_path(case):
    return Reason("no_path",
                  f"{case.t_name} does not depend on {case.s_name} through any recorded operation (Python "
                  f"control flow such as an `if` may have taken a branch without it).", None)


def _other_tape_line(notes, sid):
    """Where another live tape watched or produced ``sid`` (a line or None), or False if none did."""
    for other in type(notes).live:
        tape = other.tape
        if other is notes or tape is None:
            continue
        if sid in tape.watched_ids:
            return other.watched_at.get(sid) or _producer_line(other.records, sid)
        for rec in other.records:
            if rec.output._id == sid:
                return rec.where
    return False


def _depends(records, notes, tids, cut):
    """Does a target depend on the output of the ``cut`` record?"""
    if any(notes.cut.get(t) is cut for t in tids):
        return True  # through unrecorded ops on integer values
    down = {cut.output._id}
    for rec in records:
        if any(x._id in down for x in rec.inputs):
            down.add(rec.output._id)
    return bool(tids & down)


def _reset(notes, ids, s_name, t_name):
    """The reason, if a ``tape.reset()`` discarded the records that produced any of ``ids``."""
    for where, forgotten in notes.resets:
        if ids & forgotten:
            return Reason("tape_reset",
                          f"tape.reset(){_at(where)} discarded the recorded operations that "
                          f"connected {s_name} to {t_name}.", _line(where))
    return None


def _producer_line(records, tid):
    for rec in records:
        if rec.output._id == tid:
            return rec.where
    return None


def _name_of_id(namer, records, tid, s_name, source):
    if tid == source._id:
        return s_name
    for rec in records:
        if rec.output._id == tid:
            return namer(rec.output, f"the result of {rec.op.name}")
    return "a watched value"


def short_file(path):
    return os.path.basename(path) if path else path
