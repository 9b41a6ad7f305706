"""tf.train.Example and its relatives (tapegrad's own protobuf messages), tf.io.parse_example
and its relatives, and TFRecord files written by tf.io.TFRecordWriter. What TensorFlow gives is
recorded in tests/conformance/cases/example_proto.py; these check tapegrad's own edges."""
import copy
import doctest
import gzip
import os
import pickle
import struct

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import tfrecord
from tapegrad.io_example import messages, parsing, wire


def _example(**features):
    return tf.train.Example(features=tf.train.Features(feature=features))


def _ints(*values):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=list(values)))


def _floats(*values):
    return tf.train.Feature(float_list=tf.train.FloatList(value=list(values)))


def _bytes(*values):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=list(values)))


@pytest.mark.parametrize("module", [messages, parsing, wire, tfrecord])
def test_docstring_examples(module):
    result = doctest.testmod(module, verbose=False)
    assert result.failed == 0 and (module is wire or result.attempted > 0)


def test_varints_round_trip_with_negative_numbers():
    for n in (0, 1, 127, 128, 300, 2 ** 63 - 1, -1, -(2 ** 63)):
        data = wire.varint(n)
        value, end = wire.read_varint(data, 0, "test")
        assert end == len(data) and wire.signed64(value) == n
    assert wire.varint(-1) == b"\xff" * 9 + b"\x01"


def test_fields_reads_each_wire_type_and_strict_rejects_cut_data():
    data = (wire.field(1, 0) + wire.varint(5) + wire.length_delimited(2, b"ab")
            + wire.field(3, 5) + struct.pack("<f", 1.5) + wire.field(4, 1) + b"\0" * 8)
    got = list(wire.fields(data, "test"))
    assert [(n, w) for n, w, _ in got] == [(1, 0), (2, 2), (3, 5), (4, 1)]
    assert got[0][2] == 5 and got[1][2] == b"ab"
    with pytest.raises(tf.errors.InvalidArgumentError, match="as test"):
        list(wire.fields(wire.field(2, 2) + wire.varint(9) + b"ab", "test", strict=True))
    # not strict (parse_tensor's reading, unchanged): the cut field is what is there
    assert list(wire.fields(wire.field(2, 2) + wire.varint(9) + b"ab", "test"))[0][2] == b"ab"


def test_serialize_tensor_still_reads_back():
    t = tf.constant([[1.5, -2.0], [3.0, 4.0]])
    back = tf.io.parse_tensor(tf.io.serialize_tensor(t), tf.float32)
    assert back.numpy().tolist() == t.numpy().tolist()


def test_every_message_round_trips_through_bytes():
    example = _example(a=_ints(1, -2, 2 ** 40), b=_floats(0.25, -1e30), c=_bytes(b"", b"\xff"),
                       e=tf.train.Feature())
    back = tf.train.Example.FromString(example.SerializeToString())
    assert back == example
    assert back.features.feature["a"].int64_list.value == [1, -2, 2 ** 40]
    assert back.features.feature["c"].bytes_list.value == [b"", b"\xff"]
    assert back.features.feature["e"].WhichOneof("kind") is None
    sequence = tf.train.SequenceExample(
        context=tf.train.Features(feature={"n": _ints(3)}),
        feature_lists=tf.train.FeatureLists(feature_list={
            "t": tf.train.FeatureList(feature=[_floats(1.0), _floats(2.0, 3.0)])}))
    again = tf.train.SequenceExample.FromString(sequence.SerializeToString())
    assert again == sequence
    steps = again.feature_lists.feature_list["t"].feature
    assert [list(s.float_list.value) for s in steps] == [[1.0], [2.0, 3.0]]


def test_unpacked_repeated_numbers_are_read_too():
    # protobuf writers may write repeated numbers one field each instead of packed
    data = wire.field(1, 0) + wire.varint(7) + wire.field(1, 0) + wire.varint(-3)
    assert tf.train.Int64List.FromString(data).value == [7, -3]
    floats = wire.field(1, 5) + struct.pack("<f", 2.5)
    assert tf.train.FloatList.FromString(floats).value == [2.5]


def test_map_bytes_follow_insertion_order_unless_deterministic():
    example = _example(b=_ints(1), a=_ints(2))
    data = example.SerializeToString()
    assert data.index(b"\x01b") < data.index(b"\x01a")
    det = example.SerializeToString(deterministic=True)
    assert det.index(b"\x01a") < det.index(b"\x01b")


def test_bad_bytes_raise_decode_error():
    with pytest.raises(messages.DecodeError, match="tensorflow.Example"):
        tf.train.Example.FromString(b"\x0a\x09ab")
    with pytest.raises(messages.DecodeError):
        tf.train.Example.FromString(b"\x0b")       # wire type 3 (groups) is not read


def test_oneof_keeps_the_last_kind_set_and_merge_concatenates():
    f = tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))
    data = f.SerializeToString() + _floats(2.0).SerializeToString()
    g = tf.train.Feature.FromString(data)
    assert g.WhichOneof("kind") == "float_list" and g.HasField("float_list")
    assert not g.HasField("int64_list")
    h = tf.train.Int64List(value=[1])
    h.MergeFrom(tf.train.Int64List(value=[2]))
    assert h.value == [1, 2]
    h.CopyFrom(tf.train.Int64List(value=[9]))
    assert h.value == [9] and h.ListFields() == [("value", [9])]


def test_values_are_checked_as_protobuf_checks_them():
    values = tf.train.FloatList(value=[1]).value
    values.append(np.float64(0.1))
    assert values == [1.0, float(np.float32(0.1))]
    with pytest.raises(TypeError):
        values[0] = "x"
    ints = tf.train.Int64List(value=[np.int64(4)]).value
    ints.extend([5])
    ints[0:1] = [6]
    assert ints == [6, 5]
    with pytest.raises(TypeError):
        ints.insert(0, 1.5)
    with pytest.raises(AttributeError, match="Assignment not allowed"):
        tf.train.Example().features = tf.train.Features()
    with pytest.raises(TypeError, match="expected Features got int"):
        tf.train.Example(features=3)
    built = tf.train.Example(features={"feature": {"x": {"int64_list": {"value": [3]}}}})
    assert built.features.feature["x"].int64_list.value == [3]


def test_copies_and_pickles_are_equal_and_independent():
    example = _example(w=_bytes(b"a"))
    for other in (copy.deepcopy(example), pickle.loads(pickle.dumps(example))):
        assert other == example
        other.features.feature["w"].bytes_list.value.append(b"b")
        assert example.features.feature["w"].bytes_list.value == [b"a"]
    values = copy.deepcopy(example.features.feature["w"].bytes_list.value)
    with pytest.raises(TypeError):
        values.append("not bytes")


def test_parse_example_on_tensors_and_the_sparse_and_ragged_results():
    data = tf.constant([_example(v=_ints(1, 2), w=_ints(1, 2)).SerializeToString(),
                        _example(v=_ints(3), w=_ints(3)).SerializeToString()])
    out = tf.io.parse_example(data, {"r": tf.io.RaggedFeature(tf.int64, value_key="w"),
                                     "v": tf.io.VarLenFeature(tf.int64)})
    assert tf.sparse.to_dense(out["v"]).numpy().tolist() == [[1, 2], [3, 0]]
    assert out["r"].to_list() == [[1, 2], [3]]
    assert list(out) == ["v", "r"]                  # sparse first, then ragged, as TF
    empty = tf.io.parse_example(tf.constant([], tf.string),
                                {"x": tf.io.FixedLenFeature([2], tf.float32)})
    assert empty["x"].shape == (0, 2)


def test_string_defaults_and_fixed_strings():
    data = [_example(s=_bytes(b"a")).SerializeToString(), _example().SerializeToString()]
    out = tf.io.parse_example(data, {"s": tf.io.FixedLenFeature([], tf.string,
                                                                default_value="z")})
    assert out["s"].numpy().tolist() == [b"a", b"z"]


def test_sparse_feature_missing_value_key_and_its_place_in_the_result():
    with pytest.raises(ValueError, match="Missing value_key"):
        tf.io.parse_example([b""], {"s": tf.io.SparseFeature("i", None, tf.float32, 3)})
    data = [_example(i=_ints(2), v=_floats(1.0), w=_floats(3.0)).SerializeToString()]
    out = tf.io.parse_example(data, {"w": tf.io.FixedLenFeature([], tf.float32),
                                     "s": tf.io.SparseFeature("i", "v", tf.float32, 3),
                                     "a": tf.io.VarLenFeature(tf.float32)})
    assert list(out) == ["a", "s", "w"]              # VarLen, SparseFeature, then dense
    assert tf.sparse.to_dense(out["s"]).numpy().tolist() == [[0.0, 0.0, 1.0]]


def test_parse_single_example_needs_a_scalar():
    with pytest.raises(ValueError, match="must be a scalar"):
        tf.io.parse_single_example([b""], {"x": tf.io.VarLenFeature(tf.int64)})


def test_parse_inside_dataset_map_and_tf_function(tmp_path):
    path = str(tmp_path / "data.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for i in range(4):
            writer.write(_example(x=_floats(i, 2 * i)).SerializeToString())
    config = {"x": tf.io.FixedLenFeature([2], tf.float32)}
    ds = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_single_example(r, config))
    assert [e["x"].numpy().tolist() for e in ds] == [[i, 2 * i] for i in range(4)]
    batched = tf.data.TFRecordDataset(path).batch(3).map(lambda r: tf.io.parse_example(r,
                                                                                         config))
    assert [b["x"].shape[0] for b in batched] == [3, 1]
    parse = tf.function(lambda r: tf.io.parse_single_example(r, config))
    record = next(iter(tf.data.TFRecordDataset(path).skip(1)))
    assert parse(record)["x"].numpy().tolist() == [1.0, 2.0]


def test_tfrecord_writer_files(tmp_path):
    plain = str(tmp_path / "a.tfrecord")
    writer = tf.io.TFRecordWriter(plain)
    writer.write(b"abc")
    writer.write(tf.constant(b"de"))
    writer.flush()
    writer.close()
    writer.close()                                   # closing twice is harmless
    with pytest.raises(tf.errors.FailedPreconditionError, match="Writer is closed"):
        writer.flush()
    with open(plain, "rb") as f:
        data = f.read()
    assert data == tfrecord.record_bytes(b"abc") + tfrecord.record_bytes(b"de")
    assert [r.numpy() for r in tf.data.TFRecordDataset(plain)] == [b"abc", b"de"]
    packed = str(tmp_path / "b.tfrecord")
    with tf.io.TFRecordWriter(packed, "ZLIB") as w:
        w.write(b"z")
    assert [r.numpy() for r in tf.data.TFRecordDataset(packed, "ZLIB")] == [b"z"]
    gz = str(tmp_path / "c.tfrecord")
    with tf.io.TFRecordWriter(gz, tf.io.TFRecordOptions("GZIP", compression_level=1)) as w:
        w.write(b"g")
    with open(gz, "rb") as f:
        assert gzip.decompress(f.read()) == tfrecord.record_bytes(b"g")
    with pytest.raises(tf.errors.NotFoundError):
        tf.io.TFRecordWriter(os.path.join(str(tmp_path), "missing", "x.tfrecord"))


def test_crc32c_known_value():
    # CRC-32C of "123456789" is 0xE3069283 (the standard check value)
    crc = 0xFFFFFFFF
    for byte in b"123456789":
        crc = tfrecord._CRC32C[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    assert crc ^ 0xFFFFFFFF == 0xE3069283


def test_names_are_exported():
    for name in ("parse_example", "parse_single_example", "parse_sequence_example",
                 "parse_single_sequence_example", "FixedLenFeature", "VarLenFeature",
                 "RaggedFeature", "FixedLenSequenceFeature", "SparseFeature", "TFRecordWriter",
                 "TFRecordOptions"):
        assert callable(getattr(tf.io, name))
    for name in ("Example", "Features", "Feature", "BytesList", "FloatList", "Int64List",
                 "SequenceExample", "FeatureList", "FeatureLists"):
        assert isinstance(getattr(tf.train, name)(), messages._Message)
