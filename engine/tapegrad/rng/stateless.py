"""``tf.random.stateless_*``: the same ``seed`` (two integers) gives the same numbers, in this
process, in any other, and in TensorFlow itself (Philox-4x32-10 with TF's seed scrambling).

>>> import tapegrad as tf
>>> tf.random.stateless_uniform([2], seed=[1, 2]).numpy().tolist()
[0.8440604209899902, 0.19204533100128174]
"""
from ..backend import xp as np
from .. import convert, dtypes
from ..errors import InvalidArgumentError
from ..ground import as_shape
from ..replayed import replayed
from ..tensor import Tensor, wrap
from . import distributions, philox

PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3
_FLOATS = ("float16", "float32", "float64")
_UNIFORM_DTYPES = _FLOATS + ("int32", "int64", "uint32", "uint64")


def alg_to_int(alg):
    """An algorithm given as None, a name, an ``Algorithm`` or an int, as TF's int (1, 2, 3)."""
    if alg is None:
        return AUTO_SELECT
    value = getattr(alg, "value", alg)
    if isinstance(value, Tensor):
        value = int(value._value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    canon = str(value).strip().lower().replace("-", "").replace("_", "")
    names = {"philox": PHILOX, "threefry": THREEFRY, "autoselect": AUTO_SELECT}
    if canon not in names:
        raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                         f"{PHILOX} for the Philox algorithm, {THREEFRY} for the ThreeFry "
                         f"algorithm, and {AUTO_SELECT} for auto-selection.")
    return names[canon]


def _check_alg(alg, op):
    alg = alg_to_int(alg)
    if alg == THREEFRY:
        raise InvalidArgumentError(f"counter must be a vector with length at least 2; got "
                                   f"shape: [1]. (Note that batched counters are not supported "
                                   f"yet.) [Op:{op}]")
    if alg not in (PHILOX, AUTO_SELECT):
        raise InvalidArgumentError(f"Unsupported algorithm id: {alg} [Op:{op}]")


def seed_values(seed):
    """The two integers of a stateless ``seed`` (a shape-[2] int32/int64 tensor or list)."""
    s = convert.tensor(seed)
    if s._value.dtype.kind not in "iu":
        raise InvalidArgumentError(f"Value for attr 'Tseed' of {s.dtype.name} is not in the list "
                                   f"of allowed values: int32, int64")
    if s._value.shape != (2,):
        raise InvalidArgumentError(f"seed must have shape [2], not "
                                   f"[{','.join(map(str, s._value.shape))}]")
    return [int(v) for v in s._value.astype(np.int64)]


def key_counter(seed, alg=None, op="StatelessRandomGetKeyCounter"):
    _check_alg(alg, op)
    return philox.key_counter_from_seed(seed_values(seed))


def _dtype(dtype, allowed, arg="dtype"):
    d = dtypes.as_dtype(dtype)
    if d.name not in allowed:
        names = ", ".join(f"tf.{a}" for a in allowed)
        raise ValueError(f"Argument `{arg}` got invalid value {d!r}. Accepted dtypes are "
                         f"({names}).")
    return d


def affine(rnd, factor, shift, d):
    """rnd * factor + shift with the parameters converted to ``d``: differentiable in them."""
    factor = convert.tensor(factor) if isinstance(factor, Tensor) else \
        wrap(np.asarray(factor, dtype=d.as_numpy_dtype))
    shift = convert.tensor(shift) if isinstance(shift, Tensor) else \
        wrap(np.asarray(shift, dtype=d.as_numpy_dtype))
    return wrap(rnd) * factor + shift


def uniform_from(key, counter, shape, minval, maxval, dtype):
    """The uniform draw of ``stateless_uniform`` / ``Generator.uniform`` for a key and counter."""
    shape = as_shape(shape)
    if dtype.is_integer and minval is None:
        return wrap(distributions.full_int(key, counter, shape, dtype.name))
    if dtype.is_integer:
        lo = int(np.asarray(getattr(minval, "_value", minval)))
        hi = int(np.asarray(getattr(maxval, "_value", maxval)))
        if hi <= lo:
            raise InvalidArgumentError(f"Need minval < maxval, got {lo} >= {hi}")
        return wrap(distributions.uniform_int(key, counter, shape, dtype.name, lo, hi))
    rnd = distributions.uniform(key, counter, shape, dtype.name)
    lo = convert.tensor(minval) if isinstance(minval, Tensor) else wrap(
        np.asarray(minval, dtype=dtype.as_numpy_dtype))
    hi = convert.tensor(maxval) if isinstance(maxval, Tensor) else wrap(
        np.asarray(maxval, dtype=dtype.as_numpy_dtype))
    return wrap(rnd) * (hi - lo) + lo


def check_uniform_args(minval, maxval, dtype):
    """TF's argument rules for integer uniforms; returns (minval, maxval) with float defaults."""
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype!r}, argument `minval` and "
                             f"`maxval` must be both None or not None. Got `minval`={minval} "
                             f"and `maxval`={maxval}.")
        if minval is not None and dtype.name in ("uint32", "uint64"):
            raise ValueError(f"Argument `dtype` got invalid value {dtype!r} when argument "
                             f"`minval` is not None. Please don't use unsigned integers in this "
                             f"case.")
        return minval, maxval
    return minval, 1 if maxval is None else maxval


@replayed("StatelessRandomUniformV2", pure=True)
def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select"):
    """Uniform values in [minval, maxval), the same for the same ``seed``; integer dtypes with
    ``minval=maxval=None`` cover their whole range.

    >>> import tapegrad as tf
    >>> tf.random.stateless_uniform([3], seed=[1, 2], maxval=10, dtype=tf.int32).shape
    TensorShape([3])
    """
    d = _dtype(dtype, _UNIFORM_DTYPES)
    minval, maxval = check_uniform_args(minval, maxval, d)
    key, counter = key_counter(seed, alg)
    return uniform_from(key, counter, shape, minval, maxval, d)


@replayed("StatelessRandomNormalV2", pure=True)
def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg="auto_select"):
    """Normal values (Box-Muller on Philox uniforms), mean + stddev * z.

    >>> import tapegrad as tf
    >>> tf.random.stateless_normal([2, 3], seed=[4, 5]).shape
    TensorShape([2, 3])
    """
    d = _dtype(dtype, _FLOATS)
    key, counter = key_counter(seed, alg)
    return affine(distributions.normal(key, counter, as_shape(shape), d.name), stddev, mean, d)


@replayed("StatelessTruncatedNormalV2", pure=True)
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select"):
    """Normal values redrawn until within two standard deviations, mean + stddev * z."""
    d = _dtype(dtype, _FLOATS)
    key, counter = key_counter(seed, alg)
    rnd = distributions.truncated_normal(key, counter, as_shape(shape), d.name)
    return affine(rnd, stddev, mean, d)


@replayed("StatelessMultinomial", pure=True)
def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """``num_samples`` class indices per row of ``logits`` ([batch, classes], unnormalised log
    probabilities).

    >>> import tapegrad as tf
    >>> tf.random.stateless_categorical(tf.math.log([[0.5, 0.5]]), 4, seed=[7, 17]).shape
    TensorShape([1, 4])
    """
    x = convert.tensor(logits)
    d = _dtype(dtype, ("int32", "int64"))
    if x._value.ndim != 2:
        raise InvalidArgumentError(f"logits should be a matrix, got shape "
                                   f"[{','.join(map(str, x._value.shape))}]")
    n = int(np.asarray(getattr(num_samples, "_value", num_samples)))
    if n < 0:
        raise InvalidArgumentError(f"num_samples should be nonnegative, got {n}")
    if x._value.shape[1] == 0 and x._value.shape[0] > 0 and n > 0:
        raise InvalidArgumentError("num_classes should be positive, got 0")
    key, counter = philox.key_counter_from_seed(seed_values(seed))
    return wrap(distributions.categorical(key, counter, x._value, n, d.name))


def _params(shape, *params):
    """Parameters broadcast to ``shape`` as NumPy arrays."""
    shape = as_shape(shape)
    try:
        return shape, [np.broadcast_to(np.asarray(getattr(p, "_value", p), dtype=np.float64),
                                       shape) for p in params]
    except ValueError:
        raise InvalidArgumentError(f"parameters with shapes "
                                   f"{[list(np.shape(getattr(p, '_value', p))) for p in params]} "
                                   f"cannot be broadcast to the output shape {list(shape)}")


@replayed("StatelessRandomBinomial", pure=True)
def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial counts of successes (same law as TF's, not the same values: TF samples by
    rejection).

    >>> import tapegrad as tf
    >>> tf.random.stateless_binomial([2], seed=[1, 2], counts=10.0, probs=0.5).dtype
    tf.int32
    """
    d = _dtype(output_dtype, ("float16", "float32", "float64", "int32", "int64"), "output_dtype")
    shape, (n, p) = _params(shape, counts, probs)
    rng = distributions.numpy_generator(*key_counter(seed))
    return wrap(rng.binomial(n.astype(np.int64), np.clip(p, 0.0, 1.0)).astype(d.as_numpy_dtype))


def _gamma_shape(shape, alpha, beta):
    """TF's gamma output shape: ``shape`` must end with the broadcast shape of alpha and beta."""
    shape = as_shape(shape)
    a = np.asarray(getattr(alpha, "_value", alpha), dtype=np.float64)
    b = np.asarray(1.0 if beta is None else getattr(beta, "_value", beta), dtype=np.float64)
    params = np.broadcast_shapes(a.shape, b.shape)
    if params and tuple(shape[len(shape) - len(params):]) != params:
        raise ValueError(f"Shape must end with the broadcast shape of alpha and beta "
                         f"{list(params)}, got {list(shape)}")
    return shape, np.broadcast_to(a, shape), np.broadcast_to(b, shape)


@replayed("StatelessRandomGammaV3", pure=True)
def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma(alpha, rate beta) samples (same law as TF's, not the same values: TF samples by
    rejection); ``shape`` must end with the broadcast shape of alpha and beta."""
    d = _dtype(dtype, _FLOATS)
    shape, a, b = _gamma_shape(shape, alpha, beta)
    rng = distributions.numpy_generator(*key_counter(seed))
    return wrap((rng.standard_gamma(a) / b).astype(d.as_numpy_dtype))


@replayed("StatelessRandomPoisson", pure=True)
def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson(lam) counts (same law as TF's, not the same values)."""
    d = _dtype(dtype, ("float16", "float32", "float64", "int32", "int64"))
    shape, (lam_,) = _params(shape, lam)
    rng = distributions.numpy_generator(*key_counter(seed))
    return wrap(rng.poisson(lam_).astype(d.as_numpy_dtype))


def _truncated_standard(rng, lo, hi):
    """Standard normals restricted to [lo, hi]: plain rejection where the interval holds the
    centre, an exponential proposal (Robert, 1995) in a tail, uniform rejection on a narrow
    interval; every element loops only until accepted."""
    out = np.empty(lo.shape)
    flip = lo > 0                                      # reflect right tails onto the left side
    a = np.where(flip, lo, -hi)
    b = np.where(flip, hi, -lo)                        # now sample x in [a, b] with a >= -b
    todo = np.arange(lo.size)
    a, b = a.reshape(-1), b.reshape(-1)
    res = out.reshape(-1)
    for _ in range(10000):
        if not todo.size:
            break
        aa, bb = a[todo], b[todo]
        z = np.where(aa <= 0.0, rng.standard_normal(todo.size), 0.0)
        ok_centre = (aa <= 0.0) & (z >= aa) & (z <= bb)
        alpha = (aa + np.sqrt(aa * aa + 4.0)) / 2.0
        e = aa + rng.exponential(1.0, todo.size) / np.maximum(alpha, 1e-12)
        ok_tail = (aa > 0.0) & (e <= bb) & (rng.random(todo.size) <= np.exp(-(e - alpha) ** 2 / 2))
        narrow = (aa > 0.0) & (bb - aa < 0.5)
        u = aa + (bb - aa) * rng.random(todo.size)
        ok_narrow = narrow & (rng.random(todo.size) <= np.exp((aa * aa - u * u) / 2))
        val = np.where(ok_centre, z, np.where(ok_narrow, u, e))
        ok = ok_centre | np.where(narrow, ok_narrow, ok_tail)
        res[todo[ok]] = val[ok]
        todo = todo[~ok]
    signs = np.where(flip, 1.0, -1.0)
    return out * signs


@replayed("StatelessParameterizedTruncatedNormal", pure=True)
def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0,
                                             maxvals=2.0, name=None):
    """Normal(means, stddevs) values restricted to [minvals, maxvals] (same law as TF's, not
    the same values)."""
    shape, (mu, sd, lo, hi) = _params(shape, means, stddevs, minvals, maxvals)
    dt = np.result_type(*[convert.tensor(p)._value for p in (means, stddevs, minvals, maxvals)])
    dt = dt if dt.kind == "f" else np.float32
    if np.any(lo >= hi):
        raise InvalidArgumentError("Invalid parameters: minvals must be less than maxvals")
    rng = distributions.numpy_generator(*key_counter(seed))
    z = _truncated_standard(rng, (lo - mu) / sd, (hi - mu) / sd)
    return wrap((mu + sd * z).astype(dt))


@replayed("StatelessRandomUniformFullIntV2", pure=True)
def split(seed, num=2, alg="auto_select"):
    """``num`` new seeds (shape [num, 2]) derived from ``seed``."""
    s = convert.tensor(seed)
    d = dtypes.as_dtype(s.dtype)
    return stateless_uniform([int(num), 2], seed=s, dtype=d, minval=None, maxval=None, alg=alg)


@replayed("StatelessRandomUniformFullIntV2", pure=True)
def fold_in(seed, data, alg="auto_select"):
    """A new seed from ``seed`` and an integer ``data``: [one draw of the seed, data]."""
    data = convert.tensor(data)
    d = dtypes.as_dtype(data.dtype)
    first = stateless_uniform([], seed=seed, dtype=d, minval=None, maxval=None, alg=alg)
    return wrap(np.stack([first._value, data._value.astype(first._value.dtype)]))

