"""Symbolic tensors: ``KerasTensor`` (a shape with unknown dimensions, a dtype, the layer call
that made it) and the recording of a layer called on them (a ``Node``).

A layer called on symbolic tensors is run once on zeros to learn its output shapes and dtypes
(twice when some input dimension is unknown, so dimensions that follow it stay unknown).
"""
import operator

from .. import dtypes, nest
from ..backend import xp
from ..tensor import wrap
from .naming import unique_name


class KerasTensor:
    """A symbolic tensor: a shape (``None`` for unknown dimensions), a dtype and the layer call
    that produced it."""

    sparse = False        # True for ``Input(sparse=True)``: a SparseTensor flows in there

    def __init__(self, shape, dtype="float32", name=None, history=None):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = dtypes.as_dtype(dtype).name  # a string, as in Keras 3
        self.name = name if name is not None else unique_name("keras_tensor")
        self._keras_history = history  # (layer, node, index in the node's flat outputs)

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse={self.sparse}, "
                f"ragged=False, name={self.name}>")

    def __array__(self, *args, **kwargs):
        raise TypeError("A KerasTensor is symbolic: it's a placeholder for a shape and a dtype. "
                        "It doesn't have any actual numerical value; you can't convert it to "
                        "a NumPy array.")

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a Python `bool`.")


# The weightless layer class that arithmetic on symbolic tensors records (the Layer base sets it;
# it cannot be imported here, as the Layer base imports this module).
op_layer = None


def _apply(fn, *args):
    return op_layer(fn)(*args)


def _binary(fn):
    return (lambda self, other: _apply(fn, self, other),
            lambda self, other: _apply(fn, other, self))


for _name, _fn in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("floordiv", operator.floordiv),
                   ("mod", operator.mod), ("pow", operator.pow), ("matmul", operator.matmul)):
    _forward, _reflected = _binary(_fn)
    setattr(KerasTensor, f"__{_name}__", _forward)
    setattr(KerasTensor, f"__r{_name}__", _reflected)
KerasTensor.__neg__ = lambda self: _apply(operator.neg, self)
KerasTensor.__abs__ = lambda self: _apply(operator.abs, self)
KerasTensor.__getitem__ = lambda self, key: _apply(operator.getitem, self, key)


class Node:
    """One call of a layer on symbolic tensors: its arguments and its outputs."""

    def __init__(self, layer, args, kwargs, outputs):
        self.layer, self.args, self.kwargs, self.outputs = layer, args, kwargs, outputs
        self.inputs = [t for t in nest.flatten([list(args), kwargs]) if isinstance(t, KerasTensor)]
        layer._inbound_nodes.append(self)


def has_symbolic(args, kwargs):
    return any(isinstance(t, KerasTensor) for t in nest.flatten([list(args), dict(kwargs)]))


def _zeros_for(t, unknown):
    shape = tuple(unknown if d is None else d for d in t.shape)
    return wrap(xp.zeros(shape, dtypes.as_dtype(t.dtype)._np))


def _run_on_zeros(layer, args, kwargs, unknown):
    fill = (lambda t: _zeros_for(t, unknown) if isinstance(t, KerasTensor) else t)
    a = nest.map_structure(fill, list(args))
    k = nest.map_structure(fill, dict(kwargs))
    return layer(*a, **k)


def symbolic_call(layer, args, kwargs):
    """Calls ``layer`` on symbolic tensors: records a node and returns symbolic outputs."""
    kwargs = dict(kwargs)
    flat_in = [t for t in nest.flatten([list(args), kwargs]) if isinstance(t, KerasTensor)]
    has_unknown = any(d is None for t in flat_in for d in t.shape)
    first = _run_on_zeros(layer, args, kwargs, 2)
    shapes = [tuple(o.shape) for o in nest.flatten(first)]
    if has_unknown:
        second = _run_on_zeros(layer, args, kwargs, 3)
        shapes = [tuple(None if a != b else a for a, b in zip(s, tuple(o.shape)))
                  for s, o in zip(shapes, nest.flatten(second))]
    flat_out = [KerasTensor(s, o.dtype) for s, o in zip(shapes, nest.flatten(first))]
    outputs = nest.pack_sequence_as(first, flat_out)
    node = Node(layer, tuple(args), kwargs, outputs)
    for i, t in enumerate(flat_out):
        t._keras_history = (layer, node, i)
    layer._output_shape = nest.map_structure(lambda t: t.shape, outputs)
    return outputs


def output_shape_by_probing(layer, input_shape):
    shapes = input_shape
    if isinstance(shapes, tuple) and all(d is None or isinstance(d, int) for d in shapes):
        shapes = [shapes]
        single = True
    else:
        single = False
    symbolic = [KerasTensor(s, layer.dtype_policy) for s in shapes]
    out = symbolic_call(layer, (symbolic[0] if single else symbolic,), {})
    return nest.map_structure(lambda t: t.shape, out)
