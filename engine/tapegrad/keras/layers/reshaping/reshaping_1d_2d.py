"""Layers that move values without computing: ``Reshape``, ``Permute``, ``RepeatVector``."""
from ....ops import expand_dims, pad, reshape, tile, transpose
from ..base import Layer, to_tensor
from ..layer_config import config_of, positive_int


def _resolve(target, shape, layer):
    """``target`` with its one -1 filled in from ``shape``'s element count."""
    known, unknown = 1, [i for i, d in enumerate(target) if d == -1]
    if len(unknown) > 1:
        raise ValueError(f"{layer}: there can only be one unknown dimension in `target_shape`, "
                         f"got {target}")
    for d in target:
        if d != -1:
            known *= d
    total = 1
    for d in shape:
        total *= d
    out = list(target)
    if unknown:
        if known == 0 or total % known:
            raise ValueError(f"{layer}: total size of new array must be unchanged, input_shape "
                             f"= {tuple(shape)}, output_shape = {tuple(target)}")
        out[unknown[0]] = total // known
    elif known != total:
        raise ValueError(f"{layer}: total size of new array must be unchanged, input_shape = "
                         f"{tuple(shape)}, output_shape = {tuple(target)}")
    return tuple(out)


class Reshape(Layer):
    """Reshapes each example to ``target_shape`` (one entry may be -1); the batch axis stays.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Reshape((3, -1))(tf.zeros((2, 12))).shape
    TensorShape([2, 3, 4])
    """

    def __init__(self, target_shape, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs):
        x = to_tensor(inputs)
        s = tuple(x._value.shape)
        return reshape(x, (s[0],) + _resolve(self.target_shape, s[1:], "Reshape"))

    def compute_output_shape(self, input_shape):
        rest = tuple(input_shape[1:])
        if any(d is None for d in rest):
            return (input_shape[0],) + tuple(None if d == -1 else d for d in self.target_shape)
        return (input_shape[0],) + _resolve(self.target_shape, rest, "Reshape")

    def get_config(self):
        return config_of(self, target_shape=self.target_shape)


class Permute(Layer):
    """Permutes the non-batch axes: ``dims`` counts from 1 (``Permute((2, 1))`` swaps them)."""

    def __init__(self, dims, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.dims = tuple(int(d) for d in dims)
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

    def __init__(self, n, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.n = positive_int(n, "n", "RepeatVector") if n != 0 else 0

    def call(self, inputs):
        x = to_tensor(inputs)
        if x._value.ndim != 2:
            raise ValueError(f"RepeatVector expects inputs of rank 2, got shape {tuple(x.shape)}")
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

    def __init__(self, padding=1, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.padding = _per_axis([padding] if isinstance(padding, int) else [padding], 1,
                                 "padding")

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

    def __init__(self, cropping=(1, 1), name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.cropping = _per_axis([cropping], 1, "cropping")[0]

    def call(self, inputs):
        x = to_tensor(inputs)
        b, a = self.cropping
        return x[:, b:int(x.shape[1]) - a]

    def get_config(self):
        return config_of(self, cropping=self.cropping)


class Cropping2D(Layer):
    """Removes rows and columns: n, (h, w) or ((top, bottom), (left, right))."""

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

    def __init__(self, size=2, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.size = int(size)

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

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if interpolation != "nearest":
            raise NotImplementedError("UpSampling2D: only interpolation='nearest' is implemented")
        self.size = (size, size) if isinstance(size, int) else tuple(int(s) for s in size)
        self.interpolation = interpolation

    def call(self, inputs):
        x = _repeat_axis(to_tensor(inputs), 1, self.size[0])
        return _repeat_axis(x, 2, self.size[1])

    def get_config(self):
        return config_of(self, size=self.size, interpolation=self.interpolation)
