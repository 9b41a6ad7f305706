"""tapegrad: automatic differentiation you can see.

A TensorFlow-compatible ``GradientTape`` on NumPy. Tutorial code runs with only the import
changed::

    import tapegrad as tf
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x ** 2
    print(tape.gradient(y, x))   # tf.Tensor(6.0, shape=(), dtype=float32)
"""
import importlib as _importlib
import logging as _logging
import sys as _sys

from . import api_index as _api_index
from . import dtypes, errors, nest  # noqa: F401
from . import tensor as _tensor, tensor_shape as _tensor_shape, variables as _variables  # noqa: F401
from .ops import operators as _operators  # noqa: F401  (attaches +, *, @, [] ...)
from . import ops as _ops  # noqa: F401
from . import tensor_proto as _tensor_proto  # noqa: F401
from . import backprop as _backprop, tape as _tape  # noqa: F401
from .graph import provenance as _provenance  # noqa: F401  (each tape's recorder for explain)
from .forward import ForwardAccumulator as _ForwardAccumulator
from . import custom as _custom, module as _module  # noqa: F401
from . import image, linalg, math, nn, random  # noqa: F401  (keras, data: imported on first use)
from .rng import index_shuffle as _index_shuffle  # noqa: F401  (tf.random_index_shuffle)
from . import test_util  # noqa: F401
from .widget import magic as _magic  # noqa: F401  (load_ipython_extension)
from . import function as _function  # noqa: F401  (tf.function, tf.executing_eagerly)
from . import tensor_spec as _tensor_spec, type_spec as _type_spec  # noqa: F401
from . import py_function as _py_function, name_scope as _name_scope  # noqa: F401
from . import graph_gradients as _graph_gradients  # noqa: F401
from . import utilities as _utilities, initializers as _initializers  # noqa: F401
from . import autograph  # noqa: F401
from . import io, summary, train  # noqa: F401  (tf.io, tf.summary, tf.train)
from . import config  # noqa: F401
from . import distribute  # noqa: F401  (tf.distribute)
from . import saved_model  # noqa: F401  (tf.saved_model)
from .control_flow import (  # noqa: F401
    branches as _branches, grouping as _grouping, loops as _loops, tensor_array as _tensor_array,
)
from .ops import assert_ops as _assert_ops  # noqa: F401  (tf.Assert and the asserts)
from . import debugging  # noqa: F401
from . import signal  # noqa: F401
from . import ragged, sparse, strings  # noqa: F401
from . import bitwise, sets  # noqa: F401
from . import experimental  # noqa: F401  (tf.experimental.numpy)
from . import aliases  # noqa: F401  (tapegrad.install_as_tensorflow)

# every public name of ``tf`` (ops, classes, functions) from api_index.py
_api_index.bind(globals(), "tf")
# tf.dtypes' functions (dtypes.py sits below the ops, so they are attached here)
dtypes.cast, dtypes.complex, dtypes.saturate_cast = cast, complex, saturate_cast  # noqa: F821

newaxis = None
__version__ = "0.1.0"


class autodiff:  # noqa: N801 - a namespace, as ``tf.autodiff``
    ForwardAccumulator = _ForwardAccumulator
    GradientTape = GradientTape


def _setup_logging():
    """Warnings print as ``WARNING:tapegrad:<TensorFlow's text>`` on stderr, like TF's logger."""
    log = _logging.getLogger("tapegrad")
    if not log.handlers:
        handler = _logging.StreamHandler(_sys.stderr)
        handler.setFormatter(_logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
        log.addHandler(handler)
        log.propagate = False
        log.setLevel(_logging.WARNING)


_setup_logging()


# -- TensorFlow names tapegrad lacks: an error naming them and pointing to docs/coverage.md ------
from . import api_gaps as _api_gaps  # noqa: E402


# Imported on first use (``tf.keras``, ``tf.data``): a first gradient does not need them, and
# in the browser they are a third of ``import tapegrad``.
_LAZY_SUBMODULES = ("keras", "data")


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        module = _importlib.import_module(f"{__name__}.{name}")
        _install_api_gaps()   # its faces (tf.keras.layers...) name what tapegrad lacks too
        return module
    if name.startswith("__"):
        raise AttributeError(name)
    raise _api_gaps.missing("tf", name)


def _install_api_gaps():
    """Faces already imported get the hook now; lazily imported ones (keras, data) when
    ``__getattr__`` above imports them (again harmless: ``install`` skips hooked modules)."""
    for namespace in _api_gaps.faces():
        module = _sys.modules.get(__name__ + namespace[2:])
        if module is not None:
            _api_gaps.install(module, namespace)


_install_api_gaps()
