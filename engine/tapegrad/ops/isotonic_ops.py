"""``tf.nn.isotonic_regression``: the closest non-increasing (or non-decreasing) sequence in the
least-squares sense, along one axis, by pool-adjacent-violators.

Each run of pooled entries becomes its mean; ``segments`` numbers the runs 0, 1, ... per row.
Only strict violations are pooled (equal neighbours and NaNs stay apart), as TensorFlow's kernel.

The gradient is TensorFlow's: each upstream entry replaced by the mean over its run (the
forward-mode rule does the same to the tangent, row by row). TensorFlow's
rule groups by (index along the first axis, run), which is right for the usual 2-D input; for a
1-D input it returns the upstream gradient shaped [n, 1], and for rank >= 3 the runs of a whole
first-axis slice are averaged together into a [d0, rest] gradient. Both are reproduced.
"""
from .. import dtypes
from ..backend import xp
from ..errors import InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks import check_dtype
from ..checks.dtype_rules import REAL
from .. import shape_rules
from ..table import defshape
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import reshape
from .arithmetic_ops import cast, negative
from .array_ops import transpose
from .indexing_ops import gather
from .segment_ops import unsorted_segment_mean
from ..batching import folded
from ..primitives import NO_GRADIENT, exempt

_OUTPUT_DTYPE = {"float32": "float32", "float16": "float16", "bfloat16": "bfloat16",
                 "int8": "float32", "int16": "float32"}


def _pool_row(row):
    """Decreasing fit of one row: (fitted values, run ids)."""
    sums, counts = [], []
    for v in row.tolist():
        sums.append(v)
        counts.append(1)
        while len(sums) > 1 and sums[-2] / counts[-2] < sums[-1] / counts[-1]:
            s, c = sums.pop(), counts.pop()
            sums[-1] += s
            counts[-1] += c
    fitted = xp.repeat([s / c for s, c in zip(sums, counts)], counts)
    runs = xp.repeat(xp.arange(len(counts)), counts)
    return fitted, runs


def _fit(x):
    rows = xp.asarray(x, xp.float64).reshape(-1, x.shape[-1]) if x.size else \
        xp.zeros((0, x.shape[-1] if x.ndim else 0))
    fitted = xp.empty(rows.shape)
    runs = xp.empty(rows.shape, xp.int32)
    for i, row in enumerate(rows):
        fitted[i], runs[i] = _pool_row(row)
    return fitted.reshape(x.shape), runs.reshape(x.shape)


ISOTONIC = primitive("IsotonicRegression", lambda x: _fit(x)[0].astype(x.dtype), dtypes=REAL)
defshape(ISOTONIC, shape_rules.same)
ISOTONIC_SEGMENTS = primitive("IsotonicRegressionSegments", lambda x: _fit(x)[1], dtypes=REAL)
exempt(ISOTONIC_SEGMENTS, **NO_GRADIENT)
defshape(ISOTONIC_SEGMENTS, shape_rules.with_dtype("int32"))


def _mean_over_runs(g, runs):
    """TensorFlow's aggregation: runs grouped per index along the first axis."""
    shape = g._value.shape
    first = shape[0] if len(shape) else 1
    ids = runs._value.reshape(first, -1) if len(shape) > 1 else \
        xp.zeros((first, 1), xp.int64)
    width = ids.shape[1]
    flat_ids = (ids + xp.arange(first)[:, None] * max(width, 1)).reshape(-1).astype(xp.int64)
    flat_g = reshape(g, (-1,))
    means = unsorted_segment_mean(flat_g, wrap(flat_ids), first * max(width, 1))
    return reshape(gather(means, wrap(flat_ids)), (first, width))


def _mean_over_rows_runs(t, runs):
    """Each entry replaced by the mean over its run within its row (the fit's derivative)."""
    shape = t._value.shape
    width = shape[-1]
    ids = runs._value.reshape(-1, width).astype(xp.int64)
    rows = ids.shape[0]
    flat_ids = (ids + xp.arange(rows)[:, None] * width).reshape(-1)
    means = unsorted_segment_mean(reshape(t, (-1,)), wrap(flat_ids), rows * width)
    return reshape(gather(means, wrap(flat_ids)), shape)


defvjp(ISOTONIC, lambda g, ans, x: _mean_over_runs(g, bind(ISOTONIC_SEGMENTS, (x,), {})))
defjvp(ISOTONIC, lambda t, ans, x: _mean_over_rows_runs(t, bind(ISOTONIC_SEGMENTS, (x,), {})))


class IsotonicRegression(tuple):
    """``(output, segments)``, also readable as ``.output`` and ``.segments``."""
    __slots__ = ()

    def __new__(cls, output, segments):
        return super().__new__(cls, (output, segments))

    output = property(lambda self: self[0])
    segments = property(lambda self: self[1])

    def __repr__(self):
        return f"IsotonicRegression(output={self[0]!r}, segments={self[1]!r})"


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """Isotonic regression along ``axis``: ``(output, segments)``.

    >>> import tapegrad as tf
    >>> y, runs = tf.nn.isotonic_regression([[1.0, 3.0, 2.0, 4.0, 0.5]])
    >>> y.numpy().tolist(), runs.numpy().tolist()
    ([[2.5, 2.5, 2.5, 2.5, 0.5]], [[0, 0, 0, 0, 1]])
    """
    x = inputs.read_value() if isinstance(inputs, Variable) else convert_to_tensor(inputs)
    check_dtype(ISOTONIC, x)    # TensorFlow's op takes the input as it is and casts inside
    out_dtype = dtypes.as_dtype(_OUTPUT_DTYPE.get(x.dtype.name, "float64"))
    if x.dtype != out_dtype:
        x = cast(x, out_dtype)
    nd = x._value.ndim
    if nd == 0:
        raise InvalidArgumentError("isotonic_regression: inputs must have at least one "
                                   "dimension")
    axis = int(axis)
    if not -nd <= axis < nd:
        raise InvalidArgumentError(f"isotonic_regression: axis {axis} is out of range for a "
                                   f"rank-{nd} input")
    axis %= nd
    perm = None
    if axis != nd - 1:
        perm = list(range(nd))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = transpose(x, perm)
    source = x if decreasing else negative(x)
    output = bind(ISOTONIC, (source,), {})
    segments = bind(ISOTONIC_SEGMENTS, (source,), {})
    if not decreasing:
        output = negative(output)
    if perm is not None:
        output, segments = transpose(output, perm), transpose(segments, perm)
    return IsotonicRegression(output, segments)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
folded(ISOTONIC, per_example=(0,))    # runs (recomputed for each row) and means
