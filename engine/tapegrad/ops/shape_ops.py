"""Shape ops: split, tile, pad, reverse, einsum, tensordot, and the shape helpers of the
top-level ``tf`` namespace (``shape_n``, ``ensure_shape``, ``get_static_value``,
``broadcast_dynamic_shape``, ``broadcast_static_shape``).

``Tile``, ``Pad`` and ``ReverseV2`` are linear primitives (their forward rule is themselves);
``Einsum`` is multilinear (its rules are einsums); ``split`` and ``tensordot`` are composites.
"""
import string

from ..backend import xp
from ..checks import check_dtype
from .. import checks
from ..errors import InvalidArgumentError
from ..recording import bind
from .. import dtypes
from ..ground import add, as_shape as _as_shape, broadcast_to, fmt_shape, reduce_sum, reshape
from ..table import deflinear, defjvp, defvjp, primitive
from ..checks.dtype_rules import ANY, NOT_STRING
from .. import convert
from ..tensor import Tensor, TensorShape, VariableBase, wrap
from .arithmetic_ops import identity
from .array_ops import concat, getitem
from .matmul_ops import MATMUL
from .. import batching
from ..ground import reshape_to
from ..batching import own_vjp
from .. import shape_rules
from ..table import defshape


def _contiguous(a):
    """A C-ordered array of the same shape (``ascontiguousarray`` would make 0-d arrays 1-d)."""
    a = xp.asarray(a)
    return a if a.ndim == 0 or a.flags.c_contiguous else xp.ascontiguousarray(a)


def _shape(x):
    return tuple(x._value.shape)


# -- split ----------------------------------------------------------------------------------------
def split(value, num_or_size_splits, axis=0, num=None, name=None):
    """Pieces of ``value`` along ``axis``: ``n`` equal ones, or of the given sizes (one may be -1).

    >>> import tapegrad as tf
    >>> [p.numpy().tolist() for p in tf.split([1., 2., 3., 4.], [1, 3])]
    [[1.0], [2.0, 3.0, 4.0]]
    """
    x = convert.tensor(value)
    axis = checks.axis("Split", axis, x._value.ndim)
    n = _shape(x)[axis]
    if isinstance(num_or_size_splits, int) or getattr(num_or_size_splits, "ndim", 1) == 0:
        k = int(num_or_size_splits)
        if k <= 0:
            raise InvalidArgumentError(f"Value for attr 'num_split' of {k} must be at least "
                                       f"minimum 1 [Op:Split]")
        if n % k:
            raise InvalidArgumentError(f"Number of ways to split should evenly divide the split "
                                       f"dimension, but got split_dim {axis} (size = {n}) and "
                                       f"num_split {k} [Op:Split]")
        sizes = [n // k] * k
    else:
        sizes = [int(s) for s in (num_or_size_splits._value.tolist()
                                  if hasattr(num_or_size_splits, "_value") else num_or_size_splits)]
        if sizes.count(-1) > 1:
            raise ValueError("split: at most one size may be -1")
        if -1 in sizes:
            sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise InvalidArgumentError(f"Determined shape must either match input shape along "
                                       f"split_dim exactly if fully specified, or be less than the "
                                       f"size of the input along split_dim if not fully specified."
                                       f"  Got: {sum(sizes)} (sizes {sizes}, dimension {n}) "
                                       f"[Op:SplitV]")
    out, start = [], 0
    for s in sizes:
        out.append(getitem(x, (slice(None),) * axis + (slice(start, start + s),)))
        start += s
    return out


# -- tile -----------------------------------------------------------------------------------------
TILE = primitive("Tile", lambda x, multiples: xp.tile(x, multiples), dtypes=ANY)
defshape(TILE, shape_rules.tile)


def _tile_transpose(g, ans, x, multiples):
    """Sums the copies: view g as (m0, d0, m1, d1, ...), after any leading rows (``own_vjp``),
    and sum the m axes."""
    lead = batching.lead_of(g, ans)
    split_shape = list(_shape(g)[:lead])
    for m, d in zip(multiples, _shape(x)):
        split_shape += [m, d]
    return reduce_sum(reshape_to(g, tuple(split_shape)),
                      axis=tuple(range(lead, lead + 2 * len(multiples), 2)))


deflinear(TILE, _tile_transpose)


def tile(input, multiples, name=None):  # noqa: A002
    """``input`` repeated ``multiples[i]`` times along axis ``i``."""
    x = convert.tensor(input)
    m = _as_shape(multiples)
    if len(m) != x._value.ndim:
        raise InvalidArgumentError(f"Expected multiples argument to be a vector of length "
                                   f"{x._value.ndim} but got length {len(m)} [Op:Tile]")
    if any(v < 0 for v in m):
        raise InvalidArgumentError(f"Expected multiples[i] >= 0, but got {list(m)} [Op:Tile]")
    return bind(TILE, (x,), {"multiples": m})


# -- reverse --------------------------------------------------------------------------------------
REVERSE = primitive("ReverseV2", lambda x, axes: _contiguous(xp.flip(x, axes)), dtypes=ANY)
deflinear(REVERSE, lambda g, ans, x, axes: bind(REVERSE, (g,), {
    "axes": tuple(a + batching.lead_of(g, ans) for a in axes)}))
defshape(REVERSE, shape_rules.same)


def reverse(tensor, axis, name=None):
    """``tensor`` with the order of entries along each of ``axis`` reversed."""
    x = convert.tensor(tensor)
    nd = x._value.ndim
    if isinstance(axis, float):     # cannot become an int32 tensor: a TypeError, as in TF
        checks.axis("ReverseV2", axis, nd)
    if x._value.size == 0:          # TensorFlow returns an empty input before checking 'axis'
        return x
    if not isinstance(axis, (list, tuple)) and getattr(getattr(axis, "_value", axis), "ndim",
                                                       0) != 1:
        raise checks.invalid("ReverseV2", f"reverse: 'axis' must be a list (1-D), got {axis!r} "
                             f"('dims' must be 1-dimension, not 0)")
    axes = checks.axes("ReverseV2", axis, nd)
    return bind(REVERSE, (x,), {"axes": tuple(sorted(set(axes)))})


# -- pad --------------------------------------------------------------------------------------------
def _pad_impl(x, paddings, value):
    return xp.pad(x, paddings, mode="constant", constant_values=value)


PAD = primitive("Pad", _pad_impl, dtypes=ANY)
defshape(PAD, shape_rules.pad)


def _unpad(g, ans, x, paddings, value):
    lead = (slice(None),) * batching.lead_of(g, ans)
    return getitem(g, lead + tuple(slice(b, b + d) for (b, _), d in zip(paddings, _shape(x))))


defvjp(PAD, _unpad)
defjvp(PAD, lambda t, ans, x, paddings, value: bind(PAD, (t,), {"paddings": paddings,
                                                                 "value": 0}))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pads each axis with ``paddings[i] = [before, after]`` entries.

    ``mode`` is 'CONSTANT' (with ``constant_values``), 'REFLECT' (mirror without the edge) or
    'SYMMETRIC' (mirror with the edge), as in TensorFlow.
    """
    x = convert.tensor(tensor)
    pads = paddings._value.tolist() if hasattr(paddings, "_value") else paddings
    layout = xp.shape(pads)
    if len(layout) != 2 or layout[1] != 2:
        raise InvalidArgumentError(f"paddings must be a matrix with 2 columns: "
                                   f"{fmt_shape(layout)} [Op:PadV2]")
    pads = tuple((int(b), int(a)) for b, a in pads)
    nd = x._value.ndim
    if len(pads) != nd:
        raise InvalidArgumentError(f"The first dimension of paddings must be the rank of inputs"
                                   f"[{len(pads)},2] {_as_shape(_shape(x))} [Op:PadV2]")
    if any(b < 0 or a < 0 for b, a in pads):
        raise InvalidArgumentError(f"Paddings must be non-negative: {list(pads)} [Op:PadV2]")
    m = str(mode).upper()
    if m == "CONSTANT":
        value = convert.tensor(constant_values)._value.astype(x._value.dtype)[()]
        return bind(PAD, (x,), {"paddings": pads, "value": value})
    if m not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"pad: unsupported value for argument 'mode': {mode!r} (expected "
                         f"'CONSTANT', 'REFLECT' or 'SYMMETRIC')")
    # Mirrors are slices, reversed and joined: the gradient comes from those primitives.
    edge = 0 if m == "SYMMETRIC" else 1
    out = x
    for axis, (before, after) in enumerate(pads):
        n = _shape(out)[axis]
        limit = n - edge
        if before > limit or after > limit:
            raise InvalidArgumentError(f"paddings must be no greater than the dimension size: "
                                       f"{before}, {after} greater than {limit} [Op:MirrorPad]")
        pre = (slice(None),) * axis
        parts = []
        if before:
            parts.append(reverse(getitem(out, pre + (slice(edge, edge + before),)), [axis]))
        parts.append(out)
        if after:
            parts.append(reverse(getitem(out, pre + (slice(n - edge - after, n - edge),)), [axis]))
        if len(parts) > 1:
            out = concat(parts, axis=axis)
    return out


# -- einsum ------------------------------------------------------------------------------------------
def _parse_einsum(equation, operands):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs, out = eq, None
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: the equation {equation!r} names {len(terms)} operands, but "
                         f"{len(operands)} were given")
    used = set(c for c in eq if c.isalpha())
    free = [c for c in string.ascii_letters if c not in used]
    n_ell = max((len(_shape(x)) - (len(t) - 3) for t, x in zip(terms, operands) if "..." in t),
                default=0)
    ell = "".join(free[:n_ell])
    new_terms = []
    for t, x in zip(terms, operands):
        if "..." in t:
            k = len(_shape(x)) - (len(t) - 3)
            t = t.replace("...", ell[n_ell - k:] if k else "")
        if len(t) != len(_shape(x)):
            raise ValueError(f"einsum: term {t!r} does not match operand of shape {_shape(x)}")
        if len(set(t)) != len(t):
            raise NotImplementedError(f"einsum: a subscript repeated within one operand ({t!r}, "
                                      f"a diagonal or trace) is not implemented; use "
                                      f"tf.linalg.diag_part or tf.linalg.trace")
        if not all(c.isalpha() for c in t):
            raise ValueError(f"einsum: invalid subscripts in {equation!r}")
        new_terms.append(t)
    if out is None:
        counts = {}
        for t in new_terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    else:
        out = out.replace("...", ell)
    if len(set(out)) != len(out) or any(c not in "".join(new_terms) for c in out):
        raise ValueError(f"einsum: invalid output subscripts in {equation!r}")
    return new_terms, out


def _einsum_impl(*xs, terms, out):
    return _contiguous(xp.einsum(",".join(terms) + "->" + out, *xs))


EINSUM = primitive("Einsum", _einsum_impl, dtypes=NOT_STRING.no_kernel("bool"))
defshape(EINSUM, shape_rules.einsum)


def _free_letters(n, *specs):
    """``n`` letters that none of ``specs`` uses (for the rows of a batched rule)."""
    free = [c for c in "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba"
            if c not in set("".join(specs))]
    if len(free) < n:
        raise batching.NotBatchable("no letter left for the rows")
    return "".join(free[:n])


def _einsum_vjp(g, ans, inputs, attrs, wanted):
    """Operand i's gradient: the einsum of g with the other operands, giving i's subscripts;
    letters found only in operand i are broadcast back; size-1 (broadcast) axes are summed. Rows
    of ``g`` beyond ``ans`` (``own_vjp``) get letters of their own and stay in front."""
    terms, out = attrs["terms"], attrs["out"]
    lead_shape = _shape(g)[:batching.lead_of(g, ans)]
    rows = _free_letters(len(lead_shape), out, *terms)
    result = []
    for i, (x, w) in enumerate(zip(inputs, wanted)):
        if not w:
            result.append(None)
            continue
        others = [t for j, t in enumerate(terms) if j != i]
        known = set(out).union(*others) if others else set(out)
        target = "".join(c for c in terms[i] if c in known)
        sizes = {}
        for t, y in zip([out] + others, [ans] + [v for j, v in enumerate(inputs) if j != i]):
            for c, d in zip(t, _shape(y)):
                sizes[c] = max(sizes.get(c, 1), d)
        r = bind(EINSUM, (g,) + tuple(v for j, v in enumerate(inputs) if j != i),
                 {"terms": (rows + out,) + tuple(others), "out": rows + target})
        full = tuple(sizes.get(c, 1) if c in known else 1 for c in terms[i])
        r = reshape_to(r, lead_shape + full)
        shape = _shape(x)
        axes = tuple(k + len(lead_shape) for k, (a, b) in enumerate(zip(full, shape))
                     if a != b and b == 1)
        if axes:
            r = reduce_sum(r, axis=axes, keepdims=True)
        result.append(broadcast_to(r, lead_shape + shape))
    return result


def _einsum_jvp(tangents, ans, inputs, attrs):
    total = None
    for i, t in enumerate(tangents):
        if t is None:
            continue
        ops = tuple(t if j == i else x for j, x in enumerate(inputs))
        term = bind(EINSUM, ops, attrs)
        total = term if total is None else add(total, term)
    return None if total is None else broadcast_to(total, _shape(ans))


EINSUM.vjp = _einsum_vjp
EINSUM.jvp = _einsum_jvp


def einsum(equation, *inputs, **kwargs):
    """Einstein summation, e.g. ``tf.einsum('ij,jk->ik', a, b)``; '...' is supported, and size-1
    axes broadcast. A letter repeated within one operand (diagonals) is not implemented.

    >>> import tapegrad as tf
    >>> float(tf.einsum('i,i->', [1., 2.], [3., 4.]))
    11.0
    """
    xs = convert.same_dtype(list(inputs), "Einsum")
    terms, out = _parse_einsum(equation, xs)
    return bind(EINSUM, tuple(xs), {"terms": tuple(terms), "out": out})


# -- tensordot ---------------------------------------------------------------------------------------
def tensordot(a, b, axes, name=None):
    """Sum over ``axes`` of ``a`` and ``b`` (an int n: the last n of a with the first n of b;
    or a pair of axis lists)."""
    x, y = convert.binary(a, b, "Tensordot")
    check_dtype(MATMUL, x)                   # TensorFlow's tensordot is a MatMul
    nx, ny = x._value.ndim, y._value.ndim
    if isinstance(axes, int) or getattr(axes, "ndim", 1) == 0:
        n = int(axes)
        if n < 0 or n > min(nx, ny):
            raise ValueError(f"tensordot: 'axes' must be at most the rank of both tensors, got "
                             f"{n}")
        ax, bx = list(range(nx - n, nx)), list(range(n))
    else:
        ax, bx = axes
        ax = [int(ax)] if isinstance(ax, int) else [int(v) for v in ax]
        bx = [int(bx)] if isinstance(bx, int) else [int(v) for v in bx]
        if len(ax) != len(bx):
            raise ValueError(f"tensordot: 'axes' lists have different lengths: {ax} vs {bx}")
    ax = [v % nx for v in ax]
    bx = [v % ny for v in bx]
    for i, j in zip(ax, bx):
        if _shape(x)[i] != _shape(y)[j]:
            raise InvalidArgumentError(f"tensordot: contracted dimensions differ: a.shape[{i}] = "
                                       f"{_shape(x)[i]} vs b.shape[{j}] = {_shape(y)[j]}")
    letters = iter(string.ascii_letters)
    ta = [next(letters) for _ in range(nx)]
    tb = [next(letters) for _ in range(ny)]
    for i, j in zip(ax, bx):
        tb[j] = ta[i]
    out = "".join(c for k, c in enumerate(ta) if k not in ax) + \
        "".join(c for k, c in enumerate(tb) if k not in bx)
    return bind(EINSUM, (x, y), {"terms": ("".join(ta), "".join(tb)), "out": out})


# -- shapes -------------------------------------------------------------------------------------
def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The shapes of several tensors, as a list of 1-D tensors.

    >>> import tapegrad as tf
    >>> [s.numpy().tolist() for s in tf.shape_n([tf.zeros([1, 2]), tf.constant(3.0)])]
    [[1, 2], []]
    """
    dt = dtypes.as_dtype(out_type)._np
    return [wrap(xp.asarray(convert.tensor(t)._value.shape, dt)) for t in input]


def ensure_shape(x, shape, name=None):
    """``x`` unchanged if its shape fits ``shape`` (``None`` for any size), else an
    ``InvalidArgumentError``.

    >>> import tapegrad as tf
    >>> tf.ensure_shape(tf.zeros([2, 3]), [None, 3]).shape
    TensorShape([2, 3])
    """
    t = convert.tensor(x)
    given = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    if given.rank is not None and not checks.fits(given.as_list(), t._value.shape):
        want = "<unknown>" if given.rank is None else \
            "[" + ",".join("?" if d is None else str(d) for d in given.as_list()) + "]"
        raise InvalidArgumentError(f"Shape of tensor input {fmt_shape(t._value.shape)} is not compatible "
                                   f"with expected shape {want}. [Op:EnsureShape]")
    return identity(t)


def get_static_value(tensor, partial=False):
    """The NumPy value of a tensor known now (always, in eager code); ``None`` for a variable;
    other values unchanged.

    >>> import tapegrad as tf
    >>> tf.get_static_value(tf.constant([1, 2])).tolist()
    [1, 2]
    """
    if isinstance(tensor, VariableBase):      # its value may change: TensorFlow says None
        return None
    if isinstance(tensor, Tensor):
        return tensor.numpy()
    return tensor


def _shape_list(s, op):
    a = xp.asarray(convert.tensor(s)._value)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{op}: a shape must be a 1-D int32 or int64 tensor, got "
                                   f"{a.dtype} of shape {fmt_shape(a.shape)}")
    return a


def _broadcast_dims(x, y):
    """NumPy's broadcasting of two shapes (``None`` for an unknown size), or None if they clash."""
    x, y = list(x), list(y)
    n = max(len(x), len(y))
    x, y = [1] * (n - len(x)) + x, [1] * (n - len(y)) + y
    out = []
    for a, b in zip(x, y):
        if a == 1:
            out.append(b)
        elif b == 1 or a == b:
            out.append(a)
        elif a is None or b is None:
            out.append(a if b is None else b)
        else:
            return None
    return out


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape two shapes broadcast to, as a 1-D tensor.

    >>> import tapegrad as tf
    >>> tf.broadcast_dynamic_shape([1, 2, 3], [5, 1, 3]).numpy().tolist()
    [5, 2, 3]
    """
    a, b = _shape_list(shape_x, "BroadcastArgs"), _shape_list(shape_y, "BroadcastArgs")
    dims = _broadcast_dims(a.tolist(), b.tolist())
    if dims is None:
        raise InvalidArgumentError(f"Incompatible shapes: {fmt_shape(a.tolist())} vs. "
                                   f"{fmt_shape(b.tolist())} [Op:BroadcastArgs]")
    return wrap(xp.asarray(dims, xp.result_type(a.dtype, b.dtype)))


def broadcast_static_shape(shape_x, shape_y):
    """The ``TensorShape`` two ``TensorShape``s broadcast to (``ValueError`` if they clash).

    >>> import tapegrad as tf
    >>> tf.broadcast_static_shape(tf.TensorShape([1, 2]), tf.TensorShape([3, 1]))
    TensorShape([3, 2])
    """
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.rank is None or y.rank is None:
        return TensorShape(None)
    dims = _broadcast_dims(x.as_list(), y.as_list())
    if dims is None:
        raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if for "
                         f"each dimension pair they are either equal or one of them is 1. Received:"
                         f" {x} and {y}.")
    return TensorShape(dims)


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
own_vjp(REVERSE, TILE, PAD, EINSUM)
