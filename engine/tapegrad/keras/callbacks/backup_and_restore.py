"""``BackupAndRestore``: the training state backed up at the end of each epoch (or every
``save_freq`` batches) so that a ``fit`` interrupted by an error resumes, when run again, at the
epoch that was interrupted with the weights it had then (Keras 3.15's callback).

The backup directory holds ``latest.weights.h5`` (the model's weights; tapegrad writes its
``.npz`` data there, as ``save_weights`` does), ``latest.optimizer.npz`` (the optimizer's
variables: Keras keeps them in the same weights file) and ``training_metadata.json``
(``{"epoch": ..., "batch": ...}``). Under ``MultiWorkerMirroredStrategy`` only the chief writes;
every worker reads the backup when ``fit`` begins, so ``backup_dir`` must be a folder every
worker sees (one machine, or a shared file system).

>>> import tapegrad as tf
>>> cb = tf.keras.callbacks.BackupAndRestore(backup_dir="/tmp/backup")
>>> cb.save_freq, cb.delete_checkpoint
('epoch', True)
"""
import io
import json
import os
import shutil

from ...backend import xp
from .callback import Callback, wait_for_every_worker, writes_files


class BackupAndRestore(Callback):
    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False,
                 delete_checkpoint=True):
        super().__init__()
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.backup_dir = backup_dir
        self._weights_path = os.path.join(backup_dir, "latest.weights.h5")
        self._optimizer_path = os.path.join(backup_dir, "latest.optimizer.npz")
        self._training_metadata_path = os.path.join(backup_dir, "training_metadata.json")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Invalid value for argument `save_freq`. Received: "
                             f"save_freq={save_freq}. Expected either 'epoch' or an integer "
                             f"value.")

    def _paths(self):
        return (self._weights_path, self._optimizer_path, self._training_metadata_path)

    def on_train_begin(self, logs=None):
        wait_for_every_worker(self.model)   # the chief has finished writing the last backup
        try:
            self._load_model()
        except (OSError, ValueError) as e:
            # a backup that cannot be read: the previous one, when double_checkpoint kept it
            if not os.path.exists(self._weights_path + ".bkp"):
                raise e
            for path in self._paths():
                if os.path.exists(path + ".bkp"):
                    shutil.copyfile(path + ".bkp", path)
                elif os.path.exists(path):
                    os.remove(path)
            self._load_model()

    def _load_model(self):
        """The backed-up weights, optimizer state and epoch, when there is a backup."""
        model = self.model
        if not model.built:
            raise ValueError(f"To use the BackupAndRestore callback, you model must be built "
                             f"before you call `fit()`. Model {model} is unbuilt. You can build "
                             f"it beforehand by calling it on a batch of data.")
        if os.path.exists(self._weights_path):
            optimizer = model.optimizer
            if optimizer is not None and not optimizer.built:
                optimizer.build(model.trainable_variables)
            model.load_weights(self._weights_path)
            if optimizer is not None and os.path.exists(self._optimizer_path):
                _load_variables(optimizer.variables, self._optimizer_path)
        if os.path.exists(self._training_metadata_path):
            with open(self._training_metadata_path) as f:
                metadata = json.loads(f.read())
            model._initial_epoch = metadata["epoch"]

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._save_model()

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model()

    def _save_model(self):
        """Writes the backup (the chief only), keeping the last one as ``.bkp`` files when
        ``double_checkpoint`` is set."""
        if not writes_files(self.model):
            return
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            for path in self._paths():
                if os.path.exists(path):
                    shutil.copyfile(path, path + ".bkp")
        self.model.save_weights(self._weights_path, overwrite=True)
        optimizer = self.model.optimizer
        if optimizer is not None:
            _save_variables(optimizer.variables, self._optimizer_path)
        with open(self._training_metadata_path, "w") as f:
            f.write(json.dumps({"epoch": self._current_epoch, "batch": self._last_batch_seen}))

    def _should_save_on_batch(self, batch):
        """Counts the batches seen (a batch index not above the last one starts an epoch)."""
        if self.save_freq == "epoch":
            return False
        if batch <= self._last_batch_seen:
            add_batches = batch + 1
        else:
            add_batches = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add_batches
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and writes_files(self.model) and \
                os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)


def _save_variables(variables, path):
    buffer = io.BytesIO()
    xp.savez(buffer, **{f"v{i}": v.numpy() for i, v in enumerate(variables)})
    with open(path, "wb") as f:
        f.write(buffer.getvalue())


def _load_variables(variables, path):
    with xp.load(path, allow_pickle=False) as stored:
        values = [stored[f"v{i}"] for i in range(len(stored.files))]
    if len(values) != len(variables):
        raise ValueError(f"The backup in {path} holds {len(values)} optimizer variables, but "
                         f"the optimizer has {len(variables)}: it does not belong to this model.")
    for v, value in zip(variables, values):
        v.assign(value)
