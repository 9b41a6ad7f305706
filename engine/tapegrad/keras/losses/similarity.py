"""Similarity losses for embeddings: the Circle loss, which pulls together embeddings that share a
label and pushes apart those that do not, each pair weighted by how far it is from its optimum.

>>> import tapegrad as tf
>>> emb = tf.math.l2_normalize(tf.constant([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]]), axis=1)
>>> [round(v, 2) for v in tf.keras.losses.circle(tf.constant([0, 0, 1]), emb,
...                                               gamma=10).numpy().tolist()]  # well placed
[0.04, 0.05, 0.0]
>>> [round(v, 2) for v in tf.keras.losses.circle(tf.constant([0, 1, 0]), emb,
...                                               gamma=10).numpy().tolist()]  # badly placed
[16.68, 0.0, 6.92]
"""
from ... import ops
from .loss import FunctionLoss, as_tensor, const


def pair_masks(query_labels, key_labels, remove_diagonal=True):
    """``(same label, different label)`` masks of every query/key pair; with
    ``remove_diagonal`` a query is not its own positive."""
    if len(query_labels.shape) == 1:
        query_labels = ops.reshape(query_labels, (-1, 1))
    if len(key_labels.shape) == 1:
        key_labels = ops.reshape(key_labels, (-1, 1))
    positive = ops.equal(query_labels, ops.transpose(key_labels))
    negative = ops.logical_not(positive)
    if remove_diagonal:
        rows, cols = int(ops.size(query_labels)), int(ops.size(key_labels))
        off_diagonal = ops.logical_not(ops.cast(ops.eye(rows, cols), "bool"))
        positive = ops.logical_and(positive, off_diagonal)
    return positive, negative


def _masked_logsumexp(mask, values):
    minus_inf = ops.fill(values.shape, const(float("-inf"), values))
    return ops.reduce_logsumexp(ops.where(mask, values, minus_inf), axis=1)


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80,
           margin=0.4):
    """Circle loss of L2-normalised embeddings ``y_pred`` with integer labels ``y_true`` against
    themselves (or against ``ref_embeddings`` with ``ref_labels``): one value per embedding, 0
    where it has no positive pair.
    """
    y_pred = as_tensor(y_pred)
    y_true = ops.cast(as_tensor(y_true), "int32")
    ref_embeddings = y_pred if ref_embeddings is None else as_tensor(ref_embeddings)
    ref_labels = y_true if ref_labels is None else ops.cast(as_tensor(ref_labels), "int32")
    zero = const(0.0, y_pred)
    distances = ops.subtract(const(1.0, y_pred), ops.matmul(y_pred, ops.transpose(ref_embeddings)))
    distances = ops.maximum(distances, zero)
    positive, negative = pair_masks(y_true, ref_labels, remove_diagonal)
    pos_f, neg_f = ops.cast(positive, y_pred.dtype), ops.cast(negative, y_pred.dtype)
    # each pair weighted by its distance from the optimum: 1 + m below, -m above
    pos_weights = ops.maximum(ops.multiply(ops.add(const(margin, zero), distances), pos_f), zero)
    neg_weights = ops.maximum(ops.multiply(ops.subtract(const(1 + margin, zero), distances), neg_f),
                              zero)
    pos_dists = ops.subtract(const(margin, zero), distances)
    neg_dists = ops.subtract(const(1 - margin, zero), distances)
    pos_terms = ops.multiply(ops.multiply(const(-1 * gamma, zero), pos_weights), pos_dists)
    neg_terms = ops.multiply(ops.multiply(const(gamma, zero), neg_weights), neg_dists)
    total = ops.add(_masked_logsumexp(positive, pos_terms), _masked_logsumexp(negative, neg_terms))
    return ops.softplus(total)


class Circle(FunctionLoss):
    """The Circle loss reduced over the embeddings that have a positive pair."""
    _options = ("gamma", "margin", "remove_diagonal")

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True,
                 reduction="sum_over_batch_size", name="circle", dtype=None):
        super().__init__(circle, name=name, reduction=reduction, dtype=dtype, gamma=gamma,
                         margin=margin, remove_diagonal=remove_diagonal)

    def _values_and_mask(self, y_true, y_pred):
        values = self.call(y_true, y_pred)
        return values, ops.greater(values, const(0.0, values))
