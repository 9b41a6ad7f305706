"""``MultiHeadAttention`` (Keras's weight layout) and ``Attention`` (dot-product)."""
import math

from ....backend import xp
from ....ops import add, cast, einsum, expand_dims, logical_and, matmul, multiply, subtract
from ....ops import dropout as _dropout
from ... import activations
from ..base import Layer, to_tensor
from ..layer_config import config_of, positive_int

_LARGE_NEGATIVE = -1e9


def _masked_softmax(scores, mask, axis=-1):
    if mask is not None:
        keep = cast(to_tensor(mask), scores.dtype)
        scores = add(scores, multiply(subtract(1.0, keep), _LARGE_NEGATIVE))
    return activations.softmax(scores, axis=axis)


class MultiHeadAttention(Layer):
    """Attention with ``num_heads`` heads. Weights, in Keras's order and shapes: query/key/value
    kernels (features, heads, key_dim or value_dim) and biases (heads, dim), then the output
    kernel (heads, value_dim, output features) and bias.

    >>> import tapegrad as tf
    >>> mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
    >>> mha(tf.zeros((1, 4, 5)), tf.zeros((1, 6, 5))).shape
    TensorShape([1, 4, 5])
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.num_heads = positive_int(num_heads, "num_heads", "MultiHeadAttention")
        self.key_dim = positive_int(key_dim, "key_dim", "MultiHeadAttention")
        self.value_dim = int(value_dim) if value_dim is not None else self.key_dim
        self.dropout, self.use_bias, self.seed = float(dropout), bool(use_bias), seed
        self._output_shape_arg = output_shape
        if attention_axes is not None:
            raise NotImplementedError("MultiHeadAttention: attention_axes is not implemented "
                                      "(attention runs over the one sequence axis)")
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer

    def _projection(self, features, heads, dim, name):
        kernel = self.add_weight(shape=(features, heads, dim), name=f"{name}/kernel",
                                 initializer=self.kernel_initializer,
                                 regularizer=self.kernel_regularizer)
        bias = self.add_weight(shape=(heads, dim), name=f"{name}/bias",
                               initializer=self.bias_initializer,
                               regularizer=self.bias_regularizer) if self.use_bias else None
        return kernel, bias

    def build(self, query_shape, value_shape=None, key_shape=None):
        value_shape = query_shape if value_shape is None else value_shape
        key_shape = value_shape if key_shape is None else key_shape
        h = self.num_heads
        self._query = self._projection(int(query_shape[-1]), h, self.key_dim, "query")
        self._key = self._projection(int(key_shape[-1]), h, self.key_dim, "key")
        self._value = self._projection(int(value_shape[-1]), h, self.value_dim, "value")
        out = self._output_shape_arg
        out = (int(query_shape[-1]),) if out is None else (
            (int(out),) if isinstance(out, int) else tuple(int(d) for d in out))
        if len(out) != 1:
            raise NotImplementedError("MultiHeadAttention: output_shape of more than one axis "
                                      "is not implemented")
        self._out_dims = out
        self.output_kernel = self.add_weight(shape=(h, self.value_dim) + out,
                                             name="attention_output/kernel",
                                             initializer=self.kernel_initializer,
                                             regularizer=self.kernel_regularizer)
        self.output_bias = self.add_weight(shape=out, name="attention_output/bias",
                                           initializer=self.bias_initializer,
                                           regularizer=self.bias_regularizer) \
            if self.use_bias else None
        self.built = True

    def _maybe_build(self, inputs):
        pass  # built in call, which sees query, value and key together

    def call(self, query, value=None, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        q_in = to_tensor(query)
        v_in = q_in if value is None else to_tensor(value)
        k_in = v_in if key is None else to_tensor(key)
        if not self.built:
            with self._own_scope():
                self.build(tuple(q_in.shape), tuple(v_in.shape), tuple(k_in.shape))
        q = self._project(q_in, self._query)          # (B, T, heads, key_dim)
        k = self._project(k_in, self._key)            # (B, S, heads, key_dim)
        v = self._project(v_in, self._value)          # (B, S, heads, value_dim)
        q = multiply(q, 1.0 / math.sqrt(float(self.key_dim)))
        scores = einsum("aecd,abcd->acbe", k, q)      # (B, heads, T, S)
        mask = self._mask(attention_mask, use_causal_mask, q_in, k_in)
        if mask is not None:
            mask = expand_dims(mask, -3)  # one mask for every head
        weights = _masked_softmax(scores, mask)
        dropped = weights
        if training and self.dropout > 0:
            dropped = _dropout(weights, self.dropout, seed=self.seed)
        context = einsum("acbe,aecd->abcd", dropped, v)  # (B, T, heads, value_dim)
        out = einsum("abcd,cde->abe", context, self.output_kernel)
        if self.output_bias is not None:
            out = add(out, self.output_bias)
        if return_attention_scores:
            return out, weights
        return out

    def _mask(self, attention_mask, causal, q_in, k_in):
        mask = None if attention_mask is None else cast(to_tensor(attention_mask), "bool")
        if causal:
            t, s = int(q_in.shape[1]), int(k_in.shape[1])
            tri = to_tensor(xp.tril(xp.ones((t, s), bool)))
            tri = expand_dims(tri, 0)
            mask = tri if mask is None else logical_and(mask, tri)
        return mask

    @staticmethod
    def _project(x, weights):
        kernel, bias = weights
        y = einsum("abc,cde->abde", x, kernel)
        return add(y, bias) if bias is not None else y

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        out = self._output_shape_arg
        if out is None:
            return tuple(query_shape)
        out = (out,) if isinstance(out, int) else tuple(out)
        return tuple(query_shape[:-1]) + out

    def get_config(self):
        return config_of(self, num_heads=self.num_heads, key_dim=self.key_dim,
                         value_dim=self.value_dim, dropout=self.dropout, use_bias=self.use_bias,
                         output_shape=self._output_shape_arg)


class Attention(Layer):
    """Dot-product attention of ``[query, value]`` or ``[query, value, key]``:
    ``softmax(scale * query @ key^T) @ value`` (``use_scale`` learns the scale; Keras's
    ``score_mode="concat"`` is not implemented)."""

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if score_mode != "dot":
            raise NotImplementedError("Attention: only score_mode='dot' is implemented")
        self.use_scale, self.score_mode, self.dropout = bool(use_scale), score_mode, dropout

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(), initializer="ones", name="scale") \
            if self.use_scale else None
        self.built = True

    def call(self, inputs, mask=None, training=None, return_attention_scores=False,
             use_causal_mask=False):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(f"Attention layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: {inputs}.")
        q, v = to_tensor(inputs[0]), to_tensor(inputs[1])
        k = to_tensor(inputs[2]) if len(inputs) == 3 else v
        scores = matmul(q, k, transpose_b=True)
        if self.scale is not None:
            scores = multiply(scores, self.scale)
        v_mask = None
        if mask is not None and len(mask) > 1 and mask[1] is not None:
            v_mask = expand_dims(cast(to_tensor(mask[1]), "bool"), -2)
        if use_causal_mask:
            t, s = int(q.shape[1]), int(k.shape[1])
            tri = expand_dims(to_tensor(xp.tril(xp.ones((t, s), bool))), 0)
            v_mask = tri if v_mask is None else logical_and(v_mask, tri)
        weights = _masked_softmax(scores, v_mask)
        out = matmul(weights, v)
        if mask is not None and mask[0] is not None:
            out = multiply(out, expand_dims(cast(to_tensor(mask[0]), out.dtype), -1))
        if return_attention_scores:
            return out, weights
        return out

    def get_config(self):
        return config_of(self, use_scale=self.use_scale, score_mode=self.score_mode,
                         dropout=self.dropout)
