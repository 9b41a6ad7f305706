"""Sampled losses for large vocabularies: ``tf.nn.nce_loss`` and
``tf.nn.sampled_softmax_loss``.

Both score each example's true classes and a shared set of sampled classes (``sampled_values``
from a candidate sampler, by default ``log_uniform_candidate_sampler(unique=True)``):

    logit = inputs . weights[class] + biases[class] - log(expected count of class)

(the correction makes the sampled estimate unbiased). ``remove_accidental_hits`` pushes a
sampled class that is also a true class of the row down by -FLT_MAX. NCE then takes the
sigmoid cross-entropy of every logit against 1 for true classes and 0 for sampled ones, summed
per row; sampled softmax takes the softmax cross-entropy against 1/num_true on the true columns.
Gradients flow to ``weights`` and ``biases`` (through the rows looked up) and to ``inputs``;
the sampled values are constants.
"""
from .. import dtypes
from .. import random as tf_random
from ..candidate_sampling import compute_accidental_hits
from ..backend import xp
from ..errors import UnimplementedError
from ..tensor import convert_to_tensor
from ..variables import Variable
from ..ground import add, multiply, reduce_sum, reshape
from .arithmetic_ops import cast, stop_gradient, subtract
from .array_ops import concat, expand_dims, ones_like, zeros_like
from .exponential_ops import log
from .matmul_ops import matmul
from .nn_composite_ops import embedding_lookup
from .nn_ops import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits


def _tensor(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


def _single(params, what):
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise UnimplementedError(f"{what}: sharded {what.split('.')[-1]} (a list of "
                                     f"{len(params)} tensors) are not supported; pass one tensor")
        params = params[0]
    return params


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                    sampled_values, remove_accidental_hits, seed, op):
    weights = _single(weights, f"{op}.weights")
    biases = _single(biases, f"{op}.biases")
    inputs = _tensor(inputs)
    labels = cast(_tensor(labels), dtypes.int64)
    num_true = int(num_true)
    labels_flat = reshape(labels, (-1,))
    if sampled_values is None:
        sampled_values = tf_random.log_uniform_candidate_sampler(labels, num_true, num_sampled,
                                                                 True, num_classes, seed=seed)
    sampled, true_count, sampled_count = (stop_gradient(_tensor(s)) for s in sampled_values)
    sampled = cast(sampled, dtypes.int64)
    n_true = int(labels_flat._value.shape[0])
    all_ids = concat([labels_flat, sampled], 0)
    all_w = embedding_lookup(weights, all_ids)
    if all_w.dtype != inputs.dtype:
        all_w = cast(all_w, inputs.dtype)
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    all_b = embedding_lookup(biases, all_ids)
    if all_b.dtype != inputs.dtype:
        all_b = cast(all_b, inputs.dtype)
    true_b, sampled_b = all_b[:n_true], all_b[n_true:]
    dim = int(true_w._value.shape[1])
    # true logits: each example against its own num_true rows
    dots = multiply(expand_dims(inputs, 1), reshape(true_w, (-1, num_true, dim)))
    true_logits = add(reduce_sum(dots, axis=-1), reshape(true_b, (-1, num_true)))
    sampled_logits = add(matmul(inputs, sampled_w, transpose_b=True), sampled_b)
    if remove_accidental_hits:
        rows, cols, values = compute_accidental_hits(labels, sampled, num_true=num_true)
        penalty = xp.zeros(sampled_logits._value.shape, sampled_logits._value.dtype)
        # TensorFlow writes the hits with sparse_to_dense: a repeated hit counts once
        penalty[rows._value, cols._value.astype(xp.int64)] = values._value
        sampled_logits = add(sampled_logits, convert_to_tensor(penalty))
    true_logits = subtract(true_logits, log(cast(true_count, true_logits.dtype)))
    sampled_logits = subtract(sampled_logits, log(cast(sampled_count, sampled_logits.dtype)))
    out_logits = concat([true_logits, sampled_logits], 1)
    true_labels = multiply(ones_like(true_logits),
                           convert_to_tensor(1.0 / num_true, dtype=true_logits.dtype))
    out_labels = concat([true_labels, zeros_like(sampled_logits)], 1)
    return out_logits, out_labels


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation loss per example, [batch_size].

    ``weights`` [num_classes, dim], ``biases`` [num_classes], ``labels`` [batch, num_true]
    int, ``inputs`` [batch, dim].

    >>> import tapegrad as tf
    >>> w, b = tf.ones([5, 2]), tf.zeros([5])
    >>> sampled = (tf.constant([0, 4], tf.int64), tf.ones([1, 1]), tf.ones([2]))
    >>> loss = tf.nn.nce_loss(w, b, [[1]], tf.zeros([1, 2]), 2, 5, sampled_values=sampled)
    >>> round(float(loss[0]), 4)                # 3 * log(2)
    2.0794
    """
    logits, labels = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                                     num_true, sampled_values, remove_accidental_hits, None,
                                     "nce_loss")
    return reduce_sum(sigmoid_cross_entropy_with_logits(labels=labels, logits=logits), axis=1)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, seed=None,
                         name="sampled_softmax_loss"):
    """Softmax cross-entropy over the true and the sampled classes only, [batch_size]: a cheap
    estimate of the full softmax loss while training (use the full softmax to evaluate).

    >>> import tapegrad as tf
    >>> w, b = tf.ones([5, 2]), tf.zeros([5])
    >>> sampled = (tf.constant([0, 4], tf.int64), tf.ones([1, 1]), tf.ones([2]))
    >>> loss = tf.nn.sampled_softmax_loss(w, b, [[1]], tf.zeros([1, 2]), 2, 5,
    ...                                   sampled_values=sampled)
    >>> round(float(loss[0]), 4)                # log(3)
    1.0986
    """
    logits, labels = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes,
                                     num_true, sampled_values, remove_accidental_hits, seed,
                                     "sampled_softmax_loss")
    return softmax_cross_entropy_with_logits(labels=stop_gradient(labels), logits=logits)
