"""The one table of primitives: declare a primitive and its rules here.

Each primitive is declared once, in the module of its family, with its forward implementation on
arrays, its reverse rule (VJP), its forward rule (JVP), its batched rule (``defbatched``, or a
maker of ``batching.py``), its dtype rule (``primitive(..., dtypes=...)``) and its shape rule
(``defshape``); a rule kind it has none of on purpose is listed in ``exempt`` with a reason.
Rules are written with the engine's own ops, so an outer tape records them and higher-order
derivatives come for free.

    vjp(g, ans, inputs, attrs, wanted) -> one cotangent (Tensor or None) per input
    jvp(tangents, ans, inputs, attrs)  -> the output's tangent (Tensor or None)

Most entries are declared with a shortcut: ``defvjp``/``defjvp`` take one function per input
(``f(g, ans, *inputs, **attrs)``), ``elementwise`` takes the derivative once for both modes, and
``deflinear`` gives a linear op its JVP for free. ``defshape`` declares the shape rule (abstract
evaluation, made with ``shape_rules``'s makers); ``elementwise`` gives its op ``shape_rules.same``.

``Primitive``, ``primitive``, ``defvjp`` and ``defnondiff`` come from ``primitives.py``; the
shortcuts that need ops (forward rules) are made with the ground ops of ``ground.py``.

Declaring a new primitive (see docs/primitives.md)::

    from tapegrad.table import primitive, elementwise
    CUBE = elementwise("Cube", lambda x: x ** 3, lambda ans, x: 3.0 * x * x)
    cube = lambda x: CUBE.apply(x)
"""

from . import shape_rules
from .ground import conj_if_complex, linear_jvp, multiply, sum_of_jvps, times
from .primitives import (  # noqa: F401  (the table's names, importable from here)
    BINARY_RULES, PENDING_GRADIENTS, TABLE, NoGradient, Primitive, defbatched, defnondiff,
    defshape, defvjp, exempt, primitive,
)

# Primitive -> the VJP ``elementwise`` gave it: a rule ``g * f'(x)`` that also takes a cotangent
# with extra leading axes, so it is also the primitive's batched rule (tapegrad.batching).
ELEMENTWISE = {}


def defjvp(prim, *per_input):
    """Forward rules, one per input: ``f(t, ans, *inputs, **attrs)``; contributions are summed."""
    prim.jvp = sum_of_jvps(per_input)
    return prim


def deflinear(prim, *transposes):
    """A linear primitive: its JVP is the primitive applied to the tangents."""
    defvjp(prim, *transposes)
    prim.jvp = linear_jvp(prim)
    return prim


def elementwise(name, impl, deriv, error=None, dtypes=None, exempt=None):
    """A unary elementwise primitive from its derivative ``deriv(ans, x) -> Tensor``: its VJP
    ``g * f'(x)`` broadcasts over leading rows, so it is its batched rule too."""
    prim = primitive(name, impl, error, dtypes=dtypes, exempt=exempt)
    defshape(prim, shape_rules.same)   # (a rule declared after it replaces this one)
    defvjp(prim, lambda g, ans, x: times(g, conj_if_complex(deriv(ans, x))))   # TF: conj
    defjvp(prim, lambda t, ans, x: multiply(t, deriv(ans, x)))
    defbatched(prim, prim.vjp)
    ELEMENTWISE[prim] = prim.vjp
    return prim
