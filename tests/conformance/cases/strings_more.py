"""More of tf.strings: hash buckets and fingerprints (TensorFlow's exact hashes), n-grams,
Unicode decoding/encoding/scripts, segment joins, tf.as_string's formatting, empty strings."""

_WORDS = ["", "a", "hello", "Hello", "TensorFlow", "hello world!!", "x" * 20, "y" * 40,
          "z" * 64, "w" * 65, "héllo wörld " * 12, "0123456789" * 30]


def case_to_hash_bucket_fast(tf):
    return [tf.strings.to_hash_bucket_fast(_WORDS, 1000003),
            tf.strings.to_hash_bucket_fast(tf.constant([["a", "b"], ["c", "d"]]), 7),
            tf.strings.to_hash_bucket_fast("scalar", 2 ** 40)]


def case_to_hash_bucket(tf):
    return [tf.strings.to_hash_bucket(_WORDS, 1000003),
            tf.strings.to_hash_bucket(tf.constant(["Hello", "TensorFlow", "2.x"]), 3)]


def case_to_hash_bucket_strong(tf):
    return [tf.strings.to_hash_bucket_strong(_WORDS, 1000003, [1, 2]),
            tf.strings.to_hash_bucket_strong(["Hello", "TF"], 3, [2 ** 40 + 7, 99])]


def case_hash_bucket_zero_buckets(tf):
    return tf.strings.to_hash_bucket_fast(["a"], 0)


def case_fingerprint(tf):
    return [tf.fingerprint(tf.constant(_WORDS)),
            tf.fingerprint(tf.constant([[1, 2], [3, 4]], tf.int32)),
            tf.fingerprint(tf.constant([1.5, -2.0])),
            tf.fingerprint(tf.constant([["ab", "c"], ["d", "e"]]))]


def case_fingerprint_scalar(tf):
    return tf.fingerprint(tf.constant(3))


def case_ngrams_basic(tf):
    return [tf.strings.ngrams(tf.constant(["a", "b", "c", "d"]), 2),
            tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2),
            tf.strings.ngrams(tf.constant(["a", "b", "c"]), 3, separator="_"),
            tf.strings.ngrams(tf.constant(["a", "b"]), 3)]


def case_ngrams_ragged_padding(tf):
    rt = tf.ragged.constant([["a", "b", "c"], ["d"], []])
    out = [tf.strings.ngrams(rt, [1, 2], pad_values=("<s>", "</s>"), padding_width=1),
           tf.strings.ngrams(rt, 2, pad_values="#"),
           tf.strings.ngrams(rt, 3, pad_values=("L", "R")),
           tf.strings.ngrams(rt, 3, preserve_short_sequences=True),
           tf.strings.ngrams(rt, 2)]
    for o in out:
        print(o)
    return [o.to_list() for o in out]


def case_unicode_decode(tf):
    r = tf.strings.unicode_decode(["héllo", "你好", ""], "UTF-8")
    print(r)
    return [r.to_list(), r.values, r.row_splits,
            tf.strings.unicode_decode("héllo", "UTF-8"),
            tf.strings.unicode_decode(tf.constant([["ab", "ç"]]), "UTF-8").to_list()]


def case_unicode_decode_errors(tf):
    bad = [b"a\xffb", b"\xe4\xbd", b"ok"]
    return [tf.strings.unicode_decode(bad, "UTF-8").to_list(),
            tf.strings.unicode_decode(bad, "UTF-8", errors="ignore").to_list(),
            tf.strings.unicode_decode(bad, "UTF-8", replacement_char=63).to_list(),
            tf.strings.unicode_decode(["a\x01b"], "UTF-8",
                                      replace_control_characters=True).to_list()]


def case_unicode_decode_strict(tf):
    return tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="strict")


def case_unicode_decode_with_offsets(tf):
    cps, offs = tf.strings.unicode_decode_with_offsets(["héllo", "你好"], "UTF-8")
    print(cps)
    print(offs)
    s_cps, s_offs = tf.strings.unicode_decode_with_offsets("aé", "UTF-8")
    return [cps.to_list(), offs.to_list(), offs.dtype, s_cps, s_offs]


def case_unicode_utf16_utf32(tf):
    s16 = tf.strings.unicode_encode([104, 233, 128512], "UTF-16-BE")
    s32 = tf.strings.unicode_encode([104, 233], "UTF-32-BE")
    return [s16, s32, tf.strings.unicode_decode(s16, "UTF-16-BE"),
            tf.strings.unicode_decode(s32, "UTF-32-BE")]


def case_unicode_encode(tf):
    return [tf.strings.unicode_encode([104, 233], "UTF-8"),
            tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [20320], []]), "UTF-8"),
            tf.strings.unicode_encode(tf.constant([[72, 105], [79, 75]]), "UTF-8"),
            tf.strings.unicode_encode([104, -5, 1114112], "UTF-8"),
            tf.strings.unicode_encode([104, -5], "UTF-8", errors="ignore"),
            tf.strings.unicode_encode([104, -5], "UTF-8", replacement_char=42)]


def case_unicode_encode_strict(tf):
    return tf.strings.unicode_encode([104, -5], "UTF-8", errors="strict")


def case_unicode_split_with_offsets(tf):
    chars, offs = tf.strings.unicode_split_with_offsets(["héllo", "你"], "UTF-8")
    print(chars)
    return [chars.to_list(), offs.to_list()]


def case_unicode_transcode(tf):
    return [tf.strings.unicode_transcode(["héllo", "你"], "UTF-8", "UTF-16-BE"),
            tf.strings.unicode_transcode(tf.constant(b"\x00h\x00\xe9"), "UTF-16-BE", "UTF-8"),
            tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8"),
            tf.strings.unicode_transcode([b"a\xffb"], "UTF-8", "UTF-8", errors="ignore")]


def case_unicode_script(tf):
    cps = [65, 122, 233, 1041, 20320, 48, 32, 46, 769, 1488, 0x0627, 0x3042, 0x30AB, 0xAC00,
           0x0E01, 0x0915, 0x0966, 0x03A9, 0x0531, 0x10D0, 0x1200, 0x0E81, 0x0F40, 0x1000,
           0x1780, 0x0B95, 0x0C15, 0x0C95, 0x0D15, 0x0A15, 0x0A95, 0x0B15, 0x0995, 0x3001,
           0xFF01, 0xFF21, 0x20AC, 0x1F600, 0x0640, 0x064B, -5, 0x110000, 0xD800, 0x0378]
    return tf.strings.unicode_script(cps)


def case_unicode_script_more_scripts(tf):
    cps = [0x2D30, 0x10400, 0x0780, 0x13A0, 0x1F600, 0x00D7, 0x02C6, 0x1D00, 0x3005, 0x309B,
           0xFF70, 0x1700, 0x1720, 0x1740, 0x1760, 0x2801, 0x10800, 0x1900, 0x10000, 0x10480,
           0x10450, 0x1950, 0x10380, 0x1A00, 0x2C00, 0x10A00, 0xA800, 0x1980, 0x103A0, 0x10330,
           0x10300, 0x2C80, 0x0410, 0x05D0, 0x0E40, 0x1100, 0x3131, 0x1200, 0x1401, 0x1681,
           0x16A0, 0x1820, 0xA000, 0x0D05, 0x0D85, 0x0F00, 0x1000, 0x0E81, 0x0710]
    return tf.strings.unicode_script(cps)


def case_unicode_script_matrix(tf):
    return tf.strings.unicode_script(tf.constant([[72, 1080], [26085, 12354]]))


def case_unsorted_segment_join(tf):
    return [tf.strings.unsorted_segment_join(["a", "b", "c", "d"], [0, 1, 0, 2], 3,
                                             separator=":"),
            tf.strings.unsorted_segment_join(["a", "b"], [1, 1], 3),
            tf.strings.unsorted_segment_join(tf.constant([["a", "b"], ["c", "d"], ["e", "f"]]),
                                             [1, 0, 1], 2, separator="-")]


def case_unsorted_segment_join_bad_id(tf):
    return tf.strings.unsorted_segment_join(["a", "b"], [0, 5], 2)


def case_as_string_top_level(tf):
    x = tf.constant([3.14159, -2.5, 1e-7, 12345.678])
    return [tf.as_string(x), tf.as_string(x, precision=2), tf.as_string(x, scientific=True),
            tf.as_string(x, shortest=True), tf.as_string(x, precision=3, scientific=True),
            tf.as_string(tf.constant([5, -5, 123]), width=5),
            tf.as_string(tf.constant([5, -5, 123]), width=5, fill="0"),
            tf.as_string(tf.constant([1.5, -1.5]), width=8, fill="0", precision=1),
            tf.as_string(tf.constant([True, False])),
            tf.as_string(tf.constant([1 + 2j], tf.complex64)),
            tf.as_string(tf.constant([7], tf.int64), width=3),
            tf.as_string(tf.constant([float("nan"), float("inf"), -float("inf")]))]


def case_empty_string_constant(tf):
    a = tf.constant([], tf.string)
    b = tf.constant([[]], dtype=tf.string)
    print(a)
    return [a, b, a.shape, b.shape, a.dtype, tf.strings.length(a)]


NOTES = {
    "tf.strings.to_hash_bucket_fast": "FarmHash Fingerprint64 implemented in Python: buckets "
                                      "match TensorFlow's exactly",
    "tf.strings.to_hash_bucket": "TensorFlow's Hash64 (MurmurHash2-64, seed 0xDECAFCAFFE)",
    "tf.strings.to_hash_bucket_strong": "SipHash-2-4 keyed by the two key integers",
    "tf.strings.unicode_script": "ICU script codes for the common scripts (Latin, Greek, "
                                 "Cyrillic, Arabic, Hebrew, Indic, CJK, Thai...); a letter of "
                                 "another script raises UnimplementedError",
}


# ---- invalid UTF-8, units, regex errors and rewrites, joins, strings through number ops ----
BROKEN = [b"\xff", b"ab\xc3", b"ok\x80ok", "h\xe9llo".encode(), b"", b"\xe2\x82"]


def case_length_of_invalid_utf8_in_characters(tf):
    """A character is a byte that does not continue a UTF-8 sequence (TensorFlow counts so)."""
    return tf.strings.length(tf.constant(BROKEN), unit="UTF8_CHAR")


def case_length_unknown_unit(tf):
    return tf.strings.length(tf.constant(["abc"]), unit="CHAR")


def case_substr_of_invalid_utf8_in_characters(tf):
    return [tf.strings.substr(tf.constant([b"\xffab", b"ok\x80ok", b"\xe2\x82x"]), 1, 2,
                              unit="UTF8_CHAR"),
            tf.strings.substr(tf.constant(["h\xe9llo"]), -3, 2, unit="UTF8_CHAR"),
            tf.strings.substr(tf.constant(["hello", "abc"]), -2, 5)]


def case_substr_position_past_a_character_string(tf):
    return tf.strings.substr(tf.constant(["abc", b"\xff"]), 2, 1, unit="UTF8_CHAR")


def case_substr_unknown_unit(tf):
    return tf.strings.substr(tf.constant(["abc"]), 0, 1, unit="CHAR")


def case_regex_replace_bad_pattern(tf):
    return tf.strings.regex_replace(tf.constant(["abc"]), "(", "x")


def case_regex_full_match_bad_pattern(tf):
    return tf.strings.regex_full_match(tf.constant(["abc"]), "[z-a]")


def case_regex_rewrite_groups(tf):
    """RE2's rewrite: \\0 is the whole match, \\1.. the groups, \\\\ a backslash."""
    x = tf.constant(["abc", "hello", "a-b-c"])
    return [tf.strings.regex_replace(x, "b|l", "<\\0>"),
            tf.strings.regex_replace(x, "(a)(-?)", "[\\2\\1]"),
            tf.strings.regex_replace(x, "b", "\\\\"),
            tf.strings.regex_replace(x, "(b)", "\\1\\1", replace_global=False)]


def case_regex_rewrite_invalid(tf):
    """An unknown escape ends the rewrite (global), a missing group replaces nothing."""
    x = tf.constant(["abcb"])
    return [tf.strings.regex_replace(x, "b", "\\x"),
            tf.strings.regex_replace(x, "b", "Y\\xZ"),
            tf.strings.regex_replace(x, "(b)", "\\2"),
            tf.strings.regex_replace(x, "b", "Y\\xZ", replace_global=False)]


def case_as_string_of_strings(tf):
    x = tf.constant(["a", "1", ""])
    return [tf.strings.as_string(x), tf.strings.as_string(x, width=3)]


def case_join_needs_equal_shapes(tf):
    return tf.strings.join([tf.constant(["a", "b"]), tf.constant(["c"])])


def case_join_scalars_broadcast(tf):
    return tf.strings.join([tf.constant("x"), tf.constant([["a"], ["b"]])], separator="-")


def case_reduce_sum_of_strings(tf):
    return tf.reduce_sum(tf.constant(["a", "b"]))


def case_split_of_a_matrix(tf):
    """A rank-2 input gives a RaggedTensor of rank 3: its shape, then a row per string."""
    x = tf.constant([["a b", "c"], ["d e f", ""]])
    return [tf.strings.split(x), tf.strings.split(x, sep="e")]


def case_bytes_and_unicode_split_of_a_matrix(tf):
    x = tf.constant([["ab", "c"], ["", "d"]])
    return [tf.strings.bytes_split(x), tf.strings.unicode_split(x, "UTF-8")]


def case_unicode_split_strict_on_bad_utf8(tf):
    return tf.strings.unicode_split(tf.constant([b"ab\xc3"]), "UTF-8", errors="strict")


def case_substr_with_a_negative_length(tf):
    """A negative length: the rest of the string in bytes, nothing in characters."""
    return [tf.strings.substr(["hello"], 1, -2), tf.strings.substr(["hello"], -2, -1),
            tf.strings.substr(["h\u00e9llo"], 1, -1, unit="UTF8_CHAR")]
