"""``tf.nn.sparse_softmax_cross_entropy_with_logits``: softmax cross-entropy with integer labels.

One primitive, as TensorFlow's SparseSoftmaxCrossEntropyWithLogits op, rather than the dense op
with a one-hot: the forward pass never builds the one-hot (with the kernels, one pass per row,
keeping its exponentials for the backward pass while a tape records). The logits' gradient is
TensorFlow's ``g[..., None] * (softmax(logits) - onehot(labels))``; under an outer tape it is
written with the engine's ops (softmax), so second derivatives are the softmax's, as TensorFlow's
(recorded: conformance ``sparse_xent``).
"""
from .. import convert, shape_rules
from ..backend import xp
from ..checks import check_dtype
from ..checks.dtype_rules import FLOAT
from ..errors import InvalidArgumentError, invalid_argument
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import defjvp, defshape, defvjp, primitive
from ..tensor import checked_shape, wrap
from ..thread_state import state
from .arithmetic_ops import multiply, subtract
from .array_ops import expand_dims
from .nn_ops import softmax
from .reduction_ops import reduce_sum
from ..primitives import defbatched

_OP = "SparseSoftmaxCrossEntropyWithLogits"
_ON_NUMPY = xp.__name__ == "numpy"
_max_reduce = xp.maximum.reduce if _ON_NUMPY else None
_add_reduce = xp.add.reduce if _ON_NUMPY else None


# No np.errstate here: NumPy's floating-point warnings from engine modules are filtered once
# (checks/numerics.py), and the context manager costs a few microseconds per call on the small
# tensors of a training step.
def _label_positions(labels, n):
    """Flat indices of each row's label in a C-contiguous (..., n) array."""
    return xp.arange(0, labels.size * n, n) + labels.reshape(-1)


def _loss_impl(logits, labels):
    if labels.shape != logits.shape[:-1]:      # (the wrapper's check, for a graph's replays)
        raise InvalidArgumentError(
            f"logits and labels must have the same first dimension, got logits shape "
            f"{list(logits.shape)} and labels shape {list(labels.shape)} [Op:{_OP}]")
    _check_labels(labels, logits.shape[-1])     # (in the op, so a traced graph checks each call)
    fast = kernels.sparse_xent_loss(logits, labels)   # keeps its exponentials while a tape records
    if fast is not None:
        return fast
    n = logits.shape[-1]
    if n == 0:                      # no classes (and so no rows: labels are checked)
        return xp.zeros(logits.shape[:-1], logits.dtype)
    if _ON_NUMPY:   # the ufuncs' own reductions, which the methods below call (same bits)
        shifted = logits - _max_reduce(logits, -1, None, None, True)
        lse = xp.log(_add_reduce(xp.exp(shifted), -1))
    else:
        shifted = logits - logits.max(axis=-1, keepdims=True)
        lse = xp.log(xp.exp(shifted).sum(axis=-1))
    picked = shifted.reshape(-1)[_label_positions(labels, n)].reshape(labels.shape)
    return (lse - picked).astype(logits.dtype, copy=False)


SPARSE_XENT = primitive(_OP, _loss_impl, dtypes=FLOAT)
defshape(SPARSE_XENT, lambda logits, labels: shape_rules.without_axis(logits))


def _onehot(z, like):
    n = like._value.shape[-1]
    return wrap((z._value[..., None] == xp.arange(n)).astype(like._value.dtype))


def _loss_grad(g, ans, x, z):
    """TensorFlow's rule: g[..., None] * (softmax(x) - onehot(z)). While nothing records, the
    kernel computes it in one pass per row (from the forward pass's exponentials when kept);
    otherwise with the engine's ops, so an outer tape differentiates it."""
    gv = getattr(g, "_value", None)
    if gv is not None:
        fast = kernels.sparse_xent_grad(x._value, z._value, gv, ans._value)
        if fast is not None:
            return wrap(fast)
        if not state.active and x._value.dtype in _NUMPY_GRAD_DTYPES:
            return wrap(_numpy_grad(x._value, z._value, gv))
    return multiply(expand_dims(g, -1), subtract(softmax(x), _onehot(z, x)))


# Speed: below the kernels' threshold and with nothing recording, the rule above in NumPy, the
# same operations in the same order (so the same values): W2's step (32x2 logits) binds 9 fewer
# ops; with convert.binary's variable read, 1.92M -> 1.68M instructions per step (-12%,
# callgrind, engine/bench/step_cost.py). float16/bfloat16 keep the ops' own rounding.
_NUMPY_GRAD_DTYPES = (xp.dtype(xp.float32), xp.dtype(xp.float64))


def _numpy_grad(x, z, g):
    if _ON_NUMPY:   # (as in _loss_impl)
        e = xp.exp(x - _max_reduce(x, -1, None, None, True))
        total = _add_reduce(e, -1, None, None, True)
    else:
        e = xp.exp(x - x.max(axis=-1, keepdims=True))
        total = e.sum(axis=-1, keepdims=True)
    onehot = (z[..., None] == xp.arange(x.shape[-1])).astype(x.dtype)
    return g[..., None] * (e / total - onehot)


defvjp(SPARSE_XENT, _loss_grad, None)
defjvp(SPARSE_XENT,
       lambda t, ans, x, z: reduce_sum(multiply(t, subtract(softmax(x), _onehot(z, x))), -1), None)


def _any_outside(labels, depth):
    """Whether a label is negative or at least ``depth``. Speed: one reduction of the labels seen
    as unsigned (a negative one becomes huge) rather than two comparisons, an ``or`` and ``any``'s
    Python wrapper."""
    if not _ON_NUMPY or labels.size == 0:
        return bool(((labels < 0) | (labels >= depth)).any())
    return int(_max_reduce(labels.view(_UNSIGNED[labels.dtype.itemsize]), None)) >= depth


_UNSIGNED = {4: xp.uint32, 8: xp.uint64} if _ON_NUMPY else {}


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """``-log_softmax(logits)[..., label]`` for integer labels of shape ``logits.shape[:-1]``.

    The logits' gradient is ``g * (softmax(logits) - onehot(labels))``; the labels have none.

    >>> import tapegrad as tf
    >>> x = tf.constant([[0.0, 0.0]])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0], logits=x)
    >>> tape.gradient(loss, x).numpy().tolist()
    [[-0.5, 0.5]]
    """
    if labels is None or logits is None:
        raise ValueError("sparse_softmax_cross_entropy_with_logits: both labels and logits must "
                         "be given")
    x = convert.tensor(logits)
    check_dtype(SPARSE_XENT, x)
    z = convert.tensor(labels)
    if z._value.dtype not in (xp.int32, xp.int64):
        raise invalid_argument(f"Value for attr 'Tlabels' of {z.dtype.name} is not in the list of "
                               f"allowed values: int32, int64 [Op:{_OP}]", TypeError)
    if x._value.ndim == 0 or checked_shape(z) != checked_shape(x)[:-1]:
        raise ValueError(f"`labels.shape` must equal `logits.shape` except for the last "
                         f"dimension. Received: labels.shape={z.shape} and "
                         f"logits.shape={x.shape}")
    return bind(SPARSE_XENT, (x, z), {})


def _check_labels(labels, depth):
    """TensorFlow's error for a label outside [0, depth)."""
    if _any_outside(labels, depth):
        bad = (labels < 0) | (labels >= depth)
        raise InvalidArgumentError(f"Received a label value of {int(labels[bad].reshape(-1)[0])} "
                                   f"which is outside the valid range of [0, {depth}).  Label "
                                   f"values: {' '.join(map(str, labels.reshape(-1)))} "
                                   f"[Op:{_OP}]")


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
def _batched_sparse_xent(G, ans, inputs, attrs, wanted):
    """The VJP's fused kernel where it runs (no tape recording, large enough logits), called per
    row as the loop calls it; otherwise ``G[..., None] * backprop`` for all rows at once."""
    x, z = inputs
    if not wanted[0]:
        return [None, None]
    rows = []
    for r in range(G._value.shape[0]):
        fast = kernels.sparse_xent_grad(x._value, z._value, G._value[r], ans._value)
        if fast is None:
            break
        rows.append(fast)
    else:
        return [wrap(xp.stack(rows)), None]
    onehot = wrap((z._value[..., None] == xp.arange(x._value.shape[-1])).astype(x._value.dtype))
    return [multiply(expand_dims(G, -1), subtract(softmax(x), onehot)), None]


defbatched(SPARSE_XENT, _batched_sparse_xent)
