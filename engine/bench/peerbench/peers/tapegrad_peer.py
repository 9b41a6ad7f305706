"""tapegrad: GradientTape code exactly as a TensorFlow user writes it (``import tapegrad as tf``)."""
from importlib import metadata

import tapegrad as tf

from ..peer_api import Peer
from . import tf_style
from .kernel_probe import describe

PEER = Peer("tapegrad", version=metadata.version("tapegrad"))
PEER.describe = describe
tf_style.register(PEER, tf)
