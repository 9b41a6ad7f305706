"""A shape argument: a list, tuple, ``TensorShape`` or integer tensor of dimension sizes.

TensorFlow takes ints >= 0; ``reshape`` also takes one ``-1`` (the size that makes the
element count match). A float anywhere (``[2.5]``) cannot become an int32 tensor: a
``TypeError``; a negative size is an ``InvalidArgumentError``.

    >>> shape("Fill", [2, 3])
    (2, 3)
    >>> shape("Reshape", [-1, 3], allow_unknown=True)
    (-1, 3)
"""
import numbers

from ..backend import xp
from ._errors import describe, invalid, python_type_error, type_like


def _dims(op, value, arg, floats):
    if type(value).__name__ == "TensorShape":
        dims = value.as_list() if value.rank is not None else None
        if dims is None or any(d is None for d in dims):
            raise python_type_error(f"{op}: {arg} must be fully defined, got {value}")
        return dims
    array = getattr(value, "_value", value)
    if isinstance(array, xp.ndarray):
        if array.dtype.kind not in "iu":
            raise type_like(op, f"{op}: {arg} must be an int32 or int64 tensor, got a "
                                f"{array.dtype} tensor")
        if array.ndim > 1:
            raise invalid(op, f"{op}: {arg} must be a vector of sizes, got rank {array.ndim}")
        return [int(d) for d in array.reshape(-1)]
    if isinstance(value, (numbers.Integral, xp.integer)):
        return [int(value)]
    if not isinstance(value, (list, tuple)):
        raise python_type_error(f"{op}: {arg} must be a list of integer sizes, got "
                                f"{describe(value)}")
    return _listed(op, value, arg, floats)


# The attribute naming a shape's integer type in TensorFlow's op registrations.
_INDEX_ATTR = {"Fill": "index_type", "Reshape": "Tshape"}


def _listed(op, value, arg, floats):
    dims = []
    for d in value:
        if type(d) is int:   # Speed: the common case first, without the checks' ABC tests
            dims.append(d)
            continue
        d = getattr(d, "_value", d)
        if isinstance(d, xp.ndarray) and d.ndim == 0 and d.dtype.kind in "iub":
            d = int(d)
        if not isinstance(d, (numbers.Integral, xp.integer)):   # bool counts as 0/1
            message = f"{op}: {arg} must be a list of integer sizes, got {list(value)!r}"
            if floats == "invalid" and isinstance(d, float):
                # TensorFlow's words: the list became a float tensor, not an allowed index type
                raise type_like(op, f"{message} (Value for attr '{_INDEX_ATTR.get(op, 'T')}' of "
                                    f"float is not in the list of allowed values: int32, int64)")
            if isinstance(d, float):                # TensorFlow's words for a Python float
                message += f" (Cannot convert {list(value)!r} to EagerTensor of dtype int32)"
            raise python_type_error(message)
        dims.append(int(d))
    return dims


def shape(op, value, arg="shape", allow_unknown=False, allow_negative=False,
          floats="type_error"):
    """The sizes as a tuple of ints. ``allow_unknown``: one ``-1`` is accepted (``reshape``);
    ``allow_negative``: any integers (``slice``'s begin and size, checked against the input by
    ``indices.slice_bounds``). ``floats``: a float in a list is a ``TypeError`` (ops that
    convert the list to int32, as ``zeros``) or ``"invalid"``: an ``InvalidArgumentError`` (ops
    that take the list as a tensor of any type first, as ``reshape``)."""
    # Speed: a plain tuple or list goes straight to its loop, without the ABC tests of ``_dims``
    # (a reshape's checks 37k -> 20k instructions, callgrind, 2026-11-23).
    dims = _listed(op, value, arg, floats) if type(value) is tuple or type(value) is list \
        else _dims(op, value, arg, floats)
    if allow_negative:
        return tuple(dims)
    unknown = 0   # (counted in the loop: one pass, no list)
    for i, d in enumerate(dims):
        if d < 0:
            if not (allow_unknown and d == -1):
                expected = ">= 0 or -1" if allow_unknown else ">= 0"
                raise invalid(op, f"{op}: {arg}[{i}] is {d}; each size must be {expected}")
            unknown += 1
    if unknown > 1:
        first, second = [i for i, d in enumerate(dims) if d == -1][:2]
        raise invalid(op, f"{op}: {arg} may hold only one -1, got {dims} (Only one input size "
                          f"may be -1, not both {first} and {second})")
    return tuple(dims)


def _partial_dims(given):
    """A partial shape (TensorShape, int or sequence) as a list with ``None`` for unknown sizes;
    None for an unknown rank."""
    if type(given).__name__ == "TensorShape":
        return given.as_list() if given.rank is not None else None
    if isinstance(given, (int, xp.integer)):
        return [int(given)]
    return list(given)


def _dims_fit(dims, actual):
    return len(dims) == len(actual) and all(d is None or d == a for d, a in zip(dims, actual))


def fits(given, actual):
    """Whether the concrete ``actual`` shape fits ``given`` (``None`` for unknown sizes)."""
    if given is None:
        return True
    dims = _partial_dims(given)
    return dims is None or _dims_fit(dims, actual)


def compatible(op, given, actual, arg="shape"):
    """``given`` (with ``None`` for unknown sizes) fits the concrete ``actual`` shape."""
    if given is None:
        return
    dims = _partial_dims(given)
    if dims is not None and not _dims_fit(dims, actual):
        if op == "Variable":   # TensorFlow's sentence
            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape "
                             f"({tuple(actual)}) is not compatible with the explicitly supplied "
                             f"`{arg}` argument ({dims}).")
        raise ValueError(f"{op}: the initial value's shape {tuple(actual)} is not compatible "
                         f"with the {arg} argument {dims}")
