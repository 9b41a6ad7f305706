"""Neural-network ops composed from primitives (their gradients come from the table)."""
from . import convert
from .math_ops import exp, log, reduce_max, reduce_sum, stop_gradient, subtract


def softmax(logits, axis=-1, name=None):
    """exp(x - max) / sum(exp(x - max)) along ``axis`` (the shift only guards against overflow)."""
    x = convert.tensor(logits)
    shifted = subtract(x, stop_gradient(reduce_max(x, axis=axis, keepdims=True)))
    e = exp(shifted)
    return e / reduce_sum(e, axis=axis, keepdims=True)


def log_softmax(logits, axis=-1, name=None):
    x = convert.tensor(logits)
    shifted = subtract(x, stop_gradient(reduce_max(x, axis=axis, keepdims=True)))
    return subtract(shifted, log(reduce_sum(exp(shifted), axis=axis, keepdims=True)))


def bias_add(value, bias, data_format=None, name=None):
    return convert.tensor(value) + bias
