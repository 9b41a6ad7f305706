"""``tf.keras.layers.RNN``: runs any recurrent cell (or a list of cells, stacked) over time.

A cell is a Layer (or any object) with ``call(inputs, states) -> (output, new_states)`` and a
``state_size`` (an int, or a list with one entry per state); ``get_initial_state(batch_size)``
and ``output_size`` are optional. The time loop runs step by step on the tape, so gradients
flow through every step; masked steps keep the states and repeat the previous output (zeros
with ``zero_output_for_mask=True``), as Keras's loop does.
"""
from .... import nest
from ....ops import zeros as _zeros
from ..base import Layer, to_tensor
from ..layer_config import config_of, layer_description, with_layers
from ..core.masking import mask_of
from .cells import StackedRNNCells, check_cell, _output_size, call_cell
from .time_loop import result_of, run, steps_of


class RNN(Layer):
    """Runs ``cell`` over the time axis of (batch, timesteps, features) inputs.

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.RNN(tf.keras.layers.LSTMCell(4), return_sequences=True)
    >>> layer(tf.zeros((2, 3, 5))).shape
    TensorShape([2, 3, 4])
    """

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        check_cell(cell, f"Argument `cell` should have a `call` method. Received: cell={cell}",
                   f"The RNN cell should have a `state_size` attribute (single integer or list "
                   f"of integers, one integer per RNN state). Received: cell={cell}")
        super().__init__(**kwargs)
        if stateful:
            raise NotImplementedError("RNN: stateful=True is not implemented")
        self.cell = cell
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), stateful, unroll
        self.zero_output_for_mask = bool(zero_output_for_mask)
        state_size = cell.state_size
        if not isinstance(state_size, (list, tuple, int)):
            raise ValueError("state_size must be an integer, or a list/tuple of integers "
                             "(one for each state tensor).")
        self.state_size = [state_size] if isinstance(state_size, int) else list(state_size)

    def build(self, input_shape):
        shape = tuple(input_shape)
        if len(shape) < 3:
            raise ValueError(f"RNN expects inputs of rank 3 or more (batch, timesteps, ...), "
                             f"got shape {shape}")
        if isinstance(self.cell, Layer) and not self.cell.built:
            with self.cell._own_scope():
                self.cell.build((shape[0],) + shape[2:])
            self.cell.built = True
        self.built = True

    def get_initial_state(self, batch_size):
        """The cell's initial states as a list (zeros when the cell has no
        ``get_initial_state``)."""
        fn = getattr(self.cell, "get_initial_state", None)
        if fn is None:
            return [_zeros((int(batch_size), d), self.dtype_policy) for d in self.state_size]
        state = fn(batch_size=batch_size)
        return list(state) if isinstance(state, (list, tuple)) else [state]

    def call(self, sequences, initial_state=None, mask=None, training=None):
        x = to_tensor(sequences)
        if initial_state is None:
            states = self.get_initial_state(x.shape[0])
        else:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) \
                else [initial_state]
            states = nest.map_structure(to_tensor, states)
        if mask is None:
            mask = mask_of(sequences)
        steps, keeps = steps_of(x, mask, self.go_backwards)
        if hasattr(self.cell, "_begin_sequence"):
            self.cell._begin_sequence(steps[0], nest.flatten(states)[0], training)
        try:
            outputs, states = run(lambda x_t, states: self._step(x_t, states, training), steps,
                                  keeps, states, self.zero_output_for_mask)
        finally:
            if hasattr(self.cell, "_end_sequence"):
                self.cell._end_sequence()
        return result_of(self, outputs, states, mask)

    def _step(self, x_t, states, training):
        """The cell's step, its new states in the structure the states started with (as
        Keras's loop keeps it)."""
        out, new_states = call_cell(self.cell, x_t, states, training)
        if not isinstance(new_states, (list, tuple)):
            new_states = [new_states]
        flat = nest.flatten(new_states)
        if len(flat) != len(nest.flatten(states)):
            raise ValueError(f"RNN: the cell returned {len(flat)} state tensor(s), "
                             f"expected {len(nest.flatten(states))}")
        return out, nest.pack_sequence_as(states, flat)

    def compute_output_shape(self, input_shape):
        batch, length = input_shape[0], input_shape[1]
        size = _output_size(self.cell)
        out = (batch, length, size) if self.return_sequences else (batch, size)
        if not self.return_state:
            return out
        states = [(batch, s) if isinstance(s, int) else [(batch, d) for d in s]
                  for s in self.state_size]
        return (out, *states)

    def get_config(self):
        return config_of(self, cell=layer_description(self.cell),
                         return_sequences=self.return_sequences,
                         return_state=self.return_state, go_backwards=self.go_backwards,
                         stateful=self.stateful, unroll=self.unroll,
                         zero_output_for_mask=self.zero_output_for_mask)

    @classmethod
    def from_config(cls, config):
        return with_layers(cls, config, "cell")
