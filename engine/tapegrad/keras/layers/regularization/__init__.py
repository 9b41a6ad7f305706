"""Regularization layers: ``Dropout``, ``AlphaDropout``, ``GaussianDropout``, ``GaussianNoise``,
``SpatialDropout1D/2D/3D``."""
from .alpha_dropout import AlphaDropout  # noqa: F401
from .dropout import Dropout  # noqa: F401
from .noise import (GaussianDropout, GaussianNoise, SpatialDropout1D,  # noqa: F401
                    SpatialDropout2D, SpatialDropout3D)
