"""The docstring examples of the top-level array ops and program utilities run as doctests."""
import doctest
import importlib

import pytest

MODULES = ["tapegrad.ops.rearrange_ops", "tapegrad.ops.shape_ops", "tapegrad.py_function",
           "tapegrad.name_scope", "tapegrad.graph_gradients", "tapegrad.utilities", "tapegrad.initializers",
           "tapegrad.tensor_proto", "tapegrad.type_spec", "tapegrad.io", "tapegrad.summary",
           "tapegrad.train", "tapegrad.train.checkpoint", "tapegrad.train.moving_average"]


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module):
    mod = importlib.import_module(module)
    result = doctest.testmod(mod, verbose=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 or module == "tapegrad.train"
    assert result.failed == 0
