"""The primitives the checks watch over: each one is adopted once, when it is declared
(``primitives.primitive``). Adopting puts the dtype rule declared with it (``dtypes=``) in front
of its implementation (``dtype_rules.guarded``); ``numerics.enable_check_numerics`` later wraps
every adopted primitive while it is on."""
from .dtype_rules import guarded

ADOPTED = {}   # op name -> primitive


def adopt(prim):
    """Registers ``prim`` and guards its implementation with its dtype rule; returns it."""
    prim.impl = guarded(prim)
    ADOPTED[prim.name] = prim
    return prim
