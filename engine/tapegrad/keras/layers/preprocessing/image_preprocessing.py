"""Image preprocessing layers (Keras 3's): ``Resizing``, ``CenterCrop``, and the augmentations
``RandomFlip``, ``RandomBrightness``, ``RandomContrast`` (channels_last images, one image
(H, W, C) or a batch (N, H, W, C)).

The random layers transform only when ``training`` is true, which is their default when called
directly (Keras 3's); ``fit`` passes True and ``predict``/``evaluate`` pass False, where they
return the images unchanged. Random draws come from ``tf.random`` with the layer's ``seed``.
"""
from .... import random as tf_random
from ....ops import (add, cast, clip_by_value, expand_dims, less, multiply, reduce_mean,
                    resize, reverse, subtract, where)
from ..base import Layer, to_tensor
from ..layer_config import config_of, positive_int

_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                   "gaussian", "mitchellcubic")


def _images(x, dtype):
    x = to_tensor(x)
    if len(x.shape) not in (3, 4):
        raise ValueError(f"Expected an image of rank 3 (height, width, channels) or a batch of "
                         f"rank 4, got shape {tuple(x.shape)}")
    return cast(x, dtype) if x.dtype != dtype else x


def _check_format(data_format, owner):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"{owner}: data_format={data_format!r} is not implemented "
                                  f"(channels_last only)")


def _crop_to_aspect(x, height, width):
    """The largest central window of ``x`` with the target's aspect ratio."""
    h, w = int(x.shape[-3]), int(x.shape[-2])
    crop_h = min(h, int(float(w * height) / width))
    crop_w = min(w, int(float(h * width) / height))
    top, left = (h - crop_h) // 2, (w - crop_w) // 2
    return x[..., top:top + crop_h, left:left + crop_w, :]


class Resizing(Layer):
    """Resizes images to (``height``, ``width``) (``tf.image.resize``, no antialiasing);
    ``crop_to_aspect_ratio=True`` first crops the central window of the target's aspect ratio.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Resizing(4, 6)(tf.zeros((2, 8, 8, 3))).shape
    TensorShape([2, 4, 6, 3])
    """

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.height = positive_int(height, "height", "Resizing")
        self.width = positive_int(width, "width", "Resizing")
        if pad_to_aspect_ratio:
            raise NotImplementedError("Resizing: pad_to_aspect_ratio=True is not implemented")
        _check_format(data_format, "Resizing")
        self.interpolation, self.antialias = interpolation, bool(antialias)
        self.crop_to_aspect_ratio = bool(crop_to_aspect_ratio)

    def call(self, inputs):
        # as Keras, a bad interpolation is refused when the layer runs, not when it is made
        if self.interpolation not in _INTERPOLATIONS:
            raise ValueError(f"Invalid value for argument `interpolation`. Expected one of "
                             f"{list(_INTERPOLATIONS)}. Received: "
                             f"interpolation={self.interpolation}")
        given = to_tensor(inputs).dtype
        x = _images(inputs, self.dtype_policy)
        if self.crop_to_aspect_ratio:
            x = _crop_to_aspect(x, self.height, self.width)
        out = resize(x, [self.height, self.width], method=self.interpolation,
                     antialias=self.antialias)
        # Keras hands integer images (uint8) back in their own dtype
        return cast(out, given) if given.is_integer else out

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])

    def get_config(self):
        return config_of(self, height=self.height, width=self.width,
                         interpolation=self.interpolation,
                         crop_to_aspect_ratio=self.crop_to_aspect_ratio)


class CenterCrop(Layer):
    """The central (``height``, ``width``) window; an image smaller than that is cropped to the
    target's aspect ratio and resized (bilinear), as Keras's ``smart_resize``.

    >>> import tapegrad as tf
    >>> tf.keras.layers.CenterCrop(2, 3)(tf.zeros((5, 5, 1))).shape
    TensorShape([2, 3, 1])
    """

    def __init__(self, height, width, data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.height = positive_int(height, "height", "CenterCrop")
        self.width = positive_int(width, "width", "CenterCrop")
        _check_format(data_format, "CenterCrop")

    def call(self, inputs):
        x = _images(inputs, self.dtype_policy)
        h, w = int(x.shape[-3]), int(x.shape[-2])
        if h >= self.height and w >= self.width:
            top, left = (h - self.height) // 2, (w - self.width) // 2
            return x[..., top:top + self.height, left:left + self.width, :]
        return resize(_crop_to_aspect(x, self.height, self.width), [self.height, self.width])

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])

    def get_config(self):
        return config_of(self, height=self.height, width=self.width)


class _RandomImageLayer(Layer):
    """Identity unless ``training``; subclasses give ``_augment(batch)`` on a rank-4 batch."""

    def __init__(self, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        _check_format(data_format, type(self).__name__)
        self.seed = seed

    def call(self, inputs, training=True):
        x = _images(inputs, self.dtype_policy)
        if not training:
            return x
        single = len(x.shape) == 3
        out = self._augment(expand_dims(x, 0) if single else x)
        return out[0] if single else out

    def _uniform(self, n, low, high):
        """Per-image draws. A seeded layer draws statelessly from (seed, call count), so two
        layers made with the same seed give the same sequence (Keras's SeedGenerator)."""
        if self.seed is None:
            return tf_random.uniform((n, 1, 1, 1), low, high, self.dtype_policy)
        self._draws = getattr(self, "_draws", 0) + 1
        return tf_random.stateless_uniform((n, 1, 1, 1), [int(self.seed), self._draws], low,
                                           high, self.dtype_policy)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


def _factor_pair(factor, owner, what="factor"):
    low, high = (factor if isinstance(factor, (list, tuple)) else (-factor, factor))
    low, high = float(low), float(high)
    if low > high:
        raise ValueError(f"{owner}: `{what}` lower bound {low} exceeds the upper {high}")
    return low, high


class RandomFlip(_RandomImageLayer):
    """In training, flips each image left-right and/or up-down with probability 1/2.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(4.0), (1, 2, 2, 1))
    >>> bool(tf.reduce_all(tf.keras.layers.RandomFlip()(x, training=False) == x))
    True
    """
    _MODES = ("horizontal", "vertical", "horizontal_and_vertical")

    def __init__(self, mode="horizontal_and_vertical", seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.mode = mode

    def _augment(self, x):
        if self.mode not in self._MODES:  # refused when it runs, as Keras
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument "
                             f"{self.mode}")
        n = int(x.shape[0])
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            x = where(less(self._uniform(n, 0.0, 1.0), 0.5), reverse(x, [2]), x)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            x = where(less(self._uniform(n, 0.0, 1.0), 0.5), reverse(x, [1]), x)
        return x

    def get_config(self):
        return config_of(self, mode=self.mode, seed=self.seed)


class RandomBrightness(_RandomImageLayer):
    """In training, adds ``delta * (max - min)`` of ``value_range`` to each image, ``delta``
    uniform in ``factor`` (a float f means (-f, f)), then clips to ``value_range``.

    >>> import tapegrad as tf
    >>> y = tf.keras.layers.RandomBrightness(0.2, seed=1)(tf.fill((2, 3, 3, 1), 250.0))
    >>> float(tf.reduce_max(y)) <= 255.0
    True
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor
        self._low, self._high = _factor_pair(factor, "RandomBrightness")
        if not (-1.0 <= self._low and self._high <= 1.0):
            raise ValueError(f"The `factor` argument should be a number (or a list of two "
                             f"numbers) in the range [-1.0, 1.0]. Received: factor={factor}")
        self.value_range = tuple(float(v) for v in value_range)

    def _augment(self, x):
        lo, hi = self.value_range
        delta = multiply(self._uniform(int(x.shape[0]), self._low, self._high), hi - lo)
        return clip_by_value(add(x, delta), lo, hi)

    def get_config(self):
        return config_of(self, factor=self.factor, value_range=list(self.value_range),
                         seed=self.seed)


class RandomContrast(_RandomImageLayer):
    """In training, scales each image's distance from its per-channel mean by a factor drawn
    uniformly from ``[1 - lower, 1 + upper]``, then clips to ``value_range``.

    >>> import tapegrad as tf
    >>> tf.keras.layers.RandomContrast(0.5, seed=2)(tf.ones((1, 4, 4, 3))).shape
    TensorShape([1, 4, 4, 3])
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor
        lower, upper = (factor if isinstance(factor, (list, tuple)) else (factor, factor))
        self._lower, self._upper = float(lower), float(upper)
        if self._lower < 0 or self._upper < 0 or self._lower > 1:
            raise ValueError(f"The `factor` argument should be a number (or a list of two "
                             f"numbers) in the range [0.0, 1.0]. Received: factor={factor}")
        self.value_range = tuple(float(v) for v in value_range)

    def _augment(self, x):
        scale = self._uniform(int(x.shape[0]), 1.0 - self._lower, 1.0 + self._upper)
        mean = reduce_mean(x, axis=[1, 2], keepdims=True)
        out = add(multiply(subtract(x, mean), scale), mean)
        return clip_by_value(out, *self.value_range)

    def get_config(self):
        return config_of(self, factor=self.factor, value_range=list(self.value_range),
                         seed=self.seed)
