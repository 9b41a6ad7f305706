"""``tf.io``: files as string tensors, and tensors as bytes.

``serialize_tensor`` gives the bytes TensorFlow gives (a ``TensorProto`` in protobuf's wire
format, written here without the protobuf library: the dtype, the shape, then the raw values as
``tensor_content``, or ``string_val`` entries for strings), so ``parse_tensor`` reads
TensorFlow's serialized tensors too. ``parse_example`` and its relatives (with the
``tf.train.Example`` messages they read) live in ``io_example``; ``TFRecordWriter`` in
``tfrecord.py`` (the reader, ``tf.data.TFRecordDataset``, in ``data/readers.py``).

>>> import tapegrad as tf
>>> data = tf.io.serialize_tensor(tf.constant([1.5, 2.0]))
>>> tf.io.parse_tensor(data, tf.float32).numpy().tolist()
[1.5, 2.0]
"""
import os

from . import dtypes, errors
from .backend import xp
from .tfrecord import TFRecordOptions, TFRecordWriter  # noqa: F401  (tf.io's)
from .io_example import wire
from .io_example.parsing import (  # noqa: F401  (tf.io's names)
    FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, SparseFeature, VarLenFeature,
    parse_example, parse_sequence_example, parse_single_example, parse_single_sequence_example,
)
from .tensor import Tensor, convert_to_tensor, wrap


def _string_value(x, what):
    if isinstance(x, Tensor):
        v = x._value
        if v.ndim != 0:
            raise errors.InvalidArgumentError(f"{what} must be a scalar string, got shape "
                                              f"{list(v.shape)}")
        v = v.item()
    else:
        v = x
    if isinstance(v, str):
        return v.encode()
    if isinstance(v, bytes):
        return v
    raise errors.InvalidArgumentError(f"{what} must be a string, got {type(v).__name__}")


def _string_tensor(data):
    return convert_to_tensor(data, dtype=dtypes.string)


def read_file(filename, name=None):
    """The file's bytes as a scalar string tensor.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
    >>> tf.io.write_file(path, "hi")
    >>> tf.io.read_file(path).numpy()
    b'hi'
    """
    path = _string_value(filename, "filename").decode()
    try:
        with open(path, "rb") as f:
            return _string_tensor(f.read())
    except FileNotFoundError:
        raise errors.NotFoundError(f"{path}; No such file or directory [Op:ReadFile]") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(f"{path}; Is a directory [Op:ReadFile]") from None


def write_file(filename, contents, name=None):
    """Writes ``contents`` (a scalar string) to ``filename``, creating missing directories as
    TensorFlow does. Returns ``None``."""
    path = _string_value(filename, "filename").decode()
    data = _string_value(contents, "contents")
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


# -- protobuf wire format (io_example.wire), the few pieces a TensorProto needs ---------------
_varint, _field, _length_delimited = wire.varint, wire.field, wire.length_delimited


def _fields(data):
    """(field number, wire type, value) of each field of one message."""
    return wire.fields(data, "TensorProto")


_TENSOR_CONTENT, _STRING_VAL, _DTYPE, _SHAPE = 4, 8, 1, 2


def serialize_tensor(tensor, name=None):
    """The tensor as a scalar string tensor of TensorFlow's ``TensorProto`` bytes."""
    t = convert_to_tensor(tensor)
    v = t._value
    out = bytearray(_field(_DTYPE, 0) + _varint(t.dtype.as_datatype_enum))
    shape = b"".join(_length_delimited(2, _field(1, 0) + _varint(d) if d else b"")
                     for d in v.shape)
    out += _length_delimited(_SHAPE, shape)
    if t.dtype == dtypes.string:
        for s in v.reshape(-1).tolist():
            out += _length_delimited(_STRING_VAL, s if isinstance(s, bytes) else str(s).encode())
    elif v.size:
        out += _length_delimited(_TENSOR_CONTENT,
                                 xp.ascontiguousarray(v).astype(v.dtype.newbyteorder("<"))
                                 .tobytes())
    return _string_tensor(bytes(out))


def parse_tensor(serialized, out_type, name=None):
    """The tensor ``serialize_tensor`` (TensorFlow's or tapegrad's) made; ``out_type`` must be
    its dtype."""
    data = _string_value(serialized, "serialized")
    want = dtypes.as_dtype(out_type)
    enum, dims, content, strings = None, [], None, []
    for number, wire, value in _fields(data):
        if number == _DTYPE:
            enum = value
        elif number == _SHAPE:
            for sub, _, dim in _fields(value):
                if sub == 2:
                    size = 0
                    for f, _, s in _fields(dim):
                        if f == 1:
                            size = s
                    dims.append(size)
        elif number == _TENSOR_CONTENT:
            content = value
        elif number == _STRING_VAL:
            strings.append(bytes(value))
        elif wire == 2 and number in (5, 6, 7, 9, 10, 11, 12, 13, 16, 17):
            raise errors.UnimplementedError("parse_tensor: typed value lists (float_val...) are "
                                            "not supported, only tensor_content")
    if enum != want.as_datatype_enum:
        found = next((d for d in (dtypes.as_dtype(n) for n in _DTYPE_NAMES)
                      if d.as_datatype_enum == enum), None)
        shown = {"float32": "float", "float64": "double"}.get(getattr(found, "name", ""),
                                                              getattr(found, "name", enum))
        raise errors.InvalidArgumentError(f"Type mismatch between parsed tensor ({shown}) and "
                                          f"dtype ({want.name}) [Op:ParseTensor]")
    size = int(xp.prod(dims)) if dims else 1
    if want == dtypes.string:
        return convert_to_tensor(xp.array(strings or [b""] * size, dtype=object).reshape(dims),
                                 dtype=dtypes.string)
    raw = bytes(content or b"")
    # tapegrad's string tensors drop trailing NUL bytes (NumPy's fixed-width bytes), and
    # tensor_content is the last field: zeros put them back
    raw = raw.ljust(size * want._np.itemsize, b"\x00")
    arr = xp.frombuffer(raw, want._np.newbyteorder("<")).astype(want._np)
    if arr.size != size:
        raise errors.InvalidArgumentError(f"Could not parse `serialized` as TensorProto: "
                                          f"{arr.size} values for shape {dims}")
    return wrap(arr.reshape(dims).copy())


_DTYPE_NAMES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                "uint16", "uint32", "uint64", "bool", "complex64", "complex128", "string")


_RAW_TYPES = ("float16", "float32", "float64", "int32", "uint16", "uint8", "int16", "int8",
              "int64", "complex64", "complex128", "bool", "bfloat16")
_ATTR_NAMES = {"float16": "half", "float32": "float", "float64": "double"}


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """Each string's bytes read as numbers of ``out_type``: the result has the input's shape and
    one more dimension, the numbers of one string (all strings the same length, or
    ``fixed_length`` bytes each, cut or padded with zeros).

    >>> import tapegrad as tf
    >>> tf.io.decode_raw(tf.constant([b"\\x01\\x02\\x03\\x04"]), tf.int16).numpy().tolist()
    [[513, 1027]]
    """
    want = dtypes.as_dtype(out_type)
    if want.name not in _RAW_TYPES:
        allowed = ", ".join(_ATTR_NAMES.get(n, n) for n in _RAW_TYPES)
        raise errors.InvalidArgumentError(
            f"Value for attr 'out_type' of {_ATTR_NAMES.get(want.name, want.name)} is not in the "
            f"list of allowed values: {allowed}")
    data = _string_tensor(input_bytes)._value
    flat = [b if isinstance(b, bytes) else str(b).encode() for b in data.reshape(-1).tolist()]
    item = want._np.itemsize
    if fixed_length is not None:
        flat = [b[:int(fixed_length)].ljust(int(fixed_length), b"\x00") for b in flat]
    size = len(flat[0]) if flat else 0
    for i, b in enumerate(flat):
        if len(b) != size:
            raise errors.InvalidArgumentError(
                "DecodeRaw requires input strings to all be the same size, but element "
                f"{i} has size {size} != {len(b)} [Op:DecodeRaw]")
    if size % item:
        raise errors.InvalidArgumentError(
            f"Input to DecodeRaw has length {size} that is not a multiple of {item}, the size "
            f"of {want.name} [Op:DecodeRaw]")
    order = want._np.newbyteorder("<" if little_endian else ">")
    numbers = xp.frombuffer(b"".join(flat), order).astype(want._np)
    return wrap(numbers.reshape(tuple(data.shape) + (size // item,)).copy())
