"""The ``tf.function`` decorator and the ``Function`` it makes: one per Python function (and one
per instance for a method), which keeps the traces TensorFlow would have made and runs each call
(TensorFlow's polymorphic function)."""
import functools
import inspect
import types
import weakref

from .calls import _calls, _run_eagerly, call_scope, call_watchers, hooked
from .concrete import ConcreteFunction, call_signature
from .graph import ShapeChanged, TraceRecorder, as_built_graph_error
from .keys import (as_tensor_leaf, fits, flat_inputs, input_shapes, map_leaves, open_inputs,
                   relaxed, tensor_dims, trace_key)
from .retracing import retracing_watch
from .signatures import (bind_to_signature, check_input_signature,
                         check_signature_covers_parameters, named_arguments, parameter_names,
                         plain_parameters, rebuild, spec_of)
from .symbolic import outputs, with_symbolic_names
from .variable_state import UndoAssignments, variables_made


# The AutoGraph converter (``autograph.transform.converted``, which installs itself here): a
# function -> the function ``tf.function`` traces when ``autograph=True``.
_autograph = [None]


def use_autograph(converter):
    _autograph[0] = converter


class FunctionSpec:
    """What ``Function.function_spec`` tells: the Python signature and the input signature."""

    def __init__(self, signature, input_signature):
        self.fullargspec = signature
        self.input_signature = input_signature

    def __repr__(self):
        return f"FunctionSpec(signature={self.fullargspec}, input_signature={self.input_signature})"


class Function:
    """A function decorated with ``tf.function`` (see the package docstring for what it keeps of
    TensorFlow's behaviour).

    >>> import tapegrad as tf
    >>> f = tf.function(lambda x: x * 2)
    >>> float(f(tf.constant(3.0))), f.experimental_get_tracing_count()
    (6.0, 1)
    """

    def __init__(self, python_function, name=None, input_signature=None, reduce_retracing=False,
                 jit_compile=None, autograph=True, signature=None, instance=None,
                 **experimental):
        if not callable(python_function):
            raise TypeError(f"tf.function expects a callable, got {python_function!r}.")
        self._python_function = python_function
        self._instance_ref = None          # for a method seen through an instance: that one
        if instance is not None:
            try:
                self._instance_ref = weakref.ref(instance)
            except TypeError:
                self._instance_ref = lambda: instance
        self._name = name or getattr(python_function, "__name__", type(python_function).__name__)
        self._input_signature = check_input_signature(input_signature)
        self._reduce_retracing = bool(reduce_retracing
                                      or experimental.get("experimental_relax_shapes"))
        self._jit_compile = jit_compile
        self._autograph = autograph
        self._options = dict(input_signature=input_signature, reduce_retracing=reduce_retracing,
                             jit_compile=jit_compile, autograph=autograph, **experimental)
        self._traces = []            # the keys traced so far (patterns; None dims fit any size)
        self._trace_count = 0        # traces TensorFlow would have made (some keys trace twice)
        self._traced_before = False
        self._concrete = {}          # trace key -> ConcreteFunction
        self._signatures = {}        # trace key -> its signature's text, for a trace made by a call
        self._graphs = {}            # trace key -> {input shapes: TraceGraph}
        self._any_size = {}          # trace key -> a TraceGraph serving every size it leaves open
        self._bound = weakref.WeakKeyDictionary()
        self._bound_by_id = {}
        try:
            self._signature = signature or inspect.signature(python_function)
        except (TypeError, ValueError):
            self._signature = inspect.Signature([inspect.Parameter(
                "args", inspect.Parameter.VAR_POSITIONAL)])
        if self._input_signature is not None and not self._looks_like_method():
            # (a method's is checked once bound)
            check_signature_covers_parameters(self._signature, self._input_signature)
        functools.update_wrapper(self, python_function, updated=())
        self._label = f"tf.function:{self._graph_label()}"
        self._plain_names = plain_parameters(self._signature)
        self._watch = None           # the retracing watch (``retracing_watch``), on first call

    # -- attributes TensorFlow's Function has ----------------------------------------------------
    @property
    def python_function(self):
        return self._target()

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def name(self):
        return self._name

    @property
    def function_spec(self):
        return FunctionSpec(self._signature, self._input_signature)

    def experimental_get_tracing_count(self):
        """How many times TensorFlow would have traced this function so far."""
        return self._trace_count

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every trace's signature, in the order of the traces (calls' and concrete ones')."""
        texts = [self._concrete[p].pretty_printed_signature(verbose) if p in self._concrete
                 else self._signatures.get(p) for p in self._traces]
        texts += [cf.pretty_printed_signature(verbose) for p, cf in self._concrete.items()
                  if p not in self._traces]
        return "\n\n".join(t for t in texts if t is not None)

    def __repr__(self):
        return f"<tapegrad.function.Function object at 0x{id(self):x}> ({self._name})"

    # -- methods: one Function per instance, as TensorFlow binds them ---------------------------
    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:            # unhashable instances
            bound = self._bound_by_id.get(id(instance))
        if bound is None:
            # one Function per instance, with its own traces, as TensorFlow binds methods
            params = list(self._signature.parameters.values())[1:]     # without ``self``
            bound = Function(self._python_function, name=self._name, instance=instance,
                             signature=self._signature.replace(parameters=params),
                             **self._options)
            try:
                self._bound[instance] = bound
            except TypeError:
                self._bound_by_id[id(instance)] = bound
        return bound

    def _target(self, fn=None):
        fn = self._python_function if fn is None else fn
        if self._instance_ref is None:
            return fn
        instance = self._instance_ref()
        if instance is None:
            raise ReferenceError(f"the object whose method {self._name} was bound is gone")
        return types.MethodType(fn, instance)

    def _body(self):
        """What a call runs: the function converted by AutoGraph (``autograph=True``), except
        under ``run_functions_eagerly`` (the Python runs as written, as TensorFlow's)."""
        if not self._autograph or _autograph[0] is None or _run_eagerly[0]:
            return self._target()
        return self._target(_autograph[0](self._python_function))

    def _looks_like_method(self):
        """A function defined in a class body, not yet bound: its first parameter is ``self``."""
        params = list(self._signature.parameters)
        return bool(params) and params[0] == "self" and self._instance_ref is None

    # -- calls ---------------------------------------------------------------------------------
    def _named_call(self, args, kwargs):
        """The call's ``(name, value)`` arguments and its trace key."""
        if self._input_signature is not None:
            return bind_to_signature(self._signature, self._input_signature, args, kwargs)
        names = self._plain_names
        if names is not None and not kwargs and len(args) == len(names):
            named = list(zip(names, args))      # (Speed: what ``named_arguments`` gives)
        else:
            try:
                _, named = named_arguments(self._signature, args, kwargs)
            except TypeError as e:
                raise TypeError(f"{self._name}() {e}") from None
        named = [(n, map_leaves(as_tensor_leaf, v)) for n, v in named]
        return named, trace_key(tuple(v for _, v in named))

    def __call__(self, *args, **kwargs):
        named, key = self._named_call(args, kwargs)
        if call_watchers and _calls.depth == 0:
            for watch in call_watchers:
                watch(self, args, kwargs)
        if _run_eagerly[0]:       # runs as plain eager code: no trace, as in TensorFlow
            return self._run([v for _, v in named], named, hide_prints=False)
        pattern = self._lookup(key)
        tracing = pattern is None and _calls.muted == 0
        first = tracing and not self._traced_before   # (even a first trace that failed counts)
        self._traced_before = self._traced_before or tracing
        if tracing:
            pattern = self._new_trace(key)
        if _calls.depth == 0:             # TensorFlow watches the calls made eagerly
            watch = self._watch
            if watch is None:
                watch = self._watch = retracing_watch(self._python_function)
            watch.note(tracing, self._target())
        values = [v for _, v in named]
        if not tracing:
            return self._execute(pattern, values, named)
        values = with_symbolic_names(named, tensor_dims(pattern))
        made = variables_made()
        count = self._trace_count
        try:
            result = self._execute(pattern, values, named, tracing=True)
            if variables_made() != made:
                self._check_variables_made_once(first, values, named)
            self._signatures[pattern] = call_signature(pattern, named, result)
        except BaseException as e:
            graph_error = self._failed_trace(pattern, count, e)
            if graph_error is not None:
                raise graph_error from e
            raise
        return result

    def _failed_trace(self, pattern, count, error):
        """A trace that raised ``error`` is not kept (the next call traces again), unless
        TensorFlow's graph would have been built: a shape's error where the trace leaves
        dimensions unknown comes when the graph runs. Returns the error a graph being built
        raises instead (``as_built_graph_error``), or None to raise ``error`` itself."""
        shapes_known = all(dims is not None and None not in dims for dims in tensor_dims(pattern))
        self._graphs.pop(pattern, None)
        self._any_size.pop(pattern, None)
        if not shapes_known and getattr(error, "graph_class", None) is ValueError:
            return None
        self._traces.remove(pattern)
        self._trace_count = count - 1
        return as_built_graph_error(error, shapes_known)

    def _execute(self, pattern, values, named, tracing=False):
        """Runs a call of the trace ``pattern``: the graph recorded for these input shapes when
        there is one that can be replayed, else the Python body (hidden prints unless
        ``tracing``), recording a graph on the first run for these shapes."""
        if pattern is None:               # inside a call whose prints are hidden: no trace
            return self._run(values, named, hide_prints=True)
        flat = flat_inputs(values)
        shapes = input_shapes(flat)
        graphs = self._graphs.setdefault(pattern, {})
        graph = None if tracing else graphs.get(shapes) or self._any_size.get(pattern)
        if graph is None:
            if not tracing:      # (its hidden prints show arguments as the trace's did)
                values = with_symbolic_names(named, tensor_dims(pattern))
            result, graph = self._run(values, named, not tracing, record=flat, pattern=pattern)
            graphs[shapes] = graph
            if graph.any_size:
                self._any_size[pattern] = graph
            return result
        if graph.replayable:
            try:
                return graph.replay_in(self._label, flat)
            except ShapeChanged:       # (the graph holds no variable update: see graph.py)
                pass
        return self._run(values, named, hide_prints=True)

    def _check_variables_made_once(self, first, values, named):
        """TensorFlow lets a function create variables on its first call only. That call it
        traces twice (prints show twice); variables created again by the second trace, or by
        any later call, are an error."""
        if first:
            self._trace_count += 1
            made = variables_made()
            with UndoAssignments():       # the second trace must not change the program's state
                self._run(values, named, hide_prints=False)
            if variables_made() == made:
                return
        raise ValueError(
            "tf.function only supports singleton tf.Variables created on the first call. Make "
            "sure the tf.Variable is only created once or created outside tf.function. See "
            "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")

    def _run(self, values, named, hide_prints, record=None, pattern=None):
        """Runs the Python body; with ``record`` (the call's flat inputs) also records its graph
        and returns ``(result, graph)``; ``pattern``'s unknown dimensions are left open in it
        (``TraceRecorder``'s ``open_inputs``)."""
        args, kwargs = rebuild(self._signature, values, named)
        with call_scope(self._label, hide_prints), hooked(self._python_function):
            body = self._body()
            if record is None:
                return outputs(body(*args, **kwargs))
            opened = open_inputs(pattern, record) if pattern is not None else None
            with TraceRecorder(record, strict=not self._autograph, open_inputs=opened) as recorder:
                result = outputs(body(*args, **kwargs))
                return result, recorder.finish(result)

    def _graph_label(self):
        """The cluster's name in the tape graph: a method's with its class (``Model.__call__``),
        a nested function's without the enclosing ones."""
        qualname = getattr(self._python_function, "__qualname__", None) or self._name
        return qualname.rpartition("<locals>.")[2]

    def _lookup(self, key):
        for pattern in reversed(self._traces):
            if fits(pattern, key):
                return pattern
        return None

    def _new_trace(self, key):
        if self._reduce_retracing and self._traces:
            wider = relaxed(self._traces[-1], key)
            if wider is not None:
                key = wider
        self._traces.append(key)
        self._trace_count += 1
        return key

    # -- concrete functions ------------------------------------------------------------------------
    def get_concrete_function(self, *args, **kwargs):
        """The function specialised to one signature (TensorSpecs or example tensors), callable
        with tensors; traces (and prints, as TensorFlow's tracing does) if the signature is new.

        >>> import tapegrad as tf
        >>> f = tf.function(lambda x: x + 1)
        >>> cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
        >>> cf(tf.constant([1.0, 2.0])).numpy()
        array([2., 3.], dtype=float32)
        """
        if self._input_signature is not None and not args and not kwargs:
            names = parameter_names(self._signature)[:len(self._input_signature)]
            named = list(zip(names, self._input_signature))
        elif self._input_signature is not None:
            named, _ = bind_to_signature(self._signature, self._input_signature, args, kwargs)
            named = [(n, map_leaves(spec_of, v)) for n, v in named]
            named = [(n, s) for (n, _), s in zip(named, self._input_signature)]
        else:
            _, named = named_arguments(self._signature, args, kwargs)
            named = [(n, map_leaves(as_tensor_leaf, v)) for n, v in named]
        key = trace_key(tuple(v for _, v in named))
        pattern = self._lookup(key)
        if pattern is not None and relaxed(pattern, key) != pattern:
            pattern = None      # a spec with unknown dims needs a trace at least as general
        tracing = pattern is None and _calls.muted == 0
        if tracing:
            pattern = self._new_trace(key)
        if pattern in self._concrete:
            return self._concrete[pattern]
        cf = ConcreteFunction(self, named, pattern, tracing)
        self._concrete[pattern] = cf
        return cf


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """``tf.function``, as a decorator with or without arguments (see the package docstring).

    >>> import tapegrad as tf
    >>> @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    ... def total(x):
    ...     return tf.reduce_sum(x)
    >>> float(total(tf.constant([1.0, 2.0])))
    3.0
    """
    options = dict(input_signature=input_signature, autograph=autograph,
                   jit_compile=jit_compile if jit_compile is not None else experimental_compile,
                   reduce_retracing=reduce_retracing,
                   experimental_relax_shapes=experimental_relax_shapes)

    def decorate(fn):
        return Function(fn, **options)
    return decorate if func is None else decorate(func)
