"""``tf.keras.metrics.Metric``: a stateful measure, ``update_state`` then ``result``.

The state lives in non-trainable variables (``metric.variables``); updates are computed with
NumPy (metrics are never differentiated), in float32 like Keras.

>>> import tapegrad as tf
>>> m = tf.keras.metrics.Mean()
>>> m.update_state([1., 2., 3.])
>>> float(m.result())
2.0

Every ``result()`` that returns, of any metric class (user subclasses included), is reported to
the callables in ``Metric.result_observers`` as ``observer(metric, value)``:

>>> seen = []
>>> tf.keras.metrics.Metric.result_observers.append(lambda metric, value: seen.append(metric.name))
>>> _ = m.result()
>>> tf.keras.metrics.Metric.result_observers.clear()
>>> seen
['mean']
"""
import functools

from ... import dtypes
from ...backend import xp
from ...replayed import replayed
from ...tensor import wrap
from ...variables import Variable
from ..naming import unique_name
from ...module import _snake


def as_array(x, dtype=None):
    """A NumPy array from a tensor, variable, array or Python value."""
    if hasattr(x, "_as_tensor"):
        x = x._as_tensor()
    value = getattr(x, "_value", None)
    a = xp.asarray(value if value is not None else x)
    return a.astype(dtype) if dtype is not None else a


def same_rank(x1, x2):
    """Squeezes or expands a trailing size-1 axis so both arrays have one rank (Keras's rule)."""
    r1, r2 = x1.ndim, x2.ndim
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1:
            x2 = xp.expand_dims(x2, -1)
        else:
            x1 = xp.squeeze(x1, -1)
    elif r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1:
            x1 = xp.expand_dims(x1, -1)
        else:
            x2 = xp.squeeze(x2, -1)
    return x1, x2


_reporting = set()     # ids of the metrics whose result() is running under an observed call


def require_2d(metric, true_shape, pred_shape):
    """Keras's check for the metrics that keep one state per output column."""
    if len(pred_shape) != 2 or len(true_shape) != 2:
        raise ValueError(f"{metric} expects 2D inputs with shape (batch_size, output_dim). "
                         f"Received input shapes: y_pred.shape={pred_shape} and "
                         f"y_true.shape={true_shape}.")
    return pred_shape[-1]


def _observed(result):
    """``result`` reporting its value to ``Metric.result_observers`` when it returns; a result
    that calls another class's result of the same metric (``super().result()``) reports once."""
    @functools.wraps(result)
    def observed_result(self, *args, **kwargs):
        observers = Metric.result_observers
        if not observers or id(self) in _reporting:
            return result(self, *args, **kwargs)
        _reporting.add(id(self))
        try:
            value = result(self, *args, **kwargs)
        finally:
            _reporting.discard(id(self))
        for observer in tuple(observers):
            observer(self, value)
        return value
    observed_result._observed = True
    return observed_result


_ENGINE = __name__.split(".")[0] + "."


def _replayed_methods(cls):
    """An engine metric's ``update_state`` and ``result`` compute with NumPy: in a traced step
    (``fit``'s ``train_function``, a user's ``tf.function``) each is one node called again on
    every call (``replayed.py``), as TensorFlow's graph runs the metric's ops."""
    for name, op in (("update_state", "MetricUpdateState"), ("result", "MetricResult")):
        method = cls.__dict__.get(name)
        if callable(method) and not hasattr(method, "replayed"):
            setattr(cls, name, replayed(op)(method))


class Metric:
    """Subclasses create state with ``add_variable`` and implement ``update_state``,
    ``result`` (and ``reset_state`` when zeros are not the initial state).

    ``result_observers``: callables ``observer(metric, value)`` called each time a metric's
    ``result()`` returns (one list for every metric class; costs one check when empty)."""

    result_observers = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        result = cls.__dict__.get("result")
        if callable(result) and not getattr(result, "_observed", False):
            cls.result = _observed(result)
        if cls.__module__.startswith(_ENGINE):
            _replayed_methods(cls)

    def __init__(self, name=None, dtype=None):
        self.name = name if name is not None else unique_name(_snake(type(self).__name__))
        self.dtype = dtypes.as_dtype(dtype or "float32").name
        self._variables = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        np_dtype = dtypes.as_dtype(dtype or self.dtype)._np
        init = xp.ones(shape, np_dtype) if initializer == "ones" else xp.zeros(shape, np_dtype)
        v = Variable(init, trainable=False, name=name or "variable", dtype=np_dtype)
        self._variables.append((v, initializer))
        return v

    add_weight = add_variable

    @property
    def variables(self):
        return [v for v, _ in self._variables]

    def reset_state(self):
        for v, initializer in self._variables:
            v.assign(xp.ones(v.shape, v._value.dtype) if initializer == "ones"
                     else xp.zeros(v.shape, v._value.dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}.update_state is not implemented")

    def result(self):
        raise NotImplementedError(f"{type(self).__name__}.result is not implemented")

    def __call__(self, *args, **kwargs):
        """Updates the state with this batch and returns the result (as Keras does)."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"

    def _scalar(self, value):
        return wrap(xp.asarray(value, dtypes.as_dtype(self.dtype)._np))
