"""TFRecord files as TensorFlow writes them: each record is its length (8 bytes), that
length's masked CRC-32C, the data and the data's masked CRC-32C. ``tf.io.TFRecordWriter`` writes
them (here, so that ``import tapegrad`` does not load tf.data); ``tf.data.TFRecordDataset``
(``data/readers.py``) reads them with the same checksum."""
import gzip
import struct
import zlib

from .errors import FailedPreconditionError, NotFoundError


def _crc32c_table():
    table = []
    for n in range(256):
        crc = n
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        table.append(crc)
    return table


_CRC32C = _crc32c_table()


def masked_crc32c(data):
    """The checksum a TFRecord file stores: CRC-32C (Castagnoli), rotated and offset."""
    crc = 0xFFFFFFFF
    table = _CRC32C
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


class TFRecordOptions:
    """``tf.io.TFRecordOptions``: how a TFRecord file is compressed (``compression_type``
    "", "GZIP" or "ZLIB"; ``compression_level`` for those two). The other zlib settings are
    accepted and do not change the data written."""

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.compression_type = compression_type
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options):
        if options is None:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type or ""
        return options


def record_bytes(data):
    """One record as a TFRecord file stores it."""
    header = struct.pack("<Q", len(data))
    return (header + struct.pack("<I", masked_crc32c(header)) + data
            + struct.pack("<I", masked_crc32c(data)))


class TFRecordWriter:
    """``tf.io.TFRecordWriter``: writes records (byte strings) to a TFRecord file, which
    ``tf.data.TFRecordDataset`` reads back; a compressed file is written when closed.

    >>> import os, tempfile, tapegrad as tf
    >>> path = os.path.join(tempfile.mkdtemp(), "a.tfrecord")
    >>> with tf.io.TFRecordWriter(path) as writer:
    ...     writer.write(b"abc")
    >>> [r.numpy() for r in tf.data.TFRecordDataset(path)]
    [b'abc']
    """

    def __init__(self, path, options=None):
        kind = TFRecordOptions.get_compression_type_string(options)
        if (kind or "").upper() not in ("", "GZIP", "ZLIB"):
            raise ValueError(f'Not a valid compression_type: "{kind}"')
        self._kind = (kind or "").upper()
        self._level = getattr(options, "compression_level", None)
        self._path = path.decode("utf-8") if isinstance(path, bytes) else str(path)
        try:
            self._file = open(self._path, "wb")
        except FileNotFoundError:
            raise NotFoundError(f"{self._path}; No such file or directory") from None
        self._pending = bytearray()

    def write(self, record):
        """Appends one record (bytes, or a string written as UTF-8)."""
        if self._file is None:
            raise FailedPreconditionError("Writer is closed.")
        if hasattr(record, "numpy"):
            record = record.numpy()
        data = record.encode() if isinstance(record, str) else bytes(record)
        if self._kind:
            self._pending += record_bytes(data)
        else:
            self._file.write(record_bytes(data))

    def flush(self):
        if self._file is None:
            raise FailedPreconditionError("Writer is closed.")
        self._file.flush()

    def close(self):
        if self._file is None:
            return
        if self._kind:
            level = -1 if self._level is None else int(self._level)
            data = bytes(self._pending)
            self._file.write(gzip.compress(data, 9 if level < 0 else level)
                             if self._kind == "GZIP" else zlib.compress(data, level))
        self._file.close()
        self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
