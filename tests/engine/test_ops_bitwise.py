"""tf.bitwise (ops/bitwise_ops.py), saturate_cast and bitcast (ops/cast_ops.py), and the
rarer dtypes (dtypes.py)."""
import numpy as np
import pytest

import tapegrad as tf


def test_bitwise_ops_match_python_integers():
    a, b = [0, 5, 3, 14, -7], [5, 0, 7, 11, 3]
    ta, tb = tf.constant(a), tf.constant(b)
    assert tf.bitwise.bitwise_and(ta, tb).numpy().tolist() == [x & y for x, y in zip(a, b)]
    assert tf.bitwise.bitwise_or(ta, tb).numpy().tolist() == [x | y for x, y in zip(a, b)]
    assert tf.bitwise.bitwise_xor(ta, tb).numpy().tolist() == [x ^ y for x, y in zip(a, b)]
    assert tf.bitwise.invert(ta).numpy().tolist() == [~x for x in a]


def test_shift_amounts_are_clamped_like_tensorflow():
    x = tf.constant([1, 1, 3, -64], tf.int32)
    assert tf.bitwise.left_shift(x, tf.constant([31, 40, -1, 0])).numpy().tolist() == \
        [-2**31, -2**31, 3, -64]
    assert tf.bitwise.right_shift(x, tf.constant([1, 40, -1, 99])).numpy().tolist() == \
        [0, 0, 3, -1]
    u = tf.bitwise.left_shift(tf.constant([1, 3], tf.uint8), tf.constant([9, 7], tf.uint8))
    assert u.dtype == tf.uint8 and u.numpy().tolist() == [128, 128]


def test_bitwise_rejects_floats_and_mixed_dtypes_and_has_no_gradient():
    with pytest.raises(tf.errors.InvalidArgumentError, match="BitwiseAnd"):
        tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="int64"):
        tf.bitwise.bitwise_or(tf.constant([1]), tf.constant([1], tf.int64))
    x = tf.Variable([3, 4])
    ops = [lambda v: tf.bitwise.bitwise_and(v, 1), lambda v: tf.bitwise.bitwise_or(v, 1),
           lambda v: tf.bitwise.bitwise_xor(v, 1), tf.bitwise.invert,
           lambda v: tf.bitwise.left_shift(v, 1), lambda v: tf.bitwise.right_shift(v, 1),
           lambda v: tf.bitcast(v, tf.uint32)]
    for op in ops:
        with tf.GradientTape() as tape:
            y = op(x)
        assert tape.gradient(y, x) is None
    f = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.cast(tf.bitcast(f, tf.int32), tf.float32)
    assert tape.gradient(y, f) is None


def test_saturate_cast_clamps_before_casting():
    x = tf.constant([-1.5, 300.7, 2.2e10, 70.0])
    assert tf.saturate_cast(x, tf.uint8).numpy().tolist() == [0, 255, 255, 70]
    assert tf.dtypes.saturate_cast(x, tf.int8).numpy().tolist() == [-1, 127, 127, 70]
    big = tf.saturate_cast(tf.constant([3e9, -3e9]), tf.int32).numpy().tolist()
    assert big[1] == -2**31 and 2**31 - 200 <= big[0] <= 2**31 - 1
    assert tf.saturate_cast(tf.constant([1e40], tf.float64), tf.float32).numpy()[0] == \
        np.finfo(np.float32).max


def test_bitcast_changes_the_last_axis_with_the_size_ratio():
    assert tf.bitcast(tf.constant(1.0), tf.int32).numpy() == 1065353216
    wide = tf.bitcast(tf.constant([[1, 2], [3, 4]], tf.int16), tf.int32)
    assert wide.shape == (2,) and wide.numpy().tolist() == [1 + (2 << 16), 3 + (4 << 16)]
    narrow = tf.bitcast(tf.constant([1.0, 2.0], tf.float64), tf.int32)
    assert narrow.shape == (2, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot bitcast from 5 to 3"):
        tf.bitcast(tf.constant([1, 2, 3], tf.int16), tf.int32)


def test_new_dtypes_have_tensorflows_properties():
    assert str(tf.uint32) == "<dtype: 'uint32'>" and repr(tf.uint64) == "tf.uint64"
    assert tf.uint32.max == 2**32 - 1 and tf.uint16.is_unsigned and tf.uint16.size == 2
    assert tf.as_dtype(np.uint32) is tf.uint32 and tf.as_dtype("uint64") is tf.uint64
    assert tf.qint8.is_quantized and not tf.qint8.is_integer and tf.qint8.size == 1
    assert tf.qint8 in tf.dtypes.QUANTIZED_DTYPES
    with pytest.raises(TypeError, match="quantized"):
        tf.qint32.min
    assert tf.resource.as_datatype_enum == 20 and tf.resource.size == 0
    with pytest.raises(KeyError):
        tf.variant.as_numpy_dtype
    assert tf.complex64.real_dtype is tf.float32 and tf.int8.limits == (0, 127)


def test_bfloat16_exists_but_makes_no_tensor():
    assert tf.bfloat16.is_floating and tf.bfloat16.size == 2 and tf.bfloat16 != tf.float16
    with pytest.raises(tf.errors.UnimplementedError, match="bfloat16"):
        tf.constant([1.0], tf.bfloat16)
    with pytest.raises(tf.errors.UnimplementedError, match="bfloat16"):
        tf.cast(tf.constant([1.0]), tf.bfloat16)


def test_unsigned_dtypes_follow_tensorflows_kernel_registrations():
    x = tf.constant([1, 2], tf.uint32)
    assert (x + x).numpy().tolist() == [2, 4] and (x / x).dtype == tf.float64
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.abs(x)
    with pytest.raises(tf.errors.NotFoundError):
        tf.matmul(tf.reshape(x, [1, 2]), tf.reshape(x, [2, 1]))
