"""tf.experimental.numpy beyond what the recorded cases (conformance area numpy_api) check: its
import paths, the switch being undoable for tests, and the names it lacks."""
import importlib
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import aliases
from tapegrad.api_gaps import MissingAPIError


def test_import_paths_give_one_module():
    tnp = importlib.import_module("tapegrad.experimental.numpy")
    assert tnp is tf.experimental.numpy
    assert importlib.import_module("tapegrad.experimental.numpy.random") is tnp.random
    with aliases.aliased():
        assert importlib.import_module("tensorflow.experimental.numpy") is tnp
        assert sys.modules["tensorflow"] is tf


def test_numpy_behavior_is_undone_by_disable():
    tnp = tf.experimental.numpy
    x = tf.constant([[1., 2.]])
    with pytest.raises(AttributeError, match="experimental_enable_numpy_behavior"):
        x.reshape(2)
    tnp.experimental_enable_numpy_behavior()
    try:
        assert x.reshape(2).shape == (2,) and x.T.shape == (2, 1)
        assert (tf.constant(1) + tf.constant(1.5)).dtype == tf.float64
    finally:
        tnp.disable_numpy_behavior()
    assert not hasattr(x, "T")
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1) + tf.constant(1.5)


def test_interop_both_ways():
    tnp = tf.experimental.numpy
    assert isinstance(np.sum(tnp.ones([3])), np.float64)
    assert tnp.add(np.ones(2, np.float32), [1, 2]).dtype == tf.float32


def test_unimplemented_names_say_so():
    with pytest.raises(MissingAPIError, match="tf.experimental.numpy.vander"):
        tf.experimental.numpy.vander  # noqa: B018
