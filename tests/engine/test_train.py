"""train/: Checkpoint, CheckpointManager, latest_checkpoint, ExponentialMovingAverage."""
import json
import os

import numpy as np
import pytest

import tapegrad as tf


def test_checkpoint_files_and_round_trip(tmp_path):
    w = tf.Variable([[1.0, 2.0]])
    inner = tf.train.Checkpoint(w=w)
    ckpt = tf.train.Checkpoint(inner=inner, step=tf.Variable(3))
    path = ckpt.save(str(tmp_path / "ck"))
    assert os.path.basename(path) == "ck-1"
    index = json.load(open(path + ".index"))
    assert index["keys"] == ["inner/w", "step", "save_counter"]
    with np.load(path + ".data-00000-of-00001") as data:
        assert data["v0"].tolist() == [[1.0, 2.0]]
    w.assign([[0.0, 0.0]])
    ckpt.step.assign(0)
    ckpt.restore(path).assert_consumed()
    assert w.numpy().tolist() == [[1.0, 2.0]] and int(ckpt.step) == 3
    assert tf.train.latest_checkpoint(str(tmp_path)) == path


def test_restore_checks_shapes_and_reports_leftovers(tmp_path):
    path = tf.train.Checkpoint(a=tf.Variable([1.0, 2.0]), b=tf.Variable(1.0)).write(
        str(tmp_path / "x"))
    with pytest.raises(ValueError, match="incompatible"):
        tf.train.Checkpoint(a=tf.Variable([1.0])).restore(path)
    status = tf.train.Checkpoint(b=tf.Variable(0.0)).restore(path)
    with pytest.raises(AssertionError, match="a"):
        status.assert_consumed()
    status.assert_existing_objects_matched()
    with pytest.raises(tf.errors.NotFoundError):
        tf.train.Checkpoint().restore(str(tmp_path / "missing"))


def test_manager_keeps_the_newest_and_resumes(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    for i in range(4):
        ckpt.v.assign(i)
        manager.save()
    names = sorted(os.listdir(tmp_path))
    assert names == ["checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index",
                     "ckpt-4.data-00000-of-00001", "ckpt-4.index"]
    resumed = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    ckpt.v.assign(99)
    assert resumed.restore_or_initialize() == resumed.latest_checkpoint
    assert int(ckpt.v) == 3
    with pytest.raises(ValueError):
        tf.train.Checkpoint(x=[1, 2])
    it = iter(tf.data.Dataset.range(3))      # an iterator is tracked (its position is saved)
    assert tf.train.Checkpoint(it=it).it is it


def test_checkpoint_of_a_keras_model(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    before = [w.numpy().copy() for w in model.weights]
    ckpt = tf.train.Checkpoint(model=model)
    path = ckpt.save(str(tmp_path / "m"))
    for w in model.weights:
        w.assign(np.zeros(w.shape, np.float32))
    ckpt.restore(path).assert_consumed()
    for w, b in zip(model.weights, before):
        np.testing.assert_array_equal(w.numpy(), b)


def test_moving_average_follows_the_formula():
    v = tf.Variable(0.0)
    ema = tf.train.ExponentialMovingAverage(0.5)
    shadow = 0.0
    for value in [0.0, 4.0, 2.0, 8.0]:
        v.assign(value)
        ema.apply([v])
        shadow -= (1 - 0.5) * (shadow - value)
        assert float(ema.average(v)) == pytest.approx(shadow)
    assert ema.average(v).trainable is False


def test_optimizer_slots_are_restored_when_built(tmp_path):
    def setup():
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        opt = tf.keras.optimizers.Adam(0.1)
        return model, opt, tf.train.Checkpoint(model=model, optimizer=opt)

    def step(model, opt):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(tf.ones([1, 2])) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))

    model, opt, ckpt = setup()
    step(model, opt)
    path = ckpt.save(str(tmp_path / "c"))
    saved = [v.numpy().copy() for v in opt.variables]
    step(model, opt)
    after_two = [w.numpy().copy() for w in model.weights]

    model2, opt2, ckpt2 = setup()
    ckpt2.restore(path)
    step(model2, opt2)              # builds the optimizer: its slots get the saved values
    assert int(opt2.iterations.numpy()) == 2
    for w, want in zip(model2.weights, after_two):
        np.testing.assert_allclose(w.numpy(), want, rtol=1e-6)
    assert len(saved) == len(opt2.variables)


def test_reading_values_by_name(tmp_path):
    ckpt = tf.train.Checkpoint(step=tf.Variable(4), w=tf.Variable([[1.0, 2.0]]))
    path = ckpt.save(str(tmp_path / "c"))
    assert tf.train.list_variables(str(tmp_path)) == [("save_counter", []), ("step", []),
                                                      ("w", [1, 2])]
    reader = tf.train.load_checkpoint(path)
    assert reader.get_variable_to_dtype_map()["w"] == tf.float32
    assert reader.has_tensor("step") and not reader.has_tensor("nope")
    assert tf.train.load_variable(path, "w").tolist() == [[1.0, 2.0]]
    with pytest.raises(tf.errors.NotFoundError):
        reader.get_tensor("nope")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="Couldn't find"):
        tf.train.load_checkpoint(str(empty))
