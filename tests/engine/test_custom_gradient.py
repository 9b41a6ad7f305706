"""User-defined gradients: @tf.custom_gradient, tf.RegisterGradient, tf.no_gradient, and the
IndexedSlices gradient of gather. Expected values are worked out by hand in the comments."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.table import TABLE, primitive


@pytest.fixture
def scratch_ops():
    """Names of primitives a test declares; they leave the table afterwards."""
    names = []
    yield names
    from tapegrad.table import PENDING_GRADIENTS
    for n in names:
        TABLE.pop(n, None)
        PENDING_GRADIENTS.pop(n, None)


def test_custom_gradient_replaces_the_rule():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad

    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert float(tape.gradient(y, x)) == 1.0     # the naive rule gives nan (inf / inf)


def test_custom_gradient_is_one_record_named_after_the_function():
    @tf.custom_gradient
    def my_square(x):
        return x * x, lambda g: g * 2.0 * x

    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = my_square(x) + 1.0
    names = [r.op.name for r in tape.records]
    assert names == ["my_square", "AddV2"]
    assert float(tape.gradient(y, x)) == 6.0


def test_several_inputs_and_outputs():
    @tf.custom_gradient
    def mul_and_sum(x, y):
        def grad(d_prod, d_sum):
            # d/dx = d_prod * y + d_sum, d/dy = d_prod * x + d_sum; scaled by 10 to be unmistakable
            return 10.0 * (d_prod * y + d_sum), 10.0 * (d_prod * x + d_sum)
        return (x * y, x + y), grad

    x, y = tf.constant([1.0, 2.0]), tf.constant([3.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        p, s = mul_and_sum(x, y)
        total = tf.reduce_sum(p) + 2.0 * tf.reduce_sum(s)
    np.testing.assert_allclose(p.numpy(), [3.0, 10.0])
    np.testing.assert_allclose(s.numpy(), [4.0, 7.0])
    gx, gy = tape.gradient(total, [x, y])
    np.testing.assert_allclose(gx.numpy(), [50.0, 70.0])   # 10 * (y + 2)
    np.testing.assert_allclose(gy.numpy(), [30.0, 40.0])   # 10 * (x + 2)


def test_closure_over_variables_gets_variable_gradients():
    w = tf.Variable(2.0, name="w")

    @tf.custom_gradient
    def scale(x):
        out = x * w

        def grad(upstream, variables=None):
            assert [v.name for v in variables] == ["w:0"]
            return upstream * w, [upstream * x * 100.0]
        return out, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gw = tape.gradient(y, [x, w])
    assert float(y) == 6.0 and float(gx) == 2.0 and float(gw) == 300.0


def test_variables_need_a_variables_argument():
    w = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x):
        return x * w, lambda upstream: upstream

    with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
        scale(tf.constant(1.0))


def test_wrong_number_of_gradients_is_an_error():
    @tf.custom_gradient
    def f(x, y):
        return x + y, lambda g: g

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = f(x, 2.0)
    with pytest.raises(ValueError, match="expected to return 2 gradients"):
        tape.gradient(z, x)


def test_custom_gradient_forward_mode_and_second_order():
    @tf.custom_gradient
    def cube(x):
        def grad(g):
            return g * 3.0 * x * x            # differentiable: second order through grad_fn
        return x * x * x, grad

    x = tf.constant(2.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.5)) as acc:
        y = cube(x)
    assert float(acc.jvp(y)) == 18.0        # 3 x^2 * 1.5
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        g = inner.gradient(y, x)
    assert float(g) == 12.0 and float(outer.gradient(g, x)) == 12.0   # 6 x


def test_custom_gradient_passes_the_checker():
    @tf.custom_gradient
    def softplus(x):
        def grad(g):
            return g * tf.sigmoid(x)
        return tf.math.log(1 + tf.exp(x)), grad
    tf.test_util.check_gradients(softplus, [np.array([-1.0, 0.3, 2.0])])


def test_register_gradient_for_a_new_primitive(scratch_ops):
    scratch_ops.append("TestCube")
    cube = primitive("TestCube", lambda x: x ** 3)

    @tf.RegisterGradient("TestCube")
    def _cube_grad(op, grad):
        assert op.type == "TestCube" and len(op.inputs) == 1 and len(op.outputs) == 1
        return grad * 3.0 * op.inputs[0] * op.inputs[0]

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = cube.apply(x)
    assert float(y) == 8.0 and float(tape.gradient(y, x)) == 12.0
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = cube.apply(x)
    assert float(acc.jvp(y)) == 12.0        # derived from the registered gradient
    with pytest.raises(KeyError, match="Registering two gradient"):
        tf.RegisterGradient("TestCube")(_cube_grad)


def test_register_gradient_before_the_op_exists(scratch_ops):
    scratch_ops.append("TestTwice")

    @tf.RegisterGradient("TestTwice")
    def _grad(op, grad):
        return [grad * 2.0, None]

    twice = primitive("TestTwice", lambda x, y: 2 * x + 0 * y)
    x, y = tf.constant(1.0), tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = twice.apply(x, y)
    assert [None if g is None else float(g) for g in tape.gradient(z, [x, y])] == [2.0, None]


def test_no_gradient(scratch_ops):
    scratch_ops.extend(["TestOpaque", "TestOpaque2"])
    opaque = primitive("TestOpaque", lambda x: x + 1)
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = opaque.apply(x)
    with pytest.raises(LookupError, match="TestOpaque"):
        tape.gradient(y, x)
    tf.no_gradient("TestOpaque")
    assert tape.gradient(y, x) is None
    tf.no_gradient("TestOpaque2")                 # before the op exists, too
    opaque2 = primitive("TestOpaque2", lambda x: x + 2)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = opaque2.apply(x)
    assert tape.gradient(y, x) is None


def test_gather_gradient_is_indexed_slices():
    params = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape() as tape:
        rows = tf.gather(params, [2, 0, 2])
        loss = tf.reduce_sum(rows * tf.constant([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]))
    g = tape.gradient(loss, params)
    assert isinstance(g, tf.IndexedSlices) and not isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(g.indices.numpy(), [2, 0, 2])
    np.testing.assert_array_equal(g.values.numpy(), [[1, 1], [2, 2], [3, 3]])
    np.testing.assert_array_equal(g.dense_shape.numpy(), [3, 2])
    dense = tf.convert_to_tensor(g)
    assert type(dense).__name__ == "EagerTensor"
    # row 2 was gathered twice: 1 + 3
    np.testing.assert_array_equal(dense.numpy(), [[2, 2], [0, 0], [4, 4]])


def test_indexed_slices_flow_on_through_other_ops():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.gather(x * 2.0, [0, 0, 1]))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [4.0, 2.0, 0.0])
