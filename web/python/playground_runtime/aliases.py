"""``import tensorflow`` (and ``tensorflow.keras``, ...) in the user's code resolves to tapegrad."""
import importlib
import importlib.abc
import importlib.util
import sys


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, real_name):
        self.real_name = real_name

    def create_module(self, spec):
        return importlib.import_module(self.real_name)

    def exec_module(self, module):
        pass  # the real module is already executed


class TensorflowAlias(importlib.abc.MetaPathFinder):
    """Maps `tensorflow` and `tensorflow.<sub>` onto `tapegrad` and `tapegrad.<sub>`."""

    def find_spec(self, name, path=None, target=None):
        if name != "tensorflow" and not name.startswith("tensorflow."):
            return None
        real = "tapegrad" + name[len("tensorflow"):]
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(name, _AliasLoader(real))


def install_tensorflow_alias():
    if not any(isinstance(f, TensorflowAlias) for f in sys.meta_path):
        sys.meta_path.insert(0, TensorflowAlias())
