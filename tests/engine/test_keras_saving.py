"""Whole-model saving: ``model.save("m.keras")`` / ``keras.models.load_model`` (Keras 3's zip,
weights as ``model.weights.npz``), configs of Sequential, functional and subclassed models, the
compile state and optimizer variables, ``to_json`` / ``model_from_json``, ``clone_model``, custom
objects, and the errors. What Keras 3.15 does is recorded in tests/conformance/cases/
keras_saving.py; these tests check what the recording cannot (tapegrad's own weights file, the
errors Keras raises only without h5py, every optimizer, more layers)."""
import io
import json
import pathlib
import warnings
import zipfile

import numpy as np
import pytest

import tapegrad as tf

L = tf.keras.layers
X = np.linspace(-2, 2, 24).reshape(8, 3).astype("float32")
Y = np.linspace(0, 1, 8).reshape(8, 1).astype("float32")


def _fill(model):
    model.set_weights([np.linspace(-1, 1, int(np.prod(w.shape))).reshape(w.shape)
                       .astype("float32") for w in model.weights])
    return model


def _sequential():
    return _fill(tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(4, activation="relu"),
                                      L.Dense(1)]))


def _functional():
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    shared = L.Dense(4, name="shared")
    joined = L.Concatenate()([shared(a), b])
    skip = L.Add()([L.Dense(4)(joined), shared(a)])
    return _fill(tf.keras.Model([a, b], [L.Dense(1, name="o1")(skip),
                                         L.Dense(2, name="o2")(joined)]))


@tf.keras.saving.register_keras_serializable(package="SavingTests")
class Blocks(tf.keras.Model):
    """A subclassed model with a config, a list of layers and a layer attribute."""

    def __init__(self, units=3, depth=2, **kwargs):
        super().__init__(**kwargs)
        self.units, self.depth = units, depth
        self.blocks = [L.Dense(units, activation="tanh") for _ in range(depth)]
        self.head = L.Dense(1)

    def call(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x)

    def get_config(self):
        return {**super().get_config(), "units": self.units, "depth": self.depth}


def _subclassed():
    model = Blocks(units=3, depth=2)
    model(X)
    return _fill(model)


def _json_config(model):
    return json.loads(json.dumps(model.get_config()))


def _save_load(model, tmp_path, name="m.keras", **load_kwargs):
    path = tmp_path / name
    model.save(path)
    return tf.keras.models.load_model(path, **load_kwargs)


MAKERS = {"sequential": (_sequential, X, Y),
          "functional": (_functional, [X, X[:, :2]], [Y, np.zeros((8, 2), "float32")]),
          "subclassed": (_subclassed, X, Y)}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_round_trip_keeps_predictions_and_config(kind, tmp_path):
    make, x, _ = MAKERS[kind]
    model = make()
    back = _save_load(model, tmp_path)
    assert type(back) is type(model)
    assert _json_config(back) == _json_config(model)
    for before, after in zip(tf.nest.flatten(model(x)), tf.nest.flatten(back(x))):
        np.testing.assert_array_equal(before.numpy(), after.numpy())
    assert [w.shape for w in back.weights] == [w.shape for w in model.weights]


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_training_goes_on_as_without_saving(kind, tmp_path):
    make, x, y = MAKERS[kind]
    model = make()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    back = _save_load(model, tmp_path)
    assert int(back.optimizer.iterations.numpy()) == 4
    later = back.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0).history
    same = model.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0).history
    assert later == same
    assert back.get_compile_config() == model.get_compile_config()


OPTIMIZERS = {
    "sgd_nesterov": lambda O: O.SGD(0.1, momentum=0.9, nesterov=True),
    "adam_amsgrad": lambda O: O.Adam(0.01, amsgrad=True), "adamw": lambda O: O.AdamW(0.01),
    "rmsprop": lambda O: O.RMSprop(0.01, momentum=0.5, centered=True),
    "adagrad": lambda O: O.Adagrad(0.1), "adadelta": lambda O: O.Adadelta(1.0),
    "adamax": lambda O: O.Adamax(0.01), "nadam": lambda O: O.Nadam(0.01),
    "ftrl": lambda O: O.Ftrl(0.1), "lion": lambda O: O.Lion(0.001), "lamb": lambda O: O.Lamb(0.01),
    "adafactor": lambda O: O.Adafactor(0.01), "ema": lambda O: O.Adam(0.01, use_ema=True),
    "accumulation": lambda O: O.SGD(0.1, gradient_accumulation_steps=2),
    "schedule": lambda O: O.Adam(O.schedules.ExponentialDecay(0.1, 2, 0.5)),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_every_optimizer_state_comes_back(name, tmp_path):
    model = _sequential()
    model.compile(OPTIMIZERS[name](tf.keras.optimizers), "mse")
    model.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    back = _save_load(model, tmp_path)
    assert back.optimizer.get_config() == model.optimizer.get_config()
    for a, b in zip(back.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    later = back.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=0).history["loss"]
    assert later == model.fit(X, Y, epochs=2, batch_size=4, shuffle=False,
                              verbose=0).history["loss"]


LAYER_STACKS = {
    "batch_norm": ((6,), lambda: [L.Dense(4), L.BatchNormalization(), L.Dropout(0.3)]),
    "conv": ((8, 8, 3), lambda: [L.Conv2D(4, 3, padding="same"), L.MaxPooling2D(), L.Flatten()]),
    "recurrent": ((5, 4), lambda: [L.LSTM(3, return_sequences=True), L.GRU(2)]),
    "bidirectional": ((5, 4), lambda: [L.Bidirectional(L.SimpleRNN(2))]),
    "time_distributed": ((5, 4), lambda: [L.TimeDistributed(L.Dense(2))]),
    "layer_norm": ((6,), lambda: [L.LayerNormalization(), L.Dense(2, kernel_regularizer="l2")]),
}


@pytest.mark.parametrize("name", sorted(LAYER_STACKS))
def test_layers_with_state_round_trip(name, tmp_path):
    shape, layers = LAYER_STACKS[name]
    model = tf.keras.Sequential([tf.keras.Input(shape)] + layers())
    x = np.linspace(-1, 1, 2 * int(np.prod(shape))).reshape((2,) + shape).astype("float32")
    if name == "batch_norm":   # moving statistics away from their initial values
        model.compile("sgd", "mse")
        model.fit(x, np.ones((2, 4), "float32"), epochs=2, verbose=0)
    back = _save_load(model, tmp_path)
    np.testing.assert_array_equal(back(x, training=False).numpy(),
                                  model(x, training=False).numpy())
    for a, b in zip(back.weights, model.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_the_zip_holds_json_and_plain_npz_arrays(tmp_path):
    model = _subclassed()
    model.compile("adam", "mse")
    model.fit(X, Y, epochs=1, verbose=0)
    path = tmp_path / "m.keras"
    model.save(path)
    archive = zipfile.ZipFile(path)
    assert archive.namelist() == ["metadata.json", "config.json", "model.weights.npz"]
    metadata = json.loads(archive.read("metadata.json"))
    assert sorted(metadata) == ["date_saved", "keras_version"]
    assert json.loads(archive.read("config.json")) == json.loads(model.to_json())
    stored = np.load(io.BytesIO(archive.read("model.weights.npz")), allow_pickle=False)
    assert stored.files[:6] == ["blocks/0/vars/0", "blocks/0/vars/1", "blocks/1/vars/0",
                                "blocks/1/vars/1", "head/vars/0", "head/vars/1"]
    assert stored["optimizer/vars/0"] == 1 and stored["optimizer/vars/0"].dtype == np.int64
    assert len([k for k in stored.files if k.startswith("optimizer/")]) == \
        len(model.optimizer.variables)


def test_sequential_and_functional_weights_are_named_by_layer(tmp_path):
    path = tmp_path / "f.keras"
    _functional().save(path)
    stored = np.load(io.BytesIO(zipfile.ZipFile(path).read("model.weights.npz")))
    assert "layers/shared/vars/0" in stored.files and "layers/o2/vars/1" in stored.files


def test_unzipped_folder_round_trip(tmp_path):
    model = _sequential()
    folder = tmp_path / "folder_model"
    model.save(folder, zipped=False)
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "metadata.json",
                                                         "model.weights.npz"]
    back = tf.keras.models.load_model(folder)
    np.testing.assert_array_equal(back(X).numpy(), model(X).numpy())


def test_every_spelling_saves_and_loads(tmp_path):
    model = _sequential()
    tf.keras.saving.save_model(model, str(tmp_path / "a.keras"))
    tf.keras.models.save_model(model, tmp_path / "b.keras")
    for back in (tf.keras.saving.load_model(tmp_path / "a.keras"),
                 tf.keras.models.load_model(str(tmp_path / "b.keras"))):
        np.testing.assert_array_equal(back(X).numpy(), model(X).numpy())


def test_load_without_compiling_leaves_the_model_uncompiled(tmp_path):
    model = _sequential()
    model.compile("adam", "mse")
    back = _save_load(model, tmp_path, compile=False)
    assert not back.compiled and back.get_compile_config() == {}


def test_h5_paths_need_h5py():
    with pytest.raises(ImportError, match=r"`save_model\(\)` using h5 format requires h5py"):
        _sequential().save("model.h5")
    with pytest.raises(ImportError, match=r"`load_model\(\)` using h5 format requires h5py"):
        tf.keras.models.load_model("model.hdf5")


def test_wrong_suffixes_and_missing_files(tmp_path):
    with pytest.raises(ValueError, match="Invalid filepath extension for saving"):
        _sequential().save(tmp_path / "m.txt")
    with pytest.raises(ValueError, match="File not found: filepath="):
        tf.keras.models.load_model(tmp_path / "missing.keras")
    with pytest.raises(ValueError, match="File format not supported"):
        tf.keras.models.load_model(tmp_path / "missing")
    with pytest.raises(ValueError, match=r"argument\(s\) are not supported: \['compression'\]"):
        _sequential().save(tmp_path / "m.keras", compression=True)


def test_a_keras_file_with_hdf5_weights_is_refused_clearly(tmp_path):
    path = tmp_path / "from_keras.keras"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("metadata.json", "{}")
        archive.writestr("config.json", _sequential().to_json())
        archive.writestr("model.weights.h5", b"\x89HDF")
    with pytest.raises(ValueError, match="model.weights.npz.*needs h5py"):
        tf.keras.models.load_model(path)


def test_weights_of_another_model_are_refused(tmp_path):
    path = tmp_path / "m.keras"
    _sequential().save(path)
    archive = zipfile.ZipFile(path)
    other = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(4, name="elsewhere")])
    with pytest.raises(ValueError, match="no value for 'layers/elsewhere/vars/0'"):
        tf.keras.saving.keras_file.load_weights_npz(other, archive.read("model.weights.npz"))


def test_overwrite_false_asks_first(tmp_path, monkeypatch):
    path = tmp_path / "m.keras"
    _sequential().save(path)
    before = path.read_bytes()
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    _functional().save(path, overwrite=False)
    assert path.read_bytes() == before


def test_saving_an_unbuilt_model_warns(tmp_path):
    with pytest.warns(UserWarning, match="has not yet been built"):
        tf.keras.Sequential([L.Dense(2)]).save(tmp_path / "m.keras")


def _unregistered_file(tmp_path):
    class Unregistered(tf.keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = L.Dense(units)

        def call(self, x):
            return self.dense(x)

        def get_config(self):
            return {**super().get_config(), "units": self.units}
    model = Unregistered()
    model(X)
    path = tmp_path / "custom.keras"
    model.save(path)
    return Unregistered, model, path


def test_custom_objects_and_scopes_find_unregistered_classes(tmp_path):
    cls, model, path = _unregistered_file(tmp_path)
    with pytest.raises(TypeError, match="Could not locate class 'Unregistered'"):
        tf.keras.models.load_model(path)
    back = tf.keras.models.load_model(path, custom_objects={"Unregistered": cls})
    np.testing.assert_array_equal(back(X).numpy(), model(X).numpy())
    with tf.keras.saving.custom_object_scope({"Unregistered": cls}):
        back = tf.keras.models.load_model(path)
    assert type(back) is cls


def test_subclassed_model_without_get_config(tmp_path):
    class Plain(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = L.Dense(2)

        def call(self, x):
            return self.dense(x)

    class Required(tf.keras.Model):
        def __init__(self, units, name=None):
            super().__init__(name=name)
            self.dense = L.Dense(units)
    model = Plain()
    model(X)
    assert sorted(model.get_config()) == ["dtype", "trainable"]
    path = tmp_path / "plain.keras"
    model.save(path)
    with pytest.raises(TypeError, match="(?s)could not be deserialized properly.*Unable to revive"):
        tf.keras.models.load_model(path, custom_objects={"Plain": Plain})
    with pytest.raises(NotImplementedError, match="non-serializable argument values"):
        Required(3).get_config()


def test_json_and_clone(tmp_path):
    model = _functional()
    back = tf.keras.models.model_from_json(model.to_json())
    assert _json_config(back) == _json_config(model)
    original = _sequential()
    clone = tf.keras.models.clone_model(original)
    assert _json_config(clone) == _json_config(original)
    assert not np.array_equal(clone.weights[0].numpy(), original.weights[0].numpy())
    assert isinstance(tf.keras.models.clone_model(_subclassed()), Blocks)


def test_compile_config_names_what_compile_was_given():
    model = _sequential()
    model.compile(optimizer="sgd", loss=tf.keras.losses.Huber(2.0), metrics=["mae"])
    config = model.get_compile_config()
    assert config["optimizer"]["class_name"] == "SGD"
    # Keras 3.15's Huber config has no delta (recorded in keras_saving::case_compile_config)
    assert config["loss"]["class_name"] == "Huber" and "delta" not in config["loss"]["config"]
    assert config["metrics"] == ["mae"] and config["jit_compile"] is False
    assert tf.keras.Sequential([L.Dense(1)]).get_compile_config() == {}


def test_pathlib_and_string_paths_agree(tmp_path):
    model = _sequential()
    model.save(str(tmp_path / "s.keras"))
    model.save(pathlib.Path(tmp_path / "p.keras"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = tf.keras.models.load_model(tmp_path / "s.keras")
        second = tf.keras.models.load_model(str(tmp_path / "p.keras"))
    np.testing.assert_array_equal(first(X).numpy(), second(X).numpy())


def test_lambda_layers_load_only_without_safe_mode(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((3,)), L.Lambda(lambda t, k=3.0: t * k)])
    path = tmp_path / "lambda.keras"
    model.save(path)
    with pytest.raises(ValueError, match="`Lambda` layer whose `function` is a Python lambda"):
        tf.keras.models.load_model(path)
    back = tf.keras.models.load_model(path, safe_mode=False)
    np.testing.assert_array_equal(back(tf.constant(X)).numpy(), 3 * X)
    with pytest.raises(ValueError, match="deserialization of a `Lambda` layer"):
        L.Lambda.from_config(model.layers[0].get_config())   # outside a load: safe


def test_a_lambda_serialized_alone_needs_safe_mode_off():
    S = tf.keras.saving
    description = S.serialize_keras_object(lambda v: v + 1)
    assert description["class_name"] == "__lambda__"
    with pytest.raises(ValueError, match="deserialization of a Python lambda"):
        S.deserialize_keras_object(description)
    assert S.deserialize_keras_object(json.loads(json.dumps(description)), safe_mode=False)(1) == 2


def test_frozen_layers_stay_frozen_and_training_goes_on(tmp_path):
    inputs = tf.keras.Input((3,))
    model = _fill(tf.keras.Model(inputs, L.Dense(1)(L.Dense(4, name="frozen")(inputs))))
    model.get_layer("frozen").trainable = False
    model.compile("adam", "mse")
    model.fit(X, Y, epochs=1, shuffle=False, verbose=0)
    back = _save_load(model, tmp_path)
    assert not back.get_layer("frozen").trainable and len(back.trainable_weights) == 2
    assert back.fit(X, Y, epochs=2, shuffle=False, verbose=0).history == \
        model.fit(X, Y, epochs=2, shuffle=False, verbose=0).history


@tf.keras.saving.register_keras_serializable(package="SavingTests")
class GraphInInit(tf.keras.Model):
    """A subclass that builds a functional graph in its ``__init__``: new layer names on each
    construction, so its weights are stored by position."""

    def __init__(self, units=2, **kwargs):
        inputs = tf.keras.Input((3,))
        super().__init__(inputs, L.Dense(units)(L.Dense(4)(inputs)), **kwargs)
        self.units = units

    def get_config(self):
        return {"units": self.units, "name": self.name}


def test_subclass_building_a_graph_in_init(tmp_path):
    model = _fill(GraphInInit())
    path = tmp_path / "graph.keras"
    model.save(path)
    stored = np.load(io.BytesIO(zipfile.ZipFile(path).read("model.weights.npz")))
    assert stored.files == [f"extra/vars/{i}" for i in range(4)]
    back = tf.keras.models.load_model(path)
    np.testing.assert_array_equal(back(X).numpy(), model(X).numpy())


def test_arithmetic_on_symbolic_tensors_is_saved_as_keras_operations(tmp_path):
    inputs = tf.keras.Input((3,))
    h = L.Dense(3)(inputs)
    model = _fill(tf.keras.Model(inputs, [2.0 - h * h, h[:, 1:] ** 2, h @ tf.ones((3, 2))]))
    ops = sorted((d["module"], d["class_name"]) for d in model.get_config()["layers"][2:])
    assert ops == [("keras.src.ops.numpy", name) for name in
                   ("GetItem", "Matmul", "Multiply", "Power", "Subtract")]
    back = _save_load(model, tmp_path)
    for before, after in zip(model(X), back(X)):
        np.testing.assert_array_equal(before.numpy(), after.numpy())
