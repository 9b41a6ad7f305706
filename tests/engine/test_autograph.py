"""AutoGraph in tapegrad: what the conformance fixtures cannot show (that a converted function's
later calls replay its graph without running Python, the converted source, conversions that
fall back to the function as written)."""
import textwrap
import warnings

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.autograph.transform import converted


def _graphs(f):
    return [g for shapes in f._graphs.values() for g in shapes.values()]


def test_second_call_of_a_branchy_function_runs_no_python():
    ran = []

    @tf.function
    def f(x):
        ran.append("body")
        if tf.reduce_sum(x) > 0:
            y = x * 2
        else:
            y = -x
        return y
    first = f(tf.constant([1.0, 2.0]))
    assert ran == ["body"]
    assert [g.replayable for g in _graphs(f)] == [True]
    second = f(tf.constant([-3.0, 1.0]))          # the other branch, from the graph
    third = f(tf.constant([4.0, 0.5]))
    assert ran == ["body"]
    np.testing.assert_allclose(first.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(second.numpy(), [3.0, -1.0])
    np.testing.assert_allclose(third.numpy(), [8.0, 1.0])
    assert f.experimental_get_tracing_count() == 1


def test_while_loop_replays_any_number_of_iterations():
    ran = []

    @tf.function
    def f(x):
        ran.append("body")
        while tf.reduce_sum(x) < 10.0:
            x = x * 2
        return x
    for start, want in (([1.0, 1.0], [8.0, 8.0]), ([3.0, 0.5], [12.0, 2.0]),
                        ([20.0, 1.0], [20.0, 1.0]), ([0.25, 0.0], [16.0, 0.0])):
        np.testing.assert_allclose(f(tf.constant(start)).numpy(), want)
    assert ran == ["body"]


def test_for_over_tf_range_replays():
    @tf.function
    def power(x, n):
        y = tf.ones_like(x)
        for _ in tf.range(n):
            y = y * x
        return y
    assert float(power(tf.constant(2.0), tf.constant(3))) == 8.0
    assert [g.replayable for g in _graphs(power)] == [True]
    assert float(power(tf.constant(2.0), tf.constant(5))) == 32.0
    assert float(power(tf.constant(3.0), tf.constant(0))) == 1.0


def test_gradients_through_replayed_branches_match_eager():
    def f(x):
        if x > 0:
            y = x * x * x
        else:
            y = tf.sin(x)
        return y
    traced = tf.function(f)
    for v in (1.5, -0.5, 2.0, -2.0):
        grads = []
        for fn in (f, traced):
            x = tf.constant(v)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = fn(x)
            grads.append(float(tape.gradient(y, x)))
        assert grads[0] == pytest.approx(grads[1], rel=1e-6)
    assert traced.experimental_get_tracing_count() == 1


def test_gradient_through_replayed_while_matches_eager():
    def f(x, w):
        i = tf.constant(0)
        while i < 3:
            x = tf.tanh(x * w)
            i += 1
        return x
    traced = tf.function(f)
    w = tf.Variable(0.7)
    for v in (0.3, -1.2):
        grads = []
        for fn in (f, traced):
            with tf.GradientTape() as tape:
                y = fn(tf.constant(v), w)
            grads.append(float(tape.gradient(y, w)))
        assert grads[0] == pytest.approx(grads[1], rel=1e-5)


def test_variable_updates_in_branches_replay():
    v = tf.Variable(0.0)

    @tf.function
    def f(x):
        if x > 0:
            v.assign_add(x)
        else:
            v.assign_sub(1.0)
        return v.read_value()
    assert float(f(tf.constant(2.0))) == 2.0       # the untaken branch's update is undone
    assert float(f(tf.constant(-5.0))) == 1.0
    assert float(f(tf.constant(3.0))) == 4.0


def test_to_code_shows_the_converted_calls():
    def f(x):
        if x > 0:
            x = x * 2
        while x < 10:
            x = x + 1
        for k in range(3):
            x = x - k
        return x
    code = tf.autograph.to_code(f)
    for call in ("ag__.if_stmt(", "ag__.while_stmt(", "ag__.for_stmt("):
        assert call in code
    assert code.startswith("def f(x):")
    assert "x = ag__.Undefined" not in code          # (a parameter is defined)
    compile(code, "<to_code>", "exec")               # readable Python


def test_autograph_false_runs_python_and_run_functions_eagerly_skips_conversion():
    @tf.function(autograph=False)
    def f(x):
        for k in range(3):
            x = x + k
        return x
    assert float(f(tf.constant(1.0))) == 4.0
    assert f._body() is f._python_function

    @tf.function
    def g(x):
        return x
    tf.config.run_functions_eagerly(True)
    try:
        assert g._body() is g._python_function
    finally:
        tf.config.run_functions_eagerly(False)
    assert g._body() is not g._python_function


def test_do_not_convert_is_respected():
    @tf.autograph.experimental.do_not_convert
    def helper(x):
        if x > 0:
            return x
        return -x
    assert tf.autograph.to_graph(helper) is helper

    @tf.function
    def f(x):
        return helper(x) * 2
    assert float(f(tf.constant(-2.0))) == 4.0
    assert float(f(tf.constant(3.0))) == 6.0


def test_function_without_source_falls_back_with_a_warning():
    namespace = {}
    exec("def made(x):\n    if x > 0:\n        x = x * 3\n    return x\n", namespace)
    made = namespace["made"]       # (its file "<string>" has no source to read)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f = tf.function(made)
        assert float(f(tf.constant(2.0))) == 6.0
        assert float(f(tf.constant(-2.0))) == -2.0
    assert any("AutoGraph could not transform" in str(w.message) for w in caught)


def test_lambda_runs_unconverted():
    f = tf.function(lambda x: x * 2 if x is not None else x)
    assert float(f(tf.constant(2.0))) == 4.0


def test_helper_used_only_inside_one_branch_is_not_an_error():
    @tf.function
    def f(x):
        if x > 0:
            t = x * 2
            y = t + 1
        else:
            y = x
        return y
    assert float(f(tf.constant(1.0))) == 3.0
    assert float(f(tf.constant(-1.0))) == -1.0


def test_loop_over_a_python_list_unrolls_and_replays():
    @tf.function
    def f(x):
        for scale in [1.0, 2.0, 3.0]:
            if x > 0:
                x = x * scale
            else:
                x = x - scale
        return x
    assert float(f(tf.constant(1.0))) == 6.0
    assert float(f(tf.constant(-1.0))) == -7.0
    assert all(g.replayable for g in _graphs(f))


def test_methods_are_converted():
    class Scaler(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            if x > 0:
                y = x * self.w
            else:
                y = x
            return y
    m = Scaler()
    assert float(m(tf.constant(3.0))) == 6.0
    assert float(m(tf.constant(-3.0))) == -3.0
    assert all(g.replayable for g in _graphs(m.__call__))


def test_if_inside_a_tensor_while_and_nested_elif_replay():
    @tf.function
    def zigzag(x):
        i = tf.constant(0)
        while i < 5:
            if x > 0:
                x = x - 1.0
            else:
                x = x + 2.0
            i += 1
        return x

    @tf.function
    def bucket(x):
        if x > 0:
            if x > 10:
                r = x * 100
            else:
                r = x * 10
        elif x < -5:
            r = -x
        else:
            r = x
        return r
    assert [float(zigzag(tf.constant(v))) for v in (3.0, -3.0, 0.5)] == [1.0, 1.0, 1.5]
    assert [float(bucket(tf.constant(v))) for v in (20.0, 2.0, -10.0, -1.0)] == \
        [2000.0, 20.0, 10.0, -1.0]
    assert all(g.replayable for f in (zigzag, bucket) for g in _graphs(f))
    assert zigzag.experimental_get_tracing_count() == bucket.experimental_get_tracing_count() == 1


def test_assigning_a_global_inside_an_if_stays_python():
    @tf.function
    def f(x):
        global _AUTOGRAPH_TEST_COUNT
        if x > 0:
            _AUTOGRAPH_TEST_COUNT = 1
        return x
    assert "ag__.if_stmt" not in tf.autograph.to_code(f)
    assert float(f(tf.constant(2.0))) == 2.0


def test_tf_gradients_inside_a_function_with_converted_branches():
    @tf.function
    def slope(x):
        if x > 0:
            y = x * x
        else:
            y = -x * 3.0
        return tf.gradients(y, x)[0]
    assert [float(slope(tf.constant(v))) for v in (2.0, -1.0, 3.0)] == [4.0, -3.0, 6.0]


# -- return, break and continue lowered into flags ----------------------------------------------
def test_early_returns_replay_without_python():
    ran = []

    @tf.function
    def classify(x):
        ran.append("body")
        if x < 0:
            if x < -10:
                return tf.constant(-2)
            return tf.constant(-1)
        y = x * 2
        if y > 20:
            return tf.constant(2)
        return tf.constant(0)
    got = [int(classify(tf.constant(v))) for v in (-20.0, -3.0, 0.5, 42.0, -11.0)]
    assert got == [-2, -1, 0, 2, -2]
    assert ran == ["body"]
    assert [g.replayable for g in _graphs(classify)] == [True]
    assert classify.experimental_get_tracing_count() == 1


def test_break_and_continue_in_graph_loops_replay():
    ran = []

    @tf.function
    def f(x, limit):
        ran.append("body")
        total = tf.constant(0.0)
        for i in tf.range(20):
            if tf.cast(i, tf.float32) * x > limit:
                break
            if i % 3 == 0:
                continue
            total += tf.cast(i, tf.float32)
        j = tf.constant(0)
        while j < 100:
            j += 1
            if j >= 4:
                break
        return total, j

    def expected(x, limit):
        total = 0.0
        for i in range(20):
            if i * x > limit:
                break
            if i % 3 == 0:
                continue
            total += i
        return total
    for x, limit in ((1.0, 7.0), (2.0, 100.0), (0.5, 3.0), (3.0, -1.0)):
        total, j = f(tf.constant(x), tf.constant(limit))
        assert float(total) == expected(x, limit)
        assert int(j) == 4
    assert ran == ["body"]
    assert [g.replayable for g in _graphs(f)] == [True]


def test_to_code_shows_the_lowered_flags():
    def f(n):
        total = 0
        for step in tf.range(n):
            if step % 2 == 1:
                continue
            total += step
            if total > 100:
                break
        while total < 3:
            total += 1
        if total == 0:
            return n
        return total
    code = tf.autograph.to_code(f)
    for text in ("do_return = False", "retval_ = ag__.UndefinedReturnValue()", "break_1 = True",
                 "continue_1 = True", "ag__.not_(", "extra_test", "return ag__.ret(retval_"):
        assert text in code
    assert "break\n" not in code and "continue\n" not in code
    compile(code, "<to_code>", "exec")


def test_return_in_a_converted_helper_and_python_conditions():
    def helper(v, flip):
        if flip:                      # a Python value: plain Python
            return -v
        if v > 1.0:
            return v * 10.0
        return v

    @tf.function
    def f(x, flip):
        return helper(x, flip) + 1.0
    assert [float(f(tf.constant(v), False)) for v in (2.0, 0.5)] == [21.0, 1.5]
    assert float(f(tf.constant(2.0), True)) == -1.0
    assert all(g.replayable for g in _graphs(f))


def test_jumps_inside_try_stay_python():
    @tf.function
    def f(x):
        for i in range(3):
            try:
                if i == 1:
                    break
            finally:
                x = x + 1.0
        return x
    assert "break_" not in tf.autograph.to_code(f)
    assert float(f(tf.constant(0.0))) == 2.0


def test_standard_library_functions_are_not_converted():
    assert converted(textwrap.dedent) is textwrap.dedent      # (it returns inside a loop)
    assert converted(textwrap.indent) is textwrap.indent


# -- explicit tf.cond / tf.while_loop / tf.switch_case inside a tf.function ---------------------
def _explicit(x, w):
    y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * w, lambda: tf.sin(x) * w * w)
    _, z = tf.while_loop(lambda i, z: tf.reduce_sum(z) < 20.0,
                         lambda i, z: (i + 1, z * 1.5 + w), (0, y), maximum_iterations=8,
                         parallel_iterations=2)
    k = tf.switch_case(tf.cast(tf.reduce_sum(z) > 30.0, tf.int32), [lambda: z, lambda: -z])
    return tf.reduce_sum(k * k)


def test_explicit_control_flow_replays_as_graph_nodes():
    ran = []

    @tf.function
    def f(x, w):
        ran.append("body")
        return _explicit(x, w)
    w = tf.Variable(1.3)
    for values in ([1.0, 2.0], [-1.0, -0.5], [3.0, -0.1], [0.1, 0.1], [20.0, 20.0]):
        x = tf.constant(values)
        assert float(f(x, w)) == pytest.approx(float(_explicit(x, w)), rel=1e-6)
    assert ran == ["body"]
    assert [g.replayable for g in _graphs(f)] == [True]
    assert f.experimental_get_tracing_count() == 1


def test_gradients_through_explicit_control_flow_match_eager_and_finite_differences():
    f = tf.function(_explicit)
    for values in ([1.0, 2.0], [-1.0, -0.5], [0.1, 0.1]):
        x, w = tf.constant(values), tf.Variable(1.3)
        grads = []
        for fn in (f, _explicit):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = fn(x, w)
            grads.append([g.numpy() for g in tape.gradient(y, [x, w])])
        np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-5)
        np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-5)
        eps = 1e-3
        x64 = np.array(values)
        for i in range(2):
            step = np.zeros(2)
            step[i] = eps
            up = float(f(tf.constant(x64 + step, tf.float32), w))
            down = float(f(tf.constant(x64 - step, tf.float32), w))
            assert grads[0][0][i] == pytest.approx((up - down) / (2 * eps), rel=2e-2, abs=1e-2)
        up = float(f(x, tf.Variable(1.3 + eps)))
        down = float(f(x, tf.Variable(1.3 - eps)))
        assert grads[0][1] == pytest.approx((up - down) / (2 * eps), rel=2e-2)
    assert f.experimental_get_tracing_count() == 1


def test_explicit_cond_over_a_python_value_or_eager_tensor_runs_one_branch():
    ran = []

    @tf.function
    def f(x):
        return tf.cond(True, lambda: ran.append("t") or x, lambda: ran.append("f") or -x)
    assert float(f(tf.constant(2.0))) == 2.0
    assert ran == ["t"]


def test_explicit_while_loop_with_a_tensor_array_runs_eagerly_in_the_trace():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        i, ta = tf.while_loop(lambda i, ta: i < n,
                              lambda i, ta: (i + 1, ta.write(i, tf.cast(i, tf.float32))),
                              (0, ta))
        return ta.stack()
    np.testing.assert_allclose(f(tf.constant(3)).numpy(), [0.0, 1.0, 2.0])
    np.testing.assert_allclose(f(tf.constant(2)).numpy(), [0.0, 1.0])
