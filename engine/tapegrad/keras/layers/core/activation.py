"""Activation layers: ``Activation``, ``ReLU``, ``LeakyReLU``, ``ELU``, ``Softmax``, ``PReLU``,
and ``Lambda`` (any function as a layer)."""
import inspect

from ....ops import add, cast, multiply, relu as _relu, subtract
from ... import activations
from ...serialization import (deserialize_keras_object, lambda_description, load_lambda,
                              serialize_keras_object)
from ..base import Layer, to_tensor
from ..layer_config import config_of

_LARGE_NEGATIVE = -1e9  # what Keras adds to masked logits before a softmax


class Activation(Layer):
    """Applies an activation, given by name or function.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Activation("relu")(tf.constant([-1.0, 2.0])).numpy()
    array([0., 2.], dtype=float32)
    """

    def __init__(self, activation, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(to_tensor(inputs))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, activation=self.activation)


class ReLU(Layer):
    """``relu`` with ``max_value``, ``negative_slope`` and ``threshold``."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if max_value is not None and max_value < 0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: "
                             f"{max_value}")
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: {negative_slope}")
        if threshold is None or threshold < 0:
            raise ValueError(f"threshold of a ReLU layer cannot be a negative value. Received: "
                             f"{threshold}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        return activations.relu(to_tensor(inputs), negative_slope=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, max_value=self.max_value, negative_slope=self.negative_slope,
                         threshold=self.threshold)


class LeakyReLU(Layer):
    """``x`` for x >= 0, ``negative_slope * x`` below (Keras 2's ``alpha`` is accepted)."""

    def __init__(self, negative_slope=0.3, name=None, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(name=name, **kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"The negative_slope value of a Leaky ReLU layer cannot be None or "
                             f"negative value. Expected a float. Received: "
                             f"negative_slope={negative_slope}")
        self.negative_slope = float(negative_slope)

    def call(self, inputs):
        return activations.leaky_relu(to_tensor(inputs), negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, negative_slope=self.negative_slope)


class ELU(Layer):
    def __init__(self, alpha=1.0, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.alpha = float(alpha)

    def call(self, inputs):
        return activations.elu(to_tensor(inputs), alpha=self.alpha)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, alpha=self.alpha)


class Softmax(Layer):
    """Softmax over ``axis``; where ``mask`` is False the logits get -1e9 first."""

    def __init__(self, axis=-1, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        x = to_tensor(inputs)
        if mask is not None:
            keep = cast(to_tensor(mask), x.dtype)
            x = add(x, multiply(subtract(1.0, keep), _LARGE_NEGATIVE))
        return activations.softmax(x, axis=self.axis)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, axis=self.axis)


class PReLU(Layer):
    """Leaky ReLU whose slope ``alpha`` is learned, one per feature (``shared_axes`` share it)."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.alpha_initializer, self.alpha_regularizer = alpha_initializer, alpha_regularizer
        self.shared_axes = None if shared_axes is None else (
            [shared_axes] if isinstance(shared_axes, int) else list(shared_axes))

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for a in self.shared_axes or ():
            shape[a - 1] = 1
        self.alpha = self.add_weight(shape=tuple(shape), initializer=self.alpha_initializer,
                                     name="alpha", regularizer=self.alpha_regularizer)
        self.built = True

    def call(self, inputs):
        x = to_tensor(inputs)
        pos = _relu(x)
        return subtract(pos, multiply(self.alpha, _relu(-x)))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, alpha_initializer=self.alpha_initializer,
                         shared_axes=self.shared_axes)


class Lambda(Layer):
    """Wraps ``function(inputs, **arguments)`` as a layer without weights.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Lambda(lambda x: x * 2)(tf.constant([1.0])).numpy()
    array([2.], dtype=float32)
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if not callable(function):
            raise TypeError(f"Lambda: `function` must be callable, got {function!r}")
        self.function, self._output_shape_arg = function, output_shape
        self.arguments = dict(arguments or {})

    def call(self, inputs, training=None):
        kwargs = dict(self.arguments)
        try:
            if "training" in inspect.signature(self.function).parameters:
                kwargs["training"] = training
        except (TypeError, ValueError):  # builtins without a signature
            pass
        return self.function(inputs, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape_arg is None:
            return super().compute_output_shape(input_shape)
        if callable(self._output_shape_arg):
            return tuple(self._output_shape_arg(input_shape))
        return (input_shape[0],) + tuple(self._output_shape_arg)

    def get_config(self):
        """Keras 3's config: a Python lambda as its bytecode (``__lambda__``), another
        function by its registered name."""
        function = self.function
        described = lambda_description(function) if function.__name__ == "<lambda>" \
            else serialize_keras_object(function)
        return config_of(self, function=described, arguments=self.arguments)

    @classmethod
    def from_config(cls, config):
        """Rebuilds the function (a lambda only with ``safe_mode=False``, as Keras)."""
        config = dict(config)
        function = config["function"]
        if isinstance(function, dict) and function.get("class_name") == "__lambda__":
            config["function"] = load_lambda(
                function, "a `Lambda` layer whose `function` is a Python lambda")
        else:
            config["function"] = deserialize_keras_object(function)
        return cls(**config)
