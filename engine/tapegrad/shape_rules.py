"""Shape rules (abstract evaluation): what a primitive gives for inputs known only by shape and dtype.

A primitive's shape rule is ``rule(specs, attrs) -> Spec or tuple of Specs``: ``specs`` holds one
``Spec(shape, dtype)`` per input, where ``shape`` is a tuple of sizes with ``None`` for an unknown
dimension (or ``None`` itself for an unknown rank) and ``dtype`` a ``tapegrad.dtypes.DType``;
``attrs`` are the attributes the primitive's implementation takes. A rule answers what
TensorFlow's graph construction answers: unknown where the result depends on values, and
TensorFlow's ``ValueError`` (its wording) for inputs no value could make work.

``table.defshape(PRIM, rule)`` declares a rule beside the primitive's other rules. Most rules are
made here: ``same``, ``broadcasting``, ``comparison``, ``reduction``, ``matmul``, ... A rule
raises ``Mismatch(core)``; the rule ``defshape`` installs turns it into TensorFlow's full message::

    Dimensions must be equal, but are 2 and 3 for '{{node AddV2}} = AddV2[T=DT_FLOAT](x, y)'
    with input shapes: [2], [3].

>>> from tapegrad import dtypes
>>> from tapegrad.shape_rules import Spec, broadcasting
>>> broadcasting(Spec((None, 1, 3), dtypes.float32), Spec((4, 3), dtypes.float32))
Spec(shape=(None, 4, 3), dtype=tf.float32)
"""
from collections import namedtuple

from . import dtypes
from .backend import xp

_DT = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE", "float16": "DT_HALF", "bool": "DT_BOOL"}


class Spec(namedtuple("Spec", "shape dtype")):
    """A tensor known by its shape (a tuple with ``None`` dims, or ``None``) and dtype only."""
    __slots__ = ()

    @property
    def rank(self):
        return None if self.shape is None else len(self.shape)


def spec(shape, dtype):
    """A ``Spec`` from any shape-like (list, tuple, None) and any dtype-like."""
    return Spec(None if shape is None else tuple(None if d is None else int(d) for d in shape),
                dtypes.as_dtype(dtype))


def of_value(array):
    """The ``Spec`` of an array (or anything with ``.shape`` and a NumPy ``.dtype``)."""
    return Spec(tuple(array.shape), dtypes.as_dtype(array.dtype))


def unknown_dims(s):
    """``s`` with every dimension unknown (its rank kept)."""
    return s if s.shape is None else Spec((None,) * len(s.shape), s.dtype)


def is_compatible(inferred, actual):
    """Whether the shape and dtype a rule inferred allow the actual (fully known) ``Spec``."""
    if inferred.dtype != actual.dtype:
        return False
    if inferred.shape is None:
        return True
    return len(inferred.shape) == len(actual.shape) and all(
        a is None or a == b for a, b in zip(inferred.shape, actual.shape))


class Mismatch(ValueError):
    """Inputs no values could make work. ``core`` is the first sentence of TensorFlow's message;
    ``extra`` the shapes of the inputs TensorFlow has and the primitive takes as attributes
    (``("Sum/reduction_indices", "[1]")``); ``tail`` what TensorFlow says it computed."""

    def __init__(self, core, extra=(), tail=""):
        super().__init__(core)
        self.core, self.extra, self.tail = core, extra, tail


def shape_text(s):
    if s.shape is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in s.shape) + "]"


def dtype_enum(d):
    d = dtypes.as_dtype(d)
    return _DT.get(d.name, "DT_" + d.name.upper())


def graph_message(name, specs, error):
    """TensorFlow's graph-construction message for node ``name`` (named after the op, as
    ``tf.raw_ops`` names it) with inputs ``x, y, z, ...``."""
    names = [_input_name(i) for i in range(len(specs))] + [
        n.format(op=name) for n, *_ in error.extra]
    attrs = [f"T={dtype_enum(specs[0].dtype)}"] + [f"{e[2]}=DT_INT32" for e in error.extra
                                                    if len(e) > 2]
    t = f"[{', '.join(attrs)}]" if specs else ""
    shapes = ", ".join([shape_text(s) for s in specs] + [e[1] for e in error.extra])
    tail = f" and with {error.tail}" if error.tail else ""
    return (f"{error.core} for '{{{{node {name}}}}} = {name}{t}({', '.join(names)})' with input "
            f"shapes: {shapes}{tail}.")


def _input_name(i):
    return "xyzwvu"[i] if i < 6 else f"x_{i}"


def named(name, rule):
    """``rule`` for primitive ``name``: its ``Mismatch`` becomes TensorFlow's ``ValueError``."""
    def shape_rule(specs, attrs):
        try:
            return rule(*specs, **attrs)
        except Mismatch as e:
            raise ValueError(graph_message(name, specs, e)) from None
    shape_rule.rule = rule
    return shape_rule


# Dimensions -----------------------------------------------------------------------------------

def merge_dim(a, b):
    """Two sizes that must be equal (either may be unknown)."""
    if a is None:
        return b
    if b is not None and a != b:
        raise Mismatch(f"Dimensions must be equal, but are {a} and {b}")
    return a


def with_rank(s, rank):
    """``s``'s shape, which must have ``rank`` dimensions (all unknown for an unknown rank)."""
    if s.shape is None:
        return (None,) * rank
    if len(s.shape) != rank:
        raise Mismatch(f"Shape must be rank {rank} but is rank {len(s.shape)}")
    return s.shape


def with_rank_at_least(s, rank):
    """``s``'s shape, which must have at least ``rank`` dimensions (None for an unknown rank)."""
    if s.shape is not None and len(s.shape) < rank:
        raise Mismatch(f"Shape must be at least rank {rank} but is rank {len(s.shape)}")
    return s.shape


def product(dims):
    """The number of elements of known dims; None when one is unknown."""
    n = 1
    for d in dims:
        if d is None:
            return None
        n *= d
    return n


def broadcast_shapes(a, b):
    """TensorFlow's broadcast of two shapes with unknown dimensions (graph mode's rule)."""
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(_broadcast_dim(x, y) for x, y in zip(a, b))


def _broadcast_dim(x, y):
    if x == 1:
        return y
    if y == 1:
        return x
    if x is None:
        return y if y is not None and y > 1 else None
    if y is None:
        return x
    if x != y:
        raise Mismatch(f"Dimensions must be equal, but are {x} and {y}")
    return x


# Rule makers -----------------------------------------------------------------------------------

def same(x, *rest, **attrs):
    """The first input's shape and dtype (elementwise unary ops, identity, clipping, ...)."""
    return x


def same_as(i):
    """The ``i``-th input's shape and dtype."""
    return lambda *specs, **attrs: specs[i]


def with_dtype(dtype, base=same):
    """``base``'s shape with a fixed dtype (``is_nan`` gives bool)."""
    dtype = dtypes.as_dtype(dtype)

    def rule(*specs, **attrs):
        return Spec(base(*specs, **attrs).shape, dtype)
    return rule


def real_of(x, *rest, **attrs):
    """``x``'s shape with the real dtype of a complex one (``abs``, ``real``, ``imag``)."""
    return Spec(x.shape, x.dtype.real_dtype)


def broadcasting(*specs, **attrs):
    """Elementwise binary (or n-ary) ops: the broadcast shape, the first input's dtype."""
    shape = specs[0].shape
    for s in specs[1:]:
        shape = broadcast_shapes(shape, s.shape)
    return Spec(shape, specs[0].dtype)


def broadcasting_last(*specs, **attrs):
    """Broadcast shape with the last input's dtype (``polygamma(a, x)``'s ``x``, select)."""
    return Spec(broadcasting(*specs).shape, specs[-1].dtype)


def comparison(*specs, **attrs):
    """Comparisons and logical ops: the broadcast shape, bool."""
    return Spec(broadcasting(*specs).shape, dtypes.bool)


def cast(x, dtype, **attrs):
    """``x``'s shape in the ``dtype`` attribute."""
    return Spec(x.shape, dtypes.as_dtype(dtype))


def reduced_shape(shape, axes, keepdims):
    """The shape after reducing ``axes`` (None: all); an out-of-range axis is TF's error."""
    if shape is None:
        return None
    rank = len(shape)
    if axes is None:
        axes = range(rank)
    elif isinstance(axes, int):
        axes = (axes,)
    axes, chosen = tuple(axes), set()
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise Mismatch(f"Invalid reduction dimension {a} for input with {rank} dimensions.",
                           (("{op}/reduction_indices", f"[{len(axes)}]", "Tidx"),),f"computed input tensors: input[1] = <{a}>")
        chosen.add(a % rank if rank else 0)
    if keepdims:
        return tuple(1 if i in chosen else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in chosen)


def reduction(x, axes=None, keepdims=False, **attrs):
    """Reductions over ``axes`` (``keepdims`` keeps them as 1s), the input's dtype."""
    return Spec(reduced_shape(x.shape, axes, keepdims), x.dtype)


def bool_reduction(x, axes=None, keepdims=False, **attrs):
    return Spec(reduced_shape(x.shape, axes, keepdims), dtypes.bool)


def arg_reduction(x, axis, dtype, **attrs):
    """``argmax``/``argmin``: ``axis`` removed, the index dtype."""
    return Spec(reduced_shape(x.shape, (axis,), False), dtypes.as_dtype(dtype))


def matmul_shape(a, b, transpose_a=False, transpose_b=False):
    """The batched matrix product's shape: batch dims broadcast, inner dims equal."""
    if a is None or b is None:
        return None
    if len(a) < 2 or len(b) < 2:
        raise Mismatch(f"Shape must be at least rank 2 but is rank {min(len(a), len(b))}")
    m, k = (a[-1], a[-2]) if transpose_a else (a[-2], a[-1])
    k2, n = (b[-1], b[-2]) if transpose_b else (b[-2], b[-1])
    merge_dim(k, k2)
    batch = broadcast_shapes(a[:-2], b[:-2])
    return batch + (m, n)


def matmul(a, b, transpose_a=False, transpose_b=False, **attrs):
    """``matmul`` (rank 2 or batched), with its transpose/adjoint attributes."""
    return Spec(matmul_shape(a.shape, b.shape, transpose_a, transpose_b), a.dtype)


def reshape(x, shape, **attrs):
    """``reshape`` to the ``shape`` attribute (one -1 inferred when the size is known)."""
    shape = tuple(shape)
    if x.shape is None:
        return Spec(tuple(None if d == -1 else d for d in shape), x.dtype)
    total = product(x.shape)
    if -1 in shape:
        rest = product(d for d in shape if d != -1)
        missing = None if total is None or not rest else total // rest
        shape = tuple(missing if d == -1 else d for d in shape)
    elif total is not None and product(shape) != total:
        text = "[" + ",".join(str(d) for d in shape) + "]"
        raise Mismatch(f"Cannot reshape a tensor with {total} elements to shape {text} "
                       f"({product(shape)} elements)", (("{op}/shape", f"[{len(shape)}]", "Tshape"),),
                       f"input tensors computed as partial shapes: input[1] = {text}")
    return Spec(shape, x.dtype)


def fixed_shape(attr):
    """The shape given by attribute ``attr`` (``broadcast_to``, ``scatter_nd``), the first
    non-index input's dtype."""
    def rule(*specs, **attrs):
        return Spec(tuple(attrs[attr]), specs[-1].dtype)
    return rule


def transpose(x, perm, **attrs):
    if x.shape is None:
        return Spec((None,) * len(perm), x.dtype)
    if len(perm) != len(x.shape):
        raise Mismatch(f"Dimension must be {len(x.shape)} but is {len(perm)}",
                       (("{op}/perm", f"[{len(perm)}]", "Tperm"),))
    return Spec(tuple(x.shape[p] for p in perm), x.dtype)


def concat(*xs, axis, **attrs):
    """``concat`` along ``axis``: other dims equal, the axis summed."""
    shapes = [s.shape for s in xs if s.shape is not None]
    if not shapes:
        return Spec(None, xs[0].dtype)
    rank = len(shapes[0])
    extra = (("{op}/axis", "[]", "Tidx"),)
    if not -rank <= axis < rank:
        raise Mismatch(f"Shape must be at least rank {axis + 1 if axis >= 0 else -axis} but is "
                       f"rank {rank}", extra, f"computed input tensors: input[{len(xs)}] = <{axis}>")
    axis %= rank
    rest = shapes[0][:axis] + shapes[0][axis + 1:]
    for s in shapes[1:]:
        if len(s) != rank:
            raise Mismatch(f"Shape must be rank {rank} but is rank {len(s)}", extra)
        other = s[:axis] + s[axis + 1:]
        try:
            rest = tuple(merge_dim(a, b) for a, b in zip(rest, other))
        except Mismatch:
            i = next(i for i, (a, b) in enumerate(zip(rest, other))
                     if a is not None and b is not None and a != b)
            raise Mismatch(
                f"Dimension {i} in both shapes must be equal, but are {rest[i]} and {other[i]}. "
                f"Shapes are {_list(rest)} and {_list(other)}.", extra,
                f"computed input tensors: input[{len(xs)}] = <{axis}>") from None
    sizes = [s[axis] for s in shapes]
    size = sum(sizes) if len(shapes) == len(xs) and None not in sizes else None
    return Spec(rest[:axis] + (size,) + rest[axis:], xs[0].dtype)


def _list(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def stack(*xs, axis, **attrs):
    """``stack`` along a new ``axis``: every input the same shape."""
    shape = None
    for s in xs:
        if s.shape is None:
            continue
        if shape is None:
            shape = s.shape
        elif len(s.shape) != len(shape):
            raise Mismatch(f"Shapes must be equal rank, but are {len(shape)} and {len(s.shape)}")
        else:
            shape = tuple(merge_dim(a, b) for a, b in zip(shape, s.shape))
    if shape is None:
        return Spec(None, xs[0].dtype)
    axis = axis % (len(shape) + 1)
    return Spec(shape[:axis] + (len(xs),) + shape[axis:], xs[0].dtype)


def matrix_batch(x, square=False):
    """``x``'s shape, at least rank 2 (square when asked)."""
    shape = with_rank_at_least(x, 2)
    if shape is not None and square:
        merge_dim(shape[-2], shape[-1])
    return shape


def square_matrix(x, *rest, **attrs):
    """Ops on batches of square matrices giving the same shape (inverse, cholesky, expm)."""
    return Spec(matrix_batch(x, square=True), x.dtype)


def matrix_scalar(x, *rest, **attrs):
    """Determinants: the batch shape of square matrices."""
    shape = matrix_batch(x, square=True)
    return Spec(None if shape is None else shape[:-2], x.dtype)


def _dims(shape, start, stop=None):
    return None if shape is None else tuple(shape[start:stop])


def complex_of(d):
    return dtypes.complex128 if d.name in ("float64", "complex128") else dtypes.complex64


def sliced(x, index, **attrs):
    """``x[index]`` (basic indexing: ints, slices, None, Ellipsis): each unknown dimension is
    tried at three sizes (two large, and 1); an output dimension that differs between them is
    unknown."""
    if x.shape is None:
        return Spec(None, x.dtype)
    results = []
    unknown = sum(d is None for d in x.shape)
    # two large sizes whose product over the unknown dims still fits a 32-bit index (WebAssembly)
    big = max(int(2 ** (30 / max(unknown, 1))), 3)
    for size in (big, big - 1, 1):
        dims = tuple(size if d is None else d for d in x.shape)
        try:
            results.append(_probe(dims)[index].shape)
        except IndexError:
            continue
    if not results or len({len(r) for r in results}) > 1:
        return Spec(None, x.dtype)
    return Spec(tuple(r[0] if len(set(r)) == 1 else None for r in zip(*results)), x.dtype)


def _probe(dims):
    return xp.broadcast_to(xp.zeros((), "b"), dims)   # (a zero-stride view: no data)


def windows(x, ksize, out, **attrs):
    """Sliding windows gathered (N, *out, *ksize, C): ``GatherWindows``, ``Im2Col``."""
    shape = x.shape
    return Spec(None if shape is None else (shape[0],) + tuple(out) + tuple(ksize) + (shape[-1],),
                x.dtype)


def image_sizes(attr):
    """(N, *attrs[attr], C) from a (N, ..., C) input (pools, windows scattered back)."""
    def rule(x, *rest, **attrs):
        shape = x.shape
        return Spec(None if shape is None else (shape[0],) + tuple(attrs[attr]) + (shape[-1],),
                    x.dtype)
    return rule


def convolution(attr):
    """(N, *attrs[attr], out channels): the filter's last dim; the input's depth a multiple of
    the filter's input depth (TensorFlow's message)."""
    def rule(x, w, **attrs):
        if x.shape is not None and w.shape is not None:
            c, k = x.shape[-1], w.shape[-2]
            if c is not None and k and c % k:
                raise Mismatch(f"Depth of input ({c}) is not a multiple of input depth of "
                               f"filter ({k})")
        n = None if x.shape is None else x.shape[0]
        o = None if w.shape is None else w.shape[-1]
        return Spec((n,) + tuple(attrs[attr]) + (o,), x.dtype)
    return rule


def without_axis(x, *rest, axis=-1, **attrs):
    """``x``'s shape with ``axis`` removed (losses over a class axis)."""
    shape = broadcasting(x, *rest[:1]).shape if rest and rest[0].dtype == x.dtype else x.shape
    return Spec(reduced_shape(shape, (axis,), False), x.dtype)


def tile(x, multiples, **attrs):
    return Spec(None if x.shape is None else tuple(
        None if d is None else d * m for d, m in zip(x.shape, multiples)), x.dtype)


def pad(x, paddings, **attrs):
    if x.shape is None:
        return Spec((None,) * len(paddings), x.dtype)
    return Spec(tuple(None if d is None else d + int(p[0]) + int(p[1])
                      for d, p in zip(x.shape, paddings)), x.dtype)


def einsum_shape(terms, out, shapes):
    """The output of ``einsum(terms -> out)`` for the inputs' shapes (no ellipsis)."""
    size = {}
    for term, shape in zip(terms, shapes):
        if shape is None or "." in term:
            return None
        if len(term) != len(shape):
            raise Mismatch(f"Expected dimension {len(term)} at axis 0 of the input shaped "
                           f"{_list(shape)} but got dimension {len(shape)}")
        for letter, d in zip(term, shape):
            before = size.get(letter, 1)
            size[letter] = d if before == 1 else before if d == 1 else merge_dim(before, d)
    return tuple(size.get(letter) for letter in out)


def einsum(*xs, terms, out, **attrs):
    return Spec(einsum_shape(terms, out, [x.shape for x in xs]), xs[0].dtype)


def einsum_one(x, spec, **attrs):
    """A one-operand einsum given as ``"ii->i"`` (diagonals)."""
    term, out = spec.split("->")
    return Spec(einsum_shape((term,), out, [x.shape]), x.dtype)


def segments(data, ids, num_segments, axis=0, **attrs):
    """Unsorted segment reductions: the ids' axes of ``data`` become ``num_segments``."""
    if data.shape is None or ids.shape is None:
        return Spec(None, data.dtype)
    rest = data.shape[axis + len(ids.shape):]
    return Spec(tuple(data.shape[:axis]) + (num_segments,) + tuple(rest), data.dtype)


def gather(params, indices, axis, **attrs):
    if params.shape is None or indices.shape is None:
        return Spec(None, params.dtype)
    axis %= max(len(params.shape), 1)
    return Spec(params.shape[:axis] + indices.shape + params.shape[axis + 1:], params.dtype)


def gather_nd(params, indices, **attrs):
    if params.shape is None or indices.shape is None or indices.shape[-1] is None:
        return Spec(None, params.dtype)
    return Spec(indices.shape[:-1] + params.shape[indices.shape[-1]:], params.dtype)


def solve(a, b, **attrs):
    """Matrix solves: ``a`` square batches, the right-hand side's shape after broadcasting."""
    sa, sb = matrix_batch(a, square=True), with_rank_at_least(b, 2)
    if sa is None or sb is None:
        return Spec(sb if sa is None else None, b.dtype)
    merge_dim(sa[-1], sb[-2])
    return Spec(broadcast_shapes(sa[:-2], sb[:-2]) + sb[-2:], b.dtype)


def eig_values(dtype_of=None):
    """Eigenvalues of square batches: the last axis dropped (complex for a general matrix)."""
    def rule(a, **attrs):
        shape = matrix_batch(a, square=True)
        d = a.dtype if dtype_of is None else dtype_of(a.dtype)
        return Spec(None if shape is None else shape[:-1], d)
    return rule


def decomposition(part):
    """SVD and QR factors of (…, m, n) with ``full_matrices``: ``part`` is "s", "u", "v", "q"
    or "r"."""
    def rule(a, full_matrices=False, **attrs):
        shape = matrix_batch(a)
        if shape is None:
            return Spec(None, a.dtype)
        m, n = shape[-2:]
        k = None if m is None or n is None else min(m, n)
        tail = {"s": (k,), "u": (m, m if full_matrices else k), "v": (n, n if full_matrices else k),
                "q": (m, m if full_matrices else k), "r": (m if full_matrices else k, n)}[part]
        return Spec(shape[:-2] + tail, a.dtype)
    return rule


def fft(real_in=False, real_out=False):
    """``FFT``/``IFFT`` (same), ``RFFT`` (last axis n//2+1, complex), ``IRFFT`` (``lengths``)."""
    def rule(x, rank, lengths=None, **attrs):
        shape = x.shape
        if real_in:
            last = None if shape is None or shape[-1] is None else shape[-1] // 2 + 1
            shape = None if shape is None else shape[:-1] + (last,)
            return Spec(shape, complex_of(x.dtype))
        if real_out:
            shape = None if shape is None else shape[:-rank] + tuple(lengths)
            return Spec(shape, x.dtype.real_dtype)
        return Spec(shape, x.dtype)
    return rule


def bitcast(x, dtype, **attrs):
    dtype = dtypes.as_dtype(dtype)
    src, dst = x.dtype.size, dtype.size
    if x.shape is None or src == dst:
        return Spec(x.shape, dtype)
    if src > dst:
        return Spec(x.shape + (src // dst,), dtype)
    if x.shape[-1] not in (None, dst // src):
        raise Mismatch(f"Cannot bitcast from {x.dtype.name} to {dtype.name}")
    return Spec(x.shape[:-1], dtype)


def bincount(values, weights=None, minlength=None, maxlength=None, out_dtype="int32", **attrs):
    """Counts: one dimension, known only when ``minlength == maxlength`` (else value-sized)."""
    size = minlength if minlength is not None and minlength == maxlength else None
    return Spec((size,), dtypes.as_dtype(out_dtype))


def stitch(*arrays, count, **attrs):
    """``dynamic_stitch``: a first dimension sized by the indices' values, then the data's."""
    index, data = arrays[0], arrays[count]
    if index.shape is None or data.shape is None:
        return Spec(None, data.dtype)
    return Spec((None,) + data.shape[len(index.shape):], data.dtype)
