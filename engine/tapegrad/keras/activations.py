"""Activation functions by name, as ``Dense(..., activation="relu")`` accepts them."""
from ..ops import math_ops, nn_ops


def linear(x):
    return x


relu = math_ops.relu
sigmoid = math_ops.sigmoid
tanh = math_ops.tanh
softplus = math_ops.softplus
softmax = nn_ops.softmax
exponential = math_ops.exp

_BY_NAME = {"linear": linear, "relu": relu, "sigmoid": sigmoid, "tanh": tanh,
            "softplus": softplus, "softmax": softmax, "exponential": exponential}


def get(identifier):
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    try:
        return _BY_NAME[identifier]
    except KeyError:
        raise ValueError(f"Unknown activation function: {identifier!r}. Known: "
                         f"{', '.join(sorted(_BY_NAME))}") from None
