"""A ``tf.function``'s arguments: bound to the Python signature and named as TensorFlow names its
placeholders, checked and converted against an ``input_signature`` with TensorFlow's errors, and
rebuilt into positional and keyword arguments for the Python function. An input signature holds
``TensorSpec``s and ``RaggedTensorSpec``s (a RaggedTensor's spec is checked component by component,
as TensorFlow does: flat values, then row splits)."""
import inspect

from .. import nest
from ..ops.ragged_array_ops import RaggedTensorSpec
from ..ops.ragged_ops import RaggedTensor
from ..ops.sparse_array_ops import SparseTensorSpec
from ..ops.sparse_ops import SparseTensor
from ..tensor import Tensor, convert_to_tensor
from ..tensor_spec import TensorSpec
from ..variables import Variable
from .keys import map_leaves, trace_key

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def named_arguments(signature, args, kwargs):
    """``(name, value)`` for each parameter, defaults applied; ``*args`` become ``args_0``, ...
    and ``**kwargs`` their own names, as TensorFlow names its placeholders."""
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    out = []
    for name, value in bound.arguments.items():
        kind = signature.parameters[name].kind
        if kind == inspect.Parameter.VAR_POSITIONAL:
            out.extend((f"{name}_{i}", v) for i, v in enumerate(value))
        elif kind == inspect.Parameter.VAR_KEYWORD:
            out.extend(value.items())
        else:
            out.append((name, value))
    return bound, out


def plain_parameters(signature):
    """The parameter names when every parameter is positional with no default (a call with
    that many positional arguments binds them in order, as ``named_arguments`` does); else
    None."""
    params = signature.parameters.values()
    if all(p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
           and p.default is inspect.Parameter.empty for p in params):
        return tuple(p.name for p in params)
    return None


def rebuild(signature, values, named):
    """Positional and keyword arguments for the Python function from per-name values."""
    by_name = dict(zip([n for n, _ in named], values))
    args, kwargs = [], {}
    for name, p in signature.parameters.items():
        if p.kind == inspect.Parameter.VAR_POSITIONAL:
            i = 0
            while f"{name}_{i}" in by_name:
                args.append(by_name.pop(f"{name}_{i}"))
                i += 1
        elif p.kind == inspect.Parameter.VAR_KEYWORD:
            kwargs.update(by_name)
            by_name = {}
        elif name in by_name:
            if p.kind == inspect.Parameter.KEYWORD_ONLY:
                kwargs[name] = by_name.pop(name)
            else:
                args.append(by_name.pop(name))
    return args, kwargs


def parameter_names(signature):
    """The names of the parameters that can be given by position."""
    return [n for n, p in signature.parameters.items() if p.kind in _POSITIONAL]


# -- input_signature -----------------------------------------------------------------------------
def check_input_signature(input_signature):
    """``input_signature`` as a tuple, or TensorFlow's ``TypeError`` for one that is not a
    (possibly nested) sequence of TensorSpecs."""
    if input_signature is None:
        return None
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError("input_signature must be either a tuple or a list, got "
                        f"{type(input_signature)}.")
    leaves = nest.flatten(list(input_signature))
    bad = [x for x in leaves if not isinstance(x, (TensorSpec, RaggedTensorSpec, SparseTensorSpec))]
    if bad:
        raise TypeError("input_signature must be a possibly nested sequence of TensorSpec "
                        f"objects, got invalid args {bad} with types {[type(x) for x in bad]}.")
    return tuple(input_signature)


def check_signature_covers_parameters(signature, input_signature):
    """Every positional parameter without a default needs a spec."""
    for name in parameter_names(signature)[len(input_signature):]:
        if signature.parameters[name].default is inspect.Parameter.empty:
            raise TypeError(f"input_signature missing type constraint for {name}")


def bind_to_signature(signature, input_signature, args, kwargs):
    """``(name, tensor)`` for each spec of ``input_signature`` and the trace key they make, or
    TensorFlow's ``TypeError`` for arguments that do not fit."""
    names = parameter_names(signature)[:len(input_signature)]
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names]
    try:
        bound = inspect.Signature(params).bind(*args, **kwargs)
        named = [(n, _fit_to_spec(bound.arguments[n], s)) for n, s in zip(names, input_signature)]
    except (TypeError, _Mismatch) as e:
        raise TypeError(
            f"Binding inputs to tf.function failed due to `{e}`. Received args: {args!r} and "
            f"kwargs: {kwargs!r} for signature: "
            f"({_signature_text(names, input_signature)}).") from None
    return named, trace_key(tuple(input_signature))


def _fit_to_spec(value, spec):
    """``value`` as a tensor of ``spec``, or the reason it cannot be (TensorFlow's wording)."""
    if isinstance(spec, (list, tuple, dict)):
        if isinstance(spec, dict):
            if not isinstance(value, dict) or set(value) != set(spec):
                raise _Mismatch(f"{value!r} does not match the structure of {spec!r}")
            return {k: _fit_to_spec(value[k], spec[k]) for k in value}
        if not isinstance(value, (list, tuple)) or len(value) != len(spec):
            raise _Mismatch(f"{value!r} does not match the structure of {spec!r}")
        return type(value)(_fit_to_spec(v, s) for v, s in zip(value, spec))
    if isinstance(value, (TensorSpec, RaggedTensorSpec, SparseTensorSpec)) and \
            type(value) is type(spec):      # (get_concrete_function given specs)
        if not spec.is_compatible_with(value):
            raise _Mismatch(f"Can not cast {value!r} to {spec!r}")
        return value
    if isinstance(spec, RaggedTensorSpec):
        return _fit_to_ragged_spec(value, spec)
    if isinstance(spec, SparseTensorSpec):
        return _fit_to_sparse_spec(value, spec)
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, RaggedTensor):     # (TensorFlow's nest fails taking its length)
        raise _Mismatch("TypeError: object of type 'RaggedTensor' has no len()\n")
    if not isinstance(value, Tensor):
        try:
            value = convert_to_tensor(value, dtype=spec.dtype)
        except (TypeError, ValueError):
            kind = "float" if spec.dtype.is_floating else spec.dtype.name
            raise _Mismatch(f"Cannot convert {value!r} to EagerTensor of dtype {kind}") from None
    if not spec.is_compatible_with(value):
        raise _Mismatch(f"Can not cast {TensorSpec.from_tensor(value)!r} to "
                        f"{TensorSpec(spec._dims, spec.dtype)!r}")
    return value


class _Mismatch(Exception):
    pass


def _component_specs(spec):
    """A RaggedTensorSpec's component specs: flat values, then each axis's row splits."""
    dims = spec.shape.as_list() if spec.shape.rank is not None else [None] * (spec.ragged_rank + 1)
    outer = None if dims[0] is None else dims[0] + 1
    splits = [TensorSpec([outer], spec.row_splits_dtype)] + \
        [TensorSpec([None], spec.row_splits_dtype)] * (spec.ragged_rank - 1)
    return [TensorSpec([None] + dims[spec.ragged_rank + 1:], spec.dtype)] + splits


def _fit_to_ragged_spec(value, spec):
    """``value`` if it is a RaggedTensor of ``spec``, else TensorFlow's reason: the structures
    differ (not ragged, another ragged rank) or a component cannot be cast to its spec."""
    specs = _component_specs(spec)
    parts = [value.flat_values, *value.nested_row_splits] if isinstance(value, RaggedTensor) \
        else [value]
    if len(parts) != len(specs):
        first, second = f"type=list str={specs!r}", f"type=list str={parts!r}"
        raise _Mismatch(f"The two structures don't have the same nested structure.\n\n"
                        f"First structure: {first}\n\nSecond structure: {second}\n\n"
                        f"More specifically: The two structures don't have the same number of "
                        f"elements. First structure: {first}. Second structure: {second}\n"
                        f"Entire first structure:\n{_dots(specs)}\n"
                        f"Entire second structure:\n{_dots(parts)}")
    for part, part_spec in zip(parts, specs):
        if part.dtype != part_spec.dtype or not part_spec.is_compatible_with(part):
            raise _Mismatch(f"Can not cast {TensorSpec.from_tensor(part)!r} to {part_spec!r}")
    return value


def composite_component_specs(spec):
    """A RaggedTensorSpec's or SparseTensorSpec's component TensorSpecs, in trace order."""
    if isinstance(spec, SparseTensorSpec):
        return sparse_component_specs(spec)
    return _component_specs(spec)


def fit_to_composite_spec(value, spec):
    """``value`` if it fits composite ``spec``, else a ``TypeError`` saying why."""
    try:
        if isinstance(spec, SparseTensorSpec):
            return _fit_to_sparse_spec(value, spec)
        return _fit_to_ragged_spec(value, spec)
    except _Mismatch as e:
        raise TypeError(str(e)) from None


def sparse_component_specs(spec):
    """A SparseTensorSpec's component specs: indices, values, dense shape."""
    rank = spec.shape.rank
    return [TensorSpec([None, rank], "int64"), TensorSpec([None], spec.dtype),
            TensorSpec([rank], "int64")]


def _fit_to_sparse_spec(value, spec):
    """``value`` if it is a SparseTensor of ``spec``, else TensorFlow's reason: it has no
    sparse components, a component cannot be cast to its spec, or its dense shape does not fit."""
    if not isinstance(value, SparseTensor):
        kind = type(value)
        raise _Mismatch(f"'{kind.__module__}.{kind.__qualname__}' object has no attribute "
                        f"'indices'")
    parts = [value.indices, value.values, value.dense_shape]
    for part, part_spec in zip(parts, sparse_component_specs(spec)):
        if part.dtype != part_spec.dtype or not part_spec.is_compatible_with(part):
            raise _Mismatch(f"Can not cast {TensorSpec.from_tensor(part)!r} to {part_spec!r}")
    if not spec.shape.is_compatible_with(value.shape):
        raise _Mismatch(f"Can not cast {SparseTensorSpec.from_value(value)!r} to {spec!r}")
    return value


def _dots(items):
    """A flat list as TensorFlow's nest draws its structure: ``[., .]``."""
    return "[" + ", ".join("." for _ in items) + "]"


def _signature_text(names, specs):
    return ", ".join(f"{n}: {s!r}" for n, s in zip(names, specs))


def spec_of(x):
    """A tensor's TensorSpec (a RaggedTensor's component's); anything else as it is."""
    return TensorSpec.from_tensor(x) if isinstance(x, Tensor) else x


def unnamed(structure):
    """Specs as TensorFlow prints them in a signature: without their names."""
    return map_leaves(lambda s: TensorSpec(s._dims, s.dtype) if isinstance(s, TensorSpec) else s,
                      structure)
