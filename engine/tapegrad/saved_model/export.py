"""``model.export(filepath)`` (Keras 3): a SavedModel for serving, whose ``serve`` endpoint and
``serving_default`` signature call the model in inference mode, with the model's variable lists
(``variables``, ``trainable_variables``, ``non_trainable_variables``) as attributes; Keras's
summary of the endpoint is printed."""
from .. import nest
from ..function import Function
from ..tensor_spec import TensorSpec
from .keras_serving import input_structure, keras_serve_endpoint
from .saving import Trackable, save


class _ExportArchive(Trackable):
    """What ``model.export`` saves: ``serve`` and the model's variable lists."""


def export_model(model, filepath, format="tf_saved_model", verbose=None, input_signature=None,
                 **kwargs):
    """``model.export(filepath)``: a SavedModel whose ``serve`` endpoint (also its
    ``serving_default`` signature) calls the model in inference mode; prints the endpoint as
    Keras does unless ``verbose`` is false."""
    if format != "tf_saved_model":
        raise ValueError(f"Unrecognized format={format}. tapegrad exports `tf_saved_model` "
                         f"only (onnx, openvino and litert are not available).")
    if input_signature is not None:
        structure = input_signature[0] if len(input_signature) == 1 else list(input_signature)

        def serve(args_0):
            return model(args_0, training=False)
        endpoint = Function(serve, name="serve", input_signature=[structure])
    else:
        structure = input_structure(model, batch_known=False, names="keras")
        endpoint = keras_serve_endpoint(model, structure)
    archive = _ExportArchive()
    archive.serve = endpoint
    archive.variables = list(model.variables)
    archive.trainable_variables = list(model.trainable_variables)
    archive.non_trainable_variables = list(model.non_trainable_variables)
    cf = endpoint.get_concrete_function()
    save(archive, filepath, signatures={"serve": cf, "serving_default": cf})
    if verbose is None or verbose:
        print(_endpoint_text(filepath, cf, model, structure))


def _endpoint_text(filepath, cf, model, spec):
    outputs = nest.map_structure(lambda s: TensorSpec(s._dims, s.dtype), cf._output_specs())
    captures = "\n".join(f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)"
                         for v in model.variables)
    return (f"Saved artifact at '{filepath}'. The following endpoints are available:\n\n"
            f"* Endpoint 'serve'\n  args_0 (POSITIONAL_ONLY): {spec!r}\nOutput Type:\n"
            f"  {outputs!r}\nCaptures:\n{captures}")
