"""The engine's NumPy-style ``xp`` on top of any Array API namespace.

The engine is written against NumPy's names (``xp.concatenate``, ``xp.zeros(shape, dtype)``,
``xp.arccos``...). ``Namespace`` gives those names over a library obtained the Array API way
(``array_api_compat.array_namespace``), in one of two modes:

* device mode, for NumPy-compatible libraries such as CuPy: the library's own arrays are the
  engine's values (they stay on its device through forward and backward), its functions are
  called directly;
* bridge mode, for strict Array API libraries (``array_api_strict``...): values between ops are
  host NumPy arrays, and every array function the engine calls is computed by the library (NumPy
  names translated to the standard's: ``concatenate`` -> ``concat``, ``arccos`` -> ``acos``...).

A function the standard (or the library) lacks — einsum, convolution helpers, most of
``linalg``, special functions — or a call whose NumPy semantics the library refuses runs on NumPy
instead: the arrays are converted to NumPy and back, and a ``NumpyFallbackWarning`` says so once
per function. ``fallbacks()`` lists what fell back and why.

>>> import numpy, array_api_strict
>>> ns = Namespace(array_api_strict, "array_api_strict")
>>> ns.concatenate([numpy.ones(2), numpy.zeros(1)]).tolist()
[1.0, 1.0, 0.0]
"""
import importlib
import warnings

import array_api_compat
import numpy as np

# NumPy name -> the Array API standard's name for the same function.
RENAMED = {
    "concatenate": "concat", "power": "pow", "absolute": "abs", "arccos": "acos",
    "arcsin": "asin", "arctan": "atan", "arctan2": "atan2", "arccosh": "acosh",
    "arcsinh": "asinh", "arctanh": "atanh", "invert": "bitwise_invert",
    "bitwise_not": "bitwise_invert", "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift", "true_divide": "divide", "amax": "max", "amin": "min",
    "conjugate": "conj", "cumsum": "cumulative_sum", "cumprod": "cumulative_prod",
    "swapaxes": "permute_dims", "transpose": "permute_dims",
}
_MISSING = object()
# NumPy functions whose positional dtype / axes arguments are keyword-only in the standard.
_CREATION = {"zeros", "ones", "empty"}
# NumPy returns a scalar, not a 0-d array, from these when the result has no dimensions.
_REDUCTIONS = {"sum", "prod", "max", "min", "amax", "amin", "mean", "std", "var", "all", "any",
               "argmax", "argmin", "count_nonzero", "vecdot"}
# Names that are types, constants or host machinery, never computed: always NumPy's.
_HOST = {"ndarray", "generic", "integer", "floating", "number", "complexfloating", "bool_",
         "dtype", "errstate", "finfo", "iinfo", "newaxis", "pi", "e", "inf", "nan", "random",
         "issubdtype", "result_type", "can_cast", "promote_types", "isscalar", "ndim", "shape",
         "seterr", "geterr", "printoptions", "set_printoptions", "get_printoptions",
         "array2string", "format_float_positional", "format_float_scientific", "iscomplexobj",
         "isrealobj", "obj2sctype", "dtypes", "exceptions", "lib", "testing", "ma", "char",
         "ctypeslib", "broadcast_shapes", "asarray_chkfinite", "frombuffer", "fromiter",
         "ascontiguousarray", "array", "memmap", "flatiter", "signedinteger", "unsignedinteger",
         "inexact", "object_", "str_", "bytes_", "void", "character", "flexible", "ufunc"}


# NumPy helpers that loop in Python (special functions written with math.erf, lgamma...).
_PYTHON_LOOPS = {"vectorize", "frompyfunc"}


class NumpyFallbackWarning(UserWarning):
    """A function ran on NumPy because the chosen array namespace lacks it."""


class Namespace:
    """NumPy's names over ``library`` (a module following the Array API standard).

    ``device`` (True for NumPy-compatible libraries such as CuPy) keeps the library's arrays as
    values; otherwise values are host NumPy arrays handed to the library op by op.
    """

    def __init__(self, library, name, device=None, _sub=None):
        self.__name__ = name
        self.library = library
        self.standard = array_api_compat.array_namespace(library.asarray(0.0)) \
            if _sub is None else library
        self.device = _is_numpy_like(library) if device is None else device
        self._numpy = np if _sub is None else getattr(np, _sub)
        self.arrays = self.standard if _sub is None else None   # the module with asarray
        self._fallbacks = {} if _sub is None else None
        self._calls = 0
        self._parent = None
        for sub in ("linalg", "fft"):
            if _sub is None and hasattr(self.standard, sub):
                child = Namespace(getattr(self.standard, sub), f"{name}.{sub}", self.device, sub)
                child._parent, child.arrays = self, self.standard
                setattr(self, sub, child)

    # -- what the engine sees --------------------------------------------------------------

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        numpy_attr = getattr(self._numpy, name, _MISSING)
        if name in _PYTHON_LOOPS:   # NumPy calling Python per element: a fallback, said once
            func = self._make(name, None, numpy_attr)
            setattr(self, name, func)
            return func
        if name in _HOST or (numpy_attr is not _MISSING and not callable(numpy_attr)) \
                or isinstance(numpy_attr, type):
            if self.device and hasattr(self.library, name):
                value = getattr(self.library, name)
            elif numpy_attr is not _MISSING:
                value = numpy_attr
            else:
                raise AttributeError(f"{self.__name__} has no {name!r}")
            setattr(self, name, value)
            return value
        numpy_attr = None if numpy_attr is _MISSING else numpy_attr
        target = getattr(self.library if self.device else self.standard,
                         name if self.device else RENAMED.get(name, name), None)
        if numpy_attr is None and target is None:
            raise AttributeError(f"neither {self.__name__} nor NumPy has {name!r}")
        func = self._make(name, target, numpy_attr)
        if isinstance(numpy_attr, np.ufunc):   # xp.add.at, xp.maximum.reduce...: no standard twin
            for method in ("at", "reduce", "accumulate", "outer", "reduceat"):
                native = getattr(target, method, None) if self.device else None
                setattr(func, method, self._make(f"{name}.{method}", native,
                                                 getattr(numpy_attr, method)))
            func.nin, func.nout, func.identity = numpy_attr.nin, numpy_attr.nout, \
                numpy_attr.identity
        setattr(self, name, func)
        return func

    def gpu_count(self):
        """CUDA devices the library computes on (CuPy), else 0."""
        cuda = getattr(self.library, "cuda", None)
        try:
            return int(cuda.runtime.getDeviceCount()) if cuda is not None else 0
        except Exception:   # CuPy installed without a usable driver: no GPU
            return 0

    def to_host(self, value):
        """A value of this namespace as NumPy (device arrays are copied to the host)."""
        return _to_host(value) if self.device else value

    def fallbacks(self):
        """{numpy name: why it ran on NumPy} for every function that fell back so far."""
        return dict(self._root()._fallbacks)

    def calls(self):
        """How many array functions the chosen library computed so far."""
        return self._root()._calls

    # -- building one function -------------------------------------------------------------

    def _root(self):
        return self._parent or self

    def _make(self, name, target, numpy_func):
        if target is None:
            def missing(*args, **kwargs):
                return self._fall_back(name, numpy_func, args, kwargs,
                                       "not in the Array API standard: NumPy fallback")
            missing.__name__ = name
            return missing
        if self.device:
            def direct(*args, **kwargs):
                try:
                    result = target(*args, **kwargs)
                except (TypeError, ValueError, AttributeError, NotImplementedError) as e:
                    # NumPy semantics the library refuses (a tuple for an array, a host array,
                    # string dtypes, an unsupported keyword): NumPy decides, and says so once
                    if numpy_func is None:
                        raise
                    return self._fall_back(name, numpy_func, args, kwargs,
                                           f"{type(e).__name__}: {e}")
                self._root()._calls += 1
                return result
            direct.__name__ = name
            return direct
        scalar_result = name in _REDUCTIONS or isinstance(numpy_func, np.ufunc)

        def bridged(*args, **kwargs):
            try:
                std_args, std_kwargs = self._standard_arguments(name, args, kwargs)
                result = target(*_to_library(self.arrays, std_args),
                                **_to_library(self.arrays, std_kwargs))
            except Exception as e:   # NumPy semantics the library refuses: NumPy decides
                if numpy_func is None:
                    raise
                return self._fall_back(name, numpy_func, args, kwargs,
                                       f"{type(e).__name__}: {e}")
            self._root()._calls += 1
            return _to_numpy(result, scalar_result)
        bridged.__name__ = name
        return bridged

    def _standard_arguments(self, name, args, kwargs):
        """NumPy's calling conventions as the standard's (positional dtype, transpose...)."""
        std = self.arrays
        kwargs = {k: (_dtype(std, v) if k == "dtype" and v is not None else v)
                  for k, v in kwargs.items()}
        if name in _CREATION and len(args) == 2:
            args, kwargs = args[:1], {**kwargs, "dtype": _dtype(std, args[1])}
        if name == "full" and len(args) == 3:
            args, kwargs = args[:2], {**kwargs, "dtype": _dtype(std, args[2])}
        if name == "asarray" and len(args) == 2:
            args, kwargs = args[:1], {**kwargs, "dtype": _dtype(std, args[1])}
        if name in ("flip", "tril", "triu", "roll") and len(args) == 2:   # keyword-only there
            key = {"flip": "axis", "roll": "shift"}.get(name, "k")
            args, kwargs = args[:1], {**kwargs, key: args[1]}
        if name == "swapaxes":   # swapaxes(x, a, b) is permute_dims with a and b exchanged
            x, a, b = args
            axes = list(range(np.ndim(x)))
            axes[a], axes[b] = axes[b], axes[a]
            return (x, tuple(axes)), {}
        if name == "transpose":
            axes = args[1] if len(args) > 1 else kwargs.pop("axes", None)
            x = args[0]
            axes = tuple(range(np.ndim(x)))[::-1] if axes is None else tuple(axes)
            return (x, axes), {}
        return args, kwargs

    def _fall_back(self, name, numpy_func, args, kwargs, why):
        root = self._root()
        qualified = name if self._parent is None else f"{self.__name__.split('.')[-1]}.{name}"
        if qualified not in root._fallbacks:
            root._fallbacks[qualified] = why
            warnings.warn(f"tapegrad: {qualified} runs on NumPy under {root.__name__} ({why})",
                          NumpyFallbackWarning, stacklevel=3)
        if not self.device:
            return numpy_func(*args, **kwargs)
        host = numpy_func(*_to_host(args), **_to_host(kwargs))
        return _to_device(root.library, host)


# -- conversions --------------------------------------------------------------------------------

def _is_numpy_like(library):
    """CuPy and the like: NumPy's own API (and array methods) on the library's arrays."""
    return all(hasattr(library, n) for n in ("ndarray", "concatenate", "swapaxes", "float32"))


def _dtype(standard, dtype):
    if not isinstance(dtype, (type, np.dtype, str)):
        return dtype
    name = np.dtype(dtype).name
    if name == "bool":
        return standard.bool
    found = getattr(standard, name, None)
    if found is None:
        raise TypeError(f"dtype {name} is not in the Array API standard")
    return found


def _to_library(standard, value):
    if isinstance(value, (np.ndarray, np.generic)):
        return standard.asarray(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, (np.ndarray, np.generic, list, tuple))
                                                 for v in value):
        return type(value)(_to_library(standard, v) for v in value)
    if isinstance(value, dict):
        return {k: _to_library(standard, v) for k, v in value.items()}
    return value


def _to_numpy(result, scalar_result):
    if isinstance(result, tuple) and hasattr(result, "_fields"):   # QRResult(Q, R)...: NumPy's names
        return type(result)(*(_to_numpy(r, scalar_result) for r in result))
    if isinstance(result, (tuple, list)):
        return type(result)(_to_numpy(r, scalar_result) for r in result)
    if hasattr(result, "__dlpack__") or hasattr(result, "__array__"):
        out = np.asarray(result)
        return out[()] if scalar_result and out.ndim == 0 else out
    return result


def _to_host(value):
    if hasattr(value, "get") and hasattr(value, "__cuda_array_interface__"):
        return value.get()
    if isinstance(value, (list, tuple)):
        return type(value)(_to_host(v) for v in value)
    if isinstance(value, dict):
        return {k: _to_host(v) for k, v in value.items()}
    return value


def _to_device(library, value):
    if isinstance(value, np.ndarray):   # strings and objects have no device form: they stay here
        return value if value.dtype.kind in "OUSV" else library.asarray(value)
    if isinstance(value, tuple):
        return tuple(_to_device(library, v) for v in value)
    return value


def load(name):
    """The ``Namespace`` for an importable module name (``cupy``, ``array_api_strict``...)."""
    try:
        library = importlib.import_module(name)
    except ImportError as e:
        raise ImportError(f"TAPEGRAD_ARRAY_NAMESPACE={name}: cannot import {name!r} ({e}); "
                          "install it, or unset the variable to use NumPy") from e
    if not hasattr(library, "asarray"):
        raise ImportError(f"TAPEGRAD_ARRAY_NAMESPACE={name}: {name!r} is not an array library "
                          "(it has no asarray)")
    return Namespace(library, name)
