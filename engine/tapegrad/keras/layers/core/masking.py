"""Keras masks without a graph: a layer that makes a mask (``Embedding(mask_zero=True)``,
``Masking``) records it for its output tensor, and the layers that consume masks
(recurrent layers, ``GlobalAveragePooling1D``) look it up for their input when called without
an explicit ``mask``. Only the most recent outputs are remembered (tensors cannot carry
attributes here)."""
from ....ops import cast, multiply, not_equal, reduce_any
from ..base import Layer, to_tensor
from ..layer_config import config_of

_RECENT = []  # (tensor, mask), newest last
_KEEP = 64


def attach_mask(tensor, mask):
    """Remembers ``mask`` as ``tensor``'s Keras mask; returns ``tensor``."""
    if mask is not None:
        _RECENT.append((tensor, mask))
        del _RECENT[:-_KEEP]
    return tensor


def mask_of(tensor):
    """The mask recorded for exactly this tensor object, or None."""
    for t, m in reversed(_RECENT):
        if t is tensor:
            return m
    return None


class Masking(Layer):
    """Masks the time steps whose features all equal ``mask_value`` (and zeroes them).

    >>> import tapegrad as tf
    >>> tf.keras.layers.Masking()(tf.constant([[[0.0], [2.0]]])).numpy().ravel()
    array([0., 2.], dtype=float32)
    """

    def __init__(self, mask_value=0.0, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return reduce_any(not_equal(to_tensor(inputs), self.mask_value), axis=-1)

    def call(self, inputs):
        x = to_tensor(inputs)
        keep = self.compute_mask(x)
        y = multiply(x, cast(keep[..., None], x.dtype))
        return attach_mask(y, keep)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, mask_value=self.mask_value)
