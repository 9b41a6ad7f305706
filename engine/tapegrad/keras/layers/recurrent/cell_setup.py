"""What a recurrent cell and the recurrent layer running it share, in one place: the arguments
(``CellSetup``), the weights ``kernel`` (input -> gates), ``recurrent_kernel`` (state -> gates)
and ``bias`` with the gates side by side in Keras's order (LSTM: i, f, c, o; GRU: z, r, h), the
dropout masks, the config, and each kind's step math (``SimpleRNNStep``, ``LSTMStep``,
``GRUStep``). ``SimpleRNNCell`` and ``SimpleRNN`` are both ``SimpleRNNStep`` on top of their own
base, so a cell with a layer's weights gives the layer's numbers."""
from ....ops import add, concat, dropout as _dropout, matmul, multiply, ones_like, split
from ....ops import subtract, unstack
from ... import activations, initializers
from ..base import Layer
from ..layer_config import describe


def _units(units):
    """A cell's ``units``: Keras compares it with 0, then needs an int as the state size."""
    if units <= 0:
        raise ValueError(f"Received an invalid value for argument `units`, expected a positive "
                         f"integer, got {units}.")
    if not isinstance(units, int):
        raise ValueError("state_size must be an integer, or a list/tuple of integers (one for "
                         "each state tensor).")
    return int(units)


def _rate(rate):
    """A cell's ``dropout`` or ``recurrent_dropout``, clipped to [0, 1] as Keras does."""
    return min(1.0, max(0.0, float(rate)))


class _UnitForgetBias(initializers.Initializer):
    """Zeros with ones in the forget gate's block (LSTM's ``unit_forget_bias``)."""

    def __init__(self, units, base):
        self.units, self.base = units, initializers.get(base)

    def __call__(self, shape, dtype="float32"):
        u = self.units
        parts = [self.base((u,), dtype), initializers.Ones()((u,), dtype),
                 self.base((2 * u,), dtype)]
        return concat(parts, 0)


class CellSetup(Layer):
    """The arguments of a recurrent cell, its weights and its dropout masks."""
    _gates = 1
    _n_states = 1

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.units = _units(units)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = kernel_initializer
        self.recurrent_initializer = recurrent_initializer
        self.bias_initializer = bias_initializer
        self.kernel_regularizer = kernel_regularizer
        self.recurrent_regularizer = recurrent_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint, self.recurrent_constraint = kernel_constraint, recurrent_constraint
        self.bias_constraint = bias_constraint
        self.dropout = _rate(dropout)
        self.recurrent_dropout = _rate(recurrent_dropout)
        self.seed = seed

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def _build_weights(self, input_dim):
        g = self._gates * self.units
        self.kernel = self.add_weight(shape=(int(input_dim), g), name="kernel",
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.recurrent_kernel = self.add_weight(shape=(self.units, g), name="recurrent_kernel",
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer)
        self.bias = self.add_weight(shape=self._bias_shape(), name="bias",
                                    initializer=self._bias_initializer(),
                                    regularizer=self.bias_regularizer) if self.use_bias else None
        self.built = True

    def _dropout_mask(self, like, rate):
        """One dropout mask for a whole sequence (None when ``rate`` drops nothing)."""
        if not 0 < rate < 1:
            return None
        return _dropout(ones_like(like), rate, seed=self.seed)

    def _cell_config(self):
        """The cell's arguments as Keras 3 lists them."""
        fields = {"units": self.units, "activation": self.activation}
        fields.update(self._gate_config())
        fields.update(use_bias=self.use_bias, kernel_initializer=self.kernel_initializer,
                      recurrent_initializer=self.recurrent_initializer,
                      bias_initializer=self.bias_initializer)
        fields.update(self._bias_config())
        fields.update(kernel_regularizer=self.kernel_regularizer,
                      recurrent_regularizer=self.recurrent_regularizer,
                      bias_regularizer=self.bias_regularizer,
                      kernel_constraint=self.kernel_constraint,
                      recurrent_constraint=self.recurrent_constraint,
                      bias_constraint=self.bias_constraint, dropout=self.dropout,
                      recurrent_dropout=self.recurrent_dropout, seed=self.seed)
        return {key: describe(key, value) for key, value in fields.items()}

    def _gate_config(self):
        return {}

    def _bias_config(self):
        return {}


def _affine(x, kernel, bias):
    y = matmul(x, kernel)
    return add(y, bias) if bias is not None else y


class SimpleRNNStep:
    """``h_t = activation(x_t @ kernel + bias + h_{t-1} @ recurrent_kernel)``."""

    def _step(self, x_t, states, h_in):
        h = self.activation(add(_affine(x_t, self.kernel, self.bias),
                                matmul(h_in, self.recurrent_kernel)))
        return h, [h]


class _GatedStep:
    """The ``recurrent_activation`` of LSTM and GRU, taken before the shared arguments."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)

    def _gate_config(self):
        return {"recurrent_activation": self.recurrent_activation}


class LSTMStep(_GatedStep):
    """Long short-term memory; states ``[h, c]``, gates i, f, c, o side by side."""
    _gates = 4
    _n_states = 2

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 unit_forget_bias=True, **kwargs):
        super().__init__(units, activation, recurrent_activation, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)

    def _bias_initializer(self):
        if self.unit_forget_bias:
            return _UnitForgetBias(self.units, self.bias_initializer)
        return self.bias_initializer

    def _bias_config(self):
        return {"unit_forget_bias": self.unit_forget_bias}

    def _step(self, x_t, states, h_in):
        c = states[1]
        z = add(_affine(x_t, self.kernel, self.bias), matmul(h_in, self.recurrent_kernel))
        zi, zf, zc, zo = split(z, 4, axis=1)
        i, f, o = (self.recurrent_activation(zi), self.recurrent_activation(zf),
                   self.recurrent_activation(zo))
        c = add(multiply(f, c), multiply(i, self.activation(zc)))
        h = multiply(o, self.activation(c))
        return h, [h, c]


class GRUStep(_GatedStep):
    """Gated recurrent unit, gates z, r, h side by side. Keras 3's default ``reset_after=True``
    applies the reset gate after the recurrent matmul and keeps two biases (input, recurrent):
    ``bias`` has shape (2, 3 * units)."""
    _gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 reset_after=True, **kwargs):
        super().__init__(units, activation, recurrent_activation, **kwargs)
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _bias_config(self):
        return {"reset_after": self.reset_after}

    def _step(self, x_t, states, h_in):
        """``h_in`` (the state, dropped out in training) feeds the recurrent matmuls; the
        carried state ``states[0]`` is what the update gate interpolates."""
        h = states[0]
        u = self.units
        if self.reset_after:
            b_in, b_rec = (unstack(self.bias, axis=0) if self.bias is not None else (None, None))
            xz, xr, xh = split(_affine(x_t, self.kernel, b_in), 3, axis=1)
            hz, hr, hh = split(_affine(h_in, self.recurrent_kernel, b_rec), 3, axis=1)
            z = self.recurrent_activation(add(xz, hz))
            r = self.recurrent_activation(add(xr, hr))
            candidate = self.activation(add(xh, multiply(r, hh)))
        else:
            xz, xr, xh = split(_affine(x_t, self.kernel, self.bias), 3, axis=1)
            rk_zr, rk_h = self.recurrent_kernel[:, :2 * u], self.recurrent_kernel[:, 2 * u:]
            hz, hr = split(matmul(h_in, rk_zr), 2, axis=1)
            z = self.recurrent_activation(add(xz, hz))
            r = self.recurrent_activation(add(xr, hr))
            candidate = self.activation(add(xh, matmul(multiply(r, h_in), rk_h)))
        h = add(multiply(z, h), multiply(subtract(1.0, z), candidate))
        return h, [h]
