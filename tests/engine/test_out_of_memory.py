"""An allocation that fails raises TensorFlow's ResourceExhaustedError (an OpError, so
``except tf.errors.OpError`` catches it as in TensorFlow code, and still a MemoryError), with
TensorFlow's "OOM when allocating tensor with shape[...]" message, at once."""
import sys
import time

import pytest

import tapegrad as tf

HUGE = [1 << 20, 1 << 20]     # 4 TiB of float32: no machine here has it, and none is touched


@pytest.mark.parametrize("make, op, kind", [
    (lambda: tf.zeros(HUGE), "Fill", "float"),
    (lambda: tf.ones(HUGE, tf.float64), "Fill", "double"),
    (lambda: tf.fill(HUGE, 3), "Fill", "int32"),
    (lambda: tf.ones([1 << 20, 1]) * tf.ones([1, 1 << 20]), "Mul", "float"),
])
def test_a_failed_allocation_is_resource_exhausted(make, op, kind):
    start = time.perf_counter()
    with pytest.raises(tf.errors.OpError) as caught:
        make()
    assert time.perf_counter() - start < 1.0
    e = caught.value
    assert type(e) is tf.errors.ResourceExhaustedError and isinstance(e, MemoryError)
    assert str(e).startswith("OOM when allocating tensor") and str(e).endswith(f"[Op:{op}]")
    if sys.platform != "emscripten":   # NumPy's MemoryError names the shape and dtype
        assert f"with shape[1048576,1048576] and type {kind} on " in str(e)


def test_other_value_errors_are_not_taken_for_memory():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.reshape(tf.ones([6]), [4])
