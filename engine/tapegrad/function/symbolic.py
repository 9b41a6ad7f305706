"""Tensors as a trace shows them: arguments printed as TensorFlow's graph placeholders while a
call traces, the inputs and outputs a concrete function lists, and results handed back as
TensorFlow returns them."""
import itertools

from ..tensor import EagerTensor, Tensor, TensorShape, convert_to_tensor
from ..tensor_spec import TensorSpec, shape_text
from ..variables import Variable
from .keys import is_array, map_leaves


class SymbolicTensor(EagerTensor):
    """An argument seen while tracing: the same tensor (value and tape identity), printed as
    TensorFlow prints a graph placeholder: ``Tensor("x:0", shape=(None,), dtype=float32)``."""

    __slots__ = ("_graph_name", "_graph_dims")

    @classmethod
    def of(cls, tensor, name, dims):
        t = cls()
        t._value = tensor._value
        t._id = tensor._id
        t._graph_name = name
        t._graph_dims = dims
        return t

    @property
    def name(self):
        return self._graph_name

    def __repr__(self):
        return (f"<tf.Tensor '{self._graph_name}' shape={shape_text(self._graph_dims)} "
                f"dtype={self.dtype.name}>")

    def __str__(self):
        shape = "" if self._graph_dims is None else f", shape={shape_text(self._graph_dims)}"
        return f'Tensor("{self._graph_name}"{shape}, dtype={self.dtype.name})'


class GraphTensorView:
    """What a concrete function lists as its inputs and outputs: a name, a shape (``None`` where
    it depends on an input's unknown dimension) and a dtype, printed as TensorFlow's."""

    def __init__(self, name, dims, dtype):
        self.name, self._dims, self.dtype = name, dims, dtype

    @property
    def shape(self):
        return TensorShape(self._dims)       # (a resource handle's too: TensorShape([]))

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={shape_text(self._dims)} dtype={self.dtype.name}>"

    def __str__(self):
        shape = "" if self._dims is None else f", shape={shape_text(self._dims)}"
        return f'Tensor("{self.name}"{shape}, dtype={self.dtype.name})'


def with_symbolic_names(named_values, dims_list):
    """Each argument with its tensors replaced by SymbolicTensors named ``x:0``, ``x_1:0``..."""
    dims_iter = iter(dims_list)
    out = []
    for name, value in named_values:
        count = itertools.count()

        def symbolic(leaf):
            if isinstance(leaf, Tensor):
                i = next(count)
                label = f"{name}:0" if i == 0 else f"{name}_{i}:0"
                return SymbolicTensor.of(leaf, label, next(dims_iter))
            return leaf
        out.append(map_leaves(symbolic, value))
    return out


def _plain(x):
    """A SymbolicTensor back as the plain tensor it stands for."""
    t = EagerTensor()
    t._value, t._id = x._value, x._id
    return t


def _output(x):
    """A returned leaf as TensorFlow returns it: tensors (Python numbers, bools, strings, NumPy
    values and variables converted), plain again if it was a traced argument; None and other objects as
    they are."""
    if isinstance(x, SymbolicTensor):
        return _plain(x)
    if isinstance(x, Variable):          # a graph returns the variable's value
        return x.read_value()
    if isinstance(x, (bool, int, float, complex, str, bytes)) or is_array(x):
        return convert_to_tensor(x)
    return x


def outputs(result):
    """A call's result as TensorFlow returns it (see ``_output``)."""
    return map_leaves(_output, result)
