"""Concrete functions: a ``tf.function`` specialised to one input signature, with the inputs,
outputs and signature text TensorFlow shows for it."""
import inspect
import itertools

from .. import errors, nest
from ..backend import xp as np
from ..tensor import Tensor, convert_to_tensor
from ..tensor_spec import TensorSpec
from .calls import _run_eagerly
from .func_graph import FuncGraph
from . import composites
from .composites import COMPOSITE_SPECS, COMPOSITES, SPARSE, component_count, map_structure
from .keys import common_dims, flat_inputs, input_shapes, map_leaves, tensor_dims, zip_leaves
from .signatures import composite_component_specs, fit_to_composite_spec, named_arguments, unnamed
from .symbolic import GraphTensorView, with_symbolic_names
from .variable_state import UndoAssignments

_inference_ids = itertools.count(1)


class ConcreteFunction:
    """A ``tf.function`` specialised to one input signature.

    Tracing runs the Python function once on example values (zeros for ``TensorSpec``
    arguments, unknown dimensions of size 1, and once more, hidden, with size 2 to tell which
    output dimensions follow them); variable assignments made while tracing are undone. The
    first run's recorded graph is ``.graph``; calls replay it where it serves their shapes (see
    ``Function._execute``), Python arguments staying those of the trace.
    """

    def __init__(self, function, named, pattern, tracing):
        self._function = function
        self._names = [n for n, _ in named]
        self._templates = [v for _, v in named]
        self._pattern = pattern
        self.name = f"__inference_{function._name}_{next(_inference_ids)}".encode()
        self._input_specs = self._named_specs()
        first, self._trace_graph = self._trace(1, hide_prints=not tracing, record=True)
        self._second_graph = None       # the size-2 trace's graph: which op dimensions are open
        dims = [tuple(t.shape) if isinstance(t, Tensor) else None for t in _leaves(first)]
        if self._has_unknown_dims():
            second, self._second_graph = self._second_trace()
            dims = [common_dims(a, tuple(b.shape)) if isinstance(b, Tensor) else a
                    for a, b in zip(dims, _leaves(second))]
        names = (f"Identity:0" if i == 0 else f"Identity_{i}:0" for i in itertools.count())
        flat = [GraphTensorView(next(names), d, t.dtype) if isinstance(t, Tensor) else t
                for t, d in zip(_leaves(first), dims)]
        rest = iter(flat)
        self.structured_outputs = map_leaves(lambda _: next(rest), first)
        self.outputs = [x for x in flat if isinstance(x, GraphTensorView)]
        self.inputs = self._input_views()
        self._graph = None

    def _second_trace(self):
        """The hidden trace with unknown dimensions of size 2, and its graph (None where it could
        not be recorded), which is not kept for calls. A SparseTensor's dense shape is a
        graph input whose values TensorFlow's graph does not know, so its known dimensions change
        too (1 added) where the body allows it: what follows them is unknown, as in TensorFlow."""
        if any(isinstance(s, composites.SPARSE) for s in nest.flatten(self._input_specs)):
            try:
                return self._recorded_second_trace(sparse_shapes_open=True)
            except Exception:      # the body needs the spec's known dimensions: keep them
                pass
        return self._recorded_second_trace()

    def _recorded_second_trace(self, **how):
        try:
            return self._trace(2, hide_prints=True, record=True, keep=False, **how)
        except Exception:          # only recording it failed: the result alone, as before
            return self._trace(2, hide_prints=True, **how), None

    def _has_unknown_dims(self):
        """Whether an input has dimensions the trace leaves unknown (a composite's always has)."""
        return any(isinstance(spec, COMPOSITE_SPECS) or any(d is None for d in (spec._dims or (None,)))
                   for spec in nest.flatten(self._input_specs)
                   if isinstance(spec, (TensorSpec, *COMPOSITE_SPECS)))

    def _input_views(self):
        """The graph's inputs: one per tensor, one per component of a composite."""
        out = []
        for name, spec in zip(self._names, self._input_specs):
            count = itertools.count()
            for leaf in nest.flatten(spec):
                parts = [leaf] if isinstance(leaf, TensorSpec) else \
                    composite_component_specs(leaf) if isinstance(leaf, COMPOSITE_SPECS) else []
                for part in parts:
                    i = next(count)
                    label = f"{name}:0" if i == 0 else f"{name}_{i}:0"
                    out.append(GraphTensorView(label, part._dims, part.dtype))
        return out

    def _named_specs(self):
        return named_specs(self._pattern, self._names, self._templates)

    def _example(self, unknown_size, sparse_shapes_open=False):
        """Example arguments: the given tensors, zeros for TensorSpecs (composites: see
        ``composites.example``)."""
        def example(leaf):
            if isinstance(leaf, COMPOSITE_SPECS):
                return composites.example(leaf, unknown_size, sparse_shapes_open)
            if isinstance(leaf, TensorSpec):
                if leaf._dims is None:
                    return convert_to_tensor(np.zeros((unknown_size,) * 1,
                                                      dtype=leaf.dtype.as_numpy_dtype))
                shape = [unknown_size if d is None else d for d in leaf._dims]
                return convert_to_tensor(np.zeros(shape, dtype=leaf.dtype.as_numpy_dtype))
            return leaf
        return [map_structure(example, v) for v in self._templates]

    def _trace(self, unknown_size, hide_prints, record=False, sparse_shapes_open=False, keep=True):
        """Runs the Python function on example arguments, its assignments undone; with
        ``record``, returns ``(result, graph)`` and (``keep``) keeps the graph for calls of these
        shapes."""
        named = list(zip(self._names, self._example(unknown_size, sparse_shapes_open)))
        values = with_symbolic_names(named, tensor_dims(self._pattern))
        with UndoAssignments():
            if not record:
                return self._function._run(values, named, hide_prints)
            flat = flat_inputs(values)
            result, graph = self._function._run(values, named, hide_prints, record=flat)
        if keep:
            self._function._graphs.setdefault(self._pattern, {})[input_shapes(flat)] = graph
        return result, graph

    @property
    def graph(self):
        """The trace's graph (``get_operations()``, ``inputs``, ``outputs``,
        ``as_graph_def()``): see ``func_graph``."""
        if self._graph is None:
            self._graph = FuncGraph(self.name.decode(), self._trace_graph, self.inputs,
                                    self.outputs, self._second_graph)
        return self._graph

    @property
    def structured_input_signature(self):
        return tuple(self._input_specs), {}

    @property
    def function_type(self):
        return self.pretty_printed_signature(False)

    def __call__(self, *args, **kwargs):
        # Python arguments were fixed by the trace: the call takes the tensor ones alone.
        takes = [n for n, spec in zip(self._names, self._input_specs)
                 if any(isinstance(x, (TensorSpec, *COMPOSITE_SPECS)) for x in nest.flatten(spec))]
        try:
            _, given = named_arguments(inspect.Signature(
                [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD)
                 for n in takes]), args, kwargs)
        except TypeError as e:
            raise TypeError(f"{self.name.decode()}() {e}") from None
        given = dict(given)
        named = [(n, given[n] if n in given else t) for n, t in zip(self._names, self._templates)]
        flat_index = itertools.count()

        def check(leaf, spec):
            if isinstance(spec, COMPOSITE_SPECS):
                for _ in range(component_count(spec)):
                    next(flat_index)
                try:
                    return fit_to_composite_spec(leaf, spec)
                except TypeError as e:
                    raise TypeError(self._binding_error(e, args, kwargs)) from None
            if not isinstance(spec, TensorSpec):
                return leaf
            return self._checked_input(leaf, spec, next(flat_index))
        values = [zip_leaves(check, value, template)
                  for (_, value), template in zip(named, self._input_specs)]
        if _run_eagerly[0]:
            return self._function._run(values, named, hide_prints=False)
        return self._function._execute(self._pattern, values, named)

    def _binding_error(self, reason, args, kwargs):
        """TensorFlow's message for arguments that do not fit a composite spec: the structured
        signature's reason, then why the flat signature (one argument per component tensor)
        failed too, when it did for the number of arguments."""
        params = ", ".join(f"{n}: {_type_text(s)}" for n, s in zip(self._names, self._input_specs))
        text = (f"Binding inputs to tf.function failed due to `{reason}`. Received args: "
                f"{args!r} and kwargs: {kwargs!r} for signature: ({params}) -> "
                f"{self._output_specs()!r}.")
        flat = [v.name.rpartition(":")[0] for v in self.inputs]
        summary = f"{self._function._name}({', '.join(flat)})"
        if len(args) > len(flat):
            why = f"{summary} takes {len(flat)} positional arguments, got {len(args)}."
        else:
            missing = sorted(set(flat[len(args):]) - set(kwargs))
            why = f"{summary} missing required arguments: {', '.join(missing)}." if missing \
                else None
        return text if why is None else f"{text}\nFallback to flat signature also failed due to: {why}"

    def _checked_input(self, leaf, spec, i):
        """Input ``i`` as a tensor of ``spec``'s dtype, or TensorFlow's error for another dtype."""
        t = leaf if isinstance(leaf, Tensor) else convert_to_tensor(leaf, dtype=spec.dtype)
        if t.dtype != spec.dtype:
            op = self.name.decode()
            kind = "float" if spec.dtype.name == "float32" else spec.dtype.name
            raise errors.InvalidArgumentError(
                f"cannot compute {op} as input #{i}(zero-based) was expected to be a "
                f"{kind} tensor but is a {t.dtype.name} tensor [Op:{op}]")
        return t

    def _output_specs(self):
        return map_structure(
            lambda o: composites.output_spec(o, lambda v: TensorSpec(v._dims, v.dtype)),
            self.structured_outputs)

    def pretty_printed_signature(self, verbose=True):
        return signature_text(self._names, self._input_specs, self._output_specs())

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self):
        params = ", ".join(f"{n}: {_type_text(s)}" for n, s in zip(self._names, self._input_specs))
        return f"<ConcreteFunction ({params}) -> {self._output_specs()!r} at 0x{id(self):X}>"


def named_specs(pattern, names, templates):
    """The TensorSpecs (named after their parameters) of a trace's arguments, with the trace
    key's dimensions; Python values as they are."""
    dims_iter = iter(tensor_dims(pattern))
    shapes_iter = iter(tensor_dims(pattern, kind="dense shape"))
    out = []
    for name, value in zip(names, templates):
        count = itertools.count()

        def spec(leaf):
            if isinstance(leaf, (Tensor, TensorSpec)):
                i = next(count)
                return TensorSpec(next(dims_iter), leaf.dtype, name if i == 0 else f"{name}_{i}")
            if isinstance(leaf, COMPOSITES):
                dims = [next(dims_iter) for _ in range(component_count(leaf))]
                next(count)     # a composite takes one name, as in TensorFlow's signatures
                shape = next(shapes_iter) if isinstance(leaf, SPARSE) else None
                return composites.spec_from_dims(leaf, dims, shape)
            return leaf
        out.append(map_structure(spec, value))
    return out


def signature_text(names, input_specs, output_specs):
    """A concrete function's signature as ``pretty_printed_concrete_signatures`` prints it."""
    params = "\n".join(f"  {n} (POSITIONAL_OR_KEYWORD): {_type_text(s)}"
                       for n, s in zip(names, input_specs))
    return f"Input Parameters:\n{params}\nOutput Type:\n  {output_specs!r}\nCaptures:\n  None"


def call_signature(pattern, named, result):
    """The signature text of a trace made by a call: its arguments' specs and its result's."""
    names = [n for n, _ in named]
    outputs = map_structure(_result_spec, result)
    return signature_text(names, named_specs(pattern, names, [v for _, v in named]), outputs)


def _result_spec(x):
    if isinstance(x, Tensor):
        return TensorSpec(tuple(x.shape), x.dtype)
    if isinstance(x, COMPOSITES):
        return composites.value_spec(x)
    return x


def _leaves(structure):
    """The leaves of a result, a composite's components among them, in ``map_leaves`` order."""
    out = []
    map_leaves(out.append, structure)
    return out


def _type_text(spec):
    """A parameter's type as TensorFlow prints it: specs without names, a Python value as the
    literal it was traced with (``Literal['train']``)."""
    if spec is None or isinstance(spec, (bool, int, float, str, bytes)):
        return f"Literal[{spec!r}]"
    return repr(unnamed(spec))
