"""``GroupNormalization``, ``UnitNormalization`` and ``RMSNormalization`` (per-example
normalizations)."""
from ....errors import UnimplementedError
from ....ops import (add, minimum, moments, multiply, reduce_mean, reduce_sum, reshape, rsqrt,
                    square)
from ..base import Layer, to_tensor
from ..layer_config import config_of
from .batch_and_layer import _axes


class GroupNormalization(Layer):
    """Normalizes each example over groups of ``channels / groups`` channels (and all spatial
    positions), then scales by ``gamma`` and shifts by ``beta`` per channel; channels last.

    >>> import tapegrad as tf
    >>> gn = tf.keras.layers.GroupNormalization(groups=2)
    >>> gn(tf.reshape(tf.range(8.0), (1, 2, 4))).shape
    TensorShape([1, 2, 4])
    """

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None, name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        for key, value in (("beta_constraint", beta_constraint),
                           ("gamma_constraint", gamma_constraint)):
            if value is not None:
                raise UnimplementedError(f"GroupNormalization: `{key}` is not implemented")
        self.groups, self.axis, self.epsilon = int(groups), axis, float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def build(self, input_shape):
        rank = len(input_shape)
        if _axes(self.axis, rank, "GroupNormalization") != [rank - 1]:
            raise UnimplementedError("GroupNormalization: only the last axis (channels last) is "
                                     "implemented as `axis`")
        c = input_shape[-1]
        if c is None:
            raise ValueError(f"GroupNormalization: axis {self.axis} of input tensor should have "
                             f"a defined dimension but the layer received an input with shape "
                             f"{tuple(input_shape)}.")
        c = int(c)
        if self.groups == -1:
            self.groups = c
        if c < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number "
                             f"of channels ({c}).")
        if c % self.groups:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number "
                             f"of channels ({c}).")
        self.gamma = self.add_weight(shape=(c,), initializer=self.gamma_initializer,
                                     name="gamma", regularizer=self.gamma_regularizer) \
            if self.scale else None
        self.beta = self.add_weight(shape=(c,), initializer=self.beta_initializer, name="beta",
                                    regularizer=self.beta_regularizer) if self.center else None
        self.built = True

    def call(self, inputs):
        x = to_tensor(inputs)
        shape = tuple(int(d) for d in x.shape)
        g = self.groups
        grouped = reshape(x, shape[:-1] + (g, shape[-1] // g))
        rank = len(shape) + 1
        axes = [a for a in range(1, rank) if a != rank - 2]    # all but batch and group
        mean, variance = moments(grouped, axes, keepdims=True)
        inv = rsqrt(add(variance, self.epsilon))
        per_channel = (g, shape[-1] // g)
        if self.gamma is not None:
            inv = multiply(inv, reshape(self.gamma, per_channel))
        offset = -multiply(mean, inv)
        if self.beta is not None:
            offset = add(offset, reshape(self.beta, per_channel))
        return reshape(add(multiply(grouped, inv), offset), shape)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, groups=self.groups, axis=self.axis, epsilon=self.epsilon,
                         center=self.center, scale=self.scale)


class UnitNormalization(Layer):
    """Scales each example to unit L2 norm along ``axis``: ``x * min(1 / norm, 1e12)``, as
    Keras computes it (so an all-zero example stays zero, with gradient 1e12).

    >>> import tapegrad as tf
    >>> tf.keras.layers.UnitNormalization()(tf.constant([[3.0, 4.0]])).numpy().tolist()
    [[0.6000000238418579, 0.800000011920929]]
    """

    def __init__(self, axis=-1, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.axis = axis if isinstance(axis, int) else list(axis)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def call(self, inputs):
        x = to_tensor(inputs)
        axes = _axes(self.axis, len(x.shape), "UnitNormalization")
        inv_norm = rsqrt(reduce_sum(square(x), axes, keepdims=True))
        return multiply(x, minimum(inv_norm, 1e12))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, axis=self.axis)


class RMSNormalization(Layer):
    """``x * rsqrt(mean(x**2 over axis) + epsilon) * scale``; ``scale`` (ones at first) has the
    size of ``axis``.

    >>> import tapegrad as tf
    >>> y = tf.keras.layers.RMSNormalization(epsilon=0.0)(tf.constant([[3.0, 4.0]]))
    >>> [round(v, 4) for v in y.numpy()[0].tolist()]
    [0.8485, 1.1314]
    """

    def __init__(self, axis=-1, epsilon=1e-6, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.axis, self.epsilon = axis, float(epsilon)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def build(self, input_shape):
        axes = _axes(self.axis, len(input_shape), "RMSNormalization")
        if any(input_shape[a] is None for a in axes):
            raise ValueError(f"RMSNormalization: the normalized axes must have defined sizes, got "
                             f"input shape {tuple(input_shape)}")
        self._norm_axes = axes
        self.scale = self.add_weight(shape=tuple(int(input_shape[a]) for a in axes),
                                     initializer="ones", name="scale")
        self.built = True

    def call(self, inputs):
        x = to_tensor(inputs)
        inv = rsqrt(add(reduce_mean(square(x), self._norm_axes, keepdims=True), self.epsilon))
        # the scale is not reshaped: as in Keras, an axis other than the trailing ones fails to
        # broadcast (InvalidArgumentError)
        return multiply(multiply(x, inv), self.scale)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, axis=self.axis, epsilon=self.epsilon)
