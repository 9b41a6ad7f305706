"""Graphs for signatures with unknown dimensions (``TensorSpec([None, 3])``).

tapegrad records a graph for the concrete shapes of one trace, and an op's settings may hold a
size the body computed from a shape (``tf.keras.layers.Flatten`` reshapes to ``(batch, -1)``, an
RNN starts from zeros of ``(batch, units)``). So ``save`` traces such a function three times,
each unknown dimension ``j`` given a different size each time (``SIZES``): a number that is
dimension ``j``'s size in the first two traces becomes ``{"dim": j}`` in the saved graph (in op
settings and in constants; a constant whose shape follows a dimension must hold one value, kept
as ``{"fill": ...}``); anything else that differs means the graph cannot serve other sizes. The
third trace checks the result: the saved graph, given its sizes, must be that trace's graph.
Loading gives the dimensions each call's sizes (one graph per sizes, kept).
"""
from ..backend import host as np
from ..function.keys import flat_inputs, map_leaves, tensor_dims
from ..function.symbolic import with_symbolic_names
from ..function.variable_state import UndoAssignments
from ..tensor import convert_to_tensor
from ..tensor_spec import TensorSpec

_PRIMES = (5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61)
SIZES = (_PRIMES, tuple(p + 1 for p in _PRIMES), tuple(range(2, 2 + len(_PRIMES))))


class Differs(Exception):
    """The traces differ in something no unknown dimension explains."""


def unknown_axes(cf):
    """``[(flat input, axis)]``, one per unknown dimension of ``cf``'s signature (the first axes
    of all inputs count as one, the batch: a model's inputs share it), or None where a rank is
    unknown."""
    out, batch = [], None
    for k, spec in enumerate(_specs(cf._input_specs)):
        if spec._dims is None:
            return None
        for axis, d in enumerate(spec._dims):
            if d is None and axis == 0:
                if batch is None:
                    batch = len(out)
                    out.append((k, axis))
            elif d is None:
                out.append((k, axis))
    return out


def _specs(structure):
    found = []
    map_leaves(lambda leaf: found.append(leaf) if isinstance(leaf, TensorSpec) else None,
               structure)
    return found


def trace_with(cf, axes, sizes):
    """A graph of ``cf``'s body traced on zeros whose unknown dimensions (``axes``, as
    ``unknown_axes`` gives them) have ``sizes``."""
    specs = iter(range(len(_specs(cf._input_specs))))
    batch = next((size for (k, axis), size in zip(axes, sizes) if axis == 0), None)
    size_of = {a: size for a, size in zip(axes, sizes)}

    def example(leaf):
        if isinstance(leaf, TensorSpec):
            k = next(specs)
            shape = [(batch if axis == 0 else size_of[(k, axis)]) if d is None else d
                     for axis, d in enumerate(leaf._dims)]
            return convert_to_tensor(np.zeros(shape, dtype=leaf.dtype.as_numpy_dtype))
        return leaf
    named = [(n, map_leaves(example, v)) for n, v in zip(cf._names, cf._input_specs)]
    values = with_symbolic_names(named, tensor_dims(cf._pattern))
    with UndoAssignments():
        return cf._function._run(values, named, True, record=flat_inputs(values))[1]


def generalize(a, b, sizes_a, sizes_b):
    """One JSON value for two traces' ``a`` and ``b``: sizes of unknown dimensions as
    ``{"dim": j}``; ``Differs`` where something else differs."""
    if type(a) is int and type(b) is int:
        if a == b:
            return a
        for j, (x, y) in enumerate(zip(sizes_a, sizes_b)):
            if a == x and b == y:
                return {"dim": j}
        raise Differs()
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [generalize(x, y, sizes_a, sizes_b) for x, y in zip(a, b)]
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return {k: generalize(a[k], b[k], sizes_a, sizes_b) for k in a}
    if a == b:
        return a
    raise Differs()


def generalize_constant(a, b, sizes_a, sizes_b):
    """Two traces' encodings of one constant (``{"array": ...}``) as one: sized where its values
    hold sizes, or ``{"fill": ...}`` where its shape follows a dimension and it holds one value."""
    try:
        return generalize(a, b, sizes_a, sizes_b)
    except Differs:
        pass
    x, y = a["array"], b["array"]
    first = x["values"][:1]
    if x["dtype"] != y["dtype"] or not first or first != y["values"][:1] or \
            any(v != first[0] for v in x["values"] + y["values"]):
        raise Differs()
    return {"fill": {"dtype": x["dtype"], "value": x["values"][0],
                     "shape": generalize(x["shape"], y["shape"], sizes_a, sizes_b)}}


def instantiate(value, sizes):
    """A generalized JSON value for one call's ``sizes``; a ``{"fill": ...}`` constant becomes
    its ``{"array": ...}``."""
    if isinstance(value, list):
        return [instantiate(v, sizes) for v in value]
    if not isinstance(value, dict):
        return value
    if "dim" in value and len(value) == 1:
        return sizes[value["dim"]]
    if "fill" in value and len(value) == 1:
        fill = instantiate(value["fill"], sizes)
        count = int(np.prod(fill["shape"], dtype=np.int64))
        return {"array": {"dtype": fill["dtype"], "shape": fill["shape"], "scalar": False,
                          "values": [fill["value"]] * count}}
    return {k: instantiate(v, sizes) for k, v in value.items()}
