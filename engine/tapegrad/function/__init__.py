"""``tf.function``: the decorator. The first call with a new input signature traces (runs the
Python body while recording a graph); later calls with that signature replay the graph without
running Python, as TensorFlow does.

TensorFlow traces a decorated function into a graph once per new input signature (the shapes and
dtypes of tensor arguments, the values of Python arguments) and afterwards runs the graph. tapegrad
does the same with the engine's own primitives (``graph``): the trace runs the body eagerly on the
call's values (so breakpoints, gradients and the tape view work inside it) while a recorder sees
every primitive, variable read and assignment; a later call runs those nodes again through
``recording.bind``, so tapes around it record ordinary ops and gradients flow through it. So:

* Python side effects (``print``, appending to a list, counters) happen once per trace; variable
  updates, which are graph ops, on every call. ``experimental_get_tracing_count()`` counts the
  traces (a new signature; with ``reduce_retracing=True`` shapes are relaxed to ``None``
  dimensions as TensorFlow does; with ``input_signature`` one trace in all).
* Variables are read afresh on each call (never baked in); a variable passed as an argument is an
  input of the graph. Tensors made from Python values and eager tensors captured from outside are
  constants of the graph, as TensorFlow captures them.
* A trace whose result depended on a value outside the primitives cannot be replayed: a Python
  ``if``/``bool()``/``float()``/``int()`` on a computed tensor (TensorFlow's AutoGraph would have
  turned the ``if`` into ``tf.cond``; tapegrad keeps Python's branch), random ops (their generator
  state lives in Python), ``tf.print``, ``tf.py_function``, ``tf.custom_gradient``, engine functions
  that compute in NumPy rather than with primitives (``tf.unique``...). Such a signature runs the
  Python body on every call, hiding its prints on the calls that would not trace (``tf.print``
  still prints, as in TensorFlow's graph): results are right, other Python side effects repeat.
  ``Function._graphs`` holds each trace's graph with ``replayable`` and the ``reason``.
* A graph replays for the concrete input shapes it was recorded with. Where the signature leaves
  a dimension unknown (``input_signature``, ``reduce_retracing``), a call with new concrete shapes
  runs the body once more (prints hidden, not a trace) and records a graph for those shapes:
  Python code may have read a shape while tracing.
* While tracing, tensor arguments print as TensorFlow's graph tensors do
  (``Tensor("x:0", shape=(), dtype=float32)``); ``.numpy()`` on a tensor the trace computed raises
  TensorFlow's ``AttributeError`` ('SymbolicTensor' object has no attribute 'numpy'); their
  ``.shape`` is the actual one (TensorFlow shows ``None`` for a dimension the signature leaves
  open). ``tf.executing_eagerly()`` is ``False`` inside a call, as in TensorFlow, unless
  ``tf.config.run_functions_eagerly(True)``; with that flag set every call runs the body eagerly
  and prints, as in TensorFlow.
* ``input_signature`` checks and converts arguments with TensorFlow's errors; Python return
  values and variables come back as tensors.
* Variables may be created on the first call only: TensorFlow then traces a second time (its
  prints show twice; here the second run's assignments are undone and tapes do not see it),
  and variables created again are a ``ValueError``, with TensorFlow's message.
* A trace that raises is not kept (the next such call traces again); when 5 of about the last
  10 calls of one Python function traced, TensorFlow's retracing warning is logged.
* ``get_concrete_function`` gives a ``ConcreteFunction`` whose ``.graph`` lists the trace's
  operations (``func_graph``); ``jit_compile=True`` is accepted and changes nothing (no XLA).

In the tape graph the ops of one call are grouped in a cluster "<name> (tf.function)".

Where things are: ``polymorphic`` (the decorator and ``Function``), ``concrete``
(``ConcreteFunction``), ``graph`` (recording a trace and replaying it), ``func_graph`` (a
concrete function's ``.graph``), ``keys`` (trace keys: what makes a call trace again),
``signatures`` (arguments and ``input_signature``), ``symbolic`` (tensors as a trace prints them),
``calls`` (what a call in progress changes: eager flag, hidden prints, the tape-graph cluster),
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
