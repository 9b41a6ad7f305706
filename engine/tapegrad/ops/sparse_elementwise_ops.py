"""Elementwise ops on SparseTensors: the ops that keep zero at zero (``tf.abs``, ``tf.square``,
``tf.sin``...) act on a SparseTensor's values and keep its indices, as TensorFlow's dispatch
does; the others (``tf.exp``, ``tf.cos``...) refuse it as TensorFlow does, since the missing
entries would stop being zero. Each op below is registered with that sparse form (see
composite_dispatch.py). ``st * dense`` and ``st / dense`` are SparseTensor's own operators.

>>> import tapegrad as tf
>>> st = tf.sparse.SparseTensor([[0, 1]], [-2.0], [2, 2])
>>> tf.abs(st).values.numpy().tolist()
[2.0]
"""
from .arithmetic_ops import abs, cast, negative, sign
from .composite_dispatch import composite_form
from .exponential_ops import erf, sqrt, square
from .sparse_ops import SparseTensor
from .trig_ops import asin, asinh, atan, atanh, sin, tan, tanh

# The ops TensorFlow 2.21 dispatches for a SparseTensor (recorded in the sparse_more area)
ZERO_PRESERVING = (abs, asin, asinh, atan, atanh, cast, erf, negative, sign, sin, sqrt, square,
                   tan, tanh)


def on_values(op):
    """The sparse form of ``op``: ``op`` of the SparseTensor's values, at the same indices."""
    def sparse_form(*args, **kwargs):
        if args:
            sp, args = args[0], args[1:]
        else:
            key = next(k for k, v in kwargs.items() if isinstance(v, SparseTensor))
            sp = kwargs.pop(key)
        return SparseTensor(sp.indices, op(sp.values, *args, **kwargs), sp.dense_shape)
    sparse_form.__name__ = f"sparse_{getattr(op, '__name__', 'op')}"
    return sparse_form


for _op in ZERO_PRESERVING:
    composite_form(SparseTensor, _op)(on_values(_op))
