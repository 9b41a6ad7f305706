"""``tf.nn``: activations and neural-network ops under TensorFlow's names."""
from .ops.math_ops import relu, sigmoid, softplus, tanh  # noqa: F401
from .ops.nn_ops import bias_add, log_softmax, softmax  # noqa: F401
