"""``tf.saved_model``: ``save`` writes an object (a ``tf.Module``, a Keras model) with the graphs
of its ``tf.function``s, its variables and its signatures into a directory of tapegrad's own
format (docs/saved-model.md); ``load`` gives back an object whose functions replay those graphs
on restored ``tf.Variable``s, so they can be called, fine-tuned with a ``GradientTape`` and
served through ``signatures``. Pure Python and NumPy: it works inside Pyodide's in-memory files.

Where things are: ``saving`` (``save``, which concrete functions are kept), ``loading``
(``load``), ``objects`` (the object graph), ``encoding`` (graphs and values as JSON),
``restored`` (the loaded functions and signatures), ``keras_serving`` (a Keras model's serving
functions), ``export`` (``model.export``).

>>> import os, tempfile
>>> import tapegrad as tf
>>> class Scale(tf.Module):
...     def __init__(self):
...         self.w = tf.Variable(2.0)
...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
...     def __call__(self, x):
...         return x * self.w
>>> path = os.path.join(tempfile.mkdtemp(), "scale")
>>> tf.saved_model.save(Scale(), path)
>>> loaded = tf.saved_model.load(path)
>>> loaded(tf.constant([1.0, 2.0])).numpy()
array([2., 4.], dtype=float32)
>>> loaded.signatures["serving_default"](x=tf.constant([3.0]))["output_0"].numpy()
array([6.], dtype=float32)
"""
from .. import api_index as _api_index
from . import export, loading, saving  # noqa: F401

_api_index.bind(globals(), "tf.saved_model")
