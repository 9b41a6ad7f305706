"""Keras's argument and shape checks as Keras 3.15 makes them (issue 30, item 3): a layer's
constructor arguments, the input a built layer or model accepts, and ``fit``/``predict``'s
arguments and data, including the edge cases Keras accepts (an empty epoch range, an unknown
input dimension, a zero-length sequence)."""

import numpy as np


def _x(n=8, d=4):
    return np.cos(np.arange(n * d, dtype=np.float32) * 0.37).reshape(n, d)


def _y(n=8):
    return np.sin(np.arange(n, dtype=np.float32)).reshape(n, 1)


def _model(tf, d=4):
    model = tf.keras.Sequential([tf.keras.Input(shape=(d,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.linspace(-0.5, 0.5, d, dtype=np.float32).reshape(d, 1),
                       np.array([0.1], np.float32)])
    model.compile(optimizer="sgd", loss="mse")
    return model


def _history(history):
    return [history.history, history.epoch, history.params]


# --- Dense --------------------------------------------------------------------------------------
def case_dense_on_rank_1_input(tf):
    return tf.keras.layers.Dense(3)(tf.ones([4]))


def case_dense_float_units(tf):
    return tf.keras.layers.Dense(2.5)


def case_dense_zero_units(tf):
    return tf.keras.layers.Dense(0)


def case_dense_negative_units(tf):
    return tf.keras.layers.Dense(-1)


def case_dense_string_units(tf):
    return tf.keras.layers.Dense("3")


def case_dense_integral_float_units(tf):
    layer = tf.keras.layers.Dense(3.0)
    return [layer.units, layer(tf.ones([2, 4])).shape]


def case_dense_numpy_int_units(tf):
    layer = tf.keras.layers.Dense(np.int64(3))
    return layer(tf.ones([2, 4])).shape


def case_dense_called_on_other_last_dim(tf):
    layer = tf.keras.layers.Dense(3)
    layer(tf.ones([2, 4]))
    return layer(tf.ones([2, 5]))


def case_dense_on_unknown_last_dim(tf):
    return tf.keras.layers.Dense(3)(tf.keras.Input(shape=(None,)))


def case_lstm_on_unknown_steps(tf):
    layer = tf.keras.layers.LSTM(3)
    return [layer(tf.keras.Input(shape=(None, 4))).shape, [w.shape for w in layer.weights]]


def case_dense_on_scalar(tf):
    return tf.keras.layers.Dense(3)(tf.constant(1.0))


# --- Input --------------------------------------------------------------------------------------
def case_input_negative_dim(tf):
    return tf.keras.Input(shape=(-1,))


def case_input_unknown_dim(tf):
    x = tf.keras.Input(shape=(None,))
    return [x.shape, x.dtype]


def case_input_int_shape(tf):
    return tf.keras.Input(shape=4)


def case_input_float_dim(tf):
    return tf.keras.Input(shape=(2.5,))


def case_input_zero_dim(tf):
    x = tf.keras.Input(shape=(0,))
    return x.shape


# --- predict / fit on the wrong shape --------------------------------------------------------------
def case_predict_rank_3_on_rank_2_model(tf):
    return _model(tf).predict(np.ones([2, 3, 4], np.float32), verbose=0)


def case_predict_other_last_dim(tf):
    return _model(tf).predict(np.ones([2, 5], np.float32), verbose=0)


def case_fit_other_last_dim(tf):
    return _history(_model(tf).fit(np.ones([4, 5], np.float32), np.ones([4, 1], np.float32),
                                   verbose=0))


def case_functional_call_rank_3(tf):
    x = tf.keras.Input(shape=(4,))
    model = tf.keras.Model(x, tf.keras.layers.Dense(2)(x))
    return model(tf.ones([2, 3, 4]))


# --- an empty Sequential -------------------------------------------------------------------------
def case_empty_sequential_predict(tf):
    return tf.keras.Sequential().predict(_x(), verbose=0)


def case_empty_sequential_call(tf):
    return tf.keras.Sequential()(tf.ones([2, 4]))


def case_empty_sequential_fit(tf):
    model = tf.keras.Sequential([])
    model.compile(optimizer="sgd", loss="mse")
    return _history(model.fit(_x(), _x(), verbose=0))


def case_empty_sequential_summary(tf):
    tf.keras.Sequential().summary()
    return "printed"


# --- fit's arguments ------------------------------------------------------------------------------
def case_fit_negative_batch_size(tf):
    return _history(_model(tf).fit(_x(), _y(), batch_size=-4, verbose=0))


def case_fit_zero_batch_size(tf):
    return _history(_model(tf).fit(_x(), _y(), batch_size=0, verbose=0))


def case_fit_float_batch_size(tf):
    return _history(_model(tf).fit(_x(), _y(), batch_size=2.5, verbose=0))


def case_fit_zero_samples(tf):
    return _history(_model(tf).fit(np.zeros([0, 4], np.float32), np.zeros([0, 1], np.float32),
                                   verbose=0))


def case_fit_zero_epochs(tf):
    history = _model(tf).fit(_x(), _y(), epochs=0, verbose=0)
    return [type(history).__name__] + _history(history)


def case_fit_negative_epochs(tf):
    history = _model(tf).fit(_x(), _y(), epochs=-2, verbose=0)
    return [type(history).__name__] + _history(history)


def case_fit_x_y_lengths_differ(tf):
    return _history(_model(tf).fit(_x(8), _y(6), verbose=0))


def case_fit_validation_split_above_one(tf):
    return _history(_model(tf).fit(_x(), _y(), validation_split=1.5, verbose=0))


def case_fit_validation_split_one(tf):
    return _history(_model(tf).fit(_x(), _y(), validation_split=1.0, verbose=0))


def case_fit_validation_split_negative(tf):
    return _history(_model(tf).fit(_x(), _y(), validation_split=-0.5, verbose=0))


def case_predict_zero_batch_size(tf):
    return _model(tf).predict(_x(), batch_size=0, verbose=0)


def case_evaluate_negative_batch_size(tf):
    return _model(tf).evaluate(_x(), _y(), batch_size=-1, verbose=0)


def case_evaluate_x_y_lengths_differ(tf):
    return _model(tf).evaluate(_x(8), _y(5), verbose=0)


# --- Conv ---------------------------------------------------------------------------------------
def case_conv2d_zero_filters(tf):
    return tf.keras.layers.Conv2D(filters=0, kernel_size=3)


def case_conv2d_negative_filters(tf):
    return tf.keras.layers.Conv2D(filters=-2, kernel_size=3)


def case_conv2d_zero_kernel(tf):
    return tf.keras.layers.Conv2D(filters=2, kernel_size=0)


def case_conv2d_float_filters(tf):
    return tf.keras.layers.Conv2D(2.5, 3)


def case_conv2d_filters_not_divisible_by_groups(tf):
    return tf.keras.layers.Conv2D(4, 3, groups=3)


def case_conv2d_float_kernel_size(tf):
    return tf.keras.layers.Conv2D(2, 2.5)


def case_conv2d_zero_strides(tf):
    return tf.keras.layers.Conv2D(2, 3, strides=0)


def case_max_pooling_zero_pool_size(tf):
    return tf.keras.layers.MaxPooling2D(0)


def case_conv2d_kernel_larger_than_input(tf):
    return tf.keras.layers.Conv2D(2, 5)(tf.ones([1, 3, 3, 1]))


def case_conv2d_kernel_larger_than_input_same(tf):
    return tf.keras.layers.Conv2D(2, 5, padding="same")(tf.ones([1, 3, 3, 1])).shape


def case_conv1d_on_rank_2_input(tf):
    return tf.keras.layers.Conv1D(2, 3)(tf.ones([4, 5]))


def case_conv2d_other_channels(tf):
    layer = tf.keras.layers.Conv2D(2, 2)
    layer(tf.ones([1, 4, 4, 1]))
    return layer(tf.ones([1, 4, 4, 3]))


# --- Dropout ------------------------------------------------------------------------------------
def case_dropout_above_one(tf):
    return tf.keras.layers.Dropout(1.5)


def case_dropout_negative(tf):
    return tf.keras.layers.Dropout(-0.1)


def case_dropout_one(tf):
    return tf.keras.layers.Dropout(1.0)


def case_dropout_one_drops_everything(tf):
    return [tf.keras.layers.Dropout(1.0)(tf.ones([2, 3]), training=True),
            tf.keras.layers.SpatialDropout1D(1.0)(tf.ones([1, 2, 3]), training=True)]


def case_dropout_string(tf):
    return tf.keras.layers.Dropout("0.5")


def case_spatial_dropout_above_one(tf):
    return tf.keras.layers.SpatialDropout1D(1.5)


# --- recurrent ----------------------------------------------------------------------------------
def case_lstm_zero_units(tf):
    return tf.keras.layers.LSTM(0)


def case_gru_negative_units(tf):
    return tf.keras.layers.GRU(-3)


def case_simple_rnn_float_units(tf):
    return tf.keras.layers.SimpleRNN(2.5)


def case_lstm_dropout_above_one(tf):
    return tf.keras.layers.LSTM(3, dropout=1.5)


def case_lstm_zero_length_sequence(tf):
    return tf.keras.layers.LSTM(3)(tf.ones([2, 0, 4]))


def case_lstm_zero_length_sequence_return_sequences(tf):
    return tf.keras.layers.LSTM(3, return_sequences=True)(tf.ones([2, 0, 4]))


def case_gru_zero_length_sequence(tf):
    return tf.keras.layers.GRU(3)(tf.ones([2, 0, 4]))


def case_lstm_on_rank_2_input(tf):
    return tf.keras.layers.LSTM(3)(tf.ones([2, 4]))


# --- Embedding ----------------------------------------------------------------------------------
def case_embedding_index_too_large(tf):
    layer = tf.keras.layers.Embedding(5, 2)
    return layer(tf.constant([[1, 7]]))


def case_embedding_negative_index(tf):
    layer = tf.keras.layers.Embedding(5, 2)
    out = layer(tf.constant([[1, -1]]))
    table = layer.embeddings.numpy()
    return [out.shape, bool(np.array_equal(out.numpy()[0], table[[1, 4]]))]


def case_embedding_index_below_minus_input_dim(tf):
    return tf.keras.layers.Embedding(5, 2)(tf.constant([[-6]]))


def case_embedding_zero_input_dim(tf):
    return tf.keras.layers.Embedding(0, 2)


def case_embedding_negative_output_dim(tf):
    return tf.keras.layers.Embedding(4, -2)


# --- Reshape, Concatenate -----------------------------------------------------------------------
def case_reshape_incompatible_target(tf):
    return tf.keras.layers.Reshape((4, 4))(tf.ones([2, 6]))


def case_reshape_two_unknown(tf):
    return tf.keras.layers.Reshape((-1, -1))


def case_reshape_symbolic_incompatible(tf):
    return tf.keras.layers.Reshape((5,))(tf.keras.Input(shape=(2, 3)))


def case_concatenate_mismatched_shapes(tf):
    return tf.keras.layers.Concatenate()([tf.ones([2, 3]), tf.ones([3, 3])])


def case_concatenate_mismatched_rank(tf):
    return tf.keras.layers.Concatenate()([tf.ones([2, 3]), tf.ones([2, 3, 1])])


def case_concatenate_one_input(tf):
    return tf.keras.layers.Concatenate()([tf.ones([2, 3])])


def case_concatenate_symbolic_mismatch(tf):
    a, b = tf.keras.Input(shape=(3, 2)), tf.keras.Input(shape=(4, 2))
    return tf.keras.layers.Concatenate(axis=-1)([a, b])


def case_add_mismatched_shapes(tf):
    return tf.keras.layers.Add()([tf.ones([2, 3]), tf.ones([2, 4])])


# --- where tapegrad's message is its own -----------------------------------------------------------
case_predict_rank_3_on_rank_2_model.message_differs = (
    "Keras names the graph tensor its predict function traced (Tensor(\"data:0\", ...)); "
    "tapegrad, which traces nothing, gives the input's shape",
    ("Invalid input shape for input", "with name 'keras_tensor'",
     "Expected shape (None, 4), but input has incompatible shape (2, 3, 4)"))
case_fit_negative_batch_size.message_differs = (
    "Keras fails inside its slicing with TensorFlow's 'Invalid value in tensor used for shape: "
    "-2' (the step count); tapegrad names the argument",
    ("`batch_size` must be a positive integer", "batch_size=-4"))
case_evaluate_negative_batch_size.message_differs = (
    "Keras fails inside its slicing with TensorFlow's 'Invalid value in tensor used for shape: "
    "-8'; tapegrad names the argument",
    ("`batch_size` must be a positive integer", "batch_size=-1"))
case_fit_float_batch_size.message_differs = (
    "Keras fails inside TensorFlow's Slice op ('Expected int32 passed to parameter size'); "
    "tapegrad names the argument",
    ("`batch_size` must be an integer", "batch_size=2.5"))
