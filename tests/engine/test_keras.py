"""The Keras-style Dense layer and tf.Module's collection of variables."""
import math

import numpy as np
import pytest

import tapegrad as tf

pytestmark = pytest.mark.usefixtures("fresh_layer_names")

X = [[1.0, 2.0, 3.0]]


# -- Dense ------------------------------------------------------------------------------------------

def test_variables_are_created_on_the_first_call_with_their_names():
    layer = tf.keras.layers.Dense(2)
    assert layer.name == "dense" and layer.trainable_variables == []
    y = layer(tf.constant(X))
    assert y.shape == (1, 2) and y.dtype == tf.float32
    assert [v.name for v in layer.trainable_variables] == ["dense/kernel:0", "dense/bias:0"]
    assert [str(v.shape) for v in layer.trainable_variables] == ["(3, 2)", "(2,)"]
    assert layer.kernel is layer.trainable_variables[0] and layer.bias is layer.trainable_variables[1]


def test_second_layer_gets_a_numbered_name():
    first = tf.keras.layers.Dense(2)
    second = tf.keras.layers.Dense(1)
    first(tf.constant(X))
    second(tf.constant(X))
    assert second.name == "dense_1"
    assert [v.name for v in second.trainable_variables] == ["dense_1/kernel:0", "dense_1/bias:0"]
    named = tf.keras.layers.Dense(1, name="head")
    named(tf.constant(X))
    assert [v.name for v in named.trainable_variables] == ["head/kernel:0", "head/bias:0"]


def test_clear_session_restarts_the_names():
    tf.keras.layers.Dense(1)
    tf.keras.backend.clear_session()
    assert tf.keras.layers.Dense(1).name == "dense"


def test_calling_again_reuses_the_weights():
    layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
    a = layer(tf.constant(X))
    b = layer(tf.constant([[1.0, 1.0, 1.0]]))
    assert len(layer.trainable_variables) == 2
    assert a.numpy().tolist() == [[6.0, 6.0]] and b.numpy().tolist() == [[3.0, 3.0]]


def test_output_shape_for_batches_and_higher_rank_inputs():
    layer = tf.keras.layers.Dense(4, kernel_initializer="ones", bias_initializer="ones")
    assert layer(tf.zeros((5, 3))).shape == (5, 4)
    y = layer(tf.ones((2, 6, 3)))
    assert y.shape == (2, 6, 4) and (y.numpy() == 4.0).all()


def test_integer_input_is_cast_to_the_kernel_dtype():
    layer = tf.keras.layers.Dense(1, kernel_initializer="ones")
    y = layer(tf.constant([[1, 2, 3]]))
    assert y.dtype == tf.float32 and y.numpy().tolist() == [[6.0]]


@pytest.mark.parametrize("activation, expected", [
    (None, [2.0, -1.0]),
    ("linear", [2.0, -1.0]),
    ("relu", [2.0, 0.0]),
    ("sigmoid", [1 / (1 + math.exp(-2.0)), 1 / (1 + math.exp(1.0))]),
    ("tanh", [math.tanh(2.0), math.tanh(-1.0)]),
    ("softplus", [math.log1p(math.exp(2.0)), math.log1p(math.exp(-1.0))]),
    (tf.nn.relu, [2.0, 0.0]),
])
def test_activations_by_name_or_function(activation, expected):
    kernel = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, -1.0]], np.float32)   # x -> [x0, -x2] + b
    layer = tf.keras.layers.Dense(2, activation=activation,
                                  kernel_initializer=tf.keras.initializers.Constant(kernel),
                                  bias_initializer=tf.keras.initializers.Constant([1.0, 2.0]))
    y = layer(tf.constant(X))                                              # pre-activation [2, -1]
    np.testing.assert_allclose(y.numpy()[0], expected, rtol=1e-6)


def test_unknown_activation_or_initializer_or_units():
    with pytest.raises(ValueError):
        tf.keras.layers.Dense(2, activation="no-such-thing")
    with pytest.raises(ValueError):
        tf.keras.layers.Dense(2, kernel_initializer="no-such-thing")(tf.constant(X))
    with pytest.raises(ValueError):
        tf.keras.layers.Dense(0)


@pytest.mark.parametrize("init, value", [
    ("zeros", 0.0), ("ones", 1.0), (tf.keras.initializers.Ones, 1.0),
    (tf.keras.initializers.Zeros(), 0.0), (tf.keras.initializers.Constant(0.5), 0.5),
])
def test_initializers_by_string_class_or_instance(init, value):
    layer = tf.keras.layers.Dense(2, kernel_initializer=init, bias_initializer=init)
    layer(tf.constant(X))
    assert (layer.kernel.numpy() == value).all() and (layer.bias.numpy() == value).all()


def test_default_initializers_glorot_uniform_kernel_and_zero_bias():
    tf.random.set_seed(0)
    layer = tf.keras.layers.Dense(40)
    layer(tf.zeros((1, 60)))
    k = layer.kernel.numpy()
    limit = math.sqrt(6.0 / (60 + 40))
    assert np.abs(k).max() <= limit and np.abs(k).max() > 0.9 * limit
    assert abs(float(k.mean())) < 0.02
    assert (layer.bias.numpy() == 0.0).all()


def test_random_initializers_are_repeatable_with_set_seed():
    def kernel():
        layer = tf.keras.layers.Dense(3, kernel_initializer="random_normal")
        layer(tf.zeros((1, 4)))
        return layer.kernel.numpy()
    tf.random.set_seed(5)
    a = kernel()
    tf.random.set_seed(5)
    b = kernel()
    np.testing.assert_array_equal(a, b)
    assert a.std() < 0.2          # RandomNormal's stddev is 0.05


def test_gradient_shapes_and_values():
    # y = relu(x W + b) with W all ones: pre-activation 6 + b = [6, -7] -> [6, 0]
    layer = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones",
                                  bias_initializer=tf.keras.initializers.Constant([0.0, -13.0]))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(tf.constant(X)))
    assert float(loss) == 6.0
    d_kernel, d_bias = tape.gradient(loss, layer.trainable_variables)
    assert d_kernel.shape == (3, 2) and d_bias.shape == (2,)
    assert d_kernel.numpy().tolist() == [[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]
    assert d_bias.numpy().tolist() == [1.0, 0.0]
    assert [v.name for v in tape.watched_variables()] == ["dense/kernel:0", "dense/bias:0"]


def test_without_bias():
    layer = tf.keras.layers.Dense(2, use_bias=False, kernel_initializer="ones")
    layer(tf.constant(X))
    assert [v.name for v in layer.trainable_variables] == ["dense/kernel:0"]


def test_non_trainable_layer():
    layer = tf.keras.layers.Dense(2, trainable=False)
    layer(tf.constant(X))
    assert layer.trainable_variables == []
    assert [v.name for v in layer.non_trainable_variables] == ["dense/kernel:0", "dense/bias:0"]


def test_two_stacked_layers():
    hidden = tf.keras.layers.Dense(2, kernel_initializer="ones")          # h = [6, 6]
    out = tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.Constant(0.5))
    with tf.GradientTape() as tape:
        y = out(hidden(tf.constant(X)))                                    # 0.5 * 12 = 6
    assert float(y[0, 0]) == 6.0
    grads = tape.gradient(y, hidden.trainable_variables + out.trainable_variables)
    names = [v.name for v in hidden.trainable_variables + out.trainable_variables]
    assert names == ["dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0"]
    assert grads[0].numpy().tolist() == [[0.5, 0.5], [1.0, 1.0], [1.5, 1.5]]
    assert grads[1].numpy().tolist() == [0.5, 0.5]
    assert grads[2].numpy().tolist() == [[6.0], [6.0]]
    assert grads[3].numpy().tolist() == [1.0]


# -- tf.Module ---------------------------------------------------------------------------------------

class Affine(tf.Module):
    def __init__(self, n, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones((n, n)), name="w")
            self.b = tf.Variable(tf.zeros(n), name="b")

    def __call__(self, x):
        return x @ self.w + self.b


class Model(tf.Module):
    def __init__(self):
        super().__init__(name="model")
        with self.name_scope:
            self.first = Affine(2, name="first")
            self.scale = tf.Variable(3.0, name="scale")
            self.extras = [tf.Variable(1.0, name="e0"),
                           {"y": tf.Variable(2.0, name="ey"),
                            "x": tf.Variable(5.0, name="ex", trainable=False)}]
            self.steps = tf.Variable(0, name="steps", trainable=False)
            self.second = Affine(2, name="second")


def test_module_name_defaults_to_the_snake_case_class_name():
    assert Affine(1).name == "affine"
    assert Affine(1, name="layer").name == "layer"

    class MyBigBlock(tf.Module):
        pass
    assert MyBigBlock().name == "my_big_block"


def test_name_scope_prefixes_variable_names():
    m = Affine(2, name="aff")
    assert [v.name for v in m.trainable_variables] == ["aff/b:0", "aff/w:0"]   # attribute order
    assert tf.Variable(1.0, name="outside").name == "outside:0"


def test_module_collects_variables_of_attributes_lists_dicts_and_submodules():
    m = Model()
    # TensorFlow's order: this module's attributes by name (lists in order, dicts by key),
    # then each submodule's, recursively
    assert [v.name for v in m.variables] == [
        "model/e0:0", "model/ex:0", "model/ey:0", "model/scale:0", "model/steps:0",
        "model/first/b:0", "model/first/w:0", "model/second/b:0", "model/second/w:0"]
    assert [v.name for v in m.trainable_variables] == [
        "model/e0:0", "model/ey:0", "model/scale:0",
        "model/first/b:0", "model/first/w:0", "model/second/b:0", "model/second/w:0"]
    assert [v.name for v in m.non_trainable_variables] == ["model/ex:0", "model/steps:0"]
    assert m.submodules == (m.first, m.second)
    assert isinstance(m.variables, tuple)


def test_nested_submodules_come_after_the_direct_ones():
    class Outer(tf.Module):
        def __init__(self):
            super().__init__()
            self.a = Model()            # has submodules of its own
            self.z = Affine(1, name="z")
    o = Outer()
    assert o.submodules == (o.a, o.z, o.a.first, o.a.second)


def test_a_variable_shared_by_two_attributes_is_listed_once():
    m = Affine(1, name="shared")
    m.alias = m.w
    m.again = [m.b, m.w]
    assert [v.name for v in m.variables] == ["shared/b:0", "shared/w:0"]


def test_gradient_over_a_modules_trainable_variables():
    m = Model()
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(m.second(m.first(x)) * m.scale)   # first: [3, 3]; second: [6, 6]
    assert float(y) == 36.0
    grads = tape.gradient(y, m.trainable_variables)
    by_name = {v.name: g for v, g in zip(m.trainable_variables, grads)}
    assert by_name["model/e0:0"] is None and by_name["model/ey:0"] is None
    assert float(by_name["model/scale:0"]) == 12.0
    assert by_name["model/second/b:0"].numpy().tolist() == [3.0, 3.0]
    assert by_name["model/second/w:0"].numpy().tolist() == [[9.0, 9.0], [9.0, 9.0]]
    assert by_name["model/first/b:0"].numpy().tolist() == [6.0, 6.0]
    assert by_name["model/first/w:0"].numpy().tolist() == [[6.0, 6.0], [12.0, 12.0]]


def test_with_name_scope_decorator():
    class Lazy(tf.Module):
        @tf.Module.with_name_scope
        def build(self):
            self.v = tf.Variable(1.0, name="v")
            return self.v
    assert Lazy(name="lazy").build().name == "lazy/v:0"


def test_dense_layers_inside_a_module():
    class Net(tf.Module):
        def __init__(self):
            super().__init__(name="net")
            self.layers = [tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)]
    net = Net()
    y = net.layers[1](net.layers[0](tf.constant(X)))
    assert y.shape == (1, 1)
    # a layer lists its weights in creation order (as Keras' weight lists sort first in TF)
    assert [v.name for v in net.trainable_variables] == [
        "dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0"]
