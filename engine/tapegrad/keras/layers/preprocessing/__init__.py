"""Preprocessing layers: numerical (``Rescaling``, ``Normalization``, ``CategoryEncoding``),
hashing and discretization, lookups, ``TextVectorization`` and the image layers."""
from .hashing import Discretization, HashedCrossing, Hashing  # noqa: F401
from .image_preprocessing import (CenterCrop, RandomBrightness, RandomContrast,  # noqa: F401
                                  RandomFlip, Resizing)
from .lookup import IntegerLookup, StringLookup  # noqa: F401
from .numerical import CategoryEncoding, Normalization, Rescaling  # noqa: F401
from .text_vectorization import TextVectorization  # noqa: F401
