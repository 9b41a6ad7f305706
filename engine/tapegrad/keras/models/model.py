"""``tf.keras.Model``: a layer with ``compile``/``fit``/``evaluate``/``predict``, ``summary``
and weight saving. Subclass it (``__init__`` creates layers, ``call`` uses them) or build it
from symbolic tensors: ``tf.keras.Model(inputs, outputs)``.

>>> import tapegrad as tf
>>> class TwoLayers(tf.keras.Model):
...     def __init__(self):
...         super().__init__()
...         self.hidden = tf.keras.layers.Dense(4, activation="relu")
...         self.out = tf.keras.layers.Dense(1)
...     def call(self, x, training=False):
...         return self.out(self.hidden(x))
>>> model = TwoLayers()
>>> model(tf.ones((2, 3))).shape
TensorShape([2, 1])
>>> [w.shape for w in model.get_weights()]
[(3, 4), (4,), (4, 1), (1,)]
"""
import inspect
import json
import warnings

from ... import nest
from ...ops import zeros
from ...saved_model import export as saved_model_export
from ..layers.base import Layer
from ..layers.layer_config import dtype_policy
from ..naming import unique_name
from ..saving import keras_file
from ..serialization import deserialize_keras_object, serialize_keras_object, shape_from_json
from . import saving
from .functional import Graph, functional_config, functional_from_config
from .summary import summary_lines
from .trainer import Trainer

_COMPILE_SIGNATURE = inspect.signature(Trainer.compile)
_COMPILE_KEYS = ("optimizer", "loss", "loss_weights", "metrics", "weighted_metrics",
                 "run_eagerly", "steps_per_execution", "jit_compile")
_AUTO_CONFIG_TYPES = (str, int, float, bool, type(None))


class Model(Trainer, Layer):
    def __new__(cls, *args, **kwargs):
        if cls is Model and (len(args) >= 2 or "inputs" in kwargs or "outputs" in kwargs):
            return object.__new__(Functional)
        model = object.__new__(cls)
        object.__setattr__(model, "_auto_config", _auto_config(cls))
        return model

    def scope_label(self):
        """The model's group in the tape graph: "model:Sequential:digits_cnn" (a model, not a
        layer: the graph opens it as a frame around its layers)."""
        return f"model:{type(self).__name__}:{self.name}"

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if len(args) > 0 else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        name = kwargs.pop("name", None)
        Layer.__init__(self, name=name, **kwargs)
        self._init_trainer()
        self._graph = None
        if inputs is not None or outputs is not None:
            if inputs is None or outputs is None:
                raise ValueError("A functional model needs both `inputs` and `outputs`.")
            self._init_graph(inputs, outputs)

    def _init_graph(self, inputs, outputs):
        self._graph = Graph(inputs, outputs)
        for layer in self._graph.layers:
            if all(layer is not l for l in self._layers):
                self._layers.append(layer)
        self.built = True
        self._output_shape = nest.map_structure(lambda t: t.shape, outputs)

    # -- the functional graph -------------------------------------------------------------------
    @property
    def inputs(self):
        return list(self._graph.flat_inputs) if self._graph is not None else None

    @property
    def outputs(self):
        return list(self._graph.flat_outputs) if self._graph is not None else None

    @property
    def input(self):
        return self._graph.inputs if self._graph is not None else None

    @property
    def output(self):
        return self._graph.outputs if self._graph is not None else None

    @property
    def output_names(self):
        if self._graph is None:
            return None
        return [t._keras_history[0].name for t in self._graph.flat_outputs]

    @property
    def layers(self):
        if self._graph is not None:
            graph_layers = [l for l in self._graph.layers
                            if not getattr(l, "is_symbolic_op", False)]
            return graph_layers + [l for l in self._tracked_layers()
                                   if all(l is not g for g in self._graph.layers)]
        return Layer.layers.fget(self)

    def call(self, inputs, training=None, mask=None):
        if self._graph is None:
            raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` "
                                      f"method implemented.")
        return self._graph.run(inputs)

    def build(self, input_shape=None):
        """Marks the model built. As in Keras 3, a subclassed model's layers are not built here
        (they build on the first call): a warning says so when some are still unbuilt."""
        if any(not layer.built for layer in self._tracked_layers()):
            warnings.warn(f"`build()` was called on layer '{self.name}', however the layer does "
                          f"not have a `build()` method implemented and it looks like it has "
                          f"unbuilt state. This will cause the layer to be marked as built, "
                          f"despite not being actually built, which may cause failures down the "
                          f"line. Make sure to implement a proper `build()` method.")
        self.built = True

    def _maybe_build(self, inputs):
        if self.built:
            return
        self._build_input_shape = nest.map_structure(
            lambda x: list(x.shape) if hasattr(x, "shape") else x, inputs)
        if type(self).build is Model.build:
            self.built = True  # the sublayers build themselves during the first call
            return
        Layer._maybe_build(self, inputs)

    def get_layer(self, name=None, index=None):
        """The layer called ``name`` (or at ``index`` in ``layers``)."""
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only "
                                 f"has {len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[l.name for l in self.layers]}.")

    # -- printing and saving --------------------------------------------------------------------
    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Prints the table of layers, output shapes and parameter counts (Keras 3's layout)."""
        text = "\n".join(summary_lines(self, line_length, positions))
        if print_fn is None:
            print(text)
        else:
            print_fn(text)

    def save_weights(self, filepath, overwrite=True):
        """Writes the weights to ``filepath`` in NumPy's ``.npz`` format (see ``saving``)."""
        saving.save_weights(self, filepath, overwrite)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Reads weights written by ``save_weights`` back, in order, checking shapes."""
        saving.load_weights(self, filepath, skip_mismatch)

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Writes the model (config, weights, optimizer state) to a ``.keras`` file: Keras 3's
        zip, with the weights as ``model.weights.npz`` (see ``keras.saving.keras_file``)."""
        keras_file.save_model(self, filepath, overwrite, zipped, **kwargs)

    def export(self, filepath, format="tf_saved_model", verbose=None, input_signature=None,
               **kwargs):
        """Writes a SavedModel for serving: ``tf.saved_model.load(filepath).serve(x)`` runs the
        model in inference mode (see ``tapegrad.saved_model.export``)."""
        saved_model_export.export_model(self, filepath, format, verbose, input_signature,
                                        **kwargs)

    def to_json(self, **kwargs):
        """The model's description (``serialize_keras_object``) as JSON text."""
        return json.dumps(serialize_keras_object(self), **kwargs)

    # -- configs --------------------------------------------------------------------------------
    @property
    def _saves_layers_by_name(self):
        # a functional model's config keeps its layers' names; a subclass building a graph in
        # its own __init__ makes new ones (its weights are then found by position)
        return self._graph is not None and _functional_like(type(self))

    def get_config(self):
        """A functional model's graph; for a subclassed model, ``name``, ``trainable`` and
        ``dtype`` (with the ``__init__`` arguments of plain values when the class has no
        ``get_config`` of its own, as Keras 3)."""
        if self._graph is not None and _functional_like(type(self)):
            return functional_config(self)
        config = {"name": self.name}
        if type(self).get_config is Model.get_config:
            config.update(_checked_auto_config(self))
            if not _takes_name(type(self)):
                config.pop("name")
        return {**config, "trainable": self.trainable, "dtype": dtype_policy(self)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A functional model from its graph's config, else ``cls(**config)``."""
        keys = ("name", "layers", "input_layers", "output_layers")
        if all(k in config for k in keys) and (cls in (Model, Functional)
                                                or _functional_like(cls)):
            return functional_from_config(cls, config, custom_objects)
        try:
            return cls(**config)
        except TypeError as e:
            raise TypeError(f"Unable to revive model from config. When overriding the "
                            f"`get_config()` method, make sure that the returned config "
                            f"contains all items used as arguments in the  constructor to {cls}, "
                            f"which is the default behavior. You can override this default "
                            f"behavior by defining a `from_config(cls, config)` class method to "
                            f"specify how to create an instance of {cls.__name__} from its "
                            f"config.\n\nReceived config={config}\n\nError encountered during "
                            f"deserialization: {e}") from None

    def get_build_config(self):
        """``{"input_shape": ...}``: what the model was built for (``None`` before)."""
        if self._graph is not None:
            return {"input_shape": None}
        shape = self.__dict__.get("_build_input_shape")
        return None if shape is None else {"input_shape": shape}

    def build_from_config(self, config):
        """Builds a loaded model for ``config["input_shape"]``: with ``build`` when the class
        has its own, else by calling it once on zeros of that shape (inference mode)."""
        shape = shape_from_json((config or {}).get("input_shape"))
        if shape is None or self._graph is not None:
            return
        self._build_input_shape = config["input_shape"]
        if type(self).build is not Model.build:
            self.build(shape)
            return
        self(_zeros_for(shape), training=False)

    def compile(self, *args, **kwargs):
        """``Trainer.compile``, remembering its arguments for ``get_compile_config``."""
        bound = _COMPILE_SIGNATURE.bind(self, *args, **kwargs)
        bound.apply_defaults()
        Trainer.compile(self, *args, **kwargs)
        recorded = {key: bound.arguments[key] for key in _COMPILE_KEYS}
        recorded["optimizer"] = self.optimizer
        if recorded["jit_compile"] == "auto":
            recorded["jit_compile"] = False
        self._compile_config = recorded

    def get_compile_config(self):
        """The ``compile`` arguments as Keras describes them (the optimizer with its config),
        ``{}`` before compiling."""
        if self.compiled and "_compile_config" in self.__dict__:
            return serialize_keras_object(dict(self._compile_config))
        return {}

    def compile_from_config(self, config):
        """Compiles as ``get_compile_config`` describes, and builds the optimizer."""
        if type(self).compile is not Model.compile:
            warnings.warn("`compile()` was not called as part of model loading because the "
                          "model's `compile()` method is custom. All subclassed Models that have "
                          "`compile()` overridden should also override `get_compile_config()` "
                          "and `compile_from_config(config)`. Alternatively, you can call "
                          "`compile()` manually after loading.", stacklevel=2)
            return
        self.compile(**deserialize_keras_object(config))
        if self.built and self.optimizer is not None:
            self.optimizer.build(self.trainable_variables)


class Functional(Model):
    """The class of ``tf.keras.Model(inputs, outputs)`` (named ``functional``)."""

    def __init__(self, inputs, outputs, name=None, **kwargs):
        super().__init__(inputs=inputs, outputs=outputs,
                         name=name if name is not None else unique_name("functional"), **kwargs)


def _functional_like(cls):
    """Keras's test: a class whose ``__init__`` takes ``(inputs, outputs, name)`` as
    ``Functional``'s does."""
    def names(fn):
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][1:]
    return names(cls.__init__) == names(Functional.__init__)


def _auto_config(cls):
    """Keras 3's automatic config of a subclassed model: the defaults of its ``__init__``
    (Keras's ``Model.__new__`` passes no arguments on, so values given are not seen), ``name``
    left out; ``None`` when an argument has no default or a default is not a plain value."""
    try:
        bound = inspect.signature(cls.__init__).bind(None)
    except TypeError:
        return None
    bound.apply_defaults()
    config = {}
    for name, param in list(bound.signature.parameters.items())[1:]:
        value = bound.arguments.get(name)
        if param.kind == param.VAR_KEYWORD:
            config.update(value or {})
        elif param.kind != param.VAR_POSITIONAL:
            config[name] = value
    config.pop("name", None)
    if not all(isinstance(v, _AUTO_CONFIG_TYPES) for v in nest.flatten(config)):
        return None
    return config


# Keras's example in the error below (its text, as Keras 3.15 prints it).
_EXAMPLE = """class CustomLayer(keras.layers.Layer):
    def __init__(self, arg1, arg2, **kwargs):
        super().__init__(**kwargs)
        self.arg1 = arg1
        self.arg2 = arg2

    def get_config(self):
        config = super().get_config()
        config.update({
            "arg1": self.arg1,
            "arg2": self.arg2,
        })
        return config"""


def _checked_auto_config(model):
    """The automatic config of a model whose class has no ``get_config`` (Keras's error when
    its ``__init__`` has an argument without a plain default)."""
    auto = model.__dict__.get("_auto_config")
    if auto is None:
        raise NotImplementedError(f"\nObject {type(model).__name__} was created by passing\n"
                                  f"non-serializable argument values in `__init__()`,\nand "
                                  f"therefore the object must override `get_config()` in\norder "
                                  f"to be serializable. Please implement `get_config()`.\n\n"
                                  f"Example:\n\n\n{_EXAMPLE}")
    return dict(auto)


def _takes_name(cls):
    params = inspect.signature(cls.__init__).parameters
    return "name" in params or ("kwargs" in params
                                and params["kwargs"].kind == inspect.Parameter.VAR_KEYWORD)


def _zeros_for(shape):
    """Zeros of a build shape (a list of shapes gives a list), unknown dimensions as 1."""
    if isinstance(shape, tuple):
        return zeros(tuple(1 if d is None else d for d in shape))
    if isinstance(shape, dict):
        return {k: _zeros_for(v) for k, v in shape.items()}
    return [_zeros_for(s) for s in shape]
