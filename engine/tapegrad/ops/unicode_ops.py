"""``tf.strings.unicode_*``: strings to code points and back, in UTF-8, UTF-16-BE or UTF-32-BE.

A vector of strings decodes to a RaggedTensor of int32 code points (one row per string); a
scalar to a vector. ``errors`` is TensorFlow's: ``"replace"`` puts ``replacement_char`` for
each bad sequence, ``"ignore"`` drops it, ``"strict"`` raises ``InvalidArgumentError``.
"""
from ..backend import xp
from ..errors import InvalidArgumentError
from ..tensor import wrap
from .ragged_ops import RaggedTensor
from .string_ops import _array, _bytes, _string_array
from .unicode_scripts import script_code

_CODECS = {"UTF8": "utf-8", "UTF16BE": "utf-16-be", "UTF32BE": "utf-32-be"}


def _codec(encoding, op):
    key = str(encoding).upper().replace("-", "").replace("_", "")
    if key not in _CODECS:
        raise InvalidArgumentError(f"{op}: encoding {encoding!r} is not supported; use one of "
                                   f"UTF-8, UTF-16-BE, UTF-32-BE [Op:{op}]")
    return _CODECS[key]


def _check_errors(errors):
    if errors not in ("replace", "ignore", "strict"):
        raise ValueError(f"errors must be 'replace', 'ignore' or 'strict', got {errors!r}")


def _decode_one(b, codec, errors, replacement, replace_control, op):
    """The code points of ``b`` and the byte offset where each starts."""
    unit = {"utf-8": 1, "utf-16-be": 2, "utf-32-be": 4}[codec]
    points, offsets = [], []
    pos = 0
    while pos < len(b):
        cp, size = _next_char(b, pos, codec, unit)
        if cp is None:
            if errors == "strict":
                raise InvalidArgumentError(f"Invalid formatting on input string [Op:{op}]")
            if errors == "replace":
                points.append(replacement)
                offsets.append(pos)
        else:
            if replace_control and (cp < 0x20 or 0x7F <= cp < 0xA0) and cp not in (9, 10, 13):
                cp = replacement
            points.append(cp)
            offsets.append(pos)
        pos += size
    return points, offsets


def _next_char(b, pos, codec, unit):
    """``(code point, bytes used)`` at ``pos``; ``(None, bytes to skip)`` for a bad sequence."""
    if codec == "utf-8":
        lead = b[pos]
        if lead < 0x80:
            return lead, 1
        size = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else \
            4 if 0xF0 <= lead <= 0xF4 else 0
        if size == 0:
            return None, 1
        # a bad sequence is skipped as one error up to its longest valid prefix (ICU's and
        # Unicode's "maximal subpart")
        low, high = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF),
                     0xF4: (0x80, 0x8F)}.get(lead, (0x80, 0xBF))
        good = 1
        while good < size and pos + good < len(b) and \
                (low if good == 1 else 0x80) <= b[pos + good] <= (high if good == 1 else 0xBF):
            good += 1
        if good < size:
            return None, good
        return ord(b[pos:pos + size].decode("utf-8")), size
    chunk = b[pos:pos + unit]
    if len(chunk) < unit:
        return None, len(chunk)
    if codec == "utf-32-be":
        cp = int.from_bytes(chunk, "big")
        return (cp, 4) if cp <= 0x10FFFF and not 0xD800 <= cp <= 0xDFFF else (None, 4)
    cu = int.from_bytes(chunk, "big")
    if 0xD800 <= cu <= 0xDBFF:
        low = b[pos + 2:pos + 4]
        if len(low) == 2 and 0xDC00 <= int.from_bytes(low, "big") <= 0xDFFF:
            return 0x10000 + ((cu - 0xD800) << 10) + (int.from_bytes(low, "big") - 0xDC00), 4
        return None, 2
    if 0xDC00 <= cu <= 0xDFFF:
        return None, 2
    return cu, 2


def _ragged_rows(a, rows, dtype):
    """Rows (lists) of the strings of ``a`` as a RaggedTensor with ``a``'s shape, ragged last."""
    if a.ndim == 0:
        return wrap(xp.asarray(rows[0], dtype=dtype).reshape(-1))
    flat = xp.asarray([v for r in rows for v in r], dtype=dtype).reshape(-1) if dtype != object \
        else _objects([v for r in rows for v in r])
    out = RaggedTensor.from_row_lengths(wrap(flat), [len(r) for r in rows], validate=False)
    for dim in reversed(a.shape[1:]):
        n = out.nrows()._value
        out = RaggedTensor.from_row_lengths(out, xp.full(int(n) // dim, dim), validate=False)
    return out


def _objects(items):
    out = xp.empty(len(items), dtype=object)
    out[:] = items
    return out


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters, op):
    codec = _codec(input_encoding, op)
    _check_errors(errors)
    a = _string_array(input, op)
    decoded = [_decode_one(_bytes(v), codec, errors, int(replacement_char),
                           replace_control_characters, op) for v in a.reshape(-1).tolist()]
    return a, decoded


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The int32 code points of each string (a RaggedTensor for a vector of strings).

    >>> import tapegrad as tf
    >>> tf.strings.unicode_decode(["hé", "z"], "UTF-8").to_list()
    [[104, 233], [122]]
    """
    a, decoded = _decode(input, input_encoding, errors, replacement_char,
                         replace_control_characters, "UnicodeDecode")
    return _ragged_rows(a, [p for p, _ in decoded], xp.int32)


def unicode_decode_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """``(code points, byte offset where each character starts)``, both int32/int64 rows.

    >>> import tapegrad as tf
    >>> cps, offsets = tf.strings.unicode_decode_with_offsets(["hé"], "UTF-8")
    >>> offsets.to_list()
    [[0, 1]]
    """
    a, decoded = _decode(input, input_encoding, errors, replacement_char,
                         replace_control_characters, "UnicodeDecodeWithOffsets")
    return (_ragged_rows(a, [p for p, _ in decoded], xp.int32),
            _ragged_rows(a, [o for _, o in decoded], xp.int64))


def unicode_split_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                               replacement_char=65533, name=None):
    """``(each character as a string of its bytes, byte offset where each starts)``.

    >>> import tapegrad as tf
    >>> chars, offsets = tf.strings.unicode_split_with_offsets(["hé"], "UTF-8")
    >>> chars.to_list(), offsets.to_list()
    ([[b'h', b'\\xc3\\xa9']], [[0, 1]])
    """
    codec = _codec(input_encoding, "UnicodeDecodeWithOffsets")
    a, decoded = _decode(input, input_encoding, errors, replacement_char, False,
                         "UnicodeDecodeWithOffsets")
    chars = [[_encode_one([cp], codec, "replace", 65533) for cp in p] for p, _ in decoded]
    return _ragged_rows(a, chars, object), _ragged_rows(a, [o for _, o in decoded], xp.int64)


def _encode_one(points, codec, errors, replacement):
    out = []
    for cp in points:
        cp = int(cp)
        if not 0 <= cp <= 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
            if errors == "strict":
                raise InvalidArgumentError(f"Code point is out of range for Unicode, or is a "
                                           f"surrogate. Got {cp} [Op:UnicodeEncode]")
            if errors == "ignore":
                continue
            cp = replacement
        out.append(chr(cp))
    return "".join(out).encode(codec)


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """Code points to strings: a vector gives one string, a matrix or RaggedTensor one
    string per row.

    >>> import tapegrad as tf
    >>> tf.strings.unicode_encode([104, 233], "UTF-8").numpy()
    b'h\\xc3\\xa9'
    """
    codec = _codec(output_encoding, "UnicodeEncode")
    _check_errors(errors)
    if isinstance(input, RaggedTensor):
        if input.ragged_rank != 1:
            inner = unicode_encode(input.values, output_encoding, errors, replacement_char)
            return RaggedTensor(inner, input.row_splits)
        rows = input.to_list()
        return wrap(_objects([_encode_one(r, codec, errors, int(replacement_char))
                              for r in rows]))
    a = _array(input)
    if a.dtype.kind not in "iu":
        raise TypeError(f"unicode_encode: expected int32 code points, got {a.dtype}")
    if a.ndim == 0:
        raise ValueError("unicode_encode: input must have rank at least 1")
    rows = a.reshape(-1, a.shape[-1]).tolist()
    out = _objects([_encode_one(r, codec, errors, int(replacement_char)) for r in rows])
    return wrap(out.reshape(a.shape[:-1]))


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Each string re-encoded from ``input_encoding`` to ``output_encoding`` (same shape).

    >>> import tapegrad as tf
    >>> tf.strings.unicode_transcode(["hé"], "UTF-8", "UTF-16-BE").numpy().tolist()
    [b'\\x00h\\x00\\xe9']
    """
    out_codec = _codec(output_encoding, "UnicodeTranscode")
    a, decoded = _decode(input, input_encoding, errors, replacement_char,
                         replace_control_characters, "UnicodeTranscode")
    out = _objects([_encode_one(p, out_codec, "replace", int(replacement_char))
                    for p, _ in decoded])
    return wrap(out.reshape(a.shape))


def unicode_script(input, name=None):  # noqa: A002
    """ICU's script code of each int32 code point (25 Latin, 8 Cyrillic, 17 Han, 0 Common,
    -1 for a value that is not a code point).

    >>> import tapegrad as tf
    >>> tf.strings.unicode_script([65, 1041, 20320]).numpy().tolist()
    [25, 8, 17]
    """
    a = _array(input)
    if a.dtype != xp.int32:
        raise InvalidArgumentError(f"unicode_script: input must be int32, got {a.dtype} "
                                   f"[Op:UnicodeScript]")
    return wrap(xp.asarray([script_code(int(v)) for v in a.reshape(-1).tolist()],
                           dtype=xp.int32).reshape(a.shape))
