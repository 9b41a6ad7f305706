"""``tf.train.Checkpoint``, ``tf.train.CheckpointManager`` and ``tf.train.latest_checkpoint``.

A checkpoint saves the variables of the objects given to it by keyword: variables, ``tf.Module``s,
Keras layers, models and optimizers (their ``weights``/``variables`` in order), other
checkpoints. Paths and the ``checkpoint`` state file are TensorFlow's (``save`` returns
``prefix-N`` and writes ``prefix-N.index`` and ``prefix-N.data-00000-of-00001``), so the
tutorials' directory handling works unchanged. The files are tapegrad's own, not TensorFlow's
bundle format: the data file is a NumPy ``.npz`` archive (one array per variable, named by its
path in the object graph, such as ``model/weights/0``) and the index file is JSON listing those
names. TensorFlow cannot read them, nor tapegrad TensorFlow's.

Values saved for variables that do not exist yet when ``restore`` runs (a Keras optimizer's
slots before its first step) are assigned when the optimizer builds them, as TensorFlow defers
them (until then the status's ``assert_consumed`` reports them).

Objects that hold state in another form name what they save with ``_checkpoint_variables()``:
``(name, variable)`` pairs, saved as ``<path>/<name>``. A ``tf.random.Generator`` saves its state
(``g/_state_var``), so the numbers drawn after a restore repeat those drawn after the save; a
``tf.data`` iterator saves its position (``it/ITERATOR_STATE``: see ``OwnedIterator``), so
``next()`` after a restore gives the element that followed the save (an iterator over
``from_generator`` cannot be saved: ``FailedPreconditionError``, as TensorFlow's); a dataset
itself saves nothing.

>>> import os, tempfile, tapegrad as tf
>>> step = tf.Variable(1)
>>> ckpt = tf.train.Checkpoint(step=step)
>>> path = ckpt.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
>>> os.path.basename(path)
'ckpt-1'
>>> _ = step.assign(7)
>>> _ = ckpt.restore(path)
>>> int(step)
1
"""
import io
import json
import os
import time

from .. import errors
from ..dtypes import as_dtype
from ..backend import xp
from ..variables import Variable

_FORMAT = "tapegrad-checkpoint-1"
_DATA_SUFFIX = ".data-00000-of-00001"
_STATE_FILE = "checkpoint"


def _not_trackable(name, value):
    return ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an object "
                      f"derived from `Trackable`), got {value!r}. If you believe this object "
                      f"should be trackable (i.e. it is part of the TensorFlow Python API and "
                      f"manages state), please open an issue.")


def _check_trackable(name, value):
    if isinstance(value, (Variable, Checkpoint)) or hasattr(value, "_checkpoint_variables"):
        return
    if isinstance(getattr(value, "weights", None), (list, tuple)) or \
            isinstance(getattr(value, "variables", None), (list, tuple)):
        return
    raise _not_trackable(name, value)


def _variables_of(prefix, obj, out):
    """(path, variable) pairs of ``obj``'s variables, in a stable order."""
    if isinstance(obj, Variable):
        out.append((prefix, obj))
    elif hasattr(obj, "_checkpoint_variables"):
        out.extend((f"{prefix}/{name}", v) for name, v in obj._checkpoint_variables())
    elif isinstance(obj, Checkpoint):
        for name in sorted(obj._children):
            _variables_of(f"{prefix}/{name}" if prefix else name, obj._children[name], out)
    else:
        weights = getattr(obj, "weights", None)
        kind = "weights" if isinstance(weights, (list, tuple)) else "variables"
        for i, v in enumerate(weights if kind == "weights" else obj.variables):
            out.append((f"{prefix}/{kind}/{i}", v))
    return out


def _unbuilt_objects(prefix, obj, out):
    """(path, object) of the tracked objects that create their variables later (a Keras
    optimizer before its first step: ``built`` is False and it has ``build``)."""
    if isinstance(obj, Checkpoint):
        for name in sorted(obj._children):
            _unbuilt_objects(f"{prefix}/{name}" if prefix else name, obj._children[name], out)
    elif not isinstance(obj, Variable) and getattr(obj, "built", True) is False and \
            callable(getattr(obj, "build", None)):
        out.append((prefix, obj))
    return out


def _restore_when_built(obj, prefix, saved):
    """Deferred restoration, as TensorFlow's: the values saved for ``obj``'s variables are
    assigned right after ``obj.build`` creates them (by position, as they were saved)."""
    pending = {}
    for key, value in saved.items():
        head, _, index = key.rpartition("/")
        if head == f"{prefix}/variables" and index.isdigit():
            pending[int(index)] = value
    if not pending:
        return
    build = type(obj).build

    def build_then_restore(*args, **kwargs):
        del obj.build                  # one time: the class's build from now on
        result = build(obj, *args, **kwargs)
        variables = list(obj.variables)
        for i, value in sorted(pending.items()):
            if i < len(variables) and tuple(variables[i].shape) == tuple(value.shape):
                variables[i].assign(value.astype(variables[i].numpy().dtype))
        return result
    obj.build = build_then_restore


class CheckpointLoadStatus:
    """What ``restore`` matched: ``assert_consumed`` (every saved value used and every variable
    restored), ``assert_existing_objects_matched``, ``expect_partial``."""

    def __init__(self, saved_keys, restored_keys, current_keys, path):
        self._unused = sorted(set(saved_keys) - set(restored_keys))
        self._unmatched = sorted(set(current_keys) - set(restored_keys))
        self._path = path

    def assert_consumed(self):
        if self._unused:
            raise AssertionError(f"Unresolved object in checkpoint {self._path}: "
                                 f"{', '.join(self._unused)}")
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self):
        if self._unmatched:
            raise AssertionError(f"Some objects had no value in checkpoint {self._path}: "
                                 f"{', '.join(self._unmatched)}")
        return self

    def assert_nontrivial_match(self):
        return self

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None


class InitializationOnlyStatus(CheckpointLoadStatus):
    """The status of ``restore(None)``: nothing is restored."""

    def __init__(self):
        super().__init__((), (), (), None)

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def assert_existing_objects_matched(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")


def _read(path):
    index, data = path + ".index", path + _DATA_SUFFIX
    if not (os.path.exists(index) and os.path.exists(data)):
        raise errors.NotFoundError(
            f"Error when restoring from checkpoint or SavedModel at {path}: Unsuccessful "
            f"TensorSliceReader constructor: Failed to find any matching files for {path}\n"
            f"Please double-check that the path is correct.")
    with open(index, encoding="utf-8") as f:
        meta = json.load(f)
    if meta.get("format") != _FORMAT:
        raise errors.DataLossError(f"{index} is not a tapegrad checkpoint index")
    with open(data, "rb") as f, xp.load(io.BytesIO(f.read()), allow_pickle=False) as stored:
        return {key: stored[f"v{i}"] for i, key in enumerate(meta["keys"])}


def _write(path, pairs):
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    buffer = io.BytesIO()
    xp.savez(buffer, **{f"v{i}": v.numpy() for i, (_, v) in enumerate(pairs)})
    with open(path + _DATA_SUFFIX, "wb") as f:
        f.write(buffer.getvalue())
    with open(path + ".index", "w", encoding="utf-8") as f:
        json.dump({"format": _FORMAT, "keys": [k for k, _ in pairs]}, f)


class Checkpoint:
    """Saves and restores the variables of the objects given by keyword (see the module's
    notes for the file format). ``save`` numbers the files with ``save_counter``; ``write``
    writes exactly the given prefix."""

    def __init__(self, root=None, **kwargs):
        if root is not None:
            kwargs["root"] = root
        for name, value in kwargs.items():
            _check_trackable(name, value)
        self._children = dict(kwargs)
        self._save_counter = None

    def __getattr__(self, name):
        children = self.__dict__.get("_children", {})
        if name in children:
            return children[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        _check_trackable(name, value)
        self._children[name] = value

    @property
    def save_counter(self):
        """How many times ``save`` ran (an int64 variable, saved with the checkpoint)."""
        if self._save_counter is None:
            self._save_counter = Variable(0, dtype="int64", trainable=False, name="save_counter")
        return self._save_counter

    def _pairs(self):
        pairs = _variables_of("", self, [])
        if self._save_counter is not None:
            pairs.append(("save_counter", self._save_counter))
        return pairs

    def write(self, file_prefix, options=None):
        """Writes the variables to ``file_prefix`` (no counter, no state file); returns it."""
        path = os.fspath(file_prefix)
        _write(path, self._pairs())
        return path

    def save(self, file_prefix, options=None):
        """Adds one to ``save_counter``, writes ``file_prefix-<counter>`` and records it as the
        directory's latest checkpoint; returns that path."""
        counter = self.save_counter
        counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(counter.numpy())}")
        _write_state(os.path.dirname(path) or ".", path, [path], None)
        return path

    def read(self, save_path, options=None):
        """Restores from ``save_path`` (as ``restore``)."""
        return self.restore(save_path)

    def restore(self, save_path, options=None):
        """Assigns the saved values to the variables with the same paths; ``None`` restores
        nothing. Returns a status object."""
        if save_path is None:
            return InitializationOnlyStatus()
        path = os.fspath(save_path)
        saved = _read(path)
        if "save_counter" in saved:
            self.save_counter       # noqa: B018 - create it, so it is restored too
        pairs = self._pairs()
        restored = []
        for key, var in pairs:
            if key not in saved:
                continue
            value = saved[key]
            if tuple(value.shape) != tuple(var.shape):
                raise ValueError(f"Received incompatible tensor with shape {value.shape} when "
                                 f"attempting to restore variable with shape "
                                 f"{tuple(var.shape)} and name {var.name}.")
            var.assign(value.astype(var.numpy().dtype))
            restored.append(key)
        for prefix, obj in _unbuilt_objects("", self, []):
            _restore_when_built(obj, prefix, saved)
        return CheckpointLoadStatus(saved, restored, [k for k, _ in pairs], path)


# -- the state file and the manager ---------------------------------------------------------------
def _write_state(directory, latest, paths, timestamps, preserved=None):
    lines = [f'model_checkpoint_path: "{os.path.relpath(latest, directory)}"']
    lines += [f'all_model_checkpoint_paths: "{os.path.relpath(p, directory)}"' for p in paths]
    if timestamps is not None:
        lines += [f"all_model_checkpoint_timestamps: {t}" for t in timestamps]
        lines.append(f"last_preserved_timestamp: {preserved}")
    with open(os.path.join(directory, _STATE_FILE), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def _read_state(directory):
    """(latest path, all paths, timestamps) from ``directory/checkpoint``, or None."""
    state = os.path.join(directory, _STATE_FILE)
    if not os.path.exists(state):
        return None
    latest, paths, stamps = None, [], []
    with open(state, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.strip().partition(": ")
            if key == "model_checkpoint_path":
                latest = value.strip('"')
            elif key == "all_model_checkpoint_paths":
                paths.append(value.strip('"'))
            elif key == "all_model_checkpoint_timestamps":
                stamps.append(float(value))

    def full(p):
        return p if os.path.isabs(p) else os.path.join(directory, p)
    return (None if latest is None else full(latest)), [full(p) for p in paths], stamps


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest checkpoint recorded in ``checkpoint_dir`` (its state file), or ``None``."""
    state = _read_state(os.fspath(checkpoint_dir))
    if state is None or state[0] is None or not os.path.exists(state[0] + ".index"):
        return None
    return state[0]


class CheckpointManager:
    """Saves a checkpoint as ``directory/<checkpoint_name>-N`` and keeps the newest
    ``max_to_keep`` (``None``: all), picking up those of earlier runs from the state file."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        if not isinstance(checkpoint, Checkpoint):
            raise TypeError(f"CheckpointManager expects a tf.train.Checkpoint, got "
                            f"{type(checkpoint).__name__}")
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._init_fn = init_fn
        state = _read_state(self._directory)
        now = time.time()
        if state is None:
            self._kept, self._stamps, self._latest = [], [], None
        else:
            self._latest = state[0]
            self._kept = state[1]
            self._stamps = state[2] if len(state[2]) == len(state[1]) else [now] * len(state[1])
        self._preserved = now

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoints(self):
        """The kept checkpoints' paths, oldest first."""
        return list(self._kept)

    @property
    def latest_checkpoint(self):
        return self._kept[-1] if self._kept else None

    @property
    def checkpoint(self):
        return self._checkpoint

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Writes the next checkpoint (numbered ``checkpoint_number``, else by the checkpoint's
        ``save_counter``), records it, deletes the oldest beyond ``max_to_keep``."""
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = int(counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        if path in self._kept:
            i = self._kept.index(path)
            del self._kept[i], self._stamps[i]
        self._kept.append(path)
        self._stamps.append(time.time())
        if self._max_to_keep is not None:
            while len(self._kept) > self._max_to_keep:
                old = self._kept.pop(0)
                self._stamps.pop(0)
                for suffix in (".index", _DATA_SUFFIX):
                    if os.path.exists(old + suffix):
                        os.remove(old + suffix)
        _write_state(self._directory, path, self._kept, self._stamps, self._preserved)
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint if there is one (returns its path), else runs
        ``init_fn`` (returns ``None``)."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


# -- reading a checkpoint's values by name -------------------------------------------------------
def _resolve(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory "
                             f"{path}")
        return latest
    return path


class CheckpointReader:
    """The saved values of one checkpoint, by their names (``model/weights/0``, ``step``...;
    TensorFlow's names are longer object-graph paths)."""

    def __init__(self, path):
        self._values = _read(path)

    def get_variable_to_shape_map(self):
        return {k: list(v.shape) for k, v in self._values.items()}

    def get_variable_to_dtype_map(self):
        return {k: as_dtype(v.dtype) for k, v in self._values.items()}

    def has_tensor(self, name):
        return name in self._values

    def get_tensor(self, name):
        if name not in self._values:
            raise errors.NotFoundError(f"Key {name} not found in checkpoint")
        return self._values[name].copy()


def load_checkpoint(ckpt_dir_or_file):
    """A reader of the checkpoint at a path (or the newest one in a directory).

    >>> import os, tempfile, tapegrad as tf
    >>> path = tf.train.Checkpoint(step=tf.Variable(4)).save(os.path.join(tempfile.mkdtemp(), "c"))
    >>> tf.train.load_checkpoint(path).get_tensor("step").tolist()
    4
    """
    return CheckpointReader(_resolve(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """``(name, shape)`` of each saved value, sorted by name."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


def load_variable(ckpt_dir_or_file, name):
    """One saved value, as a NumPy array."""
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
