"""``tf.keras.Sequential``: layers applied one after another.

>>> import tapegrad as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
...                              tf.keras.layers.Dense(1)])
>>> model(tf.ones((2, 4))).shape
TensorShape([2, 1])
"""
from ..layers.base import Layer
from ..layers.layer_config import dtype_policy
from ..serialization import (deserialize_keras_object, records_build_shape, serialize_keras_object,
                             shape_from_json)
from ..symbolic import KerasTensor
from .functional import Input, InputLayer
from ..naming import unique_name
from .model import Model


class Sequential(Model):
    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(name=name, trainable=trainable)
        self._input_layer = None
        for layer in layers or ():
            self.add(layer)

    def _uses_name_scope(self):
        # No name scope of its own: the layers' variables are named 'dense/kernel:0' etc.
        return False

    def add(self, layer, rebuild=True):
        """Appends a layer (or a ``tf.keras.Input``, which fixes the input shape)."""
        if isinstance(layer, KerasTensor):
            layer = layer._keras_history[0]
        if isinstance(layer, InputLayer):
            if self._input_layer is not None or self.layers:
                raise ValueError("Sequential model: an Input can only be the first layer.")
            self._input_layer = layer
            self._layers.append(layer)
            return
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential "
                             f"model. Received: {layer} (of type {type(layer)})")
        if any(layer is l for l in self._layers):
            raise ValueError(f"The layer {layer.name} is already in this model.")
        if self._input_layer is None and not self.layers and layer._input_shape_arg is not None:
            self._input_layer = InputLayer(batch_shape=layer._input_shape_arg)
            self._layers.append(self._input_layer)
        self._layers.append(layer)
        if rebuild and self._input_layer is not None:
            self._build_symbolic()

    def pop(self, rebuild=True):
        """Removes and returns the last layer."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        layer = self.layers[-1]
        self._layers.remove(layer)
        if rebuild and self._input_layer is not None and self.layers:
            self._build_symbolic()
        return layer

    def _build_symbolic(self):
        x = self._input_layer.output
        with self._own_scope():      # the layers' variables' paths start with the model's name
            for layer in self.layers:
                x = layer(x)
        self.built = True
        self._output_shape = x.shape
        unique_name("functional")  # Keras wraps the layers in a functional model here

    def build(self, input_shape=None):
        self._refuse_no_layers()
        if input_shape is None:
            if self._input_layer is None:
                raise ValueError("You must provide an `input_shape` argument.")
            input_shape = self._input_layer.batch_shape
        if self._input_layer is None:
            self._input_layer = Input(batch_shape=tuple(input_shape))._keras_history[0]
            self._layers.insert(0, self._input_layer)
        self._build_symbolic()

    def _refuse_no_layers(self):
        if not self.layers:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no "
                             "layers. Call `model.add(layer)`.")

    def _maybe_build(self, inputs):
        self._refuse_no_layers()
        # The layers build themselves during the first call: no symbolic pass (an active tape
        # would record it). The names Keras's symbolic build takes are taken all the same, so
        # later default names (input_layer_1, functional_1...) agree with Keras's.
        if not self.built and self._input_layer is None:
            self._build_input_shape = list(getattr(inputs, "shape", ())) or None
            self._build_input_name = unique_name("input_layer")
            for _ in range(len(self.layers) + 1):
                unique_name("keras_tensor")
            unique_name("functional")
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self.layers:
            x = layer(x)
            if layer._output_shape is None and hasattr(x, "shape"):
                layer._output_shape = tuple(x.shape)  # summary() shows it, as Keras does
        return x

    @property
    def input_shape(self):
        if self._input_layer is None:
            raise AttributeError("The model has no defined input shape yet.")
        return self._input_layer.batch_shape

    # -- config ---------------------------------------------------------------------------------
    @property
    def _saves_layers_by_name(self):
        return True

    def get_config(self):
        """Keras 3's Sequential config: ``name``, ``trainable``, ``dtype``, every layer's
        description (the ``InputLayer`` first when there is one) and ``build_input_shape``."""
        config = {"name": self.name, "trainable": self.trainable, "dtype": dtype_policy(self),
                  "layers": [serialize_keras_object(layer) for layer in self._layers]}
        if self._input_layer is not None:
            config["build_input_shape"] = self._input_layer.batch_shape
        elif self.__dict__.get("_build_input_shape") is not None:
            self._describe_eager_build(config)
        return config

    def _describe_eager_build(self, config):
        """A model built by a call on data, described as Keras describes it: an InputLayer of
        that batch shape first, each layer's build shape, ``build_input_shape``."""
        shape = list(self._build_input_shape)
        config["layers"].insert(0, {
            "module": "keras.layers", "class_name": "InputLayer",
            "config": {"batch_shape": shape, "dtype": self.dtype, "sparse": False,
                       "ragged": False, "name": self._build_input_name, "optional": False},
            "registered_name": None})
        for layer, description in zip(self._layers, config["layers"][1:]):
            if shape is not None and records_build_shape(layer):
                description.setdefault("build_config", {"input_shape": shape})
            out = layer._output_shape
            shape = list(out) if isinstance(out, tuple) else None
        config["build_input_shape"] = list(self._build_input_shape)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if "name" not in config or "layers" not in config:
            raise ValueError(f"A Sequential model configuration must be a dictionary "
                             f"containing the 'name' and 'layers' keys. Received: "
                             f"config={config}")
        model = cls(name=config["name"])
        for layer_config in config["layers"]:
            model.add(deserialize_keras_object(layer_config, custom_objects))
        shape = shape_from_json(config.get("build_input_shape"))
        if not model.built and isinstance(shape, tuple):
            model.build(shape)
        return model   # its "trainable" is not applied (Keras 3.15 leaves it too)

    def get_build_config(self):
        if self._input_layer is not None:
            return {"input_shape": self._input_layer.batch_shape}
        shape = self.__dict__.get("_build_input_shape")
        return None if shape is None else {"input_shape": shape}

    def build_from_config(self, config):
        shape = shape_from_json((config or {}).get("input_shape"))
        if isinstance(shape, tuple) and self._input_layer is None:
            self.build(shape)
