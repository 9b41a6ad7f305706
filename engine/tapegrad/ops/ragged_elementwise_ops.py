"""Elementwise ops on RaggedTensors: given RaggedTensors with the same rows (and scalars), an
elementwise op acts on their flat values and the result keeps their rows, as TensorFlow's
dispatch does. Each op below is registered with that ragged form (see composite_dispatch.py).

>>> import tapegrad as tf
>>> tf.add(tf.ragged.constant([[1, 2], [3]]), 3).to_list()
[[4, 5], [6]]
"""
from ..backend import xp
from ..errors import TF_TYPE_NAMES, InvalidArgumentError, UnimplementedError
from ..ground import add, multiply
from ..tensor import Tensor
from ..variables import Variable
from .array_ops import ones_like, zeros_like
from .activation_ops import log_sigmoid, relu, sigmoid, softplus
from .arithmetic_ops import (
    abs, cast, ceil, clip_by_value, divide, divide_no_nan, floor, floordiv, floormod, maximum,
    minimum, negative, round, sign, subtract, truediv,
)
from .exponential_ops import (
    erf, exp, expm1, log, log1p, pow, reciprocal, rsqrt, sqrt, square, squared_difference,
)
from .logic_ops import (
    equal, greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, logical_and,
    logical_not, logical_or, logical_xor, not_equal, where,
)
from .indexing_ops import gather
from .nn_composite_ops import embedding_lookup, relu6, selu
from .nn_ops import elu, gelu, leaky_relu, silu, softsign, swish
from .ragged_ops import RaggedTensor, _rows, _tensor, dense_against_flat_values, ragged_form
from .string_ops import (
    as_string, length, lower, regex_full_match, regex_replace, strip, substr, to_hash_bucket,
    to_hash_bucket_fast, to_hash_bucket_strong, to_number, upper,
)
from .trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cos, cosh, sin, sinh, tan, tanh
from .unicode_ops import unicode_script

# tf.*, tf.math and tf.nn ops that act element by element
NUMERIC = (
    abs, acos, acosh, add, asin, asinh, atan, atan2, atanh, cast, ceil, clip_by_value, cos, cosh,
    divide, divide_no_nan, equal, erf, exp, expm1, floor, floordiv, floormod, greater,
    greater_equal, is_finite, is_inf, is_nan, less, less_equal, log, log1p, log_sigmoid,
    logical_and, logical_not, logical_or, logical_xor, maximum, minimum, multiply, negative,
    not_equal, pow, reciprocal, round, rsqrt, sigmoid, sign, sin, sinh, softplus, sqrt, square,
    squared_difference, subtract, tan, tanh, truediv, where, relu, relu6, elu, selu, gelu, silu,
    swish, softsign, leaky_relu, zeros_like, ones_like,
)
# tf.strings' per-string functions
STRINGS = (
    length, lower, upper, strip, substr, regex_replace, regex_full_match, to_number, as_string,
    to_hash_bucket, to_hash_bucket_fast, to_hash_bucket_strong, unicode_script,
)


def _flat_argument(a, template, op_name):
    if isinstance(a, RaggedTensor):
        if len(a.nested_row_splits) != len(template.nested_row_splits) or not all(
                xp.array_equal(x._value, y._value)
                for x, y in zip(a.nested_row_splits, template.nested_row_splits)):
            raise InvalidArgumentError(f"{op_name}: the RaggedTensor arguments have different "
                                       f"row partitions")
        return a.flat_values
    if isinstance(a, (Tensor, Variable, list, tuple)) or getattr(a, "ndim", 0):
        if xp.ndim(a._value if isinstance(a, Tensor) else
                   a.read_value()._value if isinstance(a, Variable) else a) > 0:
            return dense_against_flat_values(template, a)
    return a


def on_flat_values(op):
    """The ragged form of the elementwise ``op``: ``op`` on the flat values of its RaggedTensor
    arguments (all with the first one's rows), the result with those rows."""
    name = getattr(op, "__name__", "op")

    def ragged_form(*args, **kwargs):
        template = next(a for a in (*args, *kwargs.values()) if type(a) is RaggedTensor)
        out = op(*[_flat_argument(a, template, name) for a in args],
                 **{k: _flat_argument(v, template, name) for k, v in kwargs.items()})
        return template.with_flat_values(out)

    ragged_form.__name__ = f"ragged_{name}"
    return ragged_form


def on_ragged_ids(op):
    """The ragged form of the lookup ``op(params, ids)``: with RaggedTensor ids, ``op`` on the
    flat ids, the result with the ids' rows (TensorFlow's ``tf.gather`` /
    ``tf.nn.embedding_lookup`` on ragged ids); with RaggedTensor params and dense ids, the rows
    the ids name (``tf.gather(rt, [2, 0])``)."""
    name = getattr(op, "__name__", "op")

    def ragged_form(params, ids, *args, **kwargs):
        if any(kwargs.get(k) not in (None, 0) for k in ("axis", "batch_dims")) or \
                any(a not in (None, 0) for a in args[:2]):
            raise UnimplementedError(f"{name}: RaggedTensor arguments take only axis=0, "
                                     f"batch_dims=0")
        if isinstance(params, RaggedTensor) and not isinstance(ids, RaggedTensor):
            return gather_rows(params, ids)
        if isinstance(params, RaggedTensor):
            raise UnimplementedError(f"{name}: RaggedTensor params with RaggedTensor ids are "
                                     f"not supported")
        return ids.with_flat_values(op(params, ids.flat_values, **{
            k: v for k, v in kwargs.items() if k not in ("axis", "batch_dims")}))

    ragged_form.__name__ = f"ragged_{name}"
    return ragged_form


def gather_rows(rt, indices):
    """The rows of ``rt`` that dense ``indices`` name, one ragged level per axis of
    ``indices`` (TensorFlow's RaggedGather); gradients reach the gathered values."""
    ids = _tensor(indices)
    if ids.dtype.name not in ("int32", "int64"):
        kind = TF_TYPE_NAMES.get(ids.dtype.name, ids.dtype.name)
        raise InvalidArgumentError(f"Value for attr 'Tindices' of {kind} is not in the "
                                   f"list of allowed values: int32, int64")
    flat = ids._value.reshape(-1)
    n = int(rt.nrows()._value)
    bad = xp.nonzero((flat < 0) | (flat >= n))[0]
    if bad.size:
        raise InvalidArgumentError(f"indices[{bad[0]}] = {flat[bad[0]]} is not in [0, {n}) "
                                   f"[Op:RaggedGather]")
    out = _rows(rt, flat)
    for size in reversed(ids._value.shape[1:]):
        out = RaggedTensor.from_uniform_row_length(out, int(size), validate=False)
    return out


# one table of what TensorFlow dispatches for RaggedTensor, by the form each op takes
DISPATCHED = {on_flat_values: NUMERIC + STRINGS, on_ragged_ids: (gather, embedding_lookup)}
for _form, _ops in DISPATCHED.items():
    for _op in dict.fromkeys(_ops):   # once each (truediv is divide)
        ragged_form(_op)(_form(_op))
del _form, _ops, _op
