"""tf.keras.callbacks and the progress bar."""
import io
import contextlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.keras.callbacks import CallbackList
from tapegrad.keras.utils import Progbar


def _model(lr=0.1):
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=lr), loss="mse")
    return model


X = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, 0.5]], np.float32)
Y = np.array([[1.0], [-1.0], [0.0], [0.0]], np.float32)


def test_history_is_returned_and_kept_on_the_model():
    model = _model()
    history = model.fit(X, Y, epochs=3, verbose=0)
    assert history is model.history
    assert history.epoch == [0, 1, 2] and len(history.history["loss"]) == 3
    assert history.history["loss"][2] < history.history["loss"][0]


def test_early_stopping_restores_the_best_weights():
    model = _model(lr=5.0)  # diverges: the first epoch is the best
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1,
                                            restore_best_weights=True)
    best = []
    record = tf.keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: best.append(model.get_weights()) if epoch == 0 else None)
    history = model.fit(X, Y, epochs=20, callbacks=[record, stop], verbose=0, shuffle=False)
    assert len(history.epoch) < 20
    for a, b in zip(model.get_weights(), best[0]):
        np.testing.assert_array_equal(a, b)


def test_early_stopping_auto_mode_maximizes_accuracy():
    stop = tf.keras.callbacks.EarlyStopping(monitor="val_accuracy")
    assert stop.mode == "max"
    assert tf.keras.callbacks.EarlyStopping(monitor="val_loss").mode == "min"


def test_stop_training_from_a_batch_hook():
    class StopAtOnce(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            self.model.stop_training = True
    model = _model()
    history = model.fit(X, Y, epochs=5, batch_size=1, callbacks=[StopAtOnce()], verbose=0)
    assert history.epoch == [0]


def test_scheduler_and_plateau_change_the_learning_rate():
    model = _model()
    sched = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 / (epoch + 1))
    history = model.fit(X, Y, epochs=3, callbacks=[sched], verbose=0)
    np.testing.assert_allclose(history.history["learning_rate"], [0.1, 0.05, 0.1 / 3], rtol=1e-6)
    model = _model(lr=0.0)
    plateau = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", patience=1, factor=0.5)
    model.optimizer.learning_rate = 0.0
    history = model.fit(X, Y, epochs=3, callbacks=[plateau], verbose=0, shuffle=False)
    assert "learning_rate" in history.history
    with pytest.raises(ValueError, match="factor"):
        tf.keras.callbacks.ReduceLROnPlateau(factor=2.0)


def test_lambda_callback_rejects_unknown_hooks():
    with pytest.raises(TypeError, match="on_nothing"):
        tf.keras.callbacks.LambdaCallback(on_nothing=print)


def test_callback_list_observers_join_every_fit():
    seen = []

    class Watch(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            seen.append(epoch)
    CallbackList.observers.append(Watch)
    try:
        _model().fit(X, Y, epochs=2, verbose=0)
    finally:
        CallbackList.observers.remove(Watch)
    assert seen == [0, 1]


def test_progbar_verbose_2_prints_one_line_at_the_end():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bar = Progbar(3, verbose=2)
        bar.update(1, [("loss", 0.5)])
        bar.update(3, [("loss", 0.25)])
    text = out.getvalue()
    assert text.count("\n") == 1 and text.startswith("3/3 - ") and text.endswith("loss: 0.2500\n")


def test_progbar_verbose_1_redraws_with_backspaces():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bar = Progbar(2, verbose=1, interval=0)
        bar.update(1, [("loss", 1e-5)])
        bar.update(2, [("loss", 0.5)])
    text = out.getvalue()
    assert "\b" in text and text.count("\r") == 2 and "loss: 1.0000e-05" in text
    assert text.endswith("\n") and text.rstrip().endswith("loss: 0.5000")


def test_model_checkpoint_names_files_by_epoch(tmp_path):
    model = _model()
    pattern = str(tmp_path / "ckpt_{epoch:02d}.weights.h5")
    model.fit(X, Y, epochs=2, verbose=0, callbacks=[
        tf.keras.callbacks.ModelCheckpoint(pattern, save_weights_only=True, monitor="loss")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt_01.weights.h5",
                                                          "ckpt_02.weights.h5"]
    with pytest.raises(ValueError, match=r"must end in `\.keras` \(Keras model format\)"):
        tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "model"))


def test_model_checkpoint_saves_whole_models_that_load_back(tmp_path):
    model = _model()
    pattern = str(tmp_path / "ckpt_{epoch}.keras")
    model.fit(X, Y, epochs=2, verbose=0, callbacks=[
        tf.keras.callbacks.ModelCheckpoint(pattern, monitor="loss")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt_1.keras", "ckpt_2.keras"]
    loaded = tf.keras.models.load_model(str(tmp_path / "ckpt_2.keras"))
    np.testing.assert_array_equal(loaded.predict(X, verbose=0), model.predict(X, verbose=0))
    with pytest.raises(ImportError, match="requires h5py"):   # Keras's message without h5py
        model.fit(X, Y, epochs=1, verbose=0, callbacks=[
            tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "m.h5"))])


def test_terminate_on_nan_can_raise():
    model = _model(lr=1e30)
    with pytest.raises(RuntimeError, match="NaN or Inf loss"):
        model.fit(X * 1e20, Y, epochs=3, batch_size=1, verbose=0,
                  callbacks=[tf.keras.callbacks.TerminateOnNaN(raise_error=True)])
