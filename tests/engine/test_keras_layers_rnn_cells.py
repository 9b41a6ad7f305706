"""Unit tests for keras/layers/rnn_cells.py and keras/layers/rnn.py (values against TF are in
tests/conformance/cases/keras_rnn_cells.py)."""
import numpy as np
import pytest

import tapegrad as tf

L = tf.keras.layers


def _seq():
    return tf.constant(np.sin(np.arange(24, dtype=np.float32)).reshape(2, 4, 3))


@pytest.mark.parametrize("cell_cls,layer_cls", [(L.SimpleRNNCell, L.SimpleRNN),
                                                 (L.LSTMCell, L.LSTM), (L.GRUCell, L.GRU)])
def test_rnn_over_cell_equals_recurrent_layer(cell_cls, layer_cls):
    x = _seq()
    rnn = L.RNN(cell_cls(5), return_sequences=True, go_backwards=True)
    layer = layer_cls(5, return_sequences=True, go_backwards=True)
    rnn(x)
    layer(x)
    layer.set_weights(rnn.get_weights())
    np.testing.assert_allclose(np.asarray(rnn(x)), np.asarray(layer(x)), rtol=1e-6, atol=1e-7)


def test_cell_single_state_keeps_list_or_tensor_form():
    cell = L.GRUCell(2)
    x, h = tf.ones((1, 3)), tf.zeros((1, 2))
    out, new = cell(x, h)
    assert not isinstance(new, list) and new.shape == (1, 2)
    out2, new2 = cell(x, [h])
    assert isinstance(new2, list) and len(new2) == 1
    np.testing.assert_allclose(np.asarray(out), np.asarray(out2))


def test_lstm_cell_wrong_state_count_is_clear():
    cell = L.LSTMCell(2)
    with pytest.raises(ValueError, match="expects 2 state"):
        cell(tf.ones((1, 3)), [tf.zeros((1, 2))])


def test_stacked_states_and_output_size():
    cells = L.StackedRNNCells([L.LSTMCell(3), L.SimpleRNNCell(2)])
    assert cells.state_size == [[3, 3], 2]
    assert cells.output_size == 2
    out, h1, h2 = L.RNN(cells, return_state=True)(_seq())
    assert out.shape == (2, 2) and [t.shape for t in h1] == [(2, 3), (2, 3)]
    assert isinstance(h2, list) and h2[0].shape == (2, 2)


def test_dropout_only_in_training_and_seeded():
    x = _seq()
    layer = L.RNN(L.LSTMCell(4, dropout=0.5, recurrent_dropout=0.5, seed=3))
    a = np.asarray(layer(x))
    np.testing.assert_array_equal(a, np.asarray(layer(x)))  # inference: no dropout
    t = np.asarray(layer(x, training=True))
    assert t.shape == a.shape and not np.allclose(t, a)
    assert layer.cell._sequence_masks is None  # masks end with the sequence


def test_gradients_reach_every_weight_and_initial_state():
    x = _seq()
    layer = L.RNN([L.GRUCell(3), L.LSTMCell(2)])
    h0 = [tf.ones((2, 3)), [tf.zeros((2, 2)), tf.ones((2, 2))]]
    layer(x, initial_state=h0)
    with tf.GradientTape() as tape:
        tape.watch(tf.nest.flatten(h0))
        y = tf.reduce_sum(layer(x, initial_state=h0) ** 2)
    grads = tape.gradient(y, layer.trainable_weights + tf.nest.flatten(h0))
    assert len(layer.trainable_weights) == 6
    assert all(g is not None and np.any(np.asarray(g) != 0) for g in grads)


def test_masked_steps_keep_state():
    x = _seq()
    mask = tf.constant([[True, False, False, False], [True, True, True, True]])
    layer = L.RNN(L.SimpleRNNCell(2), return_sequences=True, return_state=True)
    seq, h = layer(x, mask=mask)
    seq = np.asarray(seq)
    np.testing.assert_array_equal(seq[0, 1:], np.repeat(seq[0, :1], 3, axis=0))
    np.testing.assert_array_equal(np.asarray(h)[0], seq[0, 0])


def test_bad_cells_and_stateful_are_refused():
    with pytest.raises(ValueError, match="`call` method"):
        L.RNN(object())
    with pytest.raises(ValueError, match="state_size"):
        L.StackedRNNCells([L.Dense(2)])
    with pytest.raises(NotImplementedError, match="stateful"):
        L.RNN(L.GRUCell(2), stateful=True)
    # Keras clips the dropout rates to [0, 1] (recorded in conformance keras_checks)
    assert L.LSTMCell(2, dropout=1.5, recurrent_dropout=-1).dropout == 1.0
    assert L.LSTMCell(2, dropout=1.5, recurrent_dropout=-1).recurrent_dropout == 0.0


def test_compute_output_shape_and_functional():
    layer = L.RNN([L.LSTMCell(3), L.GRUCell(2)], return_sequences=True, return_state=True)
    assert layer.compute_output_shape((None, 5, 4)) == \
        ((None, 5, 2), [(None, 3), (None, 3)], (None, 2))
    inp = tf.keras.Input((5, 4))
    model = tf.keras.Model(inp, L.RNN(L.GRUCell(2))(inp))
    assert model(tf.zeros((3, 5, 4))).shape == (3, 2)
