"""Every public layer class round-trips through ``keras.layers.serialize`` / ``deserialize``
(Keras 3's JSON form): the rebuilt layer is of the same class with the same config."""
import json

import pytest

import tapegrad as tf

L = tf.keras.layers

# The arguments a class needs (the others build with none).
MINIMAL = {
    "Dense": (3,), "Embedding": (5, 2), "Activation": ("relu",), "Lambda": (lambda x: x,),
    "InputLayer": ((3,),), "Conv1D": (2, 3), "Conv2D": (2, 3), "Conv3D": (2, 3),
    "Conv1DTranspose": (2, 3), "Conv2DTranspose": (2, 3), "Conv3DTranspose": (2, 3),
    "DepthwiseConv1D": (3,), "DepthwiseConv2D": (3,), "SeparableConv1D": (2, 3),
    "SeparableConv2D": (2, 3), "AveragePooling3D": (2,), "Reshape": ((2, 3),),
    "Permute": ((2, 1),), "RepeatVector": (2,), "Dot": (1,), "Dropout": (0.5,), "AlphaDropout": (0.2,),
    "GaussianDropout": (0.2,), "GaussianNoise": (0.2,), "SpatialDropout1D": (0.2,),
    "SpatialDropout2D": (0.2,), "SpatialDropout3D": (0.2,), "SimpleRNN": (2,), "LSTM": (2,),
    "GRU": (2,), "SimpleRNNCell": (2,), "LSTMCell": (2,), "GRUCell": (2,),
    "MultiHeadAttention": (2, 4), "CategoryEncoding": (4,), "Rescaling": (0.5,),
    "Hashing": (4,), "HashedCrossing": (4,), "Resizing": (4, 4), "CenterCrop": (4, 4),
    "RandomBrightness": (0.2,), "RandomContrast": (0.2,), "Discretization": ([0.0, 1.0],),
}
NESTED = {
    "Bidirectional": lambda: L.Bidirectional(L.LSTM(2)),
    "TimeDistributed": lambda: L.TimeDistributed(L.Dense(2)),
    "RNN": lambda: L.RNN(L.LSTMCell(2)),
    "StackedRNNCells": lambda: L.StackedRNNCells([L.LSTMCell(2), L.GRUCell(3)]),
    "GroupNormalization": lambda: L.GroupNormalization(groups=2),
}
SKIPPED = {"Layer", "Lambda"}  # the base; a Lambda's function is Python code (not saved)


def _public_layer_classes():
    seen = {}
    for name in sorted(dir(L)):
        obj = getattr(L, name)
        if isinstance(obj, type) and issubclass(obj, L.Layer) and obj.__name__ == name:
            seen[name] = obj
    return seen


@pytest.mark.parametrize("name", sorted(set(_public_layer_classes()) - SKIPPED))
def test_every_layer_round_trips_through_its_config(name):
    cls = getattr(L, name)
    layer = NESTED[name]() if name in NESTED else cls(*MINIMAL.get(name, ()))
    description = L.serialize(layer)
    assert description["class_name"] == name and description["module"] == "keras.layers"
    json.dumps(description)  # Keras 3's JSON form
    back = L.deserialize(json.loads(json.dumps(description)))
    assert type(back) is cls
    assert json.loads(json.dumps(L.serialize(back))) == json.loads(json.dumps(description))


def test_dense_config_as_keras():
    config = L.Dense(3, activation="relu", name="d").get_config()
    assert config["units"] == 3 and config["activation"] == "relu"
    assert config["kernel_initializer"]["class_name"] == "GlorotUniform"
    assert config["dtype"]["config"] == {"name": "float32"}
