"""``BatchNormalization`` and ``LayerNormalization``."""
from ....ops import add, cast, multiply, moments, reduce_mean, reshape, rsqrt, square, subtract
from ..base import Layer, to_tensor
from ..layer_config import config_of


def _axes(axis, rank, layer):
    axes = [axis] if isinstance(axis, int) else list(axis)
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"{layer}: axis {a} is out of bounds for inputs of rank {rank}")
        out.append(a % rank)
    return sorted(out)


def _broadcast(param, shape_of_params, rank, axes):
    """Reshapes a weight over ``axes`` so it broadcasts against inputs of ``rank``."""
    if param is None or rank - len(axes) == 0 or axes == list(range(rank - len(axes), rank)):
        return param
    full = [1] * rank
    for a, d in zip(axes, shape_of_params):
        full[a] = d
    return reshape(param, full)


def _normalize(x, mean, variance, gamma, beta, epsilon):
    """``(x - mean) * gamma / sqrt(variance + epsilon) + beta``, as TensorFlow's
    batch_normalization arranges it: ``x * inv + (beta - mean * inv)``."""
    inv = rsqrt(add(variance, epsilon))
    if gamma is not None:
        inv = multiply(inv, gamma)
    offset = subtract(beta, multiply(mean, inv)) if beta is not None else \
        -multiply(mean, inv)
    return add(multiply(x, inv), offset)


class BatchNormalization(Layer):
    """Normalizes with the batch's statistics when ``training=True`` (and moves
    ``moving_mean``/``moving_variance`` towards them by ``1 - momentum``), with the moving
    statistics otherwise.

    >>> import tapegrad as tf
    >>> bn = tf.keras.layers.BatchNormalization()
    >>> y = bn(tf.constant([[1.0], [3.0]]), training=True)
    >>> [v.name for v in bn.weights]
    ['batch_normalization/gamma:0', 'batch_normalization/beta:0', \
'batch_normalization/moving_mean:0', 'batch_normalization/moving_variance:0']
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, synchronized=False, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.axis, self.momentum, self.epsilon = axis, float(momentum), float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer

    def build(self, input_shape):
        rank = len(input_shape)
        self._param_axes = _axes(self.axis, rank, "BatchNormalization")
        shape = tuple(int(input_shape[a]) for a in self._param_axes)
        if any(d is None for d in shape):
            raise ValueError(f"BatchNormalization: axis {self.axis} of input shape "
                             f"{tuple(input_shape)} must be defined")
        self.gamma = self.add_weight(shape=shape, initializer=self.gamma_initializer,
                                     name="gamma", regularizer=self.gamma_regularizer) \
            if self.scale else None
        self.beta = self.add_weight(shape=shape, initializer=self.beta_initializer, name="beta",
                                    regularizer=self.beta_regularizer) if self.center else None
        self.moving_mean = self.add_weight(shape=shape, initializer=self.moving_mean_initializer,
                                           name="moving_mean", trainable=False)
        self.moving_variance = self.add_weight(shape=shape,
                                               initializer=self.moving_variance_initializer,
                                               name="moving_variance", trainable=False)
        self.built = True

    def call(self, inputs, training=None):
        x = to_tensor(inputs)
        rank = x._value.ndim
        axes = self._param_axes
        reduce = [a for a in range(rank) if a not in axes]
        shape = tuple(self.moving_mean.shape)

        def b(p):
            return _broadcast(p, shape, rank, axes)

        dtype = x.dtype
        if x.dtype != self.moving_mean.dtype:
            x = cast(x, self.moving_mean.dtype)
        if training and self.trainable:
            mean, variance = moments(x, reduce, keepdims=False)
            m = self.momentum
            self.moving_mean.assign(self.moving_mean * m + mean * (1.0 - m))
            self.moving_variance.assign(self.moving_variance * m + variance * (1.0 - m))
        else:
            mean, variance = self.moving_mean.read_value(), self.moving_variance.read_value()
        y = _normalize(x, b(mean), b(variance), b(self.gamma), b(self.beta), self.epsilon)
        return cast(y, dtype) if y.dtype != dtype else y

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, axis=self.axis, momentum=self.momentum, epsilon=self.epsilon,
                         center=self.center, scale=self.scale)


class LayerNormalization(Layer):
    """Normalizes each example over ``axis`` (the last by default) with its own mean and
    variance, then scales by ``gamma`` and shifts by ``beta``.

    >>> import tapegrad as tf
    >>> tf.keras.layers.LayerNormalization()(tf.constant([[1.0, 3.0]])).numpy().round(3)
    array([[-0.999,  0.999]], dtype=float32)
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None, name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        self.axis, self.epsilon = axis, float(epsilon)
        self.center, self.scale, self.rms_scaling = bool(center), bool(scale), bool(rms_scaling)
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer

    def build(self, input_shape):
        self._param_axes = _axes(self.axis, len(input_shape), "LayerNormalization")
        shape = tuple(int(input_shape[a]) for a in self._param_axes)
        self.gamma = self.add_weight(shape=shape, initializer=self.gamma_initializer,
                                     name="gamma", regularizer=self.gamma_regularizer) \
            if self.scale else None
        self.beta = self.add_weight(shape=shape, initializer=self.beta_initializer, name="beta",
                                    regularizer=self.beta_regularizer) if self.center else None
        self.built = True

    def call(self, inputs):
        x = to_tensor(inputs)
        rank = x._value.ndim
        axes = self._param_axes
        shape = tuple(int(x._value.shape[a]) for a in axes)
        mean, variance = moments(x, axes, keepdims=True)
        gamma = _broadcast(self.gamma, shape, rank, axes)
        beta = _broadcast(self.beta, shape, rank, axes)
        if self.rms_scaling:  # x / sqrt(mean(x^2) + eps) * gamma
            y = multiply(x, rsqrt(add(reduce_mean(square(x), axes, keepdims=True),
                                      self.epsilon)))
            return multiply(y, gamma) if gamma is not None else y
        return _normalize(x, mean, variance, gamma, beta, self.epsilon)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, axis=self.axis, epsilon=self.epsilon, center=self.center,
                         scale=self.scale, rms_scaling=self.rms_scaling)
