"""Keras 3's serialization registry: ``serialize`` / ``deserialize`` / ``get`` of every kind
(losses, metrics, initializers, regularizers, constraints, activations, optimizers, learning-rate
schedules), ``register_keras_serializable`` and the ``*_keras_object`` functions (under
``tf.keras.utils`` in TensorFlow 2.21), round trips, and the errors for unknown names.

Written from the Keras 3 API pages (keras.io/api/models/model_saving_apis/serialization_utils
and each kind's page); recorded under TensorFlow 2.21."""

NOTES = {
    'tf.keras.utils.deserialize_keras_object':
        'Classes of user modules are found through the registry or custom_objects (or a module '
        'already imported); no module is imported to find one.',
}


def _described(tf, objects):
    return [tf.keras.utils.serialize_keras_object(obj) for obj in objects]


def case_losses_serialize(tf):
    L = tf.keras.losses
    return [L.serialize(L.Huber(delta=0.5)), L.serialize(L.BinaryCrossentropy(from_logits=True)),
            L.serialize(L.mse), L.serialize(L.categorical_crossentropy)]


def case_losses_round_trip(tf):
    L = tf.keras.losses
    back = L.deserialize(L.serialize(L.CategoricalCrossentropy(label_smoothing=0.1)))
    fn = L.deserialize(L.serialize(L.mae))
    return [type(back).__name__, back.get_config(), fn.__name__,
            L.deserialize("Huber").get_config(), L.get("mae").__name__]


def case_metrics_serialize_and_round_trip(tf):
    M = tf.keras.metrics
    d = M.serialize(M.Mean(name="avg"))
    back = M.deserialize(M.serialize(M.AUC(name="auc50")))
    return [d, M.serialize(M.BinaryAccuracy(threshold=0.3)), type(back).__name__, back.name,
            type(M.deserialize(d)).__name__, type(M.get("Precision")).__name__,
            M.serialize(M.mean_squared_error)]


# TensorFlow names its private module ('keras._tf_keras.keras.metrics'); tapegrad names the public one.
case_metrics_serialize_and_round_trip.message_differs = (
    "TensorFlow's message names Keras's private module path", ("has no attribute 'mean_squared_error'",))


def case_initializers(tf):
    I = tf.keras.initializers
    d = I.serialize(I.RandomNormal(mean=1.0, stddev=0.5, seed=3))
    return [d, I.serialize(I.Zeros()), I.serialize(I.Constant(2.0)),
            type(I.deserialize(d)).__name__, I.deserialize(d).get_config(),
            type(I.get("glorot_uniform")).__name__, type(I.get("Orthogonal")).__name__]


def case_regularizers(tf):
    R = tf.keras.regularizers
    d = R.serialize(R.L1L2(l1=0.01, l2=0.02))
    return [d, R.serialize(R.L2(0.1)), R.serialize(R.L1(0.5)), R.deserialize(d).get_config(),
            type(R.get("l2")).__name__, type(R.get("L1")).__name__]


def case_constraints(tf):
    C = tf.keras.constraints
    d = C.serialize(C.MinMaxNorm(0.5, 2.0, rate=0.5, axis=1))
    return [d, C.serialize(C.NonNeg()), C.serialize(C.UnitNorm()), C.serialize(C.MaxNorm(3.0)),
            C.deserialize(d).get_config(), type(C.get("non_neg")).__name__,
            type(C.get("max_norm")).__name__]


def case_constraint_values(tf):
    C = tf.keras.constraints
    w = tf.constant([[3.0, -1.0], [4.0, 0.5]])
    return [C.MaxNorm(2.0)(w), C.UnitNorm(axis=1)(w), C.MinMaxNorm(1.0, 2.0, 0.5)(w),
            tf.abs(C.NonNeg()(w))]


def case_activations(tf):
    A = tf.keras.activations
    return [A.serialize(A.relu), A.serialize(A.softmax), A.get("tanh").__name__,
            A.deserialize("sigmoid").__name__, A.get(None).__name__,
            tf.keras.utils.serialize_keras_object(A.relu)]


def case_optimizers(tf):
    O = tf.keras.optimizers
    d = O.serialize(O.SGD(learning_rate=0.5, momentum=0.9))
    back = O.deserialize(d)
    return [d["module"], d["class_name"], d["registered_name"], d["config"]["momentum"],
            type(back).__name__, back.get_config()["nesterov"], type(O.get("adam")).__name__,
            type(O.get("RMSprop")).__name__]


def case_schedules_and_an_optimizer_with_one(tf):
    S = tf.keras.optimizers.schedules
    d = S.serialize(S.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.9))
    back = S.deserialize(d)
    opt = tf.keras.optimizers.Adam(learning_rate=S.CosineDecay(0.01, 100))
    lr = tf.keras.optimizers.serialize(opt)["config"]["learning_rate"]
    again = tf.keras.optimizers.deserialize(tf.keras.optimizers.serialize(opt))
    return [d, back.get_config(), lr, type(again.learning_rate).__name__
            if hasattr(again.learning_rate, "get_config") else "value",
            S.serialize(S.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1]))]


def case_plain_values_and_containers(tf):
    U = tf.keras.utils
    return [U.serialize_keras_object(None), U.serialize_keras_object(3),
            U.serialize_keras_object("text"), U.serialize_keras_object([1, "a", None]),
            U.serialize_keras_object((1, 2)), U.serialize_keras_object({"a": 1.5, "b": [True]}),
            U.deserialize_keras_object({"a": [1, 2]}), U.deserialize_keras_object([1, "b"])]


def case_generic_deserialize_by_module(tf):
    U = tf.keras.utils
    objs = [U.deserialize_keras_object(
        {"module": "keras.losses", "class_name": "Huber",
         "config": {"name": "h", "reduction": "sum", "delta": 2.0}, "registered_name": None}),
        U.deserialize_keras_object(
            {"module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.3},
             "registered_name": None}),
        U.deserialize_keras_object(
            {"module": "builtins", "class_name": "function", "config": "relu",
             "registered_name": "function"})]
    return [type(objs[0]).__name__, objs[0].name, objs[1].get_config(), objs[2].__name__]


def case_registered_custom_class_and_function(tf):
    U = tf.keras.utils

    @U.register_keras_serializable(package="Conf")
    class Scaled(tf.keras.regularizers.Regularizer):
        def __init__(self, factor=1.0):
            self.factor = factor

        def __call__(self, x):
            return self.factor * tf.reduce_sum(x)

        def get_config(self):
            return {"factor": self.factor}

    @U.register_keras_serializable(package="Conf", name="halve")
    def half(x):
        return x / 2

    d = U.serialize_keras_object(Scaled(2.5))
    back = U.deserialize_keras_object(d)
    fd = U.serialize_keras_object(half)
    return [d["class_name"], d["config"], d["registered_name"], U.get_registered_name(Scaled),
            U.get_registered_object("Conf>Scaled") is Scaled, type(back).__name__, back.factor,
            fd, U.deserialize_keras_object(fd) is half, U.get_registered_name(half),
            U.get_registered_name(tf.keras.losses.Huber),
            U.get_registered_object("Conf>nothing"),
            tf.keras.regularizers.get(d).factor]


def case_custom_objects_argument(tf):
    U = tf.keras.utils

    class Unregistered(tf.keras.regularizers.Regularizer):
        def __init__(self, k=1.0):
            self.k = k

        def get_config(self):
            return {"k": self.k}

    d = {"module": None, "class_name": "Unregistered", "config": {"k": 4.0},
         "registered_name": "Unregistered"}
    back = U.deserialize_keras_object(d, custom_objects={"Unregistered": Unregistered})
    with U.custom_object_scope({"Unregistered": Unregistered}):
        scoped = U.deserialize_keras_object(d)
    return [back.k, scoped.k, tf.keras.regularizers.deserialize(
        d, custom_objects={"Unregistered": Unregistered}).k]


def case_register_a_class_without_get_config(tf):
    class NoConfig:
        pass
    tf.keras.utils.register_keras_serializable(package="Conf")(NoConfig)


def case_unknown_names_come_back_from_deserialize(tf):
    return [tf.keras.losses.deserialize("nope"), tf.keras.metrics.deserialize("nope"),
            tf.keras.initializers.deserialize("nope"),
            tf.keras.regularizers.deserialize({"class_name": "Nope", "config": {}}),
            tf.keras.constraints.deserialize("nope"),
            tf.keras.optimizers.schedules.deserialize({"class_name": "Nope", "config": {}})]


def case_unknown_loss(tf):
    tf.keras.losses.get("nope")


def case_unknown_metric(tf):
    tf.keras.metrics.get("nope")


def case_unknown_initializer(tf):
    tf.keras.initializers.get("nope")


def case_unknown_activation(tf):
    tf.keras.activations.get("nope")


def case_unknown_optimizer(tf):
    tf.keras.optimizers.get("nope")


def case_unknown_regularizer(tf):
    tf.keras.regularizers.get("nope")


def case_unknown_constraint(tf):
    tf.keras.constraints.get("nope")


def case_unknown_class_in_generic_deserialize(tf):
    tf.keras.utils.deserialize_keras_object(
        {"module": "keras.layers", "class_name": "Nope", "config": {}, "registered_name": None})


def case_unregistered_custom_class_in_a_kind(tf):
    tf.keras.regularizers.deserialize({"module": None, "class_name": "Mine", "config": {},
                                       "registered_name": "Mine"})


def case_a_dict_without_class_name(tf):
    tf.keras.losses.deserialize({"config": {}})


def case_layer_configs(tf):
    L = tf.keras.layers
    layers = [L.Dense(3, activation="relu", name="d"), L.Conv2D(2, 3, strides=2, name="c"),
              L.Conv1D(4, 2, padding="causal", name="c1"), L.Dropout(0.5, seed=1, name="dr"),
              L.MaxPooling2D(name="p"), L.GlobalAveragePooling1D(keepdims=True, name="g"),
              L.SeparableConv2D(4, 3, name="s"), L.Embedding(5, 2, name="e")]
    return [L.serialize(layer) for layer in layers]


def case_layer_round_trips(tf):
    L = tf.keras.layers
    out = []
    for layer in [L.Dense(2, kernel_initializer="ones", name="d2"),
                  L.DepthwiseConv2D(3, depth_multiplier=2, name="dw"),
                  L.AveragePooling1D(3, strides=1, padding="same", name="ap")]:
        back = L.deserialize(L.serialize(layer))
        out.append((type(back).__name__, back.get_config()))
    return out
