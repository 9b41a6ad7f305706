"""``import tensorflow`` and ``import keras`` resolving to tapegrad, so a TensorFlow script runs
unchanged: ``tensorflow`` is ``tapegrad``, ``tensorflow.X`` is ``tapegrad.X``, ``keras`` is
``tapegrad.keras`` and ``keras.X`` is ``tapegrad.keras.X``. A name tapegrad does not have is not
found (``ModuleNotFoundError``), as any missing module.

    >>> import tapegrad
    >>> tapegrad.install_as_tensorflow()
    >>> import tensorflow as tf
    >>> from keras import layers
    >>> tf is tapegrad and layers is tapegrad.keras.layers
    True
    >>> tapegrad.aliases.uninstall()

``python -m tapegrad run script.py [args]`` runs a script with the aliases installed; the
playground installs them for every run.
"""
import contextlib
import importlib
import importlib.abc
import importlib.util
import sys

ALIASES = {"tensorflow": "tapegrad", "keras": "tapegrad.keras"}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, real_name):
        self.real_name = real_name

    def create_module(self, spec):
        return importlib.import_module(self.real_name)

    def exec_module(self, module):
        pass  # the real module was executed when it was imported


class AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``tensorflow``/``keras`` and their submodules as tapegrad's modules."""

    def find_spec(self, name, path=None, target=None):
        for alias, real in ALIASES.items():
            if name == alias or name.startswith(alias + "."):
                real_name = real + name[len(alias):]
                if importlib.util.find_spec(real_name) is None:
                    return None
                return importlib.util.spec_from_loader(name, _AliasLoader(real_name))
        return None


def install_as_tensorflow():
    """From here on, ``import tensorflow`` and ``import keras`` give tapegrad (idempotent). A real
    TensorFlow or Keras imported before stays what it was for the code that holds it."""
    if not any(isinstance(f, AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, AliasFinder())
    for alias in ALIASES:       # a real one imported before would shadow the finder
        top = sys.modules.get(alias)
        if top is None or getattr(top, "__name__", "").startswith("tapegrad"):
            continue            # (no walk over every module: the playground calls this per run)
        for name in [n for n in sys.modules if n == alias or n.startswith(alias + ".")]:
            if not getattr(sys.modules[name], "__name__", "").startswith("tapegrad"):
                del sys.modules[name]


def uninstall():
    """Takes the aliases away again (and the aliased entries in ``sys.modules``)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, AliasFinder)]
    for alias in ALIASES:
        for name in [n for n in sys.modules if n == alias or n.startswith(alias + ".")]:
            if getattr(sys.modules[name], "__name__", "").startswith("tapegrad"):
                del sys.modules[name]


@contextlib.contextmanager
def aliased():
    """The aliases for the ``with`` block only: ``sys.modules`` and the import path are put
    back as they were afterwards (a real TensorFlow imported before included), so a docs build
    that runs examples written with ``import tensorflow as tf`` (tapegrad.widget.docs_example)
    leaves the builder's own imports alone."""
    names = [n for n in sys.modules if n.split(".")[0] in ALIASES]
    saved = {n: sys.modules[n] for n in names}
    finders = list(sys.meta_path)
    install_as_tensorflow()
    try:
        yield
    finally:
        sys.meta_path[:] = finders
        for name in [n for n in sys.modules if n.split(".")[0] in ALIASES]:
            del sys.modules[name]
        sys.modules.update(saved)
