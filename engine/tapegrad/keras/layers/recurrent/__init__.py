"""Recurrent layers: the cells (``cells.py``: their set-up, weights and step math in one
place), ``RNN`` over any cell, and ``SimpleRNN``, ``LSTM``, ``GRU``, ``Bidirectional``."""
from .cells import GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells  # noqa: F401
from .recurrent_layers import GRU, LSTM, Bidirectional, SimpleRNN  # noqa: F401
from .rnn import RNN  # noqa: F401
