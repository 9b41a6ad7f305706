"""``tf.keras.activations``: activation functions by name, as ``Dense(..., activation="relu")``
accepts them, with Keras 3's signatures. All are composed from the engine's ops, so their
gradients (and higher derivatives) come from the op table.

``softmax`` and ``sigmoid`` remember the logits they were applied to, so that a cross-entropy
loss on their output can work from the logits, as Keras does (exact where probabilities
saturate).

>>> import tapegrad as tf
>>> tf.keras.activations.get("relu")(tf.constant([-1.0, 2.0])).numpy().tolist()
[0.0, 2.0]
"""
from .. import ops
from . import serialization
from .serialization import deserialize_keras_object, publish, serialize_keras_object
from ..tensor import convert_to_tensor
from .losses.logits import attach_logits


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    x = convert_to_tensor(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return ops.relu(x)
    y = ops.where(x > threshold, x, negative_slope * (x - threshold) if negative_slope else
                  ops.zeros_like(x))
    if max_value is not None:
        y = ops.minimum(y, ops.cast(max_value, y.dtype))
    return y


def sigmoid(x):
    x = convert_to_tensor(x)
    return attach_logits(ops.sigmoid(x), x)


def softmax(x, axis=-1):
    x = convert_to_tensor(x)
    return attach_logits(ops.softmax(x, axis=axis), x)


def log_softmax(x, axis=-1):
    return ops.log_softmax(x, axis=axis)


def linear(x):
    return x


def exponential(x):
    return ops.exp(x)


def tanh(x):
    return ops.tanh(x)


def softplus(x):
    return ops.softplus(x)


def softsign(x):
    return ops.softsign(x)


def elu(x, alpha=1.0):
    x = convert_to_tensor(x)
    return ops.elu(x) if alpha == 1.0 else ops.where(x > 0, x, alpha * (ops.exp(x) - 1.0))


def selu(x):
    return ops.selu(x)


def gelu(x, approximate=False):
    return ops.gelu(x, approximate=approximate)


def silu(x):
    return ops.silu(x)


swish = silu


def leaky_relu(x, negative_slope=0.2):
    return ops.leaky_relu(x, alpha=negative_slope)


def relu6(x):
    return ops.relu6(x)


def hard_sigmoid(x):
    """``relu6(x + 3) / 6``: Keras 3's piecewise-linear sigmoid."""
    return ops.relu6(convert_to_tensor(x) + 3.0) / 6.0


def hard_silu(x):
    x = convert_to_tensor(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def log_sigmoid(x):
    return ops.log_sigmoid(x)


def mish(x):
    """``x * tanh(softplus(x))``."""
    x = convert_to_tensor(x)
    return x * ops.tanh(ops.softplus(x))


def celu(x, alpha=1.0):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    x = convert_to_tensor(x)
    return ops.maximum(x, 0.0) + ops.minimum(alpha * (ops.exp(x / alpha) - 1.0), 0.0)


def glu(x, axis=-1):
    """The gated linear unit: the first half of ``axis`` times the sigmoid of the second."""
    a, b = ops.split(convert_to_tensor(x), 2, axis=axis)
    return a * ops.sigmoid(b)


def hard_tanh(x):
    return ops.clip_by_value(convert_to_tensor(x), -1.0, 1.0)


def hard_shrink(x, threshold=0.5):
    x = convert_to_tensor(x)
    return ops.where(ops.abs(x) > threshold, x, ops.zeros_like(x))


def soft_shrink(x, threshold=0.5):
    x = convert_to_tensor(x)
    zero = ops.zeros_like(x)
    return ops.where(x > threshold, x - threshold, ops.where(x < -threshold, x + threshold, zero))


def tanh_shrink(x):
    x = convert_to_tensor(x)
    return x - ops.tanh(x)


def squareplus(x, b=4):
    """``(x + sqrt(x² + b)) / 2``, a smooth ReLU."""
    x = convert_to_tensor(x)
    return (x + ops.sqrt(ops.square(x) + float(b))) / 2.0


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""
    x = convert_to_tensor(x)
    return ops.where(x > threshold, x, ops.fill(ops.shape(x), ops.cast(default_value, x.dtype)))


def sparse_plus(x):
    """0 below -1, ``x`` above 1, ``(x + 1)² / 4`` between."""
    x = convert_to_tensor(x)
    zero = ops.zeros_like(x)
    return ops.where(x <= -1.0, zero, ops.where(x >= 1.0, x, ops.square(x + 1.0) / 4.0))


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, ``(x + 1) / 2`` between."""
    x = convert_to_tensor(x)
    return ops.where(x <= -1.0, ops.zeros_like(x),
                     ops.where(x >= 1.0, ops.ones_like(x), (x + 1.0) / 2.0))


_BY_NAME = {f.__name__: f for f in (
    relu, sigmoid, softmax, log_softmax, linear, exponential, tanh, softplus, softsign, elu, selu,
    gelu, silu, leaky_relu, relu6, hard_sigmoid, hard_silu, log_sigmoid, mish, celu, glu,
    hard_tanh, hard_shrink, soft_shrink, tanh_shrink, squareplus, threshold, sparse_plus,
    sparse_sigmoid)}
_BY_NAME.update(swish=silu, hard_swish=hard_silu)
publish("keras.activations", _BY_NAME)


def get(identifier):
    """The activation for a name, a ``serialize`` description, a callable (returned as is),
    or None (``linear``)."""
    if identifier is None:
        return linear
    return serialization.get(identifier, _BY_NAME, "activation function")


def serialize(activation):
    """The activation's name (Keras 3 gives the bare name, or the registered name of a
    registered function); a callable object gives its full description."""
    description = serialize_keras_object(activation)
    if not isinstance(description, dict) or "config" not in description:
        raise ValueError(f"Cannot serialize {activation!r}: it is not a Keras activation")
    config = description["config"]
    return config if isinstance(config, str) else description


def deserialize(config, custom_objects=None):
    """The activation a name or a ``serialize`` description stands for."""
    return deserialize_keras_object(config, custom_objects, module_objects=_BY_NAME)
