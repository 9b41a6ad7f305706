"""The one seam for array math.

Every rule and kernel in the engine reaches arrays through ``xp``; a NumPy-compatible array
library (for example a GPU one) can be put here later without touching the rules.
"""
import numpy as xp  # noqa: F401

ndarray = xp.ndarray
