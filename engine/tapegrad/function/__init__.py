"""``tf.function``: the decorator, run eagerly with TensorFlow's observable behaviour.

TensorFlow traces a decorated function into a graph once per new input signature (the shapes and
dtypes of tensor arguments, the values of Python arguments) and afterwards runs the graph. tapegrad
has no graphs: every call runs the Python function eagerly, so gradients, breakpoints and the tape
view work as everywhere else. What a learner can observe is kept as in TensorFlow:

* ``experimental_get_tracing_count()`` counts the calls that would trace in TensorFlow (a new
  signature; with ``reduce_retracing=True`` shapes are relaxed to ``None`` dimensions as TensorFlow
  does; with ``input_signature`` one trace in all).
* Python side effects: TensorFlow runs the Python body only while tracing, so ``print`` inside a
  ``tf.function`` prints once per trace (the classic "Tracing with ..." examples). tapegrad
  must run the body on every call to compute the result, so on the calls that would not trace it
  hides what the body prints (``tf.print`` still prints, as it does in TensorFlow's graph).
  We chose this over printing on every call because TensorFlow's guides teach retracing through
  exactly these prints; pasted code then prints what TensorFlow prints. What differs: other
  Python side effects (appending to a list, counters) happen on every call, not once per trace.
* While tracing, tensor arguments print as TensorFlow's graph tensors do
  (``Tensor("x:0", shape=(), dtype=float32)``); they still hold their values, so ``.numpy()``
  works where TensorFlow would refuse it, and their ``.shape`` is the actual one (TensorFlow
  shows ``None`` for a dimension the signature leaves open); results computed inside print
  with their values, and variables with ``numpy=``, where TensorFlow prints graph tensors.
  ``tf.executing_eagerly()`` is ``False`` inside a call,
  as in TensorFlow, unless ``tf.config.run_functions_eagerly(True)``; with that flag set every call
  prints, as in TensorFlow.
* ``input_signature`` checks and converts arguments with TensorFlow's errors; Python return
  values and variables come back as tensors.
* Variables may be created on the first call only: TensorFlow then traces a second time (its
  prints show twice; here the second run's assignments are undone and tapes do not see it),
  and variables created again are a ``ValueError``, with TensorFlow's message.
* A trace that raises is not kept (the next such call traces again); when 5 of about the last
  10 calls of one Python function traced, TensorFlow's retracing warning is logged.

In the tape graph the ops of one call are grouped in a cluster "<name> (tf.function)".

Where things are: ``polymorphic`` (the decorator and ``Function``), ``concrete``
(``ConcreteFunction``), ``keys`` (trace keys: what makes a call trace again), ``signatures``
(arguments and ``input_signature``), ``symbolic`` (tensors as a trace prints them), ``calls``
(what a call in progress changes: eager flag, hidden prints, the tape-graph cluster),
``retracing`` (the retracing warning), ``variable_state`` (variables made and assignments undone
while tracing).

>>> import tapegrad as tf
>>> @tf.function
... def double(a):
...     print("Tracing with", a)
...     return a + a
>>> double(tf.constant(1.0))
Tracing with Tensor("a:0", shape=(), dtype=float32)
<tf.Tensor: shape=(), dtype=float32, numpy=2.0>
>>> float(double(tf.constant(2.0))), double.experimental_get_tracing_count()
(4.0, 1)
"""
from .calls import (_calls, call_hooks, executing_eagerly, functions_run_eagerly,  # noqa: F401
                    run_functions_eagerly)
from .concrete import ConcreteFunction  # noqa: F401
from .polymorphic import Function, FunctionSpec, function  # noqa: F401
from .symbolic import GraphTensorView, SymbolicTensor  # noqa: F401
