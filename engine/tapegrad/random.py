"""``tf.random``: seeded normal and uniform tensors.

``set_seed`` makes every later draw repeatable; an op-level ``seed`` gives its own stream.

>>> import tapegrad as tf
>>> tf.random.set_seed(1); a = tf.random.normal((2,))
>>> tf.random.set_seed(1); b = tf.random.normal((2,))
>>> bool(tf.reduce_all(a == b))
True
"""
from .backend import xp as np  # the array seam (see backend.py)

from . import dtypes
from . import convert
from .ground import as_shape as _as_shape
from .tensor import wrap

from .rng import streams as _streams
from .rng.streams import draw as _draw, rng as _rng, state as _state


def set_seed(seed):
    """Resets the global random stream (and every op-level stream) from ``seed``."""
    _streams.reset(seed)


def _shape(shape):
    return _as_shape(shape)


def _float(dtype):
    d = dtypes.as_dtype(dtype)
    if not d.is_floating:
        raise ValueError(f"Invalid dtype {d!r}: expected a floating point type")
    return d._np


@_draw("RandomStandardNormal")
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    arr = _rng(seed).standard_normal(_shape(shape)) * float(stddev) + float(mean)
    return wrap(arr.astype(_float(dtype)))


@_draw("TruncatedNormal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    rng = _rng(seed)
    shp = _shape(shape)
    arr = rng.standard_normal(shp)
    bad = np.abs(arr) > 2
    while bad.any():
        arr[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(arr) > 2
    return wrap((arr * float(stddev) + float(mean)).astype(_float(dtype)))


@_draw("RandomUniform")
def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    d = dtypes.as_dtype(dtype)
    rng = _rng(seed)
    if d.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype")
        return wrap(rng.integers(int(minval), int(maxval), _shape(shape)).astype(d._np))
    hi = 1.0 if maxval is None else float(maxval)
    return wrap(rng.uniform(float(minval), hi, _shape(shape)).astype(_float(d)))


@_draw("RandomShuffle")
def shuffle(value, seed=None, name=None):
    x = convert.tensor(value)
    return wrap(_rng(seed).permutation(x._value))


@_draw("Multinomial")
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """``num_samples`` class indices per row of ``logits`` ([batch, classes]); int64 by default.

    >>> import tapegrad as tf
    >>> tf.random.categorical(tf.math.log([[0.5, 0.5]]), 5).shape
    TensorShape([1, 5])
    """
    x = convert.tensor(logits)
    d = dtypes.as_dtype(dtypes.int64 if dtype is None else dtype)
    if x._value.ndim != 2:
        raise InvalidArgumentError(f"logits should be a matrix, got shape {list(x.shape)}")
    rng = _rng(seed)
    v = x._value.astype(np.float64)
    finite = np.isfinite(v)
    mass = np.where(finite, np.exp(np.where(finite, v, 0.0) - np.where(finite, v, -np.inf)
                                   .max(axis=1, keepdims=True)), 0.0)
    cdf = np.cumsum(mass, axis=1)
    draws = rng.random((v.shape[0], int(num_samples))) * cdf[:, -1:]
    out = np.stack([np.searchsorted(cdf[b], draws[b], side="right") for b in range(v.shape[0])]) \
        if v.shape[0] else np.zeros((0, int(num_samples)), np.int64)
    return wrap(out.astype(d._np))


@_draw("RandomGamma")
def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma(alpha, rate beta) samples of shape ``shape + broadcast(alpha, beta).shape``."""
    d = dtypes.as_dtype(dtype)
    a = np.asarray(getattr(alpha, "_value", alpha), np.float64)
    b = np.asarray(1.0 if beta is None else getattr(beta, "_value", beta), np.float64)
    a, b = np.broadcast_arrays(a, b)
    full = _shape(shape) + a.shape
    return wrap((_rng(seed).standard_gamma(np.broadcast_to(a, full)) / b).astype(_float(d)))


@_draw("RandomPoissonV2")
def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Poisson(lam) samples of shape ``shape + lam.shape``."""
    d = dtypes.as_dtype(dtype)
    lam = np.asarray(getattr(lam, "_value", lam), np.float64)
    return wrap(_rng(seed).poisson(np.broadcast_to(lam, _shape(shape) + lam.shape)).astype(d._np))


from .errors import InvalidArgumentError  # noqa: E402
from .rng.stateless import (  # noqa: E402,F401
    fold_in, split, stateless_binomial, stateless_categorical, stateless_gamma, stateless_normal,
    stateless_parameterized_truncated_normal, stateless_poisson, stateless_truncated_normal,
    stateless_uniform,
)
from .rng.generator import (  # noqa: E402,F401
    Algorithm, Generator, create_rng_state, get_global_generator, set_global_generator,
)
from .rng import experimental  # noqa: E402,F401

# -- candidate samplers for sampled losses (the distributions: candidate_sampling.py) ------------
from . import candidate_sampling as _candidates  # noqa: E402
from .candidate_sampling import all_candidate_sampler  # noqa: E402,F401


@_draw("UniformCandidateSampler")
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                              name=None):
    """Samples ``num_sampled`` classes uniformly from [0, range_max) (distinct if ``unique``);
    returns ``(sampled_candidates, true_expected_count, sampled_expected_count)``.

    >>> import tapegrad as tf
    >>> s, t, e = tf.random.uniform_candidate_sampler([[1]], 1, 3, False, 10, seed=1)
    >>> s.shape, round(float(t[0, 0]), 4)
    (TensorShape([3]), 0.3)
    """
    return _candidates.uniform(_rng(seed), true_classes, num_true, num_sampled, unique,
                               range_max)


@_draw("LogUniformCandidateSampler")
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """Samples classes from the log-uniform (Zipfian) distribution over [0, range_max): small
    ids (the frequent words of a frequency-sorted vocabulary) are the likelier.

    >>> import tapegrad as tf
    >>> s, t, e = tf.random.log_uniform_candidate_sampler([[0]], 1, 4, False, 10, seed=1)
    >>> round(float(t[0, 0]), 4)              # 4 * log(2) / log(11)
    1.1563
    """
    return _candidates.log_uniform(_rng(seed), true_classes, num_true, num_sampled, unique,
                                   range_max)


@_draw("FixedUnigramCandidateSampler")
def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """Samples classes in proportion to ``unigrams`` raised to ``distortion``
    (``num_reserved_ids`` zero-weight ids first).

    >>> import tapegrad as tf
    >>> s, t, e = tf.random.fixed_unigram_candidate_sampler(
    ...     [[1]], 1, 2, False, 3, unigrams=[1.0, 2.0, 1.0], seed=1)
    >>> float(t[0, 0])                         # 2 draws * 2/4
    1.0
    """
    return _candidates.fixed_unigram(_rng(seed), true_classes, num_true, num_sampled, unique,
                                     range_max, vocab_file, distortion, num_reserved_ids,
                                     num_shards, shard, unigrams)


@_draw("LearnedUnigramCandidateSampler")
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """Samples classes by the unigram distribution learned from the true classes: counts start
    at 1 and each call adds its true classes, for later calls with the same arguments and seed
    (TensorFlow's op state; with a global seed and no op seed, every call is a new op).

    >>> import tapegrad as tf
    >>> s, t, e = tf.random.learned_unigram_candidate_sampler([[1]], 1, 4, False, 10, seed=11)
    >>> round(float(t[0, 0]), 4)
    0.4
    """
    fresh = seed is None and _state["seed"] is not None
    key = None if fresh else (int(num_true), int(num_sampled), bool(unique), int(range_max),
                              seed, _state["seed"])
    return _candidates.learned_unigram(_rng(seed), true_classes, num_true, num_sampled, unique,
                                       range_max, key)
