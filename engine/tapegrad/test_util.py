"""A gradient checker you can run on any function, including your own custom gradients.

``check_gradients(f, args)`` compares the tape's reverse mode (VJP) and the forward accumulator
(JVP) with central finite differences in float64, along random directions, and then does the
same for the derivative functions themselves (second order).

>>> import tapegrad as tf
>>> tf.test_util.check_gradients(lambda x: tf.sin(x) * x, [1.3])
"""
import numpy as np   # the checker computes on the host; values go to and from ``xp``

from . import nest
from .backend import to_host, xp
from .errors import InvalidArgumentError  # noqa: F401
from .forward import ForwardAccumulator
from .ops import concat, reshape, zeros_like
from .tape import GradientTape
from .tensor import Tensor, wrap


class GradientCheckError(AssertionError):
    pass


def _as_arrays(args):
    return [np.asarray(to_host(a._value) if isinstance(a, Tensor) else a, dtype=np.float64)
            for a in args]


def _tensor(a):
    """A host array as a tensor of the chosen namespace (a copy: checks never share memory)."""
    return wrap(xp.asarray(np.array(a)))


def _host(t):
    return to_host(t._value)


def _call(f, arrays):
    out = f(*[_tensor(a) for a in arrays])
    if not isinstance(out, Tensor):
        raise GradientCheckError(f"function returned {type(out).__name__}, expected a Tensor")
    return out


def _numeric_directional(f, arrays, direction, eps):
    plus = [a + eps * d for a, d in zip(arrays, direction)]
    minus = [a - eps * d for a, d in zip(arrays, direction)]
    return (_host(_call(f, plus)) - _host(_call(f, minus))) / (2 * eps)


def _close(a, b, rtol, atol, what):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        raise GradientCheckError(f"{what}: shape {a.shape} vs {b.shape}")
    if not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
        raise GradientCheckError(f"{what}: engine {a.ravel()[:6]} vs finite differences "
                                 f"{b.ravel()[:6]} (max abs diff "
                                 f"{np.nanmax(np.abs(a - b)) if a.size else 0:.3g})")


def check_vjp(f, arrays, rng, eps=1e-6, rtol=1e-5, atol=1e-6):
    """Reverse mode: <u, J v> from the tape equals the finite difference of <u, f> along v."""
    xs = [_tensor(a) for a in arrays]
    with GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    u = rng.standard_normal(y._value.shape)
    grads = tape.gradient(y, xs, output_gradients=_tensor(u.astype(y._value.dtype)))
    v = [rng.standard_normal(a.shape) for a in arrays]
    analytic = sum(float(np.sum(_host(g) * d)) for g, d in zip(grads, v) if g is not None)
    numeric = float(np.sum(u * _numeric_directional(f, arrays, v, eps)))
    _close(analytic, numeric, rtol, atol, f"VJP of {getattr(f, '__name__', f)}")


def check_jvp(f, arrays, rng, eps=1e-6, rtol=1e-5, atol=1e-6):
    """Forward mode: the accumulator's tangent equals the finite difference along v."""
    xs = [_tensor(a) for a in arrays]
    v = [rng.standard_normal(a.shape) for a in arrays]
    with ForwardAccumulator(xs, [_tensor(d) for d in v]) as acc:
        y = f(*xs)
    t = acc.jvp(y)
    tangent = np.zeros(y._value.shape) if t is None else _host(t)
    _close(tangent, _numeric_directional(f, arrays, v, eps), rtol, atol,
           f"JVP of {getattr(f, '__name__', f)}")


def _vjp_function(f, u):
    """x -> <u, J(x)>-weighted gradient, summed over inputs into one vector (for order 2)."""

    def g(*xs):
        with GradientTape() as tape:
            tape.watch(list(xs))
            y = f(*xs)
        grads = tape.gradient(y, list(xs), output_gradients=_tensor(u.astype(y._value.dtype)),
                              unconnected_gradients="zero")
        return concat([reshape(gr, (-1,)) for gr in grads], axis=0)
    g.__name__ = f"grad({getattr(f, '__name__', 'f')})"
    return g


def _jvp_function(f, v):

    def g(*xs):
        with ForwardAccumulator(list(xs), [_tensor(d) for d in v]) as acc:
            y = f(*xs)
        t = acc.jvp(y)
        return zeros_like(y) if t is None else t
    g.__name__ = f"jvp({getattr(f, '__name__', 'f')})"
    return g


def check_gradients(f, args, order=2, modes=("rev", "fwd"), seed=0, eps=1e-6, rtol=1e-5,
                    atol=1e-6):
    """Raises ``GradientCheckError`` unless ``f``'s derivatives match finite differences.

    ``f`` takes tensors and returns a tensor; ``args`` are arrays or numbers (checked in
    float64). ``order=2`` also checks reverse-over-reverse and forward-over-reverse.
    """
    rng = np.random.default_rng(seed)
    arrays = _as_arrays(nest.flatten(list(args)))
    if "rev" in modes:
        check_vjp(f, arrays, rng, eps, rtol, atol)
    if "fwd" in modes:
        check_jvp(f, arrays, rng, eps, rtol, atol)
    if order > 1:
        y = _call(f, arrays)
        u = rng.standard_normal(y._value.shape)
        check_gradients(_vjp_function(f, u), arrays, order - 1, modes, seed + 1, eps * 10,
                        rtol * 10, atol * 10)
        if "fwd" in modes:
            v = [rng.standard_normal(a.shape) for a in arrays]
            check_gradients(_jvp_function(f, v), arrays, order - 1, ("rev",), seed + 2, eps * 10,
                            rtol * 10, atol * 10)
