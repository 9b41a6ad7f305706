"""Keras under a tf.distribute strategy (issue 32, item 2): fit/evaluate/predict of a model made
in a MirroredStrategy's scope give what one process gives for the whole batch (the batch split
across the replicas, the losses divided by num_replicas_in_sync, the metrics of every replica),
and BackupAndRestore resumes an interrupted fit at the interrupted epoch with its weights.
TensorFlow's recorded numbers are replayed by the conformance area ``distribute_keras``; the
same training over ``mpiexec -n 2`` and ``-n 3`` is in tests/mpi."""
import os

import numpy as np
import pytest

import tapegrad as tf
from test_distribute import MEETING   # (skips where replicas cannot meet: Pyodide)


@pytest.fixture
def strategy():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
    yield tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
    tf.config.set_logical_device_configuration(cpu, None)


def _data(rows=12):
    rng = np.random.default_rng(5)
    x = rng.normal(size=(rows, 3)).astype(np.float32)
    return x, (x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.25).astype(np.float32)


def _model(optimizer=None, regularizer=None):
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(3,)),
        tf.keras.layers.Dense(4, activation="tanh", kernel_initializer="ones",
                              kernel_regularizer=regularizer),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=optimizer or tf.keras.optimizers.SGD(0.1), loss="mse",
                  metrics=["mae"])
    return model


def _close(a, b):
    for u, v in zip(a, b):
        np.testing.assert_allclose(u, v, rtol=1e-5, atol=1e-6)


@MEETING
@pytest.mark.parametrize("batch_size", [12, 6])
def test_fit_on_three_replicas_equals_one_process(strategy, batch_size):
    x, y = _data()
    alone = _model(tf.keras.optimizers.Adam(0.05), tf.keras.regularizers.L2(0.01))
    want = alone.fit(x, y, batch_size=batch_size, epochs=4, shuffle=False, verbose=0).history
    with strategy.scope():
        model = _model(tf.keras.optimizers.Adam(0.05), tf.keras.regularizers.L2(0.01))
    assert model.distribute_strategy is strategy
    got = model.fit(x, y, batch_size=batch_size, epochs=4, shuffle=False, verbose=0).history
    _close(model.get_weights(), alone.get_weights())
    assert sorted(got) == ["loss", "mae"]
    _close([got["loss"], got["mae"]], [want["loss"], want["mae"]])
    assert int(model.optimizer.iterations.numpy()) == 4 * (12 // batch_size)


@MEETING
def test_evaluate_and_predict_on_uneven_parts_equal_one_process(strategy):
    x, y = _data(11)
    alone = _model()
    with strategy.scope():
        model = _model()
    # 11 rows in batches of 5: the replicas get 2, 2, 1 rows, then 1, 0, 0 (empty parts too)
    _close(model.evaluate(x, y, batch_size=5, verbose=0), alone.evaluate(x, y, verbose=0))
    np.testing.assert_allclose(model.predict(x, batch_size=5, verbose=0),
                               alone.predict(x, verbose=0), rtol=1e-6)


@MEETING
def test_every_replicas_metric_updates_are_counted(strategy):
    x, y = _data()
    with strategy.scope():
        model = _model()
    seen = []
    model.fit(x, y, batch_size=6, epochs=1, shuffle=False, verbose=0,
              callbacks=[tf.keras.callbacks.LambdaCallback(
                  on_train_batch_end=lambda batch, logs: seen.append(dict(logs)))])
    assert len(seen) == 2
    assert float(model._loss_tracker.count.numpy()) == 12.0   # every row, from 3 replicas


@MEETING
def test_a_custom_train_step_runs_on_every_replica(strategy):
    class Counting(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = self.compute_loss(y=y, y_pred=self(x))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"rows": tf.cast(tf.shape(x)[0], tf.float32)}

    x, y = _data()
    with strategy.scope():
        model = Counting()
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=12, epochs=1, verbose=0)
    assert history.history == {"rows": [4.0]}   # the replicas' logs averaged
    alone = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones")])
    alone.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    alone.fit(x, y, batch_size=12, epochs=1, verbose=0)
    _close(model.get_weights(), alone.get_weights())


def test_a_mean_loss_is_divided_by_the_replicas_in_scope(strategy):
    mse = tf.keras.losses.MeanSquaredError()
    y_true, y_pred = tf.constant([[1.0], [2.0]]), tf.constant([[2.0], [4.0]])
    assert float(mse(y_true, y_pred)) == 2.5
    with strategy.scope():
        assert float(mse(y_true, y_pred)) == pytest.approx(2.5 / 3)
        assert float(tf.keras.losses.MeanSquaredError(reduction="sum")(y_true, y_pred)) == 5.0


class _Interrupt(tf.keras.callbacks.Callback):
    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_epoch_begin(self, epoch, logs=None):
        if epoch == self.epoch:
            raise RuntimeError(f"interrupted at epoch {epoch}")


class _WeightsAtBegin(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.weights = self.model.get_weights()


def test_backup_and_restore_resumes_at_the_interrupted_epoch(tmp_path):
    x, y = _data()
    backup = str(tmp_path / "backup")
    reference = _model(tf.keras.optimizers.Adam(0.05))
    at_epoch = []
    reference.fit(x, y, batch_size=4, epochs=5, shuffle=False, verbose=0, callbacks=[
        tf.keras.callbacks.LambdaCallback(
            on_epoch_end=lambda e, logs: at_epoch.append(reference.get_weights()))])
    first = _model(tf.keras.optimizers.Adam(0.05))
    with pytest.raises(RuntimeError, match="interrupted at epoch 3"):
        first.fit(x, y, batch_size=4, epochs=5, shuffle=False, verbose=0, callbacks=[
            tf.keras.callbacks.BackupAndRestore(backup), _Interrupt(3)])
    assert sorted(os.listdir(backup)) == ["latest.optimizer.npz", "latest.weights.h5",
                                          "training_metadata.json"]
    again, begin = _model(tf.keras.optimizers.Adam(0.05)), _WeightsAtBegin()
    history = again.fit(x, y, batch_size=4, epochs=5, shuffle=False, verbose=0,
                        callbacks=[tf.keras.callbacks.BackupAndRestore(backup), begin])
    assert history.epoch == [3, 4]
    _close(begin.weights, at_epoch[2])            # the weights after epoch 2 (0-based)
    _close(again.get_weights(), reference.get_weights())
    assert not os.path.exists(backup)             # delete_checkpoint=True


def test_backup_and_restore_every_batch_keeps_the_backup(tmp_path):
    x, y = _data()
    backup = str(tmp_path / "b")
    cb = tf.keras.callbacks.BackupAndRestore(backup, save_freq=2, delete_checkpoint=False)
    _model().fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[cb])
    with open(os.path.join(backup, "training_metadata.json")) as f:
        # every second batch, counted across epochs (Keras's count): the last backup follows
        # the second epoch's batch 2, one epoch finished before it
        assert f.read() == '{"epoch": 1, "batch": 2}'


def test_backup_and_restore_checks_its_arguments():
    with pytest.raises(ValueError, match="Empty `backup_dir` argument passed"):
        tf.keras.callbacks.BackupAndRestore("")
    with pytest.raises(ValueError, match="Expected either 'epoch' or an integer value"):
        tf.keras.callbacks.BackupAndRestore("/tmp/x", save_freq="batch")
    unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    cb = tf.keras.callbacks.BackupAndRestore("/tmp/never-written")
    cb.set_model(unbuilt)
    with pytest.raises(ValueError, match="you model must be built before you call `fit"):
        cb.on_train_begin()
