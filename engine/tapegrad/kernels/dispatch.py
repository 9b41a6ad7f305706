"""When the engine uses a kernel: present, enabled, inputs that fit, and a size at or above the
threshold measured for this environment (thresholds.py); otherwise the NumPy implementation.

Routes are built once, when the op modules are imported: where this environment has no threshold
for a family (NumPy is as fast) or no library was built, ``route_*`` hands back the NumPy function
itself, so the op pays nothing. The library is loaded on the first call that wants it (so that
importing the engine does not compile a WebAssembly module). ``disabled()`` turns kernels off for
a block (tests and benchmarks compare both ways).
"""
import weakref

from ..primitives import UNARY_RULES
from ..tensor import wrap
from ..thread_state import state as _thread
from . import calls, library, thresholds

LIMITS = thresholds.for_environment(library.IN_PYODIDE)
PRESENT = library.present()
FREED_MEMORY_KEPT = library.keep_freed_memory()
_state = {"on": PRESENT}
_loaded = []  # [(Library or None, reason)] once loading was tried


def lib():
    """The loaded Library (loading it the first time), or None."""
    if not _loaded:
        _loaded.append(library.load())
        if _loaded[0][0] is None:
            _state["on"] = False
    return _loaded[0][0]


def retry_loading():
    """Tries the library again on the next call if loading it failed: the page's snapshot boot
    writes the packages' files (the kernel module among them) only after its first run, so a
    kernel wanted before then finds no file (web/src/worker.js calls this once they are
    written). A load that succeeded, and ``disabled`` blocks, are left as they are."""
    if _loaded and _loaded[0][0] is None:
        _loaded.clear()
        _state["on"] = PRESENT


def reason():
    """Why no library is loaded (None when one is)."""
    lib()
    return _loaded[0][1]


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


def _run(kernel, *args):
    """kernel(library, *args), or None when the library failed to load."""
    loaded = lib()
    return None if loaded is None else kernel(loaded, *args)


def _limit(family):
    """The size threshold for a family, or None when its kernels are never used here."""
    return LIMITS.get(family) if PRESENT else None


def route_matmul(numpy_impl):
    """impl(a, b, transpose_a, transpose_b) for the MatMul primitive."""
    limit = _limit("matmul")
    if limit is None:
        return numpy_impl

    def impl(a, b, transpose_a, transpose_b):
        if _state["on"] and a.ndim >= 2 and b.ndim >= 2:
            k = a.shape[-2] if transpose_a else a.shape[-1]
            if a.size // max(k, 1) * b.shape[-2 if transpose_b else -1] * k >= limit:
                out = _run(calls.matmul, a, b, transpose_a, transpose_b)
                if out is not None:
                    return out
        return numpy_impl(a, b, transpose_a, transpose_b)
    return impl


def route_binary(op, numpy_fn):
    """impl(a, b) for an elementwise binary primitive (op: add, sub, mul, div, max, min)."""
    limit = _limit("binary")
    if limit is None:
        return numpy_fn

    state = _state

    # This runs for every elementwise op the tape records, mostly on small arrays: the size test
    # comes first and reads the attribute directly (getattr with a default measured slower).
    def impl(a, b):
        try:
            large = a.size >= limit or b.size >= limit
        except AttributeError:          # a Python number
            large = False
        if large and state["on"]:
            out = _run(calls.binary, op, a, b)
            if out is not None:
                return out
        return numpy_fn(a, b)
    return impl


def route_unary(op, numpy_fn):
    """impl(x) for an elementwise unary primitive (op: neg, abs, square, sqrt, relu; relu has its
    own threshold where one is measured)."""
    limit = _limit("relu" if op == "relu" and "relu" in LIMITS else "unary")
    if limit is None:
        return numpy_fn

    state = _state

    def impl(x):
        try:
            large = x.size >= limit
        except AttributeError:
            large = False
        if large and state["on"]:
            out = _run(calls.unary, op, x)
            if out is not None:
                return out
        return numpy_fn(x)
    return impl


def route_reduce(op, numpy_impl):
    """impl(x, axes, keepdims) for the Sum, Max and Mean primitives."""
    limit = _limit("reduce")
    if limit is None:
        return numpy_impl

    # Sums and means over leading axes whose rows (the kept elements) are long enough: NumPy
    # adds the rows one after another as the kernel does (the same bits; only a single kept
    # element makes NumPy sum pairwise), and natively faster than the call.
    cols = LIMITS.get("reduce_cols_numpy") if op in ("sum", "mean") else None

    def impl(x, axes, keepdims):
        if _state["on"] and getattr(x, "size", 0) >= limit:
            if cols is not None and axes and axes[0] == 0 and axes[-1] == len(axes) - 1:
                shape = x.shape     # (axes: sorted and distinct, so exactly the leading ones)
                rows = 1
                for d in shape[len(axes):]:
                    rows *= d
                if rows >= cols:
                    return numpy_impl(x, axes, keepdims)
            out = _run(calls.reduce, op, x, axes, keepdims)
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
            out = _run(calls.relu_grad, g, x)
            if out is not None:
                return out
        return numpy_impl(g, x)
    return impl


_FUSED_VJPS = {  # kernel: (function, computed from the output (else the input), family)
    "sigmoid_grad": (calls.sigmoid_grad, True, "fused"),
    "tanh_grad": (calls.tanh_grad, True, "fused"),
    "softplus_grad": (calls.softplus_grad, False, "fused_exp"),
}


def fuse_vjp(prim, kernel):
    """Gives ``prim`` (a unary elementwise primitive) a one-pass backward: while no recorder is
    active (nothing records the backward, so its intermediate ops are invisible) and the arrays
    fit, the kernel computes what the table's rule computes; otherwise the rule itself runs.
    kernel: sigmoid_grad and tanh_grad (from the output), softplus_grad (from the input)."""
    fn, from_output, family = _FUSED_VJPS[kernel]
    limit = _limit(family)
    if limit is None:
        return prim
    rule = prim.vjp

    def vjp(g, ans, inputs, attrs, wanted):
        if not _thread.active and _state["on"] and wanted[0]:
            gv = getattr(g, "_value", None)
            if getattr(gv, "size", 0) >= limit:
                out = _run(fn, gv, ans._value if from_output else inputs[0]._value)
                if out is not None:
                    return (wrap(out),)
        return rule(g, ans, inputs, attrs, wanted)
    prim.vjp = vjp
    f0 = UNARY_RULES.get(rule)
    if f0 is not None:
        # The same as one rule for the backward pass to call directly (UNARY_RULES): two
        # Python frames fewer per use, and per source-line walk of each op it records.
        def fused_rule(g, ans, x):
            if not _thread.active and _state["on"]:
                gv = getattr(g, "_value", None)
                if getattr(gv, "size", 0) >= limit:
                    out = _run(fn, gv, ans._value if from_output else x._value)
                    if out is not None:
                        return wrap(out)
            return f0(g, ans, x)
        UNARY_RULES[vjp] = fused_rule
    return prim


def fuse_softmax_xent_vjp(prim):
    """Gives SoftmaxCrossEntropyWithLogits a one-pass backward for the logits: while no recorder
    is active and the logits (reduced over their last axis) fit, the kernel computes
    ``g[..., None] * (softmax(logits) - labels)``, as the table's rule does; the labels' cotangent,
    when wanted, and every other case come from the rule itself."""
    if _limit("softmax_xent") is None:
        return prim
    rule = prim.vjp

    def vjp(g, ans, inputs, attrs, wanted):
        if not _thread.active and _state["on"] and wanted[0]:
            x = inputs[0]._value
            gv = getattr(g, "_value", None)
            if gv is not None and attrs["axis"] == x.ndim - 1:
                out = softmax_xent_grad(x, inputs[1]._value, gv)
                if out is not None:
                    labels = rule(g, ans, inputs, attrs, (False, True))[1] if wanted[1] else None
                    return (wrap(out), labels)
        return rule(g, ans, inputs, attrs, wanted)
    prim.vjp = vjp
    return prim


# What the sparse softmax cross-entropy's forward pass kept for its backward pass while a tape
# recorded: id(loss array) -> (weak reference to it, exponentials, row sums). At most a few
# entries (the latest losses), so a loss kept alive by the user holds no extra memory for long;
# without an entry the backward pass recomputes the exponentials (same bits). Measured on
# 256x1000 float32 (2026-11-23): backward 0.45 -> 0.12 ms.
_KEPT = {}
_KEEP_AT_MOST = 4


def sparse_xent_loss(logits, labels):
    """The per-row loss of SparseSoftmaxCrossEntropyWithLogits, or None (then NumPy)."""
    limit = _limit("softmax_xent")
    if limit is None or not _state["on"] or logits.size < limit:
        return None
    keep = bool(_thread.active)
    out = _run(calls.sparse_xent_loss, logits, labels, keep)
    if out is None:
        return None
    loss, exps, sums = out
    if keep:
        while len(_KEPT) >= _KEEP_AT_MOST:
            _KEPT.pop(next(iter(_KEPT)), None)
        _KEPT[id(loss)] = (weakref.ref(loss), exps, sums)
    return loss


def sparse_xent_grad(logits, labels, g, loss=None):
    """``g[..., None] * (softmax(logits) - onehot(labels))``, or None (then the table's rule).
    ``loss``: the forward pass's result, whose kept exponentials are used when there are some."""
    limit = _limit("softmax_xent")
    if limit is None or not _state["on"] or _thread.active or logits.size < limit:
        return None
    kept = _KEPT.pop(id(loss), None) if loss is not None else None
    if kept is not None and kept[0]() is loss:
        out = _run(calls.sparse_xent_grad_exp, kept[1], kept[2], labels, g)
        if out is not None:
            return out
    return _run(calls.sparse_xent_grad, logits, labels, g)


def sgd_momentum(w, g, m, lr, momentum, nesterov):
    """The new weights with the slot ``m`` updated in place, or None (then the caller's NumPy)."""
    limit = _limit("optimizer")
    if limit is None or not _state["on"] or w.size < limit:
        return None
    return _run(calls.sgd_momentum, w, g, m, lr, momentum, nesterov)


def adam(w, g, m, v, b1c, b2c, alpha, eps):
    """The new weights with the slots ``m`` and ``v`` updated in place, or None."""
    limit = _limit("optimizer")
    if limit is None or not _state["on"] or w.size < limit:
        return None
    return _run(calls.adam, w, g, m, v, b1c, b2c, alpha, eps)


def softmax_xent_grad(logits, labels, g):
    """``g[..., None] * (softmax(logits) - labels)`` over the last axis, or None."""
    limit = _limit("softmax_xent")
    if limit is None or not _state["on"] or logits.size < limit:
        return None
    return _run(calls.softmax_xent_grad, logits, labels, g)


# The window ops of 2-D convolution and pooling (calls.im2col and the rest): the kernels' results
# are NumPy's bit for bit, so they are used from the "windows" size on (elements of the larger
# array), and each returns None below it, when off, or when the arrays do not fit.
def _windows(size, family="windows"):
    limit = _limit(family)
    return limit is not None and _state["on"] and size >= limit


def im2col(x, ksize, strides, dilations, pads, out_hw, fill):
    # (one channel: NumPy's strided copy per window entry is faster, in Pyodide too: 0.6 vs 0.8
    # ms for 64x28x28x1 and 3x3 windows; 16 channels: 0.9 vs 0.3-0.5 ms there)
    if x.ndim != 4 or x.shape[3] == 1 or not _windows(x.size * ksize[0] * ksize[1], "im2col"):
        return None
    return _run(calls.im2col, x, ksize, strides, dilations, pads, out_hw, fill)


def col2im(cols, ksize, strides, dilations, pads, out_hw, in_hw):
    if not _windows(cols.size):
        return None
    return _run(calls.col2im, cols, ksize, strides, dilations, pads, out_hw, in_hw)


def max_pool(x, ksize, strides, dilations, pads, out_hw):
    """``(out, idx)`` of max pooling, or None."""
    if not _windows(x.size):
        return None
    return _run(calls.max_pool, x, ksize, strides, dilations, pads, out_hw)


def max_pool_grad(idx, g, shape, apart):
    size = 1
    for d in shape:
        size *= d
    if not _windows(size):          # (x's size, as for the forward)
        return None
    return _run(calls.max_pool_grad, idx, g, shape, apart)
