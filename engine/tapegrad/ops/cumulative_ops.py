"""Cumulative sums and products along an axis (``exclusive`` and ``reverse`` as TensorFlow)."""
from ..backend import xp
from .. import checks, convert
from ..ground import quiet
from ..recording import bind
from ..table import deflinear, defjvp, defvjp, primitive
from ..checks.dtype_rules import NUMBER
from .arithmetic_ops import multiply, realdiv
from .. import batching
from ..batching import own_vjp
from .. import shape_rules
from ..table import defshape


def _cum_impl(fn, identity):
    def impl(x, axis, exclusive, reverse):
        if x.size == 0:     # nothing to accumulate (and nothing to shift when exclusive)
            return x.copy()
        if reverse:
            x = xp.flip(x, axis)
        r = fn(x, axis=axis, dtype=x.dtype)
        if exclusive:
            pad = xp.full_like(xp.take(r, [0], axis=axis), identity)
            r = xp.concatenate([pad, xp.take(r, range(x.shape[axis] - 1), axis=axis)], axis=axis)
        if reverse:
            r = xp.flip(r, axis)
        return xp.ascontiguousarray(r)
    return impl


CUMSUM = primitive("Cumsum", _cum_impl(xp.cumsum, 0), dtypes=NUMBER)
deflinear(CUMSUM, lambda g, ans, x, axis, exclusive, reverse: cumsum(
    g, axis=axis + batching.lead_of(g, ans), exclusive=exclusive, reverse=not reverse))
defshape(CUMSUM, shape_rules.same)
CUMPROD = primitive("Cumprod", quiet(_cum_impl(xp.cumprod, 1)), dtypes=NUMBER)
defshape(CUMPROD, shape_rules.same)


def _cumprod_vjp(g, ans, x, axis, exclusive, reverse):
    # TensorFlow's rule: divides by x, so it is not defined at zeros.
    return realdiv(cumsum(multiply(ans, g), axis=axis + batching.lead_of(g, ans),
                          exclusive=exclusive, reverse=not reverse), x)


def _cumprod_jvp(t, ans, x, axis, exclusive, reverse):
    return multiply(ans, cumsum(realdiv(t, x), axis=axis, exclusive=exclusive, reverse=reverse))


defvjp(CUMPROD, _cumprod_vjp)
defjvp(CUMPROD, _cumprod_jvp)


def _cum(prim, x, axis, exclusive, reverse):
    x = convert.tensor(x)
    nd = x._value.ndim
    axis = checks.axis(prim.name, axis, nd)
    return bind(prim, (x,), {"axis": axis, "exclusive": bool(exclusive), "reverse": bool(reverse)})


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return _cum(CUMSUM, x, axis, exclusive, reverse)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return _cum(CUMPROD, x, axis, exclusive, reverse)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(CUMSUM, CUMPROD)
