"""The ``Loss`` base class: converting inputs, reducing per-example values, sample weights.

A loss object computes per-example values with ``call`` and reduces them:
``"sum_over_batch_size"`` (the default) and ``"mean"`` divide the sum by the number of values,
``"mean_with_sample_weight"`` by the sum of the weights, ``"sum"`` sums, ``"none"``/``None`` keep
them. Inputs are converted to float32 first, as Keras does.

>>> import tapegrad as tf
>>> class AbsError(tf.keras.losses.Loss):
...     def call(self, y_true, y_pred):
...         return tf.reduce_mean(tf.abs(y_pred - y_true), axis=-1)
>>> float(AbsError()(tf.constant([[1.0, 2.0]]), tf.constant([[2.0, 4.0]])))
1.5
"""

from ... import nest
from ... import ops
from ...distribute import context as distribute_context
from ...errors import InvalidArgumentError
from ...function import executing_eagerly
from ...tensor import Tensor, checked_shape, convert_to_tensor
from ...variables import Variable
from .. import naming

EPSILON = 1e-7  # Keras's backend.epsilon()

REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


def standardize_reduction(reduction):
    """``reduction`` when Keras accepts it, else the ValueError Keras raises."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of "
                         f"{set(REDUCTIONS)}. Received: reduction={reduction}")
    return reduction


def as_tensor(x, dtype=None):
    """``x`` as a Tensor (a Variable is read, so tapes see it), cast to ``dtype`` if given."""
    if isinstance(x, Variable):
        x = x.read_value()
    elif not isinstance(x, Tensor):
        x = convert_to_tensor(x)
    if dtype is not None and x.dtype != dtype:
        x = ops.cast(x, dtype)
    return x


def rank(x):
    return x.ndim if isinstance(x, Tensor) else len(x.shape)


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Where ranks differ by one and the longer one ends in 1: Keras squeezes that axis (or, for a
    rank-1 partner, expands the partner instead)."""
    r1, r2 = rank(x1), rank(x2)
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, -1)
        else:
            x1 = ops.squeeze(x1, -1)
    elif r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, -1)
        else:
            x2 = ops.squeeze(x2, -1)
    return x1, x2


def _structure(x):
    """Keras maps loss objects over nested Python lists leaf by leaf; this is their skeleton."""
    if isinstance(x, (list, tuple)):
        return [_structure(v) for v in x]
    return None


def check_same_structure(y_true, y_pred):
    """Raises the ValueError Keras raises when ``y_true`` and ``y_pred`` are nested differently
    (a Python list on one side and a tensor on the other counts as different)."""
    t_nested, p_nested = isinstance(y_true, (list, tuple)), isinstance(y_pred, (list, tuple))
    if t_nested and not p_nested:
        raise ValueError(f"Expected an instance of list, got {y_pred!r}.")
    if (t_nested or p_nested) and _structure(y_true) != _structure(y_pred):
        raise ValueError("Structures don't have the same nested structure.")


def divide_no_nan(x, y):
    return ops.divide_no_nan(x, y)


def reduce_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    """Keras's reduction of per-example values; a scalar or an empty vector is left as it is."""
    if reduction in (None, "none") or rank(values) == 0 or \
            (isinstance(values, Tensor) and checked_shape(values) == (0,)):
        return values          # (a check a traced step need not depend on: an empty batch)
    total = ops.reduce_sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        return scale_loss_for_distribution(
            divide_no_nan(total, ops.cast(ops.reduce_sum(sample_weight), total.dtype)))
    if executing_eagerly():
        count = 1
        for d in values.shape:
            count *= int(d)
        divisor = convert_to_tensor(float(count), dtype=total.dtype)
        # Keras divides with divide_no_nan; with a known nonzero count a plain division is the
        # same
        mean = ops.divide(total, divisor) if count else divide_no_nan(total, divisor)
    else:     # (in a traced step, the count of this call's values: the graph serves any size)
        mean = divide_no_nan(total, ops.cast(ops.size(values), total.dtype))
    return scale_loss_for_distribution(mean)


def _replicas():
    return distribute_context.get_strategy().num_replicas_in_sync


def scale_loss_for_distribution(value):
    """``value / num_replicas_in_sync`` under a strategy of several replicas (Keras divides
    every mean loss so; the optimizer then sums the replicas' gradients)."""
    count = _replicas()
    if count == 1:
        return value
    return ops.multiply(value, convert_to_tensor(1.0 / count, dtype=value.dtype))


def unscale_loss_for_distribution(value):
    """``value * num_replicas_in_sync`` under a strategy of several replicas (the loss a
    replica logs)."""
    count = _replicas()
    if count == 1:
        return value
    return ops.multiply(value, convert_to_tensor(float(count), dtype=value.dtype))


def apply_mask(sample_weight, mask, dtype, reduction):
    """Folds a boolean mask into the sample weights; for mean reductions the kept values are
    scaled up so that the mean is over the kept values only."""
    if mask is None:
        return sample_weight
    mask = as_tensor(mask)
    if reduction in ("mean", "sum_over_batch_size"):
        count = 1
        for d in mask.shape:
            count *= int(d)
        valid = ops.reduce_sum(ops.cast(mask, dtype))
        scale = divide_no_nan(convert_to_tensor(float(count), dtype=dtype), valid)
        float_mask = ops.where(ops.cast(mask, "bool"), scale, ops.zeros_like(scale))
    else:
        float_mask = ops.cast(mask, dtype)
    if sample_weight is None:
        return float_mask
    sample_weight = ops.cast(sample_weight, dtype)
    float_mask, sample_weight = squeeze_or_expand_to_same_rank(float_mask, sample_weight)
    return ops.multiply(sample_weight, float_mask)


def reduce_weighted_values(values, sample_weight=None, mask=None,
                           reduction="sum_over_batch_size", dtype="float32"):
    """Weights (and masks) per-example loss values, then reduces them."""
    reduction = standardize_reduction(reduction)
    values = as_tensor(values, dtype)
    if sample_weight is not None:
        sample_weight = as_tensor(sample_weight, dtype)
    sample_weight = apply_mask(sample_weight, mask, values.dtype, reduction)
    if sample_weight is not None:
        sample_weight = ops.cast(sample_weight, values.dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        values = ops.multiply(values, sample_weight)
    return reduce_values(values, sample_weight, reduction)


class Loss:
    """Base class of losses: subclass it and write ``call(y_true, y_pred)`` returning one value
    per example; calling the object weights and reduces those values.

    >>> import tapegrad as tf
    >>> float(tf.keras.losses.MeanSquaredError(reduction="sum")(
    ...     tf.constant([[0.0, 1.0], [1.0, 1.0]]), tf.constant([[1.0, 1.0], [1.0, 3.0]])))
    2.5
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or naming.unique_name(naming.to_snake_case(type(self).__name__))
        self.reduction = standardize_reduction(reduction)
        self._dtype = dtype or "float32"

    @property
    def dtype(self):
        return self._dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        in_mask = getattr(y_pred, "_keras_mask", None)
        y_pred = nest.map_structure(lambda x: as_tensor(x, self.dtype), y_pred)
        y_true = nest.map_structure(lambda x: as_tensor(x, self.dtype), y_true)
        values, out_mask = self._values_and_mask(y_true, y_pred)
        if in_mask is not None and out_mask is not None:
            mask = ops.logical_and(ops.cast(in_mask, "bool"), ops.cast(out_mask, "bool"))
        else:
            mask = in_mask if in_mask is not None else out_mask
        return reduce_weighted_values(values, sample_weight=sample_weight, mask=mask,
                                      reduction=self.reduction, dtype=self.dtype)

    def _values_and_mask(self, y_true, y_pred):
        """The per-example values and a mask of the ones that count (None: all)."""
        return self.call(y_true, y_pred), None

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__} must implement call(y_true, y_pred)")

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _stacked(x):
    """A nested list of scalar tensors (what ``Loss.__call__`` makes of a Python list) as one."""
    return ops.stack([_stacked(v) for v in x]) if isinstance(x, (list, tuple)) else x


class LossFunctionWrapper(Loss):
    """A loss object made from a function ``fn(y_true, y_pred, **kwargs)`` of per-example values.

    >>> import tapegrad as tf
    >>> wrapped = tf.keras.losses.LossFunctionWrapper(tf.keras.losses.mse, name="sq")
    >>> float(wrapped(tf.constant([[1.0, 3.0]]), tf.constant([[2.0, 3.0]])))
    0.5
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def aligned(self, y_true, y_pred):
        """The two inputs ready for ``fn``: same nesting checked, ranks matched."""
        check_same_structure(y_true, y_pred)
        if isinstance(y_true, (list, tuple)):  # same nesting on both sides: leaves are scalars
            return _stacked(y_true), _stacked(y_pred)
        return squeeze_or_expand_to_same_rank(y_true, y_pred)

    def call(self, y_true, y_pred):
        return self.fn(*self.aligned(y_true, y_pred), **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({"fn": getattr(self.fn, "__name__", repr(self.fn))})
        config.update(self._fn_kwargs)
        return config

    def __repr__(self):
        return f"<LossFunctionWrapper({self.fn}, kwargs={self._fn_kwargs})>"


class FunctionLoss(LossFunctionWrapper):
    """A built-in loss class: its config is the base config plus the options it names, which it
    keeps as attributes from the keyword arguments it passes to its function."""
    _options = ()

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(fn, reduction=reduction, name=name, dtype=dtype, **kwargs)
        for option in self._options:
            if option in kwargs:
                setattr(self, option, kwargs[option])

    def get_config(self):
        config = Loss.get_config(self)
        config.update({k: getattr(self, k) for k in self._options})
        return config


def mean_over_last_axis(x):
    """``reduce_mean(x, axis=-1)`` as Keras's ``ops.mean`` does it: integers averaged in float32,
    TensorFlow's error for a scalar."""
    if rank(x) == 0:
        raise InvalidArgumentError("Invalid reduction dimension (-1 for input with 0 "
                                   "dimension(s) [Op:Mean]")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = ops.cast(x, "float32")
    return ops.reduce_mean(x, axis=-1)


def pair(y_true, y_pred):
    """The two inputs of a loss function as tensors, ``y_true`` cast to ``y_pred``'s dtype."""
    y_pred = as_tensor(y_pred)
    y_true = as_tensor(y_true, y_pred.dtype)
    return y_true, y_pred


def const(value, like):
    """A scalar constant of ``like``'s dtype."""
    return convert_to_tensor(value, dtype=like.dtype)
