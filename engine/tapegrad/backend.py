"""The one seam for array math.

Every rule and kernel in the engine reaches arrays through ``xp``. It is NumPy itself unless
``TAPEGRAD_ARRAY_NAMESPACE`` names another array library for this process (``cupy``,
``array_api_strict``, or any importable Array API module); then it is that library behind the
engine's NumPy-style names (``backends/array_api.py``), the C kernels are off, and functions the
standard lacks run on NumPy with a one-time warning.

>>> NAME in ("numpy", xp.__name__)
True
"""
import os

import numpy as host  # NumPy itself: what values handed to NumPy callers (__array__) become

NAME = os.environ.get("TAPEGRAD_ARRAY_NAMESPACE", "").strip() or "numpy"

if NAME == "numpy":
    import numpy as xp  # noqa: F401
else:
    from .backends import array_api
    # the C kernels read host memory: a library of its own computes every op
    os.environ["TAPEGRAD_KERNELS"] = "0"
    xp = array_api.load(NAME)

ndarray = xp.ndarray


def to_host(value):
    """``value`` as a NumPy array or scalar (a device array is copied to the host).

    >>> import numpy
    >>> to_host(numpy.float32(2.0))
    np.float32(2.0)
    """
    return value


if NAME != "numpy":
    to_host = xp.to_host  # noqa: F811  (the chosen library's copy to the host)


def gpu_count():
    """How many GPUs the chosen namespace computes on (0 for NumPy).

    >>> gpu_count() >= 0
    True
    """
    return 0 if NAME == "numpy" else xp.gpu_count()
