"""SimpleRNN, LSTM, GRU, Bidirectional: shapes, weight layouts, equations checked against a
NumPy loop, gradients against finite differences."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.test_util import check_gradients

RNG = np.random.default_rng(0)


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _set_random(layer):
    layer.set_weights([RNG.standard_normal(tuple(w.shape)) * 0.5 for w in layer.weights])
    return [w.numpy().astype(np.float64) for w in layer.weights]


def test_lstm_matches_a_numpy_loop_gates_i_f_c_o():
    x = RNG.standard_normal((2, 4, 3)).astype(np.float32)
    layer = tf.keras.layers.LSTM(2, return_sequences=True, return_state=True)
    layer(x)
    k, r, b = _set_random(layer)
    seq, h_last, c_last = layer(x)
    h = c = np.zeros((2, 2))
    for t in range(4):
        z = x[:, t] @ k + h @ r + b
        i, f, g, o = np.split(z, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        np.testing.assert_allclose(seq.numpy()[:, t], h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c_last.numpy(), c, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h_last.numpy(), h, rtol=1e-4, atol=1e-5)


def test_gru_reset_after_matches_a_numpy_loop():
    x = RNG.standard_normal((2, 3, 3)).astype(np.float32)
    layer = tf.keras.layers.GRU(2, go_backwards=True)
    layer(x)
    k, r, b = _set_random(layer)
    assert b.shape == (2, 6)
    h = np.zeros((2, 2))
    for t in reversed(range(3)):
        xz, xr, xh = np.split(x[:, t] @ k + b[0], 3, axis=1)
        hz, hr, hh = np.split(h @ r + b[1], 3, axis=1)
        z, rr = _sigmoid(xz + hz), _sigmoid(xr + hr)
        h = z * h + (1 - z) * np.tanh(xh + rr * hh)
    np.testing.assert_allclose(layer(x).numpy(), h, rtol=1e-4, atol=1e-5)


def test_lstm_forget_gate_bias_starts_at_one():
    layer = tf.keras.layers.LSTM(3)
    layer(tf.zeros((1, 2, 4)))
    np.testing.assert_array_equal(layer.bias.numpy(), [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    assert [tuple(w.shape) for w in layer.weights] == [(4, 12), (3, 12), (12,)]


def test_recurrent_kernel_starts_orthogonal():
    layer = tf.keras.layers.SimpleRNN(5)
    layer(tf.zeros((1, 2, 3)))
    r = layer.recurrent_kernel.numpy()
    np.testing.assert_allclose(r @ r.T, np.eye(5), atol=1e-5)


def test_initial_state_count_is_checked():
    with pytest.raises(ValueError, match="2 initial state"):
        tf.keras.layers.LSTM(2)(tf.zeros((1, 2, 3)), initial_state=[tf.zeros((1, 2))])


def test_rank_two_input_is_refused():
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        tf.keras.layers.GRU(2)(tf.zeros((2, 3)))


def test_bidirectional_concatenates_forward_and_backward():
    layer = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2, return_sequences=True))
    x = RNG.standard_normal((1, 3, 2)).astype(np.float32)
    y = layer(x).numpy()
    assert y.shape == (1, 3, 4) and len(layer.weights) == 6
    fw = layer.forward_layer(x).numpy()
    bw = layer.backward_layer(x).numpy()[:, ::-1]
    np.testing.assert_allclose(y, np.concatenate([fw, bw], -1), rtol=1e-6)


@pytest.mark.parametrize("make", [lambda: tf.keras.layers.SimpleRNN(2, dtype="float64"),
                                  lambda: tf.keras.layers.LSTM(2, dtype="float64"),
                                  lambda: tf.keras.layers.GRU(2, dtype="float64"),
                                  lambda: tf.keras.layers.GRU(2, reset_after=False,
                                                              dtype="float64")])
def test_gradients_through_time_match_finite_differences(make):
    layer = make()
    layer.build((2, 3, 2))

    def f(x):
        return layer(x)
    check_gradients(f, [RNG.standard_normal((2, 3, 2))], order=1)


def test_dropout_applies_only_in_training_with_one_mask_per_sequence():
    layer = tf.keras.layers.SimpleRNN(3, dropout=0.5, recurrent_dropout=0.5,
                                      return_sequences=True, seed=1)
    x = tf.constant(RNG.standard_normal((4, 5, 6)).astype(np.float32))
    inference = layer(x).numpy()
    np.testing.assert_allclose(layer(x, training=False).numpy(), inference)
    assert not np.allclose(layer(x, training=True).numpy(), inference)
    mask = layer._dropout_mask(x[:, 0], 0.5).numpy()
    assert set(np.unique(mask)) <= {0.0, 2.0}
