"""``tf.experimental``: the namespace of TF-NumPy (``tf.experimental.numpy``, in numpy_api/).

``import tapegrad.experimental.numpy as tnp`` (and ``import tensorflow.experimental.numpy`` with
the aliases) finds it through ``sys.modules``.
"""
import sys

from .. import numpy_api as numpy

sys.modules[__name__ + ".numpy"] = numpy
sys.modules[__name__ + ".numpy.random"] = numpy.random
