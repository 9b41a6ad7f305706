"""Hypothesis strategies that generate op calls (see calls.py): random shapes, dtypes and
argument values, valid and invalid (an axis past the rank, a repeated axis, a float axis, a
negative size, mismatched shapes or dtypes, an index out of range).

``call_strategy()`` draws one call of any op; ``draw_calls(n, seed)`` gives a deterministic list.
"""
import sys
from pathlib import Path

from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import drawing  # noqa: E402

DTYPES = ["float16", "float32", "float64", "int32", "int64", "bool", "complex64"]
FLOATS = ["float32", "float64", "float16"]
_FLOAT_VALUES = [-3.0, -2.0, -1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0]
_INT_VALUES = list(range(-4, 6))


def _values(dtype, n):
    if dtype == "bool":
        return st.lists(st.booleans(), min_size=n, max_size=n)
    if dtype.startswith("int"):
        return st.lists(st.sampled_from(_INT_VALUES), min_size=n, max_size=n)
    if dtype.startswith("complex"):
        pair = st.tuples(st.sampled_from(_FLOAT_VALUES), st.sampled_from(_FLOAT_VALUES))
        return st.lists(pair.map(list), min_size=n, max_size=n)
    return st.lists(st.sampled_from(_FLOAT_VALUES), min_size=n, max_size=n)


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


@st.composite
def tensor(draw, dtype=None, shape=None, min_rank=0, max_rank=3, max_dim=3, min_dim=0):
    if dtype is None:
        dtype = draw(st.sampled_from(DTYPES))
    if shape is None:
        rank = draw(st.integers(min_rank, max_rank))
        shape = [draw(st.integers(min_dim, max_dim)) for _ in range(rank)]
    return {"t": dtype, "s": list(shape), "v": draw(_values(dtype, _size(shape)))}


def _dtype(draw, floats_mostly=True):
    if floats_mostly and draw(st.integers(0, 3)) > 0:
        return draw(st.sampled_from(FLOATS))
    return draw(st.sampled_from(DTYPES))


@st.composite
def axis_for(draw, rank, allow_none=True, lists=True):
    """A valid axis mostly; sometimes past the rank, a float, or a repeated list."""
    kind = draw(st.integers(0, 9))
    if kind == 0 and allow_none:
        return None
    if kind == 1:
        return float(draw(st.integers(-1, max(rank - 1, 0))))
    if kind == 2:
        return draw(st.sampled_from([rank, -rank - 1]))
    if kind in (3, 4) and lists and rank > 0:
        axes = draw(st.lists(st.integers(-rank, rank - 1), min_size=1, max_size=rank + 1))
        return axes
    if rank == 0:
        return draw(st.sampled_from([0, -1]))
    return draw(st.integers(-rank, rank - 1))


_UNARY = ["abs", "negative", "square", "sqrt", "exp", "log", "log1p", "sigmoid", "tanh", "sin",
          "cos", "softplus", "sign", "floor", "round", "reciprocal", "relu", "elu", "is_nan",
          "logical_not"]
_BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "pow", "floordiv",
           "floormod", "equal", "less", "logical_and", "squared_difference"]
_REDUCE = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
           "reduce_any", "reduce_logsumexp"]
_DIFFERENTIABLE = set(_UNARY + _BINARY + _REDUCE) - {
    "sign", "floor", "round", "is_nan", "logical_not", "floordiv", "floormod", "equal", "less",
    "logical_and", "reduce_any"}


# Complex gradients follow TensorFlow's convention (g * conj(f'(z))) for these ops.
_COMPLEX_DIFFERENTIABLE = {"abs", "negative", "square", "sqrt", "exp", "log", "sigmoid", "tanh",
                           "sin", "cos", "reciprocal", "add", "subtract", "multiply", "divide",
                           "reduce_sum", "reduce_mean"}


def _grad(draw, op, dtype):
    if dtype == "complex64":
        return op in _COMPLEX_DIFFERENTIABLE and draw(st.booleans())
    return op in _DIFFERENTIABLE and dtype in ("float32", "float64") and draw(st.booleans())


@st.composite
def unary_call(draw):
    op = draw(st.sampled_from(_UNARY))
    dtype = _dtype(draw)
    x = draw(tensor(dtype))
    return {"op": op, "args": [x], "kwargs": {}, "grad": _grad(draw, op, dtype)}


def _broadcast_partner(draw, shape):
    kind = draw(st.integers(0, 5))
    if kind == 0:   # a different shape, maybe incompatible
        rank = draw(st.integers(0, 3))
        return [draw(st.integers(0, 3)) for _ in range(rank)]
    if kind == 1:   # a trailing part
        return shape[draw(st.integers(0, len(shape))):]
    if kind == 2:   # ones where broadcasting stretches
        return [1 if draw(st.booleans()) else d for d in shape]
    return list(shape)


@st.composite
def binary_call(draw):
    op = draw(st.sampled_from(_BINARY))
    dtype = _dtype(draw)
    x = draw(tensor(dtype))
    other = dtype if draw(st.integers(0, 9)) else draw(st.sampled_from(DTYPES))
    y = draw(tensor(other, shape=_broadcast_partner(draw, x["s"])))
    if draw(st.integers(0, 5)) == 0:   # a Python number as one side
        y = draw(st.sampled_from([2, 0, -1, 0.5, 2.0]))
    return {"op": op, "args": [x, y], "kwargs": {}, "grad": _grad(draw, op, dtype)
            and isinstance(y, dict) and other == dtype}


@st.composite
def reduce_call(draw):
    op = draw(st.sampled_from(_REDUCE))
    dtype = "bool" if op == "reduce_any" and draw(st.integers(0, 3)) else _dtype(draw)
    x = draw(tensor(dtype))
    kwargs = {"axis": draw(axis_for(len(x["s"])))}
    if draw(st.booleans()):
        kwargs["keepdims"] = draw(st.booleans())
    return {"op": op, "args": [x], "kwargs": kwargs, "grad": _grad(draw, op, dtype)}


@st.composite
def axis_op_call(draw):
    op = draw(st.sampled_from(["argmax", "argmin", "cumsum", "softmax", "log_softmax",
                               "expand_dims", "unstack", "reverse", "squeeze"]))
    dtype = _dtype(draw)
    x = draw(tensor(dtype, min_rank=1))
    rank = len(x["s"])
    if op == "expand_dims":
        ax = draw(st.integers(-rank - 2, rank + 1))
        return {"op": op, "args": [x, ax], "kwargs": {}, "grad": False}
    if op == "reverse":
        return {"op": op, "args": [x, draw(axis_for(rank, allow_none=False))], "kwargs": {},
                "grad": False}
    if op == "squeeze":
        return {"op": op, "args": [x], "kwargs": {"axis": draw(axis_for(rank))},
                "grad": False}
    kwargs = {"axis": draw(axis_for(rank, allow_none=False, lists=False))}
    if op == "cumsum" and draw(st.booleans()):
        kwargs["exclusive"] = draw(st.booleans())
        kwargs["reverse"] = draw(st.booleans())
    grad = op in ("cumsum", "softmax", "log_softmax") and _grad(draw, "add", dtype)
    return {"op": op, "args": [x], "kwargs": kwargs, "grad": grad}


@st.composite
def shape_arg(draw, allow_unknown=False):
    entries = [0, 1, 2, 3, 4, 6] + ([-1, -1, -2] if allow_unknown else [-1])
    dims = draw(st.lists(st.sampled_from(entries), min_size=0, max_size=3))
    if draw(st.integers(0, 9)) == 0:
        dims = dims + [2.5]
    return dims


@st.composite
def shape_call(draw):
    op = draw(st.sampled_from(["reshape", "reshape", "transpose", "tile", "zeros", "ones",
                               "fill", "broadcast_to", "pad", "split", "range", "cast"]))
    dtype = _dtype(draw)
    if op in ("zeros", "ones"):
        kwargs = {"dtype": {"dtype": dtype}} if draw(st.booleans()) else {}
        return {"op": op, "args": [draw(shape_arg())], "kwargs": kwargs, "grad": False}
    if op == "fill":
        return {"op": op, "args": [draw(shape_arg()), draw(st.sampled_from([1.0, 2, True]))],
                "kwargs": {}, "grad": False}
    if op == "range":
        args = [draw(st.integers(-3, 5)) for _ in range(draw(st.integers(1, 3)))]
        return {"op": op, "args": args, "kwargs": {}, "grad": False}
    x = draw(tensor(dtype, max_rank=3))
    rank = len(x["s"])
    if op == "reshape":
        if draw(st.booleans()):    # a size that fits, sometimes with -1
            n = len(x["v"])
            shape = [n] if n else [0]
            if n % 2 == 0 and n:
                shape = [2, n // 2]
            if draw(st.booleans()):
                shape[0] = -1
        else:
            shape = draw(shape_arg(allow_unknown=True))
        return {"op": op, "args": [x, shape], "kwargs": {}, "grad": _grad(draw, "add", dtype)}
    if op == "transpose":
        perm = draw(st.permutations(list(range(rank)))) if draw(st.integers(0, 3)) else \
            draw(st.lists(st.integers(-1, rank), min_size=rank, max_size=rank))
        return {"op": op, "args": [x], "kwargs": {"perm": list(perm)}, "grad": False}
    if op == "tile":
        mult = draw(st.lists(st.integers(-1, 3), min_size=max(rank - 1, 0),
                             max_size=rank + 1))
        return {"op": op, "args": [x, mult], "kwargs": {}, "grad": False}
    if op == "broadcast_to":
        return {"op": op, "args": [x, _broadcast_partner(draw, x["s"])], "kwargs": {},
                "grad": False}
    if op == "pad":
        pads = [[draw(st.integers(-1, 2)), draw(st.integers(0, 2))] for _ in range(rank)]
        return {"op": op, "args": [x, pads], "kwargs": {}, "grad": False}
    if op == "split":
        return {"op": op, "args": [x, draw(st.integers(0, 3))],
                "kwargs": {"axis": draw(axis_for(max(rank, 1), allow_none=False, lists=False))},
                "grad": False}
    return {"op": "cast", "args": [x, {"dtype": draw(st.sampled_from(DTYPES))}], "kwargs": {},
            "grad": False}


@st.composite
def combine_call(draw):
    op = draw(st.sampled_from(["concat", "stack", "matmul", "where", "clip_by_value"]))
    dtype = _dtype(draw)
    if op in ("concat", "stack"):
        x = draw(tensor(dtype, min_rank=1))
        y = draw(tensor(dtype, shape=_broadcast_partner(draw, x["s"])))
        rank = len(x["s"])
        ax = draw(st.integers(-rank - 1, rank + 1))
        return {"op": op, "args": [[x, y]], "kwargs": {"axis": ax}, "grad": False}
    if op == "matmul":
        m, k, n = (draw(st.integers(0, 3)) for _ in range(3))
        k2 = k if draw(st.integers(0, 5)) else draw(st.integers(0, 3))
        x = draw(tensor(dtype, shape=[m, k]))
        y = draw(tensor(dtype, shape=[k2, n]))
        return {"op": op, "args": [x, y], "kwargs": {}, "grad": _grad(draw, "add", dtype)}
    if op == "where":
        x = draw(tensor(dtype))
        cond = draw(tensor("bool", shape=_broadcast_partner(draw, x["s"])))
        y = draw(tensor(dtype, shape=x["s"]))
        return {"op": op, "args": [cond, x, y], "kwargs": {}, "grad": False}
    x = draw(tensor(dtype))
    lo, hi = sorted(draw(st.lists(st.sampled_from([-1.0, 0.0, 0.5, 2.0]), min_size=2,
                                  max_size=2)))
    return {"op": op, "args": [x, lo, hi], "kwargs": {}, "grad": False}


@st.composite
def index_call(draw):
    op = draw(st.sampled_from(["gather", "one_hot", "slice", "boolean_mask"]))
    dtype = _dtype(draw)
    if op == "one_hot":
        idx = draw(st.lists(st.integers(-2, 4), max_size=4))
        depth = draw(st.sampled_from([-1, 0, 1, 3, 4, 2.5]))
        return {"op": op, "args": [idx, depth], "kwargs": {}, "grad": False}
    x = draw(tensor(dtype, min_rank=1))
    rank = len(x["s"])
    if op == "gather":
        dim = x["s"][0]
        idx = draw(st.lists(st.integers(-1, dim), min_size=draw(st.sampled_from([0, 1, 1, 1])),
                            max_size=4))
        return {"op": op, "args": [x, idx], "kwargs": {}, "grad": False}
    if op == "slice":
        begin = [draw(st.integers(-1, d)) for d in x["s"]]
        size = [draw(st.integers(-2, d)) for d in x["s"]]
        if draw(st.integers(0, 9)) == 0:
            size = size[:-1]
        return {"op": op, "args": [x, begin, size], "kwargs": {}, "grad": False}
    mask_dtype = draw(st.sampled_from(["bool", "bool", "int32", "float32"]))
    first = x["s"][0] if draw(st.integers(0, 5)) else x["s"][0] + 1
    mask = draw(tensor(mask_dtype, shape=[first]))
    del rank
    return {"op": op, "args": [x, mask], "kwargs": {}, "grad": False}


@st.composite
def more_call(draw):
    """Further public ops: batched and transposed matmul, gather along an axis, gather_nd,
    activations and losses, add_n, bias_add, mixed-dtype joins, casts from every dtype."""
    op = draw(st.sampled_from(["matmul_batch", "gather_axis", "gather_nd", "leaky_relu",
                               "relu6", "l2_loss", "bias_add", "add_n", "expm1", "rsqrt",
                               "atan2", "greater_equal", "not_equal", "reduce_variance",
                               "sigmoid_cross_entropy_with_logits",
                               "softmax_cross_entropy_with_logits", "concat_mixed"]))
    dtype = _dtype(draw)
    if op == "matmul_batch":
        b, m, k, n = (draw(st.integers(0, 3)) for _ in range(4))
        ta, tb = draw(st.booleans()), draw(st.booleans())
        x = draw(tensor(dtype, shape=[b, k, m] if ta else [b, m, k]))
        y = draw(tensor(dtype, shape=[b, n, k] if tb else [b, k, n]))
        return {"op": "matmul", "args": [x, y], "kwargs": {"transpose_a": ta, "transpose_b": tb},
                "grad": _grad(draw, "multiply", dtype)}
    if op == "gather_axis":
        x = draw(tensor(dtype, min_rank=1))
        rank = len(x["s"])
        ax = draw(st.integers(-rank - 1, rank))
        dim = x["s"][ax] if -rank <= ax < rank else 2
        idx = draw(st.lists(st.integers(-1, dim), min_size=1, max_size=3))
        return {"op": "gather", "args": [x, idx], "kwargs": {"axis": ax}, "grad": False}
    if op == "gather_nd":
        x = draw(tensor(dtype, min_rank=1, min_dim=1))
        depth = draw(st.integers(1, len(x["s"])))
        idx = [[draw(st.integers(-1, d)) for d in x["s"][:depth]]
               for _ in range(draw(st.integers(1, 3)))]
        return {"op": "gather_nd", "args": [x, idx], "kwargs": {}, "grad": False}
    if op in ("leaky_relu", "relu6", "l2_loss", "expm1", "rsqrt"):
        return {"op": op, "args": [draw(tensor(dtype))], "kwargs": {},
                "grad": op != "relu6" and _grad(draw, "exp", dtype)}
    if op == "reduce_variance":
        x = draw(tensor(dtype))
        return {"op": op, "args": [x], "kwargs": {"axis": draw(axis_for(len(x["s"])))},
                "grad": _grad(draw, "reduce_sum", dtype) and dtype != "complex64"}
    if op in ("atan2", "greater_equal", "not_equal"):
        x = draw(tensor(dtype))
        y = draw(tensor(dtype, shape=_broadcast_partner(draw, x["s"])))
        return {"op": op, "args": [x, y], "kwargs": {}, "grad": False}
    if op == "bias_add":
        x = draw(tensor(dtype, min_rank=1, max_rank=3))
        bias = draw(tensor(dtype, shape=[x["s"][-1] if draw(st.integers(0, 4)) else 2]))
        return {"op": op, "args": [x, bias], "kwargs": {}, "grad": _grad(draw, "add", dtype)}
    if op == "add_n":
        x = draw(tensor(dtype))
        others = [draw(tensor(dtype, shape=x["s"] if draw(st.integers(0, 4)) else
                              _broadcast_partner(draw, x["s"])))
                  for _ in range(draw(st.integers(0, 2)))]
        return {"op": op, "args": [[x] + others], "kwargs": {}, "grad": False}
    if op in ("sigmoid_cross_entropy_with_logits", "softmax_cross_entropy_with_logits"):
        x = draw(tensor(dtype, min_rank=1))
        z = draw(tensor(dtype, shape=x["s"] if draw(st.integers(0, 4)) else
                        _broadcast_partner(draw, x["s"])))
        return {"op": op, "args": [], "kwargs": {"labels": z, "logits": x},
                "grad": _grad(draw, "exp", dtype)}
    x = draw(tensor(dtype, min_rank=1))
    y = draw(tensor(draw(st.sampled_from(DTYPES)), shape=x["s"]))
    return {"op": "concat", "args": [[x, y]], "kwargs": {"axis": 0}, "grad": False}


def call_strategy():
    return st.one_of(unary_call(), binary_call(), reduce_call(), axis_op_call(), shape_call(),
                     combine_call(), index_call(), more_call())


def draw_calls(n, seed_value):
    """``n`` generated calls (duplicates dropped), the same for the same seed and version."""
    return drawing.distinct(call_strategy(), n, seed_value)
