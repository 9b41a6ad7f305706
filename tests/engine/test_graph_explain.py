"""Every cause of a None gradient gets its own reason, naming the source and the line."""
import numpy as np
import pytest

import tapegrad as tf


def reason(r):
    assert r is not None, "expected an explanation"
    return r


def test_connected_gradient_has_no_explanation():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.explain(y, x) is None


def test_not_watched_tensor():
    x3 = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x3 * x3
    r = reason(tape.explain(y, x3))
    assert r.code == "not_watched" and "x3" in r.message and "tape.watch(x3)" in r.message


def test_non_trainable_variable():
    x1 = tf.Variable(3.0, trainable=False)
    line = x1._where[1]
    with tf.GradientTape() as tape:
        y = x1 ** 2
    r = reason(tape.explain(y, x1))
    assert r.code == "non_trainable" and r.line == line
    assert f"x1 (created at line {line})" in r.message


def test_watch_accessed_variables_false():
    x0 = tf.Variable(0.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = tf.sin(x0)
    assert tape.gradient(y, x0) is None
    r = reason(tape.explain(y, x0))
    assert r.code == "watch_accessed_variables" and "x0" in r.message


def test_no_path_control_flow():
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        result = v0 if x > 0 else v0 ** 2
        result = result * 1.0
    r = reason(tape.explain(result, x))
    assert r.code == "no_path" and "result" in r.message and "x" in r.message


def test_variable_never_read():
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y * y
    r = reason(tape.explain(z, x))
    assert r.code == "not_used" and "x" in r.message


def test_integer_cast_cuts_the_path():
    x = tf.Variable(2.5)
    with tf.GradientTape() as tape:
        n = tf.cast(x, tf.int32)
        y = tf.cast(n, tf.float32) * 2.0
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "integer_cast" and "int32" in r.message
    assert r.line == n_line(test_integer_cast_cuts_the_path, "tf.cast(x, tf.int32)")


def n_line(fn, text):
    import inspect
    src, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(src) if text in line)


def test_integer_source():
    x = tf.constant(10)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    r = reason(g.explain(y, x))
    assert r.code == "integer_dtype" and "int32" in r.message


def test_value_left_through_numpy():
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        x2 = x ** 2
        y = np.mean(x2, axis=0)
        y = tf.reduce_mean(y, axis=0)
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "numpy" and "x2" in r.message
    assert r.line == n_line(test_value_left_through_numpy, "np.mean(x2")


def test_read_after_stateful_assign():
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1 ** 2
    assert tape.gradient(y, x0) is None
    r = reason(tape.explain(y, x0))
    assert r.code == "stateful_assign" and "x1.assign_add" in r.message and "x0" in r.message


def test_computed_outside_the_tape():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        a = x * 1.0
    b = a * 3.0
    assert tape.gradient(b, x) is None
    r = reason(tape.explain(b, x))
    assert r.code == "outside_context" and "b" in r.message


def test_computed_inside_stop_recording():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        with tape.stop_recording():
            y = x * x
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "stop_recording" and "y" in r.message
    assert r.line == n_line(test_computed_inside_stop_recording, "y = x * x")


def test_stop_gradient():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.stop_gradient(x * x) * 2.0
    assert tape.gradient(y, x) is None
    assert reason(tape.explain(y, x)).code == "stop_gradient"


def test_tape_reset():
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * x
        tape.reset()
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "tape_reset"
    assert r.line == n_line(test_tape_reset, "tape.reset()")


def test_op_registered_without_gradient():
    x = tf.Variable(2.7)
    with tf.GradientTape() as tape:
        y = tf.floor(x) * 2.0
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "no_gradient_op" and "Floor" in r.message


def test_explain_works_after_a_non_persistent_gradient_call():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None
    assert tape.explain(y, x).code == "not_watched"


@pytest.mark.parametrize("mode", ["zero", tf.UnconnectedGradients.ZERO])
def test_zero_from_unconnected_gradients_is_explained_in_the_json(mode):
    from tapegrad.graph import capture
    with capture() as cap:
        x = tf.Variable([2.0, 2.0])
        y = tf.Variable(3.0)
        with tf.GradientTape() as tape:
            z = y ** 2
        g = tape.gradient(z, x, unconnected_gradients=mode)
    assert g.numpy().tolist() == [0.0, 0.0]
    result = cap.to_dict()["tapes"][0]["gradients"][0]["results"][0]
    assert result["reason"]["code"] == "not_used" and result["label"] == "x"


def test_variable_taken_out_with_numpy_inside_the_tape():
    """The seeds' broken path: the variable's value leaves through .numpy() before any tf op."""
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(np.square(x.numpy())) * 1.0
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "numpy" and "NumPy" in r.message and "x" in r.message
    assert "outside the tape" not in r.message and "never read while" not in r.message
    assert r.line == n_line(test_variable_taken_out_with_numpy_inside_the_tape, "x.numpy()")


def test_watched_tensor_taken_out_with_numpy_inside_the_tape():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.constant(x.numpy() * 3.0))
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "numpy" and "outside" not in r.message
    assert r.line == n_line(test_watched_tensor_taken_out_with_numpy_inside_the_tape, "x.numpy()")


def test_value_turned_into_a_python_float():
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        h = x * 2.0
        y = tf.constant(float(h)) ** 2
    assert tape.gradient(y, x) is None
    r = reason(tape.explain(y, x))
    assert r.code == "numpy" and "Python number" in r.message and "h" in r.message
    assert r.line == n_line(test_value_turned_into_a_python_float, "float(h)")


def test_source_recorded_by_another_tape():
    x = tf.constant(2.0)
    with tf.GradientTape() as first:
        first.watch(x)
        y = x * x
    with tf.GradientTape() as second:
        z = y * 3.0
    assert second.gradient(z, x) is None
    r = reason(second.explain(z, x))
    assert r.code == "other_tape" and "different GradientTape" in r.message
    assert r.line == n_line(test_source_recorded_by_another_tape, "first.watch(x)")
    del first


def test_each_cause_is_its_own_function_and_explain_only_picks_one():
    import inspect
    import sys
    explain_module = sys.modules["tapegrad.graph.explain"]
    for code in ("not_watched", "non_trainable", "watch_accessed_variables", "not_used", "no_path",
                 "integer_dtype", "integer_cast", "numpy", "stateful_assign", "outside_context",
                 "stop_recording", "stop_gradient", "tape_reset", "no_gradient_op", "other_tape"):
        makers = [name for name, fn in vars(explain_module).items() if inspect.isfunction(fn)
                  and f'("{code}",' in inspect.getsource(fn).replace("\n", "")]
        assert makers and "explain" not in makers, (code, makers)
    assert len(inspect.getsource(explain_module.explain).splitlines()) <= 30


def test_none_sentence_doctest():
    import doctest
    import sys
    assert doctest.testmod(sys.modules["tapegrad.graph.explain"]).failed == 0


def test_the_graph_json_carries_each_none_sentence_whole():
    """The page's graph panel, its console and the notebook widget only render this sentence."""
    from tapegrad import widget
    from tapegrad.graph import capture
    from tapegrad.graph.explain import none_sentence
    from tapegrad.widget import magic

    def cell():
        c = tf.constant(2.0)
        v = tf.Variable(3.0, name="v")
        unused = tf.Variable(1.0, name="unused")
        with tf.GradientTape() as tape:
            y = c * v
        return tape, tape.gradient(y, [c, v, unused])

    with capture() as cap:
        tape, grads = cell()
    assert grads[0] is None and grads[2] is None
    (call,) = cap.to_dict()["tapes"][0]["gradients"]
    whys = [r["why"] for r in call["results"]]
    assert whys[1] is None
    # the used-but-unwatched constant is explained, with its fix (issue 28 item 5)
    assert call["results"][0]["reason"]["code"] == "not_watched"
    assert whys[0] == none_sentence("y", "c", call["results"][0]["reason"]["message"])
    assert whys[0].startswith("The gradient of y with respect to c is None. c was used at line ")
    assert "tape.watch(c)" in whys[0] and "does not depend" not in whys[0]
    assert call["results"][2]["reason"]["code"] == "not_used"
    assert whys[2] == none_sentence("y", "unused", call["results"][2]["reason"]["message"])
    # the notebook widget's document holds the same sentences
    _, (tape2, _) = magic.run_captured(cell)
    (call2,) = widget.graph_document(tape2)["tapes"][0]["gradients"]
    assert [r["why"] for r in call2["results"]] == whys
