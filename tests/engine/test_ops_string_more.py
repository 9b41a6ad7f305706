"""tf.strings hash buckets, ngrams, segment joins, tf.fingerprint, tf.as_string
(ops/string_ops.py)."""
import numpy as np
import pytest

import tapegrad as tf


def test_hash_buckets_are_in_range_and_stable():
    words = tf.constant(["Hello", "TensorFlow", "2.x"])
    assert tf.strings.to_hash_bucket_fast(words, 3).numpy().tolist() == [0, 2, 2]
    assert tf.strings.to_hash_bucket(words, 3).numpy().tolist() == [2, 0, 1]
    strong = tf.strings.to_hash_bucket_strong(words, 1000, [1, 2])
    assert strong.dtype == tf.int64 and (0 <= strong.numpy()).all() and (strong.numpy() < 1000).all()
    assert strong.numpy().tolist() != tf.strings.to_hash_bucket_strong(words, 1000, [3, 4]).numpy().tolist()
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_buckets"):
        tf.strings.to_hash_bucket_fast(words, 0)


def test_fingerprint_rows():
    fp = tf.fingerprint(tf.constant(["a", "b"]))
    assert fp.dtype == tf.uint8 and fp.shape == (2, 8)
    assert fp.numpy()[0].tolist() != fp.numpy()[1].tolist()
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least one dimension"):
        tf.fingerprint(tf.constant(3))


def test_ngrams_dense_ragged_and_padding():
    assert tf.strings.ngrams(tf.constant(["a", "b", "c"]), 2).numpy().tolist() == [b"a b", b"b c"]
    rt = tf.ragged.constant([["a", "b"], []])
    assert tf.strings.ngrams(rt, 2, pad_values="#").to_list() == [[b"# a", b"a b", b"b #"],
                                                                  [b"# #"]]
    assert tf.strings.ngrams(tf.ragged.constant([["a"]]), 3,
                             preserve_short_sequences=True).to_list() == [[b"a"]]
    with pytest.raises(ValueError, match="pad_values"):
        tf.strings.ngrams(rt, 2, padding_width=1)


def test_unsorted_segment_join():
    out = tf.strings.unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 3, separator="+")
    assert out.numpy().tolist() == [b"b", b"a+c", b""]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
        tf.strings.unsorted_segment_join(["a"], [4], 2)


def test_as_string_printf_padding_and_options():
    assert tf.as_string(tf.constant([-5, 12]), width=4, fill="0").numpy().tolist() == \
        [b"-005", b"0012"]
    assert tf.as_string(tf.constant([2.5]), scientific=True, precision=1).numpy().tolist() == \
        [b"2.5e+00"]
    assert tf.as_string(tf.constant([1 + 2j])).numpy().tolist() == [b"(1.000000,2.000000)"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Fill"):
        tf.as_string(tf.constant([1]), width=3, fill="x")


def test_empty_string_constant():
    t = tf.constant([], tf.string)
    assert t.shape == (0,) and t.dtype == tf.string
    assert tf.constant([[]], tf.string).numpy().shape == (1, 0)
    np.testing.assert_array_equal(tf.strings.length(t).numpy(), np.zeros(0, np.int32))
