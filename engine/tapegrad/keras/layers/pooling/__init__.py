"""Pooling layers: windowed (``pooling.Pooling``, any rank) and global (``GlobalPooling``)."""
from .global_pooling import (GlobalAveragePooling1D, GlobalAveragePooling2D,  # noqa: F401
                             GlobalAveragePooling3D, GlobalAvgPool1D, GlobalAvgPool2D,
                             GlobalAvgPool3D, GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D,
                             GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D)
from .pooling import (AveragePooling1D, AveragePooling2D, AveragePooling3D,  # noqa: F401
                      AvgPool1D, AvgPool2D, AvgPool3D, MaxPool1D, MaxPool2D, MaxPool3D,
                      MaxPooling1D, MaxPooling2D, MaxPooling3D)
