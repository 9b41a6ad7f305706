"""Keras-style layers: built on first call, variables named ``<layer>/<weight>:0``.

>>> import tapegrad as tf
>>> layer = tf.keras.layers.Dense(2, activation="relu")
>>> y = layer(tf.constant([[1., 2., 3.]]))
>>> [v.name for v in layer.trainable_variables]
['dense/kernel:0', 'dense/bias:0']
"""
from .. import dtypes
from ..module import Module, _snake
from ..ops import convert, math_ops
from ..variables import Variable
from . import activations, initializers

_layer_counts = {}


def _unique_name(base):
    n = _layer_counts.get(base, 0)
    _layer_counts[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


class Layer(Module):
    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        super().__init__(name=name if name is not None else _unique_name(_snake(type(self).__name__)))
        self.trainable = trainable
        self.built = False
        self._weights = []
        self.dtype_policy = dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32

    def add_weight(self, name, shape, initializer="zeros", dtype=None, trainable=True):
        init = initializers.get(initializer)
        dtype = dtypes.as_dtype(dtype) if dtype is not None else self.dtype_policy
        v = Variable(init(tuple(shape), dtype), name=name, trainable=trainable and self.trainable,
                     dtype=dtype)
        self._weights.append(v)
        return v

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}.call is not implemented")

    def __call__(self, inputs, *args, **kwargs):
        with self.name_scope:
            if not self.built:
                shape = getattr(inputs, "shape", None)
                if shape is None:
                    shape = convert.tensor(inputs).shape
                self.build(tuple(shape))
                self.built = True
            return self.call(inputs, *args, **kwargs)

    @property
    def weights(self):
        out = list(self._weights)
        for m in self.submodules:
            if isinstance(m, Layer):
                out.extend(w for w in m._weights if w not in out)
        return out

    @property
    def variables(self):
        return tuple(self.weights)

    @property
    def trainable_variables(self):
        return [w for w in self.weights if w.trainable]

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        return [w for w in self.weights if not w.trainable]

    non_trainable_weights = non_trainable_variables


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``; the kernel is created on the first call."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if int(units) <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", (input_shape[-1], self.units), self.kernel_initializer)
        self.bias = self.add_weight("bias", (self.units,), self.bias_initializer) if self.use_bias \
            else None
        self.built = True

    def call(self, inputs):
        x = convert.tensor(inputs)
        if x._value.dtype != self.kernel._value.dtype:
            x = math_ops.cast(x, self.kernel.dtype)
        y = math_ops.matmul(x, self.kernel) if x._value.ndim == 2 else \
            _matmul_last_axis(x, self.kernel)
        if self.bias is not None:
            y = math_ops.add(y, self.bias)
        return self.activation(y)


def _matmul_last_axis(x, kernel):
    from ..ops.array_ops import reshape
    shape = tuple(x._value.shape)
    y = math_ops.matmul(reshape(x, (-1, shape[-1])), kernel)
    return reshape(y, shape[:-1] + (kernel._value.shape[-1],))


# -- layers for small MLPs and CNNs ---------------------------------------------------------------
def _pair(value, what):
    if isinstance(value, int):
        return (value, value)
    v = tuple(int(a) for a in value)
    if len(v) != 2:
        raise ValueError(f"{what} must be an int or a pair of ints, got {value!r}")
    return v


def _padding(value, layer):
    p = str(value).lower()
    if p not in ("valid", "same"):
        raise ValueError(f"{layer}: padding must be 'valid' or 'same', got {value!r}")
    return p.upper()


class Flatten(Layer):
    """Keeps the batch axis and flattens the rest: (N, H, W, C) -> (N, H*W*C)."""

    def call(self, inputs):
        from ..ops.array_ops import reshape
        x = convert.tensor(inputs)
        n = x._value.shape[0] if x._value.ndim else 1
        return reshape(x, (n, -1))


class Dropout(Layer):
    """During training (``training=True``) zeroes a ``rate`` fraction of the inputs and scales
    the rest by 1 / (1 - rate); otherwise passes them through."""

    def __init__(self, rate, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if not 0 <= float(rate) < 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value "
                             f"between 0 and 1. Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed

    def call(self, inputs, training=None):
        from ..ops.nn_ops import dropout
        x = convert.tensor(inputs)
        if not training or self.rate == 0:
            return x
        return dropout(x, self.rate, noise_shape=self.noise_shape, seed=self.seed)


class Conv2D(Layer):
    """2-D convolution over NHWC images: ``activation(conv2d(x, kernel) + bias)``."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", name=None,
                 **kwargs):
        # Keras spells the default name 'conv2d' (not tf.Module's 'conv2_d')
        super().__init__(name=name if name is not None else _unique_name("conv2d"), **kwargs)
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"Conv2D: data_format={data_format!r} is not implemented; "
                                      f"only 'channels_last' (NHWC)")
        if int(filters) <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive "
                             f"value. Received filters={filters}.")
        self.filters = int(filters)
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.padding = _padding(padding, "Conv2D")
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer

    def build(self, input_shape):
        if len(input_shape) != 4:
            raise ValueError(f"Conv2D expects inputs of rank 4 (batch, height, width, channels), "
                             f"got shape {tuple(input_shape)}")
        self.kernel = self.add_weight("kernel", self.kernel_size + (input_shape[-1], self.filters),
                                      self.kernel_initializer)
        self.bias = self.add_weight("bias", (self.filters,), self.bias_initializer) \
            if self.use_bias else None
        self.built = True

    def call(self, inputs):
        from ..ops.nn_ops import conv2d
        x = convert.tensor(inputs)
        if x._value.dtype != self.kernel._value.dtype:
            x = math_ops.cast(x, self.kernel.dtype)
        y = conv2d(x, self.kernel, self.strides, self.padding, dilations=self.dilation_rate)
        if self.bias is not None:
            y = math_ops.add(y, self.bias)
        return self.activation(y)


class MaxPooling2D(Layer):
    _keras_name = "max_pooling2d"

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", name=None, **kwargs):
        super().__init__(name=name if name is not None else _unique_name(self._keras_name),
                         **kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = _pair(strides, "strides") if strides is not None else self.pool_size
        self.padding = _padding(padding, "MaxPooling2D")

    def call(self, inputs):
        from ..ops.nn_ops import max_pool2d
        return max_pool2d(inputs, self.pool_size, self.strides, self.padding)


class AveragePooling2D(MaxPooling2D):
    _keras_name = "average_pooling2d"

    def call(self, inputs):
        from ..ops.nn_ops import avg_pool2d
        return avg_pool2d(inputs, self.pool_size, self.strides, self.padding)


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D


def _call_layer(layer, x, training):
    import inspect
    try:
        params = inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        params = {}
    if "training" in params:
        return layer(x, training=training)
    return layer(x)


class Sequential(Layer):
    """Layers applied one after another; ``model(x, training=True)`` reaches Dropout.

    >>> import tapegrad as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
    ...                              tf.keras.layers.Dense(1)])
    >>> model(tf.ones((2, 4))).shape
    TensorShape([2, 1])
    """

    def __init__(self, layers=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.layers = []
        for layer in layers or ():
            self.add(layer)

    def add(self, layer):
        if not callable(layer):
            raise TypeError(f"The added layer must be an instance of class Layer. Received: "
                            f"layer={layer!r} of type {type(layer)}.")
        self.layers.append(layer)

    def __call__(self, inputs, training=None, **kwargs):
        # No name scope of its own: the layers' variables are named 'dense/kernel:0' etc.
        x = inputs
        for layer in self.layers:
            x = _call_layer(layer, x, training)
        self.built = True
        return x

    def call(self, inputs, training=None):
        return self(inputs, training=training)

    @property
    def weights(self):
        out = []
        for layer in self.layers:
            for w in getattr(layer, "weights", ()):
                if all(w is not o for o in out):
                    out.append(w)
        return out
