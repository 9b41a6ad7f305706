"""User-defined gradients: ``tf.custom_gradient``, ``tf.RegisterGradient``, ``tf.no_gradient``.

A function decorated with ``custom_gradient`` runs its forward pass with no recorder watching
and then appears on every tape as ONE op named after the function, whose reverse rule is the
user's ``grad_fn``. Forward mode (``ForwardAccumulator``) gets a JVP by transposing that reverse
rule (it is linear in the upstream gradient), as TensorFlow does for ops without a forward rule.

>>> import tapegrad as tf
>>> @tf.custom_gradient
... def clip_grad_identity(x):
...     def grad(upstream):
...         return tf.clip_by_value(upstream, -1.0, 1.0)
...     return tf.identity(x), grad
>>> x = tf.constant(2.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = clip_grad_identity(x * 10.0)
>>> float(tape.gradient(y, x))
10.0
"""
import functools
import inspect

from . import nest
from .backend import xp
from .ops import add, getitem, multiply, reduce_sum, reshape
from .table import TABLE, Primitive, PENDING_GRADIENTS
from .tape import GradientTape
from .tensor import Tensor, convert_to_tensor, wrap
from . import thread_state
from .thread_state import state
from .variables import Variable


class CustomOp(Primitive):
    """A record-able op that is not in the table (one per ``custom_gradient`` call)."""

    def __init__(self, name, vjp):  # noqa: D107 - deliberately not registered in TABLE
        self.name = name
        self.impl = None
        self.vjp = vjp
        self.jvp = jvp_from_vjp(self)
        self.error = None
        self.nondiff = False


def jvp_from_vjp(prim):
    """A forward rule from a reverse rule: the JVP is the transpose of the (linear) VJP, found
    by differentiating ``<vjp(u), t>`` with respect to a dummy cotangent ``u``."""
    def jvp(tangents, ans, inputs, attrs):
        u = wrap(xp.zeros(ans._value.shape, ans._value.dtype))
        wanted = [t is not None for t in tangents]
        with GradientTape() as tape:
            tape.watch(u)
            cts = prim.vjp(u, ans, inputs, attrs, wanted)
            total = None
            for ct, t in zip(cts, tangents):
                if ct is None or t is None:
                    continue
                term = reduce_sum(multiply(convert_to_tensor(ct), t))
                total = term if total is None else add(total, term)
        if total is None:
            return None
        return tape.gradient(total, u)
    return jvp


# -- @tf.custom_gradient ----------------------------------------------------------------------------
class _VariableWatcher:
    """A recorder that only notes which variables were read (in order of first read)."""

    def __init__(self):
        self.variables = {}

    def on_op(self, prim, inputs, attrs, out):
        pass

    def on_read(self, var, t):
        self.variables.setdefault(var._id, var)

    def on_export(self, t):
        pass

    def on_assign(self, var, value, kind):
        pass


def custom_gradient(f=None):
    """Decorates ``f(*args) -> (result, grad_fn)`` so that tapes use ``grad_fn`` as its gradient.

    ``grad_fn(*upstream)`` returns one gradient per argument (a single value when there is one
    argument). When ``f`` reads variables that are not among its arguments, ``grad_fn`` must take
    ``variables=None`` and return ``(input_grads, variable_grads)``.

    >>> import tapegrad as tf
    >>> @tf.custom_gradient
    ... def log1pexp(x):
    ...     e = tf.exp(x)
    ...     def grad(upstream):
    ...         return upstream * (1 - 1 / (1 + e))
    ...     return tf.math.log(1 + e), grad
    >>> x = tf.constant(100.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = log1pexp(x)
    >>> float(tape.gradient(y, x))
    1.0
    """
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _call_custom(f, args, kwargs)
    return decorated


def _call_custom(f, args, kwargs):
    flat_args = nest.flatten(list(args))
    arg_vars = [a for a in flat_args if isinstance(a, Variable)]
    # The op's inputs: each argument as a tensor (a variable argument is read, on the tapes).
    inputs = [a.read_value() if isinstance(a, Variable) else convert_to_tensor(a)
              for a in flat_args]
    result, grad_fn, used = _run_unrecorded(f, args, kwargs)
    captured = [v for v in used if v.trainable and all(v is not a for a in arg_vars)]
    if captured and not _accepts_variables(grad_fn):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', "
                        "since function uses variables: " + ", ".join(v.name for v in captured))
    var_reads = [v.read_value() for v in captured]  # tapes watch and record these reads
    flat_result = [convert_to_tensor(r) for r in nest.flatten(result)]
    if not flat_result:
        raise ValueError(f"custom_gradient function {f.__name__} returned no tensors")
    multi = len(flat_result) > 1 or not isinstance(result, Tensor)
    shapes = [(tuple(r._value.shape), int(r._value.size)) for r in flat_result]
    packed = _packed(f, flat_result) if multi else wrap(flat_result[0]._value)

    def vjp(g, ans, op_inputs, attrs, wanted):
        upstream = _unpacked(g, shapes) if multi else [g]
        input_grads, variable_grads = _call_grad_fn(f, grad_fn, upstream, captured)
        if len(input_grads) != len(inputs):
            raise ValueError(f"custom_gradient function expected to return {len(inputs)} "
                             f"gradients, but returned {len(input_grads)} instead.")
        return [_as_cotangent(g_i, x)
                for g_i, x in zip(list(input_grads) + variable_grads, op_inputs)]

    op = CustomOp(f.__name__, vjp)
    all_inputs = tuple(inputs + var_reads)
    for r in tuple(state.active):
        r.on_op(op, all_inputs, {}, packed)
    if not multi:
        return packed
    return nest.pack_sequence_as(result, _unpacked(packed, shapes))


def _run_unrecorded(f, args, kwargs):
    """``f``'s ``(result, grad_fn)``, run with no tape recording, and the variables it read."""
    watcher = _VariableWatcher()
    active = state.active
    saved = active[:]
    active[:] = [watcher]
    thread_state.entered(1)
    try:
        result, grad_fn = f(*args, **kwargs)
    finally:
        active[:] = saved
        thread_state.entered(-1)
    return result, grad_fn, list(watcher.variables.values())


def _packed(f, flat_result):
    """Several outputs as the one flat tensor the op records (they must share one dtype)."""
    dtypes_ = {r._value.dtype for r in flat_result}
    if len(dtypes_) > 1:
        raise NotImplementedError(f"custom_gradient ({f.__name__}): several outputs must share "
                                  f"one dtype, got {sorted(str(d) for d in dtypes_)}")
    return wrap(xp.concatenate([r._value.reshape(-1) for r in flat_result]))


def _unpacked(packed, shapes):
    """The outputs (or their cotangents) cut from a packed flat tensor, by ``(shape, size)``."""
    outs, start = [], 0
    for shape, size in shapes:
        outs.append(reshape(getitem(packed, slice(start, start + size)), shape))
        start += size
    return outs


def _call_grad_fn(f, grad_fn, upstream, captured):
    """``grad_fn``'s gradients for the inputs (flat) and for the captured variables."""
    if captured:
        out = grad_fn(*upstream, variables=captured)
        if not (isinstance(out, (list, tuple)) and len(out) == 2):
            raise ValueError(f"custom_gradient ({f.__name__}): with variables, grad_fn must "
                             f"return (input_grads, variable_grads)")
        input_grads, variable_grads = out
        variable_grads = list(nest.flatten(variable_grads))
        if len(variable_grads) != len(captured):
            raise ValueError(f"custom_gradient ({f.__name__}): must return gradient for each "
                             f"variable from @custom_gradient grad_fn ({len(captured)} "
                             f"variables, {len(variable_grads)} gradients)")
    else:
        input_grads, variable_grads = grad_fn(*upstream), []
    input_grads = nest.flatten(input_grads) if isinstance(input_grads, (list, tuple)) \
        else [input_grads]
    return input_grads, variable_grads


def _as_cotangent(g, x):
    """A gradient ``grad_fn`` returned for input ``x``, as a tensor (None stays None)."""
    if g is None or isinstance(g, Tensor) or hasattr(g, "_as_tensor"):
        return g
    return convert_to_tensor(g, dtype=x.dtype)


def _accepts_variables(fn):
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return "variables" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


# -- tf.RegisterGradient / tf.no_gradient ------------------------------------------------------------
class Operation:
    """What a registered gradient function sees of the op: ``type``, ``inputs``, ``outputs``
    and ``get_attr(name)``."""

    def __init__(self, prim, inputs, outputs, attrs):
        self.type = prim.name
        self.name = prim.name
        self.inputs = tuple(inputs)
        self.outputs = tuple(outputs)
        self._attrs = attrs

    def get_attr(self, name):
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self.type} has no attr named '{name}'.") from None

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


def _install_registered(fn):
    def install(prim):
        if prim.vjp is not None:
            raise KeyError(f"Registering two gradient with name '{prim.name}'! (Previous "
                           f"registration was in the table.)")

        def vjp(g, ans, inputs, attrs, wanted):
            out = fn(Operation(prim, inputs, (ans,), attrs), g)
            out = list(out) if isinstance(out, (list, tuple)) else [out]
            if len(out) != len(inputs):
                raise ValueError(f"The gradient function registered for {prim.name} returned "
                                 f"{len(out)} gradients, but the op has {len(inputs)} inputs")
            return [None if o is None or not w else
                    (o if isinstance(o, Tensor) else convert_to_tensor(o, dtype=x.dtype))
                    for o, x, w in zip(out, inputs, wanted)]
        prim.vjp = vjp
        prim.jvp = jvp_from_vjp(prim)
    return install


def _install_none(prim):
    if prim.vjp is not None:
        raise KeyError(f"Registering two gradient with name '{prim.name}'! (Previous "
                       f"registration was in the table.)")
    prim.nondiff = True
    prim.vjp = lambda g, ans, inputs, attrs, wanted: [None] * len(inputs)
    prim.jvp = lambda tangents, ans, inputs, attrs: None


def _register(op_type, install):
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    prim = TABLE.get(op_type)
    if prim is not None:
        install(prim)
    else:
        if op_type in PENDING_GRADIENTS:
            raise KeyError(f"Registering two gradient with name '{op_type}'!")
        PENDING_GRADIENTS[op_type] = install


class RegisterGradient:
    """Decorator registering ``fn(op, grad) -> gradient(s) per input`` for the op ``op_type``.

    The op is a primitive declared with ``tapegrad.table.primitive`` (before or after the
    registration). Its forward-mode rule is derived from the registered gradient.

    >>> import tapegrad as tf
    >>> from tapegrad.table import primitive
    >>> CUBE = primitive("DocCube", lambda x: x ** 3)
    >>> @tf.RegisterGradient("DocCube")
    ... def _cube_grad(op, grad):
    ...     x = op.inputs[0]
    ...     return grad * 3.0 * x * x
    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = CUBE.apply(x)
    >>> float(tape.gradient(y, x))
    12.0
    """

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, fn):
        _register(self._op_type, _install_registered(fn))
        return fn


def no_gradient(op_type):
    """Declares that the op ``op_type`` has no gradient: tapes give ``None`` through it (rather
    than the ``LookupError`` of an op with nothing registered)."""
    _register(op_type, _install_none)


NoGradient = no_gradient
NotDifferentiable = no_gradient
