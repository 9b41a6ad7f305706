"""Counting: ``count_nonzero``, ``bincount``, ``confusion_matrix`` and the order predicates.

Their outputs are counts, so they have no gradient (``None``), as in TensorFlow; ``bincount``
with weights is the ``DenseBincount`` op, for which TensorFlow registers no gradient, so asking
for one raises ``LookupError`` here too.
"""
from .. import checks
from ..backend import xp
from ..dtypes import as_dtype, int32, int64
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import primitive
from ..checks.dtype_rules import accepting
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..primitives import NO_GRADIENT, exempt


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def count_nonzero(input=None, axis=None, keepdims=None, dtype=int64, name=None,  # noqa: A002
                  input_tensor=None):
    """How many entries are not zero (not ``False``, not ``""``) over ``axis``; int64.

    >>> import tapegrad as tf
    >>> int(tf.math.count_nonzero([0.0, 1.5, 2.0]))
    2
    """
    x = _tensor(input if input is not None else input_tensor)._value
    if x.dtype.kind in "SUO":
        nonzero = xp.vectorize(lambda v: len(v) > 0, otypes=[bool])(x) if x.size else \
            xp.zeros(x.shape, bool)
    else:
        nonzero = x != 0
    counts = xp.sum(nonzero, axis=checks.axes("CountNonzero", axis, x.ndim),
                    keepdims=bool(keepdims))
    return wrap(xp.asarray(counts, dtype=as_dtype(dtype).as_numpy_dtype))


def _bincount_impl(values, weights, minlength, maxlength, out_dtype):
    v = values.reshape(-1)
    size = int(v.max()) + 1 if v.size else 0
    if minlength is not None:
        size = max(size, minlength)
    if maxlength is not None:
        size = min(size, maxlength)
    keep = v < size
    w = None if weights is None else weights.reshape(-1)[keep]
    counts = xp.bincount(v[keep].astype(xp.intp), weights=w, minlength=size)[:size]
    return counts.astype(out_dtype)


DENSE_BINCOUNT = primitive(
    "DenseBincount",
    lambda values, weights, minlength, maxlength, out_dtype: _bincount_impl(
        values, weights, minlength, maxlength, out_dtype),
                           dtypes=accepting("int32", "int64"))   # no gradient registered, as in TF
exempt(DENSE_BINCOUNT, **NO_GRADIENT)
defshape(DENSE_BINCOUNT, shape_rules.bincount)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=int32, name=None,
             axis=None, binary_output=False):
    """How often each value 0, 1, ..., max(arr) occurs in ``arr`` (or the sum of ``weights``
    at those places); ``minlength``/``maxlength`` bound the output's length.

    >>> import tapegrad as tf
    >>> tf.math.bincount([1, 1, 3]).numpy().tolist()
    [0, 2, 0, 1]
    """
    values = _tensor(arr)
    if not values.dtype.is_integer:
        raise TypeError(f"bincount: arr must be an integer tensor, got {values.dtype.name}")
    if values._value.size and values._value.min() < 0:
        raise InvalidArgumentError("Input arr must be non-negative! [Op:DenseBincount]")
    if axis not in (None, 0, -1):
        raise ValueError(f"bincount: unsupported axis {axis}: only None (the whole tensor), 0 "
                         f"or -1 are supported")
    if axis == -1 and values._value.ndim == 2:
        rows = [bincount(values[i], None if weights is None else _tensor(weights)[i], minlength,
                         maxlength, dtype, binary_output=binary_output)
                for i in range(values._value.shape[0])]
        width = max([int(r.shape[0]) for r in rows] + [0])
        out = xp.zeros((len(rows), width), rows[0]._value.dtype if rows else xp.int32)
        for i, r in enumerate(rows):
            out[i, :r._value.shape[0]] = r._value
        return wrap(out)
    attrs = {"minlength": None if minlength is None else int(minlength),
             "maxlength": None if maxlength is None else int(maxlength)}
    if weights is not None and not binary_output:
        w = _tensor(weights)
        if tuple(w.shape) != tuple(values.shape):
            raise InvalidArgumentError(f"Input indices and weights must have the same shape: "
                                       f"{list(values.shape)} vs {list(w.shape)}")
        attrs["out_dtype"] = w._value.dtype
        return bind(DENSE_BINCOUNT, (values, w), attrs)
    out_dtype = as_dtype(dtype).as_numpy_dtype
    counts = _bincount_impl(values._value, None, out_dtype=out_dtype, **attrs)
    if binary_output:
        counts = (counts > 0).astype(out_dtype)
    return wrap(counts)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=int32,
                     name=None):
    """``m[i, j]``: how many examples of label ``i`` were predicted ``j`` (or their weights).

    >>> import tapegrad as tf
    >>> tf.math.confusion_matrix([0, 1], [1, 1]).numpy().tolist()
    [[0, 1], [0, 1]]
    """
    lab = _tensor(labels)._value.reshape(-1).astype(xp.int64)
    pred = _tensor(predictions)._value.reshape(-1).astype(xp.int64)
    if lab.shape != pred.shape:
        raise ValueError(f"labels and predictions must have the same number of entries: "
                         f"{lab.size} vs {pred.size}")
    if (lab < 0).any():
        raise InvalidArgumentError("`labels` contains negative values.")
    if (pred < 0).any():
        raise InvalidArgumentError("`predictions` contains negative values.")
    if num_classes is None:
        n = int(max(lab.max(initial=-1), pred.max(initial=-1))) + 1
    else:
        n = int(num_classes)
        if (lab >= n).any():
            raise InvalidArgumentError("`labels` out of bound")
        if (pred >= n).any():
            raise InvalidArgumentError("`predictions` out of bound")
    np_dtype = as_dtype(dtype).as_numpy_dtype
    w = xp.ones(lab.shape, np_dtype) if weights is None else \
        _tensor(weights)._value.reshape(-1).astype(np_dtype)
    out = xp.zeros((n, n), np_dtype)
    xp.add.at(out, (lab, pred), w)
    return wrap(out)


def _ordered(x, strict):
    v = _tensor(x)._value.reshape(-1)
    if v.dtype.kind not in "iuf":
        raise TypeError(f"Expected x to be numeric, got {v.dtype}")
    d = xp.diff(v)
    return wrap(xp.asarray(bool((d > 0).all() if strict else (d >= 0).all())))


def is_non_decreasing(x, name=None):
    """True when each entry (in row-major order) is >= the one before it."""
    return _ordered(x, False)


def is_strictly_increasing(x, name=None):
    """True when each entry (in row-major order) is > the one before it."""
    return _ordered(x, True)


del int64
