"""The functions of a loaded SavedModel: a restored ``tf.function`` (its saved concrete functions,
the first whose input signature fits a call runs), a restored concrete function (it replays its
saved graph, so tapes around the call record its ops and variables are read afresh), and the
signatures (keyword arguments in, a dict of named outputs out, as TensorFlow's)."""
import collections.abc

from ..errors import InvalidArgumentError
from ..function.graph import ShapeChanged
from ..function.keys import map_leaves
from ..tensor import Tensor, convert_to_tensor
from ..tensor_spec import TensorSpec, dims_compatible
from ..variables import Variable


class _NoMatch(Exception):
    pass


def _spec_text(spec):
    return repr(spec)


def _value_text(value):
    if isinstance(value, Tensor):
        return f"<tf.Tensor shape={tuple(value.shape)} dtype={value.dtype.name}>"
    return repr(value)


class RestoredConcreteFunction:
    """One saved trace: ``name``, ``structured_input_signature``, ``structured_outputs``,
    ``pretty_printed_signature()``; calling it replays the graph."""

    def __init__(self, name, inputs, build, dims, output_specs):
        self.name = name
        self._names = [n for n, _ in inputs]
        self._specs = [s for _, s in inputs]
        self._build = build          # sizes of the unknown dimensions -> TraceGraph
        self._dims = [tuple(d) for d in dims]    # (flat input, axis) of each unknown dimension
        self._graphs = {}
        self._output_specs = output_specs
        self._label = f"tf.function:{name}"

    @property
    def structured_input_signature(self):
        return tuple(self._specs), {}

    @property
    def structured_outputs(self):
        return self._output_specs

    def _bind(self, args, kwargs):
        """The flat tensor inputs for a call, or ``_NoMatch``."""
        if len(args) > len(self._names) or any(k not in self._names for k in kwargs):
            raise _NoMatch()
        given = dict(zip(self._names, args))
        for k, v in kwargs.items():
            if k in given:
                raise _NoMatch()
            given[k] = v
        flat = []

        def check(spec, value):
            if isinstance(spec, TensorSpec):
                if isinstance(value, Variable):
                    value = value.read_value()
                try:
                    t = value if isinstance(value, Tensor) else convert_to_tensor(value, spec.dtype)
                except (TypeError, ValueError):
                    raise _NoMatch() from None
                if t.dtype != spec.dtype or not dims_compatible(spec._dims, tuple(t.shape)):
                    raise _NoMatch()
                flat.append(t)
            elif not (spec == value and type(spec) is type(value)):
                raise _NoMatch()
        for name, spec in zip(self._names, self._specs):
            if name in given:
                _walk(check, spec, given[name])
            elif any(isinstance(s, TensorSpec) for s in _leaves(spec)):
                raise _NoMatch()      # (a Python argument left out keeps its traced value)
        return flat

    def _run(self, flat):
        sizes = tuple(int(flat[k].shape[axis]) for k, axis in self._dims)
        graph = self._graphs.get(sizes)
        if graph is None:
            graph = self._graphs[sizes] = self._build(sizes)
        try:
            return graph.replay_in(self._label, flat)
        except ShapeChanged as e:
            raise InvalidArgumentError(
                f"{self._label}: {e.args[0]} gave a result of another shape than when the "
                f"function was saved, and the saved graph depends on that shape (it read it in "
                f"Python). Save the function without reading that shape in Python.") from None

    def __call__(self, *args, **kwargs):
        try:
            flat = self._bind(args, kwargs)
        except _NoMatch:
            raise TypeError(f"{self.name}(): the arguments {_call_text(args, kwargs)} do not "
                            f"match its input signature {self.structured_input_signature}")
        return self._run(flat)

    def pretty_printed_signature(self, verbose=True):
        params = "\n".join(f"  {n} (POSITIONAL_OR_KEYWORD): {_parameter_type(s)}"
                           for n, s in zip(self._names, self._specs))
        return (f"Input Parameters:\n{params}\nOutput Type:\n  {_output_type(self._output_specs)}\n"
                f"Captures:\n  None")


def _parameter_type(spec):
    """A parameter's type as TensorFlow prints it: its spec, or the Python value it was traced
    with as ``Literal[...]``."""
    if spec is None or isinstance(spec, (bool, int, float, str, bytes)):
        return f"Literal[{spec!r}]"
    return repr(spec)


def _output_type(specs):
    """The output type as TensorFlow prints it for a restored function: a dict's items sorted,
    each spec named after its key (``'unknown'`` for a bare tensor)."""
    if isinstance(specs, dict):
        items = ", ".join(f"[{k!r}, {TensorSpec(v._dims, v.dtype, k)!r}]"
                          for k, v in sorted(specs.items()))
        return f"Dict[{items}]"
    return repr(map_leaves(lambda s: TensorSpec(s._dims, s.dtype, "unknown")
                           if isinstance(s, TensorSpec) else s, specs))


def _leaves(structure):
    out = []
    map_leaves(out.append, structure)
    return out


def _walk(fn, spec, value):
    """``fn(spec leaf, value leaf)`` over two structures, ``_NoMatch`` where they differ."""
    if isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise _NoMatch()
        for k in spec:
            _walk(fn, spec[k], value[k])
    elif isinstance(spec, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(spec):
            raise _NoMatch()
        for s, v in zip(spec, value):
            _walk(fn, s, v)
    else:
        fn(spec, value)


def _call_text(args, kwargs):
    keywords = {k: _value_text(v) for k, v in kwargs.items()}
    return f"{tuple(_value_text(a) for a in args)}, {keywords}"


class RestoredFunction:
    """A restored ``tf.function``: calls run the first saved concrete function that fits."""

    def __init__(self, name, concretes):
        self.name = name
        self.concrete_functions = list(concretes)

    def __call__(self, *args, **kwargs):
        if not self.concrete_functions:
            raise ValueError("Found zero restored functions for caller function.")
        for cf in self.concrete_functions:
            try:
                flat = cf._bind(args, kwargs)
            except _NoMatch:
                continue
            return cf._run(flat)
        raise ValueError(self._no_match_text(args, kwargs))

    def _no_match_text(self, args, kwargs):
        def block(values, keywords):
            lines = [f"  Positional arguments ({len(values)} total):"]
            lines += [f"    * {v}" for v in values]
            return "\n".join(lines + [f"  Keyword arguments: {keywords}"])
        options = [f"Option {i}:\n" + block([_spec_text(s) for s in cf._specs], {})
                   for i, cf in enumerate(self.concrete_functions, 1)]
        return ("Could not find matching concrete function to call loaded from the SavedModel. "
                "Got:\n" + block([_value_text(a) for a in args],
                                 {k: _value_text(v) for k, v in kwargs.items()}) +
                f"\n\n Expected these arguments to match one of the following "
                f"{len(options)} option(s):\n\n" + "\n\n".join(options))

    def get_concrete_function(self, *args, **kwargs):
        """The saved concrete function whose signature fits ``args`` (TensorSpecs or values)."""
        if not args and not kwargs and len(self.concrete_functions) == 1:
            return self.concrete_functions[0]
        for cf in self.concrete_functions:
            if list(cf._specs) == list(args) and not kwargs:
                return cf
            try:
                cf._bind(args, kwargs)
                return cf
            except _NoMatch:
                continue
        raise ValueError(self._no_match_text(args, kwargs))

    def pretty_printed_concrete_signatures(self, verbose=True):
        return "\n\n".join(cf.pretty_printed_signature(verbose) for cf in self.concrete_functions)


# ---------------------------------------------------------------- signatures
def output_keys(structure):
    """``[(key, leaf)]``: how a signature names a function's outputs (``output_<i>`` for a
    tensor or the items of a list or tuple, the keys of a dict)."""
    if isinstance(structure, dict):
        return [(str(k), v) for k, v in structure.items()]
    if isinstance(structure, (list, tuple)):
        return [(f"output_{i}", v) for i, v in enumerate(structure)]
    return [("output_0", structure)]


class SignatureFunction:
    """A signature: keyword arguments named after its input specs, a dict of outputs."""

    def __init__(self, concrete):
        self._concrete = concrete
        self.name = concrete.name
        self._inputs = [s for spec in concrete._specs for s in _leaves(spec)
                        if isinstance(s, TensorSpec)]

    # (TensorFlow gives a signature's dicts in the order of its stored protobuf maps, which
    # is no order Python code can rely on; tapegrad keeps the function's order)
    @property
    def structured_input_signature(self):
        return (), {s.name: s for s in self._inputs}

    @property
    def structured_outputs(self):
        return {k: TensorSpec(s._dims, s.dtype, k)
                for k, s in output_keys(self._concrete._output_specs)}

    def __call__(self, *args, **kwargs):
        names = [s.name for s in self._inputs]
        if len(args) > len(names):
            raise TypeError(f"signature_wrapper_{self.name}({', '.join(names)}) takes "
                            f"{len(names)} positional arguments, got {len(args)}.")
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in given:
                raise TypeError(f"signature_wrapper_{self.name}() got an unexpected or repeated "
                                f"keyword argument {k!r}; its arguments are {names}.")
            given[k] = v
        missing = [n for n in names if n not in given]
        if missing:
            raise TypeError(f"signature_wrapper_{self.name}() missing required arguments: "
                            f"{', '.join(missing)}.")
        flat = [given[n] if isinstance(given[n], Tensor) else convert_to_tensor(given[n], s.dtype)
                for n, s in zip(names, self._inputs)]
        for t, s in zip(flat, self._inputs):
            if t.dtype != s.dtype or not dims_compatible(s._dims, tuple(t.shape)):
                raise ValueError(f"signature_wrapper_{self.name}(): {s.name} must be {s!r}, got "
                                 f"{_value_text(t)}.")
        return dict(output_keys(self._concrete._run(flat)))


class SignatureMap(collections.abc.Mapping):
    """``loaded.signatures``: signature key -> ``SignatureFunction``, in the order saved."""

    def __init__(self, concretes):
        self._functions = {k: SignatureFunction(cf) for k, cf in concretes.items()}

    def __getitem__(self, key):
        return self._functions[key]

    def __iter__(self):
        return iter(self._functions)

    def __len__(self):
        return len(self._functions)

    def __repr__(self):
        return f"_SignatureMap({dict(self._functions)!r})"
