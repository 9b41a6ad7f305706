"""``experimental_enable_numpy_behavior`` and tapegrad's ``disable_numpy_behavior`` (tests)."""
from ..tensor import Tensor
from . import behavior
from .indexing import getitem_wrapper
from .methods import METHODS

_OPERATORS = [f"__{p}{name}__" for name in behavior.ARITHMETIC for p in ("", "r")
              if not (p == "r" and name in ("lt", "le", "gt", "ge"))]


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Turns on NumPy behaviour for tensors: ndarray methods and NumPy's type promotion in the
    operators. ``prefer_float32``: Python floats (and TF-NumPy's float defaults) become float32.
    """
    state = behavior._state
    state["prefer_float32"] = bool(prefer_float32)
    if state["enabled"]:
        return
    state["enabled"] = True
    saved = state["saved"]
    for name, method in METHODS.items():
        saved[name] = Tensor.__dict__.get(name)
        setattr(Tensor, name, method)
    for name in _OPERATORS:
        original = Tensor.__dict__.get(name)
        if original is None:
            continue
        saved[name] = original
        setattr(Tensor, name, behavior._promoting(original))
    saved["__getitem__"] = Tensor.__dict__["__getitem__"]
    Tensor.__getitem__ = getitem_wrapper(saved["__getitem__"])


def disable_numpy_behavior():
    """Puts tensors back as they were before ``experimental_enable_numpy_behavior`` (tapegrad's
    own: TensorFlow's switch is one-way; the tests use this to isolate cases)."""
    state = behavior._state
    if not state["enabled"]:
        return
    for name, original in state["saved"].items():
        if original is None:
            delattr(Tensor, name)
        else:
            setattr(Tensor, name, original)
    state.update(enabled=False, prefer_float32=False, saved={})
