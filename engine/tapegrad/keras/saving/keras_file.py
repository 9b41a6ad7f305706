"""``model.save("m.keras")`` and ``keras.models.load_model``: Keras 3's ``.keras`` zip.

The archive holds what Keras 3 puts there, under the same names, except for the weights:

- ``metadata.json``: ``{"keras_version": "3.15.1", "date_saved": "2026-11-27@22:36:55"}``;
- ``config.json``: the model as ``serialize_keras_object`` describes it (its class, its config,
  its ``build_config`` and ``compile_config``), the JSON Keras 3 writes;
- ``model.weights.npz`` (where Keras writes ``model.weights.h5``, HDF5, which needs h5py): a NumPy
  ``.npz`` of plain arrays (no pickles), one per variable, named by the path Keras's HDF5 file
  uses for it: ``layers/<layer name>/vars/<i>`` for the layers of a Sequential or functional
  model, ``<attribute>/vars/<i>`` for the layers a subclassed model holds in its attributes
  (``<attribute>/<i>`` for lists, ``<attribute>/<key>`` for dicts, nested the same way),
  ``vars/<i>`` for a model's own variables and ``optimizer/vars/<i>`` for the optimizer's
  (iterations, learning rate, then its slots, in ``optimizer.variables`` order); variables no
  attribute leads to (a subclass that builds a functional graph in its ``__init__``) come last
  as ``extra/vars/<i>``, in ``model.weights`` order.

So Keras cannot read these files (it expects HDF5) and tapegrad cannot read Keras's; the config
JSON is the same. ``zipped=False`` writes the three files into a folder instead.

>>> import os, tempfile
>>> import tapegrad as tf
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> path = os.path.join(tempfile.mkdtemp(), "m.keras")
>>> model.save(path)
>>> import zipfile; zipfile.ZipFile(path).namelist()
['metadata.json', 'config.json', 'model.weights.npz']
>>> back = tf.keras.models.load_model(path)
>>> bool((back(tf.ones((1, 3))) == model(tf.ones((1, 3)))).numpy().all())
True
"""
import datetime
import io
import json
import os
import warnings
import zipfile

from ...backend import xp
from ..serialization import CustomObjectScope, deserialize_keras_object, serialize_keras_object

KERAS_VERSION = "3.15.1"   # the Keras whose layout and config JSON these files follow
CONFIG_FILE = "config.json"
METADATA_FILE = "metadata.json"
WEIGHTS_FILE = "model.weights.npz"


# ---------------------------------------------------------------- variables by path
def _own_variables(layer):
    own = getattr(layer, "_own_weights", None)
    if own is None:
        return []
    frozen = getattr(layer, "_frozen_ids", set())
    return [w for w in own if id(w) not in frozen] + [w for w in own if id(w) in frozen]


def _children(layer):
    """(path part, layer) for the layers ``layer`` holds: by name for a model whose layers are a
    list (Sequential, functional), else by the attributes that hold them."""
    if getattr(layer, "_saves_layers_by_name", False):
        return [(f"layers/{child.name}", child) for child in layer.layers]
    found = []
    for name, value in vars(layer).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (list, tuple)):
            found += [(f"{name}/{i}", v) for i, v in enumerate(value) if _is_layer(v)]
        elif isinstance(value, dict):
            found += [(f"{name}/{k}", v) for k, v in value.items() if _is_layer(v)]
        elif _is_layer(value) and value is not layer:
            found.append((name, value))
    return found


def _is_layer(value):
    return hasattr(value, "_own_weights") and hasattr(value, "weights")


def variable_paths(model):
    """``{path: variable}`` for every variable of ``model`` (each once, at its first path);
    variables the walk does not reach (held in private attributes) come last as
    ``extra/vars/<i>``."""
    paths, seen = {}, set()
    pending = [("", model)]
    while pending:
        prefix, layer = pending.pop(0)
        for i, v in enumerate(_own_variables(layer)):
            if id(v) not in seen:
                seen.add(id(v))
                paths[f"{prefix}vars/{i}"] = v
        pending += [(f"{prefix}{part}/", child) for part, child in _children(layer)]
    rest = [w for w in model.weights if id(w) not in seen]
    for i, v in enumerate(rest):
        paths[f"extra/vars/{i}"] = v
    return paths


def weights_npz(model):
    """The ``model.weights.npz`` bytes: model variables, then the optimizer's when built."""
    arrays = {path: xp.asarray(v.numpy()) for path, v in variable_paths(model).items()}
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and getattr(optimizer, "built", False):
        for i, v in enumerate(optimizer.variables):
            arrays[f"optimizer/vars/{i}"] = xp.asarray(v.numpy())
    buffer = io.BytesIO()
    xp.savez(buffer, **arrays)
    return buffer.getvalue()


def load_weights_npz(model, data, with_optimizer=True):
    """Assigns the arrays of ``weights_npz`` bytes back, checking names and shapes."""
    with xp.load(io.BytesIO(data), allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files}
    for path, v in variable_paths(model).items():
        if path not in arrays:
            raise ValueError(f"The saved weights have no value for '{path}' ({v.name}): the file "
                             f"was written by a different model.")
        _assign(v, arrays[path], path)
    optimizer = getattr(model, "optimizer", None)
    saved = sorted((k for k in arrays if k.startswith("optimizer/vars/")),
                   key=lambda k: int(k.rsplit("/", 1)[1]))
    if not with_optimizer or optimizer is None or not saved:
        return
    if not optimizer.built:
        optimizer.build(model.trainable_variables)
    if len(saved) != len(optimizer.variables):
        warnings.warn(f"Skipping variable loading for optimizer '{optimizer.name}', because it "
                      f"has {len(optimizer.variables)} variables whereas the saved optimizer "
                      f"has {len(saved)} variables. ")
        return
    for v, key in zip(optimizer.variables, saved):
        _assign(v, arrays[key], key)


def _assign(variable, value, path):
    if tuple(variable.shape) != tuple(value.shape):
        raise ValueError(f"The variable at '{path}' has shape {tuple(variable.shape)}, but the "
                         f"saved value has shape {tuple(value.shape)}.")
    variable.assign(value.astype(variable.dtype.as_numpy_dtype))


# ---------------------------------------------------------------- saving
saved_hooks = []   # called with the path of each .keras file written (the playground keeps them)


def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Writes ``model`` to ``filepath`` (a ``.keras`` file: see the module docstring)."""
    path = os.fspath(filepath)
    kwargs.pop("include_optimizer", True)
    save_format = kwargs.pop("save_format", False)
    if save_format and not path.endswith((".h5", ".hdf5", ".keras")):
        raise ValueError(f"The `save_format` argument is deprecated in Keras 3. Please remove "
                         f"this argument and pass a file path with either `.keras` or `.h5` "
                         f"extension.Received: save_format={save_format}")
    if kwargs:
        raise ValueError(f"The following argument(s) are not supported: {list(kwargs.keys())}")
    if os.path.exists(path) and not overwrite and not _ask_to_overwrite(path):
        return
    zipped = True if zipped is None else zipped
    if zipped and path.endswith((".h5", ".hdf5")):
        raise ImportError("`save_model()` using h5 format requires h5py. Could not import h5py.")
    if zipped and not path.endswith(".keras"):
        raise ValueError(f"Invalid filepath extension for saving. Please add either a `.keras` "
                         f"extension for the native Keras format (recommended) or a `.h5` "
                         f"extension. Use `model.export(filepath)` if you want to export a "
                         f"SavedModel for use with TFLite/TFServing/etc. Received: "
                         f"filepath={path}.")
    if not model.built:
        warnings.warn("You are saving a model that has not yet been built. It might not contain "
                      "any weights yet. Consider building the model first by calling it on "
                      "some data.", stacklevel=2)
    files = {METADATA_FILE: json.dumps(_metadata()).encode(),
             CONFIG_FILE: json.dumps(serialize_keras_object(model)).encode(),
             WEIGHTS_FILE: weights_npz(model)}
    if zipped:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
            for name, data in files.items():
                archive.writestr(name, data)
        for hook in saved_hooks:
            hook(path)
        return
    os.makedirs(path, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)


def _metadata():
    date = datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")
    return {"keras_version": KERAS_VERSION, "date_saved": date}


def _ask_to_overwrite(path):
    answer = input(f"[WARNING] {path} already exists - overwrite? [y/n]").strip().lower()
    while answer not in ("y", "n"):
        answer = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
    return answer == "y"


# ---------------------------------------------------------------- loading
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """The model a ``.keras`` file (or folder) written by ``save_model`` holds, compiled as it
    was when ``compile`` is true, its optimizer's state restored."""
    path = os.fspath(filepath)
    if path.endswith(".keras") and os.path.isfile(path) and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            files = _read_files(path, lambda name: archive.read(name), archive.namelist())
    elif os.path.isdir(path) and os.path.exists(os.path.join(path, CONFIG_FILE)):
        files = _read_files(path, lambda name: _read(os.path.join(path, name)),
                            os.listdir(path))
    elif path.endswith((".h5", ".hdf5")):
        raise ImportError("`load_model()` using h5 format requires h5py. Could not import h5py.")
    elif path.endswith(".keras"):
        raise ValueError(f"File not found: filepath={path}. Please ensure the file is an "
                         f"accessible `.keras` zip file.")
    else:
        raise ValueError(f"File format not supported: filepath={path}. Keras 3 only supports V3 "
                         f"`.keras` files, legacy H5 format files (`.h5` extension). Note that "
                         f"the legacy SavedModel format is not supported by `load_model()` in "
                         f"Keras 3. In order to reload a TensorFlow SavedModel as an "
                         f"inference-only layer in Keras 3, use `keras.layers.TFSMLayer({path}, "
                         f"call_endpoint='serving_default')` (note that your `call_endpoint` "
                         f"might have a different name).")
    config = json.loads(files[CONFIG_FILE])
    if not compile:
        config.pop("compile_config", None)
    with CustomObjectScope(custom_objects or {}):
        model = deserialize_keras_object(config, custom_objects, safe_mode=safe_mode)
    load_weights_npz(model, files[WEIGHTS_FILE], with_optimizer=compile)
    return model


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _read_files(path, read, names):
    if WEIGHTS_FILE not in names:
        raise ValueError(f"Expected a {WEIGHTS_FILE} file in {path}: the model.weights.h5 of a "
                         f"file written by Keras needs h5py, which tapegrad does not use.")
    return {name: read(name) for name in (CONFIG_FILE, WEIGHTS_FILE)}


def model_from_json(json_string, custom_objects=None):
    """The model ``model.to_json()`` describes (new weights; not compiled unless the JSON says
    how)."""
    return deserialize_keras_object(json.loads(json_string), custom_objects)


def clone_model(model, input_tensors=None, clone_function=None, call_function=None,
                recursive=False, **kwargs):
    """A new model of the same architecture (its layers from their configs, new weights, not
    compiled)."""
    if input_tensors is not None or clone_function is not None or call_function is not None \
            or recursive or kwargs:
        raise NotImplementedError("clone_model: input_tensors, clone_function, call_function "
                                  "and recursive are not implemented")
    config = serialize_keras_object(model)
    config.pop("compile_config", None)
    return deserialize_keras_object(config)
