"""``Embedding``: integer ids to dense vectors, a row of ``embeddings`` per id."""
from ....ops import add, cast, gather, less, not_equal, where
from .... import dtypes
from ..base import Layer, to_tensor
from ..layer_config import config_of, no_quantization
from .masking import attach_mask


def _dimension(value, name):
    if not isinstance(value, int) or value <= 0:
        raise ValueError(f"`{name}` must be a positive integer. Received: {name}={value} (of "
                         f"type {type(value).__name__}).")
    return value


class Embedding(Layer):
    """Looks up ``embeddings[ids]``: (batch, ...) ids -> (batch, ..., output_dim).

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.Embedding(10, 3)
    >>> layer(tf.constant([[1, 2]])).shape
    TensorShape([1, 2, 3])
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 weights=None, lora_rank=None, quantization_config=None, name=None, **kwargs):
        kwargs.pop("input_length", None)  # Keras 2's argument, ignored by Keras 3
        super().__init__(name=name, **kwargs)
        no_quantization(self, quantization_config)
        self.embeddings_constraint = embeddings_constraint
        self.input_dim = _dimension(input_dim, "input_dim")
        self.output_dim = _dimension(output_dim, "output_dim")
        self.embeddings_initializer = embeddings_initializer
        self.embeddings_regularizer = embeddings_regularizer
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero
        self._initial_weights = weights

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          name="embeddings",
                                          regularizer=self.embeddings_regularizer)
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def call(self, inputs):
        ids = to_tensor(inputs)
        if ids.dtype not in (dtypes.int32, dtypes.int64):
            ids = cast(ids, dtypes.int32)
        # Keras takes rows as ``take`` does: -1 is the last row, and so on
        rows = where(less(ids, 0), add(ids, self.input_dim), ids)
        out = gather(self.embeddings, rows)
        return attach_mask(out, not_equal(ids, 0)) if self.mask_zero else out

    def compute_mask(self, inputs, mask=None):
        """``inputs != 0`` when ``mask_zero``, else None."""
        if not self.mask_zero:
            return None
        return not_equal(to_tensor(inputs), 0)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def get_config(self):
        return config_of(self, input_dim=self.input_dim, output_dim=self.output_dim,
                         embeddings_initializer=self.embeddings_initializer,
                         embeddings_regularizer=self.embeddings_regularizer,
                         activity_regularizer=self.activity_regularizer,
                         embeddings_constraint=self.embeddings_constraint,
                         mask_zero=self.mask_zero, quantization_config=None)
