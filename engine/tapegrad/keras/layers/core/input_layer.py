"""``tf.keras.Input`` and its ``InputLayer``: where a functional model's symbolic tensors start."""
from ...naming import unique_name
from ...symbolic import KerasTensor, Node
from ..base import Layer
from ..input_spec import standardize_shape


class InputLayer(Layer):
    """The layer behind ``tf.keras.Input``: it has no weights and passes its input through."""

    def __init__(self, shape=None, batch_size=None, dtype=None, batch_shape=None, name=None,
                 sparse=None, ragged=None, **kwargs):
        super().__init__(name=name if name is not None else unique_name("input_layer"),
                         dtype=dtype)
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + standardize_shape(shape)
        else:
            batch_shape = standardize_shape(batch_shape)
        if sparse and ragged:
            raise ValueError("KerasTensor cannot have `sparse=True` and `ragged=True` at the "
                             "same time.")
        if ragged:
            raise NotImplementedError("keras.Input(ragged=True): ragged inputs are not "
                                      "implemented by tapegrad")
        self.batch_shape = batch_shape
        self.sparse = bool(sparse)
        self.built = True
        self.output = KerasTensor(self.batch_shape, self.dtype_policy, name=name)
        self.output.sparse = self.sparse
        node = Node(self, (), {}, self.output)
        self.output._keras_history = (self, node, 0)
        self._output_shape = self.batch_shape

    def call(self, inputs):
        return inputs

    def get_config(self):
        """Keras 3's InputLayer config (no ``trainable``; the dtype by name)."""
        return {"batch_shape": self.batch_shape, "dtype": self.dtype, "sparse": self.sparse,
                "ragged": False, "name": self.name, "optional": False}

    @classmethod
    def from_config(cls, config):
        return cls(batch_shape=config["batch_shape"], dtype=config.get("dtype"),
                   name=config.get("name"), sparse=config.get("sparse"))


def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None, batch_shape=None,
          name=None, tensor=None, optional=False):
    """A symbolic input of ``shape`` (without the batch dimension).

    >>> import tapegrad as tf
    >>> tf.keras.Input(shape=(4,)).shape
    (None, 4)

    With ``sparse=True`` the model takes a ``tf.sparse.SparseTensor`` there (a ``Dense`` layer
    multiplies it as Keras's TensorFlow backend does; see ``Dense``).
    """
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, batch_shape=batch_shape,
                       name=name, sparse=sparse, ragged=ragged)
    return layer.output
