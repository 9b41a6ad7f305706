"""``import tensorflow`` and ``import keras`` (and their submodules) in the user's code resolve to
tapegrad, through the engine's own aliases (``tapegrad.install_as_tensorflow``, the same that
``python -m tapegrad run`` installs).

(tapegrad is imported where it is used: the worker imports this runtime before tapegrad.)
"""


def install_tensorflow_alias():
    """From here on ``import tensorflow`` is tapegrad and ``import keras`` is tapegrad.keras
    (idempotent: every run installs them)."""
    import tapegrad
    tapegrad.install_as_tensorflow()
