"""tf.function run eagerly: tracing counts, hidden prints, input_signature, concrete functions,
methods, gradients and the tape graph's cluster (TensorFlow's behaviour itself is compared in
tests/conformance/cases/function.py)."""
import gc
import io
import contextlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.graph import capture
from tapegrad.test_util import check_gradients


def _printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn()
    return out.getvalue(), result


def test_prints_show_only_on_calls_that_trace():
    @tf.function
    def f(x):
        print("body", x.shape)
        return x * 2
    text, _ = _printed(lambda: [f(tf.constant(1.0)), f(tf.constant(2.0)), f(tf.constant([1.0]))])
    assert text == "body ()\nbody (1,)\n"
    assert f.experimental_get_tracing_count() == 2


def test_engine_output_goes_through_while_prints_are_hidden():
    import sys

    @tf.function
    def f(x):
        engine_write(sys.stdout, "from the engine\n")   # as tf.print writes: from engine code
        print("from the user")
        return x

    engine_write = _engine_writer()
    text, _ = _printed(lambda: [f(tf.constant(1.0)), f(tf.constant(2.0))])
    assert text == "from the engine\nfrom the user\nfrom the engine\n"


def test_tf_print_prints_on_every_call():
    # TensorFlow's graph runs tf.print on every call (recorded TF output goes to the process's
    # file descriptor, which the conformance harness cannot capture, so it is checked here)
    @tf.function
    def f(x):
        print("python print", x)
        tf.print("tf.print", x)
        return x + 1
    text, _ = _printed(lambda: [f(tf.constant(1.0)), f(tf.constant(2.0)), f(tf.constant(3.0))])
    assert text == ('python print Tensor("x:0", shape=(), dtype=float32)\n'
                    "tf.print 1\ntf.print 2\ntf.print 3\n")


def _engine_writer():
    """A function compiled as if it were engine code (its file lies in the package)."""
    import os
    path = os.path.join(os.path.dirname(tf.__file__), "_engine_writer_for_tests.py")
    namespace = {}
    exec(compile("def write(stream, text):\n    stream.write(text)\n", path, "exec"), namespace)
    return namespace["write"]


def test_stdout_is_restored_after_an_exception():
    import sys

    @tf.function
    def f(x):
        if x > 0:
            raise ValueError("positive")
        return x
    f(tf.constant(-1.0))
    before = sys.stdout
    with pytest.raises(ValueError):
        f(tf.constant(1.0))     # a hidden-prints call (same signature), raising
    assert sys.stdout is before
    assert tf.executing_eagerly()


def test_arguments_print_as_graph_tensors_but_keep_their_values():
    seen = []

    @tf.function
    def f(x, y):
        seen.append((str(x), repr(y)))
        try:
            x.numpy()
        except AttributeError as e:      # a graph tensor has no numpy(), as in TensorFlow
            seen.append(str(e).splitlines()[-1].strip())
        return x + y
    out = f(tf.constant([1.0, 2.0]), tf.constant(3.0))
    assert seen == [('Tensor("x:0", shape=(2,), dtype=float32)',
                     "<tf.Tensor 'y:0' shape=() dtype=float32>"),
                    "AttributeError: 'SymbolicTensor' object has no attribute 'numpy'"]
    assert type(out).__name__ == "EagerTensor"      # not a graph-printing tensor
    assert str(out) == "tf.Tensor([4. 5.], shape=(2,), dtype=float32)"


def test_returning_an_argument_gives_a_plain_tensor():
    f = tf.function(lambda x: x)
    out = f(tf.constant(2.0))
    assert repr(out) == "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>"


def test_signature_with_unknown_dimension_traces_once():
    f = tf.function(lambda x: tf.reduce_sum(x), input_signature=[tf.TensorSpec([None, 2])])
    for n in (1, 3, 5):
        assert f(tf.ones([n, 2])).numpy() == 2 * n
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="Can not cast"):
        f(tf.ones([2, 3]))


def test_missing_type_constraint():
    with pytest.raises(TypeError, match="missing type constraint for y"):
        tf.function(lambda x, y: x, input_signature=[tf.TensorSpec([])])


def test_reduce_retracing_generalises_shapes():
    f = tf.function(lambda x: x, reduce_retracing=True)
    for n in (1, 2, 3, 4):
        f(tf.zeros([n]))
    assert f.experimental_get_tracing_count() == 2


def test_concrete_function_outputs_follow_unknown_dimensions():
    f = tf.function(lambda x: (tf.reduce_sum(x, axis=1), tf.zeros([3])))
    cf = f.get_concrete_function(tf.TensorSpec([None, 4], tf.float32))
    assert repr(cf.structured_outputs) == (
        "(<tf.Tensor 'Identity:0' shape=(None,) dtype=float32>, "
        "<tf.Tensor 'Identity_1:0' shape=(3,) dtype=float32>)")
    assert cf.outputs[1].shape == tf.TensorShape([3])
    assert cf(tf.ones([2, 4]))[0].numpy().tolist() == [4.0, 4.0]
    assert f.get_concrete_function(tf.TensorSpec([None, 4], tf.float32)) is cf
    assert f.experimental_get_tracing_count() == 1


def test_concrete_function_trace_is_invisible_to_tapes():
    v = tf.Variable(2.0)
    f = tf.function(lambda x: v * x)
    with tf.GradientTape() as tape:
        f.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert tape.watched_variables() == ()


def test_methods_bind_per_instance_and_do_not_keep_instances_alive():
    import weakref

    class Counter(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(0.0)

        @tf.function
        def add(self, x):
            self.v.assign_add(x)
            return self.v.read_value()

    a, b = Counter(), Counter()
    assert a.add(tf.constant(2.0)).numpy() == 2.0
    assert a.add(tf.constant(3.0)).numpy() == 5.0   # a hidden-prints call still computes
    assert b.add(tf.constant(1.0)).numpy() == 1.0
    assert a.add is a.add and a.add is not b.add
    assert a.add.experimental_get_tracing_count() == 1
    ref = weakref.ref(b)
    del b
    gc.collect()
    assert ref() is None


def test_keras_model_call_decorated():
    model = tf.keras.layers.Dense(1, kernel_initializer="ones")
    call = tf.function(model)
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = call(x)
    grads = tape.gradient(y, model.trainable_variables)
    assert y.numpy().tolist() == [[3.0]]
    assert [g.numpy().tolist() for g in grads] == [[[1.0], [2.0]], [1.0]]


def test_gradients_through_a_function_match_finite_differences():
    f = tf.function(lambda x: tf.sin(x) * x * x)
    check_gradients(f, [np.array([0.3, -1.2, 2.0])])


def test_ops_inside_a_call_form_a_cluster_in_the_graph():
    @tf.function
    def step(x):
        return tf.reduce_sum(x * x)

    with capture() as cap:
        x = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = step(x) + 1.0
        tape.gradient(y, x)
    doc = cap.to_dict()
    (group,) = [g for g in doc["groups"] if g["label"] == "step (tf.function)"]
    ops = {n["id"]: n["label"] for n in doc["nodes"] if n["kind"] == "op"}
    inside = {ops[n] for n in group["nodes"] if n in ops}
    assert inside == {"Mul", "Sum"}
    outside = {ops[n] for n in ops if n not in group["nodes"]}
    assert "AddV2" in outside


def test_a_method_cluster_is_named_with_its_class():
    class Scale(tf.Module):
        def __init__(self):
            super().__init__(name="scale")
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            return self.w * x

    m = Scale()
    with capture() as cap:
        with tf.GradientTape() as tape:
            y = m(tf.constant(3.0))
        tape.gradient(y, m.w)
    labels = [g["label"] for g in cap.to_dict()["groups"]]
    assert "Scale.__call__ (tf.function)" in labels


def test_executing_eagerly_and_run_functions_eagerly():
    seen = []
    f = tf.function(lambda: seen.append(tf.executing_eagerly()))
    f()
    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly()
        f()
    finally:
        tf.config.run_functions_eagerly(False)
    assert seen == [False, True]
    assert f.experimental_get_tracing_count() == 1


def test_decorator_rejects_non_callables():
    with pytest.raises(TypeError, match="callable"):
        tf.function(3)


def test_autograph_namespace():
    assert tf.autograph.experimental.do_not_convert()(len) is len
    tf.autograph.set_verbosity(3)
    assert tf.autograph.get_verbosity() == 3
    tf.autograph.set_verbosity(0)


def test_gallery_example_shows_a_tf_function_cluster():
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "web" / "examples" / "tf_function.py"
    source = path.read_text().replace("import tensorflow as tf", "import tapegrad as tf")
    with capture() as cap:
        _printed(lambda: exec(compile(source, str(path), "exec"), {"__name__": "__main__"}))
    doc = cap.to_dict()
    (group,) = [g for g in doc["groups"] if g["label"] == "predict (tf.function)"]
    labels = {n["label"] for n in doc["nodes"] if n["id"] in group["nodes"] and n["kind"] == "op"}
    assert {"MatMul", "Sigmoid"} <= labels


def test_frequent_retracing_is_warned_about_twice_at_most():
    import logging
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    log = logging.getLogger("tapegrad")
    log.addHandler(handler)
    try:
        @tf.function
        def f(x):
            return x
        for i in range(4):
            f(i)
        assert records == []
        for i in range(4, 12):
            f(i)
        for _ in range(5):                      # one created again in a loop: noticed too
            tf.function(lambda x: x + 1)(tf.constant(1.0))
    finally:
        log.removeHandler(handler)
    messages = [r.getMessage() for r in records]
    assert len(messages) == 3
    assert messages[0].startswith("5 out of the last 5 calls to <function")
    assert messages[1].startswith("6 out of the last 6 calls")
    assert "creating @tf.function repeatedly in a loop" in messages[2]


@pytest.mark.parametrize("name", ["tapegrad.function", "tapegrad.function.calls",
                                  "tapegrad.function.polymorphic", "tapegrad.tensor_spec",
                                  "tapegrad.autograph"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
