"""``tf.saved_model.save`` / ``load`` and Keras's ``model.export``: round trips of a tf.Module and
of subclassed, functional and Sequential Keras models; restored variables shared by the restored
functions; fine-tuning through a restored function checked against eager and finite differences;
the errors at save time for what a SavedModel cannot hold."""
import contextlib
import io
import json
import os
import tempfile

import numpy as np
import pytest

import tapegrad as tf


def _dir():
    return os.path.join(tempfile.mkdtemp(), "saved")


def _round_trip(obj, **kwargs):
    path = _dir()
    tf.saved_model.save(obj, path, **kwargs)
    return tf.saved_model.load(path)


class Affine(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.linspace(-1, 1, 6).reshape(3, 2).astype("float32"), name="w")
        self.b = tf.Variable([0.5, -0.5], name="b")
        self.calls = tf.Variable(0)
        self.extra = [tf.Variable(1.5), {"k": tf.Variable(2.0)}]
        self.inner = tf.Module()
        self.inner.scale = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        self.calls.assign_add(1)
        h = tf.tanh(tf.matmul(x, self.w) + self.b)
        return h * self.extra[0] + self.extra[1]["k"]

    @tf.function
    def both(self, x):
        return {"sum": x + self.inner.scale, "product": x * self.inner.scale}

    @tf.function
    def mode(self, x, training):
        return x * 2.0 if training else x

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def inner_gradient(self, x):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.tanh(tf.matmul(x, self.w)))
        return tape.gradient(y, self.w)

    @tf.function
    def never_called(self, x):
        return x


X = np.array([[0.1, -0.2, 0.3], [1.0, 0.5, -0.4]], np.float32)


def test_module_round_trip_calls_attributes_and_files():
    m = Affine()
    m.both(tf.constant([1.0, 2.0]))
    path = _dir()
    tf.saved_model.save(m, path)
    assert sorted(os.listdir(path)) == ["constants.npz", "saved_model.json", "variables"]
    assert tf.saved_model.contains_saved_model(path)
    with open(os.path.join(path, "saved_model.json")) as f:
        assert json.load(f)["format"] == "tapegrad-saved-model"
    loaded = tf.saved_model.load(path)
    np.testing.assert_allclose(loaded(tf.constant(X)), m(tf.constant(X)), rtol=1e-6)
    out = loaded.both(tf.constant([1.0, 2.0]))
    assert sorted(out) == ["product", "sum"]
    np.testing.assert_allclose(out["product"], [3.0, 6.0])
    assert isinstance(loaded.w, tf.Variable) and loaded.w.name == "w:0"
    assert float(loaded.extra[1]["k"].numpy()) == 2.0 and float(loaded.inner.scale.numpy()) == 3.0
    assert int(loaded.calls.numpy()) == 1            # the assignment ran as a graph op
    assert list(loaded.signatures) == []    # two functions have input signatures: no default


def test_only_traced_signatures_are_saved():
    m = Affine()
    m.mode(tf.constant(1.0), True)
    m.mode(tf.constant(1.0), False)
    loaded = _round_trip(m)
    assert float(loaded.mode(tf.constant(3.0), True)) == 6.0
    assert float(loaded.mode(tf.constant(3.0), training=False)) == 3.0
    with pytest.raises(ValueError, match="Found zero restored functions"):
        loaded.never_called(tf.constant(1.0))
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.mode(tf.constant([1.0, 2.0]), True)
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        loaded.mode(tf.constant(1.0), "maybe")


def test_signatures_return_named_outputs():
    m = Affine()
    loaded = _round_trip(m, signatures={
        "serving_default": m.__call__,
        "both": m.both.get_concrete_function(tf.TensorSpec([2], tf.float32))})
    assert list(loaded.signatures) == ["serving_default", "both"]
    serving = loaded.signatures["serving_default"]
    assert serving.structured_input_signature == (
        (), {"x": tf.TensorSpec([None, 3], tf.float32, "x")})
    assert serving.structured_outputs == {
        "output_0": tf.TensorSpec([None, 2], tf.float32, "output_0")}
    out = serving(x=tf.constant(X))
    np.testing.assert_allclose(out["output_0"], m(tf.constant(X)), rtol=1e-6)
    np.testing.assert_allclose(serving(tf.constant(X))["output_0"], out["output_0"])
    assert sorted(loaded.signatures["both"](x=tf.constant([1.0, 1.0]))) == ["product", "sum"]
    with pytest.raises(TypeError):
        serving(tf.constant(X), 3)


def test_restored_variables_are_shared_by_the_functions():
    loaded = _round_trip(Affine())
    before = loaded(tf.constant(X)).numpy()
    loaded.extra[1]["k"].assign(12.0)
    np.testing.assert_allclose(loaded(tf.constant(X)).numpy(), before + 10.0, rtol=1e-6)
    assert int(loaded.calls.numpy()) == 2


def test_fine_tuning_through_a_restored_function_matches_eager():
    m = Affine()
    loaded = _round_trip(m)
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(loaded(x) ** 2)
    got = tape.gradient(loss, [loaded.w, loaded.b, loaded.extra[0]])
    with tf.GradientTape() as tape:
        eager = tf.reduce_sum(m(x) ** 2)
    want = tape.gradient(eager, [m.w, m.b, m.extra[0]])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5)
    # one weight by central finite differences, in float64 arithmetic on the loaded function
    eps, (i, j) = 1e-2, (1, 0)
    base = loaded.w.numpy().astype(np.float64)

    def loss_at(value):
        loaded.w.assign(value.astype(np.float32))
        return float(tf.reduce_sum(loaded(x) ** 2))
    up, down = base.copy(), base.copy()
    up[i, j] += eps
    down[i, j] -= eps
    numeric = (loss_at(up) - loss_at(down)) / (2 * eps)
    loaded.w.assign(base.astype(np.float32))
    assert abs(numeric - float(got[0][i, j])) < 1e-2 * max(1.0, abs(numeric))
    # a training step changes what the restored function computes
    tf.keras.optimizers.SGD(0.1).apply_gradients(zip(got, [loaded.w, loaded.b, loaded.extra[0]]))
    assert not np.allclose(loaded(x), m(x))


def test_gradient_taken_inside_the_function_survives_the_round_trip():
    m = Affine()
    loaded = _round_trip(m)
    np.testing.assert_allclose(loaded.inner_gradient(tf.constant(X)),
                               m.inner_gradient(tf.constant(X)), rtol=1e-6)


def test_unknown_dimensions_serve_any_size():
    class Flat(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def __call__(self, x):
            return tf.reshape(x, [-1]) + tf.reduce_mean(x)

        @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
        def sized(self, x):         # sizes read in Python, and a constant of the batch's shape
            return tf.reshape(x, [1, x.shape[1], x.shape[0]]), tf.zeros([x.shape[0], 2]) + 1.0
    flat = Flat()
    loaded = _round_trip(flat)
    for n in (1, 4, 7):
        x = tf.constant(np.arange(3 * n, dtype=np.float32).reshape(n, 3))
        np.testing.assert_allclose(loaded(x), flat(x))
    for shape in ((1, 1), (4, 2), (3, 5)):
        x = tf.constant(np.ones(shape, np.float32))
        for got, want in zip(loaded.sized(x), flat.sized(x)):
            np.testing.assert_allclose(got, want)
            assert got.shape == want.shape


@pytest.mark.parametrize("layers,shape", [
    ([tf.keras.layers.Conv2D(3, 3, activation="relu"), tf.keras.layers.MaxPooling2D(),
      tf.keras.layers.Flatten(), tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(2)],
     (8, 8, 1)),
    ([tf.keras.layers.LSTM(4), tf.keras.layers.Dense(1)], (5, 3)),
    ([tf.keras.layers.Dense(5), tf.keras.layers.BatchNormalization(),
      tf.keras.layers.LayerNormalization()], (4,)),
], ids=["cnn", "lstm", "normalization"])
def test_exported_keras_layers_serve_any_batch(layers, shape):
    """A graph whose ops take the batch size as a setting (Flatten's reshape, an RNN's zero
    state) is saved with the size as a placeholder."""
    model = tf.keras.Sequential([tf.keras.Input(shape)] + layers)
    path = _dir()
    with contextlib.redirect_stdout(io.StringIO()):
        model.export(path)
    loaded = tf.saved_model.load(path)
    for batch in (1, 6):
        x = np.random.default_rng(batch).random((batch,) + shape).astype(np.float32)
        np.testing.assert_allclose(loaded.serve(x), model(x), rtol=1e-5, atol=1e-6)


def test_what_a_saved_model_cannot_hold_fails_at_save_time():
    class Python(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return tf.py_function(lambda a: a * 2, [x], tf.float32)
    with pytest.raises(ValueError, match="py_function"):
        tf.saved_model.save(Python(), _dir())

    class BySize(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def f(self, x):
            return tf.reshape(tf.concat([x, x], 0), [1, 2 * x.shape[0]])
    with pytest.raises(ValueError, match="unknown dimension"):
        tf.saved_model.save(BySize(), _dir())
    with pytest.raises(ValueError, match="Expected an object of type `Trackable`"):
        tf.saved_model.save(3, _dir())
    with pytest.raises(ValueError, match="Only `tf.functions` with an input signature"):
        tf.saved_model.save(Affine(), _dir(), signatures=Affine().both)
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(os.path.join(tempfile.mkdtemp(), "nothing"))


# ---------------------------------------------------------------- Keras
def _fill(model):
    model.set_weights([np.linspace(-1.0, 1.0, int(np.prod(w.shape))).reshape(w.shape)
                       .astype("float32") for w in model.weights])
    return model


def _sequential():
    return _fill(tf.keras.Sequential([tf.keras.Input((3,)),
                                      tf.keras.layers.Dense(4, activation="relu"),
                                      tf.keras.layers.Dense(2)]))


def _functional():
    L = tf.keras.layers
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    joined = L.Concatenate()([L.Dense(4)(a), b])
    return _fill(tf.keras.Model({"a": a, "b": b}, {"o": L.Dense(1)(joined), "s": L.Dense(2)(a)}))


class Residual(tf.keras.Model):
    """A subclassed model with a skip connection and a list of layers."""

    def __init__(self):
        super().__init__()
        self.blocks = [tf.keras.layers.Dense(3, activation="tanh") for _ in range(2)]
        self.head = tf.keras.layers.Dense(2)

    def call(self, x):
        for block in self.blocks:
            x = x + block(x)
        return self.head(x)


def _subclassed():
    model = Residual()
    model(np.ones((1, 3), np.float32))
    return _fill(model)


def test_keras_models_save_their_serving_signature():
    x = np.linspace(0, 1, 12).reshape(4, 3).astype(np.float32)
    seq = _sequential()
    serving = _round_trip(seq).signatures["serving_default"]
    assert list(serving.structured_input_signature[1]) == ["inputs"]
    np.testing.assert_allclose(serving(inputs=x)["output_0"], seq(x), rtol=1e-6)
    fm = _functional()
    serving = _round_trip(fm).signatures["serving_default"]
    assert list(serving.structured_input_signature[1]) == ["inputs", "inputs_1"]
    out = serving(inputs=x, inputs_1=x[:, :2])
    want = fm({"a": x, "b": x[:, :2]})
    assert sorted(out) == ["o", "s"]
    np.testing.assert_allclose(out["o"], want["o"], rtol=1e-6)
    sub = _subclassed()
    serving = _round_trip(sub).signatures["serving_default"]
    assert serving.structured_input_signature[1]["inputs"].shape == (1, 3)
    np.testing.assert_allclose(serving(inputs=x[:1])["output_0"], sub(x[:1]), rtol=1e-6)


@pytest.mark.parametrize("make", [_sequential, _functional, _subclassed])
def test_keras_export_serves_the_model(make):
    model = make()
    path = _dir()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        model.export(path)
    assert printed.getvalue().startswith(f"Saved artifact at '{path}'. The following endpoints")
    loaded = tf.saved_model.load(path)
    assert list(loaded.signatures) == ["serve", "serving_default"]
    assert len(loaded.variables) == len(model.variables)
    x = np.linspace(0, 1, 15).reshape(5, 3).astype(np.float32)
    inputs = {"a": x, "b": x[:, :2]} if make is _functional else x
    got, want = loaded.serve(inputs), model(inputs)
    for g, w in zip(tf.nest.flatten(got), tf.nest.flatten(want)):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    # fine-tuning the exported model through its endpoint
    with tf.GradientTape() as tape:
        loss = sum(tf.reduce_sum(t ** 2) for t in tf.nest.flatten(loaded.serve(inputs)))
    grads = tape.gradient(loss, loaded.trainable_variables)
    with tf.GradientTape() as tape:
        eager = sum(tf.reduce_sum(t ** 2) for t in tf.nest.flatten(model(inputs)))
    for g, w in zip(grads, tape.gradient(eager, model.trainable_variables)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
