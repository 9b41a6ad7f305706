"""Weight initializers: ``initializer(shape, dtype) -> Tensor``, by class or by name."""
import math

from ..backend import xp

from .. import dtypes
from .. import random as tf_random
from ..tensor import convert_to_tensor, wrap
from . import serialization
from .serialization import deserialize_keras_object, publish, serialize_keras_object


def _seeded(stateful, stateless):
    """A draw ``(shape, a, b, dtype, seed)``: from the global generator when ``seed`` is None,
    otherwise stateless from ``seed``, so a seeded initializer gives the same values every call
    (as Keras 3's do)."""
    def draw(shape, a, b, dtype, seed):
        if seed is None:
            return stateful(shape, a, b, dtype, None)
        return stateless(shape, [int(seed), 0], a, b, dtype)
    return draw


_normal = _seeded(tf_random.normal, tf_random.stateless_normal)
_truncated_normal = _seeded(tf_random.truncated_normal, tf_random.stateless_truncated_normal)
_uniform = _seeded(tf_random.uniform, tf_random.stateless_uniform)


class Initializer:
    """Subclasses implement ``__call__(shape, dtype)``; ``get_config`` lists the constructor
    arguments (none by default) and ``from_config`` rebuilds from them."""

    def __call__(self, shape, dtype=dtypes.float32):
        raise NotImplementedError(f"{type(self).__name__}.__call__ is not implemented")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Zeros(Initializer):
    def __call__(self, shape, dtype=dtypes.float32):
        return wrap(xp.zeros(tuple(shape), dtypes.as_dtype(dtype)._np))


class Ones(Initializer):
    def __call__(self, shape, dtype=dtypes.float32):
        return wrap(xp.ones(tuple(shape), dtypes.as_dtype(dtype)._np))


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def get_config(self):
        return {"value": self.value}

    def __call__(self, shape, dtype=dtypes.float32):
        v = convert_to_tensor(self.value, dtype=dtype)._value
        return wrap(xp.broadcast_to(v, tuple(shape)).astype(v.dtype))


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32):
        return _normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}

    def __call__(self, shape, dtype=dtypes.float32):
        return _uniform(shape, self.minval, self.maxval, dtype, self.seed)


def _fans(shape, input_axes=None, output_axes=None):
    """(fan_in, fan_out): the products over ``input_axes`` / ``output_axes`` when both are
    given, otherwise Keras's rule (a kernel's last two axes times its receptive field)."""
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return int(math.prod(shape[a] for a in input_axes)), \
            int(math.prod(shape[a] for a in output_axes))
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(xp.prod(shape[:-2])) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


# Keras's truncated normal is cut at two standard deviations; dividing by this constant (the
# standard deviation of a unit normal truncated there) keeps the requested variance.
_TRUNCATED_STDDEV = .87962566103423978


class TruncatedNormal(Initializer):
    """Normal values redrawn when more than two standard deviations from ``mean``."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32):
        return _truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class VarianceScaling(Initializer):
    """Values with variance ``scale / n``, ``n`` the fan in, fan out or their mean (``mode``),
    drawn from a truncated normal, a normal or a uniform (``distribution``).

    >>> import tapegrad as tf
    >>> tf.keras.initializers.VarianceScaling(2.0, "fan_in", "uniform")((3, 4)).shape
    TensorShape([3, 4])
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 input_axes=None, output_axes=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode!r}; expected 'fan_in', 'fan_out' "
                             f"or 'fan_avg'")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"Invalid `distribution` argument: {distribution!r}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.input_axes, self.output_axes = input_axes, output_axes

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, fan_out = _fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            return _truncated_normal(shape, 0.0, math.sqrt(variance) / _TRUNCATED_STDDEV,
                                              dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return _normal(shape, 0.0, math.sqrt(variance), dtype, self.seed)
        limit = math.sqrt(3.0 * variance)
        return _uniform(shape, -limit, limit, dtype, self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


def _scaling(scale, mode, distribution, doc):
    class _Scaled(VarianceScaling):
        __doc__ = doc

        def __init__(self, seed=None, input_axes=None, output_axes=None):
            super().__init__(scale, mode, distribution, seed, input_axes, output_axes)

        def get_config(self):
            return {"seed": self.seed, "input_axes": self.input_axes,
                    "output_axes": self.output_axes}
    return _Scaled


GlorotUniform = _scaling(1.0, "fan_avg", "uniform",
                         "Uniform within sqrt(6 / (fan_in + fan_out)).")
GlorotNormal = _scaling(1.0, "fan_avg", "truncated_normal",
                        "Truncated normal with stddev sqrt(2 / (fan_in + fan_out)).")
HeNormal = _scaling(2.0, "fan_in", "truncated_normal",
                    "Truncated normal with stddev sqrt(2 / fan_in).")
HeUniform = _scaling(2.0, "fan_in", "uniform", "Uniform within sqrt(6 / fan_in).")
LecunNormal = _scaling(1.0, "fan_in", "truncated_normal",
                       "Truncated normal with stddev sqrt(1 / fan_in).")
LecunUniform = _scaling(1.0, "fan_in", "uniform", "Uniform within sqrt(3 / fan_in).")
for _cls, _name in ((GlorotUniform, "GlorotUniform"), (GlorotNormal, "GlorotNormal"),
                    (HeNormal, "HeNormal"), (HeUniform, "HeUniform"),
                    (LecunNormal, "LecunNormal"), (LecunUniform, "LecunUniform")):
    _cls.__name__ = _cls.__qualname__ = _name


class Orthogonal(Initializer):
    """An orthogonal matrix (the Q of a QR of normal values, signs fixed by R's diagonal) times
    ``gain``; higher-rank shapes are flattened to (prod(shape[:-1]), shape[-1])."""

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}

    def __call__(self, shape, dtype=dtypes.float32):
        shape = tuple(int(d) for d in shape)
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows = int(xp.prod(shape[:-1]))
        cols = shape[-1]
        a = _normal((max(rows, cols), min(rows, cols)), 0.0, 1.0, dtypes.float64,
                             self.seed).numpy()
        q, r = xp.linalg.qr(a)
        q = q * xp.sign(xp.diag(r))
        if rows < cols:
            q = q.T
        return wrap((self.gain * q).reshape(shape).astype(dtypes.as_dtype(dtype)._np))


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def get_config(self):
        return {}  # Keras 3.15's Identity leaves ``gain`` out of its config

    def __call__(self, shape, dtype=dtypes.float32):
        shape = tuple(int(d) for d in shape)
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return wrap((self.gain * xp.eye(*shape)).astype(dtypes.as_dtype(dtype)._np))


def _window(name, length, periodic):
    """The named window (SciPy's definitions: symmetric unless ``periodic``) in float64."""
    if length == 1:
        return xp.ones(1)
    m = length if periodic else length - 1
    n = xp.arange(length)
    phase = 2 * math.pi * n / m
    if name in ("hann", "hanning"):
        return 0.5 - 0.5 * xp.cos(phase)
    if name == "hamming":
        return 0.54 - 0.46 * xp.cos(phase)
    if name == "blackman":
        return 0.42 - 0.5 * xp.cos(phase) + 0.08 * xp.cos(2 * phase)
    if name in ("boxcar", "box", "ones", "rect", "rectangular"):
        return xp.ones(length)
    if name in ("bartlett", "bart", "brt", "triang"):
        if name == "triang":
            raise NotImplementedError("STFT: window='triang' is not implemented")
        return 1 - xp.abs(2 * n / m - 1)
    raise NotImplementedError(f"STFT: window={name!r} is not implemented (hann, hamming, "
                              f"blackman, bartlett and boxcar are)")


class STFT(Initializer):
    """The real (cosine) or imaginary (sine) part of the short-time Fourier transform as a
    convolution kernel of shape ``(frame_length, 1, fft_length // 2 + 1)``, times ``window``
    and divided by the window's norm (``scaling="density"``) or sum (``"spectrum"``).

    >>> import tapegrad as tf
    >>> tf.keras.initializers.STFT(window=None)((4, 1, 3))[:, 0, 1].numpy().round(4)
    array([ 1.,  0., -1., -0.], dtype=float32)
    """

    def __init__(self, side="real", window="hann", scaling="density", periodic=False):
        if side not in ("real", "imag"):
            raise ValueError(f"side should be 'real' or 'imag', not {side}")
        if isinstance(window, str):
            _window(window, 1, periodic)
            _window(window, 3, periodic)  # an unknown name fails here, not at first call
        if scaling is not None and scaling not in ("density", "spectrum"):
            raise ValueError(f"Scaling is invalid, it must be `None`, 'density' or 'spectrum'. "
                             f"Received scaling={scaling}")
        self.side, self.window, self.scaling, self.periodic = side, window, scaling, periodic

    def __call__(self, shape, dtype=dtypes.float32):
        np_dtype = dtypes.as_dtype(dtype or dtypes.float32)._np
        frame_length, _, bins = (int(d) for d in shape)
        # angles in the kernel's dtype, as Keras computes them: -2 * t * (f / fft_len) * pi
        freq = (xp.arange(bins, dtype=np_dtype) / np_dtype.type((bins - 1) * 2)).reshape(1, 1, -1)
        time = xp.arange(frame_length, dtype=np_dtype).reshape(-1, 1, 1)
        angles = (np_dtype.type(-2) * time * freq) * np_dtype.type(math.pi)
        kernel = (xp.cos(angles) if self.side == "real" else xp.sin(angles)).astype(np_dtype)
        if self.window is not None:
            win = self.window
            win = _window(win, frame_length, self.periodic) if isinstance(win, str) else \
                xp.asarray(getattr(win, "_value", win))
            win = win.astype(np_dtype)
            if win.ndim != 1 or win.shape[-1] != frame_length:
                raise ValueError(f"The shape of `window` must be equal to [frame_length]."
                                 f"Received: window shape={win.shape}")
            win = win.reshape(frame_length, 1, 1)
            scale = np_dtype.type(1)
            if self.scaling == "density":
                scale = xp.sqrt(xp.square(win).sum())
            elif self.scaling == "spectrum":
                scale = xp.abs(win).sum()
            kernel = (kernel * win / scale).astype(np_dtype)
        return wrap(kernel)

    def get_config(self):
        return {"side": self.side, "window": self.window, "periodic": self.periodic,
                "scaling": self.scaling}


IdentityInitializer, OrthogonalInitializer, STFTInitializer = Identity, Orthogonal, STFT

_BY_NAME = {"zeros": Zeros, "ones": Ones, "glorot_uniform": GlorotUniform,
            "glorot_normal": GlorotNormal, "he_normal": HeNormal, "he_uniform": HeUniform,
            "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
            "random_normal": RandomNormal, "random_uniform": RandomUniform,
            "truncated_normal": TruncatedNormal, "orthogonal": Orthogonal,
            "identity": Identity, "variance_scaling": VarianceScaling, "constant": Constant,
            "uniform": RandomUniform, "normal": RandomNormal, "stft": STFT}
_CLASSES = (Constant, GlorotNormal, GlorotUniform, HeNormal, HeUniform, Identity, LecunNormal,
            LecunUniform, Ones, Orthogonal, RandomNormal, RandomUniform, STFT, TruncatedNormal,
            VarianceScaling, Zeros)
# Keras's table: each class by name, plus the snake-case names and the Keras 2 aliases.
_BY_CLASS_NAME = dict({cls.__name__: cls for cls in _CLASSES}, IdentityInitializer=Identity,
                      OrthogonalInitializer=Orthogonal, STFTInitializer=STFT, **_BY_NAME)

zeros, ones, constant = Zeros, Ones, Constant
orthogonal, identity = Orthogonal, Identity
glorot_normal, glorot_uniform, he_normal, he_uniform = GlorotNormal, GlorotUniform, HeNormal, \
    HeUniform
lecun_normal, lecun_uniform, variance_scaling = LecunNormal, LecunUniform, VarianceScaling
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
stft = STFT


publish("keras.initializers", _BY_CLASS_NAME)


def serialize(initializer):
    """An initializer as Keras describes it: ``{"module", "class_name", "config",
    "registered_name"}``.

    >>> import tapegrad as tf
    >>> tf.keras.initializers.serialize(tf.keras.initializers.Orthogonal(gain=2.0))["config"]
    {'gain': 2.0, 'seed': None}
    """
    return serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """The initializer a name or a ``serialize`` description stands for.

    >>> import tapegrad as tf
    >>> type(tf.keras.initializers.deserialize("he_normal")).__name__
    'HeNormal'
    """
    return deserialize_keras_object(config, custom_objects, module_objects=_BY_CLASS_NAME)


def _from_name(name):
    """Keras's names, then any case of the snake-case names (``None`` when unknown)."""
    return _BY_CLASS_NAME.get(name) or _BY_NAME.get(name.lower())


def get(identifier):
    """An initializer from a name, a ``serialize`` description, a class or a callable.

    >>> import tapegrad as tf
    >>> type(tf.keras.initializers.get("Zeros")).__name__
    'Zeros'
    """
    return serialization.get(identifier, _BY_CLASS_NAME, "initializer", _from_name)
