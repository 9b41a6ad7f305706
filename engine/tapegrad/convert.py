"""Turning op arguments into Tensors of one dtype, with TensorFlow's rules and messages."""
from .backend import xp

from .errors import InvalidArgumentError, found_while_building, invalid_argument
from .primitives import TABLE
from .tensor import EagerTensor, Tensor, convert_to_tensor, wrap
from .variables import Variable

# TensorFlow's names for dtypes inside op error messages.
_TF_TYPE = {"float32": "float", "float64": "double", "float16": "half"}


def tf_type_name(dtype_name):
    return _TF_TYPE.get(dtype_name, dtype_name)


def tensor(x):
    """One argument as a Tensor (a Variable is read, which a tape may record)."""
    if type(x) is EagerTensor:
        return x
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x)


def same_dtype(args, op_name):
    """Arguments as Tensors of one dtype. Python values take the dtype of the first tensor;
    two tensors of different dtypes are an error, as in TensorFlow."""
    ref = None
    for a in args:
        if isinstance(a, (Tensor, Variable)):
            ref = a
            break
    out = []
    dtype = None
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            t = a
        elif isinstance(a, Variable):
            t = a.read_value()
        elif ref is not None:
            if isinstance(a, float) and ref.dtype.is_integer:
                # TensorFlow will not turn a Python float into an integer tensor. AddV2
                # converts each side alone and reports the dtype mismatch (an
                # InvalidArgumentError, here also the TypeError the engine raised before).
                if op_name == "AddV2":
                    raise invalid_argument(
                        f"cannot compute AddV2 as input #{i}(zero-based) was expected to be a "
                        f"{tf_type_name(ref.dtype.name)} tensor but is a float tensor "
                        f"[Op:AddV2]", TypeError)
                raise TypeError(f"Cannot convert {a!r} to EagerTensor of dtype {ref.dtype.name}")
            t = convert_to_tensor(a, dtype=ref.dtype)
        elif dtype is not None:
            t = convert_to_tensor(a, dtype=dtype)
        else:
            t = convert_to_tensor(a)
        if dtype is None:
            dtype = t.dtype
        elif t._value.dtype != dtype._np:
            raise _mixed_dtypes(op_name, i, dtype, t.dtype, len(args))
        out.append(t)
    return out


def _mixed_dtypes(op_name, i, expected, got, count):
    """TensorFlow's error for input ``i`` of another dtype than the first: eagerly an
    InvalidArgumentError, in a graph being built (a tf.function's trace) a TypeError. As in
    TensorFlow, the op's type attribute is taken from input #0 and checked first."""
    rule = getattr(TABLE.get(op_name), "dtypes", None)
    first = xp.dtype(expected._np)
    if rule is not None and rule.kinds.get(first.char) == "invalid":
        return rule.error(op_name, first)
    error = InvalidArgumentError(
        f"cannot compute {op_name} as input #{i}(zero-based) was expected to be a "
        f"{tf_type_name(expected.name)} tensor but is a {tf_type_name(got.name)} tensor "
        f"[Op:{op_name}]")
    if count == 2:
        graph = (f"Input 'y' of '{op_name}' Op has type {got.name} that does not match type "
                 f"{expected.name} of argument 'x'.")
    else:
        graph = (f"Input #{i} of '{op_name}' Op has type {got.name} that does not match type "
                 f"{expected.name} of input #0.")
    return found_while_building(error, TypeError, graph)


def binary(x, y, op_name):
    """Fast path of ``same_dtype`` for two arguments (the common cases of the hot path)."""
    tx, ty = type(x), type(y)
    if tx is EagerTensor:
        if ty is EagerTensor:
            if x._value.dtype != y._value.dtype:
                return same_dtype((x, y), op_name)
            return x, y
        if ty is float or ty is int:
            dt = x._value.dtype
            if dt.kind == "f":
                return x, wrap(xp.array(y, dt))
        elif isinstance(y, Variable):
            # Speed: ``tf.matmul(h, w) + b`` with a variable ``b`` read here, as same_dtype
            # would read it (skips its generic loop); part of W2's -12% instructions per step
            # (callgrind, engine/bench/step_cost.py; see sparse_xent_ops._numpy_grad).
            y = y.read_value()
            if x._value.dtype == y._value.dtype:
                return x, y
    elif ty is EagerTensor and (tx is float or tx is int):
        dt = y._value.dtype
        if dt.kind == "f":
            return wrap(xp.array(x, dt)), y
    return same_dtype((x, y), op_name)
