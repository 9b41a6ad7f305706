"""Keras's argument and shape checks where the conformance cases (tests/conformance/cases/
keras_checks.py) cannot look: warnings, what a refused call leaves behind, a layer's own
``input_spec``, and the models whose inputs are not checked by shape."""
import warnings

import numpy as np
import pytest

import tapegrad as tf


def _model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


def test_a_refused_input_builds_nothing():
    layer = tf.keras.layers.Dense(3)
    with pytest.raises(ValueError, match="expected min_ndim=2, found ndim=1"):
        layer(tf.ones([4]))
    assert not layer.built and layer.weights == []
    assert layer(tf.ones([2, 4])).shape == (2, 3)


def test_a_layer_subclass_with_its_own_input_spec_is_checked():
    class Pairs(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.input_spec = tf.keras.layers.input_spec.InputSpec(ndim=2, axes={-1: 2})

        def call(self, x):
            return x * 2.0

    layer = Pairs()
    assert layer(tf.ones([3, 2])).shape == (3, 2)
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 2"):
        layer(tf.ones([3, 5]))
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
        layer(tf.keras.Input(shape=(2, 2)))


def test_fit_on_no_samples_warns_as_keras_and_computes_nothing():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        history = _model().fit(np.zeros([0, 4], np.float32), np.zeros([0, 1], np.float32),
                               epochs=2, verbose=0)
    assert history.history == {} and history.epoch == [0, 1]
    messages = [str(w.message) for w in seen]
    assert any("Your input ran out of data" in m for m in messages), messages
    assert not [w for w in seen if issubclass(w.category, RuntimeWarning)], messages


def test_fit_with_no_epochs_returns_the_models_history():
    model = _model()
    history = model.fit(np.ones([4, 4], np.float32), np.ones([4, 1], np.float32), epochs=0,
                        verbose=0)
    assert history is model.history
    assert history.history == {} and history.epoch == []
    assert model.fit(np.ones([4, 4], np.float32), np.ones([4, 1], np.float32), epochs=3,
                     initial_epoch=3, verbose=0).epoch == []


def test_predict_on_no_samples_gives_an_empty_result():
    out = _model().predict(np.zeros([0, 4], np.float32), verbose=0)
    assert out.shape == (0, 1) and out.dtype == np.float32


def test_a_trailing_axis_of_one_is_not_a_rank_mismatch():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4, 1)), tf.keras.layers.Flatten()])
    with pytest.raises(ValueError, match="Invalid input shape"):
        model.predict(np.ones([2, 4, 1, 3], np.float32), verbose=0)
    # one more trailing 1 than the Input: the rank check lets it through to the layers
    assert model.predict(np.ones([2, 4, 1, 1], np.float32), verbose=0).shape == (2, 4)


def test_functional_models_with_dict_inputs_are_not_checked_by_position():
    a, b = tf.keras.Input(shape=(2,), name="a"), tf.keras.Input(shape=(3,), name="b")
    model = tf.keras.Model({"a": a, "b": b}, tf.keras.layers.Concatenate()([a, b]))
    out = model({"b": tf.ones([1, 3]), "a": tf.zeros([1, 2])})
    assert out.shape == (1, 5)
    assert model.input_spec is None


def test_batch_size_zero_is_the_default_and_true_is_one():
    model = _model()
    x, y = np.ones([8, 4], np.float32), np.ones([8, 1], np.float32)
    assert model.fit(x, y, batch_size=0, verbose=0).params["steps"] == 1
    assert model.fit(x, y, batch_size=True, verbose=0).params["steps"] == 8
    assert model.fit(x, y, batch_size=np.int64(4), verbose=0).params["steps"] == 2
