"""The five seed tutorials (shared/seeds/), cell by cell, with only the import changed.

Each test is one tutorial cell (or a cell and the one that prints its result) restated with
fixed values, asserting the exact text the tutorial prints. Where a tutorial starts from random
values the test picks fixed ones and checks the gradient in closed form instead.

Seeds: 000 and 002 are Korean renderings of TensorFlow's autodiff guide, 001 is a learner's
notebook of the same guide with extra prints, 003 is the older Korean tutorial 3 (tf.ones,
control flow, higher order), 004 is a Chinese blog post on GradientTape's arguments.
"""
import numpy as np
import pytest

import tapegrad as tf

F32 = "dtype=float32"


def printed(capsys, *args, **kwargs):
    """What ``print(*args)`` writes, without the trailing newline."""
    print(*args, **kwargs)
    return capsys.readouterr().out[:-1]


# -- the first example: y = x**2 at 3 ---------------------------------------------------------------

def test_square_of_a_variable_has_gradient_six():  # 000 [2]-[3], 001, 002, 004
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    dy_dx = tape.gradient(y, x)
    value = dy_dx.numpy()
    assert isinstance(value, np.float32)
    assert str(value) == "6.0"
    assert str(dy_dx) == "tf.Tensor(6.0, shape=(), dtype=float32)"


# -- tensors of any shape: x @ w + b ----------------------------------------------------------------

@pytest.fixture
def affine_tape():
    """The ``x @ w + b`` cell with w fixed (the tutorial draws it from tf.random.normal).

    y = [1, 2, 3] @ w = [4, 0.5]; loss = mean(y**2) = 8.125; dloss/dy = y (2y / 2 entries);
    so dl/db = [4, 0.5] and dl/dw = x^T y = [[4, .5], [8, 1], [12, 1.5]].
    """
    w = tf.Variable([[0.5, -1.0], [0.25, 0.0], [1.0, 0.5]], name="w")
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
    x = [[1., 2., 3.]]
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    return tape, loss, w, b


def test_gradients_have_the_shape_of_their_sources(affine_tape):  # 000 [5]-[6], 001, 002
    tape, loss, w, b = affine_tape
    [dl_dw, dl_db] = tape.gradient(loss, [w, b])
    assert str(w.shape) == "(3, 2)"
    assert str(dl_dw.shape) == "(3, 2)"
    assert w.name == "w:0" and b.name == "b:0"
    np.testing.assert_array_equal(dl_dw.numpy(), [[4, .5], [8, 1], [12, 1.5]])
    np.testing.assert_array_equal(dl_db.numpy(), [4, .5])


def test_printing_the_loss_and_both_gradients(affine_tape, capsys):  # 001: print(loss), print(dl_dw, dl_db)
    tape, loss, w, b = affine_tape
    assert printed(capsys, loss) == "tf.Tensor(8.125, shape=(), dtype=float32)"
    dl_dw, dl_db = tape.gradient(loss, [w, b])
    assert printed(capsys, dl_dw, dl_db) == (
        "tf.Tensor(\n"
        "[[ 4.   0.5]\n"
        " [ 8.   1. ]\n"
        " [12.   1.5]], shape=(3, 2), dtype=float32) "
        "tf.Tensor([4.  0.5], shape=(2,), dtype=float32)")


def test_sources_as_a_dict_give_a_dict(affine_tape):  # 000 [7], 001, 002
    tape, loss, w, b = affine_tape
    grad = tape.gradient(loss, {"w": w, "b": b})
    assert sorted(grad) == ["b", "w"]
    assert repr(grad["b"]) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([4. , 0.5], dtype=float32)>"
    np.testing.assert_array_equal(grad["w"].numpy(), [[4, .5], [8, 1], [12, 1.5]])


def test_random_w_as_in_the_tutorial_gives_the_closed_form():  # 000 [5] with the random draw
    tf.random.set_seed(7)
    w = tf.Variable(tf.random.normal((3, 2)), name="w")
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
    x = [[1., 2., 3.]]
    with tf.GradientTape() as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    dl_dw, dl_db = tape.gradient(loss, [w, b])
    y_np = np.array(x, np.float32) @ w.numpy()           # (1, 2); dloss/dy = y
    np.testing.assert_allclose(dl_db.numpy(), y_np[0], rtol=1e-6)
    np.testing.assert_allclose(dl_dw.numpy(), np.array(x).T @ y_np, rtol=1e-6)
    assert dl_dw.dtype == tf.float32


# -- a Keras layer --------------------------------------------------------------------------------

def test_dense_layer_variables_print_their_names_and_gradient_shapes(fresh_layer_names, capsys):
    # 000 [9]-[10] ("shape:(3, 2)"), 001 ("shape : ..."), 002 ("shape: ...")
    layer = tf.keras.layers.Dense(2, activation="relu")
    x = tf.constant([[1., 2., 3.]])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_mean(y ** 2)
    grad = tape.gradient(loss, layer.trainable_variables)
    for var, g in zip(layer.trainable_variables, grad):
        print(f"{var.name}, shape: {g.shape}")
    assert capsys.readouterr().out == "dense/kernel:0, shape: (3, 2)\ndense/bias:0, shape: (2,)\n"
    kernel, bias = layer.trainable_variables
    assert f"{kernel.name}, shape:{grad[0].shape}" == "dense/kernel:0, shape:(3, 2)"
    assert f"{bias.name}, shape : {grad[1].shape}" == "dense/bias:0, shape : (2,)"


def test_dense_layer_gradient_in_closed_form(fresh_layer_names):  # the same cell, fixed weights
    # kernel columns: [1, 0, 1] and [-1, 0, 0]; y = relu([4, -1]) = [4, 0]; loss = 8;
    # dloss/dy = y = [4, 0] (the relu cuts the second unit off)
    kernel = np.array([[1., -1.], [0., 0.], [1., 0.]], np.float32)
    layer = tf.keras.layers.Dense(2, activation="relu",
                                  kernel_initializer=tf.keras.initializers.Constant(kernel))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(layer(tf.constant([[1., 2., 3.]])) ** 2)
    assert float(loss) == 8.0
    d_kernel, d_bias = tape.gradient(loss, layer.trainable_variables)
    np.testing.assert_array_equal(d_kernel.numpy(), [[4, 0], [8, 0], [12, 0]])
    np.testing.assert_array_equal(d_bias.numpy(), [4, 0])


# -- what the tape watches ------------------------------------------------------------------------

def _four_kinds_of_x():
    x0 = tf.Variable(3.0, name="x0")                   # trainable variable
    x1 = tf.Variable(3.0, name="x1", trainable=False)  # not trainable
    x2 = tf.Variable(2.0, name="x2") + 1.0             # variable + tensor is a tensor
    x3 = tf.constant(3.0, name="x3")                   # a tensor
    return x0, x1, x2, x3


def test_only_the_trainable_variable_gets_a_gradient(capsys):  # 000 [11], 001, 002
    x0, x1, x2, x3 = _four_kinds_of_x()
    with tf.GradientTape() as tape:
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
    for g in tape.gradient(y, [x0, x1, x2, x3]):
        print(g)
    assert capsys.readouterr().out == (
        "tf.Tensor(6.0, shape=(), dtype=float32)\nNone\nNone\nNone\n")
    assert [var.name for var in tape.watched_variables()] == ["x0:0"]  # 000 [12]


def test_x3_squared_in_the_sum_changes_nothing():  # 004: y also adds x3**2
    x0, x1, x2, x3 = _four_kinds_of_x()
    with tf.GradientTape() as tape:
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2) + (x3 ** 2)
    assert float(y) == 36.0
    grad = tape.gradient(y, [x0, x1, x2, x3])
    assert [str(g) for g in grad] == ["tf.Tensor(6.0, shape=(), dtype=float32)", "None", "None",
                                      "None"]


def test_watching_all_four_gives_four_gradients():  # 004: tape.watch([x1, x2, x3])
    x0, x1, x2, x3 = _four_kinds_of_x()
    with tf.GradientTape() as tape:
        tape.watch([x1, x2, x3])
        y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2) + (x3 ** 2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    assert [str(g) for g in grad] == ["tf.Tensor(6.0, shape=(), dtype=float32)"] * 4


def test_watching_a_constant(capsys):  # 000 [13], 001, 002
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x ** 2
    dy_dx = tape.gradient(y, x)
    assert printed(capsys, dy_dx.numpy()) == "6.0"


def test_watch_accessed_variables_false_connects_only_the_watched_one(capsys):  # 000 [14]-[15]
    x0 = tf.Variable(0.0)
    x1 = tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.softplus(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {"x0": x0, "x1": x1})  # d softplus = sigmoid(10)
    assert printed(capsys, "dy/dx0", grad["x0"]) == "dy/dx0 None"              # 000
    assert printed(capsys, "dy/dx1:", grad["x1"].numpy()) == "dy/dx1: 0.9999546"  # 002
    assert printed(capsys, grad["x0"], grad["x1"]) == \
        "None tf.Tensor(0.9999546, shape=(), dtype=float32)"                    # 001
    assert [v.name for v in tape.watched_variables()] == ["Variable:0"]
    assert tape.watched_variables()[0] is x1


def test_disabled_tracking_on_a_persistent_tape():  # 004: variable_a watched, variable_b not
    variable_a = tf.Variable(3.0, name="x1")
    variable_b = tf.Variable(2.0, name="x2")
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(variable_a)
        y = variable_a ** 2
        z = variable_b ** 3
    assert str(tape.gradient(y, variable_a)) == "tf.Tensor(6.0, shape=(), dtype=float32)"
    assert tape.gradient(z, variable_b) is None


# -- intermediate results, persistent tapes -------------------------------------------------------

def test_gradient_with_respect_to_an_intermediate_value():  # 001, 002: dz/dy = 2y = 18
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert str(tape.gradient(z, y).numpy()) == "18.0"


def test_persistent_tape_answers_twice_for_a_vector(capsys):  # 001, 002
    x = tf.constant([1, 3.0])
    assert x.dtype == tf.float32
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert printed(capsys, tape.gradient(z, x).numpy()) == "[  4. 108.]"  # 4 x**3
    assert printed(capsys, tape.gradient(y, x).numpy()) == "[2. 6.]"      # 2 x
    del tape


def test_persistent_tape_on_a_scalar_constant(capsys):  # 003
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        z = y * y
    dz_dx = t.gradient(z, x)
    dy_dx = t.gradient(y, x)
    del t
    assert printed(capsys, "dz_dx : ", dz_dx) == \
        "dz_dx :  tf.Tensor(108.0, shape=(), dtype=float32)"
    assert printed(capsys, "dy_dx : ", dy_dx) == "dy_dx :  tf.Tensor(6.0, shape=(), dtype=float32)"


def test_persistent_tape_watching_a_variable(capsys):  # 004
    x = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as persistent_tape:
        persistent_tape.watch(x)
        y = x * x
        z = y * y
    dz_dx = persistent_tape.gradient(z, x)
    dy_dx = persistent_tape.gradient(y, x)
    assert float(dy_dx) == 6.0
    assert printed(capsys, "First derivative of function y = x ^ 4 at x = 3 is", dz_dx.numpy()) \
        == "First derivative of function y = x ^ 4 at x = 3 is 108.0"
    del persistent_tape


def test_ones_summed_and_squared(capsys):  # 003: z = (sum of a 2x2 ones)**2, dz/dx = 2 * 4
    x = tf.ones((2, 2))
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(x)
        z = tf.multiply(y, y)
    assert printed(capsys, "y : ", y) == "y :  tf.Tensor(4.0, shape=(), dtype=float32)"
    assert printed(capsys, "z : ", z) == "z :  tf.Tensor(16.0, shape=(), dtype=float32)"
    dz_dx = t.gradient(z, x)
    for i in [0, 1]:
        for j in [0, 1]:
            assert dz_dx[i][j].numpy() == 8.0
    assert printed(capsys, "dz_dx : ", dz_dx) == (
        "dz_dx :  tf.Tensor(\n[[8. 8.]\n [8. 8.]], shape=(2, 2), dtype=float32)")


def test_ones_gradient_at_the_intermediate_sum(capsys):  # 003: dz/dy = 2y = 8
    x = tf.ones((2, 2))
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(x)
        z = tf.multiply(y, y)
    dz_dy = t.gradient(z, y)
    assert dz_dy.numpy() == 8.0
    assert printed(capsys, "dz_dy : ", dz_dy) == "dz_dy :  tf.Tensor(8.0, shape=(), dtype=float32)"


# -- several or non-scalar targets ----------------------------------------------------------------

def test_two_targets_one_at_a_time(capsys):  # 002: d(x**2) = 4, d(1/x) = -1/4
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x ** 2
        y1 = 1 / x
    assert printed(capsys, tape.gradient(y0, x).numpy()) == "4.0"
    assert printed(capsys, tape.gradient(y1, x).numpy()) == "-0.25"


def test_a_dict_of_targets_gives_the_sum_of_their_gradients(capsys):  # 001, 002: 4 - 0.25
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y0 = x ** 2
        y1 = 1 / x
    assert printed(capsys, tape.gradient({"y0": y0, "y1": y1}, x).numpy()) == "3.75"


def test_a_vector_target_gives_the_gradient_of_its_sum(capsys):  # 001, 002: 3 + 4
    x = tf.Variable(2.)
    with tf.GradientTape() as tape:
        y = x * [3., 4.]
    assert printed(capsys, tape.gradient(y, x).numpy()) == "7.0"


def test_sigmoid_over_a_linspace_is_elementwise():  # 001, 002 (the plotted cell)
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    assert str(x.shape) == "(201,)" and x.dtype == tf.float32
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    dy_dx = tape.gradient(y, x)
    xs = np.linspace(-10.0, 10.0, 201)
    s = 1 / (1 + np.exp(-xs))
    np.testing.assert_allclose(dy_dx.numpy(), s * (1 - s), rtol=1e-5, atol=1e-7)
    assert dy_dx.numpy()[100] == 0.25                       # x = 0 exactly
    # plt.plot(x, y) goes through NumPy's array protocol
    np.testing.assert_allclose(np.asarray(y), s, rtol=1e-6)
    assert np.asarray(x).shape == (201,)


# -- control flow ---------------------------------------------------------------------------------

def test_if_branch_connects_only_the_variable_it_used(capsys):  # 002
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:
            result = v0
        else:
            result = v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert printed(capsys, dv0) == "tf.Tensor(1.0, shape=(), dtype=float32)"
    assert printed(capsys, dv1) == "None"
    assert tape.gradient(result, x) is None  # the condition is not differentiable


def test_if_branch_with_a_variable_made_from_a_tensor(capsys):  # 001: v0 = tf.Variable(x)
    x = tf.constant(1.)
    v0 = tf.Variable(x)
    v1 = tf.Variable(2.)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.:
            result = v0
        else:
            result = v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert printed(capsys, dv0, dv1) == "tf.Tensor(1.0, shape=(), dtype=float32) None"
    assert printed(capsys, tape.gradient(result, x)) == "None"


def test_the_else_branch_when_the_condition_is_false():  # 002 with x = -1: d(v1**2) = 2 v1
    x = tf.constant(-1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        result = v0 if x > 0.0 else v1 ** 2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert dv0 is None and str(dv1) == "tf.Tensor(10.0, shape=(), dtype=float32)"


def _power_loop(x, y):
    """003's f: multiplies x in for i = 2, 3, 4 when i < y."""
    output = 1.0
    for i in range(y):
        if i > 1 and i < 5:
            output = tf.multiply(output, x)
    return output


def _loop_gradient(x, y):
    with tf.GradientTape() as t:
        t.watch(x)
        out = _power_loop(x, y)
    return t.gradient(out, x)


def test_python_loop_records_what_ran(capsys):  # 003: x**3, x**3, x**2 at 2 -> 12, 12, 4
    x = tf.convert_to_tensor(2.0)
    assert printed(capsys, _loop_gradient(x, 6).numpy()) == "12.0"
    assert printed(capsys, _loop_gradient(x, 5).numpy()) == "12.0"
    assert printed(capsys, _loop_gradient(x, 4).numpy()) == "4.0"


# -- None gradients -------------------------------------------------------------------------------

def test_unconnected_variable_gives_none(capsys):  # 001 (persistent), 002
    x = tf.Variable(2.)
    y = tf.Variable(3.)
    with tf.GradientTape(persistent=True) as tape:
        z = y * y
    assert printed(capsys, tape.gradient(z, x)) == "None"
    assert printed(capsys, tape.gradient(z, y)) == "tf.Tensor(6.0, shape=(), dtype=float32)"


def test_replacing_the_variable_by_a_tensor_cuts_the_gradient(capsys):  # 002
    x = tf.Variable(2.0)
    for epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        print(type(x).__name__, ":", tape.gradient(y, x))
        x = x + 1   # the tutorial's mistake: should be x.assign_add(1)
    assert capsys.readouterr().out == (
        "ResourceVariable : tf.Tensor(1.0, shape=(), dtype=float32)\n"
        "EagerTensor : None\n")


def test_assign_add_keeps_the_variable(capsys):  # 001: the fixed loop
    x = tf.Variable(2.)
    for epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        print(type(x).__name__, " : ", tape.gradient(y, x))
        x.assign_add(1)
    line = "ResourceVariable  :  tf.Tensor(1.0, shape=(), dtype=float32)\n"
    assert capsys.readouterr().out == line * 2
    assert float(x) == 4.0


def test_a_step_through_numpy_cuts_the_gradient(capsys):  # 001, 002
    x = tf.Variable([[1.0, 2.0],
                     [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = x ** 2
        y = np.mean(x2, axis=0)          # leaves the engine
        y = tf.reduce_mean(y, axis=0)    # comes back as a constant
    assert isinstance(x2, tf.Tensor)
    assert float(y) == 7.5               # mean of [5, 10]
    assert printed(capsys, tape.gradient(y, x)) == "None"


def test_integers_give_none_and_three_warnings(capsys, tapegrad_log):  # 001, 002
    x = tf.constant(10)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert printed(capsys, g.gradient(y, x)) == "None"
    assert tapegrad_log() == [
        "WARNING:tapegrad:The dtype of the watched tensor must be floating (e.g. tf.float32), "
        "got tf.int32",
        "WARNING:tapegrad:The dtype of the target tensor must be floating (e.g. tf.float32) when "
        "calling GradientTape.gradient, got tf.int32",
        "WARNING:tapegrad:The dtype of the source tensor must be floating (e.g. tf.float32) when "
        "calling GradientTape.gradient, got tf.int32",
    ]
    assert str(y) == "tf.Tensor(100, shape=(), dtype=int32)"


@pytest.mark.parametrize("start", [3.0, 0.0])  # 001 starts x1 at 3, 002 at 0
def test_reading_after_assign_add_cuts_the_gradient(start, capsys):
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(start)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1 ** 2
    assert float(y) == (start + 3.0) ** 2
    assert printed(capsys, tape.gradient(y, x0)) == "None"


def test_adjust_contrast_has_no_registered_gradient(capsys):  # 001, 002
    image = tf.Variable([[[0.5, 0.0, 0.0]]])
    delta = tf.Variable(0.1)
    with tf.GradientTape() as tape:
        new_image = tf.image.adjust_contrast(image, delta)
    # a 1x1 image equals its own mean, so contrast changes nothing
    np.testing.assert_array_equal(new_image.numpy(), [[[0.5, 0.0, 0.0]]])
    try:
        print(tape.gradient(new_image, [image, delta]))
        assert False, "the tape should not find a gradient"
    except LookupError as e:
        assert printed(capsys, f"{type(e).__name__}: {e}") == \
            "LookupError: gradient registry has no entry for: AdjustContrastv2"
        assert f"{type(e).__name__} : {e}" == \
            "LookupError : gradient registry has no entry for: AdjustContrastv2"  # 001's spacing


def test_adjust_contrast_forward_matches_the_formula():
    image = tf.constant([[[0.0, 1.0]], [[1.0, 3.0]]])        # 2x1 image, 2 channels
    out = tf.image.adjust_contrast(image, 2.0)                 # means: 0.5 and 2
    np.testing.assert_allclose(out.numpy(), [[[-0.5, 0.0]], [[1.5, 4.0]]])


def test_unconnected_gradients_zero(capsys):  # 001, 002
    x = tf.Variable([2., 2.])
    y = tf.Variable(3.)
    with tf.GradientTape() as tape:
        z = y ** 2
    assert printed(capsys, tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)) \
        == "tf.Tensor([0. 0.], shape=(2,), dtype=float32)"


# -- higher order ---------------------------------------------------------------------------------

def test_nested_tapes_give_the_second_derivative_of_a_cube(capsys):  # 003: x**3 at 1 -> 3, 6
    x = tf.Variable(1.0)
    with tf.GradientTape() as t:
        with tf.GradientTape() as t2:
            y = x * x * x
        dy_dx = t2.gradient(y, x)   # computed inside t: recorded by t
    d2y_dx2 = t.gradient(dy_dx, x)
    assert printed(capsys, dy_dx.numpy()) == "3.0"
    assert printed(capsys, d2y_dx2.numpy()) == "6.0"


def test_nested_tapes_watching_a_variable(capsys):  # 004: x * x at 3 -> 6, 2
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.GradientTape() as tape2:
            tape2.watch(x)
            y = x * x
        dy_dx = tape2.gradient(y, x)
    d2y_d2x = tape.gradient(dy_dx, x)
    assert printed(capsys, "First Derivative:", dy_dx.numpy()) == "First Derivative: 6.0"
    assert printed(capsys, "Second Derivative:", d2y_d2x.numpy()) == "Second Derivative: 2.0"
