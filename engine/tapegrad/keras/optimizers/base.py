"""The ``Optimizer`` base class: what every Keras optimizer shares.

``apply_gradients`` (or ``apply``) builds the slots on first use, drops ``None`` gradients with
Keras's warning, then per step: unscale (``loss_scale_factor``), clip (``clipnorm``,
``clipvalue`` or ``global_clipnorm``), decay the weights (``weight_decay``:
``w -= w * weight_decay * lr``), run each optimizer's ``update_step``, update the moving averages
(``use_ema``), and count the step in ``iterations``. Updates run in NumPy in each variable's dtype,
in the order Keras computes them, so the numbers agree with Keras's to float32 rounding.

>>> import tapegrad as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
>>> with tf.GradientTape() as tape:
...     loss = w * w
>>> _ = opt.apply_gradients([(tape.gradient(loss, w), w)])
>>> round(float(w), 6), int(opt.iterations)
(0.8, 1)
"""
import re
import warnings

from ...backend import xp
from ...distribute import context as distribute_context
from ...replayed import replayed
from ...tape import GradientTape
from ...tensor import convert_to_tensor
from ...variables import Variable
from .. import naming
from . import schedules as schedules_module
from .sliced import SlicedGradients


def snake_case(name):
    """Keras's default object names: ``AdamW`` -> ``adam_w``."""
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def array(variable):
    """The NumPy array a Variable holds (slots are updated in it in place)."""
    return variable._value


def dense_gradient(g, dtype):
    """A gradient as an array of ``dtype`` (an IndexedSlices gives its dense form)."""
    if hasattr(g, "_as_tensor"):
        g = g._as_tensor()
    if isinstance(g, Variable):
        g = g.numpy()
    g = xp.asarray(g._value if hasattr(g, "_value") else g)
    return g.astype(dtype, copy=False)


def scalar(value, dtype):
    """A learning rate (a float32 Variable, a schedule's tensor, or a number) as a NumPy scalar
    of ``dtype``."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    return xp.asarray(value).astype(dtype)[()]


def cast(value, dtype):
    """A Python hyperparameter as Keras's ``ops.cast(value, dtype)`` makes it: through a float32
    tensor first (so float64 variables see ``float64(float32(0.9))``)."""
    return xp.float32(value).astype(dtype)[()]


def slices_of(g):
    """An IndexedSlices gradient's ``(row indices, slice values)`` as arrays, else None."""
    if not (hasattr(g, "indices") and hasattr(g, "values") and hasattr(g, "_as_tensor")):
        return None
    return xp.asarray(g.indices.numpy()).reshape(-1), xp.asarray(g.values.numpy())


def _matching(value, variable):
    """``value`` cast to ``variable``'s dtype, as Keras's assignments cast."""
    if hasattr(value, "_as_tensor"):
        value = value._as_tensor()
    return xp.asarray(value.numpy() if hasattr(value, "numpy") else value,
                      dtype=variable.dtype.as_numpy_dtype)


class OptimizerVariable(Variable):
    """An optimizer's own variable (iterations, learning rate, slots), named and printed as Keras
    names and prints its variables: ``<Variable path=adam/iteration, shape=(), dtype=int64,
    value=0>``."""
    __slots__ = ("_path",)

    def __init__(self, initial_value, owner, name, dtype=None):
        super().__init__(initial_value, trainable=False, name=name, dtype=dtype)
        self._path = f"{owner}/{name}"

    @property
    def name(self):
        return self._path.rsplit("/", 1)[-1]

    @property
    def path(self):
        return self._path

    def __repr__(self):
        value = self._value
        shown = value.item() if value.ndim == 0 else value
        return (f"<Variable path={self._path}, shape={tuple(value.shape)}, "
                f"dtype={self.dtype.name}, value={shown}>")

    __str__ = __repr__


class Optimizer:
    """Base class of the Keras optimizers; a subclass writes ``build`` (its slots) and
    ``update_step(gradient, variable, learning_rate)`` on NumPy arrays.

    >>> import tapegrad as tf
    >>> opt = tf.keras.optimizers.Adam(learning_rate=0.01)
    >>> float(opt.learning_rate) == float(tf.constant(0.01))
    True
    """

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        self.name = name or naming.unique_name(snake_case(type(self).__name__))
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.global_clipnorm = global_clipnorm
        self.clipvalue = clipvalue
        self.use_ema = use_ema
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        if gradient_accumulation_steps and not gradient_accumulation_steps >= 2:
            raise ValueError(f"`gradient_accumulation_steps` must be an integer >= 2. Received: "
                             f"gradient_accumulation_steps={gradient_accumulation_steps}")
        if use_ema:
            if ema_momentum > 1 or ema_momentum < 0:
                raise ValueError(f"`ema_momentum` must be in the range [0, 1]. Received: "
                                 f"ema_momentum={ema_momentum}")
            if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                            or ema_overwrite_frequency < 1):
                raise ValueError(f"`ema_overwrite_frequency` must be an integer >= 1 or None. "
                                 f"Received: ema_overwrite_frequency={ema_overwrite_frequency}")
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be "
                             f"set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}")
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index = {}
        self._sliced = SlicedGradients()
        self._step_constants = {}
        self._iterations = OptimizerVariable(0, self.name, "iteration", dtype="int64")
        self._variables.append(self._iterations)
        if isinstance(learning_rate, schedules_module.LearningRateSchedule) \
                or callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            if not isinstance(learning_rate, float):
                raise ValueError(
                    f"Argument `learning_rate` should be float, or an instance of "
                    f"LearningRateSchedule, or a callable (that takes in the current iteration "
                    f"value and returns the corresponding learning rate value). Received "
                    f"instead: learning_rate={learning_rate}")
            self._learning_rate = OptimizerVariable(learning_rate, self.name, "learning_rate",
                                                    dtype="float32")
            self._variables.append(self._learning_rate)

    # -- state -----------------------------------------------------------------------------
    @property
    def iterations(self):
        """The number of steps applied (an int64 Variable)."""
        if self.gradient_accumulation_steps:
            return convert_to_tensor(int(self._iterations.numpy())
                                     // self.gradient_accumulation_steps, dtype="int64")
        return self._iterations

    @property
    def variables(self):
        """Every variable the optimizer holds: ``iterations``, the learning rate, the slots."""
        return self._variables[:]

    def add_variable(self, shape, initializer="zeros", dtype=None, name=None):
        """A new optimizer variable of ``shape`` filled with ``initializer`` (a number,
        ``"zeros"`` or ``"ones"``)."""
        fill = {"zeros": 0.0, "ones": 1.0}.get(initializer, initializer)
        if isinstance(fill, str) or not isinstance(fill, (int, float)):
            raise ValueError(f"{type(self).__name__}.add_variable: initializer must be a number, "
                             f"'zeros' or 'ones'; got {initializer!r}")
        value = xp.full(tuple(shape), fill, dtype=xp.dtype(getattr(dtype, "as_numpy_dtype",
                                                                   dtype or "float32")))
        variable = OptimizerVariable(value, self.name, name or "variable")
        self._variables.append(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A slot shaped like ``reference_variable``, named after it, filled with
        ``initializer``."""
        path = getattr(reference_variable, "path", None)
        base = path.replace("/", "_") if isinstance(path, str) else \
            str(reference_variable.name).replace("/", "_").replace(":", "_")
        return self.add_variable(tuple(reference_variable.shape), initializer,
                                 reference_variable.dtype, f"{base}_{name or 'var'}")

    def add_optimizer_variables(self, variables, names, initializers=0.0):
        """One slot per variable for each name (a list per name, or one list for one name)."""
        single = isinstance(names, str)
        names = [names] if single else list(names)
        inits = initializers if isinstance(initializers, (list, tuple)) \
            else [initializers] * len(names)
        slots = tuple([] for _ in names)
        for v in variables:
            for i, (n, init) in enumerate(zip(names, inits)):
                slots[i].append(self.add_variable_from_reference(v, n, init))
        return slots[0] if single else slots

    def build(self, variables):
        """Creates the slots for ``variables`` (the first ``apply`` does it when needed)."""
        if self.use_ema:
            self._averages = self.add_optimizer_variables(variables, "average")
        if self.gradient_accumulation_steps:
            self._accumulators = self.add_optimizer_variables(variables, "gradient_accumulator")
        for i, v in enumerate(variables):
            self._index[self._key(v)] = i
        self._trainable_variables = list(variables)
        self.built = True

    @staticmethod
    def _key(variable):
        return getattr(variable, "_uid", id(variable))

    def _get_variable_index(self, variable):
        """The position of ``variable`` among those the optimizer was built with."""
        return self._index[self._key(variable)]

    def _slot(self, slots, variable):
        return array(slots[self._get_variable_index(variable)])

    # -- learning rate ---------------------------------------------------------------------
    @property
    def learning_rate(self):
        """The current learning rate: the float32 Variable, or the schedule's value now."""
        lr = self._learning_rate
        if isinstance(lr, schedules_module.LearningRateSchedule):
            return lr(self._iterations)
        if isinstance(lr, Variable):
            return lr
        if callable(lr):
            return lr()
        return lr

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, schedules_module.LearningRateSchedule) or callable(value):
            if isinstance(self._learning_rate, Variable):
                self._variables = [v for v in self._variables if v is not self._learning_rate]
            self._learning_rate = value
            return
        if isinstance(self._learning_rate, schedules_module.LearningRateSchedule):
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` object as its "
                "`learning_rate` constructor argument, hence its learning rate is not settable. "
                "If you need the learning rate to be settable, you should instantiate the "
                "optimizer with a float `learning_rate` argument.")
        if not isinstance(self._learning_rate, Variable):
            self._learning_rate = OptimizerVariable(0.0, self.name, "learning_rate",
                                                    dtype="float32")
            self._variables.insert(1, self._learning_rate)
        self._learning_rate.assign(scalar(value, "float32"))

    # -- applying gradients ----------------------------------------------------------------
    def _apply_across_replicas(self, replica, grads, trainable_variables):
        """Inside ``strategy.run``, as TensorFlow's optimizers: the replicas' gradients are
        summed (scale the loss by the global batch, ``tf.nn.compute_average_loss``) and applied
        once to the variables they share."""
        present = [i for i, g in enumerate(grads) if g is not None]
        summed = replica.all_reduce("SUM", [grads[i] for i in present])
        total = list(grads)
        for i, g in zip(present, summed):
            total[i] = g
        replica.merge_call(lambda strategy: self.apply(total, trainable_variables))

    def apply_gradients(self, grads_and_vars):
        """Applies ``(gradient, variable)`` pairs; returns ``iterations``.

        >>> import tapegrad as tf
        >>> v = tf.Variable([1.0, 2.0])
        >>> _ = tf.keras.optimizers.SGD(0.5).apply_gradients([(tf.constant([1.0, 1.0]), v)])
        >>> v.numpy().tolist()
        [0.5, 1.5]
        """
        pairs = list(grads_and_vars)
        grads = [g for g, _ in pairs]
        variables = [v for _, v in pairs]
        self.apply(grads, variables)
        return self._iterations

    @replayed("ApplyGradients")        # (in a traced function: one node, run on every call)
    def apply(self, grads, trainable_variables=None):
        """Applies ``grads`` to ``trainable_variables`` (default: those it was built with)."""
        grads = list(grads)
        if len(grads) == 0:
            return
        replica = distribute_context.local.replica
        if replica is not None and replica.num_replicas_in_sync > 1:
            return self._apply_across_replicas(replica, grads, trainable_variables)
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must "
                                 "already be built on a list of variables. Call "
                                 "`optimizer.build(trainable_variables)` first. ")
            if len(grads) != len(self._index):
                raise ValueError(f"When passing `grads` as a list of gradient tensors, the "
                                 f"gradients must match `optimizer.variables` one-to-on. Received "
                                 f"a list of {len(grads)} gradients, but the optimizer is "
                                 f"tracking {len(self._trainable_variables)} trainable variables.")
            trainable_variables = self._trainable_variables
        else:
            trainable_variables = list(trainable_variables)
            for v in trainable_variables:
                if not isinstance(v, Variable):
                    raise TypeError(f"{type(self).__name__}.apply_gradients expects variables, "
                                    f"got {type(v).__name__}")
            if not self.built:
                self.build(trainable_variables)
                self.built = True
            for v in trainable_variables:
                if self._key(v) not in self._index:
                    raise ValueError(
                        f"Unknown variable: {v!r}. This optimizer can only be called for the "
                        f"variables it was originally built with. When working with a new set "
                        f"of variables, you should recreate a new optimizer instance.")
        grads, trainable_variables = self._filter_empty_gradients(grads, trainable_variables)
        arrays = []
        self._sliced = SlicedGradients()
        for g, v in zip(grads, trainable_variables):
            dtype = v.dtype.as_numpy_dtype
            found = slices_of(g)
            dense = dense_gradient(g, dtype) if found is None else \
                self._sliced.add(found[0], found[1], tuple(v.shape), dtype)
            if dense.shape != tuple(v.shape):
                raise ValueError(f"Gradient shape {dense.shape} does not match variable "
                                 f"{v.name} shape {tuple(v.shape)}")
            if self.loss_scale_factor is not None:
                if found is not None:  # Keras divides the IndexedSlices object itself
                    raise TypeError(f"unsupported operand type(s) for /: 'IndexedSlices' and "
                                    f"'{type(self.loss_scale_factor).__name__}'")
                dense = dense / dense.dtype.type(self.loss_scale_factor)
            arrays.append(dense)
        try:
            self._apply_dense(arrays, trainable_variables)
        finally:
            self._sliced = SlicedGradients()
        for v in trainable_variables:
            constraint = getattr(v, "constraint", None)
            if constraint is not None:
                v.assign(constraint(v))
        self._iterations.assign_add(1)

    def _filter_empty_gradients(self, grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError("No gradients provided for any variable.")
        missing = [getattr(v, "path", v.name) for g, v in zip(grads, variables) if g is None]
        if missing:
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the "
                          f"loss. If using `model.compile()`, did you forget to provide a `loss` "
                          f"argument?", stacklevel=4)
        return [g for g, _ in kept], [v for _, v in kept]

    def _apply_dense(self, grads, variables):
        steps = self.gradient_accumulation_steps
        if steps:
            accumulators = [self._slot(self._accumulators, v) for v in variables]
            if (int(self._iterations.numpy()) + 1) % steps != 0:
                for acc, g in zip(accumulators, grads):
                    acc += g
                return
            grads = [(g + acc) / g.dtype.type(steps) for g, acc in zip(grads, accumulators)]
            self._update(grads, variables)
            for acc in accumulators:
                acc[...] = 0
        else:
            self._update(grads, variables)
        if self.use_ema:
            self._update_moving_averages()

    def _update(self, grads, variables):
        grads = self._clip_gradients(grads)
        self._apply_weight_decay(variables)
        self._before_update_steps()
        self._step_constants = {}
        lr = self.learning_rate
        for g, v in zip(grads, variables):
            self.update_step(g, v, lr)

    def step_constants(self, dtype, make):
        """``make()`` once per step and dtype: the scalars every variable of a step shares."""
        found = self._step_constants.get(dtype)
        if found is None:
            found = self._step_constants[dtype] = make()
        return found

    def _before_update_steps(self):
        """Per-step state an optimizer updates once before its per-variable steps."""

    def is_sparse(self, gradient):
        """Whether ``gradient`` came from an IndexedSlices (see ``sliced.py``)."""
        return self._sliced.slices(gradient) is not None

    def _elementwise(self, gradient, fn):
        """``fn(gradient)``, applied to the slices of an IndexedSlices gradient."""
        return self._sliced.map_values(gradient, fn) if self.is_sparse(gradient) else fn(gradient)

    def square(self, gradient):
        """``gradient ** 2`` as Keras computes it (per slice for an IndexedSlices gradient)."""
        if self.is_sparse(gradient):
            return self._sliced.per_slice(gradient, lambda x: x * x)
        return gradient * gradient

    def absolute(self, gradient):
        """``|gradient|`` as Keras computes it (per slice for an IndexedSlices gradient)."""
        if self.is_sparse(gradient):
            return self._sliced.per_slice(gradient, xp.abs)
        return xp.abs(gradient)

    def update_step(self, gradient, variable, learning_rate):
        """One optimizer's step for one variable (``gradient`` is an array of its dtype;
        ``scalar(learning_rate, dtype)`` gives the rate in that dtype)."""
        raise NotImplementedError(f"{type(self).__name__} must implement update_step")

    def assign(self, variable, value):
        """``variable = value`` (for ``update_step`` of a custom optimizer)."""
        variable.assign(_matching(value, variable))

    def assign_add(self, variable, value):
        """``variable += value``."""
        variable.assign_add(_matching(value, variable))

    def assign_sub(self, variable, value):
        """``variable -= value``."""
        variable.assign_sub(_matching(value, variable))

    # -- clipping ----------------------------------------------------------------------------
    def _clip_gradients(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [self._clip_by_norm(g) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            return self._clip_by_global_norm(grads)
        if self.clipvalue and self.clipvalue > 0:
            c = self.clipvalue
            return [self._elementwise(g, lambda x: xp.clip(x, x.dtype.type(-c), x.dtype.type(c)))
                    for g in grads]
        return grads

    def _clip_by_norm(self, g):
        """``g * clipnorm / max(||g||, clipnorm)`` (TensorFlow's clip_by_norm)."""
        c = g.dtype.type(self.clipnorm)
        norm = xp.sqrt(self._sliced.sum_of_squares(g))
        return self._elementwise(g, lambda x: x * c / xp.maximum(norm, c))

    def _clip_by_global_norm(self, grads):
        """Every gradient times ``clip_norm / max(global_norm, clip_norm)`` (NaN stays NaN)."""
        dtype = grads[0].dtype
        dt = dtype.type
        squares = xp.stack([self._sliced.sum_of_squares(g).astype(dtype) for g in grads])
        norm = xp.sqrt(xp.sum(squares))
        one, clip = dt(1.0), dt(self.global_clipnorm)
        with xp.errstate(divide="ignore"):
            scale = clip * xp.minimum(one / norm, one / clip)
        scale = scale + (norm - norm)
        # ``g * scale`` makes an IndexedSlices dense (its norm above was taken over the slices)
        return [g * scale.astype(g.dtype) for g in grads]

    # -- weight decay ------------------------------------------------------------------------
    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Leaves these variables (or those whose name matches one of ``var_names``) undecayed;
        call it before the first step."""
        if self.built:
            raise ValueError("`exclude_from_weight_decay()` can only be configured before the "
                             "optimizer is built.")
        self._excluded = {self._key(v) for v in var_list} if var_list else set()
        self._excluded_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _use_weight_decay(self, variable):
        if self._key(variable) in getattr(self, "_excluded", ()):
            return False
        pattern = getattr(self, "_excluded_pattern", None)
        return not (pattern is not None and re.search(pattern, variable.name) is not None)

    def _apply_weight_decay(self, variables):
        if self.weight_decay is None:
            return
        lr = self.learning_rate
        for v in variables:
            if self._use_weight_decay(v):
                w = array(v)
                decay = w * cast(self.weight_decay, w.dtype) * scalar(lr, w.dtype)
                v.assign(w - decay)

    # -- moving averages ---------------------------------------------------------------------
    def _update_moving_averages(self):
        first = int(self._iterations.numpy()) == 0
        for v, avg in zip(self._trainable_variables, self._averages):
            a = array(avg)
            momentum = a.dtype.type(0.0 if first else self.ema_momentum)
            a[...] = momentum * a + (a.dtype.type(1) - momentum) * array(v)
        every = self.ema_overwrite_frequency
        if every and (int(self.iterations.numpy()) + 1) % every == 0:
            self._overwrite_with_averages(self._trainable_variables)

    def _overwrite_with_averages(self, variables):
        if len(variables) != len(self._averages):
            raise ValueError(f"The length of model variables ({len(variables)}) to override does "
                             f"not match the length of model variables stored in the optimizer "
                             f"({len(self._averages)}). Please check if the optimizer was called "
                             f"on your model.")
        for v, avg in zip(variables, self._averages):
            v.assign(array(avg).copy())

    def finalize_variable_values(self, var_list):
        """With ``use_ema``, sets the variables to their moving averages (end of training)."""
        if self.use_ema:
            self._overwrite_with_averages(list(var_list))

    # -- losses ------------------------------------------------------------------------------
    def scale_loss(self, loss):
        """``loss * loss_scale_factor`` when one is set (gradients are divided back)."""
        return loss * self.loss_scale_factor if self.loss_scale_factor is not None else loss

    def minimize(self, loss, var_list, tape=None):
        """One step on ``loss`` (a zero-argument callable, or a tensor recorded by ``tape``).
        Keras 3 dropped this Keras 2 method; it is kept for the tutorials that use it.

        >>> import tapegrad as tf
        >>> w = tf.Variable(3.0)
        >>> _ = tf.keras.optimizers.SGD(0.25).minimize(lambda: w * w, [w])
        >>> float(w)
        1.5
        """
        var_list = list(var_list() if callable(var_list) else var_list)
        if tape is None:
            with GradientTape() as tape:
                value = loss()
        else:
            value = loss
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    # -- config ------------------------------------------------------------------------------
    def get_config(self):
        lr = self._learning_rate
        if isinstance(lr, schedules_module.LearningRateSchedule):
            lr = schedules_module.serialize(lr)
        elif isinstance(lr, Variable):
            lr = float(lr.numpy())
        elif callable(lr):
            lr = getattr(lr, "__name__", repr(lr))
        return {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules_module.deserialize(config["learning_rate"],
                                                                   custom_objects)
        return cls(**config)

