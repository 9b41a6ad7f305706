"""``tf.make_tensor_proto`` and ``tf.make_ndarray``: a small stand-in for TensorFlow's
``TensorProto`` message (no protobuf library): ``dtype`` (the DataType number), ``tensor_shape``
(``.dim[i].size``), ``tensor_content`` (raw little-endian bytes) or the typed value lists
(``float_val``, ``int_val``...), chosen as TensorFlow chooses them. ``str``/``repr`` print the
protobuf text format TensorFlow prints. It cannot be serialized to protobuf's wire format.

>>> import tapegrad as tf
>>> proto = tf.make_tensor_proto([1.0, 2.0])
>>> print(proto)
dtype: DT_FLOAT
tensor_shape {
  dim {
    size: 2
  }
}
tensor_content: "\\000\\000\\200?\\000\\000\\000@"
<BLANKLINE>
>>> tf.make_ndarray(proto).tolist()
[1.0, 2.0]
"""
from . import dtypes
from .backend import xp
from .tensor import Tensor, convert_to_tensor
from .variables import Variable

# the typed list each dtype's values go to when tensor_content is not used
_FIELD = {"float32": "float_val", "float64": "double_val", "float16": "half_val",
          "bfloat16": "half_val", "int32": "int_val", "int16": "int_val", "int8": "int_val",
          "uint8": "int_val", "uint16": "int_val", "int64": "int64_val", "uint32": "uint32_val",
          "uint64": "uint64_val", "bool": "bool_val", "string": "string_val",
          "complex64": "scomplex_val", "complex128": "dcomplex_val"}
_NO_CONTENT = ("bool", "string", "complex64", "complex128")
_FIELD_ORDER = ("half_val", "float_val", "double_val", "int_val", "string_val", "scomplex_val",
                "int64_val", "bool_val", "dcomplex_val", "uint32_val", "uint64_val")


class TensorShapeProto:
    """``dim``: a list of ``Dim`` (each with ``size``)."""

    class Dim:
        __slots__ = ("size",)

        def __init__(self, size):
            self.size = int(size)

        def __eq__(self, other):
            return isinstance(other, TensorShapeProto.Dim) and self.size == other.size

    def __init__(self, sizes=()):
        self.dim = [TensorShapeProto.Dim(s) for s in sizes]

    def __eq__(self, other):
        return isinstance(other, TensorShapeProto) and self.dim == other.dim


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def c_escaped(data, quoted="\"'\\", named="\n\r\t"):
    """Bytes with C escapes, as protobuf's text format and ``tf.print`` write strings: a
    backslash before each character of ``quoted``, ``\\n``, ``\\r``, ``\\t`` for those of
    ``named``, and octal for the other bytes outside printable ASCII."""
    out = []
    for b in data:
        c = chr(b)
        if c in quoted:
            out.append("\\" + c)
        elif c in named:
            out.append(_NAMED_ESCAPES[c])
        elif 0x20 <= b < 0x7f:
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    return "".join(out)


def _escape(data):
    """Bytes as protobuf's text format writes them, quoted."""
    return '"' + c_escaped(data) + '"'


def _number(v, field):
    if field == "bool_val":
        return "true" if v else "false"
    if field in ("float_val", "double_val", "scomplex_val", "dcomplex_val"):
        f = float(v)
        if f != f:
            return "nan"
        if f in (float("inf"), float("-inf")):
            return "inf" if f > 0 else "-inf"
        if f == int(f) and abs(f) < 1e16:
            return str(int(f))
        return str(xp.float32(f)) if field in ("float_val", "scomplex_val") else repr(f)
    return str(int(v))


class TensorProto:
    """A tensor as TensorFlow's ``TensorProto`` message holds it (see the module's notes)."""

    def __init__(self, dtype, shape):
        self.dtype = dtype.as_datatype_enum
        self._dtype = dtype
        self.tensor_shape = TensorShapeProto(shape)
        self.tensor_content = b""
        for field in _FIELD_ORDER:
            setattr(self, field, [])

    def __str__(self):
        lines = [f"dtype: DT_{_enum_name(self._dtype)}", "tensor_shape {"]
        for d in self.tensor_shape.dim:
            lines += ["  dim {", f"    size: {d.size}", "  }"]
        lines.append("}")
        if self.tensor_content:
            lines.append(f"tensor_content: {_escape(self.tensor_content)}")
        for field in _FIELD_ORDER:
            for v in getattr(self, field):
                text = _escape(v) if field == "string_val" else _number(v, field)
                lines.append(f"{field}: {text}")
        return "\n".join(lines) + "\n"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, TensorProto) and str(self) == str(other)


def _enum_name(dtype):
    special = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}
    return special.get(dtype.name, dtype.name.upper())


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
    """A ``TensorProto`` holding ``values`` (converted to ``dtype`` if given; a single value
    with a larger ``shape`` is stored once and broadcast by ``make_ndarray``)."""
    if isinstance(values, TensorProto):
        return values
    if isinstance(values, (Tensor, Variable)):
        arr = convert_to_tensor(values)._value
        if dtype is not None:
            arr = arr.astype(dtypes.as_dtype(dtype)._np)
    else:
        arr = convert_to_tensor(values, dtype=dtype)._value
    d = dtypes.as_dtype(arr.dtype) if arr.dtype.kind not in "OSU" else dtypes.string
    dims = tuple(arr.shape) if shape is None else tuple(int(s) for s in shape)
    want = int(xp.prod(dims)) if dims else 1
    if shape is not None and arr.size != want:
        if verify_shape or allow_broadcast and arr.size != 1:
            raise TypeError(f"Expected Tensor's shape: {dims}, but got {arr.shape}.")
        if arr.size > want:
            raise ValueError(f"Too many elements provided. Takes at most {want}, but got "
                             f"{arr.size}.")
    proto = TensorProto(d, dims)
    if d.name not in _NO_CONTENT and arr.size == want and want > 1:
        proto.tensor_content = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
        return proto
    field = _FIELD.get(d.name)
    if field is None:
        raise TypeError(f"make_tensor_proto: dtype {d.name} is not supported")
    flat = arr.reshape(-1)
    if field in ("scomplex_val", "dcomplex_val"):
        values_out = [p for c in flat.tolist() for p in (c.real, c.imag)]
    elif field == "half_val":
        values_out = flat.astype(xp.float16).view(xp.uint16).tolist()
    elif field == "string_val":
        values_out = [v if isinstance(v, bytes) else str(v).encode() for v in flat.tolist()]
    else:
        values_out = flat.tolist()
    setattr(proto, field, values_out)
    return proto


def make_ndarray(tensor):
    """The NumPy array a ``TensorProto`` holds (strings as an object array of bytes).

    >>> import tapegrad as tf
    >>> tf.make_ndarray(tf.make_tensor_proto(2.0, shape=[2])).tolist()
    [2.0, 2.0]
    """
    if not isinstance(tensor, TensorProto):
        raise TypeError(f"make_ndarray expects a TensorProto, got {type(tensor).__name__}")
    d = tensor._dtype
    dims = tuple(dim.size for dim in tensor.tensor_shape.dim)
    size = int(xp.prod(dims)) if dims else 1
    if tensor.tensor_content:
        flat = xp.frombuffer(tensor.tensor_content, d._np.newbyteorder("<")).astype(d._np)
        return flat.copy().reshape(dims)
    field = _FIELD[d.name]
    vals = getattr(tensor, field)
    if field == "string_val":
        flat = xp.array(vals, dtype=object)
    elif field in ("scomplex_val", "dcomplex_val"):
        pairs = xp.asarray(vals, xp.float64).reshape(-1, 2)
        flat = (pairs[:, 0] + 1j * pairs[:, 1]).astype(d._np)
    elif field == "half_val":
        flat = xp.asarray(vals, xp.uint16).view(xp.float16).astype(d._np)
    else:
        flat = xp.asarray(vals).astype(d._np)
    if flat.size == 0:
        return xp.zeros(dims, d._np if field != "string_val" else object)
    if flat.size < size:                      # the last value fills the rest, as in TensorFlow
        flat = xp.concatenate([flat, xp.repeat(flat[-1:], size - flat.size)])
    return flat.reshape(dims)
