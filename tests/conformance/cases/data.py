"""tf.data.Dataset: elements, dtypes, shapes, element_spec, cardinality, len and errors.

Shuffled orders are not compared (TensorFlow draws them with its own generator); what is compared
is the contract: a permutation, repeatable with a seed, reshuffled per epoch by default.
"""
import numpy as np


def _values(ds):
    return list(ds.as_numpy_iterator())


# -- from_tensor_slices ---------------------------------------------------------------------------

def case_slices_of_python_list(tf):
    ds = tf.data.Dataset.from_tensor_slices([4, 5, 6])
    return [list(ds), repr(ds.element_spec), len(ds)]


def case_slices_of_matrix_rows(tf):
    ds = tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [list(ds), str(ds.element_spec)]


def case_slices_of_tuple(tf):
    features = np.array([[0.5, 1.5], [2.5, 3.5]], np.float32)
    labels = [1, 0]
    ds = tf.data.Dataset.from_tensor_slices((features, labels))
    return [[(x, y) for x, y in ds], repr(ds.element_spec)]


def case_slices_of_dict(tf):
    ds = tf.data.Dataset.from_tensor_slices({"age": [30, 40], "score": [[0.1, 0.2], [0.3, 0.4]]})
    return [list(ds), repr(ds.element_spec)]


def case_slices_of_nested_structure(tf):
    ds = tf.data.Dataset.from_tensor_slices(
        ((np.arange(4, dtype=np.int64).reshape(2, 2), {"k": [1.0, 2.0]}), [5, 6]))
    return [list(ds), repr(ds.element_spec)]


def case_slices_keep_numpy_float64(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.array([1.5, 2.5]))
    return [list(ds), repr(ds.element_spec)]


def case_slices_large_python_ints_are_int64(tf):
    ds = tf.data.Dataset.from_tensor_slices([2**40, 3])
    return [list(ds), repr(ds.element_spec)]


def case_slices_bools_and_strings(tf):
    ds = tf.data.Dataset.from_tensor_slices(([True, False], ["cat", "dog"]))
    return [_values(ds), repr(ds.element_spec)]


def case_slices_list_of_arrays_is_one_tensor(tf):
    ds = tf.data.Dataset.from_tensor_slices([np.zeros(2), np.ones(2)])
    return [list(ds), repr(ds.element_spec)]


def case_slices_of_variable(tf):
    v = tf.Variable([1.0, 2.0])
    return list(tf.data.Dataset.from_tensor_slices(v))


def case_slices_mismatched_lengths(tf):
    return tf.data.Dataset.from_tensor_slices(([1, 2, 3], [1, 2]))


def case_slices_mismatched_dict_lengths(tf):
    return tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [1]})


def case_slices_of_scalar(tf):
    return tf.data.Dataset.from_tensor_slices(3)


def case_slices_of_ragged_list(tf):
    return tf.data.Dataset.from_tensor_slices([[1, 2], [3]])


def case_slices_of_none(tf):
    return tf.data.Dataset.from_tensor_slices(None)


# -- from_tensors, range --------------------------------------------------------------------------

def case_from_tensors_is_one_element(tf):
    ds = tf.data.Dataset.from_tensors([1, 2, 3])
    return [list(ds), repr(ds), len(ds)]


def case_from_tensors_dict_spec(tf):
    ds = tf.data.Dataset.from_tensors({"x": tf.zeros([2, 3]), "y": 1})
    return [repr(ds.element_spec), list(ds)]


def case_from_tensors_none(tf):
    return tf.data.Dataset.from_tensors(None)


def case_range_forms(tf):
    return [_values(tf.data.Dataset.range(4)), _values(tf.data.Dataset.range(2, 5)),
            _values(tf.data.Dataset.range(5, 0, -2)), _values(tf.data.Dataset.range(3, 3)),
            repr(tf.data.Dataset.range(1).element_spec)]


def case_range_output_type(tf):
    ds = tf.data.Dataset.range(3, output_type=tf.int32)
    floats = tf.data.Dataset.range(0, 2, output_type=tf.float32)
    return [list(ds), repr(ds.element_spec), list(floats)]


def case_range_ignores_dtype_keyword(tf):
    return repr(tf.data.Dataset.range(3, dtype=tf.int32).element_spec)


def case_range_cardinality(tf):
    return [tf.data.Dataset.range(5, 0, -2).cardinality(), tf.data.Dataset.range(0).cardinality(),
            tf.data.Dataset.range(10, 2).cardinality(), len(tf.data.Dataset.range(1, 10, 4))]


def case_range_without_arguments(tf):
    return tf.data.Dataset.range()


def case_range_with_four_arguments(tf):
    return tf.data.Dataset.range(1, 2, 3, 4)


def case_range_float_stop(tf):
    return tf.data.Dataset.range(1.5)


def case_range_zero_step(tf):
    return tf.data.Dataset.range(0, 5, 0)


# -- zip, concatenate -----------------------------------------------------------------------------

def case_zip_tuple_stops_at_shortest(tf):
    ds = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)))
    return [_values(ds), repr(ds.element_spec), ds.cardinality()]


def case_zip_positional_and_nested(tf):
    d = tf.data.Dataset
    a, b, c = d.range(2), d.range(5), d.from_tensor_slices([7, 8])
    return [_values(tf.data.Dataset.zip(a, b)), _values(tf.data.Dataset.zip((a, (b, c))))]


def case_zip_dict(tf):
    d = tf.data.Dataset
    ds = d.zip({"a": d.range(2), "b": d.from_tensor_slices([1.0, 2.0])})
    return [_values(ds), repr(ds.element_spec)]


def case_zip_of_list_is_refused(tf):
    return tf.data.Dataset.zip([tf.data.Dataset.range(2), tf.data.Dataset.range(2)])


def case_zip_of_non_dataset(tf):
    return tf.data.Dataset.zip((tf.data.Dataset.range(2), (1, 2)))


def case_concatenate(tf):
    ds = tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(10, 12))
    return [_values(ds), ds.cardinality(), repr(ds)]


def case_concatenate_relaxes_shapes(tf):
    ds = tf.data.Dataset.from_tensors([1, 2]).concatenate(tf.data.Dataset.from_tensors([1, 2, 3]))
    return [repr(ds.element_spec), list(ds)]


def case_concatenate_dtype_mismatch(tf):
    return tf.data.Dataset.range(3).concatenate(tf.data.Dataset.from_tensor_slices([1.0]))


def case_concatenate_structure_mismatch(tf):
    return tf.data.Dataset.from_tensors(1).concatenate(tf.data.Dataset.from_tensors((1, 1)))


# -- map, filter ----------------------------------------------------------------------------------

def case_map_unpacks_tuples(tf):
    ds = tf.data.Dataset.from_tensor_slices(([1, 2], [10, 20])).map(lambda a, b: a + b)
    return [list(ds), repr(ds)]


def case_map_passes_dicts_whole(tf):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [3, 4]})
    return list(ds.map(lambda d: d["a"] * d["b"]))


def case_map_returning_list_gives_tuple(tf):
    ds = tf.data.Dataset.range(2).map(lambda x: [x, x * 2])
    return [repr(ds.element_spec), _values(ds)]


def case_map_nested_list_is_a_tensor(tf):
    ds = tf.data.Dataset.range(2).map(lambda x: ([x, x], x))
    return [repr(ds.element_spec), _values(ds)]


def case_map_returning_dict(tf):
    ds = tf.data.Dataset.range(2).map(lambda x: {"id": x, "half": tf.cast(x, tf.float32) / 2})
    return [repr(ds.element_spec), _values(ds)]


def case_map_python_values_get_tf_dtypes(tf):
    ds = tf.data.Dataset.range(2).map(lambda x: (1, 2.0, np.float64(3.0)))
    return [repr(ds.element_spec), list(ds)]


def case_map_spec_of_variable_length(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda n: tf.range(n))
    return [repr(ds.element_spec), list(ds)]


def case_map_after_batch_keeps_unknown_batch(tf):
    ds = tf.data.Dataset.range(7).batch(2).map(lambda x: x * 2)
    return [repr(ds.element_spec), list(ds)]


def case_map_parallel(tf):
    ds = tf.data.Dataset.range(5).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE,
                                      deterministic=True)
    return [_values(ds), repr(ds), ds.cardinality()]


def case_map_wrong_number_of_arguments(tf):
    return tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).map(lambda a: a)


def case_map_normalization_pipeline(tf):
    images = np.arange(12, dtype=np.uint8).reshape(3, 2, 2)
    labels = np.array([0, 1, 2], np.int64)
    ds = tf.data.Dataset.from_tensor_slices((images, labels))
    ds = ds.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, tf.one_hot(y, 3)))
    return [repr(ds.element_spec), list(ds.batch(2))]


def case_filter(tf):
    ds = tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0)
    return [_values(ds), ds.cardinality(), repr(ds)]


def case_filter_unpacks_tuples(tf):
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6])).filter(lambda a, b: a > 1)
    return _values(ds)


def case_filter_predicate_not_bool(tf):
    return tf.data.Dataset.range(3).filter(lambda x: x)


def case_filter_predicate_not_scalar(tf):
    return tf.data.Dataset.range(3).filter(lambda x: tf.constant([True, False]))


def case_filter_length_unknown(tf):
    return len(tf.data.Dataset.range(3).filter(lambda x: x > 0))


# -- shuffle --------------------------------------------------------------------------------------

def case_shuffle_is_a_permutation(tf):
    ds = tf.data.Dataset.range(20).shuffle(20, seed=3)
    got = [int(x) for x in ds]
    return [sorted(got), len(got), ds.cardinality(), repr(ds)]


def case_shuffle_small_buffer_is_a_permutation(tf):
    got = [int(x) for x in tf.data.Dataset.range(50).shuffle(4, seed=7)]
    return sorted(got) == list(range(50))


def case_shuffle_same_seed_same_order(tf):
    a = [int(x) for x in tf.data.Dataset.range(30).shuffle(30, seed=11)]
    b = [int(x) for x in tf.data.Dataset.range(30).shuffle(30, seed=11)]
    return a == b


def case_shuffle_reshuffles_each_epoch(tf):
    ds = tf.data.Dataset.range(30).shuffle(30, seed=4)
    first, second = [int(x) for x in ds], [int(x) for x in ds]
    return [first != second, sorted(first) == sorted(second)]


def case_shuffle_without_reshuffle(tf):
    ds = tf.data.Dataset.range(30).shuffle(30, seed=4, reshuffle_each_iteration=False)
    return [int(x) for x in ds] == [int(x) for x in ds]


def case_shuffle_then_repeat_reshuffles(tf):
    got = [int(x) for x in tf.data.Dataset.range(30).shuffle(30, seed=5).repeat(2)]
    return [sorted(got[:30]) == list(range(30)), sorted(got[30:]) == list(range(30)),
            got[:30] != got[30:]]


def case_shuffle_buffer_of_one_keeps_order(tf):
    return _values(tf.data.Dataset.range(6).shuffle(1, seed=3))


def case_shuffle_with_global_seed_repeats(tf):
    tf.random.set_seed(123)
    a = [int(x) for x in tf.data.Dataset.range(30).shuffle(30)]
    tf.random.set_seed(123)
    b = [int(x) for x in tf.data.Dataset.range(30).shuffle(30)]
    return a == b


def case_shuffle_zero_buffer(tf):
    return tf.data.Dataset.range(5).shuffle(0)


def case_shuffle_infinite_cardinality(tf):
    return tf.data.Dataset.range(3).repeat().shuffle(2).cardinality()


# -- batch, padded_batch, unbatch -----------------------------------------------------------------

def case_batch(tf):
    ds = tf.data.Dataset.range(7).batch(3)
    return [list(ds), repr(ds.element_spec), ds.cardinality(), repr(ds)]


def case_batch_drop_remainder(tf):
    ds = tf.data.Dataset.range(7).batch(3, drop_remainder=True)
    return [list(ds), repr(ds.element_spec), len(ds)]


def case_batch_of_structures(tf):
    features = {"a": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]}
    ds = tf.data.Dataset.from_tensor_slices((features, [1, 2, 3]))
    batched = ds.batch(2)
    return [repr(batched.element_spec), list(batched)]


def case_batch_cardinality(tf):
    d = tf.data.Dataset
    return [d.range(0).batch(2).cardinality(), d.range(3).repeat().batch(2).cardinality(),
            d.range(8).batch(4).cardinality(),
            d.range(9).batch(4, drop_remainder=True).cardinality()]


def case_batch_size_zero(tf):
    return tf.data.Dataset.range(5).batch(0)


def case_batch_of_different_shapes(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda n: tf.range(n)).batch(2)
    return list(ds)


def case_padded_batch_default(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda n: tf.range(n)).padded_batch(2)
    return [_values(ds), repr(ds.element_spec)]


def case_padded_batch_shapes_and_values(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda n: tf.range(n))
    ds = ds.padded_batch(2, padded_shapes=[4], padding_values=-1)
    return [_values(ds), repr(ds.element_spec)]


def case_padded_batch_int_shape(tf):
    ds = tf.data.Dataset.range(3).map(lambda n: tf.range(n)).padded_batch(2, padded_shapes=3)
    return _values(ds)


def case_padded_batch_dict(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2]).map(lambda n: {"ids": tf.range(n), "n": n})
    ds = ds.padded_batch(2, padding_values={"ids": 9, "n": 0})
    return [_values(ds), repr(ds.element_spec)]


def case_padded_batch_matrix(tf):
    ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.fill([n, 2], n))
    ds = ds.padded_batch(2, padded_shapes=(None, None))
    return [list(ds), repr(ds.element_spec)]


def case_padded_batch_drop_remainder(tf):
    ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.fill([n], n))
    ds = ds.padded_batch(2, drop_remainder=True)
    return [list(ds), repr(ds.element_spec)]


def case_padded_batch_too_small(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda n: tf.range(n))
    return list(ds.padded_batch(2, padded_shapes=[2]))


def case_padded_batch_rank_mismatch(tf):
    ds = tf.data.Dataset.range(3).map(lambda n: tf.range(n))
    return ds.padded_batch(2, padded_shapes=[3, 3])


def case_padded_batch_value_dtype_mismatch(tf):
    ds = tf.data.Dataset.range(3).map(lambda n: tf.range(n))
    return ds.padded_batch(2, padding_values=1.5)


def case_unbatch(tf):
    ds = tf.data.Dataset.range(7).batch(3).unbatch()
    return [_values(ds), repr(ds.element_spec), ds.cardinality(), repr(ds)]


def case_unbatch_dict(tf):
    return _values(tf.data.Dataset.from_tensors({"a": [1, 2], "b": [3, 4]}).unbatch())


def case_unbatch_scalars(tf):
    return tf.data.Dataset.range(3).unbatch()


def case_unbatch_mismatched_leading_dims(tf):
    return tf.data.Dataset.from_tensors(([1, 2], [1])).unbatch()


# -- repeat, take, skip, prefetch, cache, enumerate -----------------------------------------------

def case_repeat(tf):
    ds = tf.data.Dataset.range(3).repeat(2)
    return [_values(ds), ds.cardinality(), repr(ds)]


def case_repeat_forever_then_take(tf):
    ds = tf.data.Dataset.range(3).repeat()
    return [_values(ds.take(7)), ds.cardinality(), ds.take(7).cardinality()]


def case_repeat_empty_forever_ends(tf):
    ds = tf.data.Dataset.range(0).repeat()
    return [_values(ds), ds.cardinality()]


def case_take_and_skip(tf):
    ds = tf.data.Dataset.range(6)
    return [_values(ds.take(2)), _values(ds.skip(4)), _values(ds.take(-1)), _values(ds.skip(-1)),
            _values(ds.skip(2).take(2)), repr(ds.take(1)), repr(ds.skip(1))]


def case_cardinality_table(tf):
    d = tf.data.Dataset
    r = d.range(7)
    unknown = r.filter(lambda x: x > 2)
    cases = [r.take(3), r.skip(10), r.skip(3), r.repeat(0), r.take(-1), r.skip(-1),
             r.repeat().take(5), r.repeat().skip(5), unknown.take(2), unknown.skip(2),
             unknown.repeat(), unknown.repeat(2), r.cache(), r.prefetch(1), r.enumerate(),
             r.take_while(lambda x: x < 3), r.concatenate(r.repeat()), r.concatenate(unknown),
             d.zip((r, r.repeat())), d.zip((r, unknown)), r.map(lambda x: x),
             r.shuffle(3), r.batch(2).unbatch(), r.flat_map(lambda x: d.range(x))]
    return [int(c.cardinality()) for c in cases]


def case_experimental_cardinality_and_constants(tf):
    return [tf.data.experimental.cardinality(tf.data.Dataset.range(3)),
            tf.data.AUTOTUNE, tf.data.experimental.AUTOTUNE,
            tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY,
            tf.data.experimental.INFINITE_CARDINALITY, tf.data.experimental.UNKNOWN_CARDINALITY]


def case_len_of_infinite(tf):
    return len(tf.data.Dataset.range(3).repeat())


def case_len_counts_batches(tf):
    return [len(tf.data.Dataset.range(7).batch(2)), bool(tf.data.Dataset.range(3).repeat()),
            isinstance(tf.data.Dataset.range(2), tf.data.Dataset)]


def case_prefetch_and_cache(tf):
    ds = tf.data.Dataset.range(4).map(lambda x: x + 1).cache().prefetch(tf.data.AUTOTUNE)
    return [_values(ds), _values(ds), repr(ds)]


def case_cache_keeps_first_shuffle(tf):
    ds = tf.data.Dataset.range(20).shuffle(20, seed=2).cache()
    return [int(x) for x in ds] == [int(x) for x in ds]


def case_enumerate(tf):
    ds = tf.data.Dataset.from_tensor_slices([7, 8]).enumerate(start=5)
    return [list(ds), repr(ds.element_spec), repr(ds)]


# -- iteration ------------------------------------------------------------------------------------

def case_iter_and_next(tf):
    it = iter(tf.data.Dataset.range(2))
    got = [next(it), next(it)]
    try:
        next(it)
    except StopIteration:
        got.append("stopped")
    return [got, type(it).__name__, repr(it.element_spec)]


def case_get_next_at_end(tf):
    it = iter(tf.data.Dataset.range(1))
    it.get_next()
    return it.get_next()


def case_next_after_end_raises_stop_iteration(tf):
    it = iter(tf.data.Dataset.from_tensors(1))
    next(it)
    return next(it)


def case_get_next_as_optional(tf):
    it = iter(tf.data.Dataset.range(1))
    first = it.get_next_as_optional()
    second = it.get_next_as_optional()
    return [first.has_value(), first.get_value(), second.has_value()]


def case_for_loop_over_dict_batches(tf):
    ds = tf.data.Dataset.from_tensor_slices({"x": [1.0, 2.0, 3.0], "y": [0, 1, 0]}).batch(2)
    out = []
    for batch in ds:
        out.append((batch["x"], batch["y"]))
    return out


def case_as_numpy_iterator_structures(tf):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": ([3.0, 4.0], ["u", "v"])})
    return _values(ds)


def case_dataset_reprs(tf):
    d = tf.data.Dataset
    r = d.range(1)
    return [repr(d.from_tensor_slices([1])), repr(d.from_tensors(1)), repr(r.shuffle(2)),
            repr(r.repeat()), repr(r.prefetch(1)), repr(r.cache()),
            repr(r.filter(lambda x: x > 0)), repr(r.padded_batch(1)),
            repr(r.take_while(lambda x: x < 3)), repr(r.flat_map(lambda x: d.range(x))),
            repr(d.zip((r, r)))]


# -- reduce, scan, take_while, unique, flat_map, interleave, window -------------------------------

def case_reduce_sum(tf):
    return tf.data.Dataset.range(5).reduce(np.int64(0), lambda state, x: state + x)


def case_reduce_tuple_state(tf):
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 4.0])
    return ds.reduce((0.0, 0), lambda s, x: (s[0] + x, s[1] + 1))


def case_reduce_state_dtype_changes(tf):
    return tf.data.Dataset.range(3).reduce(0.0, lambda s, x: tf.cast(x, tf.int32))


def case_take_while(tf):
    ds = tf.data.Dataset.range(10).take_while(lambda x: x < 4)
    return [_values(ds), ds.cardinality()]


def case_take_while_not_bool(tf):
    return tf.data.Dataset.range(3).take_while(lambda x: x)


def case_scan_running_sum(tf):
    ds = tf.data.Dataset.range(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))
    return [_values(ds), repr(ds.element_spec)]


def case_unique(tf):
    return _values(tf.data.Dataset.from_tensor_slices([1, 1, 2, 3, 2, 5]).unique())


def case_flat_map(tf):
    ds = tf.data.Dataset.range(4).flat_map(lambda n: tf.data.Dataset.range(n))
    return [_values(ds), repr(ds.element_spec)]


def case_interleave(tf):
    ds = tf.data.Dataset.range(1, 4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=2)
    return [_values(ds), repr(ds)]


def case_interleave_cycle_one_is_flat_map(tf):
    ds = tf.data.Dataset.range(1, 4).interleave(lambda n: tf.data.Dataset.range(n), cycle_length=1)
    return _values(ds)


def case_window_batches(tf):
    ds = tf.data.Dataset.range(6).window(3, shift=1, drop_remainder=True)
    flat = ds.flat_map(lambda w: w.batch(3))
    return [list(flat), ds.cardinality(), repr(ds.element_spec)]


def case_window_partial(tf):
    return [[_values(w) for w in tf.data.Dataset.range(5).window(2)],
            [_values(w) for w in tf.data.Dataset.range(7).window(3, shift=2, stride=2)]]


def case_single_element(tf):
    return tf.data.Dataset.from_tensors([1, 2]).get_single_element()


def case_single_element_of_two(tf):
    return tf.data.Dataset.range(2).get_single_element()


def case_single_element_of_none(tf):
    return tf.data.Dataset.range(0).get_single_element()


# -- generators, counters, choosing ---------------------------------------------------------------

def _pairs():
    for i in range(3):
        yield i, [1.0] * i


def case_from_generator_signature(tf):
    ds = tf.data.Dataset.from_generator(_pairs, output_signature=(
        tf.TensorSpec(shape=(), dtype=tf.int32), tf.TensorSpec(shape=(None,), dtype=tf.float32)))
    return [list(ds), repr(ds.element_spec), ds.cardinality(), repr(ds)]


def case_from_generator_types_and_shapes(tf):
    ds = tf.data.Dataset.from_generator(_pairs, output_types=(tf.int64, tf.float32),
                                        output_shapes=((), (None,)))
    untyped = tf.data.Dataset.from_generator(_pairs, output_types=(tf.int64, tf.float32))
    return [repr(ds.element_spec), list(ds), repr(untyped.element_spec)]


def case_from_generator_with_args(tf):
    def count_to(n):
        for i in range(n):
            yield i * 2
    ds = tf.data.Dataset.from_generator(count_to, args=[3],
                                        output_signature=tf.TensorSpec((), tf.int64))
    return _values(ds.batch(2))


def case_from_generator_without_signature(tf):
    return tf.data.Dataset.from_generator(_pairs)


def case_counter(tf):
    ds = tf.data.Dataset.counter(5, 2)
    return [_values(ds.take(3)), ds.cardinality(), repr(ds.element_spec)]


def case_choose_from_datasets(tf):
    d = tf.data.Dataset
    letters = [d.from_tensors("a").repeat(), d.from_tensors("b").repeat()]
    choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 0], tf.int64))
    return _values(tf.data.Dataset.choose_from_datasets(letters, choice))


def case_sample_from_datasets_uses_all(tf):
    ds = tf.data.Dataset.sample_from_datasets(
        [tf.data.Dataset.range(5), tf.data.Dataset.range(10, 15)], weights=[0.5, 0.5], seed=3)
    return sorted(int(x) for x in ds)


def case_options(tf):
    options = tf.data.Options()
    options.deterministic = False
    options.experimental_optimization.map_parallelization = True
    ds = tf.data.Dataset.range(3).with_options(options)
    return [_values(ds), ds.options().deterministic,
            tf.data.Dataset.range(1).options().deterministic,
            type(options).__name__, repr(ds)]


def case_apply(tf):
    return _values(tf.data.Dataset.range(6).apply(lambda d: d.skip(2).take(2)))


# -- gradients ------------------------------------------------------------------------------------

def case_gradient_through_map_is_none(tf):
    v = tf.Variable(2.0)
    ds = tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32) * v)
    with tf.GradientTape() as tape:
        total = tf.add_n(list(ds))
    return [total, tape.gradient(total, v), len(tape.watched_variables())]


def case_gradient_of_ops_on_elements(tf):
    w = tf.Variable([[0.5], [-1.0]])
    ds = tf.data.Dataset.from_tensor_slices(([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [1.0, 0.0, 2.0]))
    grads = []
    for x, y in ds.batch(2):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w)
            loss = tf.reduce_mean(tf.square(pred[:, 0] - y))
        grads.append(tape.gradient(loss, w))
    return grads


def case_gradient_through_slices_of_watched_tensor(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.add_n(list(tf.data.Dataset.from_tensor_slices(x * 3.0)))
    return tape.gradient(total, x)


# -- more transformations and edge cases ----------------------------------------------------------

def case_reduce_with_python_int_state_and_int64_elements(tf):
    return tf.data.Dataset.range(5).reduce(0, lambda s, x: s + x)


def case_assert_cardinality(tf):
    ds = tf.data.Dataset.range(5).filter(lambda x: True)
    checked = ds.apply(tf.data.experimental.assert_cardinality(5))
    return [ds.cardinality(), checked.cardinality(), len(checked), _values(checked), repr(checked)]


def case_assert_cardinality_too_few(tf):
    ds = tf.data.Dataset.range(2).apply(tf.data.experimental.assert_cardinality(3))
    return list(ds)


def case_assert_cardinality_too_many(tf):
    ds = tf.data.Dataset.range(5).apply(tf.data.experimental.assert_cardinality(3))
    return list(ds)


def case_random_dataset(tf):
    ds = tf.data.Dataset.random(seed=4)
    values = [int(x) for x in ds.take(5)]
    again = [int(x) for x in tf.data.Dataset.random(seed=4).take(5)]
    return [repr(ds.element_spec), ds.cardinality(), values == again, len(set(values)),
            all(v >= 0 for v in values)]


def case_ignore_errors(tf):
    ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0])
    ds = ds.map(lambda x: tf.debugging.check_numerics(1.0 / x, "inf")).ignore_errors()
    return [_values(ds), ds.cardinality()]


def case_take_int32_tensor_count(tf):
    return tf.data.Dataset.range(5).take(tf.constant(2))


def case_counts_as_int64_tensors(tf):
    d = tf.data.Dataset.range(5)
    return [_values(d.batch(tf.constant(2, tf.int64))), _values(d.skip(np.int64(3))),
            sorted(_values(d.shuffle(tf.constant(5, tf.int64), seed=1)))]


def case_prefetch_negative_buffer(tf):
    return tf.data.Dataset.range(3).prefetch(-5)


def case_unknown_rank_from_generator(tf):
    ds = tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3, 4]]), output_types=tf.int32)
    return [repr(ds.batch(2).element_spec), _values(ds.batch(2)), _values(ds.unbatch()),
            repr(ds.unbatch().element_spec)]


def case_padded_batch_unknown_rank(tf):
    ds = tf.data.Dataset.from_generator(lambda: iter([[1]]), output_types=tf.int32)
    return ds.padded_batch(2)


def case_more_cardinalities(tf):
    d = tf.data.Dataset
    return [int(d.sample_from_datasets([d.range(2), d.range(3)]).cardinality()),
            int(d.sample_from_datasets([d.range(2).repeat(), d.range(3).repeat()]).cardinality()),
            int(d.choose_from_datasets([d.range(2)],
                                       d.from_tensors(tf.constant(0, tf.int64))).cardinality()),
            int(d.range(3).unique().cardinality()),
            int(d.range(3).scan(np.int64(0), lambda s, x: (s, x)).cardinality()),
            int(d.range(3).interleave(lambda x: d.range(x), cycle_length=1).cardinality()),
            int(d.range(7).window(3).cardinality()),
            int(d.range(7).window(3, shift=1, drop_remainder=True).cardinality()),
            int(d.range(10).batch(3).take(2).cardinality()),
            int(d.range(2).repeat().concatenate(d.range(1).filter(lambda x: True)).cardinality())]


def case_unique_of_floats(tf):
    return tf.data.Dataset.from_tensor_slices([1.0]).unique()


def case_from_tensors_ragged_list(tf):
    return tf.data.Dataset.from_tensors([[1, 2], [3]])


def case_slices_of_empty_array(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.zeros((0, 3), np.float32))
    return [repr(ds.element_spec), len(ds), list(ds)]


def case_small_forms(tf):
    d = tf.data.Dataset
    it = iter(d.range(3))
    first = next(it)
    return [repr(d.zip(d.range(2)).element_spec),
            _values(d.from_tensor_slices({"a": [5, 6]}).enumerate()),
            _values(d.range(4).filter(lambda x: np.bool_(True))),
            _values(d.range(2).map(lambda x, y=3: x + y)),
            [first, list(it)],
            _values(d.range(-3)),
            type(d.range(1).as_numpy_iterator()).__name__,
            repr(d.from_tensor_slices(([1], [2.0])).window(1).element_spec)]


def case_dataset_printed(tf):
    print(tf.data.Dataset.from_tensor_slices({"a": [1], "b": ([1.0], ["s"])}))
    print(tf.data.Dataset.range(3).batch(2).element_spec)
    for x in tf.data.Dataset.range(2):
        print(x)


# -- files, shards, grouping ----------------------------------------------------------------------

def _text_files():
    import os
    import tempfile
    folder = tempfile.mkdtemp()
    contents = {"a.txt": "alpha\nbeta\r\ngamma", "b.txt": "one\ntwo\n", "c.txt": ""}
    for name, text in contents.items():
        with open(os.path.join(folder, name), "w", newline="") as f:
            f.write(text)
    return folder, [os.path.join(folder, n) for n in sorted(contents)]


def case_text_line_dataset(tf):
    _, paths = _text_files()
    ds = tf.data.TextLineDataset(paths)
    return [_values(ds), repr(ds), ds.cardinality(),
            _values(tf.data.TextLineDataset(paths[1]).skip(1))]


def case_text_line_dataset_missing_file(tf):
    folder, _ = _text_files()
    return list(tf.data.TextLineDataset(folder + "/missing.txt"))


def case_list_files(tf):
    folder, paths = _text_files()
    shuffled = tf.data.Dataset.list_files(folder + "/*.txt", seed=1)
    ordered = tf.data.Dataset.list_files(folder + "/*.txt", shuffle=False)
    names = lambda ds: [p.decode().rsplit("/", 1)[-1] for p in _values(ds)]  # noqa: E731
    return [sorted(names(shuffled)), names(ordered), repr(ordered), shuffled.cardinality(),
            names(tf.data.Dataset.list_files([paths[1], paths[0]], shuffle=False))]


def case_list_files_without_match(tf):
    folder, _ = _text_files()
    return tf.data.Dataset.list_files(folder + "/*.csv")


def case_shard(tf):
    ds = tf.data.Dataset.range(10)
    return [_values(ds.shard(3, 1)), ds.shard(3, 1).cardinality(), ds.shard(3, 0).cardinality(),
            repr(ds.shard(3, 1))]


def case_shard_index_too_large(tf):
    return tf.data.Dataset.range(10).shard(3, 3)


def case_shard_zero_shards(tf):
    return tf.data.Dataset.range(10).shard(0, 0)


def case_group_by_window(tf):
    ds = tf.data.Dataset.range(10).group_by_window(lambda x: x % 2, lambda k, w: w.batch(3),
                                                   window_size=3)
    keys = tf.data.Dataset.from_tensor_slices([5, 1, 5, 3, 1, 3, 7]).group_by_window(
        lambda x: tf.cast(x, tf.int64), lambda k, w: w.batch(5), window_size=2)
    return [list(ds), repr(ds), ds.cardinality(), list(keys)]


def case_group_by_window_size_func_and_key(tf):
    d = tf.data.Dataset
    sized = d.range(9).group_by_window(lambda x: x % 3, lambda k, w: w.batch(10),
                                       window_size_func=lambda k: k + 1)
    keyed = d.range(6).group_by_window(lambda x: x % 2, lambda k, w: w.map(lambda v: v * 10 + k),
                                       window_size=2)
    return [list(sized), _values(keyed)]


def case_group_by_window_int32_key(tf):
    return tf.data.Dataset.range(6).group_by_window(lambda x: tf.cast(x, tf.int32),
                                                    lambda k, w: w, window_size=2)


def case_group_by_window_both_sizes(tf):
    return tf.data.Dataset.range(6).group_by_window(lambda x: x, lambda k, w: w, window_size=2,
                                                    window_size_func=lambda k: k)


def _sequences(tf):
    seqs = [[1], [2, 2], [3, 3, 3], [4, 4, 4, 4], [5], [6, 6, 6, 6, 6, 6]]
    return tf.data.Dataset.from_generator(lambda: iter(seqs),
                                          output_signature=tf.TensorSpec((None,), tf.int32))


def case_bucket_by_sequence_length(tf):
    def bucketed(**kw):
        return _sequences(tf).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5],
                                                        [2, 2, 2], **kw)
    return [list(bucketed()), repr(bucketed().element_spec), list(bucketed(drop_remainder=True)),
            list(bucketed(padding_values=-1)),
            list(_sequences(tf).apply(tf.data.experimental.bucket_by_sequence_length(
                lambda x: tf.shape(x)[0], [3], [2, 2])))]


def case_bucket_to_boundary_too_long(tf):
    ds = _sequences(tf).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 2],
                                                  pad_to_bucket_boundary=True)
    return list(ds)


def case_bucket_to_boundary(tf):
    ds = _sequences(tf).take(4).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5],
                                                          [2, 2, 2], pad_to_bucket_boundary=True)
    return list(ds)


def case_bucket_sizes_mismatch(tf):
    return _sequences(tf).bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2])


def case_experimental_helpers(tf):
    d = tf.data.Dataset
    return [tf.data.experimental.SHARD_HINT,
            [m.name for m in tf.data.experimental.AutotuneAlgorithm],
            repr(tf.data.experimental.get_structure(d.range(2))),
            tf.data.experimental.at(d.range(10), 3),
            tf.data.experimental.at(d.range(10).map(lambda x: x * 2), 4),
            repr(tf.data.experimental.Counter(2)),
            _values(tf.data.experimental.Counter(2).take(2)),
            repr(tf.data.experimental.RandomDataset(seed=1)),
            tf.data.experimental.RandomDataset(seed=1).cardinality(),
            repr(tf.data.IteratorSpec(tf.TensorSpec([], tf.int32)))]


def case_experimental_at_out_of_range(tf):
    return tf.data.experimental.at(tf.data.Dataset.range(3), 5)


def case_experimental_transformations(tf):
    d = tf.data.Dataset
    shuffled = d.range(4).apply(tf.data.experimental.shuffle_and_repeat(4, count=2, seed=1))
    mapped = d.range(5).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 2))
    exact = d.range(5).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 2,
                                                                drop_remainder=True))
    woven = d.range(1, 4).apply(tf.data.experimental.parallel_interleave(
        lambda x: d.from_tensors(x).repeat(3), cycle_length=2, block_length=2))
    moved = d.range(3).apply(tf.data.experimental.prefetch_to_device("/cpu:0"))
    copied = d.range(3).apply(tf.data.experimental.copy_to_device("/cpu:0"))
    padded = d.from_tensor_slices({"a": [1, 2]}).apply(tf.data.experimental.pad_to_cardinality(4))
    sums = tf.data.experimental.Reducer(lambda k: np.int64(0), lambda s, x: s + x, lambda s: s)
    reduced = d.range(10).apply(tf.data.experimental.group_by_reducer(lambda x: x % 2, sums))
    grouped = d.range(6).apply(tf.data.experimental.group_by_window(
        lambda x: x % 2, lambda k, w: w.batch(3), window_size=3))
    return [sorted(_values(shuffled)), repr(shuffled), list(mapped), repr(exact.element_spec),
            repr(mapped), _values(woven), repr(woven), _values(moved), repr(moved), repr(copied),
            _values(padded), _values(reduced), list(grouped)]


def case_experimental_spellings_of_dataset_methods(tf):
    d = tf.data.Dataset
    pairs = d.from_tensor_slices(([1, 2], [3, 4]))
    listed = tf.data.experimental.from_list([(1, "a"), (2, "b")])
    optional = tf.data.experimental.get_next_as_optional(iter(d.range(1)))
    made = tf.data.experimental.Optional.from_value(tf.constant([1, 2]))
    fixed = d.from_tensor_slices([1.0, 0.0]).map(
        lambda x: tf.debugging.check_numerics(1.0 / x, "x"))
    choice = d.from_tensor_slices(tf.constant([1, 0], tf.int64))
    return [_values(pairs.apply(tf.data.experimental.enumerate_dataset(start=3))),
            _values(listed), repr(listed.element_spec),
            [optional.has_value(), optional.get_value()], [made.has_value(), made.get_value()],
            repr(made.element_spec),
            tf.data.experimental.get_single_element(d.from_tensors(7)),
            _values(fixed.apply(tf.data.experimental.ignore_errors())),
            sorted(_values(tf.data.experimental.sample_from_datasets([d.range(2), d.range(5, 7)],
                                                                     seed=1))),
            _values(tf.data.experimental.choose_from_datasets([d.range(2), d.range(5, 7)], choice)),
            _values(d.range(4).apply(tf.data.experimental.scan(
                np.int64(0), lambda s, x: (s + x, s)))),
            _values(d.range(6).apply(tf.data.experimental.take_while(lambda x: x < 2))),
            _values(d.from_tensors([5, 6]).apply(tf.data.experimental.unbatch())),
            _values(d.from_tensor_slices([3, 3, 4]).apply(tf.data.experimental.unique()))]


def case_options_classes_and_specs(tf):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = \
        tf.data.experimental.AutoShardPolicy.DATA
    options.experimental_external_state_policy = tf.data.experimental.ExternalStatePolicy.WARN
    options.threading.private_threadpool_size = 4
    options.autotune.enabled = False
    ds = tf.data.Dataset.range(3).with_options(options)
    got = ds.options()
    window_spec = tf.data.Dataset.range(4).window(2).element_spec
    it = iter(tf.data.Dataset.range(2))
    return [got.experimental_distribute.auto_shard_policy.name,
            int(tf.data.experimental.AutoShardPolicy.OFF),
            got.threading.private_threadpool_size, got.autotune.enabled,
            [type(x).__name__ for x in (tf.data.ThreadingOptions(),
                                       tf.data.experimental.ThreadingOptions(),
                                       tf.data.experimental.AutotuneOptions(),
                                       tf.data.experimental.DistributeOptions(),
                                       tf.data.experimental.OptimizationOptions())],
            isinstance(window_spec, tf.data.DatasetSpec), repr(window_spec),
            isinstance(it, tf.data.Iterator),
            isinstance(tf.data.Dataset.range(1).as_numpy_iterator(), tf.data.NumpyIterator)]


NOTES = {
    "tf.data.Dataset": "functions given to map/filter/reduce run eagerly for every element "
                       "(TF traces them once); element_spec is learned from the first two "
                       "elements; shuffle order differs from TF's (same contract: a "
                       "permutation, repeatable with a seed, reshuffled per epoch); no tape "
                       "sees a pipeline's ops (a gradient through map is None, as in TF); "
                       "matched quirks: range() ignores dtype=, repeat() of an unknown-length "
                       "dataset is infinite, take/batch/skip refuse an int32 tensor count",
    "tf.data.Options": "kept and merged as in TF; no effect (no threads)",
    "tf.data.experimental.bucket_by_sequence_length": "too long a sequence with "
                       "pad_to_bucket_boundary raises InternalError, as in TF",
}


# -- CSV ------------------------------------------------------------------------------------------

def _csv_file():
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "titanic.csv")
    with open(path, "w", newline="") as f:
        f.write('name,age,score,survived\nada,30,1.5,1\nbob,,2.5,0\n"c, d",40,?,1\neve,22,3.0,0\n')
    return path


def _spec_items(spec):
    return [type(spec).__name__, [(k, repr(v)) for k, v in spec.items()]]


def _batches(ds):
    out = []
    for element in ds.as_numpy_iterator():
        features, label = element if isinstance(element, tuple) else (element, None)
        out.append(([(k, v.tolist()) for k, v in features.items()],
                    None if label is None else label.tolist()))
    return out


def case_csv_dataset(tf):
    path = _csv_file()
    typed = tf.data.experimental.CsvDataset(path, ["", 0, 0.0, tf.int64], header=True,
                                            na_value="?")
    picked = tf.data.experimental.CsvDataset(path, [0.0, tf.int64], header=True,
                                             select_cols=[2, 3], na_value="?")
    return [_values(typed), repr(typed), _values(picked), repr(picked.element_spec),
            picked.cardinality()]


def case_csv_dataset_required_field_missing(tf):
    ds = tf.data.experimental.CsvDataset(_csv_file(), [tf.string, tf.int32, tf.float32, tf.int64],
                                         header=True, na_value="?")
    return list(ds)


def case_csv_dataset_bad_number(tf):
    ds = tf.data.experimental.CsvDataset(_csv_file(), [tf.int32, 0, 0.0, tf.int64], header=True)
    return list(ds)


def case_make_csv_dataset(tf):
    ds = tf.data.experimental.make_csv_dataset(_csv_file(), batch_size=3, label_name="survived",
                                               na_value="?", num_epochs=1, shuffle=False)
    features_spec, label_spec = ds.element_spec
    return [_batches(ds), _spec_items(features_spec), repr(label_spec), ds.cardinality()]


def case_make_csv_dataset_repeats_forever(tf):
    ds = tf.data.experimental.make_csv_dataset(_csv_file(), batch_size=3, label_name="survived",
                                               na_value="?", shuffle_seed=2)
    features_spec, label_spec = ds.element_spec
    ages = sorted(a for f, _ in ds.take(4).as_numpy_iterator() for a in f["age"].tolist())
    return [_spec_items(features_spec), repr(label_spec), ds.cardinality(), ages]


def case_make_csv_dataset_columns_and_defaults(tf):
    path = _csv_file()
    make = tf.data.experimental.make_csv_dataset
    picked = make(path, batch_size=4, na_value="?", num_epochs=1, shuffle=False,
                  select_columns=["age", "name"])
    defaults = make(path, batch_size=4, na_value="?", num_epochs=1, shuffle=False,
                    column_defaults=["x", 0.0, 0.0, 0])
    inferred = make(path, batch_size=4, na_value="?", num_epochs=1, shuffle=False)
    return [_batches(picked), _batches(defaults), _spec_items(inferred.element_spec),
            type(next(iter(inferred))).__name__]


def case_make_csv_dataset_unknown_label(tf):
    return tf.data.experimental.make_csv_dataset(_csv_file(), batch_size=3, label_name="nope",
                                                 num_epochs=1)


# -- record files ---------------------------------------------------------------------------------

def _masked_crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _record_file(records, corrupt=False, cut=0):
    """A TFRecord file written by hand: length, its checksum, data, its checksum."""
    import os
    import struct
    import tempfile
    out = b""
    for r in records:
        n = struct.pack("<Q", len(r))
        check = _masked_crc32c(r) ^ (1 if corrupt else 0)
        out += n + struct.pack("<I", _masked_crc32c(n)) + r + struct.pack("<I", check)
    path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
    with open(path, "wb") as f:
        f.write(out[:len(out) - cut])
    return path


def case_tfrecord_dataset(tf):
    path = _record_file([b"first", b"", b"third record"])
    ds = tf.data.TFRecordDataset(path)
    return [_values(ds), repr(ds), ds.cardinality(),
            _values(tf.data.TFRecordDataset([path, path]).take(4))]


def case_tfrecord_dataset_corrupted(tf):
    return list(tf.data.TFRecordDataset(_record_file([b"x"], corrupt=True)))


def case_tfrecord_dataset_truncated(tf):
    return list(tf.data.TFRecordDataset(_record_file([b"first", b"", b"third"], cut=3)))


def _binary_file(content):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "data.bin")
    with open(path, "wb") as f:
        f.write(content)
    return path


def case_fixed_length_record_dataset(tf):
    path = _binary_file(b"HHabcdefghFF")
    ds = tf.data.FixedLengthRecordDataset(path, 4, header_bytes=2, footer_bytes=2)
    return [_values(ds), repr(ds), ds.cardinality(),
            _values(tf.data.FixedLengthRecordDataset(path, 5, header_bytes=2))]


def case_fixed_length_record_dataset_uneven(tf):
    return list(tf.data.FixedLengthRecordDataset(_binary_file(b"HHabcdefghFF"), 5))


def case_rebatch(tf):
    d = tf.data.Dataset
    again = d.range(10).batch(4).rebatch(3)
    exact = d.range(10).batch(4).rebatch(3, drop_remainder=True)
    cycled = d.range(10).batch(4).rebatch([2, 3])
    pairs = d.from_tensor_slices(([[1, 2], [3, 4], [5, 6]], [7, 8, 9])).batch(2).rebatch(1)
    return [repr(again), list(again), again.cardinality(), repr(exact.element_spec), list(exact),
            repr(cycled.element_spec), list(cycled), repr(pairs.element_spec), list(pairs)]


def case_rebatch_of_scalars(tf):
    return tf.data.Dataset.range(3).rebatch(2)


def case_unbatch_cardinality(tf):
    """unbatch knows its count when every element's leading dimension is known and not zero."""
    D = tf.data.Dataset
    return [D.from_tensor_slices(tf.zeros([4, 3, 1])).unbatch().cardinality(),
            D.from_tensor_slices(tf.zeros([4, 3, 1])).repeat().unbatch().cardinality(),
            D.from_tensor_slices(tf.zeros([4, 3, 1])).filter(lambda x: True).unbatch().cardinality(),
            D.from_tensor_slices(tf.zeros([4, 0, 2])).unbatch().cardinality(),
            D.from_tensor_slices((tf.zeros([4, 3]), tf.zeros([4, 3]))).unbatch().cardinality(),
            D.range(3).batch(2).unbatch().cardinality(),
            D.range(4).batch(2, drop_remainder=True).unbatch().cardinality()]


# --- where tapegrad's message is its own -----------------------------------------------------------
case_bucket_to_boundary_too_long.message_differs = (
    "TensorFlow wraps its assertion's data (x and y of 'x < y'); tapegrad gives the rule and the "
    "length", ("When pad_to_bucket_boundary=True, elements must have length < "
               "max(bucket_boundaries)", "got length 6"))
case_from_tensors_none.message_differs = (
    "TensorFlow reports its op's attribute ('Length for attr 'output_shapes' of 0 must be at "
    "least minimum 1'); tapegrad says that an element cannot be None",
    ("A dataset element cannot be None",))
case_group_by_window_int32_key.message_differs = (
    "TensorFlow names the traced graph tensor ('Cast:0'); tapegrad, which runs the key function "
    "eagerly, shows its value", ("Tensor conversion requested dtype int64 for Tensor with dtype "
                                 "int32",))
case_reduce_with_python_int_state_and_int64_elements.message_differs = (
    "TensorFlow's graph-mode wording ('Input 'y' of 'AddV2' Op has type int64 that does not "
    "match type int32'); tapegrad gives the eager sentence and says why it is a TypeError",
    ("AddV2", "int32", "int64", "TypeError for mixed dtypes"))
