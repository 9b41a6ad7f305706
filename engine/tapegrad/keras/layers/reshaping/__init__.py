"""Layers that move values without computing: ``Flatten``, ``Reshape``, ``Permute``,
``RepeatVector``, and the cropping, padding and upsampling layers of 1, 2 and 3 axes."""
from .flatten import Flatten  # noqa: F401
from .reshaping_1d_2d import (Cropping1D, Cropping2D, Permute, RepeatVector,  # noqa: F401
                              Reshape, UpSampling1D, UpSampling2D, ZeroPadding1D, ZeroPadding2D)
from .reshaping_3d import Cropping3D, UpSampling3D, ZeroPadding3D  # noqa: F401
