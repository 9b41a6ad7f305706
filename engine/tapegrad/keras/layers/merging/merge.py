"""Layers that merge a list of tensors: ``Add``, ``Subtract``, ``Multiply``, ``Average``,
``Maximum``, ``Minimum``, ``Concatenate``, ``Dot``, and their functional forms (``add``...)."""
import functools

from ....ops import add as _add, concat, divide, maximum as _max, minimum as _min
from ....ops import multiply as _mul, subtract as _sub, l2_normalize, reduce_sum, expand_dims
from ....ops import matmul
from ..base import Layer, to_tensor
from ..layer_config import config_of


def _broadcast_shape(a, b):
    """The shape elementwise arithmetic on per-example shapes ``a`` and ``b`` gives (``None``
    for unknown sizes), or Keras's ValueError."""
    if len(a) < len(b):
        return _broadcast_shape(b, a)
    if not b:
        return a
    out = list(a[:len(a) - len(b)])
    for i, j in zip(a[len(a) - len(b):], b):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1:
            out.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {a} and {b}")
        else:
            out.append(i)
    return tuple(out)


def _shape_list(input_shape):
    """The inputs' shapes as a list, or None when the layer was not given a list of tensors."""
    if isinstance(input_shape, (list, tuple)) and input_shape and \
            all(isinstance(s, tuple) for s in input_shape):
        return list(input_shape)
    return None


class _Merge(Layer):
    _min_inputs = 1

    def check_input_shapes(self, input_shape):
        """The inputs' batch sizes agree and their other axes broadcast together."""
        input_shape = _shape_list(input_shape)
        if not input_shape:
            return
        batches = {s[0] for s in input_shape if s} - {None}
        if len(batches) > 1:
            raise ValueError(f"Cannot merge tensors with different batch sizes. Received "
                             f"tensors with shapes {input_shape}")
        functools.reduce(_broadcast_shape, [tuple(s[1:]) for s in input_shape])

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"inputs={inputs} (not a list of tensors)")
        xs = [to_tensor(x) for x in inputs]
        if len(xs) < self._min_inputs:
            raise ValueError(f"A merge layer should be called on a list of at least "
                             f"{self._min_inputs} inputs. Got {len(xs)} inputs.")
        return self._merge(xs)

    def _merge(self, xs):
        return functools.reduce(self._op, xs)

    def get_config(self):
        return config_of(self)


class Add(_Merge):
    """Elementwise sum of the inputs.

    >>> import tapegrad as tf
    >>> tf.keras.layers.Add()([tf.ones((1, 2)), tf.ones((1, 2))]).numpy()
    array([[2., 2.]], dtype=float32)
    """
    _op = staticmethod(_add)


class Multiply(_Merge):
    _op = staticmethod(_mul)


class Maximum(_Merge):
    _op = staticmethod(_max)


class Minimum(_Merge):
    _op = staticmethod(_min)


class Average(_Merge):
    def _merge(self, xs):
        return divide(functools.reduce(_add, xs), float(len(xs)))


class Subtract(_Merge):
    """``inputs[0] - inputs[1]`` (exactly two inputs)."""

    def _merge(self, xs):
        if len(xs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={xs}")
        return _sub(xs[0], xs[1])


class Concatenate(_Merge):
    """Joins the inputs along ``axis`` (the last by default)."""

    def __init__(self, axis=-1, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.axis = int(axis)

    def check_input_shapes(self, input_shape):
        """Every axis but ``axis`` (the batch's too) agrees, unknown sizes aside."""
        input_shape = _shape_list(input_shape)
        if not input_shape:
            return
        message = (f"A `Concatenate` layer requires inputs with matching shapes except for the "
                   f"concatenation axis. Received: input_shape={input_shape}")
        if len({len(s) for s in input_shape}) != 1:
            raise ValueError(message)
        rank = len(input_shape[0])
        for axis in range(rank):
            if rank and axis != self.axis % rank and \
                    len({s[axis] for s in input_shape} - {None}) > 1:
                raise ValueError(message)

    def _merge(self, xs):
        return concat(xs, axis=self.axis)

    def get_config(self):
        return config_of(self, axis=self.axis)


class Dot(_Merge):
    """Dot product of two (batch, ...) inputs along ``axes`` (cosine similarity with
    ``normalize=True``)."""

    def __init__(self, axes, normalize=False, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.axes, self.normalize = axes, bool(normalize)

    def check_input_shapes(self, input_shape):
        """Dot's inputs need not broadcast (its own checks are in ``_merge``)."""

    def _merge(self, xs):
        if len(xs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={xs}")
        a, b = xs
        axes = self.axes if isinstance(self.axes, (list, tuple)) else (self.axes, self.axes)
        ra, rb = a._value.ndim, b._value.ndim
        ax, bx = axes[0] % ra, axes[1] % rb
        if self.normalize:
            a, b = l2_normalize(a, axis=ax), l2_normalize(b, axis=bx)
        if ra == 2 and rb == 2:
            return expand_dims(reduce_sum(_mul(a, b), axis=1), 1)
        if ra == 3 and rb == 3:
            return matmul(a, b, transpose_a=(ax == 1), transpose_b=(bx == 2))
        raise NotImplementedError("Dot is implemented for two rank-2 or two rank-3 inputs")

    def get_config(self):
        return config_of(self, axes=self.axes, normalize=self.normalize)


def _functional(cls, doc):
    def merge(inputs, **kwargs):
        return cls(**kwargs)(inputs)
    merge.__name__ = cls.__name__.lower()
    merge.__doc__ = doc
    return merge


add = _functional(Add, "``Add()(inputs)``.")
subtract = _functional(Subtract, "``Subtract()(inputs)``.")
multiply = _functional(Multiply, "``Multiply()(inputs)``.")
average = _functional(Average, "``Average()(inputs)``.")
maximum = _functional(Maximum, "``Maximum()(inputs)``.")
minimum = _functional(Minimum, "``Minimum()(inputs)``.")
concatenate = _functional(Concatenate, "``Concatenate(axis)(inputs)``.")
dot = _functional(Dot, "``Dot(axes)(inputs)``.")
