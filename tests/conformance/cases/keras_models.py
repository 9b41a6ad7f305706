"""Keras models: subclassed, functional and Sequential; weights and their order, training flag,
add_loss, get/set_weights, summary() as Keras 3 prints it (written from the Keras guides "The
Sequential model", "The Functional API" and "Making new layers and models via subclassing").

Weights are set to fixed values with set_weights so both libraries compute the same numbers.
Variable names differ on purpose (tapegrad keeps the tutorials' 'dense/kernel:0'), so cases
compare shapes, layer names and values, not variable names.
"""
import numpy as np


def _fixed(model):
    """Every weight set to a fixed pattern (so TensorFlow and tapegrad agree)."""
    values = []
    for i, w in enumerate(model.weights):
        shape = tuple(w.shape)
        n = int(np.prod(shape)) if shape else 1
        values.append((np.sin(np.arange(n, dtype=np.float32) * 0.7 + i) * 0.5)
                      .astype(np.float32).reshape(shape))
    model.set_weights(values)


def _x(n=4, d=3):
    return (np.cos(np.arange(n * d, dtype=np.float32) * 0.3)).reshape(n, d).astype(np.float32)


def _mlp(tf):
    class MLP(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(4, activation="relu")
            self.dropout = tf.keras.layers.Dropout(0.5)
            self.head = tf.keras.layers.Dense(2)

        def call(self, x, training=False):
            return self.head(self.dropout(self.hidden(x), training=training))
    return MLP()


def case_subclass_weights_in_order(tf):
    model = _mlp(tf)
    model(_x())
    return [model.name, [l.name for l in model.layers], [tuple(w.shape) for w in model.weights],
            len(model.trainable_weights), len(model.non_trainable_weights)]


def case_subclass_outputs_with_fixed_weights(tf):
    model = _mlp(tf)
    model(_x())
    _fixed(model)
    return [model(_x()), model(_x(), training=False), model.predict(_x(), verbose=0)]


def case_subclass_unbuilt_has_no_weights(tf):
    model = _mlp(tf)
    return [len(model.weights), model.built, [l.built for l in model.layers]]


def case_nested_models_tracked(tf):
    class Block(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.a = tf.keras.layers.Dense(3)
            self.b = tf.keras.layers.Dense(3)

        def call(self, x):
            return self.b(self.a(x))

    class Outer(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.out = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.out(self.block(x))
    model = Outer()
    model(_x())
    _fixed(model)
    return [[l.name for l in model.layers], [tuple(w.shape) for w in model.weights],
            model(_x()), model.count_params()]


def case_frozen_layer_weights(tf):
    model = _mlp(tf)
    model(_x())
    model.hidden.trainable = False
    return [len(model.trainable_weights), len(model.non_trainable_weights),
            [tuple(w.shape) for w in model.trainable_weights],
            [tuple(w.shape) for w in model.non_trainable_weights]]


def case_training_flag_reaches_nested_layers(tf):
    class Probe(tf.keras.layers.Layer):
        def call(self, x, training=None):
            return x * (2.0 if training else 1.0)

    class Wrap(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.probe = Probe()

        def call(self, x):
            return self.probe(x)
    model = Wrap()
    x = tf.constant([[1.0, 2.0]])
    return [model(x, training=True), model(x, training=False), model(x)]


def case_add_loss_collected(tf):
    class ActivityPenalty(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x * x) * 0.5)
            return x

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.pen = ActivityPenalty()
            self.dense = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.dense(self.pen(x))
    model = Net()
    model(_x())
    first = list(model.losses)
    model(_x(2, 3))
    return [first, list(model.losses)]


def case_custom_layer_add_weight(tf):
    class Linear(tf.keras.layers.Layer):
        def __init__(self, units=2):
            super().__init__()
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                     initializer="ones", trainable=True)
            self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)
            self.steps = self.add_weight(shape=(), initializer="zeros", trainable=False)

        def call(self, x):
            return tf.matmul(x, self.w) + self.b
    layer = Linear()
    y = layer(tf.ones((2, 3)))
    return [y, [tuple(w.shape) for w in layer.weights], len(layer.trainable_weights),
            len(layer.non_trainable_weights)]


def case_add_weight_with_a_tf_function_as_initializer(tf):
    """An initializer may be any callable taking the shape and ``dtype=`` (tf.random.normal,
    tf.ones): Keras passes the dtype by keyword."""
    class Scale(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer=tf.ones)
            self.noise = self.add_weight(shape=(2, 2), initializer=tf.random.normal, trainable=False)

        def call(self, x):
            return x * self.w
    layer = Scale()
    y = layer(tf.constant([[1.0, 2.0, 3.0]]))
    return [y, layer.noise.shape, tf.as_dtype(layer.noise.dtype).name, len(layer.trainable_weights)]


def case_get_set_weights(tf):
    layer = tf.keras.layers.Dense(2)
    layer(tf.ones((1, 3)))
    layer.set_weights([np.full((3, 2), 0.5, np.float32), np.array([1.0, -1.0], np.float32)])
    return [layer.get_weights(), layer(tf.ones((1, 3)))]


def case_set_weights_wrong_count(tf):
    layer = tf.keras.layers.Dense(2)
    layer(tf.ones((1, 3)))
    layer.set_weights([np.ones((3, 2), np.float32)])


def case_set_weights_wrong_shape(tf):
    layer = tf.keras.layers.Dense(2)
    layer(tf.ones((1, 3)))
    layer.set_weights([np.ones((2, 2), np.float32), np.ones((2,), np.float32)])


def case_input_symbolic(tf):
    x = tf.keras.Input(shape=(4,))
    y = tf.keras.Input(shape=(2, 3), batch_size=8, dtype="int32")
    return [x.shape, str(x.dtype), y.shape, str(y.dtype), repr(x)]


def case_functional_model(tf):
    inputs = tf.keras.Input(shape=(3,))
    h = tf.keras.layers.Dense(4, activation="tanh", name="hidden")(inputs)
    outputs = tf.keras.layers.Dense(2, name="out")(h)
    model = tf.keras.Model(inputs, outputs)
    _fixed(model)
    return [type(model).__name__, model.name, [l.name for l in model.layers],
            h.shape, outputs.shape, model(_x()), model.predict(_x(), verbose=0)]


def case_functional_multiple_inputs_outputs(tf):
    a = tf.keras.Input(shape=(3,), name="a")
    b = tf.keras.Input(shape=(2,), name="b")
    ha = tf.keras.layers.Dense(4, name="da")(a)
    hb = tf.keras.layers.Dense(4, name="db")(b)
    out1 = tf.keras.layers.Dense(1, name="o1")(ha)
    out2 = tf.keras.layers.Dense(2, name="o2")(hb)
    model = tf.keras.Model(inputs=[a, b], outputs=[out1, out2])
    _fixed(model)
    xa, xb = _x(4, 3), _x(4, 2)
    y1, y2 = model([xa, xb])
    return [[l.name for l in model.layers], y1, y2,
            [o.shape for o in model.outputs], [i.shape for i in model.inputs]]


def case_functional_shared_layer(tf):
    shared = tf.keras.layers.Dense(3, name="shared")
    a = tf.keras.Input(shape=(3,))
    b = tf.keras.Input(shape=(3,))
    out = tf.keras.layers.Dense(1, name="head")(shared(b))
    model = tf.keras.Model([a, b], [shared(a), out])
    _fixed(model)
    ya, yo = model([_x(), _x() * 2.0])
    return [len(model.weights), [l.name for l in model.layers], ya, yo]


def case_functional_gradient(tf):
    inputs = tf.keras.Input(shape=(3,))
    outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(4, activation="relu")(inputs))
    model = tf.keras.Model(inputs, outputs)
    _fixed(model)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(_x()) ** 2)
    return [loss, tape.gradient(loss, model.trainable_variables)]


def case_sequential_add_pop(tf):
    model = tf.keras.Sequential()
    model.add(tf.keras.Input(shape=(3,)))
    model.add(tf.keras.layers.Dense(4, name="one"))
    model.add(tf.keras.layers.Dense(2, name="two"))
    names = [l.name for l in model.layers]
    popped = model.pop()
    return [names, popped.name, [l.name for l in model.layers], len(model.weights)]


def case_sequential_outputs(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model(_x())
    _fixed(model)
    return [model(_x()), [tuple(w.shape) for w in model.weights], model.count_params()]


def case_sequential_add_non_layer(tf):
    tf.keras.Sequential().add(3)


def case_summary_sequential_unbuilt_and_built(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.summary()
    model(_x(2, 4))
    model.summary()


def case_summary_sequential_with_input(tf):
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(16),
                                 tf.keras.layers.Dropout(0.2), tf.keras.layers.Dense(1)],
                                name="regressor")
    model.summary()


def case_summary_functional(tf):
    inputs = tf.keras.Input(shape=(4,))
    h = tf.keras.layers.Dense(3, name="hidden")(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(h))
    model.summary()


def case_summary_multi_input_connected_to(tf):
    a = tf.keras.Input(shape=(3,), name="left")
    b = tf.keras.Input(shape=(3,), name="right")
    shared = tf.keras.layers.Dense(2, name="shared_dense")
    model = tf.keras.Model([a, b], [shared(a), shared(b)], name="two_towers")
    model.summary()


def case_summary_subclassed(tf):
    model = _mlp(tf)
    model.summary()
    model(_x())
    model.summary()


def case_summary_long_names_wrap(tf):
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(2,)),
        tf.keras.layers.Dense(1234, name="a_rather_long_layer_name_that_wraps_around"),
        tf.keras.layers.Dense(1, name="out")])
    model.summary()


def case_count_params_unbuilt_raises(tf):
    tf.keras.layers.Dense(2).count_params()


def case_get_layer(tf):
    inputs = tf.keras.Input(shape=(3,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="d")(inputs))
    return [model.get_layer("d").name, model.get_layer(index=1).name]


def case_save_and_load_weights(tf):
    import os
    import tempfile
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
    _fixed(model)
    path = os.path.join(tempfile.mkdtemp(), "m.weights.h5")
    model.save_weights(path)
    other = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
    other.load_weights(path)
    return [other.get_weights(), other(_x())]


def case_functional_arithmetic_on_symbolic_tensors(tf):
    inputs = tf.keras.Input(shape=(3,))
    h = tf.keras.layers.Dense(3, name="h")(inputs)
    outputs = (h * 2.0 + inputs) - 1.0
    first = outputs[:, :2]
    model = tf.keras.Model(inputs, [outputs, first, -h])
    _fixed(model)
    return [[l.name for l in model.layers], outputs.shape, first.shape, model(_x()),
            len(model.weights)]


def case_summary_subclassed_after_build(tf):
    import warnings
    model = _mlp(tf)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.build((None, 3))
    model.summary()
    return [tuple(w.shape) for w in model.weights]


def case_variable_paths(tf):
    """Keras 3's variable paths: the layers and models a variable was made in (a functional
    model's layers are built before the model, and tf.name_scope is not part of a path)."""
    seq = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="d1")], name="seq")
    lazy = tf.keras.Sequential([tf.keras.layers.Dense(2, name="d2")], name="lazy")
    lazy(tf.ones((1, 3)))
    inputs = tf.keras.Input((3,))
    func = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="d3")(inputs), name="func")

    class Block(tf.keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.inner = tf.keras.layers.Dense(2, name="inner")

        def call(self, x):
            return self.inner(x)

    nested = tf.keras.Sequential([tf.keras.Input((2,)), Block(name="block")], name="outer_seq")
    with tf.name_scope("scope"):
        alone = tf.keras.layers.Dense(1, name="d4")
        alone(tf.ones((1, 2)))
    own = tf.keras.layers.Layer(name="plain").add_weight(shape=(1,), name="w")
    return [[v.path for v in m.weights] for m in (seq, lazy, func, nested, alone)] + [own.path]
