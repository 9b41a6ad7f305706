"""The kernels called on arrays. Each function returns the result, or None when the inputs do not
fit a kernel (dtype other than float32/float64, mixed dtypes, a layout the kernel does not take,
a broadcast pattern it has no fast path for): the caller then uses NumPy. No size thresholds
here (see dispatch.py); outputs are new arrays, except the optimizer slots updated in place.
"""
import ctypes

from ..backend import xp
from . import library, threads

_F32, _F64 = xp.dtype("float32"), xp.dtype("float64")


def _float_name(dt):
    """'float32' or 'float64' for those dtypes, else None (identity checks: dtype.name is slow)."""
    if dt is _F32 or dt == _F32:
        return "float32"
    if dt is _F64 or dt == _F64:
        return "float64"
    return None


def _dtype(*arrays):
    """The common float dtype name of C-contiguous ndarrays, or None."""
    first = arrays[0]
    if not isinstance(first, xp.ndarray):
        return None
    dt = first.dtype
    name = _float_name(dt)
    if name is None:
        return None
    for a in arrays:
        if not isinstance(a, xp.ndarray) or a.dtype != dt or not a.flags.c_contiguous:
            return None
    return name


def _ptr(a):
    """Address of a's first element (from_buffer is several times faster than a.ctypes.data,
    which matters for small arrays; it takes only writable, contiguous, non-empty buffers)."""
    flags = a.flags
    if flags.writeable and flags.c_contiguous and a.size:
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    return a.ctypes.data


# --------------------------------------------------------------------------- matmul

class _Scratch:
    """Packing buffers for GEMM, grown on demand and reused (the kernels cannot allocate)."""

    def __init__(self):
        self.buffers = {}
        self.sizes = {}

    def get(self, lib, dtype, m, n, k):
        key = (dtype, m, n, k)
        need = self.sizes.get(key)
        if need is None:  # one ctypes call per new shape (training repeats a few shapes)
            if len(self.sizes) > 256:
                self.sizes.clear()
            need = self.sizes[key] = lib.fn("tg_gemm_work", dtype)(m, n, k)
        buf = self.buffers.get(dtype)
        if buf is None or buf.size < need:
            buf = self.buffers[dtype] = xp.empty(max(need, 1), dtype)
        return buf


_scratch = _Scratch()


def _matrix_strides(a):
    """Element strides of the last two axes, or None when not whole elements."""
    isz = a.itemsize
    rs, cs = a.strides[-2], a.strides[-1]
    if rs % isz or cs % isz:
        return None
    return rs // isz, cs // isz


def matmul(lib, a, b, transpose_a=False, transpose_b=False):
    """``a @ b`` over the last two axes (transposed first when asked), batched over the leading
    axes when both have the same batch shape or one operand is a single matrix."""
    if not (isinstance(a, xp.ndarray) and isinstance(b, xp.ndarray)) or a.dtype != b.dtype:
        return None
    dtype = _float_name(a.dtype)
    if dtype is None or a.ndim < 2 or b.ndim < 2:
        return None
    sa, sb = _matrix_strides(a), _matrix_strides(b)
    if sa is None or sb is None:
        return None
    (rsa, csa), (rsb, csb) = sa, sb
    m, k = a.shape[-2:]
    if transpose_a:
        m, k, rsa, csa = k, m, csa, rsa
    kb, n = b.shape[-2:]
    if transpose_b:
        kb, n, rsb, csb = n, kb, csb, rsb
    if kb != k:
        return None
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    if batch_a == batch_b:
        batch_shape = batch_a
    elif not batch_a:
        batch_shape = batch_b
    elif not batch_b:
        batch_shape = batch_a
    else:
        return None  # broadcasting between two batch shapes: NumPy
    batch = 1
    for d in batch_shape:
        batch *= d
    bsa = _batch_stride(a, batch_a, batch)
    bsb = _batch_stride(b, batch_b, batch)
    if bsa is None or bsb is None:
        return None
    out = xp.empty(batch_shape + (m, n), a.dtype)
    if out.size == 0:
        return out
    work = _scratch.get(lib, dtype, m, n, k)
    pa, pb, pc, pw = _ptr(a), _ptr(b), _ptr(out), _ptr(work)
    if threads.wanted(m * n * k * batch) and \
            threads.gemm(lib, dtype, m, n, k, pa, rsa, csa, pb, rsb, csb, pc, batch, bsa, bsb, pw):
        return out
    lib.fn("tg_gemm", dtype)(m, n, k, pa, rsa, csa, pb, rsb, csb, pc, n, batch, bsa, bsb, m * n, pw)
    return out


def _batch_stride(a, batch_shape, batch):
    """Element stride between consecutive matrices of ``a`` (0 for a single matrix shared by the
    whole batch), or None when its batch axes do not collapse into one stride."""
    if not batch_shape or batch <= 1:
        return 0
    step = a.strides[a.ndim - 3]
    expected = step
    for axis in range(a.ndim - 4, -1, -1):  # each outer axis steps over the inner ones
        expected *= a.shape[axis + 1]
        if a.shape[axis] > 1 and a.strides[axis] != expected:
            return None
    if step % a.itemsize:
        return None
    return step // a.itemsize


# --------------------------------------------------------------------------- elementwise

def _broadcast_mode(a, b):
    """(mode, m, n, out_shape) for the broadcast patterns the kernels take, else None."""
    sa, sb = a.shape, b.shape
    if sa == sb:
        return "same", 1, a.size, sa
    if b.size == 1 and b.ndim <= a.ndim:
        return "b_scalar", 1, a.size, sa
    if a.size == 1 and a.ndim <= b.ndim:
        return "a_scalar", 1, b.size, sb
    for big, small, side in ((a, b, "b"), (b, a, "a")):
        bs, ss = big.shape, small.shape
        if big.ndim < 1 or small.ndim > big.ndim:
            continue
        n = bs[-1]
        m = big.size // n if n else 0
        if ss and ss[-1] == n and all(d == 1 for d in ss[:-1]):
            return f"{side}_row", m, n, bs
        if big.ndim >= 2 and small.ndim == big.ndim and ss[-1] == 1 and ss[:-1] == bs[:-1]:
            return f"{side}_col", m, n, bs
    return None


def binary(lib, op, a, b):
    """``a op b`` (op: add, sub, mul, div, max, min) with NumPy broadcasting, for the patterns
    same shape, one scalar, a row repeated over rows, a column repeated over columns."""
    if not (isinstance(a, xp.ndarray) and isinstance(b, xp.ndarray)):
        return None
    dtype = _dtype(a, b)
    if dtype is None:
        return None
    fit = _broadcast_mode(a, b)
    if fit is None:
        return None
    mode, m, n, shape = fit
    out = xp.empty(shape, a.dtype)
    if out.size:
        lib.fn("tg_binary", dtype)(library.BINARY_OPS[op], library.MODES[mode], m, n,
                                   _ptr(a), _ptr(b), _ptr(out))
    return out


def unary(lib, op, a):
    """``op(a)`` for op: neg, abs, square, sqrt, relu (= maximum(a, 0))."""
    dtype = _dtype(a)
    if dtype is None:
        return None
    out = xp.empty(a.shape, a.dtype)
    if out.size:
        lib.fn("tg_unary", dtype)(library.UNARY_OPS[op], a.size, _ptr(a), _ptr(out))
    return out


# --------------------------------------------------------------------------- reductions

def reduce(lib, op, x, axes, keepdims):
    """sum / max / mean of ``x`` over ``axes`` (None: all), when the axes are a trailing or a
    leading run of axes (so x is an m x n matrix reduced over its rows or columns)."""
    dtype = _dtype(x)
    if dtype is None:
        return None
    nd = x.ndim
    axes = tuple(range(nd)) if axes is None else tuple(sorted(a % nd for a in axes)) if nd else ()
    if not axes:
        return None
    shape = x.shape
    if axes == tuple(range(nd - len(axes), nd)):       # trailing: rows of n
        kind, split = library.ROWS, nd - len(axes)
    elif axes == tuple(range(len(axes))):              # leading: columns
        kind, split = library.COLS, len(axes)
    else:
        return None
    m = 1
    for d in shape[:split]:
        m *= d
    n = 1
    for d in shape[split:]:
        n *= d
    reduced_count = n if kind == library.ROWS else m
    if reduced_count == 0 or x.size == 0:
        return None  # empty reductions: NumPy's values, warnings and errors
    kept = tuple(1 if i in axes else d for i, d in enumerate(shape))
    out_shape = kept if keepdims else tuple(d for i, d in enumerate(shape) if i not in axes)
    out = xp.empty(out_shape, x.dtype)
    lib.fn("tg_reduce", dtype)(library.REDUCE_OPS[op], kind, m, n, _ptr(x), _ptr(out))
    return out if out.ndim else out[()]  # a 0-d result is a NumPy scalar, as NumPy returns


# --------------------------------------------------------------------------- fused rules

def _fused_pair(lib, name, g, other):
    dtype = _dtype(g, other)
    if dtype is None or g.shape != other.shape:
        return None
    out = xp.empty(g.shape, g.dtype)
    if out.size:
        lib.fn(name, dtype)(g.size, _ptr(g), _ptr(other), _ptr(out))
    return out


def sigmoid_grad(lib, g, y):
    """``g * (y * (1 - y))`` for y = sigmoid(x)."""
    return _fused_pair(lib, "tg_sigmoid_grad", g, y)


def tanh_grad(lib, g, y):
    """``g * (1 - y * y)`` for y = tanh(x)."""
    return _fused_pair(lib, "tg_tanh_grad", g, y)


def relu_grad(lib, g, x):
    """``g`` where ``x > 0``, else 0."""
    return _fused_pair(lib, "tg_relu_grad", g, x)


def softplus_grad(lib, g, x):
    """``g * sigmoid(x)``."""
    return _fused_pair(lib, "tg_softplus_grad", g, x)


def softmax_xent_grad(lib, logits, labels, g):
    """TensorFlow's gradient of ``-sum(labels * log_softmax(logits), -1)`` with respect to the
    logits, times ``g`` (one value per row): ``g[..., None] * (softmax(logits) - labels)``.
    ``g`` (m values beside m * n) is copied when it is not contiguous (a broadcast upstream
    gradient, as the backward of a sum or a mean hands down)."""
    if isinstance(g, (xp.ndarray, xp.generic)):
        g = xp.asarray(g)
        if not g.flags.c_contiguous:
            g = g.copy()
    dtype = _dtype(logits, labels, g)
    if dtype is None or logits.shape != labels.shape or logits.ndim < 1 \
            or g.shape != logits.shape[:-1] or logits.shape[-1] == 0:
        return None
    out = xp.empty(logits.shape, logits.dtype)
    n = logits.shape[-1]
    if out.size:
        lib.fn("tg_softmax_xent_grad", dtype)(logits.size // n, n, _ptr(logits), _ptr(labels),
                                              _ptr(g), _ptr(out))
    return out


def _row_labels(logits, labels):
    """(rows, classes, int64 labels) when ``logits`` (float32/float64, C-contiguous, at least one
    class) and integer ``labels`` of shape ``logits.shape[:-1]`` fit the sparse kernels, else
    None. The labels must already be checked to lie in [0, classes)."""
    if _dtype(logits) is None or logits.ndim < 1 or logits.shape[-1] == 0 \
            or getattr(labels, "shape", None) != logits.shape[:-1]:
        return None
    n = logits.shape[-1]
    return logits.size // n, n, xp.ascontiguousarray(labels, dtype=xp.int64)


def sparse_xent_loss(lib, logits, labels, keep=False):
    """``-log_softmax(logits)[..., label]`` as ``(loss, exps, sums)``: one pass per row for the
    sum of exponentials and the label's shifted logit, then ``log(sum) - picked`` (m logarithms in
    NumPy). With ``keep``, ``exps`` holds every row's exponentials (for sparse_xent_grad_exp),
    else None."""
    fit = _row_labels(logits, labels)
    if fit is None:
        return None
    m, n, lab = fit
    dt = logits.dtype
    sums, picked = xp.empty(m, dt), xp.empty(m, dt)
    whole = keep or n < 16                          # short rows: exp over the whole block
    scratch = xp.empty(m * n if whole else n, dt)
    if m:
        lib.fn("tg_sparse_xent_fwd", _float_name(dt))(m, n, _ptr(logits), _ptr(lab), _ptr(scratch),
                                                      n if whole else 0, _ptr(sums), _ptr(picked))
    loss = (xp.log(sums) - picked).reshape(logits.shape[:-1])
    return loss, (scratch.reshape(logits.shape) if keep else None), sums


def _row_gradient(g, rows_shape):
    """``g`` as a C-contiguous array of ``rows_shape``, or None."""
    if isinstance(g, (xp.ndarray, xp.generic)):
        g = xp.asarray(g)
        if not g.flags.c_contiguous:
            g = g.copy()
    return g if getattr(g, "shape", None) == rows_shape else None


def sparse_xent_grad(lib, logits, labels, g):
    """``g[..., None] * (softmax(logits) - onehot(labels))`` without building the one-hot."""
    fit = _row_labels(logits, labels)
    g = _row_gradient(g, logits.shape[:-1])
    if fit is None or g is None or g.dtype != logits.dtype:
        return None
    m, n, lab = fit
    out = xp.empty(logits.shape, logits.dtype)
    if out.size:
        lib.fn("tg_sparse_xent_grad", _float_name(logits.dtype))(m, n, _ptr(logits), _ptr(lab),
                                                                 _ptr(g), _ptr(out))
    return out


def sparse_xent_grad_exp(lib, exps, sums, labels, g):
    """The same gradient from what ``sparse_xent_loss(..., keep=True)`` kept (``exps`` is
    overwritten with the result): bit for bit sparse_xent_grad's, with no exponentials."""
    fit = _row_labels(exps, labels)
    g = _row_gradient(g, exps.shape[:-1])
    if fit is None or g is None or g.dtype != exps.dtype:
        return None
    m, n, lab = fit
    if exps.size:
        lib.fn("tg_sparse_xent_grad_exp", _float_name(exps.dtype))(m, n, _ptr(exps), _ptr(sums),
                                                                   _ptr(lab), _ptr(g), _ptr(exps))
    return exps


def sgd_momentum(lib, w, g, m, lr, momentum, nesterov):
    """Updates the momentum slot ``m`` in place and returns the new weights (see SGD)."""
    dtype = _dtype(w, g, m)
    if dtype is None or not (w.shape == g.shape == m.shape) or not m.flags.writeable:
        return None
    out = xp.empty(w.shape, w.dtype)
    lib.fn("tg_sgd_momentum", dtype)(w.size, _ptr(w), _ptr(g), _ptr(m), _ptr(out), lr, momentum,
                                     int(bool(nesterov)))
    return out


def adam(lib, w, g, m, v, b1c, b2c, alpha, eps):
    """Updates the moment slots ``m`` and ``v`` in place and returns the new weights (see Adam)."""
    dtype = _dtype(w, g, m, v)
    if dtype is None or not (w.shape == g.shape == m.shape == v.shape) \
            or not (m.flags.writeable and v.flags.writeable):
        return None
    out = xp.empty(w.shape, w.dtype)
    lib.fn("tg_adam", dtype)(w.size, _ptr(w), _ptr(g), _ptr(m), _ptr(v), _ptr(out), b1c, b2c,
                             alpha, eps)
    return out


# --------------------------------------------------------------------------- windows (NHWC)

_geometries = {}


def _geometry(shape, ksize, strides, dilations, pads, out_hw):
    """The 14 integers the window kernels take (windows.c), kept per geometry (training repeats
    a few)."""
    key = (shape, ksize, strides, dilations, pads, out_hw)
    geo = _geometries.get(key)
    if geo is None:
        if len(_geometries) >= 64:
            _geometries.clear()
        geo = _geometries[key] = xp.array(
            list(shape) + list(ksize) + list(strides) + list(dilations) + [pads[0][0], pads[1][0]]
            + list(out_hw), dtype=xp.int64)
    return geo


def im2col(lib, x, ksize, strides, dilations, pads, out_hw, fill):
    """Every window of the NHWC image ``x`` as (n, oh, ow, kh, kw, c); entries outside ``x`` are
    ``fill``."""
    dtype = _dtype(x)
    if dtype is None or x.ndim != 4:
        return None
    cols = xp.empty((x.shape[0],) + tuple(out_hw) + tuple(ksize) + (x.shape[3],), x.dtype)
    if cols.size:
        lib.fn("tg_im2col", dtype)(_ptr(_geometry(x.shape, ksize, strides, dilations, pads, out_hw)),
                                   _ptr(x), _ptr(cols), float(fill))
    return cols


def col2im(lib, cols, ksize, strides, dilations, pads, out_hw, in_hw):
    """The windows ``cols`` (n, oh, ow, kh, kw, c) added back into an (n, h, w, c) image."""
    dtype = _dtype(cols)
    if dtype is None or cols.ndim != 6 or cols.shape[1:5] != tuple(out_hw) + tuple(ksize):
        return None
    shape = (cols.shape[0],) + tuple(in_hw) + (cols.shape[5],)
    img = xp.empty(shape, cols.dtype)
    if img.size:
        lib.fn("tg_col2im", dtype)(_ptr(_geometry(shape, ksize, strides, dilations, pads, out_hw)),
                                   _ptr(cols), _ptr(img))
    return img


def max_pool(lib, x, ksize, strides, dilations, pads, out_hw):
    """``(out, idx)``: each window's first maximum (NaN the largest) and its flat index into
    ``x`` (intp, as NumPy's indices), or None, also when a maximum lies in the padding (NumPy's index for it points
    outside the window, which NumPy then reproduces)."""
    dtype = _dtype(x)
    if dtype is None or x.ndim != 4 or not x.size:
        return None
    shape = (x.shape[0],) + tuple(out_hw) + (x.shape[3],)
    out, idx = xp.empty(shape, x.dtype), xp.empty(shape, xp.intp)
    if out.size and lib.fn("tg_max_pool", dtype)(
            _ptr(_geometry(x.shape, ksize, strides, dilations, pads, out_hw)), _ptr(x), _ptr(out),
            _ptr(idx)):
        return None
    return out, idx


def max_pool_grad(lib, idx, g, shape, apart):
    """An array of ``shape`` with ``g`` added at the flat positions ``idx`` (intp, g's size):
    stored (``apart``: no position twice) or summed in double as NumPy's bincount."""
    dtype = _dtype(g)
    if dtype is None or not isinstance(idx, xp.ndarray) or idx.dtype != xp.intp \
            or not idx.flags.c_contiguous or idx.size != g.size:
        return None
    dx = xp.empty(shape, g.dtype)
    acc = None if apart else (dx if dtype == "float64" else xp.empty(shape, xp.float64))
    if dx.size and lib.fn("tg_max_pool_grad", dtype)(
            g.size, _ptr(idx), _ptr(g), dx.size, _ptr(dx), None if acc is None else _ptr(acc)):
        return None
    return dx
