"""Datasets read from files: ``TextLineDataset``, ``TFRecordDataset``,
``FixedLengthRecordDataset`` and ``Dataset.list_files``. TFRecord files (each record: its
length, a checksum of the length, the data, a checksum of the data) are written by
``tf.io.TFRecordWriter`` (``tfrecord.py``).

In the browser these read Pyodide's file system (files the page wrote, or fetched there).
"""
import glob as _glob
import gzip
import os
import struct
import zlib

from .. import dtypes
from ..backend import xp as np
from ..errors import DataLossError, InvalidArgumentError, NotFoundError
from ..tensor import wrap
from ..tensor_spec import TensorSpec
from ..tfrecord import masked_crc32c
from .dataset import DatasetV2, UNKNOWN, implementations


def file_names(filenames, what):
    """File names as ``str`` from a string, bytes, a list of them, a string tensor or a dataset
    of string scalars."""
    if isinstance(filenames, DatasetV2):
        return [_text(t.numpy()) for t in filenames]
    if hasattr(filenames, "numpy"):
        value = filenames.numpy()
        filenames = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(filenames, (str, bytes)):
        return [_text(filenames)]
    if isinstance(filenames, (list, tuple)):
        return [_text(f) for f in filenames]
    raise TypeError(f"`{what}` must be a string, a list of strings or a string tensor, got "
                    f"{type(filenames)}.")


def _text(name):
    if isinstance(name, bytes):
        return name.decode("utf-8")
    if isinstance(name, str):
        return name
    raise TypeError(f"A file name must be a string, got {name!r}.")


def _compression(compression_type):
    kind = (compression_type or "").upper()
    if kind not in ("", "GZIP", "ZLIB"):
        raise InvalidArgumentError(f"Unsupported compression_type: {compression_type}.")
    return kind


def read_bytes(path, compression_type=None):
    """The (decompressed) content of a file; TF's ``NotFoundError`` if it is missing."""
    kind = _compression(compression_type)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    if kind == "GZIP":
        return gzip.decompress(data)
    if kind == "ZLIB":
        return zlib.decompress(data)
    return data


class _FileDataset(DatasetV2):
    """A dataset of strings read from ``filenames`` (lines or records), each file decompressed
    as ``compression_type`` says."""

    _spec = TensorSpec((), dtypes.string)
    _cardinality = UNKNOWN

    def _read_files(self, filenames, compression_type):
        self._files = file_names(filenames, "filenames")
        self._compression = _compression(compression_type)


class TextLineDatasetV2(_FileDataset):
    """``tf.data.TextLineDataset``: the lines of one or more text files (without their line
    endings), file after file, as string scalars.

    >>> import os, tempfile
    >>> import tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "lines.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("name,score\\nada,3\\nbob,5\\n")
    >>> list(tf.data.TextLineDataset(path).skip(1).as_numpy_iterator())
    [b'ada,3', b'bob,5']
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        self._read_files(filenames, compression_type)

    def _elements(self):
        for path in self._files:
            lines = read_bytes(path, self._compression).split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()            # the newline that ends the last line starts no line
            for line in lines:
                yield _string(line[:-1] if line.endswith(b"\r") else line)


TextLineDataset = TextLineDatasetV2


def _string(value):
    return wrap(np.array(value, dtype=object))


def _interleaved(per_file, files, parallel_reads):
    """The files' records one after another, or one from each of ``parallel_reads`` files in
    turn (TF's ``num_parallel_reads``)."""
    if not parallel_reads or parallel_reads == 1:
        for path in files:
            yield from per_file(path)
        return
    cycle = (os.cpu_count() or 1) if parallel_reads == -1 else parallel_reads
    pending = iter(files)
    active = []
    while True:
        while len(active) < cycle:
            path = next(pending, None)
            if path is None:
                break
            active.append(per_file(path))
        if not active:
            return
        for source in list(active):
            try:
                yield next(source)
            except StopIteration:
                active.remove(source)


class TFRecordDatasetV2(_FileDataset):
    """``tf.data.TFRecordDataset``: the records of TFRecord files, as serialized strings
    (each record's length and data are checked against their CRC-32C checksums)."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        self._read_files(filenames, compression_type)
        self._parallel = None if num_parallel_reads is None else int(num_parallel_reads)

    def _records(self, path):
        data = read_bytes(path, self._compression)
        at = 0
        while at < len(data):
            if at + 12 > len(data):
                raise DataLossError(f"truncated record at {at}")
            header = data[at:at + 8]
            (length,) = struct.unpack("<Q", header)
            (check,) = struct.unpack("<I", data[at + 8:at + 12])
            if masked_crc32c(header) != check:
                raise DataLossError(f"corrupted record at {at}")
            start, end = at + 12, at + 12 + length
            if end + 4 > len(data):
                raise DataLossError(f"truncated record at {at}")
            record = data[start:end]
            (check,) = struct.unpack("<I", data[end:end + 4])
            if masked_crc32c(record) != check:
                raise DataLossError(f"corrupted record at {start}")
            yield _string(record)
            at = end + 4

    def _elements(self):
        return _interleaved(self._records, self._files, self._parallel)


TFRecordDataset = TFRecordDatasetV2


class FixedLengthRecordDatasetV2(_FileDataset):
    """``tf.data.FixedLengthRecordDataset``: records of ``record_bytes`` bytes from binary
    files, after ``header_bytes`` and before ``footer_bytes``."""

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None, name=None):
        self._files = file_names(filenames, "filenames")
        self._record = int(record_bytes)
        self._header = int(header_bytes or 0)
        self._footer = int(footer_bytes or 0)
        if self._record <= 0:
            raise InvalidArgumentError(f"record_bytes must be greater than zero, got "
                                       f"{self._record}.")
        self._compression = _compression(compression_type)
        self._parallel = None if num_parallel_reads is None else int(num_parallel_reads)

    def _records(self, path):
        data = read_bytes(path, self._compression)
        body = data[self._header:len(data) - self._footer]
        if len(body) % self._record:
            raise InvalidArgumentError(
                f"Excluding the header ({self._header} bytes) and footer ({self._footer} "
                f"bytes), input file \"{path}\" has body length {len(body)}, which is not an "
                f"exact multiple of the record length ({self._record} bytes).")
        for i in range(0, len(body), self._record):
            yield _string(body[i:i + self._record])

    def _elements(self):
        return _interleaved(self._records, self._files, self._parallel)


FixedLengthRecordDataset = FixedLengthRecordDatasetV2


def list_files(file_pattern, shuffle=None, seed=None, name=None):
    """``Dataset.list_files``: the names of the files matching one or more glob patterns,
    sorted, then shuffled unless ``shuffle=False``."""
    patterns = file_names(file_pattern, "file_pattern")
    matches = sorted({m for p in patterns for m in _glob.glob(p)})
    if not matches:
        raise InvalidArgumentError("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be "
                                   f"true. Summarized data: b'No files matched pattern: "
                                   f"{', '.join(patterns)}'")
    dataset = DatasetV2.from_tensor_slices(matches)
    if shuffle is None or shuffle:
        dataset = dataset.shuffle(len(matches), seed=seed)
    return dataset


implementations.add(list_files)
