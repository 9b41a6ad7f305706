"""Weight initializers: ``initializer(shape, dtype) -> Tensor``, by class or by name."""
import math

from ..backend import xp

from .. import dtypes
from .. import random as tf_random
from ..tensor import convert_to_tensor, wrap


class Initializer:
    def __call__(self, shape, dtype=dtypes.float32):
        raise NotImplementedError


class Zeros(Initializer):
    def __call__(self, shape, dtype=dtypes.float32):
        return wrap(xp.zeros(tuple(shape), dtypes.as_dtype(dtype)._np))


class Ones(Initializer):
    def __call__(self, shape, dtype=dtypes.float32):
        return wrap(xp.ones(tuple(shape), dtypes.as_dtype(dtype)._np))


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=dtypes.float32):
        v = convert_to_tensor(self.value, dtype=dtype)._value
        return wrap(xp.broadcast_to(v, tuple(shape)).astype(v.dtype))


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32):
        return tf_random.normal(shape, self.mean, self.stddev, dtype, self.seed)


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32):
        return tf_random.uniform(shape, self.minval, self.maxval, dtype, self.seed)


def _fans(shape):
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(xp.prod(shape[:-2])) if len(shape) > 2 else 1
    return shape[-2] * receptive, shape[-1] * receptive


class GlorotUniform(Initializer):
    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, fan_out = _fans(shape)
        limit = math.sqrt(6.0 / (fan_in + fan_out))
        return tf_random.uniform(shape, -limit, limit, dtype, self.seed)


class GlorotNormal(Initializer):
    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, fan_out = _fans(shape)
        return tf_random.truncated_normal(shape, 0.0, math.sqrt(2.0 / (fan_in + fan_out)) / .87962566,
                                          dtype, self.seed)


class HeNormal(Initializer):
    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=dtypes.float32):
        fan_in, _ = _fans(shape)
        return tf_random.truncated_normal(shape, 0.0, math.sqrt(2.0 / fan_in) / .87962566,
                                          dtype, self.seed)


_BY_NAME = {"zeros": Zeros, "ones": Ones, "glorot_uniform": GlorotUniform,
            "glorot_normal": GlorotNormal, "he_normal": HeNormal, "random_normal": RandomNormal,
            "random_uniform": RandomUniform, "constant": Constant}

zeros, ones, constant = Zeros, Ones, Constant


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier.lower()]()
        except KeyError:
            raise ValueError(f"Unknown initializer: {identifier!r}. Known: "
                             f"{', '.join(sorted(_BY_NAME))}") from None
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier!r}")
