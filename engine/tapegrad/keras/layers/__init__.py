"""``tf.keras.layers``: the ``Layer`` base and the concrete layers, one module per family."""
from .base import Layer  # noqa: F401
from .core import Dense, Dropout, Flatten  # noqa: F401
from .convolutional import Conv2D  # noqa: F401
from .pooling import AveragePooling2D, AvgPool2D, MaxPool2D, MaxPooling2D  # noqa: F401
from .input_layer import Input, InputLayer  # noqa: F401
from .embedding import Embedding  # noqa: F401
from .normalization import BatchNormalization, LayerNormalization  # noqa: F401
from .regularization import (GaussianDropout, GaussianNoise, SpatialDropout1D,  # noqa: F401
                             SpatialDropout2D, SpatialDropout3D)
from .reshaping import Permute, RepeatVector, Reshape  # noqa: F401
from .merging import (Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply,  # noqa: F401
                      Subtract, add, average, concatenate, dot, maximum, minimum, multiply,
                      subtract)
from .activation import ELU, Activation, Lambda, LeakyReLU, PReLU, ReLU, Softmax  # noqa: F401
from .recurrent import GRU, LSTM, Bidirectional, SimpleRNN  # noqa: F401
from .attention import Attention, MultiHeadAttention  # noqa: F401
from .preprocessing import CategoryEncoding, Normalization, Rescaling  # noqa: F401
from .convolutional_1d import Conv1D  # noqa: F401
from .pooling_1d_global import (AveragePooling1D, AvgPool1D, GlobalAveragePooling1D,  # noqa: F401
                                GlobalAveragePooling2D, GlobalAvgPool1D, GlobalAvgPool2D,
                                GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPooling1D,
                                GlobalMaxPooling2D, MaxPool1D, MaxPooling1D)
from .conv_nd import (Conv1DTranspose, Conv2DTranspose, Conv3D, Conv3DTranspose,  # noqa: F401
                      Convolution1DTranspose, Convolution2DTranspose, Convolution3D,
                      Convolution3DTranspose)
from .depthwise import (DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D,  # noqa: F401
                        SeparableConv2D, SeparableConvolution1D, SeparableConvolution2D)
from .pooling3d import (AveragePooling3D, AvgPool3D, GlobalAveragePooling3D,  # noqa: F401
                        GlobalAvgPool3D, GlobalMaxPool3D, GlobalMaxPooling3D, MaxPool3D,
                        MaxPooling3D)
from .reshaping3d import Cropping3D, UpSampling3D, ZeroPadding3D  # noqa: F401
from .normalization_more import (GroupNormalization, RMSNormalization,  # noqa: F401
                                 UnitNormalization)
from .thresholded_relu import ThresholdedReLU  # noqa: F401
from .alpha_dropout import AlphaDropout  # noqa: F401
from .passthrough import ActivityRegularization, Identity  # noqa: F401
from .convolutional import Conv2D as Convolution2D  # noqa: F401
from .convolutional_1d import Conv1D as Convolution1D  # noqa: F401
from .masking import Masking  # noqa: F401
from .reshaping import (Cropping1D, Cropping2D, UpSampling1D, UpSampling2D,  # noqa: F401
                        ZeroPadding1D, ZeroPadding2D)
from .wrappers import TimeDistributed  # noqa: F401
from .rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells  # noqa: F401
from .rnn import RNN  # noqa: F401
from .lookup import IntegerLookup, StringLookup  # noqa: F401
from .text_vectorization import TextVectorization  # noqa: F401
from .hashing import Discretization, HashedCrossing, Hashing  # noqa: F401
from .image_preprocessing import (CenterCrop, RandomBrightness, RandomContrast,  # noqa: F401
                                  RandomFlip, Resizing)

from ..serialization import deserialize_keras_object, publish, serialize_keras_object  # noqa: E402

# The registry knows every public layer class by name (as ``keras.layers``).
_BY_NAME = publish("keras.layers", {name: obj for name, obj in dict(globals()).items()
                                    if isinstance(obj, type) and issubclass(obj, Layer)})


def serialize(layer):
    """A layer as Keras describes it (``{"module", "class_name", "config",
    "registered_name"}``)."""
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """The layer a ``serialize`` description stands for."""
    return deserialize_keras_object(config, custom_objects, module_objects=_BY_NAME)
