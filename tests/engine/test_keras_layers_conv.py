"""Unit tests of the N-d convolution, depthwise/separable, 3-D pooling and volume layers
(``keras/layers/convolutional/``, ``pooling/``, ``reshaping/reshaping_3d.py``).
Values against TensorFlow are in tests/conformance/cases/keras_layers_conv.py."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.errors import InvalidArgumentError, UnimplementedError
from tapegrad.test_util import check_gradients

L = tf.keras.layers


def _x(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _dense_conv_transpose_1d(x, k, stride):
    """The 'valid' transposed convolution by its definition: each input step adds
    ``x[t] * kernel`` at ``t * stride`` (x (steps, in), k (width, out, in))."""
    steps, width = x.shape[0], k.shape[0]
    out = np.zeros(((steps - 1) * stride + max(width, stride), k.shape[1]))
    for t in range(steps):
        out[t * stride:t * stride + width] += np.einsum("koi,i->ko", k, x[t])
    return out


def test_conv1d_transpose_valid_matches_its_definition():
    layer = L.Conv1DTranspose(3, 2, strides=3, use_bias=False)
    x = _x((1, 4, 2))
    y = layer(x).numpy()
    assert y.shape == (1, 12, 3)       # (4 - 1) * 3 + max(2, 3): the stride wins over the kernel
    want = _dense_conv_transpose_1d(x[0], layer.kernel.numpy(), 3)
    np.testing.assert_allclose(y[0], want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("layer,shape", [
    (lambda: L.Conv2DTranspose(2, 3, strides=2, padding="same", output_padding=1), (1, 3, 4, 2)),
    (lambda: L.Conv2DTranspose(2, (2, 3), strides=(3, 2)), (2, 2, 3, 1)),
    (lambda: L.Conv1DTranspose(2, 4, strides=2, output_padding=1), (1, 3, 3)),
    (lambda: L.Conv3DTranspose(2, 3, strides=2, padding="same"), (1, 2, 3, 2, 2)),
    (lambda: L.Conv3D(3, (3, 2, 3), strides=(2, 1, 2), padding="same"), (1, 4, 3, 5, 2)),
    (lambda: L.Conv3D(2, 2, dilation_rate=2), (1, 5, 4, 5, 1)),
    (lambda: L.Conv3D(2, 2, data_format="channels_first"), (1, 3, 3, 2, 4)),
    (lambda: L.DepthwiseConv2D(3, strides=2, padding="same", depth_multiplier=2), (2, 5, 4, 3)),
    (lambda: L.DepthwiseConv2D(2, data_format="channels_first"), (1, 2, 4, 3)),
    (lambda: L.DepthwiseConv1D(3, dilation_rate=2, depth_multiplier=3), (1, 9, 2)),
    (lambda: L.SeparableConv2D(4, 3, strides=2, depth_multiplier=2), (1, 7, 6, 2)),
    (lambda: L.SeparableConv1D(3, 3, padding="same"), (2, 5, 2)),
    (lambda: L.MaxPooling3D((2, 3, 2), strides=(1, 2, 2), padding="same"), (1, 3, 5, 4, 2)),
    (lambda: L.AveragePooling3D(2, data_format="channels_first"), (1, 2, 4, 4, 5)),
    (lambda: L.GlobalMaxPooling3D(keepdims=True), (2, 3, 2, 4, 3)),
    (lambda: L.GlobalAveragePooling3D(data_format="channels_first"), (2, 3, 2, 4, 3)),
    (lambda: L.UpSampling3D((1, 2, 3)), (1, 2, 2, 2, 2)),
    (lambda: L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), (1, 2, 2, 2, 1)),
    (lambda: L.Cropping3D(1, data_format="channels_first"), (1, 2, 3, 4, 3)),
])
def test_compute_output_shape_matches_the_call(layer, shape):
    layer = layer()
    y = layer(_x(shape))
    got = layer.compute_output_shape((None,) + shape[1:])
    assert tuple(got[1:]) == tuple(y.shape[1:])
    assert got[0] is None


def test_weight_names_shapes_and_order():
    sep = L.SeparableConv2D(4, 2, depth_multiplier=2)
    sep(_x((1, 3, 3, 2)))
    assert [(w.name.split("/")[-1].split(":")[0], tuple(w.shape)) for w in sep.weights] == [
        ("depthwise_kernel", (2, 2, 2, 2)), ("pointwise_kernel", (1, 1, 4, 4)), ("bias", (4,))]
    dw = L.DepthwiseConv1D(3, depth_multiplier=2)
    dw(_x((1, 5, 3)))
    assert [tuple(w.shape) for w in dw.weights] == [(3, 3, 2), (6,)]
    ct = L.Conv3DTranspose(5, (1, 2, 3), use_bias=False)
    ct(_x((1, 2, 2, 2, 4)))
    assert [tuple(w.shape) for w in ct.weights] == [(1, 2, 3, 5, 4)]


def test_depthwise_output_channel_order_is_channel_major():
    # output channel c * M + m is filter m of input channel c
    layer = L.DepthwiseConv2D(1, depth_multiplier=2, use_bias=False)
    layer(np.ones((1, 1, 1, 2), np.float32))
    layer.set_weights([np.array([[[[1.0, 2.0], [3.0, 4.0]]]], np.float32)])
    y = layer(np.array([[[[10.0, 100.0]]]], np.float32))
    assert y.numpy().ravel().tolist() == [10.0, 20.0, 300.0, 400.0]


@pytest.mark.parametrize("make,shape", [
    (lambda: L.Conv2DTranspose(2, 3, strides=2, padding="same", dtype="float64"), (1, 2, 3, 2)),
    (lambda: L.Conv3D(2, 2, strides=(1, 2, 1), dtype="float64"), (1, 3, 4, 2, 1)),
    (lambda: L.DepthwiseConv1D(2, dilation_rate=2, depth_multiplier=2, dtype="float64"),
     (1, 5, 2)),
    (lambda: L.SeparableConv2D(2, 2, dtype="float64"), (1, 3, 3, 2)),
    (lambda: L.Conv3DTranspose(1, (2, 1, 2), strides=(2, 1, 1), padding="same",
                               dtype="float64"), (1, 2, 2, 3, 2)),
    (lambda: L.UpSampling3D((1, 2, 2), dtype="float64"), (1, 2, 2, 1, 2)),
])
def test_input_gradients_match_finite_differences(make, shape):
    layer = make()
    layer(np.zeros(shape))
    check_gradients(lambda x: layer(x), [_x(shape, np.float64, seed=3)], order=1,
                    modes=("rev",))


def test_get_config_round_trip():
    for layer in [L.Conv2DTranspose(3, 3, strides=2, padding="same", output_padding=1),
                  L.Conv3D(2, (1, 2, 3), dilation_rate=2, activation="relu"),
                  L.DepthwiseConv2D(3, depth_multiplier=2, data_format="channels_first"),
                  L.SeparableConv1D(2, 5), L.AveragePooling3D(3, strides=1),
                  L.GlobalMaxPooling3D(keepdims=True), L.Cropping3D(((1, 2), (0, 1), (3, 0)))]:
        cfg = layer.get_config()
        clone = type(layer).from_config(cfg)
        cfg2 = clone.get_config()
        cfg.pop("name"), cfg2.pop("name")
        assert cfg == cfg2


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="output_padding"):
        L.Conv2DTranspose(1, 3, strides=2, output_padding=2)
    with pytest.raises(ValueError, match="kernel_size"):
        L.Conv3D(1, (2, 2))
    with pytest.raises(ValueError, match="padding"):
        L.DepthwiseConv2D(2, padding="full")
    with pytest.raises(ValueError, match="data_format"):
        L.MaxPooling3D(data_format="NDHWC")
    with pytest.raises(ValueError, match="filters"):
        L.Conv3DTranspose(0, 2)
    with pytest.raises(ValueError, match="expected min_ndim=5, found ndim=4"):
        L.Conv3D(1, 2)(np.zeros((1, 4, 4, 1), np.float32))
    with pytest.raises(UnimplementedError, match="kernel_constraint"):
        L.Conv3D(1, 2, kernel_constraint=lambda w: w)
    with pytest.raises(UnimplementedError, match="groups"):
        L.Conv3D(2, 2, groups=2)
    with pytest.raises(InvalidArgumentError, match="dilation"):
        L.Conv1DTranspose(1, 2, dilation_rate=2)(np.zeros((1, 4, 1), np.float32))
    with pytest.raises(ValueError, match="Cropping3D"):
        L.Cropping3D(2)(np.zeros((1, 4, 5, 5, 1), np.float32))


def test_sequential_fit_reduces_the_loss():
    model = tf.keras.Sequential([
        tf.keras.Input((4, 4, 4, 1)),
        L.Conv3D(2, 3, padding="same", activation="relu"),
        L.MaxPooling3D(), L.UpSampling3D(), L.ZeroPadding3D(1), L.Cropping3D(1),
        L.Conv3DTranspose(1, 2, strides=1, padding="same"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    x = _x((8, 4, 4, 4, 1), seed=1)
    hist = model.fit(x, x * 0.5, epochs=6, batch_size=4, verbose=0)
    loss = hist.history["loss"]
    assert len(loss) == 6 and loss[-1] < loss[0]
    assert model.predict(x, verbose=0).shape == (8, 4, 4, 4, 1)


# -- thin layers (normalization_more.py, passthrough.py) ------------------------------------------
def test_group_normalization_normalizes_each_group():
    x = _x((2, 3, 6), np.float64, seed=4)
    y = L.GroupNormalization(groups=3, epsilon=0.0, dtype="float64")(x).numpy()
    groups = y.reshape(2, 3, 3, 2)            # (batch, steps, group, channels per group)
    np.testing.assert_allclose(groups.mean(axis=(1, 3)), 0.0, atol=1e-12)
    np.testing.assert_allclose(groups.var(axis=(1, 3)), 1.0, rtol=1e-9)
    with pytest.raises(ValueError, match="multiple"):
        L.GroupNormalization(groups=4)(np.zeros((1, 6), np.float32))
    with pytest.raises(UnimplementedError, match="axis"):
        L.GroupNormalization(groups=2, axis=1)(np.zeros((1, 4, 2), np.float32))


def test_group_and_unit_normalization_gradients():
    gn = L.GroupNormalization(groups=2, dtype="float64")
    gn(np.zeros((1, 2, 4)))
    check_gradients(lambda x: gn(x), [_x((1, 2, 4), np.float64, seed=5)], order=1,
                    modes=("rev",))
    un = L.UnitNormalization(axis=(1, 2), dtype="float64")
    check_gradients(lambda x: un(x), [_x((2, 2, 3), np.float64, seed=6)], order=1,
                    modes=("rev",))


def test_unit_normalization_keeps_zero_rows_and_tiny_rows():
    y = L.UnitNormalization()(np.array([[0.0, 0.0], [1e-7, 0.0], [3.0, 4.0]], np.float32))
    np.testing.assert_allclose(y.numpy(), [[0, 0], [1, 0], [0.6, 0.8]], rtol=1e-6)


def test_identity_and_activity_regularization():
    x = np.array([[1.0, -2.0], [3.0, 0.5]], np.float32)
    assert L.Identity()(x) is x
    layer = L.ActivityRegularization(l1=0.1, l2=0.01)
    np.testing.assert_array_equal(layer(x).numpy(), x)
    want = (0.1 * np.abs(x).sum() + 0.01 * (x ** 2).sum()) / 2     # over the batch size
    assert layer.losses and abs(float(layer.losses[0]) - want) < 1e-6
    clone = L.ActivityRegularization.from_config(layer.get_config())
    assert (clone.l1, clone.l2) == (0.1, 0.01)
    assert L.Convolution2D is L.Conv2D and L.Convolution1D is L.Conv1D


def test_rms_normalization_and_thresholded_relu():
    x = _x((2, 3, 4), np.float64, seed=7)
    rms = L.RMSNormalization(epsilon=0.0, dtype="float64")
    y = rms(x).numpy()
    np.testing.assert_allclose(np.sqrt((y ** 2).mean(axis=-1)), 1.0, rtol=1e-9)
    assert [tuple(w.shape) for w in rms.weights] == [(4,)]
    check_gradients(lambda t: rms(t), [x], order=1, modes=("rev",))
    with pytest.raises(InvalidArgumentError):       # Keras does not broadcast the scale
        L.RMSNormalization(axis=1)(np.ones((2, 3, 4), np.float32))
    t = tf.constant([-1.0, 1.0, 1.5, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(t)
        out = L.ThresholdedReLU(1.0)(t)
    assert out.numpy().tolist() == [0.0, 0.0, 1.5, 3.0]
    assert tape.gradient(out, t).numpy().tolist() == [0.0, 0.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="theta"):
        L.ThresholdedReLU(-0.5)


def test_alpha_dropout_training_values_and_moments():
    rate = 0.2
    layer = L.AlphaDropout(rate, seed=3)
    x = _x((400, 50), seed=8)
    np.testing.assert_array_equal(layer(x).numpy(), x)              # not training: unchanged
    y = layer(x, training=True).numpy()
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * rate
    kept = np.isclose(y, a * x + b, atol=1e-5)
    dropped = np.isclose(y, a * alpha_p + b, atol=1e-5)
    assert np.all(kept | dropped)
    assert abs(dropped.mean() - rate) < 0.02
    assert abs(y.mean()) < 0.05 and abs(y.std() - 1.0) < 0.05      # standardized in and out
    with pytest.raises(ValueError, match="rate"):
        L.AlphaDropout(1.5)


@pytest.mark.parametrize("module", ["convolutional.conv", "convolutional.conv_transpose",
                                    "convolutional.depthwise_conv",
                                    "convolutional.separable_conv", "pooling.pooling",
                                    "pooling.global_pooling", "reshaping.reshaping_3d",
                                    "normalization.group_rms_unit", "core.identity",
                                    "core.thresholded_relu", "regularization.alpha_dropout"])
def test_docstring_examples(module):
    import doctest
    import importlib
    mod = importlib.import_module("tapegrad.keras.layers." + module)
    result = doctest.testmod(mod, verbose=False)
    assert result.attempted > 0 and result.failed == 0
