"""``tf.math.approx_max_k`` / ``approx_min_k`` and ``tf.approx_top_k``, as TensorFlow 2.21's CPU
build runs them.

On CPU the "approximate" top-k is exact: the ``k`` largest entries of the last axis, sorted,
ties to the lower index (so ``top_k``'s values, indices and gradient). TensorFlow's CPU kernel
exists only for ``is_max_k=True`` along the last axis (``reduction_dimension=-1``, spelled so):
anything else raises ``NotFoundError`` ("Could not find device"), as TensorFlow does, and the op
accepts float16, bfloat16 and float32 only.
"""
from ..errors import InvalidArgumentError, NotFoundError
from ..tensor import convert_to_tensor
from ..variables import Variable
from .sort_ops import result_pair, top_k

_ALLOWED = ("float16", "bfloat16", "float32")


ApproxTopK = result_pair("ApproxTopK", "values", "indices", __name__,
                         "``(values, indices)``, also readable as ``.values`` and ``.indices``.")


def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95,  # noqa: A002
                 is_max_k=True, reduction_input_size_override=-1, aggregate_to_topk=True,
                 name=None):
    """The ``k`` largest entries of the last axis and their int32 indices (exact on CPU).

    >>> import tapegrad as tf
    >>> v, i = tf.approx_top_k([[1.0, 5.0, 3.0]], 2)
    >>> v.numpy().tolist(), i.numpy().tolist()
    ([[5.0, 3.0]], [[1, 2]])
    """
    x = input.read_value() if isinstance(input, Variable) else convert_to_tensor(input)
    k = int(k)
    if x.dtype.name not in _ALLOWED:
        raise InvalidArgumentError(f"Value for attr 'T' of {x.dtype.name} is not in the list of "
                                   f"allowed values: half, bfloat16, float [Op:ApproxTopK]")
    if not is_max_k or int(reduction_dimension) != -1:
        raise NotFoundError(
            f"Could not find device for node: {{{{node ApproxTopK}}}} = ApproxTopK[k={k}, "
            f"is_max_k={str(bool(is_max_k)).lower()}, reduction_dimension="
            f"{int(reduction_dimension)}]: TensorFlow's CPU kernel takes is_max_k=true and "
            f"reduction_dimension=-1 only")
    n = x._value.shape[-1] if x._value.ndim else 0
    if n < k:
        raise InvalidArgumentError(f"input must have at least k columns. Had {n}, needed {k} "
                                   f"[Op:ApproxTopK]")
    values, indices = top_k(x, k)
    return ApproxTopK(values, indices)


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The ``k`` largest entries along the last axis, with their indices (exact on CPU).

    >>> import tapegrad as tf
    >>> v, i = tf.math.approx_max_k([[1.0, 5.0, 3.0, 5.0]], 2)
    >>> v.numpy().tolist(), i.numpy().tolist()
    ([[5.0, 5.0]], [[1, 3]])
    """
    return approx_top_k(operand, k, reduction_dimension, recall_target, True,
                        reduction_input_size_override, aggregate_to_topk)


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The ``k`` smallest entries: TensorFlow 2.21's CPU build has no kernel for it and raises
    ``NotFoundError``; so does this.
    """
    return approx_top_k(operand, k, reduction_dimension, recall_target, False,
                        reduction_input_size_override, aggregate_to_topk)
