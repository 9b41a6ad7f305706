"""Recurrent layers ``SimpleRNN``, ``LSTM``, ``GRU`` (Keras 3's weight layout), and
``Bidirectional``.

A recurrent layer is its cell's set-up and step math (``cell_setup.py``) on top of
``RecurrentLayer``, which runs the step over time (``time_loop.py``) with the weights as its
own, so ``set_weights`` with Keras's arrays gives Keras's outputs. The time loop runs step by
step on the tape, so gradients flow through every step.
"""
from ....ops import add, cast, concat, multiply, reverse, zeros as _zeros
from ..base import Layer, to_tensor
from ..core.masking import attach_mask, mask_of
from ..input_spec import InputSpec
from ..layer_config import config_of, layer_description, with_layers
from .cell_setup import CellSetup, GRUStep, LSTMStep, SimpleRNNStep
from .time_loop import result_of, run, steps_of


class RecurrentLayer(CellSetup):
    """A cell's set-up plus the sequence arguments; ``_step(x_t, states, h_in)`` comes from
    the kind's step class."""

    def __init__(self, *args, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), stateful, unroll
        self.zero_output_for_mask = bool(zero_output_for_mask)
        if stateful:
            raise NotImplementedError(f"{type(self).__name__}: stateful=True is not implemented")
        self.input_spec = InputSpec(ndim=3)

    def build(self, input_shape):
        self._build_weights(input_shape[-1])

    def _initial_states(self, initial_state, x):
        if initial_state is None:
            batch = x._value.shape[0]
            return [_zeros((batch, self.units), x.dtype) for _ in range(self._n_states)]
        states = list(initial_state) if isinstance(initial_state, (list, tuple)) \
            else [initial_state]
        if len(states) != self._n_states:
            raise ValueError(f"{type(self).__name__} expects {self._n_states} initial "
                             f"state(s), got {len(states)}")
        return [to_tensor(s) for s in states]

    def call(self, inputs, initial_state=None, mask=None, training=None):
        x = to_tensor(inputs)
        if x.dtype != self.kernel.dtype:
            x = cast(x, self.kernel.dtype)
        states = self._initial_states(initial_state, x)
        if mask is None:
            mask = mask_of(inputs)
        steps, keeps = steps_of(x, mask, self.go_backwards)
        # dropout: one mask per sequence on the inputs (and one on the state), as Keras's cells
        x_mask = self._dropout_mask(steps[0], self.dropout) if training else None
        h_mask = self._dropout_mask(states[0], self.recurrent_dropout) if training else None

        def step(x_t, states):
            if x_mask is not None:
                x_t = multiply(x_t, x_mask)
            h_in = multiply(states[0], h_mask) if h_mask is not None else states[0]
            return self._step(x_t, states, h_in)
        outputs, states = run(step, steps, keeps, states, self.zero_output_for_mask)
        return result_of(self, outputs, states, mask)

    def compute_output_shape(self, input_shape):
        out = (input_shape[0], input_shape[1], self.units) if self.return_sequences \
            else (input_shape[0], self.units)
        if self.return_state:
            return [out] + [(input_shape[0], self.units)] * self._n_states
        return out

    def get_config(self):
        config = config_of(self, return_sequences=self.return_sequences,
                           return_state=self.return_state, go_backwards=self.go_backwards,
                           stateful=self.stateful, unroll=self.unroll,
                           zero_output_for_mask=self.zero_output_for_mask)
        config.update(self._cell_config())
        return config


class SimpleRNN(SimpleRNNStep, RecurrentLayer):
    """``h_t = activation(x_t @ kernel + bias + h_{t-1} @ recurrent_kernel)``.

    >>> import tapegrad as tf
    >>> tf.keras.layers.SimpleRNN(4)(tf.zeros((2, 3, 5))).shape
    TensorShape([2, 4])
    """


class LSTM(LSTMStep, RecurrentLayer):
    """Long short-term memory; states ``[h, c]``, gates i, f, c, o side by side.

    >>> import tapegrad as tf
    >>> out, h, c = tf.keras.layers.LSTM(4, return_state=True)(tf.zeros((2, 3, 5)))
    >>> out.shape, c.shape
    (TensorShape([2, 4]), TensorShape([2, 4]))
    """


class GRU(GRUStep, RecurrentLayer):
    """Gated recurrent unit, gates z, r, h side by side. Keras 3's default ``reset_after=True``
    applies the reset gate after the recurrent matmul and keeps two biases (input, recurrent):
    ``bias`` has shape (2, 3 * units).

    >>> import tapegrad as tf
    >>> layer = tf.keras.layers.GRU(4)
    >>> _ = layer(tf.zeros((2, 3, 5)))
    >>> layer.bias.shape
    TensorShape([2, 12])
    """


class Bidirectional(Layer):
    """Runs ``layer`` forwards and a copy backwards over time, then merges (``concat`` by
    default; ``sum``, ``mul``, ``ave`` or None for a list). Weights: forward's, then backward's."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, name=None,
                 **kwargs):
        if not isinstance(layer, RecurrentLayer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a recurrent layer "
                             f"instance. Received: {layer}")
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be "
                             f"one of {{'sum', 'mul', 'ave', 'concat', None}}")
        super().__init__(name=name, **kwargs)
        self.forward_layer = layer
        if backward_layer is None:
            cfg = {k: getattr(layer, k) for k in ("units", "use_bias", "return_sequences",
                                                   "return_state")}
            extra = {}
            for k in ("recurrent_activation", "unit_forget_bias", "reset_after"):
                if hasattr(layer, k):
                    extra[k] = getattr(layer, k)
            backward_layer = type(layer)(activation=layer.activation,
                                         kernel_initializer=layer.kernel_initializer,
                                         recurrent_initializer=layer.recurrent_initializer,
                                         bias_initializer=layer.bias_initializer,
                                         go_backwards=not layer.go_backwards,
                                         name=f"backward_{layer.name}", **cfg, **extra)
        self.backward_layer = backward_layer
        self.merge_mode = merge_mode

    def call(self, inputs, initial_state=None, mask=None, training=None):
        mask = mask_of(inputs) if mask is None else mask
        fw_state = bw_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            fw_state, bw_state = initial_state[:half], initial_state[half:]
        fw = self.forward_layer(inputs, initial_state=fw_state, mask=mask)
        bw = self.backward_layer(inputs, initial_state=bw_state, mask=mask)
        states = []
        if self.forward_layer.return_state:
            fw, states = fw[0], list(fw[1:]) + list(bw[1:])
            bw = bw[0]
        if self.forward_layer.return_sequences:
            bw = reverse(bw, [1])
        if self.merge_mode == "concat":
            out = concat([fw, bw], axis=-1)
        elif self.merge_mode == "sum":
            out = add(fw, bw)
        elif self.merge_mode == "ave":
            out = multiply(add(fw, bw), 0.5)
        elif self.merge_mode == "mul":
            out = multiply(fw, bw)
        else:
            out = [fw, bw]
        if mask is not None and self.forward_layer.return_sequences and \
                not isinstance(out, list):
            attach_mask(out, mask)
        if states:
            return (out if isinstance(out, list) else [out]) + states
        return out

    def get_config(self):
        return config_of(self, merge_mode=self.merge_mode,
                         layer=layer_description(self.forward_layer),
                         backward_layer=layer_description(self.backward_layer))

    @classmethod
    def from_config(cls, config):
        return with_layers(cls, config, "layer", "backward_layer")
