"""Preprocessing layers: ``Rescaling`` and ``Normalization`` (with ``adapt``)."""
from ....backend import xp
from ....ops import add, cast, divide, maximum, multiply, reshape, sqrt, subtract
from ....tensor import convert_to_tensor
from ..base import Layer, to_tensor
from ..layer_config import config_of

_EPSILON = 1e-7  # keras.backend.epsilon()


class Rescaling(Layer):
    """``inputs * scale + offset`` (e.g. ``Rescaling(1 / 255)`` for pixel values).

    >>> import tapegrad as tf
    >>> tf.keras.layers.Rescaling(0.5, offset=1.0)(tf.constant([2.0])).numpy()
    array([2.], dtype=float32)
    """

    def __init__(self, scale, offset=0.0, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        x = to_tensor(inputs)
        if not x.dtype.is_floating:
            x = cast(x, self.dtype)
        return add(multiply(x, cast(convert_to_tensor(self.scale), x.dtype)),
                   cast(convert_to_tensor(self.offset), x.dtype))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, scale=self.scale, offset=self.offset)


class Normalization(Layer):
    """``(x - mean) / max(sqrt(variance), 1e-7)`` per feature along ``axis``; ``mean`` and
    ``variance`` are given or learned from data by ``adapt`` (``invert=True`` undoes it).

    >>> import tapegrad as tf
    >>> norm = tf.keras.layers.Normalization()
    >>> norm.adapt([[1.0], [3.0]])
    >>> norm(tf.constant([[3.0]])).numpy()
    array([[1.]], dtype=float32)
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if axis is None:
            axis = ()
        self.axis = (axis,) if isinstance(axis, int) else tuple(axis)
        if (mean is None) != (variance is None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be "
                             f"set. Received: mean={mean} and variance={variance}")
        self.input_mean, self.input_variance, self.invert = mean, variance, bool(invert)
        self._adapted = mean is not None

    def _stat_shape(self, shape):
        rank = len(shape)
        axes = [a % rank for a in self.axis]
        return axes, tuple(int(shape[a]) if a in axes else 1 for a in range(rank))

    def build(self, input_shape):
        axes, shape = self._stat_shape(input_shape)
        self._axes = axes
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(shape=tuple(shape[a] for a in axes), name="mean",
                                              initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight(shape=tuple(shape[a] for a in axes),
                                                  name="variance", initializer="ones",
                                                  trainable=False)
            # Keras keeps an (unused) sample count for older saved models: same weights list
            self.count = self.add_weight(shape=(), name="count", dtype="int64",
                                         initializer="zeros", trainable=False)
        self._broadcast_shape = shape[1:] if axes and 0 not in axes else shape
        self.built = True

    def adapt(self, data, batch_size=None, steps=None):
        """Sets the mean and variance from ``data`` (an array, a tensor or a Dataset)."""
        if hasattr(data, "as_numpy_iterator"):
            arrays = [xp.asarray(b) for b in data.as_numpy_iterator()]
            values = xp.concatenate(arrays, 0)
        else:
            values = xp.asarray(to_tensor(data).numpy())
        values = values.astype(xp.float64)
        if values.ndim == 1:
            values = values[:, None] if self.axis in ((-1,), (1,)) else values
        if not self.built:
            self.build(values.shape)
        reduce = tuple(a for a in range(values.ndim) if a not in self._axes)
        self.adapt_mean.assign(values.mean(axis=reduce).astype(xp.float32))
        self.adapt_variance.assign(values.var(axis=reduce).astype(xp.float32))
        self._adapted = True

    def _stats(self, x):
        if self.input_mean is not None:
            mean, var = xp.asarray(self.input_mean, xp.float32), \
                xp.asarray(self.input_variance, xp.float32)
            mean = xp.broadcast_to(mean, self._stat_target(x)).reshape(self._stat_target(x))
            var = xp.broadcast_to(var, self._stat_target(x)).reshape(self._stat_target(x))
            return convert_to_tensor(mean), convert_to_tensor(var)
        target = self._stat_target(x)
        return reshape(self.adapt_mean, target), reshape(self.adapt_variance, target)

    def _stat_target(self, x):
        rank = x._value.ndim
        axes = [a % rank for a in self.axis]
        return tuple(int(x._value.shape[a]) if a in axes else 1 for a in range(rank))

    def call(self, inputs):
        x = to_tensor(inputs)
        if not x.dtype.is_floating:
            x = cast(x, "float32")
        mean, var = self._stats(x)
        mean, var = cast(mean, x.dtype), cast(var, x.dtype)
        if self.invert:
            return add(mean, multiply(x, maximum(sqrt(var), _EPSILON)))
        return divide(subtract(x, mean), maximum(sqrt(var), _EPSILON))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return config_of(self, axis=self.axis, invert=self.invert,
                         mean=self.input_mean, variance=self.input_variance)


class CategoryEncoding(Layer):
    """Integer ids in ``[0, num_tokens)`` to ``one_hot``, ``multi_hot`` (the default) or
    ``count`` vectors of length ``num_tokens``.

    >>> import tapegrad as tf
    >>> tf.keras.layers.CategoryEncoding(4)(tf.constant([[0, 2, 2]])).numpy()
    array([[1., 0., 1., 0.]], dtype=float32)
    """

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if num_tokens is None or int(num_tokens) < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if sparse:
            raise NotImplementedError("CategoryEncoding: sparse=True is not implemented")
        self.num_tokens, self.output_mode = int(num_tokens), output_mode

    def call(self, inputs, count_weights=None):
        ids = xp.asarray(to_tensor(inputs).numpy()).astype(xp.intp)  # bincount wants intp
        n = self.num_tokens
        # ids outside [0, num_tokens) are dropped silently, as Keras's eager layer does
        if self.output_mode == "one_hot":
            if ids.ndim > 1 and ids.shape[-1] == 1:
                ids = ids[..., 0]
            table = xp.concatenate([xp.eye(n, dtype=xp.float32), xp.zeros((1, n), xp.float32)])
            return convert_to_tensor(table[xp.where((ids >= 0) & (ids < n), ids, n)])
        squeeze = ids.ndim == 1
        rows = ids.reshape(1, -1) if squeeze else ids.reshape(-1, ids.shape[-1])
        out = xp.zeros((rows.shape[0], n), xp.float32)
        for r, row in enumerate(rows):
            row = row[(row >= 0) & (row < n)]
            counts = xp.bincount(row, minlength=n).astype(xp.float32)
            out[r] = counts if self.output_mode == "count" else (counts > 0)
        out = out[0] if squeeze else out.reshape(ids.shape[:-1] + (n,))
        return convert_to_tensor(out)

    def get_config(self):
        return config_of(self, num_tokens=self.num_tokens, output_mode=self.output_mode,
                         sparse=False)
