"""The named gradients of a run, for the page's scripting API (docs/scripting.md).

A *named gradient* is a module-level name of the user's code (not starting with ``_``) bound,
when the run ends, to a result of ``GradientTape.gradient`` made during that run: the tensor
itself, or a list, tuple or dict of them (``None`` entries allowed) as ``tape.gradient`` returns
for several sources. ``dx = tape.gradient(y, x)``, ``dw, db = tape.gradient(loss, [w, b])`` and
``grads = tape.gradient(loss, model.trainable_variables)`` all name gradients; a value computed
from one (``dx * 2``) or a gradient that came back ``None`` does not.

Values are plain nested lists (a scalar a number; complex numbers as ``[real, imag]`` pairs), at
most ``MAX_VALUES`` numbers in all per run: past that (or for a value that cannot be read as
numbers) a name is listed as omitted instead.
"""
import numpy as np

MAX_VALUES = 100_000


class GradientNames:
    """Finds a run's named gradients (``report(namespace, calls)``) among the results of the
    ``tape.gradient`` calls its graph capture noted (``Capture.calls``)."""

    def __init__(self):
        self.seen = {}   # id -> a tensor tape.gradient returned in the run being reported

    def _is_gradient(self, value, top=True):
        """A tensor a gradient call returned, or (at the top) a non-empty list, tuple or dict of them and Nones
        with at least one tensor."""
        if value is not None and self.seen.get(id(value)) is value:
            return True
        if not top:
            return False
        items = list(value.values()) if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else None
        if not items:
            return False
        flags = [item is None or self._is_gradient(item, top=False) for item in items]
        return all(flags) and any(item is not None for item in items)

    def report(self, namespace, calls):
        """``(gradients, omitted)``: {name: plain value} of the named gradients in
        ``namespace``, and the names left out for the ``MAX_VALUES`` budget; ``calls``: the
        run's captured gradient calls (``(tape, call, names, reasons, line)``)."""
        self.seen = {id(r): r for _tape, call, *_ in calls if call.kind == "gradient"
                     for r in call.results if r is not None}
        gradients, omitted, budget = {}, [], MAX_VALUES
        for name, value in list(namespace.items()):
            if name.startswith("_") or not self._is_gradient(value):
                continue
            try:
                count = sum(int(a.size) for a in _arrays(value) if a is not None)
                plain = _plain(value) if count <= budget else None
            except Exception:   # a value that cannot be read as numbers: listed, never fails the run
                count, plain = 0, None
            if plain is None:
                omitted.append(name)
                continue
            budget -= count
            gradients[name] = plain
        self.seen = {}
        return gradients, omitted


def _array(tensor):
    if tensor is None:
        return None
    value = tensor.numpy() if hasattr(tensor, "numpy") else tensor
    return np.asarray(value)


def _arrays(value):
    if isinstance(value, dict):
        return [_array(v) for v in value.values()]
    if isinstance(value, (list, tuple)):
        return [_array(v) for v in value]
    return [_array(value)]


def _plain(value):
    """A gradient as JSON-like Python values: nested lists of numbers."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    array = _array(value)
    if array is None:
        return None
    if np.iscomplexobj(array):
        array = np.stack([array.real, array.imag], axis=-1)
    if array.dtype.kind not in "biuf":
        array = array.astype(np.float64)
    return array.tolist()
