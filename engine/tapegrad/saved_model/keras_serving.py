"""The serving functions of a Keras model: what ``tf.saved_model.save`` saves as a Keras model's
``serving_default`` signature and what ``model.export`` saves as its ``serve`` endpoint.

The model is known by what every tapegrad Keras model keeps (its functional graph, a
Sequential's input layer, a subclassed model's first input shape), not by importing Keras: Keras
sits above this package (``keras.models`` imports it for ``export``).
"""
import inspect

from .. import dtypes, nest
from ..function import Function
from ..tensor_spec import TensorSpec


def _spec(t, name, batch_known):
    dims = None if t.shape is None else list(t.shape)
    if dims and not batch_known:
        dims[0] = None
    return TensorSpec(dims, dtypes.as_dtype(getattr(t, "dtype", None) or "float32"), name)


class _Shape:
    def __init__(self, dims):
        self.shape, self.dtype = dims, "float32"


def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(d is None or isinstance(d, int)
                                                    for d in value)


def input_structure(model, batch_known, names):
    """The model's inputs as TensorSpecs, in the structure its call takes. ``names``: the specs
    are named after the Keras tensors (``"keras"``) or not at all (``None``)."""
    graph = getattr(model, "_graph", None)
    layer = getattr(model, "_input_layer", None)
    if graph is not None:
        structure = graph.inputs
    elif layer is not None:
        structure = layer.output
    else:
        shape = vars(model).get("_build_input_shape")
        if shape is None:
            raise ValueError(f"Model {model.name!r} cannot be saved because the input shape is "
                             f"not available. Please specify an input signature or call the "
                             f"model on data first.")
        structure = _Shape(shape) if _is_shape(shape) else [_Shape(s) for s in shape]
    return nest.map_structure(
        lambda t: _spec(t, getattr(t, "name", None) if names else None,
                        batch_known or graph is not None or layer is not None), structure)


def keras_serving(model, batch_known=True):
    """The ``tf.function`` ``tf.saved_model.save`` makes a Keras model's ``serving_default``
    from: its inputs flattened as ``inputs``, ``inputs_1``..., as TensorFlow names them."""
    structure = input_structure(model, batch_known, names=None)
    flat = nest.flatten(structure)
    names = ["inputs" if i == 0 else f"inputs_{i}" for i in range(len(flat))]
    specs = [TensorSpec(s._dims, s.dtype, n) for s, n in zip(flat, names)]

    def serve(*args):
        return model(nest.pack_sequence_as(structure, list(args)), training=False)
    signature = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                   for n in names])
    return Function(serve, name="serving_default", input_signature=specs, signature=signature)


def keras_serve_endpoint(model, structure):
    """``model.export``'s ``serve``: one argument ``args_0`` (``structure``: the model's inputs,
    the batch dimension unknown) calling the model in inference mode."""

    def serve(args_0):
        return model(args_0, training=False)
    return Function(serve, name="serve", input_signature=[structure])

