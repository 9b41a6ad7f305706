"""When the engine uses a kernel: present, enabled, inputs that fit, and a size at or above the
threshold measured for this environment (thresholds.py); otherwise the NumPy implementation.

Routes are built once, when the op modules are imported: where this environment has no threshold
for a family (NumPy is as fast), ``route_*`` hands back the NumPy function itself, so the op pays
nothing. ``disabled()`` turns kernels off for a block (tests and benchmarks compare both ways).
"""
from . import calls, library, thresholds

LIB, REASON = library.load()
LIMITS = thresholds.for_environment(library.IN_PYODIDE)
_state = {"on": LIB is not None}


def enabled():
    return _state["on"]


class disabled:
    """Within this block every op uses NumPy."""

    def __enter__(self):
        self.saved = _state["on"]
        _state["on"] = False

    def __exit__(self, *exc):
        _state["on"] = self.saved
        return False


def _limit(family):
    """The size threshold for a family, or None when its kernels are never used here."""
    return LIMITS.get(family) if LIB is not None else None


def route_matmul(numpy_impl):
    """impl(a, b, transpose_a, transpose_b) for the MatMul primitive."""
    limit = _limit("matmul")
    if limit is None:
        return numpy_impl

    def impl(a, b, transpose_a, transpose_b):
        if _state["on"] and a.ndim >= 2 and b.ndim >= 2:
            k = a.shape[-2] if transpose_a else a.shape[-1]
            if a.size // max(k, 1) * b.shape[-2 if transpose_b else -1] * k >= limit:
                out = calls.matmul(LIB, a, b, transpose_a, transpose_b)
                if out is not None:
                    return out
        return numpy_impl(a, b, transpose_a, transpose_b)
    return impl


def route_binary(op, numpy_fn):
    """impl(a, b) for an elementwise binary primitive (op: add, sub, mul, div, max, min)."""
    limit = _limit("binary")
    if limit is None:
        return numpy_fn

    def impl(a, b):
        if _state["on"] and (getattr(a, "size", 0) >= limit or getattr(b, "size", 0) >= limit):
            out = calls.binary(LIB, op, a, b)
            if out is not None:
                return out
        return numpy_fn(a, b)
    return impl


def route_unary(op, numpy_fn):
    """impl(x) for an elementwise unary primitive (op: neg, abs, square, sqrt, relu)."""
    limit = _limit("unary")
    if limit is None:
        return numpy_fn

    def impl(x):
        if _state["on"] and getattr(x, "size", 0) >= limit:
            out = calls.unary(LIB, op, x)
            if out is not None:
                return out
        return numpy_fn(x)
    return impl


def route_reduce(op, numpy_impl):
    """impl(x, axes, keepdims) for the Sum, Max and Mean primitives."""
    limit = _limit("reduce")
    if limit is None:
        return numpy_impl

    def impl(x, axes, keepdims):
        if _state["on"] and getattr(x, "size", 0) >= limit:
            out = calls.reduce(LIB, op, x, axes, keepdims)
            if out is not None:
                return out
        return numpy_impl(x, axes, keepdims)
    return impl


def route_relu_grad(numpy_impl):
    """impl(g, x) for the ReluGrad primitive."""
    limit = _limit("fused")
    if limit is None:
        return numpy_impl

    def impl(g, x):
        if _state["on"] and getattr(g, "size", 0) >= limit:
            out = calls.relu_grad(LIB, g, x)
            if out is not None:
                return out
        return numpy_impl(g, x)
    return impl


_FUSED_VJPS = {"sigmoid_grad": (calls.sigmoid_grad, True), "tanh_grad": (calls.tanh_grad, True),
               "softplus_grad": (calls.softplus_grad, False)}


def fuse_vjp(prim, kernel):
    """Gives ``prim`` (a unary elementwise primitive) a one-pass backward: while no recorder is
    active (nothing records the backward, so its intermediate ops are invisible) and the arrays
    fit, the kernel computes what the table's rule computes; otherwise the rule itself runs.
    kernel: sigmoid_grad and tanh_grad (from the output), softplus_grad (from the input)."""
    limit = _limit("fused")
    if limit is None:
        return prim
    from ..recording import active
    from ..tensor import wrap
    fn, from_output = _FUSED_VJPS[kernel]
    rule = prim.vjp

    def vjp(g, ans, inputs, attrs, wanted):
        if not active and _state["on"] and wanted[0]:
            gv = getattr(g, "_value", None)
            if getattr(gv, "size", 0) >= limit:
                out = fn(LIB, gv, ans._value if from_output else inputs[0]._value)
                if out is not None:
                    return (wrap(out),)
        return rule(g, ans, inputs, attrs, wanted)
    prim.vjp = vjp
    return prim


def sgd_momentum(w, g, m, lr, momentum, nesterov):
    """The new weights with the slot ``m`` updated in place, or None (then the caller's NumPy)."""
    limit = _limit("optimizer")
    if limit is None or not _state["on"] or w.size < limit:
        return None
    return calls.sgd_momentum(LIB, w, g, m, lr, momentum, nesterov)


def adam(w, g, m, v, b1c, b2c, alpha, eps):
    """The new weights with the slots ``m`` and ``v`` updated in place, or None."""
    limit = _limit("optimizer")
    if limit is None or not _state["on"] or w.size < limit:
        return None
    return calls.adam(LIB, w, g, m, v, b1c, b2c, alpha, eps)


def softmax_xent_grad(logits, labels, g):
    """The softmax cross-entropy gradient with respect to the logits, or None."""
    limit = _limit("softmax_xent")
    if limit is None or not _state["on"] or logits.size < limit:
        return None
    return calls.softmax_xent_grad(LIB, logits, labels, g)
