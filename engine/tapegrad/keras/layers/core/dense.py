"""``Dense``: ``activation(inputs @ kernel + bias)``.

A ``tf.sparse.SparseTensor`` input (from ``keras.Input(sparse=True)``) of rank 2 is multiplied
as Keras 3's TensorFlow backend does it: empty rows filled, then
``tf.nn.embedding_lookup_sparse(kernel, column ids, inputs, combiner="sum")``, so the kernel's
gradient is an ``IndexedSlices`` of the rows the inputs use. Other ranks are made dense first.
"""
from ....ops import (SparseTensor, add, cast, embedding_lookup_sparse, matmul, reshape,
                     to_dense)
from ....ops.sparse_array_ops import fill_empty_rows
from ... import activations
from ..base import Layer, to_tensor
from ..input_spec import InputSpec
from ..layer_config import config_of, no_quantization


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``; the kernel is created on the first call."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, quantization_config=None, name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        no_quantization(self, quantization_config)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.units = int(units)
        self.input_spec = InputSpec(min_ndim=2)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer)
        self.bias = self.add_weight(shape=(self.units,), initializer=self.bias_initializer,
                                    name="bias", regularizer=self.bias_regularizer) \
            if self.use_bias else None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_shape[-1]})
        self.built = True

    def call(self, inputs):
        if isinstance(inputs, SparseTensor):
            inputs = _cast_sparse(inputs, self.kernel.dtype)
            if len(inputs.dense_shape._value) == 2:
                return self._finish(_sparse_matmul(inputs, self.kernel))
            inputs = to_dense(inputs)
        x = to_tensor(inputs)
        if x._value.dtype != self.kernel._value.dtype:
            x = cast(x, self.kernel.dtype)
        return self._finish(matmul(x, self.kernel) if x._value.ndim == 2 else
                            _matmul_last_axis(x, self.kernel))

    def _finish(self, y):
        if self.bias is not None:
            y = add(y, self.bias)
        return self.activation(y)


    def get_config(self):
        return config_of(self, units=self.units, activation=self.activation,
                         use_bias=self.use_bias, kernel_initializer=self.kernel_initializer,
                         bias_initializer=self.bias_initializer,
                         kernel_regularizer=self.kernel_regularizer,
                         bias_regularizer=self.bias_regularizer,
                         kernel_constraint=self.kernel_constraint,
                         bias_constraint=self.bias_constraint, quantization_config=None)

def _cast_sparse(sp, dtype):
    if sp.dtype == dtype:
        return sp
    return SparseTensor(sp.indices, cast(sp.values, dtype), sp.dense_shape)


def _sparse_matmul(sp, kernel):
    """``sp @ kernel`` for a rank-2 SparseTensor, as Keras's TensorFlow backend computes it."""
    filled, _ = fill_empty_rows(sp, 0)
    ids = SparseTensor(filled.indices, filled.indices._value[:, 1].copy(), filled.dense_shape)
    return embedding_lookup_sparse(kernel, ids, filled, combiner="sum")


def _matmul_last_axis(x, kernel):
    shape = tuple(x._value.shape)
    y = matmul(reshape(x, (-1, shape[-1])), kernel)
    return reshape(y, shape[:-1] + (kernel._value.shape[-1],))
