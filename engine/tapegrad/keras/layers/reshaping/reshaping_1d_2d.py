"""Layers that move values without computing: ``Reshape``, ``Permute``, ``RepeatVector``."""
import math

from ....ops import expand_dims, pad, reshape, tile, transpose
from ..base import Layer, to_tensor
from ..input_spec import InputSpec
from ..layer_config import config_of, int_tuple


def _check_target(target):
    """Keras's check of ``target_shape``: each entry a size or -1, and at most one -1."""
    for d in target:
        if d < -1:
            raise ValueError(f"Each dimension in `target_shape` must be a non-negative integer, "
                             f"or `-1` for a single unknown dimension. Received: "
                             f"target_shape={target}.")
    if target.count(-1) > 1:
        raise ValueError(f"There must be at most one unknown dimension (-1) in `target_shape`. "
                         f"Received: target_shape={target}.")


def _resolve(target, shape):
    """``target`` with its one -1 filled in from ``shape``'s element count."""
    shape = tuple(shape)
    total = math.prod(shape)
    if -1 not in target:
        if total != math.prod(target):
            raise ValueError(f"The total size of the tensor must be unchanged. Received: "
                             f"input_shape={shape}, target_shape={target}")
        return target
    known = math.prod(d for d in target if d != -1)
    if known == 0 or total % known:
        raise ValueError(f"The total size of the tensor must be unchanged, however, the input "
                         f"size cannot by divided by the specified dimensions in target_shape. "
                         f"Received: input_shape={shape}, target_shape={target}")
    return tuple(total // known if d == -1 else d for d in target)


class Reshape(Layer):
    """Reshapes each example to ``target_shape`` (one entry may be -1); the batch axis stays.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Reshape((3, -1))(tf.zeros((2, 12))).shape
    TensorShape([2, 3, 4])
    """

    def __init__(self, target_shape, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)
        _check_target(self.target_shape)

    def call(self, inputs):
        x = to_tensor(inputs)
        s = tuple(x._value.shape)
        return reshape(x, (s[0],) + _resolve(self.target_shape, s[1:]))

    def compute_output_shape(self, input_shape):
        rest = tuple(input_shape[1:])
        if any(d is None for d in rest):
            return (input_shape[0],) + tuple(None if d == -1 else d for d in self.target_shape)
        return (input_shape[0],) + _resolve(self.target_shape, rest)

    def get_config(self):
        return config_of(self, target_shape=self.target_shape)


class Permute(Layer):
    """Permutes the non-batch axes: ``dims`` counts from 1 (``Permute((2, 1))`` swaps them)."""

    def __init__(self, dims, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.dims = tuple(int(d) for d in dims)
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of "
                             f"indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={self.dims}")

    def call(self, inputs):
        return transpose(to_tensor(inputs), (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def get_config(self):
        return config_of(self, dims=self.dims)


class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features)."""
    input_spec = InputSpec(ndim=2)

    def __init__(self, n, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        if n <= 0:
            raise ValueError(f"Argument `n` should be a positive integer. Received: n={n}")
        self.n = n

    def call(self, inputs):
        x = to_tensor(inputs)
        return tile(expand_dims(x, 1), (1, self.n, 1))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self):
        return config_of(self, n=self.n)


def _per_axis(value, n, what):
    """An int, or n ints, or n (before, after) pairs -> n (before, after) pairs."""
    if isinstance(value, int):
        return [(value, value)] * n
    value = list(value)
    if len(value) != n:
        raise ValueError(f"`{what}` should have {n} elements. Received: {what}={value}")
    return [(v, v) if isinstance(v, int) else tuple(int(a) for a in v) for v in value]


class ZeroPadding1D(Layer):
    """Pads the steps axis with zeros: ``padding`` = n or (before, after)."""
    input_spec = InputSpec(ndim=3)

    def __init__(self, padding=1, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.padding = [int_tuple(padding, 2, "padding", allow_zero=True)]

    def call(self, inputs):
        return pad(to_tensor(inputs), [[0, 0], list(self.padding[0]), [0, 0]])

    def get_config(self):
        return config_of(self, padding=self.padding[0])


class ZeroPadding2D(Layer):
    """Pads height and width with zeros: n, (h, w) or ((top, bottom), (left, right)).

    >>> import tapegrad as tf
    >>> tf.keras.layers.ZeroPadding2D(1)(tf.ones((1, 2, 2, 1))).shape
    TensorShape([1, 4, 4, 1])
    """
    input_spec = InputSpec(ndim=4)

    def __init__(self, padding=(1, 1), data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.padding = _per_axis(padding, 2, "padding")

    def call(self, inputs):
        (t, b), (l, r) = self.padding
        return pad(to_tensor(inputs), [[0, 0], [t, b], [l, r], [0, 0]])

    def get_config(self):
        return config_of(self, padding=tuple(self.padding))


class Cropping1D(Layer):
    """Removes (before, after) steps."""
    input_spec = InputSpec(ndim=3)

    def __init__(self, cropping=(1, 1), name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.cropping = int_tuple(cropping, 2, "cropping", allow_zero=True)

    def call(self, inputs):
        x = to_tensor(inputs)
        b, a = self.cropping
        return x[:, b:int(x.shape[1]) - a]

    def get_config(self):
        return config_of(self, cropping=self.cropping)


class Cropping2D(Layer):
    """Removes rows and columns: n, (h, w) or ((top, bottom), (left, right))."""
    input_spec = InputSpec(ndim=4)

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.cropping = _per_axis(cropping, 2, "cropping")

    def call(self, inputs):
        x = to_tensor(inputs)
        (t, b), (l, r) = self.cropping
        return x[:, t:int(x.shape[1]) - b, l:int(x.shape[2]) - r]

    def get_config(self):
        return config_of(self, cropping=tuple(self.cropping))


def _repeat_axis(x, axis, times):
    """Each entry along ``axis`` repeated ``times`` times in place (nearest upsampling)."""
    if times == 1:
        return x
    shape = [int(d) for d in x.shape]
    y = expand_dims(x, axis + 1)
    multiples = [1] * (len(shape) + 1)
    multiples[axis + 1] = times
    y = tile(y, multiples)
    shape[axis] *= times
    return reshape(y, shape)


class UpSampling1D(Layer):
    """Repeats each step ``size`` times."""
    input_spec = InputSpec(ndim=3)

    def __init__(self, size=2, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.size = int(size)
        if self.size <= 0:
            raise ValueError(f"Argument `size` should be a positive integer. Received: "
                             f"size={size}")

    def call(self, inputs):
        return _repeat_axis(to_tensor(inputs), 1, self.size)

    def get_config(self):
        return config_of(self, size=self.size)


class UpSampling2D(Layer):
    """Repeats rows and columns (``interpolation='nearest'``).

    >>> import tapegrad as tf
    >>> tf.keras.layers.UpSampling2D()(tf.ones((1, 2, 3, 1))).shape
    TensorShape([1, 4, 6, 1])
    """
    input_spec = InputSpec(ndim=4)

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if interpolation != "nearest":
            raise NotImplementedError("UpSampling2D: only interpolation='nearest' is implemented")
        self.size = int_tuple(size, 2, "size")
        self.interpolation = interpolation

    def call(self, inputs):
        x = _repeat_axis(to_tensor(inputs), 1, self.size[0])
        return _repeat_axis(x, 2, self.size[1])

    def get_config(self):
        return config_of(self, size=self.size, interpolation=self.interpolation)
