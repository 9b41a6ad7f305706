"""``tf.keras.layers.Layer``: built on first call, variables named ``<layer>/<weight>:0``.

A layer tracks the layers and variables assigned to its attributes, in assignment order (Keras's
order for ``weights``), passes ``training`` down to the layers it calls, and collects the losses
its ``call`` adds with ``add_loss``.

>>> import tapegrad as tf
>>> layer = tf.keras.layers.Dense(2, activation="relu")
>>> y = layer(tf.constant([[1., 2., 3.]]))
>>> [v.name for v in layer.trainable_variables]
['dense/kernel:0', 'dense/bias:0']
"""
import inspect

from ... import dtypes, nest, recording
from ...module import Module
from ...name_scope import init_scope
from ...ops import add_n, cast, reduce_sum
from ...tensor import convert_to_tensor
from ...variables import ResourceVariable, Variable
from .. import initializers, regularizers, symbolic
from ..naming import to_snake_case, unique_name
from .input_spec import assert_input_compatibility
from .layer_config import base_config, dtype_of

# The ``training`` value of the outermost layer call in progress, seen by the layers it calls.
_call_context = []


def to_tensor(x):
    """One input as a Tensor (a Variable is read, which a tape records)."""
    if isinstance(x, Variable):
        return x.read_value()
    return convert_to_tensor(x)


_PARAMETERS = {}  # call function -> its parameter names (signature() is slow on every call)


def _accepts(fn, name):
    key = getattr(fn, "__func__", fn)
    params = _PARAMETERS.get(key)
    if params is None:
        try:
            params = frozenset(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            params = frozenset()
        if len(_PARAMETERS) < 4096:
            _PARAMETERS[key] = params
    return name in params


def _shape_of(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        shape = to_tensor(x).shape
    return tuple(shape)


class Layer(Module):
    """The base of every layer: ``build(input_shape)`` creates weights with ``add_weight``,
    ``call(inputs, training=None)`` computes.

    >>> import tapegrad as tf
    >>> class Scale(tf.keras.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.s = self.add_weight(shape=(input_shape[-1],), initializer="ones")
    ...     def call(self, x):
    ...         return x * self.s
    >>> Scale()(tf.ones((1, 2))).shape
    TensorShape([1, 2])

    ``input_spec`` (an ``InputSpec`` or a list of them, see ``input_spec.py``) says what inputs
    the layer accepts; every call, eager or symbolic, checks its first argument against it.
    """

    input_spec = None

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        batch_size = kwargs.pop("batch_size", None)
        kwargs.pop("autocast", None)
        kwargs.pop("dynamic", None)
        activity_regularizer = kwargs.pop("activity_regularizer", None)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                            f"{kwargs}")
        object.__setattr__(self, "_layers", [])
        object.__setattr__(self, "_own_weights", [])
        super().__init__(name=name if name is not None else
                         unique_name(to_snake_case(type(self).__name__)))
        self._trainable = bool(trainable)
        self._built = False
        self._losses = []
        self._regularizers = []
        self.activity_regularizer = (None if activity_regularizer is None
                                     else _get_regularizer(activity_regularizer))
        self._output_shape = None
        self._inbound_nodes = []
        self._scope_depth = 0
        self.dtype_policy = dtype_of(dtype) or dtypes.float32
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        self._input_shape_arg = (None if input_shape is None
                                 else (batch_size,) + tuple(input_shape))

    # -- attribute tracking ---------------------------------------------------------------------
    def __setattr__(self, name, value):
        if not name.startswith("_") and "_layers" in self.__dict__:
            for leaf in nest.flatten(value) if isinstance(value, (list, tuple, dict)) else [value]:
                if isinstance(leaf, Layer) and leaf is not self \
                        and all(leaf is not l for l in self._layers):
                    self._layers.append(leaf)
                elif isinstance(leaf, Variable) and all(leaf is not w for w in self._own_weights):
                    self._own_weights.append(leaf)  # a tf.Variable held by the layer
                    if not leaf.trainable:
                        self._frozen_ids = getattr(self, "_frozen_ids", set()) | {id(leaf)}
        object.__setattr__(self, name, value)

    def _tracked_layers(self):
        """Layers assigned to attributes, in assignment order, then layers appended later to
        lists or dicts held in attributes (``self.blocks.append(Dense(2))``)."""
        layers = list(self.__dict__.get("_layers", ()))
        for name, value in self.__dict__.items():
            if name.startswith("_") or not isinstance(value, (list, tuple, dict)):
                continue
            for leaf in nest.flatten(value):
                if isinstance(leaf, Layer) and leaf is not self \
                        and all(leaf is not l for l in layers):
                    layers.append(leaf)
        return layers

    @property
    def dtype(self):
        return self.dtype_policy.name

    @property
    def built(self):
        """True once built; a layer without a ``build`` of its own counts as built from the
        start (as in Keras 3) unless a layer it holds is not built yet."""
        if self.__dict__.get("_built"):
            return True
        if type(self).build is Layer.build and "_layers" in self.__dict__:
            return all(layer.built for layer in self._layers)
        return False

    @built.setter
    def built(self, value):
        object.__setattr__(self, "_built", bool(value))

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        """Freezing a layer freezes its weights and its sublayers' (as Keras does)."""
        value = bool(value)
        object.__setattr__(self, "_trainable", value)
        for w in self._own_trainable() if "_own_weights" in self.__dict__ else ():
            w._trainable = value  # Variable.trainable has no setter in the core
        for layer in self._tracked_layers():
            layer.trainable = value

    # -- weights --------------------------------------------------------------------------------
    _KERAS3_ORDER = ("shape", "initializer", "dtype", "trainable", "autocast", "regularizer",
                     "constraint")
    _KERAS2_ORDER = ("name", "shape", "dtype", "initializer", "regularizer", "trainable")

    def add_weight(self, *args, **kwargs):
        """A new variable of this layer: ``add_weight(shape, initializer, dtype, trainable,
        ..., name=...)`` (Keras 3), or ``add_weight(name, shape, ...)`` (Keras 2).
        ``initializer`` defaults to ``glorot_uniform`` for floating dtypes, else ``zeros``."""
        order = self._KERAS2_ORDER if args and isinstance(args[0], str) else self._KERAS3_ORDER
        if len(args) > len(order):
            raise TypeError(f"add_weight takes at most {len(order)} positional arguments")
        for key, value in zip(order, args):
            if key in kwargs:
                raise TypeError(f"add_weight got multiple values for argument '{key}'")
            kwargs[key] = value
        name, shape = kwargs.pop("name", None), kwargs.pop("shape", None)
        initializer, dtype = kwargs.pop("initializer", None), kwargs.pop("dtype", None)
        if initializer is None and isinstance(dtype, str) and not _is_dtype_name(dtype):
            initializer, dtype = dtype, None  # add_weight("kernel", shape, "zeros")
        trainable = kwargs.pop("trainable", True)
        trainable = True if trainable is None else bool(trainable)
        regularizer = kwargs.pop("regularizer", None)
        for ignored in ("constraint", "aggregation", "autocast", "use_resource",
                        "synchronization", "overwrite_with_gradient", "experimental_autocast"):
            kwargs.pop(ignored, None)
        if kwargs:
            raise TypeError(f"add_weight: unexpected keyword arguments {sorted(kwargs)}")
        dtype = dtypes.as_dtype(dtype) if dtype is not None else self.dtype_policy
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        if shape is not None and any(d is None for d in shape):
            raise ValueError(f"Shapes used to initialize variables must be fully-defined (no "
                             f"`None` dimensions). Received: shape={tuple(shape)} for variable "
                             f"path='{self.name}/{name if name is not None else 'variable'}'")
        shape = () if shape is None else tuple(int(d) for d in shape)
        name = name if name is not None else "variable"
        with self._own_scope(), init_scope():      # (in a trace: made once, out of its graph)
            v = LayerVariable(init(shape, dtype=dtype), name=name,
                              trainable=trainable and self._trainable, dtype=dtype)
            v._path = keras_path(name)
        if not trainable:
            self._frozen_ids = getattr(self, "_frozen_ids", set()) | {id(v)}
        self._own_weights.append(v)
        if regularizer is not None:
            self._regularizers.append((v, _get_regularizer(regularizer)))
        return v

    def _own_scope(self):
        """This layer's name scope, unless its ``build``/``call`` is already inside it."""
        return _ScopeOnce(self)

    def _own_trainable(self):
        frozen = getattr(self, "_frozen_ids", set())
        return [w for w in self._own_weights if id(w) not in frozen]

    def _own_non_trainable(self):
        frozen = getattr(self, "_frozen_ids", set())
        return [w for w in self._own_weights if id(w) in frozen]

    @property
    def weights(self):
        """Own trainable, own non-trainable, then each tracked layer's, each variable once."""
        out = []
        for w in self._own_trainable() + self._own_non_trainable():
            if all(w is not o for o in out):
                out.append(w)
        for layer in self._tracked_layers():
            for w in layer.weights:
                if all(w is not o for o in out):
                    out.append(w)
        return out

    @property
    def trainable_weights(self):
        if not self._trainable:
            return []
        return self._with_sublayers(self._own_trainable(), "trainable_weights")

    @property
    def non_trainable_weights(self):
        if not self._trainable:
            return self.weights
        return self._with_sublayers(self._own_non_trainable(), "non_trainable_weights")

    def _with_sublayers(self, own, attribute):
        """``own`` then each tracked layer's ``attribute`` list, each variable once."""
        out = list(own)
        for layer in self._tracked_layers():
            for w in getattr(layer, attribute):
                if all(w is not o for o in out):
                    out.append(w)
        return out

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def variables(self):
        return self.weights

    @property
    def layers(self):
        return [layer for layer in self._tracked_layers() if not _is_input_layer(layer)]

    def get_weights(self):
        """The weights' values as NumPy arrays, in ``weights`` order."""
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        """Assigns NumPy arrays (or tensors) to ``weights``, in order, checking their shapes."""
        mine = self.weights
        weights = list(weights)
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a "
                             f"weight list of length {len(weights)}, but the layer was expecting "
                             f"{len(mine)} weights.")
        for v, w in zip(mine, weights):
            value = to_tensor(w)
            if value.dtype != v.dtype:  # NumPy's float64 arrays into float32 weights, as Keras
                value = cast(value, v.dtype)
            if tuple(value.shape) != tuple(v.shape):
                raise ValueError(f"Layer {self.name} weight shape {tuple(v.shape)} is not "
                                 f"compatible with provided weight shape {tuple(value.shape)}.")
            v.assign(value)

    def count_params(self):
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the "
                             f"layer isn't built. You can build it manually via: "
                             f"`layer.build(input_shape)`.")
        n = 0
        for w in self.weights:
            size = 1
            for d in w.shape:
                size *= int(d)
            n += size
        return n

    # -- losses ---------------------------------------------------------------------------------
    def add_loss(self, loss):
        """Adds a scalar (or a tensor, summed) to ``losses``; ``fit`` adds them to the loss."""
        self._losses.append(loss)

    @property
    def losses(self):
        """Losses added during the last call, and the weight regularization terms."""
        out = list(self._losses)
        for v, reg in self._regularizers:
            out.append(reg(v))
        for layer in self._tracked_layers():
            out.extend(layer.losses)
        return out

    def _clear_losses(self):
        self._losses = []
        for layer in self._tracked_layers():
            layer._clear_losses()

    # -- building and calling -------------------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method "
                                  f"implemented.")

    def compute_output_shape(self, input_shape):
        """The output shape for ``input_shape`` (found by calling the layer on zeros)."""
        return symbolic.output_shape_by_probing(self, input_shape)

    def _maybe_build(self, inputs):
        if self.built:
            return
        flat = nest.flatten(inputs)
        shapes = [_shape_of(x) for x in flat]
        shape = shapes[0] if len(shapes) == 1 else nest.pack_sequence_as(inputs, shapes)
        self.build(shape)
        self.built = True

    def check_input_shapes(self, input_shape):
        """Checks that need only the input shapes (``None`` for unknown sizes), before the
        layer builds or computes, on every call, eager or symbolic: what Keras's ``build``
        checks of shapes (a merge layer's matching shapes). Nothing by default."""

    def __call__(self, *args, **kwargs):
        first = args[0] if args else kwargs.get("inputs")
        if self.input_spec is not None:
            assert_input_compatibility(self.input_spec, first, self.name)
        if type(self).check_input_shapes is not Layer.check_input_shapes:
            self.check_input_shapes(nest.map_structure(_shape_of, first))
        if symbolic.has_symbolic(args, kwargs):
            if not self.built and type(self)._maybe_build is Layer._maybe_build:
                with self._own_scope():  # from the symbolic shapes, unknown sizes None, as Keras
                    self._maybe_build(first)
            return symbolic.symbolic_call(self, args, kwargs)
        if not args:
            if "inputs" not in kwargs:
                raise TypeError(f"{self.name}: call needs its inputs")
            args = (kwargs.pop("inputs"),)
        training = kwargs.pop("training", None)
        outer = not _call_context
        if training is None and not outer:
            training = _call_context[-1]
        if training is not None and _accepts(self.call, "training"):
            kwargs["training"] = training
        if outer:
            self._clear_losses()
        _call_context.append(training)
        try:
            with self._own_scope():
                builds = not self.__dict__.get("_built")
                self._maybe_build(args[0])
                outputs = self.call(*args, **kwargs)
        finally:
            _call_context.pop()
        if self.__dict__.get("activity_regularizer") is not None:
            for out in nest.flatten(outputs):  # each output's penalty over its batch size
                penalty = self.activity_regularizer(out)
                if len(out.shape) > 0 and int(out.shape[0]) > 0:
                    penalty = penalty / float(int(out.shape[0]))
                self.add_loss(penalty)
        if builds and type(self).build is not Layer.build:
            # what summary() shows for a layer its own build built (Keras computes it from the
            # build's input shape); layers without a build show "?" outside a graph
            self._output_shape = nest.map_structure(
                lambda t: tuple(t.shape) if hasattr(t, "shape") else None, outputs)
        return outputs

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    # -- saving ---------------------------------------------------------------------------------
    def get_config(self):
        """Keras 3's config: ``name``, ``trainable``, ``dtype`` (a layer with arguments of its
        own adds them)."""
        return base_config(self)

    @classmethod
    def from_config(cls, config):
        """The layer ``get_config`` describes (every key is an argument of ``__init__``)."""
        return cls(**config)


class SymbolicOp(Layer):
    """A weightless layer applying one function (``+``, ``*``, ``[...]``...): what arithmetic on
    symbolic tensors records in a functional model. It is not listed in ``model.layers``."""

    is_symbolic_op = True

    def __init__(self, fn):
        super().__init__(name=f"{getattr(fn, '__name__', 'op')}_op")
        self.fn = fn

    def call(self, *args):
        return self.fn(*args)


symbolic.op_layer = SymbolicOp


class LayerVariable(ResourceVariable):
    """A layer's variable: a ``tf.Variable`` (named as the seed tutorials print, ``dense/kernel:0``)
    with Keras 3's ``path``, the names of the layers and models it was made in
    (``sequential/dense/kernel``)."""

    __slots__ = ("_path",)

    @property
    def path(self):
        return self._path


_NOT_IN_PATHS = ("function", "name_scope", "tf.function", "replica")


def keras_path(name):
    """Keras 3's path for a variable ``name`` made now: the open layers' and models' names (a
    functional model's layers are built before it exists, so none of its name; tf.name_scope
    is not part of it)."""
    parts = [p.rsplit(":", 1)[-1] for p in recording.scope_stack
             if p.partition(":")[0] not in _NOT_IN_PATHS]
    return "/".join([*parts, name])


class _ScopeOnce:
    def __init__(self, layer):
        self.layer = layer
        self.scope = None

    def __enter__(self):
        if self.layer._scope_depth == 0:
            if self.layer._uses_name_scope():
                self.scope = self.layer.name_scope
                self.scope.__enter__()
            else:     # (a Sequential model: no name prefix, but its group in the tape graph)
                self.scope = _GraphScope(self.layer.scope_label())
                self.scope.__enter__()
        self.layer._scope_depth += 1

    def __exit__(self, *exc):
        self.layer._scope_depth -= 1
        if self.scope is not None:
            self.scope.__exit__(*exc)
            self.scope = None
        return False


class _GraphScope:
    """Only the recording scope (the op's group in the tape graph), not the variables' names."""

    def __init__(self, label):
        self.label = label

    def __enter__(self):
        recording.scope_stack.append(self.label)

    def __exit__(self, *exc):
        recording.scope_stack.pop()


Layer._uses_name_scope = lambda self: True


def _is_dtype_name(text):
    try:
        dtypes.as_dtype(text)
    except (TypeError, ValueError, KeyError):
        return False
    return True


def _is_input_layer(layer):
    return type(layer).__name__ == "InputLayer"


def _get_regularizer(identifier):
    if callable(identifier):
        return identifier
    return regularizers.get(identifier)


def call_layer(layer, x, training):
    """``layer(x)``, passing ``training`` when the layer's ``call`` takes it."""
    if training is not None and _accepts(getattr(layer, "call", layer), "training"):
        return layer(x, training=training)
    return layer(x)


def sum_losses(losses):
    """The sum of a list of scalar losses (each reduced to a scalar first)."""
    terms = [reduce_sum(to_tensor(v)) for v in losses]
    return add_n(terms) if len(terms) > 1 else terms[0]


