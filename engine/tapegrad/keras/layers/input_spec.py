"""What inputs a layer or a model accepts, checked where they arrive, with Keras 3's messages.

A layer sets ``self.input_spec`` (an ``InputSpec``, or a list of them, one per input): at its
constructor the rank it needs (``Dense``: ``min_ndim=2``), at its ``build`` the dimensions its
weights fixed (``axes={-1: 4}``). ``Layer.__call__`` checks every call, eager or symbolic, with
``assert_input_compatibility``. ``standardize_shape`` is how ``tf.keras.Input`` reads a shape;
``check_input_rank`` is a model's check of data against the rank of its ``Input``.

>>> import tapegrad as tf
>>> layer = tf.keras.layers.Dense(3)
>>> layer(tf.ones([4]))
Traceback (most recent call last):
...
ValueError: Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected min_ndim=2, found ndim=1. Full shape received: (4,)
"""
from ... import nest
from ...tensor import Tensor, checked_shape


class InputSpec:
    """The rank (``ndim``, ``min_ndim``, ``max_ndim``), fixed dimensions (``axes``: axis ->
    size) or whole ``shape`` (``None`` for any size) an input must have."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtype
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = dict(axes or {})
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name, self.optional = name, optional

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                         ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                         ("min_ndim", self.min_ndim), ("axes", self.axes)) if v]
        return f"InputSpec({', '.join(parts)})"


def _shape(x):
    if isinstance(x, Tensor):      # (a check: a traced step does not depend on this read)
        return tuple(int(d) for d in checked_shape(x))
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    return tuple(None if d is None else int(d) for d in shape)


def _incompatible(index, spec, layer_name, what):
    return ValueError(f"Input {index} with name '{spec.name}' of layer '{layer_name}' is "
                      f"incompatible with the layer: {what}")


def _check_rank(index, spec, shape, layer_name):
    ndim = len(shape)
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise _incompatible(index, spec, layer_name, f"expected ndim={spec.ndim}, found "
                            f"ndim={ndim}. Full shape received: {shape}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise _incompatible(index, spec, layer_name, f"expected max_ndim={spec.max_ndim}, "
                            f"found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise _incompatible(index, spec, layer_name, f"expected min_ndim={spec.min_ndim}, "
                            f"found ndim={ndim}. Full shape received: {shape}")


def _check_dims(index, spec, shape, layer_name):
    for axis, value in spec.axes.items():
        if value is not None and -len(shape) <= axis < len(shape) \
                and shape[axis] not in (value, None):
            raise _incompatible(index, spec, layer_name, f"expected axis {axis} of input shape "
                                f"to have value {value}, but received input with shape {shape}")
    if spec.shape is None:
        return
    wanted, got = spec.shape, shape
    if spec.allow_last_axis_squeeze:
        got = got[:-1] if got and got[-1] == 1 else got
        wanted = wanted[:-1] if wanted and wanted[-1] == 1 else wanted
    for a, b in zip(wanted, got):
        if a is not None and b is not None and a != b:
            raise _incompatible(index, spec, layer_name, f"expected shape={spec.shape}, found "
                                f"shape={got}")


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raises Keras's ValueError when ``inputs`` (a tensor or a structure of them) do not fit
    ``input_spec`` (a spec, a list of specs, or None)."""
    if not input_spec:
        return
    specs = list(input_spec) if isinstance(input_spec, (list, tuple)) else [input_spec]
    flat = nest.flatten(inputs)
    if len(flat) != len(specs):
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received '
                         f"{len(flat)} input tensors. Inputs received: {inputs}")
    for index, (spec, x) in enumerate(zip(specs, flat)):
        if spec is None or (x is None and spec.optional):
            continue
        shape = _shape(x)
        if shape is None:
            raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                             f"{type(x)}) as input for layer '{layer_name}'.")
        _check_rank(index, spec, shape, layer_name)
        _check_dims(index, spec, shape, layer_name)


def standardize_shape(shape):
    """A shape argument (a tuple, a list, a ``TensorShape``) as a tuple of ints and ``None``:
    a number alone, a float or string dimension, or a negative one is Keras's ValueError."""
    if not isinstance(shape, tuple):
        if shape is None:
            raise ValueError("Undefined shapes are not supported.")
        if not hasattr(shape, "__iter__"):
            raise ValueError(f"Cannot convert '{shape}' to a shape.")
        if hasattr(shape, "as_list"):
            shape = shape.as_list()
    out = []
    for d in shape:
        if d is None:
            out.append(None)
            continue
        if isinstance(d, (str, float)):
            raise ValueError(f"Cannot convert '{shape}' to a shape. Found invalid dimension "
                             f"'{d}' of type '{type(d)}'. ")
        try:
            d = int(d)
        except (TypeError, ValueError) as e:
            raise ValueError(f"Cannot convert '{shape}' to a shape. Found invalid dimension "
                             f"'{d}' of type '{type(d)}'. ") from e
        if d < 0:
            raise ValueError(f"Cannot convert '{shape}' to a shape. Negative dimensions are not "
                             f"allowed.")
        out.append(d)
    return tuple(out)


def check_input_rank(x, reference, path=""):
    """A model's check of one input ``x`` against its ``Input`` tensor ``reference``: ranks may
    differ only by a trailing axis of size 1 (which the model squeezes or adds)."""
    shape, ref = _shape(x), tuple(reference.shape)
    if shape is None or len(shape) == len(ref):
        return
    if len(shape) == len(ref) + 1 and shape[-1] == 1:
        return
    if len(shape) == len(ref) - 1 and ref[-1] == 1:
        return
    raise ValueError(f"Invalid input shape for input of shape {shape} with name "
                     f"'{reference.name}' and path '{path}'. Expected shape {ref}, but input has "
                     f"incompatible shape {shape}")
