"""``tf.strings`` basics on string tensors (object arrays of ``bytes``, as TensorFlow's).

Strings have no gradient; every function here returns plain tensors. ``split`` returns a
``RaggedTensor`` (one row per input string), as TensorFlow does. Hashing into buckets,
``tf.fingerprint``, n-grams and joining by segment use TensorFlow's own hashes
(``string_hash.py``), so bucket numbers match.
"""
import math
import re as _re
import struct

from ..backend import xp
from ..dtypes import as_dtype, float32
from ..errors import InvalidArgumentError, OutOfRangeError
from ..tensor import Tensor, convert_to_tensor, wrap
from ..variables import Variable
from .print_ops import format_array
from .ragged_ops import RaggedTensor
from .string_hash import fingerprint64, hash64, siphash24

_len = len        # substr's argument ``len`` (TensorFlow's name) hides the builtin there
_format = format  # this module defines tf.strings.format


def _strings(x, op):
    t = x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)
    a = t._value
    if a.dtype != object:
        raise TypeError(f"{op}: expected a string tensor, got {t.dtype.name}")
    return a


def _bytes(v):
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


def _map(a, fn, otype=object):
    flat = [fn(_bytes(v)) for v in a.reshape(-1).tolist()]
    out = xp.empty(len(flat), dtype=otype)
    out[:] = flat
    return wrap(out.reshape(a.shape))


def _check_unit(unit, op):
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(f"Value for attr 'unit' of \"{unit}\" is not in the list of "
                                   f"allowed values: \"BYTE\", \"UTF8_CHAR\" [Op:{op}]")


def _utf8_units(b):
    """``b`` cut into characters as TensorFlow counts them on any bytes, valid UTF-8 or not: a
    character starts at every byte that does not continue a sequence (``0b10xxxxxx``)."""
    starts = [i for i, c in enumerate(b) if c & 0xC0 != 0x80 or i == 0]
    return [b[i:j] for i, j in zip(starts, starts[1:] + [len(b)])]


def _utf8_length(b):
    return sum(1 for c in b if c & 0xC0 != 0x80)


def length(input, unit="BYTE", name=None):  # noqa: A002
    r"""Length of each string in bytes (``unit="UTF8_CHAR"``: in characters; bytes that continue a
    UTF-8 sequence are not counted, so invalid UTF-8 has a length too, as in TensorFlow).

    >>> import tapegrad as tf
    >>> tf.strings.length(["ab", "wörld"]).numpy().tolist()
    [2, 6]
    >>> tf.strings.length([b"\xc3\xa9t\xc3\xa9", b"\xff"], unit="UTF8_CHAR").numpy().tolist()
    [3, 1]
    """
    _check_unit(unit, "StringLength")
    a = _strings(input, "StringLength")
    return _map(a, len if unit == "BYTE" else _utf8_length, xp.int32)


def lower(input, encoding="", name=None):  # noqa: A002
    """Lowercase (ASCII letters; all letters with ``encoding="utf-8"``)."""
    a = _strings(input, "StringLower")
    if encoding:
        return _map(a, lambda b: b.decode("utf-8").lower().encode("utf-8"))
    return _map(a, lambda b: b.lower())


def upper(input, encoding="", name=None):  # noqa: A002
    """Uppercase (ASCII letters; all letters with ``encoding="utf-8"``)."""
    a = _strings(input, "StringUpper")
    if encoding:
        return _map(a, lambda b: b.decode("utf-8").upper().encode("utf-8"))
    return _map(a, lambda b: b.upper())


def strip(input, name=None):  # noqa: A002
    """Leading and trailing whitespace removed."""
    return _map(_strings(input, "StringStrip"), lambda b: b.strip())


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """Splits each string at ``sep`` (default: runs of whitespace): a scalar gives a vector,
    a tensor of rank N a ``RaggedTensor`` of rank N + 1 with one row per string.

    >>> import tapegrad as tf
    >>> tf.strings.split(["a b", "c"]).to_list()
    [[b'a', b'b'], [b'c']]
    """
    a = _strings(input, "StringSplit")
    separator = None if sep is None or sep == "" else _bytes(sep)
    limit = -1 if maxsplit is None else int(maxsplit)

    def pieces(b):
        if separator is None:
            return b.split(None, limit) if limit >= 0 else b.split()
        return b.split(separator, limit) if limit >= 0 else b.split(separator)

    return _pieces_to_ragged(a, pieces)


def join(inputs, separator="", name=None):
    """Element-wise concatenation of string tensors of one shape (scalars are repeated), with
    ``separator``.

    >>> import tapegrad as tf
    >>> tf.strings.join(["a", ["x", "y"]], separator="-").numpy().tolist()
    [b'a-x', b'a-y']
    """
    arrays = [_strings(x, "StringJoin") for x in inputs]
    shapes = [a.shape for a in arrays if a.ndim]
    for other in shapes[1:]:
        if other != shapes[0]:   # TensorFlow broadcasts scalars only
            raise InvalidArgumentError(
                f"Input shapes do not match: [{','.join(map(str, shapes[0]))}] vs. "
                f"[{','.join(map(str, other))}] [Op:StringJoin]")
    shape = shapes[0] if shapes else ()
    parts = [xp.broadcast_to(a, shape).reshape(-1).tolist() for a in arrays]
    sep = _bytes(separator)
    n = int(xp.prod(shape)) if shape else 1
    joined = [sep.join(_bytes(p[i]) for p in parts) for i in range(n)]
    out = xp.empty(n, dtype=object)
    out[:] = joined
    return wrap(out.reshape(shape))


def _reduction_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise OutOfRangeError(f"Invalid reduction dimension {axis} for input with {ndim} "
                              f"dimension(s) [Op:ReduceJoin]")
    return axis % ndim


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Joins the strings along ``axis`` (all of them when None)."""
    a = _strings(inputs, "ReduceJoin")
    sep = _bytes(separator)
    axes = tuple(range(a.ndim)) if axis is None else \
        tuple(_reduction_axis(int(v), a.ndim) for v in xp.asarray(axis).reshape(-1))
    moved = xp.moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim)))
    kept = moved.shape[:a.ndim - len(axes)]
    rows = moved.reshape(kept + (-1,)) if kept else moved.reshape(1, -1)
    flat = rows.reshape(-1, rows.shape[-1])
    out = xp.empty(flat.shape[0], dtype=object)
    out[:] = [sep.join(_bytes(v) for v in row) for row in flat.tolist()]
    out = out.reshape(kept)
    if keepdims:
        out = out.reshape(tuple(1 if i in axes else d for i, d in enumerate(a.shape)))
    return wrap(out)


def to_number(string_tensor, out_type=float32, name=None):
    """Parses each string as a number of ``out_type`` (float32 by default).

    >>> import tapegrad as tf
    >>> tf.strings.to_number(["1.5", "-2"]).numpy().tolist()
    [1.5, -2.0]
    """
    a = _strings(string_tensor, "StringToNumber")
    np_type = xp.dtype(as_dtype(out_type).as_numpy_dtype)

    def parse(b):
        text = b.decode("utf-8", "replace").strip()
        try:
            return int(text) if np_type.kind in "iu" else float(text)
        except ValueError:
            raise InvalidArgumentError(f"StringToNumberOp could not correctly convert string: "
                                       f"{text} [Op:StringToNumber]") from None

    return wrap(xp.asarray([parse(_bytes(v)) for v in a.reshape(-1).tolist()],
                           dtype=np_type).reshape(a.shape))


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",  # noqa: A002
              name=None):
    """Each number as text: floats with 6 decimals unless ``precision`` says otherwise
    (``scientific`` uses an exponent, ``shortest`` the shortest form), booleans as true/false,
    ``width``/``fill`` pad on the left.

    >>> import tapegrad as tf
    >>> tf.strings.as_string([3.5]).numpy().tolist()
    [b'3.500000']
    """
    t = input.read_value() if isinstance(input, Variable) else convert_to_tensor(input)
    a = t._value
    kind = a.dtype.kind
    if kind == "O":   # strings pass through, padded to ``width`` as TensorFlow does
        return _map(a, lambda b: b.rjust(max(width, 0), (fill or " ").encode()))
    if scientific and shortest:
        raise InvalidArgumentError("Cannot select both scientific and shortest notation "
                                   "[Op:AsString]")
    if fill not in ("", " ", "0"):
        raise InvalidArgumentError(f"Fill argument not supported: \"{fill}\" [Op:AsString]")
    if kind in "fc":
        code = "g" if shortest else ("e" if scientific else "f")
        spec = f".{precision}{code}" if precision >= 0 else code
    elif precision >= 0 or scientific or shortest:
        raise InvalidArgumentError("Cannot select precision, scientific or shortest for a "
                                   "non-float input [Op:AsString]")
    else:
        spec = "d"
    # printf's width: '0' pads after the sign (-0005), a space before it
    pad = (("0" if fill == "0" else "") + str(width)) if width > 0 else ""

    def fmt(v):
        if kind == "b":
            text = ("true" if v else "false").rjust(max(width, 0))
        elif kind == "c":
            text = f"({_format(v.real, spec)},{_format(v.imag, spec)})".rjust(max(width, 0))
        elif kind == "f":
            text = _format(float(v), pad + spec)
        else:
            text = _format(int(v), pad + spec)
        return text.encode()

    out = xp.empty(a.size, dtype=object)
    out[:] = [fmt(v) for v in a.reshape(-1).tolist()]
    return wrap(out.reshape(a.shape))


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001
    """The template with each placeholder replaced by a tensor printed as ``tf.print`` would.

    >>> import tapegrad as tf
    >>> tf.strings.format("x = {}", tf.constant([1, 2])).numpy()
    b'x = [1 2]'
    """
    if isinstance(inputs, (Tensor, Variable)) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(inputs):
        raise ValueError(f"num placeholders in template and num inputs must match: "
                         f"{len(pieces) - 1} vs. {len(inputs)}")
    texts = []
    for v in inputs:
        t = v.read_value() if isinstance(v, Variable) else convert_to_tensor(v)
        texts.append(format_array(t._value, summarize))
    out = pieces[0] + "".join(t + p for t, p in zip(texts, pieces[1:]))
    return wrap(xp.array(out.encode("utf-8"), dtype=object))


def _pattern(pattern, op):
    """The compiled pattern; one Python cannot read is TensorFlow's InvalidArgumentError, in
    RE2's words where they are known (Python's after them)."""
    try:
        return _re.compile(_bytes(pattern))
    except _re.error as e:
        text = pattern.decode("utf-8", "replace") if isinstance(pattern, bytes) else str(pattern)
        raise InvalidArgumentError(f"Invalid pattern: {text}, error: {_re2_words(e, text)} "
                                   f"[Op:{op}]") from None


def _re2_words(error, pattern):
    """RE2's description of what Python's ``re`` refused, with Python's own in brackets."""
    message = str(error.msg)
    if message.startswith("missing ), unterminated subpattern"):
        return f"missing ): {pattern} ({error})"
    if message.startswith("bad character range "):
        return f"invalid character class range: {message[len('bad character range '):]} ({error})"
    return str(error)


def _rewrite(rewrite):
    r"""RE2's rewrite string as parts (bytes, or a group number): ``\0`` the whole match, ``\1``..
    ``\9`` a group, ``\\`` a backslash. Returns (parts, complete, highest group): an unknown
    escape ends the parts there (``complete`` False), as RE2 stops rewriting at it."""
    parts, i, highest = [], 0, 0
    while i < _len(rewrite):
        c = rewrite[i:i + 1]
        if c != b"\\":
            parts.append(c)
        elif rewrite[i + 1:i + 2].isdigit():
            parts.append(int(rewrite[i + 1:i + 2]))
            highest = max(highest, parts[-1])
            i += 1
        elif rewrite[i + 1:i + 2] == b"\\":
            parts.append(b"\\")
            i += 1
        else:
            return parts, False, highest
        i += 1
    return parts, True, highest


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    r"""Replaces matches of ``pattern`` (all, or the first) by ``rewrite``, written as RE2 reads
    it (``\0`` the match, ``\1`` a group). As TensorFlow: a rewrite naming a group the pattern
    lacks replaces nothing; an unknown escape ends the rewrite (all matches) or replaces nothing
    (the first match only).

    >>> import tapegrad as tf
    >>> tf.strings.regex_replace(["hello"], "l", r"<\0>").numpy().tolist()
    [b'he<l><l>o']
    """
    op = "StaticRegexReplace"
    rx = _pattern(pattern, op)
    parts, complete, highest = _rewrite(_bytes(rewrite))
    strings = _strings(input, op)
    if highest > rx.groups or (not complete and not replace_global):
        return _map(strings, lambda b: b)

    def repl(m):
        return b"".join(p if isinstance(p, bytes) else (m.group(p) or b"") for p in parts)

    count = 0 if replace_global else 1
    return _map(strings, lambda b: rx.sub(repl, b, count=count))


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches ``pattern``."""
    rx = _pattern(pattern, "StaticRegexFullMatch")
    return _map(_strings(input, "RegexFullMatch"), lambda b: rx.fullmatch(b) is not None, bool)


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002
    """``len`` bytes (or characters with ``unit="UTF8_CHAR"``) starting at ``pos`` (from the end
    when negative). Characters are cut as ``length`` counts them, on invalid UTF-8 too.

    >>> import tapegrad as tf
    >>> tf.strings.substr(["hello"], -3, 2).numpy().tolist()
    [b'll']
    """
    _check_unit(unit, "Substr")
    a = _strings(input, "Substr")
    p, n = int(pos), int(len)

    def cut(index, b):
        units = _utf8_units(b) if unit == "UTF8_CHAR" else b
        start = p + _len(units) if p < 0 else p
        if start < 0 or start > _len(units):
            shown = "" if unit == "UTF8_CHAR" else f" b'{b.decode('utf-8', 'replace')}'"
            raise InvalidArgumentError(f"pos {p} out of range for string{shown} at index "
                                       f"{index} [Op:Substr]")
        # a negative length: the rest of the string in bytes, nothing in characters (as
        # TensorFlow's kernel: an unsigned count, and a signed one)
        part = units[start:] if n < 0 and unit == "BYTE" else units[start:start + max(n, 0)]
        return part if unit == "BYTE" else b"".join(part)

    flat = [cut(i, _bytes(v)) for i, v in enumerate(a.reshape(-1).tolist())]
    out = xp.empty(_len(flat), dtype=object)
    out[:] = flat
    return wrap(out.reshape(a.shape))


def _pieces_to_ragged(a, split_fn):
    """Each string of ``a`` split by ``split_fn``: a scalar gives a vector, a tensor of shape
    ``[d1, ..., dN]`` a RaggedTensor ``[d1, ..., dN, (pieces)]``."""
    if a.ndim == 0:
        parts = split_fn(_bytes(a[()]))
        out = xp.empty(_len(parts), dtype=object)
        out[:] = parts
        return wrap(out)
    rows = [split_fn(_bytes(v)) for v in a.reshape(-1).tolist()]
    flat = xp.empty(sum(_len(r) for r in rows), dtype=object)
    flat[:] = [p for r in rows for p in r]
    ragged = RaggedTensor.from_row_lengths(wrap(flat), [_len(r) for r in rows])
    for k in range(a.ndim - 1, 0, -1):          # the outer dimensions, innermost first
        ragged = RaggedTensor.from_row_lengths(ragged, [a.shape[k]] * math.prod(a.shape[:k]))
    return ragged


def bytes_split(input, name=None):  # noqa: A002
    """Each string split into its single bytes (a vector gives a RaggedTensor)."""
    return _pieces_to_ragged(_strings(input, "BytesSplit"),
                             lambda b: [b[i:i + 1] for i in range(_len(b))])


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """Each string split into its characters (each as UTF-8 bytes)."""
    if input_encoding.upper().replace("-", "") != "UTF8":
        raise NotImplementedError("unicode_split: only UTF-8 is implemented")
    if errors not in ("replace", "ignore", "strict"):
        raise ValueError(f"errors must be 'replace', 'ignore' or 'strict', got {errors!r}")

    def characters(b):
        try:
            return [c.encode("utf-8") for c in b.decode("utf-8", errors)]
        except UnicodeDecodeError:
            raise InvalidArgumentError("Invalid formatting on input string [Op:UnicodeDecode]") from None
    return _pieces_to_ragged(_strings(input, "UnicodeSplit"), characters)


# -- hashing into buckets, fingerprints, n-grams, joining by segment -------------------------
def _array(x):
    t = x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)
    return t._value


def _string_array(x, op):
    a = _array(x)
    if a.dtype != object:
        raise TypeError(f"{op}: expected a string tensor, got {a.dtype}")
    return a


def _objects(items, shape=None):
    out = xp.empty(len(items), dtype=object)
    out[:] = items
    return out if shape is None else out.reshape(shape)


def _buckets(input, num_buckets, hash_fn, op):
    n = int(num_buckets)
    if n < 1:
        raise InvalidArgumentError(f"{op}: Value for attr 'num_buckets' of {n} must be at least "
                                   f"minimum 1 [Op:{op}]")
    a = _string_array(input, op)
    return wrap(xp.asarray([hash_fn(_bytes(v)) % n for v in a.reshape(-1).tolist()],
                           dtype=xp.int64).reshape(a.shape))


def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """Each string's bucket: FarmHash Fingerprint64 modulo ``num_buckets`` (int64).

    >>> import tapegrad as tf
    >>> tf.strings.to_hash_bucket_fast(["Hello", "TensorFlow", "2.x"], 3).numpy().tolist()
    [0, 2, 2]
    """
    return _buckets(input, num_buckets, fingerprint64, "StringToHashBucketFast")


def to_hash_bucket(string_tensor, num_buckets, name=None):
    """Each string's bucket: TensorFlow's Hash64 modulo ``num_buckets`` (int64). Prefer
    ``to_hash_bucket_fast`` in new code, as TensorFlow's documentation does.

    >>> import tapegrad as tf
    >>> tf.strings.to_hash_bucket(["Hello", "TensorFlow", "2.x"], 3).numpy().tolist()
    [2, 0, 1]
    """
    return _buckets(string_tensor, num_buckets, hash64, "StringToHashBucket")


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's bucket: SipHash-2-4 under ``key`` (two integers) modulo ``num_buckets``.

    >>> import tapegrad as tf
    >>> tf.strings.to_hash_bucket_strong(["Hello", "TF"], 3, [1, 2]).numpy().tolist()
    [2, 0]
    """
    key = [int(k) & ((1 << 64) - 1) for k in key]
    if len(key) != 2:
        raise InvalidArgumentError("Key must have 2 elements [Op:StringToHashBucketStrong]")
    return _buckets(input, num_buckets, lambda b: siphash24(key[0], key[1], b),
                    "StringToHashBucketStrong")


def fingerprint(data, method="farmhash64", name=None):
    """An 8-byte FarmHash fingerprint (uint8, little-endian) of each row of ``data``: of the
    row's raw bytes for numbers; of each string for a vector of strings, and of the strings'
    fingerprints laid end to end for a row of several strings.

    >>> import tapegrad as tf
    >>> tf.fingerprint(tf.constant(["a"])).shape
    TensorShape([1, 8])
    """
    if method != "farmhash64":
        raise InvalidArgumentError(f"Unsupported fingerprint method: {method} [Op:Fingerprint]")
    a = _array(data)
    if a.ndim < 1:
        raise InvalidArgumentError(f"`data` should have at least one dimension: {list(a.shape)} "
                                   f"[Op:Fingerprint]")
    rows = a.reshape(a.shape[0], -1)
    if a.dtype == object:
        def row_print(row):
            if a.ndim == 1:
                return fingerprint64(_bytes(row[0]))
            return fingerprint64(b"".join(struct.pack("<Q", fingerprint64(_bytes(v)))
                                          for v in row))
    else:
        def row_print(row):
            return fingerprint64(xp.ascontiguousarray(row).astype(
                row.dtype.newbyteorder("<")).tobytes())
    out = [list(struct.pack("<Q", row_print(r))) for r in rows]
    return wrap(xp.asarray(out, dtype=xp.uint8).reshape(a.shape[0], 8))


def _row_ngrams(tokens, widths, separator, pads, padding_width, preserve_short):
    out = []
    for width in widths:
        pad = 0 if pads is None else min(width - 1 if padding_width is None
                                         else int(padding_width), width - 1)
        seq = ([pads[0]] * pad if pads else []) + tokens + ([pads[1]] * pad if pads else [])
        out += [separator.join(seq[i:i + width]) for i in range(len(seq) - width + 1)]
    if not out and preserve_short and tokens:
        width = min(widths)
        pad = 0 if pads is None else (width - 1 if padding_width is None
                                      else min(int(padding_width), width - 1))
        seq = ([pads[0]] * pad if pads else []) + tokens + ([pads[1]] * pad if pads else [])
        out = [separator.join(seq)]
    return out


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name="ngrams"):
    """The n-grams of each sequence (the last axis): windows of ``ngram_width`` tokens joined
    with ``separator``, optionally padded with ``pad_values`` (one string, or a left/right
    pair). A list of widths gives all of them, shortest first.

    >>> import tapegrad as tf
    >>> tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2).numpy().tolist()
    [b'a b', b'b c']
    """
    widths = [int(ngram_width)] if xp.ndim(ngram_width) == 0 else [int(w) for w in ngram_width]
    if any(w < 1 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    if pad_values is not None:
        pads = (pad_values, pad_values) if isinstance(pad_values, (str, bytes)) else \
            tuple(pad_values)
        if len(pads) != 2:
            raise ValueError("pad_values must be a string, tuple or list of length 2.")
        pads = (_bytes(pads[0]), _bytes(pads[1]))
    else:
        if padding_width is not None:
            raise ValueError("padding_width is set but pad_values is None.")
        pads = None
    sep = _bytes(separator)

    def run(rows):
        return [_row_ngrams([_bytes(t) for t in r], widths, sep, pads, padding_width,
                            preserve_short_sequences) for r in rows]

    if isinstance(data, RaggedTensor):
        if data.ragged_rank != 1:
            return RaggedTensor(ngrams(data.values, ngram_width, separator, pad_values,
                                       padding_width, preserve_short_sequences),
                                data.row_splits)
        rows = run(data.to_list())
        return RaggedTensor.from_row_lengths(wrap(_objects([g for r in rows for g in r])),
                                             [len(r) for r in rows], validate=False)
    a = _string_array(data, "StringNGrams")
    if a.ndim == 0:
        raise ValueError("ngrams: data must have rank at least 1")
    rows = run(a.reshape(-1, a.shape[-1]).tolist())
    lengths = {len(r) for r in rows}
    if len(lengths) > 1:
        raise InvalidArgumentError("ngrams: rows of a dense input gave different numbers of "
                                   "n-grams; pass a RaggedTensor")
    n = lengths.pop() if lengths else 0
    return wrap(_objects([g for r in rows for g in r], a.shape[:-1] + (n,)))


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """Joins the strings of each segment (in input order) with ``separator``; segments with
    no string give ``b""``.

    >>> import tapegrad as tf
    >>> tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 2).numpy().tolist()
    [b'b', b'ac']
    """
    a = _string_array(inputs, "UnsortedSegmentJoin")
    ids = _array(segment_ids)
    n = int(_array(num_segments))
    if ids.shape != a.shape[:ids.ndim]:
        raise InvalidArgumentError(f"segment_ids.shape = {list(ids.shape)} is not a prefix of "
                                   f"input.shape = {list(a.shape)} [Op:UnsortedSegmentJoin]")
    inner = a.shape[ids.ndim:]
    flat = a.reshape((-1,) + inner)
    groups = [[] for _ in range(n)]
    for i, sid in enumerate(ids.reshape(-1).tolist()):
        if not 0 <= sid < n:
            raise InvalidArgumentError(f"segment_ids are not allowed to exceed num_segments or to "
                                       f"have negative values. segment_ids[{i}] = {sid} is out "
                                       f"of range [0, {n}) [Op:UnsortedSegmentJoin]")
        groups[sid].append(flat[i])
    sep = _bytes(separator)
    size = int(xp.prod(inner)) if inner else 1
    out = []
    for g in groups:
        parts = [x.reshape(-1).tolist() if inner else [x] for x in g]
        out += [sep.join(_bytes(p[k]) for p in parts) for k in range(size)]
    return wrap(_objects(out, (n,) + inner))
