"""``tf.keras.layers``: the ``Layer`` base and the concrete layers, one subpackage per family
(core, convolutional, pooling, normalization, reshaping, merging, regularization, recurrent,
attention, preprocessing)."""
from .base import Layer  # noqa: F401
from .core import (Activation, ActivityRegularization, Dense, ELU, Embedding,  # noqa: F401
                   Identity, Input, InputLayer, Lambda, LeakyReLU, Masking, PReLU,
                   ReLU, Softmax, ThresholdedReLU, TimeDistributed)
from .convolutional import (Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D,  # noqa: F401
                            Conv3DTranspose, Convolution1D, Convolution1DTranspose, Convolution2D,
                            Convolution2DTranspose, Convolution3D, Convolution3DTranspose,
                            DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D, SeparableConv2D,
                            SeparableConvolution1D, SeparableConvolution2D)
from .pooling import (AveragePooling1D, AveragePooling2D, AveragePooling3D,  # noqa: F401
                      AvgPool1D, AvgPool2D, AvgPool3D, GlobalAveragePooling1D,
                      GlobalAveragePooling2D, GlobalAveragePooling3D,
                      GlobalAvgPool1D, GlobalAvgPool2D, GlobalAvgPool3D,
                      GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D,
                      GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D,
                      MaxPool1D, MaxPool2D, MaxPool3D, MaxPooling1D, MaxPooling2D,
                      MaxPooling3D)
from .normalization import (BatchNormalization, GroupNormalization,  # noqa: F401
                            LayerNormalization, RMSNormalization, UnitNormalization)
from .reshaping import (Cropping1D, Cropping2D, Cropping3D, Flatten, Permute,  # noqa: F401
                        RepeatVector, Reshape, UpSampling1D, UpSampling2D,
                        UpSampling3D, ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)
from .merging import (Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply,  # noqa: F401
                      Subtract, add, average, concatenate, dot, maximum, minimum,
                      multiply, subtract)
from .regularization import (AlphaDropout, Dropout, GaussianDropout, GaussianNoise,  # noqa: F401
                             SpatialDropout1D, SpatialDropout2D, SpatialDropout3D)
from .recurrent import (Bidirectional, GRU, GRUCell, LSTM, LSTMCell, RNN, SimpleRNN,  # noqa: F401
                        SimpleRNNCell, StackedRNNCells)
from .attention import Attention, MultiHeadAttention  # noqa: F401
from .preprocessing import (CategoryEncoding, CenterCrop, Discretization,  # noqa: F401
                            HashedCrossing, Hashing, IntegerLookup, Normalization,
                            RandomBrightness, RandomContrast, RandomFlip, Rescaling,
                            Resizing, StringLookup, TextVectorization)

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
