"""The one Keras serialization registry: every Keras object (layer, model, loss, metric,
optimizer, learning-rate schedule, initializer, regularizer, constraint, activation) is described
and rebuilt here, in Keras 3's JSON form::

    {"module": "keras.losses", "class_name": "Huber", "config": {...}, "registered_name": None}

A function is ``{"module": "builtins", "class_name": "function", "config": <its registered
name>, "registered_name": "function"}``. Each Keras package lends its public names to the
registry (``publish``); user classes and functions join with ``register_keras_serializable``.
The kinds' ``get`` / ``serialize`` / ``deserialize`` (``tf.keras.losses.get``...) and
``keras.saving``'s functions all go through this module.

>>> import tapegrad as tf
>>> S = tf.keras.saving
>>> S.serialize_keras_object(tf.keras.regularizers.L2(0.5))
{'module': 'keras.regularizers', 'class_name': 'L2', 'config': {'l2': 0.5}, 'registered_name': None}
>>> @S.register_keras_serializable(package="Demo")
... def twice(x):
...     return 2 * x
>>> S.serialize_keras_object(twice)["config"]
'Demo>twice'
>>> S.deserialize_keras_object(S.serialize_keras_object(twice)) is twice
True
"""
import base64
import inspect
import marshal
import sys
import types

from .. import nest
from ..backend import xp
from ..tensor import Tensor, convert_to_tensor

_PUBLIC = {}          # Keras module name ("keras.losses") -> {public name: class or function}
_HOME = {}            # class -> the first Keras module that published it
_CUSTOM = {}          # registered name ("Custom>Foo") -> user class or function
_REGISTERED = {}      # user class or function -> its registered name
_SCOPES = []          # the dicts of the custom_object_scope blocks now open
_SAFE_MODE = []       # the safe_mode of each deserialization in progress (innermost last)
# Where a serialized function of module "builtins" is looked for, in this order (as Keras).
_FUNCTION_HOMES = ("keras.activations", "keras.constraints", "keras.initializers",
                   "keras.losses", "keras.metrics", "keras.regularizers")
_PLAIN = (str, int, float, bool)


def publish(module, table):
    """Lends the registry the public names of one Keras module; returns ``table``."""
    _PUBLIC.setdefault(module, {}).update(table)
    for obj in table.values():
        if inspect.isclass(obj):
            _HOME.setdefault(obj, module)
    return table


# ---------------------------------------------------------------- registering user objects

def register_keras_serializable(package="Custom", name=None):
    """A decorator adding a class or function to the registry as ``"package>name"`` (the
    name defaults to the object's own), so that ``deserialize_keras_object`` can find it."""
    def decorate(obj):
        registered = f"{package}>{name or obj.__name__}"
        if inspect.isclass(obj) and not hasattr(obj, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _CUSTOM[registered] = obj
        _REGISTERED[obj] = registered
        return obj
    return decorate


def get_registered_name(obj):
    """The name ``obj`` is registered under (``"package>name"``), else its own ``__name__``."""
    return _REGISTERED.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The class or function ``name`` stands for: open custom object scopes first, then
    registered objects, ``custom_objects`` and ``module_objects``; ``None`` when unknown."""
    for table in reversed(_SCOPES):
        if name in table:
            return table[name]
    for table in (_CUSTOM, custom_objects, module_objects):
        if table and name in table:
            return table[name]
    return None


class CustomObjectScope:
    """``with custom_object_scope({"Name": cls}):`` makes names known to deserialization."""

    def __init__(self, custom_objects=None):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        _SCOPES.append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _SCOPES.remove(self.custom_objects)


custom_object_scope = CustomObjectScope


# ---------------------------------------------------------------- serializing

def serialize_keras_object(obj):
    """``obj`` as Keras 3 describes it: plain values as they are, lists and dicts item by item,
    functions by registered name, objects by ``get_config()`` with their module and class."""
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(serialize_keras_object(x) for x in obj)
    if isinstance(obj, dict):
        return {key: serialize_keras_object(value) for key, value in obj.items()}
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, Tensor):
        return {"class_name": "__tensor__",
                "config": {"value": obj.numpy().tolist(), "dtype": obj.dtype.name}}
    if isinstance(obj, xp.ndarray) and obj.ndim > 0:
        return {"class_name": "__numpy__",
                "config": {"value": obj.tolist(), "dtype": str(obj.dtype)}}
    if isinstance(obj, slice):
        return {"class_name": "__slice__", "config": {"start": obj.start, "stop": obj.stop,
                                                      "step": obj.step}}
    if isinstance(obj, types.FunctionType) and obj.__name__ == "<lambda>":
        return {"class_name": "__lambda__",
                "config": {"value": list(lambda_description(obj)["config"].values())}}
    if isinstance(obj, types.FunctionType):
        return {"module": "builtins", "class_name": "function",
                "config": get_registered_name(obj), "registered_name": "function"}
    if not hasattr(obj, "get_config"):
        raise TypeError(f"Cannot serialize {obj!r}: it has no get_config() method")
    description = _describe(obj, serialize_keras_object(obj.get_config()))
    build_config = _build_config(obj)
    if build_config is not None:
        description["build_config"] = serialize_keras_object(build_config)
    if hasattr(obj, "get_compile_config"):
        compile_config = obj.get_compile_config()
        if compile_config is not None:
            description["compile_config"] = serialize_keras_object(compile_config)
    return description


def _describe(obj, config):
    cls = type(obj)
    home = _HOME.get(cls)
    if home is not None and cls not in _REGISTERED:
        # a class Keras does not export (Functional) keeps its private module and its name
        private = home.startswith("keras.src.")
        return {"module": home, "class_name": cls.__name__, "config": config,
                "registered_name": cls.__name__ if private else None}
    module = cls.__module__
    return {"module": None if module == "__main__" else module, "class_name": cls.__name__,
            "config": config, "registered_name": get_registered_name(cls)}


def _build_config(obj):
    """Keras's ``build_config`` of a layer: ``get_build_config()`` where the object has one,
    else the input shape of the first symbolic call of a built layer (``None`` when unknown)."""
    if hasattr(obj, "get_build_config"):
        return obj.get_build_config()
    nodes = getattr(obj, "_inbound_nodes", None)
    if not nodes or not nodes[0].args or not records_build_shape(obj):
        return None
    first = nodes[0].args[0]
    shapes = nest.map_structure(lambda t: list(t.shape) if hasattr(t, "_keras_history") else t,
                                first)
    return {"input_shape": shapes}


# ---------------------------------------------------------------- deserializing

def deserialize_keras_object(config, custom_objects=None, safe_mode=True, module_objects=None):
    """The object a ``serialize_keras_object`` description stands for. With ``module_objects``
    (a kind's table of names, as the kinds' ``deserialize`` pass), a bare name is looked up in
    it and a name it does not know comes back unchanged. ``safe_mode`` (unless an outer call
    already chose) refuses the Python lambdas a description holds."""
    outer = in_safe_mode()
    _SAFE_MODE.append(safe_mode if outer is None else outer)
    try:
        return _deserialize(config, custom_objects, safe_mode, module_objects)
    finally:
        _SAFE_MODE.pop()


def in_safe_mode():
    """The ``safe_mode`` of the deserialization in progress (``None`` outside one)."""
    return _SAFE_MODE[-1] if _SAFE_MODE else None


def _deserialize(config, custom_objects, safe_mode, module_objects):
    if config is None:
        return None
    custom_objects = _known(custom_objects)
    if isinstance(config, str) and config in custom_objects:
        return custom_objects[config]
    if isinstance(config, (list, tuple)):
        return [deserialize_keras_object(x, custom_objects, safe_mode) for x in config]
    if module_objects is not None:
        return _from_kind_table(config, custom_objects, module_objects)
    if isinstance(config, _PLAIN):
        return config
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {key: deserialize_keras_object(value, custom_objects, safe_mode)
                for key, value in config.items()}
    if config["class_name"] == "__lambda__":
        return load_lambda(config, "a Python lambda")
    if config["class_name"] == "__tensor__":
        return convert_to_tensor(config["config"]["value"], dtype=config["config"]["dtype"])
    if config["class_name"] == "__numpy__":
        return xp.asarray(config["config"]["value"], dtype=config["config"]["dtype"])
    if config["class_name"] == "__slice__":
        return slice(config["config"]["start"], config["config"]["stop"],
                     config["config"]["step"])
    return _rebuild(config, custom_objects)


# ---------------------------------------------------------------- Python lambdas
def lambda_description(fn):
    """A Python lambda as Keras's ``Lambda`` layer describes it: its bytecode (``marshal``,
    base64: readable only by the same Python version), defaults and closure values."""
    closure = tuple(c.cell_contents for c in fn.__closure__) if fn.__closure__ else None
    code = base64.encodebytes(marshal.dumps(fn.__code__)).decode("ascii")
    return {"class_name": "__lambda__",
            "config": {"code": code, "defaults": fn.__defaults__, "closure": closure}}


def load_lambda(description, what="a Python lambda"):
    """The lambda a ``lambda_description`` holds; refused (Keras's ValueError) in safe mode."""
    if in_safe_mode() is not False:
        raise ValueError(f"Requested the deserialization of {what}. This carries a potential "
                         f"risk of arbitrary code execution and thus it is disallowed by "
                         f"default. If you trust the source of the artifact, you can override "
                         f"this error by passing `safe_mode=False` to the loading function, or "
                         f"calling `keras.config.enable_unsafe_deserialization().")
    config = description["config"]
    if "value" in config:   # serialize_keras_object's form: [code, defaults, closure]
        config = dict(zip(("code", "defaults", "closure"), config["value"]))
    code = marshal.loads(base64.decodebytes(config["code"].encode("ascii")))
    closure = config.get("closure")
    cells = tuple(types.CellType(v) for v in closure) if closure is not None else None
    defaults = tuple(config["defaults"]) if config.get("defaults") is not None else None
    return types.FunctionType(code, {"__builtins__": __builtins__}, code.co_name, defaults,
                              cells)


def _known(custom_objects):
    """``custom_objects`` with the open scopes' objects and the registered ones (Keras's
    order: registered names win)."""
    known = dict(custom_objects or {})
    for table in _SCOPES:
        known.update(table)
    known.update(_CUSTOM)
    return known


def _from_kind_table(config, custom_objects, module_objects):
    """Keras's lookup through one kind's table (``losses.deserialize`` and the like)."""
    inner = None
    if isinstance(config, dict):
        if "class_name" not in config:
            raise ValueError(f"Unknown `config` as a `dict`, config={config}")
        inner = config.get("config")
        if (config["class_name"] in custom_objects
                or config.get("registered_name") in custom_objects
                or (isinstance(inner, str) and inner in custom_objects)):
            return _rebuild(config, custom_objects)
        if config["class_name"] == "function":
            name = config["config"] if config.get("module") == "builtins" \
                else config.get("registered_name")
        elif config.get("module", "_") is None:
            raise TypeError(f"Cannot deserialize object of type `{config['class_name']}`. If "
                            f"`{config['class_name']}` is a custom class, please register it "
                            f"using the `@keras.saving.register_keras_serializable()` "
                            f"decorator.")
        else:
            name = config["class_name"]
    else:
        name = config
    if not isinstance(name, str) or name not in module_objects:
        return name
    found = module_objects[name]
    if isinstance(found, types.FunctionType):
        return found
    return _instantiate(found, inner, config, custom_objects)


def _rebuild(config, custom_objects):
    class_name = config["class_name"]
    inner = config.get("config")
    module = config.get("module")
    if class_name == "function":
        return _locate(inner, config.get("registered_name"), module, "function", config,
                       custom_objects)
    cls = _locate(class_name, config.get("registered_name", class_name), module, "class",
                  config, custom_objects)
    if isinstance(cls, types.FunctionType):
        return cls
    obj = _instantiate(cls, inner, config, custom_objects)
    with CustomObjectScope(custom_objects):
        _restore_state(obj, config.get("build_config"), config.get("compile_config"))
    return obj


def _restore_state(obj, build_config, compile_config):
    """As Keras's deserialization: builds an object its ``build_config`` describes (unless
    built already) and compiles a model its ``compile_config`` describes."""
    if build_config and not getattr(obj, "built", True):
        if hasattr(obj, "build_from_config"):
            obj.build_from_config(build_config)
        elif "input_shape" in build_config and hasattr(obj, "build"):
            obj.build(shape_from_json(build_config["input_shape"]))
        obj.built = True
    if compile_config and hasattr(obj, "compile_from_config"):
        obj.compile_from_config(compile_config)


# Keras 3.15's layers that are built when made (no state to create), so that their descriptions
# carry no ``build_config`` (found by making each layer of keras.layers and reading ``built``).
_BUILT_WHEN_MADE = frozenset((
    "Activation ActivityRegularization AlphaDropout AveragePooling1D AveragePooling2D "
    "AveragePooling3D AvgPool1D AvgPool2D AvgPool3D Dropout ELU GaussianDropout GaussianNoise "
    "GlobalAveragePooling1D GlobalAveragePooling2D GlobalAveragePooling3D GlobalAvgPool1D "
    "GlobalAvgPool2D GlobalAvgPool3D GlobalMaxPool1D GlobalMaxPool2D GlobalMaxPool3D "
    "GlobalMaxPooling1D GlobalMaxPooling2D GlobalMaxPooling3D Identity InputLayer LeakyReLU "
    "Masking MaxPool1D MaxPool2D MaxPool3D MaxPooling1D MaxPooling2D MaxPooling3D ReLU Reshape "
    "Softmax SpatialDropout1D SpatialDropout2D SpatialDropout3D UnitNormalization").split())


def records_build_shape(layer):
    """Whether Keras's description of ``layer`` carries its build shape: every layer but the
    Keras layers built when made."""
    cls = type(layer)
    return not (cls in _HOME and cls.__name__ in _BUILT_WHEN_MADE)


def shape_from_json(shape):
    """A build config's shape with JSON's lists back as tuples (a list of shapes stays a
    list; dicts map)."""
    if isinstance(shape, dict):
        return {k: shape_from_json(v) for k, v in shape.items()}
    if isinstance(shape, (list, tuple)) and all(d is None or isinstance(d, int) for d in shape):
        return tuple(shape)
    if isinstance(shape, (list, tuple)):
        return [shape_from_json(s) for s in shape]
    return shape


def _instantiate(cls, inner, config, custom_objects):
    """``cls.from_config(inner)``, with ``custom_objects`` known while it runs."""
    if not hasattr(cls, "from_config"):
        raise TypeError(f"Unable to reconstruct an instance of '{cls.__name__}' because the "
                        f"class is missing a `from_config()` method. Full object config: "
                        f"{config}")
    with CustomObjectScope(custom_objects):
        try:
            return cls.from_config(inner or {})
        except TypeError as e:
            raise TypeError(f"{cls} could not be deserialized properly. Please ensure that "
                            f"components that are Python object instances (layers, models, "
                            f"etc.) returned by `get_config()` are explicitly deserialized in "
                            f"the model's `from_config()` method.\n\nconfig={config}.\n\n"
                            f"Exception encountered: {e}") from None


def _locate(name, registered_name, module, kind, full_config, custom_objects):
    """The class or function a description names: registered or custom objects first, then
    Keras's public names, then (for a user module already imported) the module itself."""
    found = get_registered_object(name if kind == "function" else registered_name,
                                  custom_objects)
    if found is None and module in _PUBLIC:
        found = _PUBLIC[module].get(name)
    if found is None and kind == "function" and module == "builtins":
        found = next((_PUBLIC[home][name] for home in _FUNCTION_HOMES
                      if name in _PUBLIC.get(home, {})), None)
    if found is None and module in sys.modules:
        found = getattr(sys.modules[module], name, None)
    if found is None and isinstance(module, str) and module.split(".")[0] == "keras":
        raise ValueError(f"Could not deserialize '{module}.{name}' because it is not a "
                         f"KerasSaveable subclass")
    if found is None:
        raise TypeError(f"Could not locate {kind} '{name}'. Make sure custom classes and "
                        f"functions are decorated with "
                        f"`@keras.saving.register_keras_serializable()`. If they are already "
                        f"decorated, make sure they are all imported so that the decorator is "
                        f"run before trying to load them. Full object config: {full_config}")
    return found


# ---------------------------------------------------------------- the kinds' ``get``

def get(identifier, module_objects, kind, from_name=None):
    """Keras's ``get`` of one kind: ``None`` stays ``None``; a dict is deserialized; a name is
    looked up (``from_name(name)`` when the kind has its own rule) and a class is instantiated
    with its defaults; a callable comes back as it is. Else ``ValueError``."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize_keras_object(identifier, module_objects=module_objects)
    elif isinstance(identifier, str):
        obj = from_name(identifier) if from_name else module_objects.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret {kind} identifier: {identifier}")
