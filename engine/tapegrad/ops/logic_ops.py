"""Comparisons, logic and selection: boolean outputs with no gradient, and ``where``, whose
gradient goes to the branch each element came from."""
from ..backend import xp
from ..checks import check_dtype
from .. import convert
from ..ground import NO_ATTRS, binary, incompatible, unary, unbroadcast, zeros_of
from ..recording import bind
from ..table import defjvp, defnondiff, defvjp, primitive
from ..checks.dtype_rules import ANY, BOOL, FLOAT, REAL
from .. import shape_rules
from ..table import defshape
from ..tensor import wrap
from ..batching import rows_broadcast


def _shape(x):
    return x._value.shape


def _compare(name, fn, dtypes):
    """A non-differentiable binary with a bool result of the broadcast shape."""
    prim = defnondiff(primitive(name, fn, incompatible, dtypes=dtypes))
    defshape(prim, shape_rules.comparison)
    return prim


LESS = _compare("Less", xp.less, dtypes=REAL)
LESS_EQUAL = _compare("LessEqual", xp.less_equal, dtypes=REAL)
GREATER = _compare("Greater", xp.greater, dtypes=REAL)
GREATER_EQUAL = _compare("GreaterEqual", xp.greater_equal, dtypes=REAL)
EQUAL = _compare("Equal", xp.equal, dtypes=ANY)
NOT_EQUAL = _compare("NotEqual", xp.not_equal, dtypes=ANY)
LOGICAL_AND = _compare("LogicalAnd", xp.logical_and, dtypes=BOOL)
LOGICAL_OR = _compare("LogicalOr", xp.logical_or, dtypes=BOOL)
LOGICAL_XOR = _compare("LogicalXor", xp.logical_xor, dtypes=BOOL)


def _test(name, fn, dtypes):
    """A non-differentiable unary with a bool result of the input's shape."""
    prim = defnondiff(primitive(name, fn, dtypes=dtypes))
    defshape(prim, shape_rules.with_dtype("bool"))
    return prim


LOGICAL_NOT = _test("LogicalNot", xp.logical_not, dtypes=BOOL)
IS_NAN = _test("IsNan", xp.isnan, dtypes=FLOAT)
IS_INF = _test("IsInf", xp.isinf, dtypes=FLOAT)
IS_FINITE = _test("IsFinite", xp.isfinite, dtypes=FLOAT)


def less(x, y, name=None):
    return binary(LESS, x, y)


def less_equal(x, y, name=None):
    return binary(LESS_EQUAL, x, y)


def greater(x, y, name=None):
    return binary(GREATER, x, y)


def greater_equal(x, y, name=None):
    return binary(GREATER_EQUAL, x, y)


def equal(x, y, name=None):
    return binary(EQUAL, x, y)


def not_equal(x, y, name=None):
    return binary(NOT_EQUAL, x, y)


def _bools(prim, x, y):
    """The operands of a logical op as bool tensors. A Python number that is not a bool cannot
    become one (TensorFlow: ``TypeError``); a tensor of another dtype is the op's dtype error."""
    for v in (x, y):
        if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
            raise TypeError(f"{prim.name}: cannot convert {v!r} to a bool tensor")
    x, y = convert.binary(x, y, prim.name)
    check_dtype(prim, x)
    return x, y


def logical_and(x, y, name=None):
    return bind(LOGICAL_AND, _bools(LOGICAL_AND, x, y), NO_ATTRS)


def logical_or(x, y, name=None):
    return bind(LOGICAL_OR, _bools(LOGICAL_OR, x, y), NO_ATTRS)


def logical_xor(x, y, name=None):
    return bind(LOGICAL_XOR, _bools(LOGICAL_XOR, x, y), NO_ATTRS)


def logical_not(x, name=None):
    return unary(LOGICAL_NOT, x)


def is_nan(x, name=None):
    return unary(IS_NAN, x)


def is_inf(x, name=None):
    return unary(IS_INF, x)


def is_finite(x, name=None):
    return unary(IS_FINITE, x)



# -- selection -----------------------------------------------------------------------------------
def _where_error(inputs, attrs, exc):
    return "condition, then and else tensors must be broadcastable: " + ", ".join(
        "[" + ",".join(map(str, x._value.shape)) + "]" for x in inputs)


SELECT = primitive("SelectV2", xp.where, _where_error, dtypes=ANY)
defvjp(SELECT, None,
       lambda g, ans, c, x, y: unbroadcast(where(c, g, zeros_of(g)), _shape(x)),
       lambda g, ans, c, x, y: unbroadcast(where(c, zeros_of(g), g), _shape(y)))
defjvp(SELECT, None,
       lambda t, ans, c, x, y: where(c, t, zeros_of(ans)),
       lambda t, ans, c, x, y: where(c, zeros_of(ans), t))
defshape(SELECT, shape_rules.broadcasting_last)


def where(condition, x=None, y=None, name=None):
    """``x`` where ``condition`` is true, else ``y`` (all three broadcast). With only a
    condition, the int64 coordinates of its true entries."""
    c = convert.tensor(condition)
    if x is None and y is None:
        return wrap(xp.argwhere(c._value).astype(xp.int64))
    if x is None or y is None:
        raise ValueError("tf.where: x and y must both be given, or neither.")
    if c._value.dtype != xp.bool_:
        raise TypeError(f"tf.where: condition must be a bool tensor, got {c.dtype.name}")
    x, y = convert.binary(x, y, "SelectV2")
    return bind(SELECT, (c, x, y), {})


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_broadcast(SELECT)
