"""Candidate samplers for sampled losses (``tf.random.*_candidate_sampler``, also under
``tf.nn``) and ``tf.nn.compute_accidental_hits``.

Each sampler draws ``num_sampled`` classes from [0, range_max) under a fixed distribution q and
returns them with the expected number of times each true and each sampled class would be drawn:

- ``unique=False``: num_sampled independent draws; expected count q(k) * num_sampled;
- ``unique=True``: draws until ``num_sampled`` distinct classes are found (``num_tries``
  draws); expected count q(k) * num_sampled if no draw was rejected, else
  1 - (1 - q(k))^num_tries (TensorFlow's formula).

The distributions: uniform 1 / range_max; log-uniform (Zipfian)
(log(k + 2) - log(k + 1)) / log(range_max + 1); fixed unigram, the given weights raised to
``distortion`` and normalised; learned unigram, class counts that start at 1 and grow with the
true classes of earlier calls of the same op (same arguments and seed).

The samplers take a NumPy ``Generator`` first: ``tf.random`` (random.py) passes its seeded
stream, so draws repeat under ``tf.random.set_seed``; they cannot be TensorFlow's own draws.
"""
import math as _math

from .backend import xp
from .errors import InvalidArgumentError, UnimplementedError
from .tensor import convert_to_tensor, wrap
from .variables import Variable


def _named(type_name):
    class Result(tuple):
        __slots__ = ()
        _fields = ("sampled_candidates", "true_expected_count", "sampled_expected_count")

        def __new__(cls, sampled, true_count, sampled_count):
            return super().__new__(cls, (sampled, true_count, sampled_count))

        sampled_candidates = property(lambda self: self[0])
        true_expected_count = property(lambda self: self[1])
        sampled_expected_count = property(lambda self: self[2])

        def __repr__(self):
            return (f"{type_name}(sampled_candidates={self[0]!r}, true_expected_count="
                    f"{self[1]!r}, sampled_expected_count={self[2]!r})")

    Result.__name__ = Result.__qualname__ = type_name
    return Result


LogUniformCandidateSampler = _named("LogUniformCandidateSampler")
UniformCandidateSampler = _named("UniformCandidateSampler")
FixedUnigramCandidateSampler = _named("FixedUnigramCandidateSampler")
LearnedUnigramCandidateSampler = _named("LearnedUnigramCandidateSampler")
AllCandidateSampler = _named("AllCandidateSampler")


class ComputeAccidentalHits(tuple):
    """``(indices, ids, weights)`` of ``compute_accidental_hits``."""
    __slots__ = ()

    def __new__(cls, indices, ids, weights):
        return super().__new__(cls, (indices, ids, weights))

    indices = property(lambda self: self[0])
    ids = property(lambda self: self[1])
    weights = property(lambda self: self[2])

    def __repr__(self):
        return f"ComputeAccidentalHits(indices={self[0]!r}, ids={self[1]!r}, weights={self[2]!r})"


def _true_classes(true_classes, num_true, op, range_max=None):
    t = true_classes.read_value() if isinstance(true_classes, Variable) else \
        convert_to_tensor(true_classes)
    v = xp.asarray(t._value)
    if v.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{op}: true_classes must be int64, got {t.dtype.name}")
    if v.ndim != 2 or v.shape[1] != int(num_true):
        raise InvalidArgumentError(f"{op}: true_classes must be a matrix [batch_size, num_true="
                                   f"{num_true}], got shape {list(v.shape)}")
    if range_max is not None and v.size and (v.min() < 0 or v.max() >= range_max):
        bad = int(v.reshape(-1)[(v.reshape(-1) < 0) | (v.reshape(-1) >= range_max)][0])
        raise InvalidArgumentError(f"`true_candidate` out of range [0, {range_max}), received "
                                   f"{bad} [Op:{op}]")
    return v.astype(xp.int64)


def _draw(probs, count, rng):
    """``count`` classes drawn from ``probs`` by the inverse CDF of uniforms from ``rng``."""
    u = rng.random(count)
    cdf = xp.cumsum(probs)
    return xp.minimum(xp.searchsorted(cdf, u * cdf[-1], side="right"), len(probs) - 1)


def _sample(result_type, op, probs, true_classes, num_true, num_sampled, unique, range_max,
            rng):
    num_sampled, range_max = int(num_sampled), int(range_max)
    true = _true_classes(true_classes, num_true, op, range_max)
    if range_max <= 0 or num_sampled < 0:
        raise InvalidArgumentError(f"{op}: range_max must be positive and num_sampled >= 0, "
                                   f"got {range_max} and {num_sampled}")
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(f"{op}: Sampler's range is too small. range_max={range_max} "
                                   f"< num_sampled={num_sampled} with unique=True")
    if not unique:
        sampled = _draw(probs, num_sampled, rng) if num_sampled else xp.zeros(0, xp.int64)
        tries = num_sampled
    else:
        picked, tries = [], 0
        seen = set()
        while len(picked) < num_sampled:
            for k in _draw(probs, max(num_sampled - len(picked), 1) * 2, rng).tolist():
                tries += 1
                if k not in seen:
                    seen.add(k)
                    picked.append(k)
                    if len(picked) == num_sampled:
                        break
        sampled = xp.asarray(picked, xp.int64)

    def expected(q):
        if tries == num_sampled:
            return q * num_sampled
        return -xp.expm1(tries * xp.log1p(-q))

    in_range = (true >= 0) & (true < range_max)
    q_true = xp.where(in_range, probs[xp.clip(true, 0, range_max - 1)], 0.0)
    return result_type(wrap(sampled.astype(xp.int64)),
                       wrap(expected(q_true).astype(xp.float32)),
                       wrap(expected(probs[sampled]).astype(xp.float32)))


def uniform(rng, true_classes, num_true, num_sampled, unique, range_max):
    """``tf.random.uniform_candidate_sampler`` drawing from ``rng``."""
    probs = xp.full(int(range_max), 1.0 / int(range_max)) if int(range_max) > 0 else xp.ones(0)
    return _sample(UniformCandidateSampler, "UniformCandidateSampler", probs, true_classes,
                   num_true, num_sampled, unique, range_max, rng)


def log_uniform(rng, true_classes, num_true, num_sampled, unique, range_max):
    """``tf.random.log_uniform_candidate_sampler`` drawing from ``rng``."""
    k = xp.arange(int(range_max), dtype=xp.float64)
    probs = (xp.log(k + 2.0) - xp.log(k + 1.0)) / _math.log(int(range_max) + 1.0) \
        if int(range_max) > 0 else xp.ones(0)
    return _sample(LogUniformCandidateSampler, "LogUniformCandidateSampler", probs,
                   true_classes, num_true, num_sampled, unique, range_max, rng)


def fixed_unigram(rng, true_classes, num_true, num_sampled, unique, range_max, vocab_file,
                  distortion, num_reserved_ids, num_shards, shard, unigrams):
    """``tf.random.fixed_unigram_candidate_sampler`` drawing from ``rng``."""
    if vocab_file:
        raise UnimplementedError("fixed_unigram_candidate_sampler: vocab_file is not supported; "
                                 "pass the counts as unigrams=")
    if int(num_shards) != 1 or int(shard) != 0:
        raise UnimplementedError("fixed_unigram_candidate_sampler: num_shards/shard are not "
                                 "supported")
    weights = [0.0] * int(num_reserved_ids) + [float(w) for w in unigrams]
    if len(weights) != int(range_max):
        raise InvalidArgumentError(f"FixedUnigramCandidateSampler: range_max ({range_max}) must "
                                   f"equal num_reserved_ids + len(unigrams) ({len(weights)})")
    w = xp.asarray(weights, xp.float64) ** float(distortion)
    w[:int(num_reserved_ids)] = 0.0
    return _sample(FixedUnigramCandidateSampler, "FixedUnigramCandidateSampler", w / w.sum(),
                   true_classes, num_true, num_sampled, unique, range_max, rng)


# The learned samplers' class counts, one table per op (TensorFlow keeps one per cached kernel,
# that is per set of attributes): each count starts at 1 and grows by one for every true class
# seen, after the call that saw it has drawn.
_LEARNED_COUNTS = {}


def learned_unigram(rng, true_classes, num_true, num_sampled, unique, range_max, key=None):
    """``tf.random.learned_unigram_candidate_sampler`` drawing from ``rng``; ``key`` names the
    op whose counts persist between calls (None: a fresh op)."""
    n = int(range_max)
    counts = _LEARNED_COUNTS.get(key) if key is not None else None
    if counts is None or len(counts) != n:
        counts = xp.ones(n)
    result = _sample(LearnedUnigramCandidateSampler, "LearnedUnigramCandidateSampler",
                     counts / counts.sum() if n > 0 else xp.ones(0), true_classes, num_true,
                     num_sampled, unique, range_max, rng)
    if key is not None:
        counts = counts.copy()
        xp.add.at(counts, _true_classes(true_classes, num_true,
                                        "LearnedUnigramCandidateSampler").reshape(-1), 1.0)
        _LEARNED_COUNTS[key] = counts
    return result


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Returns every class 0..num_sampled - 1, each with expected count 1 (for tests and small
    vocabularies).

    >>> import tapegrad as tf
    >>> tf.random.all_candidate_sampler([[1]], 1, 3, True)[0].numpy().tolist()
    [0, 1, 2]
    """
    true = _true_classes(true_classes, num_true, "AllCandidateSampler", int(num_sampled))
    n = int(num_sampled)
    return AllCandidateSampler(wrap(xp.arange(n, dtype=xp.int64)),
                               wrap(xp.ones(true.shape, xp.float32)),
                               wrap(xp.ones(n, xp.float32)))


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """Where a sampled class equals one of a row's true classes: ``(indices, ids, weights)``,
    row and sampled position of each hit (one per matching true class), with weight -FLT_MAX
    (added to a logit, it removes that candidate).

    >>> import tapegrad as tf
    >>> hits = tf.nn.compute_accidental_hits([[1], [3]], [3, 1, 0], 1)
    >>> hits.indices.numpy().tolist(), hits.ids.numpy().tolist()
    ([0, 1], [1, 0])
    """
    true = _true_classes(true_classes, num_true, "ComputeAccidentalHits")
    sampled = xp.asarray(convert_to_tensor(sampled_candidates)._value).reshape(-1).tolist()
    rows, ids = [], []
    for i, row in enumerate(true.tolist()):
        for j, s in enumerate(sampled):
            for t in row:
                if t == s:
                    rows.append(i)
                    ids.append(j)
    lowest = -float(xp.finfo(xp.float32).max)
    return ComputeAccidentalHits(wrap(xp.asarray(rows, xp.int32)), wrap(xp.asarray(ids, xp.int64)),
                                 wrap(xp.full(len(rows), lowest, xp.float32)))
