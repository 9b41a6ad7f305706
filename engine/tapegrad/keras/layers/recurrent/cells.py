"""Keras recurrent cells ``SimpleRNNCell``, ``LSTMCell``, ``GRUCell`` and ``StackedRNNCells``.

A cell computes one time step: ``cell(x_t, states) -> (output_t, new_states)``; the ``RNN``
layer (``rnn.py``) runs it over time. A cell is its kind's set-up and step math
(``cell_setup.py``, shared with ``SimpleRNN``, ``LSTM``, ``GRU``) on top of ``Cell``. Weights:
``kernel``, ``recurrent_kernel``, ``bias`` (Keras's layout and gate order).
"""
from ....ops import zeros as _zeros, cast
from ..base import Layer, _accepts, to_tensor
from ..layer_config import config_of, layer_description, with_layers
from .cell_setup import CellSetup, GRUStep, LSTMStep, SimpleRNNStep


class Cell(CellSetup):
    """A cell as ``RNN`` calls it: states in, states out, one dropout mask per sequence."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sequence_masks = None  # (input mask, state mask) fixed by RNN for one sequence

    @property
    def state_size(self):
        return self.units if self._n_states == 1 else [self.units] * self._n_states

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        self._build_weights(input_shape[-1])

    def get_initial_state(self, batch_size=None):
        """Zero states, one (batch_size, units) tensor per state."""
        return [_zeros((int(batch_size), self.units), self.dtype_policy)
                for _ in range(self._n_states)]

    def _begin_sequence(self, x_first, h_first, training):
        """Called by ``RNN``: one dropout mask per sequence (None outside training)."""
        self._sequence_masks = (self._dropout_mask(x_first, self.dropout),
                                self._dropout_mask(h_first, self.recurrent_dropout)) \
            if training else None

    def _end_sequence(self):
        self._sequence_masks = None

    def call(self, inputs, states, training=None):
        nested = isinstance(states, (list, tuple))
        state_list = [to_tensor(s) for s in (states if nested else [states])]
        if len(state_list) != self._n_states:
            raise ValueError(f"{type(self).__name__} expects {self._n_states} state(s), "
                             f"got {len(state_list)}")
        x = to_tensor(inputs)
        if x.dtype != self.kernel.dtype:
            x = cast(x, self.kernel.dtype)
        if self._sequence_masks is not None:
            x_mask, h_mask = self._sequence_masks
        elif training:
            x_mask, h_mask = (self._dropout_mask(x, self.dropout),
                              self._dropout_mask(state_list[0], self.recurrent_dropout))
        else:
            x_mask = h_mask = None
        if x_mask is not None:
            x = x * x_mask
        h_in = state_list[0] * h_mask if h_mask is not None else state_list[0]
        out, new_states = self._step(x, state_list, h_in)
        if self._n_states == 1 and not nested:
            return out, new_states[0]
        return out, new_states

    def get_config(self):
        config = config_of(self)
        config.update(self._cell_config())
        return config


class SimpleRNNCell(SimpleRNNStep, Cell):
    """One step of ``SimpleRNN``: ``h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)``.

    >>> import tapegrad as tf
    >>> cell = tf.keras.layers.SimpleRNNCell(4)
    >>> out, [h] = cell(tf.zeros((2, 3)), [tf.zeros((2, 4))])
    >>> out.shape
    TensorShape([2, 4])
    """


class LSTMCell(LSTMStep, Cell):
    """One step of ``LSTM``; states ``[h, c]``, gates i, f, c, o side by side.

    >>> import tapegrad as tf
    >>> cell = tf.keras.layers.LSTMCell(4)
    >>> out, (h, c) = cell(tf.zeros((2, 3)), cell.get_initial_state(batch_size=2))
    >>> c.shape
    TensorShape([2, 4])
    """


class GRUCell(GRUStep, Cell):
    """One step of ``GRU`` (gates z, r, h; Keras 3's ``reset_after=True`` keeps a (2, 3 * units)
    bias: input bias, recurrent bias).

    >>> import tapegrad as tf
    >>> cell = tf.keras.layers.GRUCell(4)
    >>> out, h = cell(tf.zeros((2, 3)), tf.zeros((2, 4)))
    >>> h.shape
    TensorShape([2, 4])
    """


def check_cell(cell, no_call, no_state_size):
    """A cell has a ``call`` method and a ``state_size`` (else ValueError with the message
    the caller gives)."""
    if "call" not in dir(cell):
        raise ValueError(no_call)
    if "state_size" not in dir(cell):
        raise ValueError(no_state_size)


class StackedRNNCells(Layer):
    """Cells run one after another within each time step: each cell's output is the next
    cell's input; the states are one entry per cell.

    >>> import tapegrad as tf
    >>> cells = tf.keras.layers.StackedRNNCells([tf.keras.layers.LSTMCell(3),
    ...                                          tf.keras.layers.GRUCell(2)])
    >>> tf.keras.layers.RNN(cells)(tf.zeros((2, 4, 5))).shape
    TensorShape([2, 2])
    """

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            check_cell(cell, f"All cells must have a `call` method. Received cell without a "
                             f"`call` method: {cell}",
                       f"All cells must have a `state_size` attribute. Received cell without "
                       f"a `state_size`: {cell}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def get_initial_state(self, batch_size=None):
        states = []
        for cell in self.cells:
            if hasattr(cell, "get_initial_state"):
                states.append(cell.get_initial_state(batch_size=batch_size))
            elif isinstance(cell.state_size, int):
                states.append(_zeros((int(batch_size), cell.state_size), self.dtype_policy))
            else:
                states.append([_zeros((int(batch_size), d), self.dtype_policy)
                               for d in cell.state_size])
        return states

    def build(self, input_shape):
        batch = tuple(input_shape)[0]
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with cell._own_scope():
                    cell.build(input_shape)
                cell.built = True
            input_shape = (batch, _output_size(cell))
        self.built = True

    def call(self, inputs, states, training=None):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            was_list = isinstance(cell_states, (list, tuple))
            cell_states = list(cell_states) if was_list else [cell_states]
            inputs, cell_states = call_cell(cell, inputs, cell_states, training)
            if not isinstance(cell_states, (list, tuple)):
                cell_states = [cell_states]
            if len(cell_states) == 1 and not was_list:
                cell_states = cell_states[0]
            new_states.append(cell_states)
        if len(new_states) == 1:
            new_states = new_states[0]
        return inputs, new_states

    def _begin_sequence(self, x_first, h_first, training):
        for cell in self.cells:
            if hasattr(cell, "_begin_sequence"):
                cell._begin_sequence(x_first, h_first, training)

    def _end_sequence(self):
        for cell in self.cells:
            if hasattr(cell, "_end_sequence"):
                cell._end_sequence()

    def get_config(self):
        return config_of(self, cells=layer_description(self.cells))

    @classmethod
    def from_config(cls, config):
        return with_layers(cls, config, "cells")


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    if size is not None:
        return size
    return cell.state_size[0] if isinstance(cell.state_size, (list, tuple)) else cell.state_size


def _takes_training(cell):
    """Layers take ``training`` (their ``__call__`` drops it when ``call`` doesn't)."""
    return isinstance(cell, Layer) or _accepts(getattr(cell, "call", cell), "training")


def call_cell(cell, inputs, states, training):
    """``cell(inputs, states)`` for a Layer cell or any object with a ``call``."""
    kwargs = {"training": training} if _takes_training(cell) else {}
    fn = cell if callable(cell) else cell.call
    return fn(inputs, states, **kwargs)
