"""Core layers: ``Dense``, ``Embedding``, ``Input``/``InputLayer``, the activation layers,
``Lambda``, ``Masking``, ``Identity``, ``ActivityRegularization``, ``TimeDistributed``."""
from .activation import ELU, Activation, Lambda, LeakyReLU, PReLU, ReLU, Softmax  # noqa: F401
from .dense import Dense  # noqa: F401
from .embedding import Embedding  # noqa: F401
from .identity import ActivityRegularization, Identity  # noqa: F401
from .input_layer import Input, InputLayer  # noqa: F401
from .masking import Masking  # noqa: F401
from .thresholded_relu import ThresholdedReLU  # noqa: F401
from .wrappers import TimeDistributed  # noqa: F401
