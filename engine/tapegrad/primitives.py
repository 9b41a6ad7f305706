"""A primitive: an op declared once, in the module of its family, with every rule it has: its
forward implementation on arrays, its reverse rule (VJP), its forward rule (JVP), its batched
reverse rule, the dtypes it accepts and its shape rule. ``TABLE`` holds every primitive by name.

    vjp(g, ans, inputs, attrs, wanted)     -> one cotangent (Tensor or None) per input
    jvp(tangents, ans, inputs, attrs)      -> the output's tangent (Tensor or None)
    batched(G, ans, inputs, attrs, wanted) -> the VJP for all rows of G at once (batching.py)
    dtypes                                 -> a ``checks.dtype_rules.Rule`` (TensorFlow's dtypes)
    exempt                                 -> {rule kind: one-line reason it has none}

This module declares primitives and their reverse rules; ``table.py`` adds the shortcuts for
forward rules, which are written with ops (see docs/primitives.md).
"""
from . import shape_rules
from .checks import registry
from .recording import bind
from .tensor import convert_to_tensor

TABLE = {}
PENDING_GRADIENTS = {}   # op name -> installer, for ``tf.RegisterGradient`` before the op exists


class NoGradient:
    """Marks an op whose gradient is ``None`` by registration (``tf.no_gradient``)."""


class Primitive:
    __slots__ = ("name", "impl", "vjp", "jvp", "n_in", "error", "nondiff", "shape", "batched",
                 "batched_vjp", "dtypes", "exempt", "hands_on")

    def __init__(self, name, impl, error=None):
        if name in TABLE:
            raise ValueError(f"primitive {name!r} is already in the table")
        self.name = name
        self.impl = impl
        self.vjp = None      # None: no gradient registered (LookupError if one is needed)
        self.jvp = None
        self.error = error   # formats a clear message when impl rejects its inputs
        self.nondiff = False
        self.shape = None    # shape rule: (specs, attrs) -> Spec(s) (table.defshape, shape_rules)
        self.batched = None  # batched reverse rule (defbatched; batching.py runs it)
        self.batched_vjp = None   # the VJP ``batched`` mirrors (a replaced VJP disables it)
        self.dtypes = None   # TensorFlow's accepted dtypes (checks.dtype_rules.Rule)
        self.exempt = {}     # rule kind ("vjp", "jvp", "batched", "dtypes", "shape") -> reason
        # its reverse rule reuses what its forward kept while something records (conv_ops: the
        # windows, the winners): a trace keeps the rule as one node, and replays let forwards keep
        self.hands_on = False
        TABLE[name] = self

    def __repr__(self):
        return f"<primitive {self.name}>"

    def apply(self, *inputs, **attrs):
        return bind(self, tuple(convert_to_tensor(x) for x in inputs), attrs)


def primitive(name, impl, error=None, dtypes=None, exempt=None):
    """Declares the primitive ``name``: ``dtypes`` is its dtype rule (``checks.dtype_rules``),
    ``exempt`` maps each rule kind it lacks on purpose to a one-line reason."""
    prim = Primitive(name, impl, error)
    prim.dtypes = dtypes
    if exempt:
        prim.exempt = dict(exempt)
    registry.adopt(prim)   # TF's dtype rule in front of the implementation (checks/)
    install = PENDING_GRADIENTS.pop(name, None)
    if install is not None:
        install(prim)
    return prim


# Speed: a two-input VJP made by ``defvjp`` -> its two per-input rules. The backward pass calls
# the rules itself for such a VJP, one Python call fewer per op (~0.4 us per op on W1's
# backward, measured 2026-11-23).
# Keyed by the function, so a primitive whose ``vjp`` is later replaced (a registered gradient,
# a fused kernel) is never looked up.
BINARY_RULES = {}
# The same for a one-input VJP made by ``defvjp``: its rule (~4 Python calls fewer per op).
UNARY_RULES = {}


def defvjp(prim, *per_input):
    """Reverse rules, one per input: ``f(g, ans, *inputs, **attrs)``; ``None`` = not differentiable."""
    def vjp(g, ans, inputs, attrs, wanted):
        return [f(g, ans, *inputs, **attrs) if w and f is not None else None
                for f, w in zip(per_input, wanted)]

    # Speed: one and two inputs unrolled, with no ``**{}``: 0.2-0.3 us per call instead of
    # 0.9-1.1 us (measured 2026-11-23).
    if len(per_input) == 2:
        f0, f1 = per_input

        def vjp(g, ans, inputs, attrs, wanted):  # noqa: F811
            x, y = inputs
            if attrs:
                return (f0(g, ans, x, y, **attrs) if wanted[0] and f0 is not None else None,
                        f1(g, ans, x, y, **attrs) if wanted[1] and f1 is not None else None)
            return (f0(g, ans, x, y) if wanted[0] and f0 is not None else None,
                    f1(g, ans, x, y) if wanted[1] and f1 is not None else None)
        BINARY_RULES[vjp] = (f0, f1)
    elif len(per_input) == 1:
        f0 = per_input[0]

        def vjp(g, ans, inputs, attrs, wanted):  # noqa: F811
            if not wanted[0] or f0 is None:
                return (None,)
            if attrs:
                return (f0(g, ans, *inputs, **attrs),)
            return (f0(g, ans, *inputs),)
        if f0 is not None:
            UNARY_RULES[vjp] = f0
    prim.vjp = vjp
    return prim


def defbatched(prim, rule):
    """Its batched reverse rule: ``rule(G, ans, inputs, attrs, wanted)``, the VJP for all rows of
    ``G`` (rows first) at once, mirroring the VJP the primitive has now (``batching.rule_of``
    drops it if the VJP is replaced later, as by ``tf.RegisterGradient``)."""
    prim.batched = rule
    prim.batched_vjp = prim.vjp
    return prim


# The exemptions of a primitive TensorFlow registers no gradient for: ``exempt(P, **NO_GRADIENT)``.
NO_GRADIENT = {
    "vjp": "TensorFlow registers no gradient for it: a tape asked through it raises LookupError",
    "jvp": "no gradient registered, so no forward rule either (TensorFlow's forward mode fails)",
}


def exempt(prim, **reasons):
    """Records rule kinds ``prim`` has none of on purpose: ``exempt(P, jvp="...")``."""
    prim.exempt = {**prim.exempt, **reasons}
    return prim


def defnondiff(prim):
    """An op with no gradient by design (comparisons, floor, argmax): gives ``None``."""
    prim.nondiff = True
    prim.vjp = lambda g, ans, inputs, attrs, wanted: [None] * len(inputs)
    prim.jvp = lambda tangents, ans, inputs, attrs: None
    return prim


def defshape(prim, rule):
    """Its shape rule (abstract evaluation): ``rule(*specs, **attrs)`` gives the output's
    ``shape_rules.Spec`` (a tuple of them for several outputs) from one ``Spec(shape, dtype)`` per
    input, ``None`` marking unknown dimensions; the installed ``prim.shape(specs, attrs)`` raises
    TensorFlow's graph ``ValueError`` for incompatible inputs (see shape_rules.py)."""
    prim.shape = shape_rules.named(prim.name, rule)
    return prim
