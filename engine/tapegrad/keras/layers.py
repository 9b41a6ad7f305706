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
