"""``ModelCheckpoint`` (the weights, every epoch or at the best monitored value) and
``TerminateOnNaN``."""
import math
import os
import warnings

from .callback import Callback, writes_files
from .early_stopping import monitor_mode


class ModelCheckpoint(Callback):
    """Saves the model (``model.save``: a ``.keras`` file) or, with ``save_weights_only``, its
    weights at the end of each epoch (``save_best_only``: only when ``monitor`` improves). The
    path may hold ``{epoch}`` and log names: ``"ckpt_{epoch:02d}.keras"``. Under
    ``MultiWorkerMirroredStrategy`` only the chief (rank 0) writes.

    >>> import tapegrad as tf
    >>> cb = tf.keras.callbacks.ModelCheckpoint("best.weights.h5", save_weights_only=True,
    ...                                         save_best_only=True, monitor="loss")
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None):
        super().__init__()
        self.filepath = os.fspath(filepath)
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(f"The filepath provided must end in `.keras` (Keras model "
                             f"format). Received: filepath={self.filepath}")
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError(f"When using `save_weights_only=True` in `ModelCheckpoint`, the "
                             f"filepath provided must end in `.weights.h5` (Keras weights "
                             f"format). Received: filepath={self.filepath}")
        if save_freq != "epoch":
            raise NotImplementedError("ModelCheckpoint: only save_freq='epoch' is available")
        self.monitor, self.verbose = monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self.mode = monitor_mode(mode, monitor)
        self.best = initial_value_threshold

    def _improved(self, value):
        if self.best is None:
            return True
        return value > self.best if self.mode == "max" else value < self.best

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            value = logs.get(self.monitor)
            if value is None:
                warnings.warn(f"Can save best model only with {self.monitor} available.",
                              stacklevel=2)
            else:
                best = "None" if self.best is None else f"{self.best:.5f}"
                if not self._improved(value):
                    if self.verbose > 0:
                        print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
                    return
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to "
                          f"{value:.5f}, saving model to {path}")
                self.best = value
        elif self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: saving model to {path}")
        if not writes_files(self.model):   # a worker that is not the chief
            return
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:   # (a .h5 path needs h5py: model.save says so, as Keras does without it)
            self.model.save(path, overwrite=True)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: finished saving model to {path}")


class TerminateOnNaN(Callback):
    """Stops training at the first batch whose loss is NaN or infinite (``raise_error=True``:
    raises instead)."""

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (math.isnan(loss) or math.isinf(loss)):
            if self.raise_error:
                raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: "
                                   f"{loss}. Terminating training immediately.")
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True
