"""Reductions of RaggedTensors of any ragged rank, as the "Ragged tensors" guide and the API pages
of tf.math.reduce_* describe them: every axis (the outer rows, a ragged axis, a uniform inner
axis), negative axes, lists of axes, keepdims, empty rows (max's lowest value, mean's NaN), the
reductions TensorFlow dispatches for ragged inputs (sum, prod, min, max, mean, variance, std, all,
any), tf.expand_dims of a RaggedTensor (keepdims uses it), gradients through the values, a
reduction inside a tf.function, and axes out of range."""

# What the coverage table says of these names (build/coverage.py reads it).
NOTES = {
    'tf.math.reduce_variance':
        'TensorFlow quirk matched: of a RaggedTensor it is max(mean(x²) − mean(x)², 0), which '
        'loses float32 precision for values far from zero (10001, 10002, 10004 give 16, not '
        '1.56); a dense tensor\'s is computed from the deviations.',
    'tf.math.reduce_std':
        'TensorFlow quirk matched: of a RaggedTensor, the square root of that variance.',
}


def _two_level(tf, dtype=None):
    """Three documents of sentences of word scores; the last document is empty."""
    return tf.ragged.constant([[[1.0, 2.0], [3.0]], [[4.0]], []], dtype=dtype)


def _show(outs):
    for o in outs:
        print(o)
    return [o.to_list() if hasattr(o, "to_list") else o for o in outs]


def case_sum_over_each_axis(tf):
    rt = _two_level(tf)
    return _show([tf.reduce_sum(rt, axis=a) for a in (None, 0, 1, 2, -1, -2, -3)])


def case_sum_keepdims(tf):
    rt = _two_level(tf)
    outs = [tf.reduce_sum(rt, axis=a, keepdims=True) for a in (None, 0, 1, 2)]
    return _show(outs) + [[o.shape.as_list() for o in outs]]


def case_sum_over_lists_of_axes(tf):
    rt = _two_level(tf)
    axes = ([1, 2], [0, 2], [0, 1], [0, 1, 2], [-1, 0], [2, 1], (1,))
    return _show([tf.reduce_sum(rt, axis=list(a) if isinstance(a, list) else a) for a in axes])


def case_sum_over_lists_of_axes_keepdims(tf):
    rt = _two_level(tf)
    outs = [tf.reduce_sum(rt, axis=a, keepdims=True) for a in ([1, 2], [0, 2], [0, 1])]
    return _show(outs) + [[o.shape.as_list() for o in outs]]


def case_max_min_prod_with_empty_rows(tf):
    rt = _two_level(tf)
    outs = []
    for op in (tf.reduce_max, tf.reduce_min, tf.reduce_prod):
        outs += [op(rt, axis=a) for a in (None, 0, 1, 2)]
    return _show(outs)


def case_mean_over_axes(tf):
    rt = _two_level(tf)
    outs = [tf.reduce_mean(rt, axis=a) for a in (None, 0, 1, 2, [1, 2], [0, 1])]
    outs.append(tf.reduce_mean(rt, axis=1, keepdims=True))
    return _show(outs)


def case_integer_values_and_int32_splits(tf):
    rt = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]], row_splits_dtype=tf.int32)
    outs = [tf.reduce_sum(rt, axis=a) for a in (None, 0, 1, 2)]
    outs += [tf.reduce_max(rt, axis=1), tf.reduce_prod(rt, axis=2), tf.reduce_mean(rt, axis=2)]
    shown = _show(outs)
    return shown + [[o.dtype.name for o in outs],
                    [o.row_splits.dtype.name for o in outs if hasattr(o, "row_splits")]]


def case_uniform_inner_axis(tf):
    """ragged_rank 1 over pairs: the last axis is a dense one."""
    rt = tf.ragged.constant([[[1.0, 10.0], [2.0, 20.0]], [], [[3.0, 30.0]]], ragged_rank=1)
    outs = [tf.reduce_sum(rt, axis=a) for a in (None, 0, 1, 2, -1, [1, 2], [0, 2])]
    outs += [tf.reduce_max(rt, axis=1), tf.reduce_mean(rt, axis=0),
             tf.reduce_sum(rt, axis=2, keepdims=True), tf.reduce_sum(rt, axis=1, keepdims=True)]
    return _show(outs)


def case_all_and_any(tf):
    flags = tf.ragged.constant([[[True, False], [True]], [[True]], []])
    outs = []
    for op in (tf.reduce_all, tf.reduce_any):
        outs += [op(flags, axis=a) for a in (None, 0, 1, 2)]
    outs.append(tf.reduce_any(flags, axis=2, keepdims=True))
    return _show(outs) + [[o.dtype.name for o in outs]]


def case_variance_and_std(tf):
    rt = tf.ragged.constant([[1.0, 2.0, 4.0], [3.0], []])
    outs = [tf.math.reduce_variance(rt, axis=a) for a in (None, 0, 1)]
    outs += [tf.math.reduce_std(rt, axis=a) for a in (None, 0, 1)]
    outs.append(tf.math.reduce_variance(_two_level(tf), axis=2))
    # a large offset: the result shows how the variance is computed in float32
    outs.append(tf.math.reduce_variance(tf.ragged.constant([[10001.0, 10002.0, 10004.0], [7.0]]),
                                        axis=1))
    return _show(outs)


def case_expand_dims(tf):
    rt = _two_level(tf)
    outs = [tf.expand_dims(rt, a) for a in (0, 1, 2, 3, -1, -4)]
    return _show(outs) + [[o.shape.as_list() for o in outs], [o.ragged_rank for o in outs]]


def case_gradients_through_the_values(tf):
    values = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0])
    with tf.GradientTape(persistent=True) as tape:
        rt = tf.RaggedTensor.from_nested_row_lengths(values, [[2, 1, 0], [2, 1, 2]])
        by_doc = tf.reduce_sum(rt, axis=[1, 2])
        loss_sum = tf.reduce_sum(by_doc * tf.constant([1.0, 10.0, 100.0]))
        loss_max = tf.reduce_sum(tf.reduce_max(rt, axis=2).flat_values)
        loss_first = tf.reduce_sum(tf.reduce_max(rt, axis=0).flat_values * tf.constant([1.0, 2.0, 3.0]))
        loss_mean = tf.reduce_sum(tf.reduce_mean(rt, axis=1).flat_values)
    grads = [tape.gradient(loss, values) for loss in (loss_sum, loss_max, loss_first, loss_mean)]
    return [by_doc] + [tf.convert_to_tensor(g) for g in grads]


def case_reduction_inside_a_function(tf):
    @tf.function
    def per_sentence_and_document(x):
        return tf.reduce_sum(x, axis=2), tf.reduce_max(x, axis=1), tf.reduce_mean(x, axis=[1, 2])

    a, b, c = per_sentence_and_document(_two_level(tf))
    print(a)
    print(b)
    return [a.to_list(), b.to_list(), c]


def case_axis_out_of_range(tf):
    out = []
    for axis in (3, -4, [0, 3]):
        try:
            tf.reduce_sum(_two_level(tf), axis=axis)
            out.append("no error")
        except Exception as e:   # noqa: BLE001  (the class is what is compared)
            out.append(type(e).__name__)
    try:
        tf.expand_dims(_two_level(tf), 5)
        out.append("no error")
    except Exception as e:   # noqa: BLE001
        out.append(type(e).__name__)
    return out
