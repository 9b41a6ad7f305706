"""``tf.keras.optimizers.schedules``: learning rates as functions of the step count.

An optimizer given a schedule calls it with its ``iterations`` before each step. Values are
computed in float32 in the order Keras computes them.

>>> import tapegrad as tf
>>> sched = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> round(float(sched(10)), 6)
0.05
"""
import math

from ...backend import xp
from ..serialization import deserialize_keras_object, publish, serialize_keras_object
from ...tensor import convert_to_tensor

F32 = xp.float32


def _value(x):
    """A step or a hyperparameter as a NumPy value (Variables and tensors are read)."""
    if hasattr(x, "numpy"):
        x = x.numpy()
    return xp.asarray(x)


def _float(x, dtype=F32):
    return _value(x).astype(dtype)


def _rate_dtype(initial):
    """Keras computes in the dtype of the initial rate as a tensor: float32 for Python floats."""
    v = _value(initial)
    return v.dtype if v.dtype.kind == "f" and not isinstance(initial, float) else xp.dtype(F32)


def _result(x):
    return convert_to_tensor(xp.asarray(x))


def _check_steps(name, value):
    if value <= 0:
        raise ValueError(f"Argument `{name}` must be > 0. Received: {name}={value}")


class LearningRateSchedule:
    """Base class of schedules: subclass it with ``__call__(step)`` and ``get_config()``.

    >>> import tapegrad as tf
    >>> class Halving(tf.keras.optimizers.schedules.LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return 0.4 * 0.5 ** float(step)
    ...     def get_config(self):
    ...         return {}
    >>> Halving()(2)
    0.1
    """

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                  f"`__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                  f"`get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _StepDecay(LearningRateSchedule):
    """What ExponentialDecay and InverseTimeDecay share: the progress ``step / decay_steps``
    (floored with ``staircase=True``), given with the rates to ``_decayed(lr, rate, progress)``."""

    _default_name = None

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = self._default_name if name is None else name
        _check_steps("decay_steps", decay_steps)

    def __call__(self, step):
        dt = _rate_dtype(self.initial_learning_rate)
        p = _float(step, dt) / _float(self.decay_steps, dt)
        if self.staircase:
            p = xp.floor(p)
        return _result(self._decayed(_float(self.initial_learning_rate, dt),
                                     _float(self.decay_rate, dt), p, dt))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_StepDecay):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (the exponent floored with
    ``staircase=True``).

    >>> import tapegrad as tf
    >>> s = tf.keras.optimizers.schedules.ExponentialDecay(1.0, 2, 0.5, staircase=True)
    >>> [float(s(k)) for k in (0, 1, 2, 3)]
    [1.0, 1.0, 0.5, 0.5]
    """

    _default_name = "ExponentialDecay"

    def _decayed(self, lr, rate, progress, dt):
        return lr * xp.power(rate, progress)


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` up to ``boundaries[0]`` (inclusive), ``values[1]`` up to
    ``boundaries[1]``, ..., ``values[-1]`` after the last boundary.

    >>> import tapegrad as tf
    >>> s = tf.keras.optimizers.schedules.PiecewiseConstantDecay([2, 4], [1.0, 0.5, 0.25])
    >>> [float(s(k)) for k in (2, 3, 5)]
    [1.0, 0.5, 0.25]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        step = _value(step)
        bounds = [_value(b).astype(step.dtype) for b in self.boundaries]
        values = [_value(convert_to_tensor(v)) for v in self.values]
        dt = values[0].dtype
        result = xp.asarray(0, dtype=dt)
        result = result + (step <= bounds[0]).astype(dt) * values[0]
        result = result + (step > bounds[-1]).astype(dt) * values[-1]
        for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1]):
            result = result + ((step > low) & (step <= high)).astype(dt) * value
        return _result(result.astype(dt))

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From ``initial_learning_rate`` to ``end_learning_rate`` over ``decay_steps`` along
    ``(1 - step / decay_steps) ** power``; with ``cycle=True`` the horizon grows by
    ``decay_steps`` each time it is reached.

    >>> import tapegrad as tf
    >>> s = tf.keras.optimizers.schedules.PolynomialDecay(1.0, 4, end_learning_rate=0.0)
    >>> [float(s(k)) for k in (0, 2, 4, 8)]
    [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name
        _check_steps("decay_steps", decay_steps)

    def __call__(self, step):
        dt = _rate_dtype(self.initial_learning_rate)
        initial = _float(self.initial_learning_rate, dt)
        end = _float(self.end_learning_rate, dt)
        step = _float(step, dt)
        decay_steps = _float(self.decay_steps, dt)
        if self.cycle:
            multiplier = xp.where(step == 0, dt.type(1.0), xp.ceil(step / decay_steps))
            decay_steps = decay_steps * multiplier.astype(dt)
        else:
            step = xp.minimum(step, decay_steps)
        p = step / decay_steps
        return _result((initial - end) * xp.power(dt.type(1) - p, _float(self.power, dt)) + end)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class InverseTimeDecay(_StepDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)`` (the quotient floored
    with ``staircase=True``).

    >>> import tapegrad as tf
    >>> s = tf.keras.optimizers.schedules.InverseTimeDecay(1.0, decay_steps=1, decay_rate=1.0)
    >>> [float(s(k)) for k in (0, 1, 3)]
    [1.0, 0.5, 0.25]
    """

    _default_name = "InverseTimeDecay"

    def _decayed(self, lr, rate, progress, dt):
        return lr / (dt.type(1) + rate * progress)


def _cosine(fraction, alpha, dt):
    """``(1 - alpha) * 0.5 * (1 + cos(pi * fraction)) + alpha``."""
    decayed = dt.type(0.5) * (dt.type(1.0) + xp.cos(dt.type(math.pi) * fraction))
    return dt.type(1 - alpha) * decayed + dt.type(alpha)


class CosineDecay(LearningRateSchedule):
    """Half a cosine from the rate down to ``alpha`` times it over ``decay_steps``; with
    ``warmup_target``, first a linear rise to it over ``warmup_steps``.

    >>> import tapegrad as tf
    >>> s = tf.keras.optimizers.schedules.CosineDecay(1.0, decay_steps=2)
    >>> [round(float(s(k)), 6) for k in (0, 1, 2, 3)]
    [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target
        _check_steps("decay_steps", decay_steps)

    def __call__(self, step):
        dt = _rate_dtype(self.initial_learning_rate)
        initial = _float(self.initial_learning_rate, dt)
        decay_steps = _float(self.decay_steps, dt)
        step = _float(step, dt)
        if self.warmup_target is None:
            step = xp.minimum(step, decay_steps)
            return _result(initial * _cosine(step / decay_steps, self.alpha, dt))
        target = _float(self.warmup_target, dt)
        warmup_steps = _float(self.warmup_steps, dt)
        step = xp.minimum(step, decay_steps + warmup_steps)
        if step < warmup_steps:
            return _result((target - initial) * (step / warmup_steps) + initial)
        return _result(target * _cosine((step - warmup_steps) / decay_steps, self.alpha, dt))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay restarted every period (SGDR): periods grow by ``t_mul``, each restart
    starts ``m_mul`` times lower.

    >>> import tapegrad as tf
    >>> s = tf.keras.optimizers.schedules.CosineDecayRestarts(1.0, 2, t_mul=1.0)
    >>> [round(float(s(k)), 6) for k in (0, 1, 2, 3)]
    [1.0, 0.5, 1.0, 0.5]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                 name="SGDRDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name
        _check_steps("first_decay_steps", first_decay_steps)

    def __call__(self, step):
        dt = _rate_dtype(self.initial_learning_rate)
        one = dt.type(1.0)
        alpha = _float(self.alpha, dt)
        t_mul = _float(self._t_mul, dt)
        m_mul = _float(self._m_mul, dt)
        fraction = _float(step, dt) / _float(self.first_decay_steps, dt)
        if t_mul == 1.0:
            restart = xp.floor(fraction)
            fraction = fraction - restart
        else:  # periods of first * t_mul ** i: which one the step is in, and how far into it
            restart = xp.floor(xp.log(one - fraction * (one - t_mul)) / xp.log(t_mul))
            done = (one - xp.power(t_mul, restart)) / (one - t_mul)
            fraction = (fraction - done) / xp.power(t_mul, restart)
        m_fac = xp.power(m_mul, restart)
        cosine = dt.type(0.5) * m_fac * (one + xp.cos(dt.type(math.pi) * fraction))
        decayed = (one - alpha) * cosine + alpha
        return _result(_float(self.initial_learning_rate, dt) * decayed)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_SCHEDULES = publish("keras.optimizers.schedules", {c.__name__: c for c in (
    LearningRateSchedule, ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay,
    InverseTimeDecay, CosineDecay, CosineDecayRestarts)})


def serialize(learning_rate_schedule):
    """A schedule as ``{"module", "class_name", "config", "registered_name"}``.

    >>> import tapegrad as tf
    >>> S = tf.keras.optimizers.schedules
    >>> S.serialize(S.CosineDecay(0.1, 10))["class_name"]
    'CosineDecay'
    """
    return serialize_keras_object(learning_rate_schedule)


def deserialize(config, custom_objects=None):
    """The schedule a ``serialize`` description stands for."""
    return deserialize_keras_object(config, custom_objects, module_objects=_SCHEDULES)
