"""Protobuf's wire format, the pieces ``TensorProto`` and ``tf.train.Example`` need: varints,
length-delimited fields, and reading one message's fields back."""
import struct

from .. import errors


def varint(n):
    """``n`` as a base-128 varint (a negative number as its 64-bit two's complement)."""
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, wire_type):
    """A field's key: its number and wire type."""
    return varint((number << 3) | wire_type)


def length_delimited(number, payload):
    return field(number, 2) + varint(len(payload)) + payload


def read_varint(data, pos, what):
    """The varint at ``pos`` and the position after it; ``what`` names the message in the error
    a truncated one raises."""
    shift = result = 0
    while True:
        if pos >= len(data):
            raise errors.InvalidArgumentError(f"Could not parse `serialized` as {what}: "
                                              "truncated data")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


def fields(data, what, strict=False):
    """(field number, wire type, value) of each field of one message: an int for a varint,
    bytes otherwise; ``strict``: a field cut short by the end of the data is an error."""
    pos = 0
    while pos < len(data):
        key, pos = read_varint(data, pos, what)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = read_varint(data, pos, what)
        elif wire == 2:
            length, pos = read_varint(data, pos, what)
            value, pos = data[pos:pos + length], pos + length
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, pos = data[pos:pos + size], pos + size
        else:
            raise errors.InvalidArgumentError(f"Could not parse `serialized` as {what}")
        if strict and pos > len(data):
            raise errors.InvalidArgumentError(f"Could not parse `serialized` as {what}: "
                                              "truncated data")
        yield number, wire, value


def signed64(n):
    """A varint read back as a signed 64-bit integer."""
    return n - (1 << 64) if n >= 1 << 63 else n


def packed_varints(data, what):
    pos, out = 0, []
    while pos < len(data):
        n, pos = read_varint(data, pos, what)
        out.append(signed64(n))
    return out


def packed_floats(data):
    return list(struct.unpack(f"<{len(data) // 4}f", data[:len(data) // 4 * 4]))
