"""Which dtypes an op accepts, as TensorFlow 2.21's op registrations (recorded per op and dtype
in tests/conformance/cases/dtypes_table.py and its fixture): the dtype sets and the checking
machinery. The rules themselves sit on the declarations: ``primitive("Sigmoid", impl,
dtypes=FLOAT_COMPLEX)`` in the op's family module, and ``composite("Softmax", FLOAT)`` next to a
public function that TensorFlow runs as one op but the engine composes of several primitives.

A float-only op (``Sigmoid``, ``Exp``) rejects integers instead of NumPy's silent promotion to
float64; arithmetic rejects ``bool``; a numeric op rejects strings. TensorFlow answers in two
ways, and so do we:

- the dtype is not in the op's list of allowed types: ``InvalidArgumentError`` (also a
  ``TypeError`` here, as the engine raised before);
- the op lists the dtype but no CPU kernel is registered for it (``Reciprocal`` of int32,
  ``Cholesky`` of float16): ``NotFoundError``.

A primitive's rule is put in front of its implementation once, when it is declared
(``registry.adopt`` calls ``guarded``), so every public function and operator that runs it is
covered. ``Mul``, ``AddV2`` and ``Sub`` (the tape's hot path) declare an ``unguarded()`` rule,
which their public functions check instead.

    >>> import tapegrad as tf
    >>> sorted(tf.table.TABLE["Sigmoid"].dtypes.rejected())[:3]
    ['bool', 'int16', 'int32']
    >>> tf.sigmoid(tf.constant([1, 2]))
    Traceback (most recent call last):
    ...
    tapegrad.errors.InvalidArgumentError: Sigmoid: x has dtype int32, which Sigmoid does not accept (expected a floating-point or complex tensor). Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, float, double, complex64, complex128 [Op:Sigmoid]
"""
from .. import errors
from ..backend import xp

# Rules are kept by NumPy dtype character (the check reads ``array.dtype.char``: the cheapest
# test). Characters differ by platform (int32 is 'i' natively, 'l' in 32-bit WebAssembly), so
# they are derived here from the dtype names. Strings are object arrays ('O').
_CHARS = "efdFD?bhilqBHILQ"
_NAME_OF = {c: xp.dtype(c).name for c in _CHARS}     # 'l' -> 'int64' here, 'int32' on wasm32
_NAME_OF["O"] = "string"
_NAMES = {c: errors.TF_TYPE_NAMES.get(n, n) for c, n in _NAME_OF.items()}
_ORDER = "".join(sorted(_CHARS, key=lambda c: [
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "complex64", "complex128", "bool"].index(_NAME_OF[c])))


def _chars(names):
    return "".join(c for c in _NAME_OF if _NAME_OF[c] in names)


class Rule:
    """The dtypes one op accepts: ``kinds`` maps each dtype character it refuses to "invalid"
    (not in TensorFlow's list for the op) or "no_kernel" (listed, but no CPU kernel).
    ``guard`` False: the op's public functions check it, not a wrapper around the
    implementation (the hot path's ``Mul``, ``AddV2``, ``Sub``)."""
    __slots__ = ("kinds", "guard")

    def __init__(self, kinds, guard=True):
        self.kinds = kinds
        self.guard = guard

    def __repr__(self):
        return f"<dtypes {', '.join(self.accepted())}>"

    def no_kernel(self, *names):
        """This rule, with the accepted ``names`` registered but given no CPU kernel."""
        return Rule({**self.kinds, **{c: "no_kernel" for c in _chars(names)}}, self.guard)

    def unguarded(self):
        """This rule, checked by the op's public functions instead of around its implementation."""
        return Rule(self.kinds, guard=False)

    def rejected(self):
        """The dtype names the op rejects."""
        return {_NAME_OF[c] for c in self.kinds}

    def accepted(self, listed=False):
        """TensorFlow's names of the numeric and bool dtypes the op accepts (``listed``: also
        those TensorFlow lists for it without a CPU kernel), in TensorFlow's order."""
        seen = []
        for c in _ORDER:
            if (self.kinds.get(c) in (None, "no_kernel") if listed else c not in self.kinds) \
                    and _NAMES[c] not in seen:
                seen.append(_NAMES[c])
        return seen

    def error(self, op, dtype, arg="x"):
        """TensorFlow's error for ``op`` on ``dtype`` (a NumPy dtype), or None when accepted."""
        kind = self.kinds.get(dtype.char)
        if kind is None:
            return None
        name = _NAMES.get(dtype.char, str(dtype))
        if kind == "no_kernel":
            return errors.NotFoundError(
                f"{op}: no kernel for dtype {name} (TensorFlow registers {op} for {name} but has "
                f"no CPU kernel for it) [Op:{op}]")
        if self.accepted() == ["bool"]:   # TensorFlow's ops on bool alone have no type attr
            return errors.found_while_building(errors.invalid_argument(
                f"cannot compute {op} as input #{_INPUT.get(arg, 0)}(zero-based) was expected to "
                f"be a bool tensor but is a {name} tensor [Op:{op}]", TypeError), TypeError,
                f"Input '{arg}' of '{op}' Op has type {name} that does not match expected type "
                f"of bool.")
        names = _tf_list(self.accepted(listed=True))
        return errors.found_while_building(errors.invalid_argument(
            f"{op}: {arg} has dtype {name}, which {op} does not accept{_wanted(names)}. Value for "
            f"attr 'T' of {name} is not in the list of allowed values: {', '.join(names)} "
            f"[Op:{op}]",
            TypeError), TypeError,
            f"Value passed to parameter '{arg}' has DataType {name} not in list of allowed "
            f"values: {', '.join(names)}")


_KIND = {"half": "float", "bfloat16": "float", "float": "float", "double": "float",
         "complex64": "complex", "complex128": "complex"}


def _wanted(names):
    """" (expected a floating-point tensor)" when the allowed dtypes are of one or two kinds."""
    kinds = frozenset(_KIND.get(n, "other") for n in names)
    return {frozenset({"float"}): " (expected a floating-point tensor)",
            frozenset({"float", "complex"}): " (expected a floating-point or complex tensor)"
            }.get(kinds, "")


_INPUT = {"x": 0, "y": 1}   # an argument's position, for TensorFlow's "input #i" wording


def _tf_list(accepted):
    """TensorFlow's list of allowed values for an op accepting ``accepted``: its registrations
    name bfloat16 (which the engine does not have) wherever they name half, and the quantized
    types too where they take every number (TensorFlow's "numbertypes")."""
    names = [n for a in accepted for n in ((a, "bfloat16") if a == "half" else (a,))]
    if set(_NUMBER_NAMES) <= set(names):
        names += ["qint8", "quint8", "qint16", "quint16", "qint32"]
    return names


def accepting(*names):
    """The rule of an op whose TensorFlow registration lists the dtypes ``names`` (a string
    tensor is refused unless "string" is named)."""
    return Rule({c: "invalid" for c in _NAME_OF if _NAME_OF[c] not in names})


_FLOATS = ("float16", "float32", "float64")
_COMPLEXES = ("complex64", "complex128")
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
_INTS = _SIGNED + _UNSIGNED

# The sets most ops take (named by what they accept); other ops name their dtypes with ``accepting``.
FLOAT = accepting(*_FLOATS)
FLOAT_COMPLEX = accepting(*_FLOATS, *_COMPLEXES)
REAL = accepting(*_FLOATS, *_INTS)                          # ordered numbers
NUMBER = accepting(*_FLOATS, *_INTS, *_COMPLEXES)           # every number
SIGNED = accepting(*_FLOATS, *_SIGNED, *_COMPLEXES)         # signed numbers (Abs, Neg)
INTEGER = accepting(*_INTS)
COMPLEX = accepting(*_COMPLEXES)
FLOAT_INT = accepting(*_FLOATS, "int32", "int64")         # TruncateMod
REAL_OR_BOOL = accepting(*_FLOATS, *_INTS, "bool")          # ArgMax, ArgMin
BOOL = accepting("bool")
NOT_STRING = accepting(*_FLOATS, *_INTS, *_COMPLEXES, "bool")   # every dtype but string
ANY = Rule({})                                              # every dtype, strings included
# The exemption of a primitive that only another op's rules run, on what that op accepted:
INTERNAL = {"dtypes": "an internal helper of another op's rules: it runs only on dtypes that op's "
                      "rule accepted"}
FLOAT_NAMES, COMPLEX_NAMES, SIGNED_NAMES, UNSIGNED_NAMES = _FLOATS, _COMPLEXES, _SIGNED, _UNSIGNED
_NUMBER_NAMES = [errors.TF_TYPE_NAMES.get(n, n) for n in _FLOATS + _INTS + _COMPLEXES]


class Composite:
    """The dtype rule of a public function that TensorFlow runs as one op (``Softmax``) and the
    engine composes of several primitives: declared next to the function, checked by it with
    ``check(SOFTMAX, x)``. It has a primitive's ``name`` and ``dtypes``."""
    __slots__ = ("name", "dtypes")

    def __init__(self, name, dtypes):
        self.name = name
        self.dtypes = dtypes

    def __repr__(self):
        return f"<composite {self.name}>"


def composite(name, dtypes):
    """Declares the dtype rule ``dtypes`` of the composite op ``name`` (see ``Composite``)."""
    return Composite(name, dtypes)


def check(op, x, arg="x"):
    """Raises TensorFlow's error when ``op`` (a primitive or a ``Composite``) does not accept
    the dtype of tensor ``x``."""
    value = getattr(x, "_value", None)
    if value is None:
        return
    err = op.dtypes.error(op.name, value.dtype, arg)
    if err is not None:
        raise err


def guard(op, rule, impl):
    """``impl`` preceded by ``rule`` (of the op named ``op``) on its first array argument."""
    kinds = rule.kinds

    def checked(x, *rest, **attrs):
        if x.dtype.char in kinds:
            raise rule.error(op, x.dtype)
        return impl(x, *rest, **attrs)

    checked.__name__ = getattr(impl, "__name__", op)
    checked.__wrapped__ = impl
    checked._dtype_rule = True
    return checked


def guarded(prim):
    """``prim``'s implementation behind its dtype rule; the implementation itself when it has no
    rule, a rule its functions check (``unguarded``), one refusing nothing, or is guarded already."""
    rule = prim.dtypes
    if (rule is None or not rule.guard or not rule.kinds or prim.impl is None
            or getattr(prim.impl, "_dtype_rule", False)):
        return prim.impl
    return guard(prim.name, rule, prim.impl)
