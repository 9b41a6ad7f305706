"""Connectionist temporal classification: ``tf.nn.ctc_loss``, ``ctc_greedy_decoder``,
``ctc_beam_search_decoder``, ``collapse_repeated``, ``ctc_unique_labels``.

The loss is a forward-backward pass in log space (float64 NumPy) over TensorFlow's alignment
states for a label row of padded length L: state 0 is "nothing emitted yet", states 1..L are
the labels, states L+1..2L+1 the blanks after 0..L labels. A label state is entered from the
blank before it, from the previous label (unless the two labels repeat) or, for the first, from
state 0; a blank state from the label before it; every state loops on itself. The loss is
-log p(labels | logits); its gradient for the logits is softmax(logits) minus the posterior
occupancy of each class per frame (zero past ``logit_length``), TensorFlow's fused rule.

TensorFlow has two paths, and both are kept:

- dense labels (``ctc_loss_dense``): "log 0" is log(1e-307) for the initial and final
  states, so a label row no alignment can reach gives a large finite loss (about 707 per
  impossible row) and a gradient, instead of inf;
- ``SparseTensor`` labels (the fused ``CTCLoss`` kernel): a true log 0, so an impossible row
  gives inf with gradient softmax(logits).

The gradient of the gradient is not defined (``CTCLossGrad`` has no rule: LookupError, as
TensorFlow's ``prevent_gradient``).
"""
import math as _math
import struct as _struct

from .. import dtypes
from ..backend import xp
from ..errors import FailedPreconditionError, InvalidArgumentError
from ..recording import bind
from ..table import defjvp, defvjp, primitive
from ..checks.dtype_rules import INTERNAL, accepting
from ..tensor import convert_to_tensor, wrap
from ..variables import Variable
from ..ground import multiply, reduce_sum
from .arithmetic_ops import cast
from .array_ops import transpose
from .sparse_ops import SparseTensor
from .. import batching
from ..ground import reshape_to
from ..batching import own_vjp
from .. import shape_rules
from ..table import defshape
from ..primitives import NO_GRADIENT, exempt

# TensorFlow's "log 0" for dense labels: log(1e-307) rounded to float32
_DENSE_LOG_0 = _struct.unpack("f", _struct.pack("f", _math.log(1e-307)))[0]


def _tensor(x, dtype=None):
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x, dtype=dtype)


def _lse(*terms):
    """Elementwise log(sum(exp(terms))), with -inf for all -inf."""
    top = terms[0]
    for t in terms[1:]:
        top = xp.maximum(top, t)
    safe = xp.where(xp.isfinite(top), top, 0.0)
    total = sum(xp.exp(t - safe) for t in terms)
    with xp.errstate(divide="ignore"):
        return xp.log(total) + safe


def _log_softmax(logits):
    top = logits.max(axis=-1, keepdims=True)
    shifted = logits - top
    return shifted - xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))


def _normalize(v):
    """Subtracts the log-sum over states (where it is finite) and returns it."""
    total = _lse(*[v[..., s] for s in range(v.shape[-1])]) if v.shape[-1] <= 8 else \
        _lse_axis(v)
    ok = xp.isfinite(total)
    return xp.where(ok[..., None], v - xp.where(ok, total, 0.0)[..., None], v), total


def _lse_axis(v):
    top = v.max(axis=-1)
    safe = xp.where(xp.isfinite(top), top, 0.0)
    with xp.errstate(divide="ignore"):
        return xp.log(xp.exp(v - safe[..., None]).sum(axis=-1)) + safe


def ctc_forward_backward(logits, labels, label_length, logit_length, blank, log_0):
    """-log p(labels) per batch row and its gradient for the logits (time-major, float64).

    ``labels`` is [B, L] in class ids (padding included), ``log_0`` the value used for an
    unreachable initial or final state (-inf, or TensorFlow's dense-path stand-in).
    """
    T, B, C = logits.shape
    L = labels.shape[1]
    S = 2 * L + 2
    logp = _log_softmax(logits)
    # observation log-probabilities of every state at every frame: [T, B, S]
    valid = (labels >= 0) & (labels < C)
    label_obs = xp.take_along_axis(logp, xp.broadcast_to(xp.where(valid, labels, 0)[None],
                                                         (T, B, L)), axis=2)
    label_obs = xp.where(valid[None], label_obs, 0.0)
    obs = xp.concatenate([xp.full((T, B, 1), -xp.inf), label_obs,
                          xp.broadcast_to(logp[:, :, blank:blank + 1], (T, B, L + 1))], axis=2)
    # may a label state i (1..L) be entered from label state i - 1 (state 0 always)?
    from_prev = xp.ones((B, L), bool)
    from_prev[:, 1:] = labels[:, 1:] != labels[:, :-1]
    link = xp.where(from_prev, 0.0, -xp.inf)                # log of the transition weight

    lab = xp.arange(1, L + 1)                               # label states
    blk = xp.arange(L + 1, S)                               # blank states after 0..L labels

    def forward_step(a, o):
        new = xp.empty_like(a)
        new[:, 0] = a[:, 0]
        new[:, lab] = _lse(a[:, lab], a[:, blk[:-1]], a[:, lab - 1] + link)
        new[:, blk] = _lse(a[:, blk], a[:, xp.arange(0, L + 1)])
        return _normalize(new + o)[0]

    def backward_step(b, o):
        s = b + o
        new = xp.empty_like(b)
        nxt_link = xp.concatenate([link[:, 1:], xp.full((B, 1), -xp.inf)], axis=1)
        nxt_label = xp.concatenate([s[:, 2:L + 1], xp.full((B, 1), -xp.inf)], axis=1)
        new[:, 0] = _lse(s[:, 0], s[:, 1] + link[:, 0] if L else s[:, 0] - xp.inf, s[:, L + 1])
        new[:, lab] = _lse(s[:, lab], s[:, blk[1:]], nxt_label + nxt_link)
        nxt_blank_label = xp.concatenate([s[:, 1:L + 1], xp.full((B, 1), -xp.inf)], axis=1)
        new[:, blk] = _lse(s[:, blk], nxt_blank_label)
        return _normalize(new)

    initial = xp.full((B, S), log_0)
    initial[:, 0] = 0.0
    final = xp.full((B, S), log_0)
    rows = xp.arange(B)
    final[rows, label_length] = 0.0
    final[rows, L + 1 + label_length] = 0.0
    frame_on = xp.arange(T)[:, None] < logit_length[None, :]         # [T, B]

    with xp.errstate(invalid="ignore", over="ignore"):
        fwd = xp.empty((T, B, S))
        a = initial
        for t in range(T):
            a = forward_step(a, obs[t])
            fwd[t] = a
        bwd = xp.empty((T, B, S))
        b = final
        log_sum = xp.zeros(B)
        for t in range(T - 1, -1, -1):
            bwd[t] = b                     # beta after frame t
            new, total = backward_step(b, obs[t])
            log_sum = log_sum + xp.where(frame_on[t], total, 0.0)
            b = xp.where(frame_on[t][:, None], new, final)
        log_likelihood = b[:, 0] + log_sum
        post, _ = _normalize(fwd + bwd)
        post = xp.where(frame_on[:, :, None], post, -xp.inf)
        occupancy = xp.exp(post)
        occupancy = xp.where(xp.isfinite(log_likelihood)[None, :, None] & xp.isfinite(occupancy),
                             occupancy, 0.0)
    grad = (xp.exp(logp) - _per_class(occupancy, labels, valid, blank, C)) * frame_on[:, :, None]
    return -log_likelihood, grad


def _per_class(occupancy, labels, valid, blank, C):
    """The state posteriors [T, B, S] summed per class [T, B, C]: blank states to the blank,
    label states to their label."""
    T, B, _ = occupancy.shape
    L = labels.shape[1]
    rows = xp.arange(B)
    per_class = xp.zeros((T, B, C))
    per_class[:, :, blank] = occupancy[:, :, L + 1:].sum(axis=2)
    counted = valid & (labels != blank)
    for i in range(L):
        col = xp.where(counted[:, i], labels[:, i], 0)
        xp.add.at(per_class, (slice(None), rows, col),
                  xp.where(counted[:, i][None], occupancy[:, :, i + 1], 0.0))
    return per_class


def _ctc_impl(logits, labels, label_length, logit_length, blank, log_0, want_grad):
    loss, grad = ctc_forward_backward(logits.astype(xp.float64), labels, label_length,
                                      logit_length, blank, log_0)
    return (grad if want_grad else loss).astype(logits.dtype)


CTC_LOSS = primitive("CTCLoss", lambda x, **k: _ctc_impl(x, want_grad=False, **k),
                     dtypes=accepting("float32", "float64"))
defshape(CTC_LOSS, lambda x, **k: shape_rules.Spec(None if x.shape is None else x.shape[1:2], x.dtype))
CTC_LOSS_GRAD = primitive("CTCLossGrad", lambda x, **k: _ctc_impl(x, want_grad=True, **k),
                          exempt=INTERNAL)
exempt(CTC_LOSS_GRAD, **NO_GRADIENT)
defshape(CTC_LOSS_GRAD, shape_rules.same)
defvjp(CTC_LOSS, lambda g, ans, x, **k: multiply(   # g[..., None, :, None]: any rows stay in front
    reshape_to(g, g._value.shape[:-1] + (1, g._value.shape[-1], 1)), bind(CTC_LOSS_GRAD, (x,), k)))
defjvp(CTC_LOSS, lambda t, ans, x, **k: reduce_sum(multiply(bind(CTC_LOSS_GRAD, (x,), k), t),
                                                   axis=[0, 2]))


def _ints(x, what):
    v = xp.asarray(_tensor(x)._value)
    if v.dtype.kind not in "iu":
        raise InvalidArgumentError(f"ctc_loss: {what} must be integers, got {v.dtype}")
    return v.astype(xp.int64)


def _sparse_rows(sp, batch):
    """A SparseTensor of labels as a padded [batch, L] matrix and its row lengths."""
    idx = xp.asarray(sp.indices._value, xp.int64)
    vals = xp.asarray(sp.values._value).astype(xp.int64)
    lengths = xp.zeros(batch, xp.int64)
    for (r, _c), _v in zip(idx.tolist(), vals.tolist()):
        if not 0 <= r < batch:
            raise InvalidArgumentError(f"ctc_loss: label row {r} is outside the batch of {batch}")
        lengths[r] += 1
    out = xp.zeros((batch, int(lengths.max()) if batch else 0), xp.int64)
    filled = xp.zeros(batch, xp.int64)
    order = xp.lexsort((idx[:, 1], idx[:, 0])) if len(idx) else []
    for k in order:
        r = idx[k, 0]
        out[r, filled[r]] = vals[k]
        filled[r] += 1
    return out, lengths


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """The CTC loss per batch row: -log p(labels | logits), softmax taken for you.

    ``labels``: [batch, max_label_length] padded ids with ``label_length``, or a SparseTensor
    (then ``label_length`` is None and ``blank_index`` is required). ``logits``:
    [frames, batch, classes] (``logits_time_major=False``: [batch, frames, classes]).
    ``blank_index`` defaults to 0 for dense labels; negative values count from the end.
    ``unique`` (from ``ctc_unique_labels``) only speeds TensorFlow up on TPU; the result is the
    same without it.

    >>> import tapegrad as tf
    >>> logits = tf.zeros([2, 1, 3])                # 2 frames, 1 row, 3 classes
    >>> round(float(tf.nn.ctc_loss([[1]], logits, [1], [2])[0]), 4)   # -log(3/9)
    1.0986
    """
    x = _tensor(logits)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"ctc_loss: logits must be floating point, got {x.dtype.name}")
    if x._value.ndim != 3:
        raise InvalidArgumentError(f"ctc_loss: logits must be 3-D, got shape {list(x.shape)}")
    is_sparse = isinstance(labels, SparseTensor)
    if is_sparse and blank_index is None:
        raise ValueError("Argument `blank_index` must be provided when `labels` is a "
                         "`SparseTensor`.")
    if not logits_time_major:
        x = transpose(x, [1, 0, 2])
    T, B, C = x._value.shape
    blank = 0 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += C
    if not 0 <= blank < C:
        raise InvalidArgumentError(f"ctc_loss: blank_index {blank_index} is outside the "
                                   f"{C} classes")
    logit_len = _ints(logit_length, "logit_length").reshape(-1)
    if logit_len.shape[0] != B or (logit_len > T).any() or (logit_len < 0).any():
        raise InvalidArgumentError(f"ctc_loss: logit_length must hold {B} lengths in [0, {T}], "
                                   f"got {logit_len.tolist()}")
    if is_sparse:
        rows, lengths = _sparse_rows(labels, B)
        log_0 = -xp.inf
    else:
        if x.dtype != dtypes.float32 and x.dtype not in (dtypes.float16, dtypes.bfloat16):
            raise InvalidArgumentError(
                f"cannot compute Mul as input #1(zero-based) was expected to be a "
                f"{x.dtype.name} tensor but is a float tensor [Op:Mul]: TensorFlow's dense "
                f"ctc_loss works in float32")
        rows = _ints(labels, "labels")
        if rows.ndim != 2 or rows.shape[0] != B:
            raise InvalidArgumentError(f"ctc_loss: dense labels must be [batch={B}, "
                                       f"max_label_length], got shape {list(rows.shape)}")
        lengths = _ints(label_length, "label_length").reshape(-1)
        if lengths.shape[0] != B or (lengths < 0).any() or (lengths > rows.shape[1]).any():
            raise InvalidArgumentError(f"ctc_loss: label_length must hold {B} lengths in "
                                       f"[0, {rows.shape[1]}], got {lengths.tolist()}")
        log_0 = _DENSE_LOG_0
    # TensorFlow moves the blank (to class 0 for dense labels, to the end for sparse ones) and
    # shifts the labels around it, so a label equal to the blank stands for the class below it
    rows = xp.where(rows == blank, rows - 1, rows) if blank else rows
    attrs = {"labels": rows, "label_length": lengths, "logit_length": logit_len,
             "blank": blank, "log_0": log_0}
    half = x.dtype in (dtypes.float16, dtypes.bfloat16)
    xin = cast(x, dtypes.float32) if half else x
    loss = bind(CTC_LOSS, (xin,), attrs)
    return cast(loss, x.dtype) if half else loss


# -- decoders and label helpers ---------------------------------------------------------------------
def _decoded(rows, batch):
    """One SparseTensor of int64 ids from a list of per-row id lists."""
    indices = [[b, j] for b, row in enumerate(rows) for j in range(len(row))]
    values = [v for row in rows for v in row]
    width = max((len(r) for r in rows), default=0)
    return SparseTensor(xp.asarray(indices, xp.int64).reshape(-1, 2),
                        wrap(xp.asarray(values, xp.int64)), [batch, width])


def _decoder_inputs(inputs, sequence_length, op):
    x = _tensor(inputs)
    v = x._value
    if v.ndim != 3:
        raise InvalidArgumentError(f"{op}: inputs must be 3-D [max_time, batch, classes], got "
                                   f"shape {list(v.shape)}")
    lengths = xp.asarray(_tensor(sequence_length)._value).reshape(-1).astype(xp.int64)
    if lengths.shape[0] != v.shape[1]:
        raise InvalidArgumentError(f"{op}: len(sequence_length) != batch_size. "
                                   f"len(sequence_length): {lengths.shape[0]} batch_size: "
                                   f"{v.shape[1]}")
    if (lengths > v.shape[0]).any():
        bad = int(xp.argmax(lengths > v.shape[0]))
        raise FailedPreconditionError(f"{op}: sequence_length({bad}) <= {v.shape[0]}")
    return x, v, lengths


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Best-path decoding: the most likely class per frame, repeats merged, blanks removed.

    Returns ``([decoded], neg_sum_logits)``: ``decoded`` a SparseTensor of int64 ids, and
    ``neg_sum_logits`` [batch, 1], minus the sum of each frame's largest logit. The blank is the
    last class unless ``blank_index`` says otherwise.

    >>> import tapegrad as tf
    >>> x = tf.constant([[[0.0, 2.0, 0.0]], [[0.0, 2.0, 0.0]], [[0.0, 0.0, 3.0]]])
    >>> (decoded,), _ = tf.nn.ctc_greedy_decoder(x, [3])
    >>> decoded.values.numpy().tolist()
    [1]
    """
    x, v, lengths = _decoder_inputs(inputs, sequence_length, "CTCGreedyDecoder")
    T, B, C = v.shape
    blank = C - 1 if blank_index is None else int(blank_index)
    if blank < 0:
        blank += C
    best = v.argmax(axis=2)                                   # the first maximum, as Eigen's
    rows, scores = [], xp.zeros((B, 1), v.dtype)
    for b in range(B):
        out, prev = [], -1
        n = int(lengths[b])
        for t in range(n):
            c = int(best[t, b])
            if c != blank and not (merge_repeated and c == prev):
                out.append(c)
            prev = c
        rows.append(out)
        scores[b, 0] = -v[xp.arange(n), b, best[:n, b]].astype(xp.float64).sum()
    return [_decoded(rows, B)], wrap(scores)


def collapse_repeated(labels, seq_length, name=None):
    """Merges runs of a repeated label within each row's length, pads with 0.

    >>> import tapegrad as tf
    >>> y, n = tf.nn.collapse_repeated([[1, 1, 2, 2, 1]], [5])
    >>> y.numpy().tolist(), n.numpy().tolist()
    ([[1, 2, 1]], [3])
    """
    lab = _tensor(labels)
    lens = _tensor(seq_length)
    v = lab._value
    if v.ndim != 2:
        raise InvalidArgumentError(f"collapse_repeated: labels must be [batch, max_length], got "
                                   f"shape {list(v.shape)}")
    keep = xp.ones(v.shape, bool)
    keep[:, 1:] = v[:, 1:] != v[:, :-1]
    keep &= xp.arange(v.shape[1])[None, :] < xp.asarray(lens._value).reshape(-1, 1)
    new_len = keep.sum(axis=1)
    out = xp.zeros((v.shape[0], int(new_len.max()) if v.shape[0] else 0), v.dtype)
    for b in range(v.shape[0]):
        out[b, :new_len[b]] = v[b][keep[b]]
    return wrap(out), wrap(new_len.astype(lens._value.dtype))


def ctc_unique_labels(labels, name=None):
    """Per row: the distinct labels in order of first appearance (int64, padded with 0) and, for
    each label, its position among them (int32).

    >>> import tapegrad as tf
    >>> y, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3]])
    >>> y.numpy().tolist(), idx.numpy().tolist()
    ([[3, 4, 0, 0]], [[0, 1, 1, 0]])
    """
    v = _tensor(labels)._value
    if v.ndim != 2:
        raise InvalidArgumentError(f"ctc_unique_labels: labels must be [batch, max_length], got "
                                   f"shape {list(v.shape)}")
    ys = xp.zeros(v.shape, xp.int64)
    idx = xp.zeros(v.shape, xp.int32)
    for b in range(v.shape[0]):
        seen = {}
        for j, lab in enumerate(v[b].tolist()):
            idx[b, j] = seen.setdefault(lab, len(seen))
        ys[b, :len(seen)] = list(seen)
    return [wrap(ys), wrap(idx)]


# -- beam search ------------------------------------------------------------------------------------
class _Beam:
    """A prefix in the beam tree with its log-probabilities, ``old`` (before this frame) and
    ``new`` (after it), each [total, ending in blank, ending in its label]."""
    __slots__ = ("parent", "label", "children", "old", "new")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.old = [-xp.inf] * 3
        self.new = [-xp.inf] * 3

    def active(self):
        return self.new[0] != -xp.inf

    def child(self, label):
        if label not in self.children:
            self.children[label] = _Beam(self, label)
        return self.children[label]

    def labels(self):
        out, node = [], self
        while node.parent is not None:
            out.append(node.label)
            node = node.parent
        return out[::-1]


def _logaddexp(a, b):
    return float(xp.logaddexp(a, b))


def _beam_search_row(frames, beam_width):
    """TensorFlow's CTC prefix beam search on one row's [frames, classes] logits (blank last).

    Each frame's scores are its log-softmax; beams are kept ordered by total log-probability,
    at most ``beam_width`` of them."""
    root = _Beam(None, -1)
    root.new = [0.0, 0.0, -xp.inf]
    leaves = [root]
    num_classes = frames.shape[1] if frames.ndim == 2 else 0
    blank = num_classes - 1
    for raw in frames:
        top = float(raw.max())
        top += float(xp.log(xp.exp(raw - top).sum()))          # log-sum-exp of the frame
        branches = sorted(leaves, key=lambda e: -e.new[0])
        for b in branches:
            b.old = list(b.new)
        leaves = []
        for b in branches:
            if b.parent is not None:
                if b.parent.active():
                    prev = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
                    b.new[2] = _logaddexp(b.new[2], prev)
                b.new[2] += float(raw[b.label]) - top
            b.new[1] = b.old[0] + float(raw[blank]) - top
            b.new[0] = _logaddexp(b.new[1], b.new[2])
            leaves.append(b)

        def bottom():
            return min(leaves, key=lambda e: e.new[0])

        def candidate(total):
            return total > -xp.inf and (len(leaves) < beam_width or total > bottom().new[0])

        for b in branches:
            if not candidate(b.old[0]):
                continue
            for label in range(num_classes - 1):
                c = b.child(label)
                if c.active():
                    continue
                c.new[1] = -xp.inf
                prev = b.old[1] if label == b.label else b.old[0]
                c.new[2] = float(raw[label]) - top + prev
                c.new[0] = c.new[2]
                if candidate(c.new[0]):
                    if len(leaves) == beam_width:
                        low = bottom()
                        low.new = [-xp.inf] * 3
                        leaves.remove(low)
                    leaves.append(c)
                else:
                    c.old = [-xp.inf] * 3
                    c.new = [-xp.inf] * 3
    return sorted(leaves, key=lambda e: -e.new[0])


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """Prefix beam search over the logits (blank is the last class; repeats are not merged
    after the search, as TensorFlow 2's decoder).

    Returns ``(decoded, log_probabilities)``: ``decoded`` a list of ``top_paths`` SparseTensors
    (int64 ids, the i-th best path of every row in the i-th), ``log_probabilities``
    [batch, top_paths].

    >>> import tapegrad as tf
    >>> x = tf.math.log(tf.constant([[[0.1, 0.8, 0.1]], [[0.1, 0.1, 0.8]]]))
    >>> decoded, _ = tf.nn.ctc_beam_search_decoder(x, [2], beam_width=4)
    >>> decoded[0].values.numpy().tolist()
    [1]
    """
    x, v, lengths = _decoder_inputs(inputs, sequence_length, "CTCBeamSearchDecoder")
    T, B, C = v.shape
    beam_width, top_paths = int(beam_width), int(top_paths)
    if beam_width <= 0:
        raise InvalidArgumentError(f"beam_width must be > 0, got {beam_width}")
    if top_paths <= 0 or top_paths > beam_width:
        raise InvalidArgumentError(f"top_paths must be in [1, beam_width={beam_width}], got "
                                   f"{top_paths}" if top_paths <= 0 else
                                   "requested more paths than the beam width.")
    paths = [[] for _ in range(top_paths)]
    log_probs = xp.zeros((B, top_paths), v.dtype)
    for b in range(B):
        best = _beam_search_row(v[:int(lengths[b]), b].astype(xp.float64), beam_width)
        if len(best) < top_paths:
            raise InvalidArgumentError("Less leaves in the beam search than requested.")
        for i in range(top_paths):
            paths[i].append(best[i].labels())
            log_probs[b, i] = best[i].new[0]
    return [_decoded(p, B) for p in paths], wrap(log_probs)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(CTC_LOSS)
