"""Convolution layers: one base (``base_conv.BaseConv``) and one set of argument checks
(``arguments.py``) under the plain, transposed, depthwise and separable convolutions."""
from .conv import Conv1D, Conv2D, Conv3D, Convolution1D, Convolution2D, Convolution3D  # noqa: F401
from .conv_transpose import (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose,  # noqa: F401
                             Convolution1DTranspose, Convolution2DTranspose,
                             Convolution3DTranspose)
from .depthwise_conv import DepthwiseConv1D, DepthwiseConv2D  # noqa: F401
from .separable_conv import (SeparableConv1D, SeparableConv2D,  # noqa: F401
                             SeparableConvolution1D, SeparableConvolution2D)
