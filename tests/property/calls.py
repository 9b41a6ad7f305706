"""Op calls as plain JSON data, and running one under a given ``tf`` module.

A call is ``{"op": name, "args": [...], "kwargs": {...}, "grad": bool}``. An argument that is a
dict ``{"t": dtype, "s": shape, "v": flat values}`` becomes a tensor (complex values are
``[re, im]`` pairs); anything else is passed as is. With ``"grad"`` the call runs under a
``GradientTape`` watching every tensor argument and also returns the gradients of the sum of
the result (``tf.reduce_sum``).

The same runner serves TensorFlow (``record.py``) and tapegrad (``test_property.py``).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import outcome  # noqa: E402  (describe and compare, shared with the conformance harness)

# op name -> attribute path under the ``tf`` module
OPS = {
    # unary elementwise
    "abs": "math.abs", "negative": "math.negative", "square": "math.square",
    "sqrt": "math.sqrt", "exp": "math.exp", "log": "math.log", "log1p": "math.log1p",
    "sigmoid": "math.sigmoid", "tanh": "math.tanh", "sin": "math.sin", "cos": "math.cos",
    "softplus": "math.softplus", "sign": "math.sign", "floor": "math.floor",
    "round": "math.round", "reciprocal": "math.reciprocal", "relu": "nn.relu",
    "elu": "nn.elu", "is_nan": "math.is_nan", "logical_not": "math.logical_not",
    # binary elementwise (broadcasting)
    "add": "math.add", "subtract": "math.subtract", "multiply": "math.multiply",
    "divide": "math.divide", "maximum": "math.maximum", "minimum": "math.minimum",
    "pow": "math.pow", "floordiv": "math.floordiv", "floormod": "math.floormod",
    "equal": "math.equal", "less": "math.less", "logical_and": "math.logical_and",
    "squared_difference": "math.squared_difference",
    # reductions and scans
    "reduce_sum": "reduce_sum", "reduce_mean": "reduce_mean", "reduce_max": "reduce_max",
    "reduce_min": "reduce_min", "reduce_prod": "reduce_prod", "reduce_any": "reduce_any",
    "reduce_logsumexp": "reduce_logsumexp", "argmax": "math.argmax", "argmin": "math.argmin",
    "cumsum": "math.cumsum", "softmax": "nn.softmax", "log_softmax": "nn.log_softmax",
    # shapes and indexing
    "reshape": "reshape", "transpose": "transpose", "expand_dims": "expand_dims",
    "squeeze": "squeeze", "concat": "concat", "stack": "stack", "unstack": "unstack",
    "tile": "tile", "slice": "slice", "gather": "gather", "one_hot": "one_hot",
    "zeros": "zeros", "ones": "ones", "fill": "fill", "matmul": "linalg.matmul",
    "clip_by_value": "clip_by_value", "cast": "cast", "where": "where",
    "boolean_mask": "boolean_mask", "split": "split", "pad": "pad", "reverse": "reverse",
    "broadcast_to": "broadcast_to", "range": "range",
    "reduce_variance": "math.reduce_variance",
    "gather_nd": "gather_nd", "leaky_relu": "nn.leaky_relu", "relu6": "nn.relu6",
    "l2_loss": "nn.l2_loss", "bias_add": "nn.bias_add", "add_n": "add_n",
    "sigmoid_cross_entropy_with_logits": "nn.sigmoid_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits": "nn.softmax_cross_entropy_with_logits",
    "expm1": "math.expm1", "rsqrt": "math.rsqrt", "atan2": "math.atan2",
    "greater_equal": "math.greater_equal", "not_equal": "math.not_equal",
}


def resolve(tf, op):
    target = tf
    for part in OPS[op].split("."):
        target = getattr(target, part)
    return target


def is_tensor_spec(a):
    return isinstance(a, dict) and set(a) == {"t", "s", "v"}


def make_tensor(tf, spec):
    import numpy as np
    dtype = spec["t"]
    values = spec["v"]
    if dtype.startswith("complex"):
        values = [complex(re, im) for re, im in values]
    array = np.array(values, dtype=dtype).reshape(spec["s"])
    return tf.constant(array, dtype=dtype)


def _build(tf, a, tensors):
    if is_tensor_spec(a):
        t = make_tensor(tf, a)
        tensors.append(t)
        return t
    if isinstance(a, list):
        return [_build(tf, x, tensors) for x in a]
    if isinstance(a, dict) and set(a) == {"dtype"}:
        return getattr(tf, a["dtype"])
    return a


def run_call(tf, call):
    """Runs ``call`` under ``tf`` and returns what it gave (raises what it raised)."""
    tensors = []
    args = [_build(tf, a, tensors) for a in call["args"]]
    kwargs = {k: _build(tf, v, tensors) for k, v in call.get("kwargs", {}).items()}
    fn = resolve(tf, call["op"])
    if not call.get("grad"):
        return fn(*args, **kwargs)
    with tf.GradientTape(persistent=True) as tape:
        for t in tensors:
            tape.watch(t)
        result = fn(*args, **kwargs)
        total = tf.reduce_sum(result)
    return [result, tape.gradient(total, tensors)]


def outcome_of(tf, call):
    """The described outcome of ``call`` (value or error class), as the fixtures hold it."""
    return outcome.run(lambda tf_: run_call(tf_, call), tf)


# Tolerances by dtype: generated calls reach NumPy's and Eigen's last-bit differences in float32
# transcendental functions more often than hand-written cases. Float64 and float16 keep the
# conformance defaults; integers and booleans are exact (outcome._tolerance).
TOLERANCE = {"float32": (1e-4, 1e-5), "complex64": (1e-4, 1e-5)}


# Messages of tapegrad's own on purpose (as ``@message_differs`` marks a conformance case):
# op -> (a phrase of TensorFlow's message that picks the calls, the reason, our phrases).
MESSAGE_DIFFERS = {
    "softmax_cross_entropy_with_logits": (
        "Expected begin[0] == 0",
        "TensorFlow fails inside the Slice its Python wrapper runs on an empty logits vector; "
        "tapegrad names the shapes that do not fit",
        ("logits and labels must be broadcastable", "logits_size=[0]")),
    "round": (
        "Could not find device for node",
        "TensorFlow lists every kernel registered for Round on every device; tapegrad says the "
        "dtype has no CPU kernel", ("Round: no kernel for dtype",)),
}


def compare(call, expected, got, known=None):
    """Differences between two outcomes of ``call`` (empty: the same); ``known``: our message as
    the ledger of known message differences holds it (tests/conformance/ledger.py)."""
    marker, reason, phrases = MESSAGE_DIFFERS.get(call["op"], (None, None, None))
    mark = (reason, phrases) if marker and marker in expected.get("message", "") else None
    return outcome.compare(expected, got, TOLERANCE, messages=True, known=known, message=mark)
