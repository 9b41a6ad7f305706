"""The one table of primitives.

Each primitive is declared once with its forward implementation on arrays, its reverse rule (VJP)
and its forward rule (JVP). Rules are written with the engine's own ops, so an outer tape records
them and higher-order derivatives come for free.

    vjp(g, ans, inputs, attrs, wanted) -> one cotangent (Tensor or None) per input
    jvp(tangents, ans, inputs, attrs)  -> the output's tangent (Tensor or None)

Most entries are declared with a shortcut: ``defvjp``/``defjvp`` take one function per input
(``f(g, ans, *inputs, **attrs)``), ``elementwise`` takes the derivative once for both modes, and
``deflinear`` gives a linear op its JVP for free.

Declaring a new primitive (see docs/primitives.md)::

    from tapegrad.table import primitive, elementwise
    CUBE = elementwise("Cube", lambda x: x ** 3, lambda ans, x: 3.0 * x * x)
    cube = lambda x: CUBE.apply(x)
"""

TABLE = {}
PENDING_GRADIENTS = {}   # op name -> installer, for ``tf.RegisterGradient`` before the op exists
# A binary VJP made by ``defvjp`` -> its two per-input rules. The backward pass calls the rules
# itself for such a VJP (one Python call fewer per op); keyed by the function, so a primitive
# whose ``vjp`` is later replaced (a registered gradient, a fused kernel) is never looked up.
BINARY_RULES = {}


class NoGradient:
    """Marks an op whose gradient is ``None`` by registration (``tf.no_gradient``)."""


class Primitive:
    __slots__ = ("name", "impl", "vjp", "jvp", "n_in", "error", "nondiff")

    def __init__(self, name, impl, error=None):
        if name in TABLE:
            raise ValueError(f"primitive {name!r} is already in the table")
        self.name = name
        self.impl = impl
        self.vjp = None      # None: no gradient registered (LookupError if one is needed)
        self.jvp = None
        self.error = error   # formats a clear message when impl rejects its inputs
        self.nondiff = False
        TABLE[name] = self

    def __repr__(self):
        return f"<primitive {self.name}>"

    def apply(self, *inputs, **attrs):
        from .recording import bind
        from .tensor import convert_to_tensor
        return bind(self, tuple(convert_to_tensor(x) for x in inputs), attrs)


def primitive(name, impl, error=None):
    prim = Primitive(name, impl, error)
    install = PENDING_GRADIENTS.pop(name, None)
    if install is not None:
        install(prim)
    return prim


def defvjp(prim, *per_input):
    """Reverse rules, one per input: ``f(g, ans, *inputs, **attrs)``; ``None`` = not differentiable."""
    if len(per_input) == 2:
        f0, f1 = per_input

        def vjp(g, ans, inputs, attrs, wanted):  # the common binary case, unrolled
            x, y = inputs
            if attrs:
                return (f0(g, ans, x, y, **attrs) if wanted[0] and f0 is not None else None,
                        f1(g, ans, x, y, **attrs) if wanted[1] and f1 is not None else None)
            return (f0(g, ans, x, y) if wanted[0] and f0 is not None else None,
                    f1(g, ans, x, y) if wanted[1] and f1 is not None else None)
        BINARY_RULES[vjp] = (f0, f1)
    elif len(per_input) == 1:
        f0 = per_input[0]

        def vjp(g, ans, inputs, attrs, wanted):
            if not wanted[0] or f0 is None:
                return (None,)
            if attrs:
                return (f0(g, ans, *inputs, **attrs),)
            return (f0(g, ans, *inputs),)
    else:
        def vjp(g, ans, inputs, attrs, wanted):
            return [f(g, ans, *inputs, **attrs) if w and f is not None else None
                    for f, w in zip(per_input, wanted)]
    prim.vjp = vjp
    return prim


def defjvp(prim, *per_input):
    """Forward rules, one per input: ``f(t, ans, *inputs, **attrs)``; contributions are summed."""
    from .ops.math_ops import add

    def jvp(tangents, ans, inputs, attrs):
        out = None
        for f, t in zip(per_input, tangents):
            if t is None or f is None:
                continue
            c = f(t, ans, *inputs, **attrs)
            if c is not None:
                out = c if out is None else add(out, c)
        if out is not None and out._value.shape != ans._value.shape:
            from .ops.array_ops import broadcast_to
            out = broadcast_to(out, ans._value.shape)
        return out
    prim.jvp = jvp
    return prim


def deflinear(prim, *transposes):
    """A linear primitive: its JVP is the primitive applied to the tangents."""
    defvjp(prim, *transposes)

    def jvp(tangents, ans, inputs, attrs):
        if all(t is None for t in tangents):
            return None
        from .ops.array_ops import zeros_like
        ts = [zeros_like(x) if t is None else t for t, x in zip(tangents, inputs)]
        return prim.apply(*ts, **attrs)
    prim.jvp = jvp
    return prim


def defnondiff(prim):
    """An op with no gradient by design (comparisons, floor, argmax): gives ``None``."""
    prim.nondiff = True
    prim.vjp = lambda g, ans, inputs, attrs, wanted: [None] * len(inputs)
    prim.jvp = lambda tangents, ans, inputs, attrs: None
    return prim


def elementwise(name, impl, deriv, error=None):
    """A unary elementwise primitive from its derivative ``deriv(ans, x) -> Tensor``."""
    from .ops.math_ops import multiply
    prim = primitive(name, impl, error)
    defvjp(prim, lambda g, ans, x: multiply(g, deriv(ans, x)))
    defjvp(prim, lambda t, ans, x: multiply(t, deriv(ans, x)))
    return prim
