"""``tf.train.Example``, ``Features``, ``Feature``, ``BytesList``, ``FloatList``, ``Int64List``,
``SequenceExample``, ``FeatureList`` and ``FeatureLists``: TensorFlow's ``example.proto`` and
``feature.proto`` messages written without the protobuf library.

They are built with keyword arguments as protobuf's classes are, read by attribute
(``example.features.feature["x"].int64_list.value``), written to protobuf's wire format with
``SerializeToString`` (the bytes TensorFlow writes; a map's entries in the order they were added,
or sorted by key with ``deterministic=True``), read back with ``FromString``/``ParseFromString``,
and printed in protobuf's text format as TensorFlow prints them (a map's entries by key,
last first).

>>> import tapegrad as tf
>>> feature = tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 300]))
>>> example = tf.train.Example(features=tf.train.Features(feature={"n": feature}))
>>> example.SerializeToString()
b'\\n\\x0e\\n\\x0c\\n\\x01n\\x12\\x07\\x1a\\x05\\n\\x03\\x01\\xac\\x02'
>>> tf.train.Example.FromString(example.SerializeToString()).features.feature["n"].int64_list.value
[1, 300]
"""
import copy
import operator
import struct

from ..backend import xp
from ..tensor_proto import c_escaped
from . import wire


class DecodeError(Exception):
    """Bytes that are not a valid message of the class read (protobuf's ``DecodeError``)."""


# -- repeated scalar fields -----------------------------------------------------------------
def _int64(owner):
    def check(v):
        if isinstance(v, bool):
            raise TypeError(f"Field tensorflow.{owner}.value: Expected an int, got a boolean.")
        if isinstance(v, xp.bool_):     # older NumPy only warns when indexing with one
            raise TypeError(f"'numpy.{type(v).__name__}' object cannot be interpreted as an "
                            f"integer")
        return operator.index(v)
    return check


def _float(v):
    if isinstance(v, (str, bytes)):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    return float(xp.float32(float(v)))


def _bytes(v):
    if not isinstance(v, bytes):
        raise TypeError(f"expected bytes, {type(v).__name__} found")
    return v


class _Values(list):
    """A repeated scalar field: a list whose additions are checked (and floats rounded to
    float32) as protobuf's containers do."""

    def __init__(self, check, values=()):
        self._check = check
        super().__init__(check(v) for v in values)

    def append(self, v):
        super().append(self._check(v))

    def extend(self, values):
        super().extend(self._check(v) for v in values)

    def insert(self, i, v):
        super().insert(i, self._check(v))

    def __setitem__(self, i, v):
        if isinstance(i, slice):
            super().__setitem__(i, [self._check(x) for x in v])
        else:
            super().__setitem__(i, self._check(v))

    def __deepcopy__(self, memo):
        return _Values(self._check, self)


class _Map(dict):
    """A map field from strings to messages: a missing key reads as a new empty message, added
    to the map (as protobuf's message maps do)."""

    def __init__(self, cls, items=None):
        super().__init__()
        self._cls = cls
        for key, value in (items or {}).items():
            self[key] = value

    def __deepcopy__(self, memo):
        return _Map(self._cls, {k: copy.deepcopy(v, memo) for k, v in self.items()})

    def __missing__(self, key):
        value = self[key] = self._cls()
        return value

    def __setitem__(self, key, value):
        if isinstance(key, bytes):
            key = key.decode()
        super().__setitem__(key, _message(self._cls, value))


class _Messages(list):
    """A repeated message field; ``add()`` appends a new message."""

    def __init__(self, cls, items=()):
        self._cls = cls
        super().__init__(_message(cls, v) for v in items)

    def __deepcopy__(self, memo):
        return _Messages(self._cls, [copy.deepcopy(v, memo) for v in self])

    def add(self, **kwargs):
        value = self._cls(**kwargs)
        self.append(value)
        return value


def _message(cls, value):
    if isinstance(value, dict):
        return cls(**value)
    if not isinstance(value, cls):
        raise TypeError(f"Parameter to initialize message field must be dict or instance of same "
                        f"class: expected {cls.__name__} got {type(value).__name__}.")
    return value


# -- messages -------------------------------------------------------------------------------
class _Message:
    """A protobuf message: ``_FIELDS`` lists (name, number, kind, message class) with kind one
    of "bytes", "int64", "float" (repeated scalars), "message", "messages" (repeated) or "map"
    (string keys); ``_ONEOF`` names the message fields of which at most one is set."""

    _FIELDS = ()
    _ONEOF = None

    def __init__(self, **kwargs):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_set", set())
        names = {f[0] for f in self._FIELDS}
        for name, value in kwargs.items():
            if name not in names:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" '
                                 f'field.')
            if value is not None:
                self._assign(name, value)

    def _spec(self, name):
        return next(f for f in self._FIELDS if f[0] == name)

    def _new(self, name, items=None):
        _, _, kind, cls = self._spec(name)
        if kind == "int64":
            return _Values(_int64(type(self).__name__), items or ())
        if kind == "float":
            return _Values(_float, items or ())
        if kind == "bytes":
            return _Values(_bytes, items or ())
        if kind == "map":
            return _Map(cls, items)
        if kind == "messages":
            return _Messages(cls, items or ())
        return cls() if items is None else _message(cls, items)

    def _assign(self, name, value):
        if self._ONEOF and name in self._ONEOF:
            for other in self._ONEOF:
                self._values.pop(other, None)
                self._set.discard(other)
        self._values[name] = self._new(name, value)
        self._set.add(name)

    def __getattr__(self, name):
        if name.startswith("_") or name not in {f[0] for f in self._FIELDS}:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        if name not in self._values:
            self._values[name] = self._new(name)
        return self._values[name]

    def __setattr__(self, name, value):
        if name in {f[0] for f in self._FIELDS}:
            raise AttributeError(f'Assignment not allowed to field "{name}" in protocol '
                                 f'message object.')
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _present(self, name):
        """Whether a field is written: set explicitly, or not empty."""
        if name not in self._values:
            return False
        kind = self._spec(name)[2]
        if kind == "message":
            value = self._values[name]
            return name in self._set or any(value._present(f[0]) for f in value._FIELDS)
        return bool(self._values[name])

    def WhichOneof(self, group):
        """The name of the set field of the oneof (``"kind"`` for ``Feature``), or ``None``."""
        for name in self._ONEOF or ():
            if name in self._set:
                return name
        return next((n for n in self._ONEOF or () if self._present(n)), None)

    def HasField(self, name):
        if self._spec(name)[2] != "message":
            raise ValueError(f'Protocol message has no singular "{name}" field.')
        if self._ONEOF and name in self._ONEOF:
            return self.WhichOneof("kind") == name
        return self._present(name)

    def ListFields(self):
        """(name, value) of the fields that are written."""
        return [(f[0], self._values[f[0]]) for f in self._FIELDS if self._written(f[0])]

    def _written(self, name):
        if self._ONEOF and name in self._ONEOF:
            return self.WhichOneof("kind") == name
        return self._present(name)

    def Clear(self):
        self._values.clear()
        self._set.clear()

    def CopyFrom(self, other):
        self.Clear()
        self.MergeFrom(other)

    def MergeFrom(self, other):
        self.MergeFromString(other.SerializeToString())

    # -- wire format ------------------------------------------------------------------------
    def SerializeToString(self, deterministic=False):
        """The message in protobuf's wire format."""
        out = bytearray()
        for name, number, kind, _ in self._FIELDS:
            if self._written(name):
                out += _encode(self._values[name], number, kind, deterministic)
        return bytes(out)

    def ByteSize(self):
        return len(self.SerializeToString())

    def ParseFromString(self, data):
        """Replaces the message by the one ``data`` holds; returns the number of bytes read."""
        self.Clear()
        return self.MergeFromString(data)

    def MergeFromString(self, data):
        data = bytes(data)
        try:
            self._merge(data)
        except (ValueError, IndexError, struct.error, UnicodeDecodeError) as e:
            raise DecodeError(f"Error parsing message with type "
                              f"'tensorflow.{type(self).__name__}'") from e
        return len(data)

    def _merge(self, data):
        by_number = {f[1]: f for f in self._FIELDS}
        for number, wire_type, value in _fields(data):
            spec = by_number.get(number)
            if spec is None:
                continue                      # unknown fields are skipped
            name, _, kind, cls = spec
            if kind in ("message", "messages", "map", "bytes") and wire_type != 2:
                raise ValueError(f"wire type {wire_type} for field {name}")
            _decode_into(self, name, kind, cls, wire_type, value)

    @classmethod
    def FromString(cls, data):
        message = cls()
        message.ParseFromString(data)
        return message

    # -- text format, equality --------------------------------------------------------------
    def __str__(self):
        return "".join(line + "\n" for line in _text(self, ""))

    __repr__ = __str__

    def __eq__(self, other):
        return type(other) is type(self) and \
            self.SerializeToString(True) == other.SerializeToString(True)

    __hash__ = None

    def __reduce__(self):                 # copies and pickles go through the wire bytes
        return type(self).FromString, (self.SerializeToString(),)


def _fields(data):
    try:
        yield from wire.fields(data, "message", strict=True)
    except Exception as e:  # noqa: BLE001 - any malformed field is a decode error
        raise ValueError(str(e)) from None


def _encode(value, number, kind, deterministic):
    if kind == "bytes":
        return b"".join(wire.length_delimited(number, v) for v in value)
    if kind == "int64":
        return wire.length_delimited(number, b"".join(wire.varint(v) for v in value))
    if kind == "float":
        return wire.length_delimited(number, struct.pack(f"<{len(value)}f", *value))
    if kind == "message":
        return wire.length_delimited(number, value.SerializeToString(deterministic))
    if kind == "messages":
        return b"".join(wire.length_delimited(number, v.SerializeToString(deterministic))
                        for v in value)
    keys = sorted(value) if deterministic else list(value)
    return b"".join(wire.length_delimited(
        number, wire.length_delimited(1, key.encode())
        + wire.length_delimited(2, value[key].SerializeToString(deterministic))) for key in keys)


def _decode_into(message, name, kind, cls, wire_type, value):
    target = getattr(message, name)
    if kind == "bytes":
        target.append(bytes(value))
    elif kind == "int64":
        target.extend(wire.packed_varints(value, "message") if wire_type == 2
                      else [wire.signed64(value)])
    elif kind == "float":
        if wire_type not in (2, 5):
            raise ValueError(f"wire type {wire_type} for a float")
        target.extend(wire.packed_floats(value))
    elif kind == "message":
        if message._ONEOF and name in message._ONEOF and message.WhichOneof("kind") != name:
            message._assign(name, cls())
            target = getattr(message, name)
        message._set.add(name)
        target._merge(bytes(value))
    elif kind == "messages":
        target.add()._merge(bytes(value))
    else:
        key, entry = "", b""
        for number, _, part in _fields(bytes(value)):
            if number == 1:
                key = bytes(part).decode()
            elif number == 2:
                entry = bytes(part)
        target[key]._merge(entry)


# -- text format ----------------------------------------------------------------------------
def float_text(v):
    """A float32 as protobuf's text format writes it: the shortest of 6 or 9 significant
    digits that reads back as the same float32."""
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    short = "%.6g" % v
    return short if float(xp.float32(float(short))) == v else "%.9g" % v


def _printed_order(key):
    """The order TensorFlow prints a map's keys in: by their bytes, last first, except that a
    key comes before the longer keys it begins."""
    return [255 - b for b in key.encode()] + [-1]


def _key_text(key):
    """A string field as the text format writes it: C escapes, non-ASCII letters kept."""
    return "".join(c if ord(c) >= 0x80 else c_escaped(c.encode()) for c in key)


def _text(message, indent):
    lines = []
    for name, _, kind, _ in message._FIELDS:
        if not message._written(name):
            continue
        value = message._values[name]
        if kind == "bytes":
            lines += [f'{indent}{name}: "{c_escaped(v)}"' for v in value]
        elif kind == "int64":
            lines += [f"{indent}{name}: {v}" for v in value]
        elif kind == "float":
            lines += [f"{indent}{name}: {float_text(v)}" for v in value]
        elif kind in ("message", "messages"):
            for v in ([value] if kind == "message" else value):
                lines += [f"{indent}{name} {{", *_text(v, indent + "  "), f"{indent}}}"]
        else:
            for key in sorted(value, key=_printed_order):
                lines += [f"{indent}{name} {{", f'{indent}  key: "{_key_text(key)}"',
                          f"{indent}  value {{", *_text(value[key], indent + "    "),
                          f"{indent}  }}", f"{indent}}}"]
    return lines


class BytesList(_Message):
    """``value``: a list of byte strings."""
    _FIELDS = (("value", 1, "bytes", None),)


class FloatList(_Message):
    """``value``: a list of float32 numbers."""
    _FIELDS = (("value", 1, "float", None),)


class Int64List(_Message):
    """``value``: a list of int64 numbers."""
    _FIELDS = (("value", 1, "int64", None),)


class Feature(_Message):
    """One of ``bytes_list``, ``float_list``, ``int64_list`` (the oneof ``kind``)."""
    _FIELDS = (("bytes_list", 1, "message", BytesList), ("float_list", 2, "message", FloatList),
               ("int64_list", 3, "message", Int64List))
    _ONEOF = ("bytes_list", "float_list", "int64_list")


class Features(_Message):
    """``feature``: a map from names to ``Feature``."""
    _FIELDS = (("feature", 1, "map", Feature),)


class FeatureList(_Message):
    """``feature``: a list of ``Feature`` (one per step of a sequence)."""
    _FIELDS = (("feature", 1, "messages", Feature),)


class FeatureLists(_Message):
    """``feature_list``: a map from names to ``FeatureList``."""
    _FIELDS = (("feature_list", 1, "map", FeatureList),)


class Example(_Message):
    """``features``: the example's ``Features``."""
    _FIELDS = (("features", 1, "message", Features),)


class SequenceExample(_Message):
    """``context`` (``Features``) and ``feature_lists`` (``FeatureLists``)."""
    _FIELDS = (("context", 1, "message", Features),
               ("feature_lists", 2, "message", FeatureLists))
