"""``tf.random.Generator``: a Philox stream whose state (counter, key) lives in an int64 variable.

Each draw reads the state, computes its values from it exactly as a stateless op would from a
key and counter, and advances the counter by 256 blocks per value drawn (TF's reservation), so
a generator made ``from_seed(s)`` gives TensorFlow's numbers for the same calls in the same order.

>>> import tapegrad as tf
>>> g = tf.random.Generator.from_seed(1)
>>> g.uniform([2]).numpy().tolist()
[0.7874951362609863, 0.3906511068344116]
"""
import enum as _enum
import secrets as _secrets

from ..backend import xp as np
from .. import dtypes
from ..ground import as_shape
from ..replayed import replayed
from ..tensor import Tensor, wrap
from ..variables import Variable
from . import distributions, philox, stateless

STATE_SIZE = 3                   # two uint64 words of counter, one of key
_BLOCKS_PER_VALUE = 256          # the counter advance per value drawn
_MASK64 = (1 << 64) - 1


class Algorithm(_enum.Enum):
    """The random-number algorithms (``tf.random.Algorithm``); on CPU both PHILOX and AUTO_SELECT
    run Philox-4x32-10."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _signed(v):
    v &= _MASK64
    return v - (1 << 64) if v >> 63 else v


def create_rng_state(seed, alg):
    """A generator state (int64 [3]) from an integer seed (split into 64-bit words, low first) or
    a list of integers (zero-padded on the left).

    >>> import tapegrad as tf
    >>> tf.random.create_rng_state(5, "philox").numpy().tolist()
    [5, 0, 0]
    """
    stateless.alg_to_int(alg)
    value = getattr(seed, "_value", seed)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and \
            np.ndim(value) == 0:
        seed = int(value)
        words = []
        for _ in range(STATE_SIZE):
            words.append(_signed(seed & _MASK64))
            seed >>= 64
    else:
        words = [_signed(int(v)) for v in np.asarray(value).reshape(-1)[:STATE_SIZE]]
        words = [0] * (STATE_SIZE - len(words)) + words
    return wrap(np.asarray(words, np.int64))


class Generator:
    """A random-number generator with an explicit state (``tf.random.Generator``).

    >>> import tapegrad as tf
    >>> g = tf.random.Generator.from_seed(7)
    >>> g.normal([2, 3]).shape
    TensorShape([2, 3])
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            if state is not None or alg is not None:
                raise ValueError("When `copy_from` is not None, neither `state` nor `alg` should "
                                 "be given.")
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        elif state is None:
            raise ValueError("Please provide a value for `state` (or use from_seed / "
                             "from_non_deterministic_state)")
        self._alg = stateless.alg_to_int(alg if alg is not None else Algorithm.PHILOX)
        if self._alg == stateless.THREEFRY:
            raise ValueError("The ThreeFry algorithm is not supported on CPU (use philox)")
        value = np.asarray(getattr(state, "_value", state), dtype=np.int64).reshape(-1)
        if value.shape != (STATE_SIZE,):
            raise ValueError(f"The size of `state` ({value.size}) must be {STATE_SIZE} for "
                             f"Philox")
        self._state_var = Variable(value, trainable=False, name="StateVar", dtype=dtypes.int64)

    # -- making generators --------------------------------------------------------------------
    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose state is ``create_rng_state(seed)``."""
        alg = stateless.alg_to_int(alg if alg is not None else Algorithm.PHILOX)
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        return cls.from_seed(_secrets.randbits(64 * STATE_SIZE), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator from a key (one int) and a counter (two ints)."""
        key = int(np.asarray(getattr(key, "_value", key)).reshape(-1)[0])
        counter = [int(v) for v in np.asarray(getattr(counter, "_value", counter)).reshape(-1)]
        return cls(state=[_signed(counter[0]), _signed(counter[1]), _signed(key)], alg=alg)

    def reset(self, state):
        self._state_var.assign(np.asarray(getattr(state, "_value", state), np.int64))

    def reset_from_seed(self, seed):
        self.reset(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        self.reset(Generator.from_key_counter(key, counter, self._alg).state.numpy())

    def _checkpoint_variables(self):
        """What ``tf.train.Checkpoint`` saves for this generator: its state (TensorFlow's key:
        ``_state_var``), so the numbers after a restore repeat those after the save."""
        return [("_state_var", self._state_var)]

    # -- state ------------------------------------------------------------------------------
    @property
    def state(self):
        """The state variable (int64 [3]: counter low, counter high, key)."""
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return wrap(np.asarray(self._state_var.numpy()[-1], np.int64))

    def _take(self, n_values, n_blocks=None):
        """(key, counter) for the next draw, and the counter advanced past it."""
        key, counter = philox.key_counter_from_state(self._state_var.numpy())
        n_blocks = n_values * _BLOCKS_PER_VALUE if n_blocks is None else n_blocks
        advanced = philox.skip(counter, n_blocks)
        self._state_var.assign(np.asarray(
            [_signed(v) for v in philox.state_from_key_counter(key, advanced)], np.int64))
        return key, counter

    def skip(self, delta):
        """Advances the state as if ``delta`` values had been drawn."""
        self._take(int(np.asarray(getattr(delta, "_value", delta))))

    # -- draws ------------------------------------------------------------------------------
    @replayed("StatefulUniform")
    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform values in [minval, maxval); integer dtypes need both bounds or neither."""
        d = dtypes.as_dtype(dtype)
        if d.is_integer and minval is None and maxval is None:
            return self.uniform_full_int(shape, d)
        minval, maxval = stateless.check_uniform_args(minval, maxval, d)
        shape = as_shape(shape)
        key, counter = self._take(_count(shape))
        return stateless.uniform_from(key, counter, shape, minval, maxval, d)

    @replayed("StatefulUniformFullInt")
    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        """Integers over the whole range of ``dtype``."""
        d = dtypes.as_dtype(dtype)
        shape = as_shape(shape)
        key, counter = self._take(_count(shape))
        return wrap(distributions.full_int(key, counter, shape, d.name))

    @replayed("StatefulStandardNormalV2")
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        d = dtypes.as_dtype(dtype)
        shape = as_shape(shape)
        key, counter = self._take(_count(shape))
        return stateless.affine(distributions.normal(key, counter, shape, d.name), stddev, mean, d)

    @replayed("StatefulTruncatedNormal")
    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        d = dtypes.as_dtype(dtype)
        shape = as_shape(shape)
        key, counter = self._take(_count(shape))
        rnd = distributions.truncated_normal(key, counter, shape, d.name)
        return stateless.affine(rnd, stddev, mean, d)

    @replayed("StatefulRandomBinomial")
    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """Binomial counts (TF's law and state advance; not TF's values)."""
        d = dtypes.as_dtype(dtype)
        shape = as_shape(shape)
        n = np.broadcast_to(np.asarray(getattr(counts, "_value", counts), np.float64), shape)
        p = np.broadcast_to(np.asarray(getattr(probs, "_value", probs), np.float64), shape)
        # TF's binomial kernel advances the counter by 256 * (50 n + 150) blocks for n values
        # (measured on TF 2.21), more than the other draws.
        key, counter = self._take(0, 256 * (50 * _count(shape) + 150))
        rng = distributions.numpy_generator(key, counter)
        return wrap(rng.binomial(n.astype(np.int64), np.clip(p, 0, 1)).astype(d.as_numpy_dtype))

    def _make_int64_keys(self, shape=()):
        return self.uniform_full_int(shape, dtypes.int64)

    @replayed("StatefulUniformFullInt")
    def make_seeds(self, count=1):
        """``count`` seeds for stateless ops, as the columns of an int64 [2, count] tensor."""
        keys = self._make_int64_keys([int(count)])._value
        return wrap(np.stack([keys, np.zeros_like(keys)]))

    def split(self, count=1):
        """``count`` new, independent generators (each keyed by one draw of this one)."""
        keys = self._make_int64_keys([int(count)])._value
        return [Generator(state=[0] * (STATE_SIZE - 1) + [int(k)], alg=self._alg) for k in keys]


def _count(shape):
    n = 1
    for d in shape:
        n *= int(d)
    return n


_global = {"generator": None}


def get_global_generator():
    """The process-wide generator (made from the OS's entropy at the first call)."""
    if _global["generator"] is None:
        _global["generator"] = Generator.from_non_deterministic_state()
    return _global["generator"]


def set_global_generator(generator):
    """Replaces the process-wide generator."""
    _global["generator"] = generator
