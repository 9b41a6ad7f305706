"""``tf.train.get_checkpoint_state``, ``checkpoints_iterator`` and ``CheckpointOptions``: reading a
checkpoint directory's state file and waiting for new checkpoints in it.

>>> import os, tempfile, tapegrad as tf
>>> d = tempfile.mkdtemp()
>>> manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), d, max_to_keep=2)
>>> _ = [manager.save() for _ in range(3)]
>>> state = tf.train.get_checkpoint_state(d)
>>> os.path.basename(state.model_checkpoint_path), [os.path.basename(p) for p in state.all_model_checkpoint_paths]
('ckpt-3', ['ckpt-2', 'ckpt-3'])
>>> [os.path.basename(p) for p in tf.train.checkpoints_iterator(d, timeout=0.01)]
['ckpt-3']
"""
import os
import time

from .checkpoint import _read_state, latest_checkpoint


class CheckpointState:
    """What a directory's ``checkpoint`` file says: the newest checkpoint and those kept."""

    __slots__ = ("model_checkpoint_path", "all_model_checkpoint_paths",
                 "all_model_checkpoint_timestamps")

    def __init__(self, model_checkpoint_path, all_model_checkpoint_paths, timestamps=()):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(timestamps)

    def __repr__(self):
        lines = [f'model_checkpoint_path: "{self.model_checkpoint_path}"']
        lines += [f'all_model_checkpoint_paths: "{p}"' for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {t}"
                  for t in self.all_model_checkpoint_timestamps]
        return "\n".join(lines) + "\n"


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The directory's ``CheckpointState`` (paths made absolute), or None without a state file."""
    state = _read_state(os.fspath(checkpoint_dir))
    if state is None or state[0] is None:
        return None
    return CheckpointState(*state)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new newest checkpoint of ``checkpoint_dir`` as it appears (the current one
    first); after ``timeout`` seconds without a new one it asks ``timeout_fn`` (ends when it
    answers true, or when there is none) and otherwise keeps waiting."""
    last = None
    while True:
        found = _wait_for_new(checkpoint_dir, last, timeout)
        if found is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        started = time.time()
        last = found
        yield found
        pause = started + min_interval_secs - time.time()
        if pause > 0:
            time.sleep(pause)


def _wait_for_new(checkpoint_dir, last, timeout, poll_secs=0.05):
    """The newest checkpoint when it differs from ``last``; None after ``timeout`` seconds."""
    deadline = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if deadline is not None and time.time() + poll_secs > deadline:
            return None
        time.sleep(poll_secs)


class CheckpointOptions:
    """Options for saving and restoring; accepted and kept (tapegrad writes checkpoints in the
    calling thread, on the one device it has)."""

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = bool(experimental_enable_async_checkpoint)
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = bool(enable_async)
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback
