"""The ground under the ops: the few primitives that the table's rule shortcuts and every op
module are written with (add, multiply, reshape, broadcast_to, reduce_sum), the one
``unbroadcast``, and the small helpers the op modules share.

Everything here is declared with ``primitives.defvjp`` and JVPs made by ``sum_of_jvps`` and
``linear_jvp``, the same makers ``table.defjvp`` and ``table.deflinear`` use.
"""
from .backend import xp
from . import checks, convert
from .kernels import dispatch as kernels
from .primitives import TABLE, defvjp, primitive
from . import shape_rules
from .checks.dtype_rules import ANY, NUMBER
from .primitives import defshape
from .recording import bind
from .tensor import EagerTensor, Tensor, wrap
from .thread_state import state

NO_ATTRS = {}


def quiet(fn):
    """NumPy's floating-point warnings are not TensorFlow's behaviour: inf/nan are values."""
    def impl(*args, **kw):
        with xp.errstate(all="ignore"):
            return fn(*args, **kw)
    impl.__name__ = getattr(fn, "__name__", "impl")
    return impl


def fmt_shape(shape):
    return "[" + ",".join(map(str, shape)) + "]"


def incompatible(inputs, attrs, exc):
    """The error message of a binary op whose inputs do not broadcast."""
    a, b = (x._value.shape for x in inputs[:2])
    return "Incompatible shapes: %s vs. %s" % (fmt_shape(a), fmt_shape(b))


def unary(prim, x):
    return bind(prim, (convert.tensor(x),), NO_ATTRS)


def binary(prim, x, y):
    return bind(prim, convert.binary(x, y, prim.name), NO_ATTRS)


def scalar_like(value, like):
    """A scalar constant of ``like``'s dtype (not recorded: constants need no gradient)."""
    return wrap(xp.asarray(value, dtype=like._value.dtype))


def zeros_of(x):
    """Zeros of ``x``'s shape and dtype (a constant, not recorded)."""
    return wrap(xp.zeros(x._value.shape, x._value.dtype))


def ones_of(x):
    return wrap(xp.ones(x._value.shape, x._value.dtype))


def _shape(x):
    return x._value.shape


# -- forward-rule makers (used here and by table.defjvp / table.deflinear) ------------------------
def sum_of_jvps(per_input):
    """A JVP that sums ``f(t, ans, *inputs, **attrs)`` over the inputs that carry a tangent."""
    def jvp(tangents, ans, inputs, attrs):
        out = None
        for f, t in zip(per_input, tangents):
            if t is None or f is None:
                continue
            c = f(t, ans, *inputs, **attrs)
            if c is not None:
                out = c if out is None else add(out, c)
        if out is not None and out._value.shape != ans._value.shape:
            out = broadcast_to(out, ans._value.shape)
        return out
    return jvp


def linear_jvp(prim):
    """The JVP of a linear primitive: the primitive applied to the tangents."""
    def jvp(tangents, ans, inputs, attrs):
        if all(t is None for t in tangents):
            return None
        ts = tuple(zeros_of(x) if t is None else t for t, x in zip(tangents, inputs))
        # Speed: tangents are tensors already, so bind without prim.apply's conversions: 0.96
        # against 2.17 us per linear JVP (Reshape, medians of 7 runs, 2026-11-23).
        return bind(prim, ts, attrs)
    return jvp


def _linear(prim, *transposes):
    defvjp(prim, *transposes)
    prim.jvp = linear_jvp(prim)


# -- add and multiply ---------------------------------------------------------------------------
# (kernels.route_*: a C kernel beneath the NumPy call where one is faster here; see kernels/)
ADD = primitive("AddV2", kernels.route_binary("add", xp.add), incompatible,
                dtypes=NUMBER.unguarded())   # checked by add: the hot path
defshape(ADD, shape_rules.broadcasting)
MUL = primitive("Mul", kernels.route_binary("mul", xp.multiply), incompatible,
                dtypes=NUMBER.unguarded())   # checked by multiply: the hot path
defshape(MUL, shape_rules.broadcasting)


def conj_if_complex(x):
    """``x``, conjugated when complex. TensorFlow's gradient of a complex input multiplies by the
    conjugate derivative, g * conj(f'(z)); rules apply this to their local derivatives."""
    if x._value.dtype.kind != "c":
        return x
    return bind(TABLE["Conj"], (x,), NO_ATTRS)   # declared by ops/complex_ops.py


def add(x, y, name=None):
    """``x + y`` with broadcasting. ``tf.add(1., [1., 2.])`` -> ``[2., 3.]``."""
    try:
        x, y = convert.binary(x, y, "AddV2")
    except TypeError:   # a number that cannot become bool: TF names the bool tensor instead
        for t in (x, y):
            if getattr(getattr(t, "_value", None), "dtype", None) == bool:
                checks.check_dtype(ADD, t)
        raise
    if x._value.dtype.kind == "b":   # no bool (TF's dtypes, checks/; not guarded: hot path);
        checks.check_dtype(ADD, x)    # strings concatenate, as TensorFlow's Add
    return bind(ADD, (x, y), NO_ATTRS)


def multiply(x, y, name=None):
    x, y = convert.binary(x, y, "Mul")
    if x._value.dtype.kind in "bO":   # no bool, no string (TF's dtypes; not guarded: hot path)
        checks.check_dtype(MUL, x)
    return bind(MUL, (x, y), NO_ATTRS)


# Speed: a cotangent of the input's own shape is handed on before calling unbroadcast (two
# Python calls fewer per side, as most additions do not broadcast).
defvjp(ADD, lambda g, ans, x, y: g if g._value.shape == x._value.shape else
       unbroadcast(g, x._value.shape),
       lambda g, ans, x, y: g if g._value.shape == y._value.shape else
       unbroadcast(g, y._value.shape))
ADD.jvp = sum_of_jvps((lambda t, ans, x, y: t, lambda t, ans, x, y: t))
# Speed: in Mul's rule both factors are tensors of the op's own dtype, so the product binds
# directly, skipping ``multiply``'s conversions (~0.2 us per op on W1, measured in bcb58ed).
# (The complex test is spelled out: one Python call fewer on the hot path.)
def times(x, y):
    """``multiply`` for rules (a cotangent times a derivative). Speed: two tensors of one dtype
    bind directly, as ``multiply``'s conversions would hand them back (as Mul's own rules do)."""
    if type(x) is EagerTensor and type(y) is EagerTensor and x._value.dtype == y._value.dtype \
            and x._value.dtype.kind != "b":
        return bind(MUL, (x, y), NO_ATTRS)
    return multiply(x, y)


# (A product of the operand's own shape skips unbroadcast, as Add's rules do.)
def _mul_vjp_x(g, ans, x, y):
    p = bind(MUL, (g, y if y._value.dtype.kind != "c" else conj_if_complex(y)), NO_ATTRS)
    return p if p._value.shape == x._value.shape else unbroadcast(p, x._value.shape)


def _mul_vjp_y(g, ans, x, y):
    p = bind(MUL, (x if x._value.dtype.kind != "c" else conj_if_complex(x), g), NO_ATTRS)
    return p if p._value.shape == y._value.shape else unbroadcast(p, y._value.shape)


defvjp(MUL, _mul_vjp_x, _mul_vjp_y)
MUL.jvp = sum_of_jvps((lambda t, ans, x, y: multiply(t, y), lambda t, ans, x, y: multiply(x, t)))


# -- reshape and broadcast_to -------------------------------------------------------------------
def as_shape(shape):
    """A shape argument (int, list, tuple, Tensor) as a tuple of ints."""
    if isinstance(shape, Tensor):
        shape = shape._value.tolist()
    if isinstance(shape, (int, xp.integer)):
        return (int(shape),)
    return tuple(int(d) if not isinstance(d, Tensor) else int(d._value) for d in shape)


def _reshape_error(inputs, attrs, exc):
    x = inputs[0]
    return (f"Input to reshape is a tensor with {x._value.size} values, but the requested shape "
            f"has {int(xp.prod([d for d in attrs['shape'] if d != -1]))} "
            f"({fmt_shape(attrs['shape'])})")


# Speed: on NumPy the array's own method, without ``numpy.reshape``'s dispatch wrapper: 0.25
# against 1.65 us per call, ~11 reshapes per W6-hvp step (measured 2026-11-23, see broadcast_back).
_reshape_impl = (lambda x, shape: x.reshape(shape)) if xp.__name__ == "numpy" else \
    (lambda x, shape: xp.reshape(x, shape))
RESHAPE = primitive("Reshape", _reshape_impl, _reshape_error, dtypes=ANY)
# (reshape_to inlined: one of every backward pass's commonest rules)
_linear(RESHAPE, lambda g, ans, x, shape: g if g._value.shape == x._value.shape and
        not state.active else bind(RESHAPE, (g,), {"shape": x._value.shape}))
defshape(RESHAPE, shape_rules.reshape)


def reshape_to(x, shape):
    """``reshape`` for rules, to a tensor's own shape (a tuple of ints, known valid). Speed: no
    argument checks, ~1.5 us less per reshape in a backward pass (measured on W6-hvp, 2026-11-23)."""
    if shape == x._value.shape and not state.active:
        return x
    return bind(RESHAPE, (x,), {"shape": shape})


def reshape(tensor, shape, name=None):
    """Same values, new shape; one dimension may be -1."""
    x = convert.tensor(tensor)
    shape = checks.shape("Reshape", shape, allow_unknown=True, floats="invalid")   # (checks/)
    if -1 in shape and x._value.size == 0:   # TensorFlow: the unknown size of nothing is 0
        shape = tuple(0 if d == -1 else d for d in shape)
    if shape == x._value.shape and not state.active:
        return x
    return bind(RESHAPE, (x,), {"shape": shape})


def _broadcast_error(inputs, attrs, exc):
    return (f"Unable to broadcast tensor of shape {fmt_shape(_shape(inputs[0]))} to tensor of "
            f"shape {fmt_shape(attrs['shape'])}")


def _broadcast_to_impl(x, shape):
    # Speed: a new array filled by assignment, rather than a copy of ``broadcast_to``'s view:
    # 0.55 against 3.9 us for a scalar spread over 64 entries (a reduction's gradient), 8 against
    # 13 us for 64x1000 (measured 2026-11-23). Assignment also drops leading size-1 axes, which
    # broadcasting refuses: such inputs (and other array libraries) take broadcast_to's path.
    if xp.__name__ == "numpy" and x.ndim <= len(shape):
        out = xp.empty(shape, x.dtype)
        out[...] = x
        return out
    return xp.broadcast_to(x, shape).copy()


BROADCAST_TO = primitive("BroadcastTo", _broadcast_to_impl, _broadcast_error, dtypes=ANY)
_linear(BROADCAST_TO, lambda g, ans, x, shape: unbroadcast(g, _shape(x)))
defshape(BROADCAST_TO, shape_rules.fixed_shape("shape"))


def broadcast_to(input, shape, name=None):  # noqa: A002
    x = convert.tensor(input)
    shape = as_shape(shape)
    if x._value.shape == shape:
        return x
    return bind(BROADCAST_TO, (x,), {"shape": shape})


# -- reduce_sum and unbroadcast -----------------------------------------------------------------
class ListedAxes(tuple):
    """One reduction axis given as a list (``axis=[0]``): a tuple as any other to every rule; a
    traced graph lists it as TensorFlow does, a ``Const`` of shape (1,) rather than the scalar
    ``axis=0`` gives (function/func_graph.py)."""
    __slots__ = ()
    listed = True


def reduction_axes(axis, ndim, op):
    """``axis`` of a reduction as a sorted tuple of non-negative axes (None: all)."""
    if axis is None:
        return None
    axes = tuple(sorted(checks.axes(op, axis, ndim)))   # TF's acceptance and errors (checks/)
    return ListedAxes(axes) if len(axes) == 1 and _listed(axis) else axes


def _listed(axis):
    """Whether ``axis`` was given as a sequence (a list, tuple, array or tensor of rank 1)."""
    if isinstance(axis, (list, tuple)):
        return True
    shape = getattr(axis, "shape", None)
    return shape is not None and len(shape) == 1


def kept_shape(shape, axes):
    """The reduced shape with ones kept in place, to broadcast a reduced gradient back."""
    if axes is None:
        return (1,) * len(shape)
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def broadcast_back(g, x, axes, keepdims):
    """A reduction's gradient ``g`` spread back over ``x``'s shape."""
    # Speed: a scalar (a full reduction's gradient) broadcasts as it is, one op instead of a
    # reshape and a broadcast. With the Reshape and BroadcastTo impls above, a W6-hvp step
    # (Hessian-vector product by nested tapes, engine/bench/peerbench) went from 474 to 442 us
    # of CPU: medians of 11 interleaved runs at a load average of 7 (measured 2026-11-23).
    if not keepdims and g._value.ndim:
        g = reshape_to(g, kept_shape(_shape(x), axes))
    shape = x._value.shape
    if type(g) is EagerTensor:   # Speed: a tensor, to an array's shape: broadcast_to's
        # conversions would hand both back unchanged (3 Python calls fewer).
        return g if g._value.shape == shape else bind(BROADCAST_TO, (g,), {"shape": shape})
    return broadcast_to(g, shape)


def _sum_impl(x, axes, keepdims):
    dtype = x.dtype if x.dtype.kind != "b" else None
    if type(x) is _ndarray:
        # Speed: the ufunc's own reduce, which ``numpy.sum`` calls for an ndarray after two
        # Python-level wrappers (same call, same bits): W2 -40k instructions per step.
        return _add_reduce(x, axes, dtype, None, keepdims)
    return xp.sum(x, axis=axes, keepdims=keepdims, dtype=dtype)


_ndarray = xp.ndarray if xp.__name__ == "numpy" else None
_add_reduce = xp.add.reduce if xp.__name__ == "numpy" else None


SUM = primitive("Sum", kernels.route_reduce("sum", _sum_impl), dtypes=NUMBER)
_linear(SUM, lambda g, ans, x, axes, keepdims: broadcast_back(g, x, axes, keepdims))
defshape(SUM, shape_rules.reduction)


def reduce(prim, x, axis, keepdims):
    """Binds a reduction primitive with its ``axes`` and ``keepdims`` attributes."""
    x = convert.tensor(x)
    axes = reduction_axes(axis, x._value.ndim, prim.name)
    return bind(prim, (x,), {"axes": axes, "keepdims": bool(keepdims)})


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over ``axis`` (all axes when None). ``keepdims`` keeps reduced axes as size 1."""
    return reduce(SUM, input_tensor, axis, keepdims)


def unbroadcast(g, shape):
    """Sums ``g`` over the axes that broadcasting added or stretched, giving it ``shape``."""
    gshape = g._value.shape
    if gshape == shape:
        return g
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead))
    if 1 in shape:   # (Speed: no generator for the commonest case, a bias without 1s)
        axes += tuple(i + lead for i, d in enumerate(shape) if d == 1 and gshape[i + lead] != 1)
    if axes:
        # Speed: the axes are sorted, distinct and in range, so a tensor's sum binds directly,
        # without ``reduce_sum``'s conversion and axis checks (``checks.axes``): W2 1.685M ->
        # 1.610M instructions per step (callgrind, engine/bench/step_cost.py, 2026-11-23).
        g = bind(SUM, (g,), {"axes": axes, "keepdims": False}) if isinstance(g, Tensor) \
            else reduce_sum(g, axis=axes)
    if g._value.shape != shape:
        g = reshape_to(g, shape)
    return g
