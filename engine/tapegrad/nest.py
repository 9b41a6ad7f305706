"""Nested structures of lists, tuples and dicts, as ``tf.nest`` sees them.

>>> flatten({"b": 1, "a": [2, 3]})
[2, 3, 1]
>>> pack_sequence_as({"b": 0, "a": [0, 0]}, [20, 30, 10])
{'b': 10, 'a': [20, 30]}
"""


def _is_nested(x):
    return isinstance(x, (list, tuple, dict))


def flatten(structure):
    """Leaves in order; dict entries in sorted key order, as TensorFlow does."""
    out = []
    stack = [structure]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x[k] for k in reversed(sorted(x)))
        elif isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        else:
            out.append(x)
    return out


def pack_sequence_as(structure, flat):
    """Puts ``flat`` leaves back into the shape of ``structure``."""
    return _build(structure, iter(flat))


# A module-level function, not a closure that calls itself: such a closure is a reference cycle
# that kept every packed value (gradients, often large) alive until the cyclic collector ran.
def _build(x, it):
    if isinstance(x, dict):
        built = {k: _build(x[k], it) for k in sorted(x)}
        return type(x)((k, built[k]) for k in x) if type(x) is not dict else {k: built[k] for k in x}
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*[_build(v, it) for v in x])
    if isinstance(x, (list, tuple)):
        return type(x)(_build(v, it) for v in x)
    return next(it)


def map_structure(fn, structure):
    return pack_sequence_as(structure, [fn(x) for x in flatten(structure)])


is_nested = _is_nested
