"""The one serialization registry (tapegrad.keras.serialization): every kind's get / serialize /
deserialize and keras.saving's functions are the registry's, and a registered class is found by
every kind."""
import tapegrad as tf
from tapegrad.keras import serialization


def test_public_functions_are_the_registrys():
    S = tf.keras.saving
    assert S.register_keras_serializable is serialization.register_keras_serializable
    assert tf.keras.utils.serialize_keras_object is serialization.serialize_keras_object
    assert S.deserialize_keras_object is tf.keras.utils.deserialize_keras_object
    for kind in ("losses", "metrics", "initializers", "regularizers", "constraints",
                 "activations", "optimizers"):
        module = getattr(tf.keras, kind)
        assert {"get", "serialize", "deserialize"} <= set(vars(module)), kind


def test_a_registered_custom_loss_round_trips_through_losses_get():
    @tf.keras.saving.register_keras_serializable(package="Tests")
    class Doubled(tf.keras.losses.Loss):
        def call(self, y_true, y_pred):
            return 2.0 * tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)

    d = tf.keras.losses.serialize(Doubled(name="dbl"))
    assert d["registered_name"] == "Tests>Doubled" and d["config"]["name"] == "dbl"
    back = tf.keras.losses.get(d)
    assert type(back) is Doubled and back.name == "dbl"
    assert float(back(tf.constant([[1.0]]), tf.constant([[3.0]]))) == 8.0


def test_every_kind_describes_in_keras_form():
    objects = [tf.keras.losses.Huber(), tf.keras.metrics.Mean(), tf.keras.initializers.Ones(),
               tf.keras.regularizers.L1(0.1), tf.keras.constraints.NonNeg(),
               tf.keras.optimizers.SGD(), tf.keras.optimizers.schedules.CosineDecay(0.1, 5)]
    modules = [tf.keras.utils.serialize_keras_object(o)["module"] for o in objects]
    assert modules == ["keras.losses", "keras.metrics", "keras.initializers",
                       "keras.regularizers", "keras.constraints", "keras.optimizers",
                       "keras.optimizers.schedules"]
    for o in objects:
        back = tf.keras.utils.deserialize_keras_object(tf.keras.utils.serialize_keras_object(o))
        assert type(back) is type(o) and back.get_config() == o.get_config()
