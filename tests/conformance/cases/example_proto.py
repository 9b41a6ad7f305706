"""tf.train.Example and its relatives (built, written to protobuf's wire format, read back,
printed), tf.io.parse_example and its relatives with each kind of feature configuration, and
TFRecord files written by tf.io.TFRecordWriter and read by tf.data.TFRecordDataset.

A map's entries are written in an order TensorFlow does not fix (it changes from one run to the
next), so the bytes of examples with several features are compared with deterministic=True."""
import os
import re
import tempfile

NOTES = {
    "tf.train.Example": "tapegrad's own message classes (no protobuf library); the same wire "
                        "bytes and text format, except that a map of several features is "
                        "written in insertion order (sorted with deterministic=True), where "
                        "TensorFlow's protobuf uses its hash table's order",
}


def _int64s(tf, *values):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=list(values)))


def _floats(tf, *values):
    return tf.train.Feature(float_list=tf.train.FloatList(value=list(values)))


def _strings(tf, *values):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=list(values)))


def _example(tf, **features):
    return tf.train.Example(features=tf.train.Features(feature=features))


def _serialized(tf, **features):
    return _example(tf, **features).SerializeToString()


def _sequence(tf, context, lists):
    feature_lists = {k: tf.train.FeatureList(feature=v) for k, v in lists.items()}
    return tf.train.SequenceExample(
        context=tf.train.Features(feature=context),
        feature_lists=tf.train.FeatureLists(feature_list=feature_lists)).SerializeToString()


def _raised(fn):
    """The class of the error ``fn`` raises and the first line of its message, without where
    TensorFlow's kernel ran (too long to record whole)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the outcome
        text = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", str(e)).split("\n")[0]
        return type(e).__name__, re.sub(r"\s*\[Op:[^\]]*\].*$", "", text).strip()
    return "no error"


# -- messages ---------------------------------------------------------------------------------
def case_example_bytes_one_feature_each(tf):
    return [_serialized(tf, n=_int64s(tf, 0, 1, -1, 127, 128, 300, 2 ** 62, -(2 ** 63))),
            _serialized(tf, f=_floats(tf, 1.5, 0.1, -0.0, 1e20, float("inf"))),
            _serialized(tf, s=_strings(tf, b"", b"hello", b"\x00\xff\n")),
            _serialized(tf, empty=tf.train.Feature()),
            _serialized(tf, none=tf.train.Feature(int64_list=tf.train.Int64List())),
            tf.train.Example().SerializeToString(),
            tf.train.Example(features=tf.train.Features()).SerializeToString()]


def case_example_bytes_many_features_deterministic(tf):
    example = _example(tf, zeta=_int64s(tf, 5), alpha=_floats(tf, 2.0),
                       mid=_strings(tf, b"x", b"yz"))
    return example.SerializeToString(deterministic=True)


def case_example_printed(tf):
    print(_example(tf, b=_floats(tf, 1.5, 0.1, float("nan"), 1e20, -0.0),
                   a=_int64s(tf, 1, -2, 300), c=_strings(tf, b"hi", b"\x00\xff\"\n'\\"),
                   e=tf.train.Feature(), Z=_int64s(tf, 1), ab=_int64s(tf, 2)))
    return repr(str(tf.train.Example()))


def case_float_list_printed(tf):
    values = [3.4028235e38, 1e-45, 123456789.0, 1 / 3, 1e-5, 1e16, 1e17, 2 ** -20, 100.0,
              -2.5e-7, float("-inf")]
    print(tf.train.FloatList(value=values))
    return list(tf.train.FloatList(value=[0.1, 1 / 3]).value)


def case_feature_printed_and_bytes(tf):
    features = [_strings(tf, b"test_string"), _floats(tf, 2.718281828), _int64s(tf, 1),
                tf.train.Feature(int64_list=tf.train.Int64List())]
    for feature in features:
        print(feature)
    return [f.SerializeToString() for f in features]


def case_sequence_example_bytes_and_printed(tf):
    data = _sequence(tf, {"n": _int64s(tf, 5)},
                     {"t": [_int64s(tf, 1, 2), _int64s(tf, 3)]})
    print(tf.train.SequenceExample.FromString(data))
    return data, repr(str(tf.train.SequenceExample()))


def case_read_back_from_bytes(tf):
    data = _serialized(tf, words=_strings(tf, b"a", b"bc"))
    example = tf.train.Example.FromString(data)
    other = tf.train.Example()
    count = other.ParseFromString(data)
    feature = example.features.feature["words"]
    return [list(feature.bytes_list.value), feature.WhichOneof("kind"), count,
            example == other, example == tf.train.Example(),
            sorted(example.features.feature.keys()),
            tf.train.Feature().WhichOneof("kind"),
            example.features.feature["words"].HasField("bytes_list"),
            example.features.feature["words"].HasField("int64_list")]


def case_built_by_attribute(tf):
    example = tf.train.Example()
    example.features.feature["q"].float_list.value.append(2.5)
    example.features.feature["q"].float_list.value.extend([1, 3])
    print(example)
    sequence = tf.train.SequenceExample()
    step = sequence.feature_lists.feature_list["t"].feature.add()
    step.int64_list.value.append(7)
    return example.SerializeToString(), sequence.SerializeToString(), example.ByteSize()


def case_message_value_errors(tf):
    return [_raised(lambda: tf.train.Int64List(value=[1.5])),
            _raised(lambda: tf.train.Int64List(value=["a"])),
            _raised(lambda: tf.train.Int64List(value=[True])),
            _raised(lambda: tf.train.BytesList(value=["text"])),
            _raised(lambda: tf.train.FloatList(value=["a"])),
            _raised(lambda: tf.train.Example(foo=1)),
            _raised(lambda: tf.train.Int64List(value=[1]).value.append(0.5)),
            _raised(lambda: tf.train.Int64List(value=[tf.constant(True).numpy()])),
            _raised(lambda: tf.train.Int64List(value=[False])),
            list(tf.train.FloatList(value=[True, tf.constant(False).numpy()]).value),
            list(tf.train.Int64List(value=[tf.constant(7).numpy()]).value)]


# -- feature configurations -------------------------------------------------------------------
def case_feature_configurations_printed(tf):
    return [str(tf.io.FixedLenFeature([2], tf.int64)),
            str(tf.io.FixedLenFeature([], tf.string, default_value="x")),
            str(tf.io.VarLenFeature(tf.float32)),
            str(tf.io.RaggedFeature(tf.int64)),
            str(tf.io.RaggedFeature(tf.string, value_key="v",
                                    partitions=[tf.io.RaggedFeature.RowLengths("l")],
                                    row_splits_dtype=tf.int64)),
            str(tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True)),
            str(tf.io.RaggedFeature.UniformRowLength(2)),
            str(tf.io.RaggedFeature.RowSplits("s")), str(tf.io.RaggedFeature.ValueRowIds("i")),
            tf.io.FixedLenFeature([3], tf.float32).shape]


# -- parse_example ------------------------------------------------------------------------------
def _two_examples(tf):
    return [_serialized(tf, a=_int64s(tf, 1, 2), b=_floats(tf, 0.5), c=_strings(tf, b"x", b"yy")),
            _serialized(tf, a=_int64s(tf, 3, 4), c=_strings(tf))]


def case_parse_example_dense_sparse(tf):
    parsed = tf.io.parse_example(_two_examples(tf), {
        "a": tf.io.FixedLenFeature([2], tf.int64),
        "b": tf.io.FixedLenFeature([], tf.float32, default_value=9.0),
        "c": tf.io.VarLenFeature(tf.string),
        "m": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=0),
        "k": tf.io.FixedLenFeature([2, 2], tf.float32, default_value=[[1, 2], [3, 4]])})
    return list(parsed), parsed


def case_parse_example_ragged(tf):
    parsed = tf.io.parse_example(tf.constant(_two_examples(tf)), {
        "r": tf.io.RaggedFeature(tf.string, value_key="c"),
        "z": tf.io.RaggedFeature(tf.float32, value_key="b"),
        "a": tf.io.RaggedFeature(tf.int64)})
    return parsed


def case_parse_example_of_a_scalar(tf):
    return tf.io.parse_example(_two_examples(tf)[0], {
        "a": tf.io.FixedLenFeature([2], tf.int64), "c": tf.io.VarLenFeature(tf.string)})


def case_parse_single_example_each_kind(tf):
    data = _two_examples(tf)[0]
    parsed = tf.io.parse_single_example(data, {
        "a": tf.io.FixedLenFeature([1, 2], tf.int64),
        "c": tf.io.VarLenFeature(tf.string),
        "r": tf.io.RaggedFeature(tf.float32, value_key="b"),
        "v": tf.io.VarLenFeature(tf.int64),
        "q": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True)})
    print(parsed)
    return parsed


def case_parse_fixed_len_sequence_padding(tf):
    data = [_serialized(tf, a=_int64s(tf, 1, 2, 3, 4), b=_floats(tf, 0.5)),
            _serialized(tf, a=_int64s(tf, 5, 6))]
    return tf.io.parse_example(data, {
        "a": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True),
        "b": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True,
                                           default_value=-1.0),
        "q": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True)})


def _partitioned(tf):
    return [_serialized(tf, v=_int64s(tf, 1, 2, 3, 4, 5, 6), lengths=_int64s(tf, 2, 0, 4),
                        splits=_int64s(tf, 0, 1, 3), starts=_int64s(tf, 0, 2),
                        limits=_int64s(tf, 1, 6), ids=_int64s(tf, 0, 0, 2)),
            _serialized(tf, v=_int64s(tf, 7, 8), lengths=_int64s(tf, 2),
                        splits=_int64s(tf, 0, 1), starts=_int64s(tf, 0),
                        limits=_int64s(tf, 2), ids=_int64s(tf, 0))]


def case_parse_ragged_partitions(tf):
    rf = tf.io.RaggedFeature
    features = {
        "by_lengths": rf(tf.int64, value_key="v", partitions=[rf.RowLengths("lengths")]),
        "by_uniform": rf(tf.int64, value_key="v", partitions=[rf.UniformRowLength(2)]),
        "nested": rf(tf.int64, value_key="v", partitions=[rf.RowSplits("splits"),
                                                          rf.UniformRowLength(2)]),
        "starts": rf(tf.int64, value_key="v", partitions=[rf.RowStarts("starts")]),
        "limits": rf(tf.int64, value_key="v", partitions=[rf.RowLimits("limits")]),
        "ids": rf(tf.int64, value_key="lengths", partitions=[rf.ValueRowIds("ids")]),
        "splits32": rf(tf.int64, value_key="v", partitions=[rf.RowLengths("lengths")],
                       row_splits_dtype=tf.int32)}
    batch = tf.io.parse_example(_partitioned(tf), features)
    single = tf.io.parse_single_example(_partitioned(tf)[0], features)
    return batch, single


def case_parse_single_example_uniform_only_is_dense(tf):
    rf = tf.io.RaggedFeature
    parsed = tf.io.parse_single_example(
        _serialized(tf, v=_int64s(tf, 1, 2, 3, 4)),
        {"x": rf(tf.int64, value_key="v", partitions=[rf.UniformRowLength(2)])})
    return parsed["x"], type(parsed["x"]).__name__


# -- parse_example errors -------------------------------------------------------------------
def case_missing_required_feature_in_a_batch(tf):
    return tf.io.parse_example(_two_examples(tf), {"b": tf.io.FixedLenFeature([], tf.float32)})


def case_missing_required_feature_in_one_example(tf):
    return tf.io.parse_single_example(_two_examples(tf)[1],
                                      {"b": tf.io.FixedLenFeature([], tf.float32)})


def case_empty_feature_is_missing(tf):
    return tf.io.parse_single_example(_serialized(tf, v=tf.train.Feature()),
                                      {"v": tf.io.FixedLenFeature([], tf.int64)})


def case_wrong_number_of_values_in_one_example(tf):
    return tf.io.parse_single_example(_two_examples(tf)[0],
                                      {"a": tf.io.FixedLenFeature([], tf.int64)})


def case_wrong_number_of_values_in_a_batch(tf):
    return tf.io.parse_example(_two_examples(tf), {"a": tf.io.FixedLenFeature([3], tf.int64)})


def case_wrong_kind_errors(tf):
    data = _two_examples(tf)[0]
    return [_raised(lambda: tf.io.parse_single_example(
                data, {"a": tf.io.FixedLenFeature([2], tf.float32)})),
            _raised(lambda: tf.io.parse_single_example(
                data, {"a": tf.io.VarLenFeature(tf.string)})),
            _raised(lambda: tf.io.parse_single_example(
                data, {"a": tf.io.RaggedFeature(tf.float32)})),
            _raised(lambda: tf.io.parse_single_example(
                data, {"a": tf.io.FixedLenFeature([2], tf.int32)}))]


def case_not_an_example(tf):
    return tf.io.parse_single_example(b"garbage", {"a": tf.io.RaggedFeature(tf.float32)})


def case_not_an_example_in_a_batch(tf):
    return tf.io.parse_example([_two_examples(tf)[0], b"\x01\x02"],
                               {"a": tf.io.VarLenFeature(tf.int64)})


def case_configuration_errors(tf):
    data = _two_examples(tf)
    return [_raised(lambda: tf.io.parse_example(data, {})),
            _raised(lambda: tf.io.parse_example(data, {"a": 3})),
            _raised(lambda: tf.io.parse_example(data, {"a": tf.io.FixedLenFeature(None,
                                                                                  tf.int64)})),
            _raised(lambda: tf.io.parse_example(
                data, {"a": tf.io.FixedLenSequenceFeature([], tf.int64)})),
            _raised(lambda: tf.io.parse_example(
                data, {"r": tf.io.RaggedFeature(tf.string, value_key="c"),
                       "c": tf.io.VarLenFeature(tf.string)})),
            _raised(lambda: tf.io.parse_example(
                data, {"k": tf.io.FixedLenFeature([2], tf.float32, default_value=1.0)})),
            _raised(lambda: tf.io.parse_example(tf.constant([[data[0]]]),
                                                {"a": tf.io.FixedLenFeature([2], tf.int64)}))]


def case_data_shape_errors(tf):
    rf = tf.io.RaggedFeature
    odd = _serialized(tf, v=_int64s(tf, 1, 2, 3))
    even = _serialized(tf, v=_int64s(tf, 1, 2))
    blocks = tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)
    return [_raised(lambda: tf.io.parse_single_example(
                odd, {"x": rf(tf.int64, value_key="v", partitions=[rf.UniformRowLength(2)])})),
            _raised(lambda: tf.io.parse_example([even, odd], {"v": blocks})),
            _raised(lambda: tf.io.parse_single_example(odd, {"v": blocks}))]


# -- parse_sequence_example -----------------------------------------------------------------
def _two_sequences(tf):
    return [_sequence(tf, {"n": _int64s(tf, 3)},
                      {"t": [_int64s(tf, 1, 2), _int64s(tf, 3, 4), _int64s(tf, 5, 6)],
                       "w": [_strings(tf, b"a"), _strings(tf, b"b", b"c")]}),
            _sequence(tf, {"n": _int64s(tf, 1)}, {"t": [_int64s(tf, 7, 8)], "w": []})]


def _sequence_configs(tf):
    context = {"n": tf.io.FixedLenFeature([], tf.int64),
               "m": tf.io.FixedLenFeature([], tf.float32, default_value=0.5)}
    lists = {"t": tf.io.FixedLenSequenceFeature([2], tf.int64),
             "w": tf.io.VarLenFeature(tf.string)}
    return context, lists


def case_parse_single_sequence_example(tf):
    context, lists = _sequence_configs(tf)
    out = tf.io.parse_single_sequence_example(_two_sequences(tf)[0], context, lists)
    print(out)
    return out


def case_parse_sequence_example_batch(tf):
    context, lists = _sequence_configs(tf)
    return tf.io.parse_sequence_example(_two_sequences(tf), context, lists)


def case_parse_sequence_example_ragged(tf):
    context, _ = _sequence_configs(tf)
    ragged = {"r": tf.io.RaggedFeature(tf.string, value_key="w")}
    return (tf.io.parse_sequence_example(_two_sequences(tf), context, ragged),
            tf.io.parse_single_sequence_example(_two_sequences(tf)[0], None, ragged))


def case_parse_sequence_example_missing_list_allowed(tf):
    return tf.io.parse_single_sequence_example(
        _two_sequences(tf)[0], None,
        {"x": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})


def case_sequence_example_errors(tf):
    data = _two_sequences(tf)[0]
    seq = tf.io.FixedLenSequenceFeature
    return [_raised(lambda: tf.io.parse_single_sequence_example(
                data, None, {"x": seq([], tf.int64)})),
            _raised(lambda: tf.io.parse_single_sequence_example(
                data, None, {"t": seq([], tf.int64)})),
            _raised(lambda: tf.io.parse_single_sequence_example(
                data, None, {"t": tf.io.FixedLenFeature([2], tf.int64)})),
            _raised(lambda: tf.io.parse_single_sequence_example(
                data, {"t": seq([2], tf.int64)}, None)),
            _raised(lambda: tf.io.parse_single_sequence_example(
                data, {"q": tf.io.FixedLenFeature([2], tf.int64)}, None)),
            _raised(lambda: tf.io.parse_sequence_example(
                [data], {"n": tf.io.FixedLenFeature([2], tf.int64)}, None)),
            _raised(lambda: tf.io.parse_single_sequence_example(
                data, {"n": tf.io.FixedLenFeature([], tf.float32)}, None)),
            _raised(lambda: tf.io.parse_single_sequence_example(
                data, None, {"t": seq([2], tf.float32)})),
            _raised(lambda: tf.io.parse_single_sequence_example(
                data, None, {"t": tf.io.VarLenFeature(tf.float32)})),
            _raised(lambda: tf.io.parse_single_sequence_example(data, None, None))]


# -- TFRecord files ---------------------------------------------------------------------------
def case_tfrecord_writer_bytes_and_dataset_map(tf):
    path = os.path.join(tempfile.mkdtemp(), "examples.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for i in range(3):
            example = _example(tf, x=_floats(tf, i, i + 0.5), w=_strings(tf, *[b"a"] * i))
            writer.write(example.SerializeToString(deterministic=True))
        writer.write("text")
    with open(path, "rb") as f:
        data = f.read()
    config = {"x": tf.io.FixedLenFeature([2], tf.float32),
              "w": tf.io.RaggedFeature(tf.string)}
    parsed = tf.data.TFRecordDataset(path).take(3).map(
        lambda record: tf.io.parse_single_example(record, config))
    return data, list(parsed), _raised(lambda: writer.write(b"late"))


def case_tfrecord_writer_compressed(tf):
    path = os.path.join(tempfile.mkdtemp(), "examples.tfrecord.gz")
    options = tf.io.TFRecordOptions(compression_type="GZIP")
    with tf.io.TFRecordWriter(path, options) as writer:
        writer.write(_serialized(tf, n=_int64s(tf, 4)))
    dataset = tf.data.TFRecordDataset(path, compression_type="GZIP").map(
        lambda r: tf.io.parse_single_example(r, {"n": tf.io.FixedLenFeature([], tf.int64)}))
    return [list(dataset),
            _raised(lambda: tf.io.TFRecordWriter(path, "BAD"))]


# -- SparseFeature ----------------------------------------------------------------------------
def case_sparse_feature(tf):
    data = [_serialized(tf, ix=_int64s(tf, 5, 1), val=_floats(tf, 0.5, 1.5)),
            _serialized(tf, ix=_int64s(tf), val=_floats(tf)),
            _serialized(tf, ix=_int64s(tf, 9), val=_floats(tf, 2.0), iy=_int64s(tf, 3))]
    sf = tf.io.SparseFeature
    return [str(sf("ix", "val", tf.float32, 10)),
            tf.io.parse_example(data, {"sp": sf("ix", "val", tf.float32, 10),
                                       "val": tf.io.VarLenFeature(tf.float32)}),
            tf.io.parse_example(data, {"sp": sf("ix", "val", tf.float32, 6,
                                                already_sorted=True)}),
            tf.io.parse_single_example(data[0], {"sp": sf("ix", "val", tf.float32, 10)}),
            tf.io.parse_example([data[2]], {"sp": sf(["ix", "iy"], "val", tf.float32, [10, 4])}),
            _raised(lambda: tf.io.parse_example(
                [_serialized(tf, ix=_int64s(tf, 1, 2), val=_floats(tf, 0.5))],
                {"sp": sf("ix", "val", tf.float32, 6)})),
            _raised(lambda: tf.io.parse_example(data, {"sp": sf("ix", "val", tf.float32, None)})),
            _raised(lambda: tf.io.parse_example(data, {"sp": sf(None, "val", tf.float32, 3)}))]
