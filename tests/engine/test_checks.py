"""The argument checks (tapegrad.checks): what each accepts, what it rejects, with TensorFlow's
error class and a message naming the op, the argument and what was expected."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad import checks, errors
from tapegrad.checks import dtype_rules
from tapegrad.ops import nn_ops
from tapegrad.table import TABLE


# --- axes -----------------------------------------------------------------------------------------
def test_axis_wraps_negative_and_accepts_numpy_and_tensor_ints():
    assert checks.axis("Sum", -1, 3) == 2
    assert checks.axis("Sum", np.int64(1), 3) == 1
    assert checks.axis("Sum", tf.constant(0), 3) == 0
    assert checks.axis("ExpandDims", -1, 2, extra=1) == 2


def test_axis_out_of_range_is_invalid_argument_naming_op_and_range():
    with pytest.raises(errors.InvalidArgumentError, match=r"Sum: axis 2 is out of range .*rank 2"):
        checks.axis("Sum", 2, 2)
    with pytest.raises(errors.InvalidArgumentError, match=r"-2 <= axis < 2"):
        checks.axis("Sum", -3, 2)


def test_float_axis_is_a_type_error_and_a_float_tensor_axis_an_invalid_argument():
    with pytest.raises(TypeError, match="Sum: axis must be an integer, got float 1.0") as e:
        checks.axis("Sum", 1.0, 2)
    assert type(e.value) is TypeError
    with pytest.raises(errors.InvalidArgumentError) as e:
        checks.axis("Sum", tf.constant(1.0), 2)
    assert isinstance(e.value, TypeError)
    assert checks.axis("Sum", True, 2) == 1          # TensorFlow takes a bool as 0/1
    assert checks.axis("Sum", np.float64(1.0), 2) == 1   # and a NumPy float holding an integer
    with pytest.raises(errors.InvalidArgumentError):     # a list holding a float: a float tensor
        checks.axes("Sum", [0, 1.0], 2)


def test_axes_reject_duplicates_after_wrapping():
    assert checks.axes("Sum", [0, -1], 3) == (0, 2)
    assert checks.axes("Sum", None, 3) is None
    assert checks.axes("Sum", tf.constant([1, 0]), 2) == (1, 0)
    with pytest.raises(errors.InvalidArgumentError, match=r"\[1, -1\] names the same axis twice"):
        checks.axes("Sum", [1, -1], 2)
    assert checks.axes("Sum", [1, 1], 2, duplicates="keep") == (1, 1)


# --- shapes ---------------------------------------------------------------------------------------
def test_shape_accepts_lists_tensorshapes_tensors_and_a_scalar():
    assert checks.shape("Fill", [2, 3]) == (2, 3)
    assert checks.shape("Fill", tf.TensorShape([2, 1])) == (2, 1)
    assert checks.shape("Fill", tf.constant([4])) == (4,)
    assert checks.shape("Fill", 3) == (3,)
    assert checks.shape("Fill", []) == ()


def test_shape_rejects_floats_negatives_and_two_unknowns():
    with pytest.raises(TypeError, match=r"Fill: shape must be a list of integer sizes"):
        checks.shape("Fill", [2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"shape\[1\] is -1; each size must be >= 0"):
        checks.shape("Fill", [2, -1])
    assert checks.shape("Reshape", [-1, 3], allow_unknown=True) == (-1, 3)
    with pytest.raises(errors.InvalidArgumentError, match=r"must be >= 0 or -1"):
        checks.shape("Reshape", [-2, 3], allow_unknown=True)
    with pytest.raises(errors.InvalidArgumentError, match="only one -1"):
        checks.shape("Reshape", [-1, -1], allow_unknown=True)
    with pytest.raises(TypeError):
        checks.shape("Fill", tf.TensorShape([None, 2]))


def test_compatible_shapes():
    checks.compatible("Variable", [None, 2], (3, 2))
    with pytest.raises(ValueError, match=r"shape \(\(2,\)\) is not compatible with the "
                                         r"explicitly supplied `shape` argument \(\[3\]\)"):
        checks.compatible("Variable", [3], (2,))
    with pytest.raises(ValueError, match=r"\(2,\) is not compatible with the shape argument \[3\]"):
        checks.compatible("Fill", [3], (2,))


# --- sizes and indices ----------------------------------------------------------------------------
def test_count():
    assert checks.count("OneHot", 0, "depth") == 0
    assert checks.count("OneHot", tf.constant(3), "depth") == 3
    with pytest.raises(errors.InvalidArgumentError, match="OneHot: depth must be >= 0, got -1"):
        checks.count("OneHot", -1, "depth")
    with pytest.raises(TypeError, match="depth must be an integer"):
        checks.count("OneHot", 2.5, "depth")


def test_indices_in_range_names_the_first_bad_entry():
    checks.indices_in_range("GatherV2", np.array([0, 2]), 3)
    checks.indices_in_range("GatherV2", np.zeros([0], np.int32), 0)
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[1\] = 3 is not in \[0, 3\)"):
        checks.indices_in_range("GatherV2", np.array([0, 3]), 3)


def test_slice_bounds():
    assert checks.slice_bounds("Slice", [0, 1], [2, -1], (2, 3)) == ((0, 1), (2, 2))
    with pytest.raises(errors.InvalidArgumentError, match=r"size\[1\] must be in \[0, 2\], got 3"):
        checks.slice_bounds("Slice", [0, 1], [2, 3], (2, 3))
    with pytest.raises(errors.InvalidArgumentError, match=r"begin\[0\] must be in \[0, 2\]"):
        checks.slice_bounds("Slice", [-1, 0], [1, 1], (2, 3))
    with pytest.raises(errors.InvalidArgumentError, match="one entry per dimension"):
        checks.slice_bounds("Slice", [0], [1], (2, 3))


# --- dtype rules ----------------------------------------------------------------------------------
def test_dtype_rules_name_the_op_the_dtype_and_what_is_accepted():
    sigmoid = TABLE["Sigmoid"].dtypes
    err = sigmoid.error("Sigmoid", np.dtype(np.int32))
    assert isinstance(err, errors.InvalidArgumentError) and isinstance(err, TypeError)
    assert "Sigmoid: x has dtype int32" in str(err)
    assert ("Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, "
            "float, double, complex64, complex128") in str(err)   # TensorFlow's sentence
    assert sigmoid.error("Sigmoid", np.dtype(np.float32)) is None
    assert sigmoid.error("Sigmoid", np.dtype(np.complex64)) is None
    missing = TABLE["Reciprocal"].dtypes.error("Reciprocal", np.dtype(np.int32))
    assert isinstance(missing, errors.NotFoundError) and "no kernel" in str(missing)
    assert dtype_rules.ANY.error("Identity", np.dtype(object)) is None


def test_rejected_and_accepted_sets():
    assert {"int32", "int64", "bool", "string"} <= TABLE["Exp"].dtypes.rejected()
    assert "complex64" not in TABLE["Exp"].dtypes.rejected()
    assert "complex64" in nn_ops.SOFTMAX.dtypes.rejected()
    assert TABLE["LogicalAnd"].dtypes.accepted() == ["bool"]
    words_or_floats = dtype_rules.accepting("float32", "string")
    assert words_or_floats.error("X", np.dtype(object)) is None
    assert "float32" not in words_or_floats.rejected() and "float64" in words_or_floats.rejected()


def test_rules_live_on_declarations_not_in_a_table_of_names():
    assert not any(isinstance(v, dict) and "Sigmoid" in v for v in vars(dtype_rules).values())
    assert TABLE["Sigmoid"].dtypes is dtype_rules.FLOAT_COMPLEX
    assert TABLE["Mul"].dtypes.guard is False and TABLE["Sum"].dtypes.guard is True


def test_guard_wraps_an_impl_once():
    calls = []
    prim = type("P", (), {"name": "Sigmoid", "dtypes": dtype_rules.FLOAT_COMPLEX,
                          "impl": staticmethod(lambda x: calls.append(x) or x)})()
    prim.impl = dtype_rules.guarded(prim)
    prim.impl = dtype_rules.guarded(prim)
    impl = prim.impl
    assert impl(np.ones(2, np.float32)).dtype == np.float32 and len(calls) == 1
    with pytest.raises(errors.InvalidArgumentError):
        impl(np.ones(2, np.int32))
    assert not hasattr(impl.__wrapped__, "__wrapped__")   # wrapped once, not twice


def test_no_wrapper_for_a_rule_that_refuses_nothing_or_is_checked_by_its_functions():
    impl = np.negative
    for rule in (dtype_rules.ANY, dtype_rules.NUMBER.unguarded(), None):
        prim = type("P", (), {"name": "X", "dtypes": rule, "impl": staticmethod(impl)})()
        assert dtype_rules.guarded(prim) is impl


def test_strings_reaching_a_numeric_op_raise_tensorflows_class():
    words = tf.constant(["a", "b"])
    for call, op in [(tf.reduce_sum, "Sum"), (tf.math.reduce_max, "Max"), (tf.exp, "Exp"),
                     (tf.abs, "Abs"), (lambda x: x * x, "Mul"), (tf.nn.softmax, "Softmax"),
                     (lambda x: tf.math.cumsum(x), "Cumsum")]:
        with pytest.raises(errors.InvalidArgumentError,
                           match=rf"^{op}: x has dtype string, which {op} does not accept"):
            call(words)
    assert tf.identity(words).numpy().tolist() == [b"a", b"b"]     # ops of every dtype take them
    assert (words + words).numpy().tolist() == [b"aa", b"bb"]      # TensorFlow's Add concatenates


def test_a_guarded_primitive_raises_its_own_message_through_bind():
    # the rule's error reaches the user as built (not rewritten as a shape error by bind)
    with pytest.raises(errors.InvalidArgumentError, match=r"Maximum: x has dtype bool.*\[Op:Maximum\]"):
        tf.maximum(tf.constant([True]), tf.constant([False]))
    with pytest.raises(errors.NotFoundError, match=r"Reciprocal: no kernel for dtype int32"):
        tf.math.reciprocal(tf.constant([1, 2]))
    with pytest.raises(errors.InvalidArgumentError, match="Integer division by zero"):
        tf.constant([5, 3]) // tf.constant([0, 2])


def test_fits():
    assert checks.fits([None, 2], (5, 2)) and checks.fits(None, (1,))
    assert not checks.fits([None], (1, 1)) and not checks.fits([3], (2,))
    assert checks.fits(tf.TensorShape([2]), (2,)) and checks.fits(2, (2,))


@pytest.mark.parametrize("name", ["__init__", "axes", "shapes", "sizes", "indices",
                                  "dtype_rules", "numerics"])
def test_docstring_examples(name):
    import doctest
    import importlib
    module = importlib.import_module("tapegrad.checks" + ("" if name == "__init__" else "." + name))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0 and result.failed == 0
