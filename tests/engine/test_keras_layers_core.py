"""Embedding, reshaping, merging, activation, noise and preprocessing layers."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.test_util import check_gradients

L = tf.keras.layers


def test_embedding_looks_up_rows_and_masks_zero():
    layer = L.Embedding(4, 2, mask_zero=True)
    ids = tf.constant([[0, 3], [2, 2]])
    y = layer(ids).numpy()
    table = layer.embeddings.numpy()
    np.testing.assert_array_equal(y, table[[[0, 3], [2, 2]]])
    np.testing.assert_array_equal(layer.compute_mask(ids).numpy(), [[False, True], [True, True]])
    assert layer.get_config()["mask_zero"] is True


def test_embedding_gradient_accumulates_repeated_ids():
    layer = L.Embedding(3, 2, embeddings_initializer="ones")
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(tf.constant([1, 1, 2])))
    g = tf.convert_to_tensor(tape.gradient(y, layer.embeddings)).numpy()
    np.testing.assert_array_equal(g, [[0, 0], [2, 2], [1, 1]])


def test_embedding_rejects_zero_sizes():
    with pytest.raises(ValueError, match="input_dim"):
        L.Embedding(0, 3)


def test_reshape_permute_repeat_shapes_and_errors():
    x = tf.zeros((2, 12))
    assert L.Reshape((2, -1, 3))(x).shape == (2, 2, 2, 3)
    assert L.Permute((3, 1, 2))(tf.zeros((1, 2, 3, 4))).shape == (1, 4, 2, 3)
    assert L.RepeatVector(5)(x).shape == (2, 5, 12)
    with pytest.raises(ValueError, match="total size"):
        L.Reshape((5, -1))(x)
    with pytest.raises(ValueError, match="consecutive"):
        L.Permute((0, 1))


def test_merge_layers_compute_and_check_inputs():
    a, b = tf.constant([[1.0, 5.0]]), tf.constant([[3.0, 2.0]])
    np.testing.assert_array_equal(L.Average()([a, b]).numpy(), [[2.0, 3.5]])
    np.testing.assert_array_equal(L.subtract([a, b]).numpy(), [[-2.0, 3.0]])
    np.testing.assert_array_equal(L.maximum([a, b]).numpy(), [[3.0, 5.0]])
    np.testing.assert_array_equal(L.Concatenate(axis=0)([a, b]).shape, (2, 2))
    np.testing.assert_allclose(L.Dot(axes=1)([a, b]).numpy(), [[13.0]])
    with pytest.raises(ValueError, match="list of inputs"):
        L.Add()(a)


def test_activation_layers():
    x = tf.constant([-2.0, 0.5, 8.0])
    np.testing.assert_allclose(L.ReLU(max_value=6.0)(x).numpy(), [0, 0.5, 6])
    np.testing.assert_allclose(L.LeakyReLU(alpha=0.5)(x).numpy(), [-1, 0.5, 8])
    np.testing.assert_allclose(L.Softmax()(x, mask=tf.constant([True, False, False])).numpy(),
                               [1, 0, 0])
    assert L.Activation("sigmoid").get_config()["activation"] == "sigmoid"
    with pytest.raises(ValueError, match="negative"):
        L.ReLU(negative_slope=-1.0)


def test_prelu_learns_a_slope_per_feature():
    layer = L.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.25))
    np.testing.assert_allclose(layer(tf.constant([[-4.0, 2.0]])).numpy(), [[-1.0, 2.0]])
    assert tuple(layer.alpha.shape) == (2,)


def test_lambda_passes_arguments():
    assert float(L.Lambda(lambda x, p: x ** p, arguments={"p": 3})(tf.constant(2.0))) == 8.0
    with pytest.raises(TypeError, match="callable"):
        L.Lambda(3)


def test_spatial_dropout_keeps_channels_whole_and_scales():
    y = L.SpatialDropout2D(0.5, seed=1)(tf.ones((8, 3, 3, 16)), training=True).numpy()
    assert np.all(y == y[:, :1, :1, :])
    assert set(np.unique(y)) <= {0.0, 2.0}
    np.testing.assert_array_equal(L.SpatialDropout2D(0.5)(tf.ones((1, 2, 2, 3))).numpy(), 1.0)


def test_gaussian_noise_only_in_training():
    x = tf.zeros((100, 100))
    np.testing.assert_array_equal(L.GaussianNoise(1.0)(x).numpy(), 0.0)
    assert abs(float(tf.math.reduce_std(L.GaussianNoise(0.5)(x, training=True))) - 0.5) < 0.02


def test_rescaling_and_normalization_adapt():
    np.testing.assert_allclose(L.Rescaling(1 / 255)(tf.constant([255])).numpy(), [1.0])
    data = np.array([[1.0, 10.0], [3.0, 30.0]], np.float32)
    norm = L.Normalization()
    norm.adapt(data)
    np.testing.assert_allclose(norm(data).numpy(), [[-1, -1], [1, 1]], rtol=1e-6)
    np.testing.assert_allclose(L.Normalization(invert=True, mean=2.0, variance=4.0)(
        tf.constant([[1.0]])).numpy(), [[4.0]])
    with pytest.raises(ValueError, match="both `mean` and `variance`"):
        L.Normalization(mean=1.0)


def test_conv1d_matches_numpy_and_checks_rank():
    x = np.random.default_rng(0).standard_normal((1, 5, 2)).astype(np.float32)
    layer = L.Conv1D(3, 2)
    y = layer(x).numpy()
    k, b = layer.kernel.numpy(), layer.bias.numpy()
    expected = np.stack([x[0, t:t + 2].reshape(-1) @ k.reshape(4, 3) for t in range(4)]) + b
    np.testing.assert_allclose(y[0], expected, rtol=1e-5)
    with pytest.raises(ValueError, match="expected min_ndim=3, found ndim=2"):
        L.Conv1D(2, 2)(tf.zeros((2, 3)))


def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    """<conv2d(u, K), v> == <conv2d_transpose(v, K), u> for a SAME, stride-2 convolution."""
    rng = np.random.default_rng(3)
    layer = L.Conv2DTranspose(2, 3, strides=2, padding="same", use_bias=False)
    v = rng.standard_normal((1, 3, 3, 4)).astype(np.float32)
    tv = layer(v).numpy()
    assert tv.shape == (1, 6, 6, 2)
    u = rng.standard_normal((1, 6, 6, 2)).astype(np.float32)
    cu = tf.nn.conv2d(u, layer.kernel, 2, "SAME").numpy()
    np.testing.assert_allclose(np.sum(cu * v), np.sum(tv * u), rtol=1e-4)


def test_global_and_1d_pooling():
    x = tf.constant(np.arange(12.0, dtype=np.float32).reshape(1, 6, 2))
    np.testing.assert_array_equal(L.GlobalMaxPooling1D()(x).numpy(), [[10, 11]])
    np.testing.assert_array_equal(L.GlobalAveragePooling1D()(x).numpy(), [[5, 6]])
    np.testing.assert_array_equal(L.MaxPooling1D(3)(x).numpy(), [[[4, 5], [10, 11]]])
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=3"):
        L.GlobalAveragePooling2D()(x)


def test_merge_and_reshape_gradients_match_finite_differences():
    def f(a, b):
        m = L.Concatenate()([L.Multiply()([a, b]), L.Maximum()([a, b])])
        return L.Permute((2, 1))(L.Reshape((2, -1))(m))
    rng = np.random.default_rng(4)
    check_gradients(f, [rng.standard_normal((2, 4)), rng.standard_normal((2, 4))], order=1)


def test_every_new_layer_has_a_config_with_its_name():
    for layer in [L.Embedding(2, 2), L.BatchNormalization(), L.LayerNormalization(),
                  L.Reshape((1,)), L.Permute((1,)), L.RepeatVector(2), L.Add(), L.Concatenate(),
                  L.Activation("relu"), L.ReLU(), L.LeakyReLU(), L.ELU(), L.Softmax(),
                  L.SimpleRNN(2), L.LSTM(2), L.GRU(2), L.MultiHeadAttention(2, 2),
                  L.Rescaling(1.0), L.Normalization(), L.Conv1D(2, 2),
                  L.Conv2DTranspose(2, 2), L.GlobalAveragePooling2D(), L.MaxPooling1D(),
                  L.SpatialDropout1D(0.1), L.GaussianNoise(0.1)]:
        cfg = layer.get_config()
        assert cfg["name"] == layer.name and cfg["trainable"] is True


def test_category_encoding_modes_and_arguments():
    ids = tf.constant([[1, 1, 3]])
    np.testing.assert_array_equal(L.CategoryEncoding(4)(ids).numpy(), [[0, 1, 0, 1]])
    np.testing.assert_array_equal(L.CategoryEncoding(4, output_mode="count")(ids).numpy(),
                                  [[0, 2, 0, 1]])
    np.testing.assert_array_equal(L.CategoryEncoding(3, output_mode="one_hot")(
        tf.constant([2, 0])).numpy(), [[0, 0, 1], [1, 0, 0]])
    with pytest.raises(ValueError, match="output_mode"):
        L.CategoryEncoding(3, output_mode="tf_idf")
    with pytest.raises(ValueError, match="num_tokens"):
        L.CategoryEncoding()
