"""TensorFlow eager (tensorflow-cpu), one thread: the same GradientTape code as tapegrad's."""
import tensorflow as tf

from ..peer_api import Peer
from . import tf_style

tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)

PEER = Peer("tensorflow", version=tf.__version__, notes="eager GradientTape, no tf.function")
tf_style.register(PEER, tf)
