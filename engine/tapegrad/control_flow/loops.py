"""``tf.while_loop``, ``tf.scan``, ``tf.foldl``/``tf.foldr``, ``tf.map_fn`` and
``tf.vectorized_map``, run eagerly as Python loops.

Each step's ops are recorded on the tape like any others; elements are taken apart with
``unstack`` (recorded slices) and results joined with one ``stack`` (a recorded op), so
gradients reach the inputs and the initial values.
"""
import sys

from .. import dtypes, nest
from ..errors import InvalidArgumentError, OutOfRangeError
from ..function.control import NOT_TRACED
from ..ops import stack, unstack, zeros
from ..tensor import Tensor, convert_to_tensor
from ..tensor_spec import TensorSpec
from . import traced
from .structure import assert_same_structure
from .tensor_array import TensorArray


def _is_leaf_kept(x):
    return isinstance(x, TensorArray)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` is true; returns the
    final loop variables in the structure the body gives them (Python numbers as tensors).
    While a ``tf.function`` traces, a loop whose condition the trace computed is one graph node
    (``traced.while_loop``: ``shape_invariants`` let a variable's shape change).

    As in TensorFlow, ``body`` returns as many values as there are loop variables: for one
    variable, a 1-tuple or 1-list (``lambda i: (i + 1,)``).

    >>> import tapegrad as tf
    >>> i, total = tf.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t + i), (0, 0))
    >>> int(i), int(total)
    (4, 6)
    """
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    out = traced.while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations,
                            lambda out: _checked_step(out, loop_vars), sys._getframe(1))
    if out is not NOT_TRACED:
        return out
    limit = None
    if maximum_iterations is not None:
        m = convert_to_tensor(maximum_iterations)
        if m.ndim != 0:
            raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: {m.shape}")
        limit = int(m)
    # TensorFlow adds the iteration counter as an outer loop variable: (counter, loop_vars)
    if limit is not None:
        state = [0, loop_vars]
        step_cond = lambda i, lv: i < limit and bool(cond(*lv))   # noqa: E731
        step_body = lambda i, lv: (i + 1, _loop_list(body(*lv), len(lv)))  # noqa: E731
    else:
        state = loop_vars
        step_cond, step_body = cond, body
    expected = list(state)
    while bool(step_cond(*state)):
        state = step_body(*state)
        if not isinstance(state, (list, tuple)):
            state = _as_loop_list(state, len(expected))
        assert_same_structure(expected, list(state))
    result = _map(lambda x: x if _is_leaf_kept(x) else convert_to_tensor(x), state)
    return result[1] if limit is not None else result


def _checked_step(result, loop_vars):
    """The body's ``result`` as a list of the loop variables, checked against them (a graph
    loop of one variable takes a single value for it, as TensorFlow's does)."""
    if len(loop_vars) == 1 and not isinstance(result, (list, tuple)):
        result = [result]
    elif not isinstance(result, (list, tuple)):
        result = _as_loop_list(result, len(loop_vars))
    assert_same_structure(list(loop_vars), list(result))
    return list(result)


def _as_loop_list(result, count):
    """What TensorFlow makes of a body result that is not a list or tuple: its items (a
    tensor's rows, a dict's keys), which then must match the loop variables."""
    hint = (f"'body' must return a list or tuple of the {count} loop variables, got "
            f"{type(result).__name__}: for one loop variable, return a 1-tuple such as (i + 1,)")
    try:
        items = list(result)
    except TypeError:
        raise TypeError(hint + ".") from None
    if len(items) != count:
        raise ValueError(f"The two structures don't have the same nested structure: {hint}.")
    return items


def _loop_list(result, count):
    """With ``maximum_iterations`` TensorFlow compares the body's result itself with the loop
    variables: anything but a list or tuple is a different structure (ValueError)."""
    if not isinstance(result, (list, tuple)):
        raise ValueError(f"The two structures don't have the same nested structure: 'body' must "
                         f"return a list or tuple of the {count} loop variables, got "
                         f"{type(result).__name__}: for one loop variable, return a 1-tuple such "
                         "as (i + 1,).")
    return result


def _map(fn, structure):
    if isinstance(structure, dict):
        return type(structure)((k, _map(fn, v)) for k, v in structure.items())
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*[_map(fn, v) for v in structure])
    if isinstance(structure, (list, tuple)):
        return type(structure)(_map(fn, v) for v in structure)
    return fn(structure)


# -- elements of nested sequences --------------------------------------------------------------
def _elements(elems, what):
    """The leaves of ``elems`` as tensors, their common length, and a function giving the
    structure of element ``i``."""
    leaves = [convert_to_tensor(x) for x in nest.flatten(elems)]
    if not leaves:
        raise ValueError(f"{what}: 'elems' must hold at least one tensor.")
    return leaves


def _length(leaves, what):
    n = None
    for x in leaves:
        if x.ndim == 0:
            return None
        if n is None:
            n = x.shape[0]
        elif x.shape[0] != n:
            raise ValueError(f"Dimensions {n} and {x.shape[0]} are not compatible")
    return n


def _slices(leaves, n):
    """The elements of every leaf, taken apart by ``unstack`` (recorded)."""
    if n == 0:
        return [[] for _ in leaves]
    return [unstack(x) for x in leaves]


def _element(elems, per_leaf, i):
    return nest.pack_sequence_as(elems, [s[i] for s in per_leaf]) if nest.is_nested(elems) \
        else per_leaf[0][i]


def _scan_elements(elems, what):
    leaves = _elements(elems, what)
    n = _length(leaves, what)
    if n is None:
        raise IndexError(f"{what}: every tensor in 'elems' needs a first dimension to iterate "
                         "over; a scalar has none (tuple index out of range)")
    return leaves, n


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """Every intermediate accumulator of ``a = fn(a, x)`` over the first dimension of ``elems``,
    stacked (the first element is the start when there is no ``initializer``).

    >>> import tapegrad as tf
    >>> tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])).numpy().tolist()
    [1, 3, 6, 10]
    """
    if not callable(fn):
        # TensorFlow fails here reading the function's __name__: an AttributeError
        raise AttributeError(f"tf.scan: 'fn' must be callable, got {fn!r}, which has no "
                             "attribute '__name__'.")
    leaves, n = _scan_elements(elems, "scan")
    per_leaf = _slices(leaves, n)
    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    outputs = {}
    if initializer is None:
        if n == 0:
            raise OutOfRangeError("Tried to read from index 0 but array size is: 0")
        first = order.pop(0)
        acc = _element(elems, per_leaf, first)
        outputs[first] = acc
        template = elems
    else:
        acc = _map(convert_to_tensor, initializer)
        template = initializer
    for i in order:
        acc = fn(acc, _element(elems, per_leaf, i))
        assert_same_structure(template, acc, "accumulator's parts")
        outputs[i] = acc
    if n == 0:
        return _map(lambda t: zeros((0,) + tuple(t.shape), t.dtype), acc)
    ordered = [nest.flatten(outputs[i]) for i in range(n)]
    stacked = [stack([convert_to_tensor(step[j]) for step in ordered])
               for j in range(len(ordered[0]))]
    return nest.pack_sequence_as(outputs[0], stacked) if nest.is_nested(outputs[0]) else stacked[0]


def _fold(fn, elems, initializer, reverse, what):
    if not callable(fn):
        raise TypeError(f"'fn' must be callable, got {fn!r}.")
    leaves, n = _scan_elements(elems, what)
    per_leaf = _slices(leaves, n)
    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    if initializer is None:
        if n == 0:
            raise OutOfRangeError("Tried to read from index 0 but array size is: 0")
        acc = _element(elems, per_leaf, order.pop(0))
    else:
        acc = _map(convert_to_tensor, initializer)
    for i in order:
        acc = fn(acc, _element(elems, per_leaf, i))
    return _map(convert_to_tensor, acc)


def _fold_face(name, reverse, doc):
    """The public ``foldl`` / ``foldr``: TensorFlow's signature, folding from the first element
    (or, with ``reverse``, the last)."""
    def fold(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
             swap_memory=False, name=None):
        return _fold(fn, elems, initializer, reverse, fold.__name__)
    fold.__name__ = fold.__qualname__ = name
    fold.__doc__ = doc
    return fold


foldl = _fold_face("foldl", False, """``fn(...fn(fn(initializer, x0), x1)..., xn)`` over the first
    dimension of ``elems``.

    >>> import tapegrad as tf
    >>> int(tf.foldl(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]), initializer=0))
    123
    """)
foldr = _fold_face("foldr", True, """As ``foldl`` from the last element to the first.

    >>> import tapegrad as tf
    >>> int(tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]), initializer=0))
    321
    """)


# -- map_fn -----------------------------------------------------------------------------------
def _as_signature_leaf(s):
    if isinstance(s, TensorSpec):
        return s
    return TensorSpec(None, dtypes.as_dtype(s))


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """``fn`` applied to each element along the first dimension of ``elems``, results stacked.
    Without ``fn_output_signature`` (or ``dtype``), ``fn`` must return the structure and dtypes
    of ``elems``, as in TensorFlow.

    >>> import tapegrad as tf
    >>> tf.map_fn(lambda x: x * x, tf.constant([1.0, 2.0, 3.0])).numpy()
    array([1., 4., 9.], dtype=float32)
    """
    if not callable(fn):
        raise TypeError(f"'fn' must be callable, got {fn!r}.")
    signature = fn_output_signature if fn_output_signature is not None else dtype
    leaves = _elements(elems, "map_fn")
    if any(x.ndim == 0 for x in leaves):
        raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    n = _length(leaves, "map_fn")
    if signature is None:
        out_structure = elems
        specs = [TensorSpec(None, x.dtype) for x in leaves]
    else:
        out_structure = signature
        specs = [_as_signature_leaf(s) for s in nest.flatten(signature)]
    per_leaf = _slices(leaves, n)
    columns = [[] for _ in specs]
    for i in range(n):
        result = fn(_element(elems, per_leaf, i))
        assert_same_structure(out_structure, result, "outputs of fn")
        flat = nest.flatten(result) if nest.is_nested(out_structure) else [result]
        for column, spec, value in zip(columns, specs, flat):
            column.append(_checked(value, spec, column))
    if n == 0:
        if signature is None:
            stacked = [zeros((0,) + tuple(x.shape[1:]), x.dtype) for x in leaves]
        else:
            stacked = [zeros((0,) + (tuple(s.shape) if s.shape.rank is not None else ()), s.dtype)
                       for s in specs]
    else:
        stacked = [stack(column) for column in columns]
    if nest.is_nested(out_structure):
        return nest.pack_sequence_as(out_structure, stacked)
    return stacked[0]


def _checked(value, spec, previous):
    """One result of map_fn as a tensor of the expected dtype and of the first result's shape."""
    t = value if isinstance(value, Tensor) else convert_to_tensor(value, dtype_hint=spec.dtype)
    if t.dtype != spec.dtype:
        raise InvalidArgumentError(f"TensorArray dtype is {spec.dtype.name} but Op is trying to "
                                   f"write dtype {t.dtype.name}")
    expected = tuple(previous[0].shape) if previous else spec._dims
    if expected is not None and (len(expected) != t.ndim or any(
            e is not None and e != d for e, d in zip(expected, t.shape))):
        raise ValueError(f"Incompatible shape for value ({t.shape}), expected "
                         f"({TensorSpec(expected).shape})")
    return t


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``fn`` applied to each element along the first dimension of ``elems`` (one at a time
    here; TensorFlow vectorizes, with the same results), results stacked.

    >>> import tapegrad as tf
    >>> tf.vectorized_map(lambda x: x * x + 1.0, tf.constant([1.0, 2.0])).numpy()
    array([2., 5.], dtype=float32)
    """
    if not callable(fn):
        raise TypeError(f"'fn' must be callable, got {fn!r}.")
    leaves = _elements(elems, "vectorized_map")
    n = _length(leaves, "vectorized_map")
    if n is None:
        raise ValueError("vectorized_map: every tensor in 'elems' needs a first dimension to map "
                         "over; a scalar has none.")
    per_leaf = _slices(leaves, n)
    results = [fn(_element(elems, per_leaf, i)) for i in range(n)]
    if n == 0:
        raise ValueError("vectorized_map: 'elems' has no elements to map over.")
    flat = [[convert_to_tensor(v) for v in nest.flatten(r)] for r in results]
    stacked = [stack([row[j] for row in flat]) for j in range(len(flat[0]))]
    return nest.pack_sequence_as(results[0], stacked) if nest.is_nested(results[0]) else stacked[0]
