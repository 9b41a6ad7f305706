"""tf.nn convolutions beyond conv2d, N-d pooling, space/depth rearrangements and LRN: values,
gradients with respect to inputs and filters, shapes and the errors of TensorFlow's CPU kernels."""

NOTES = {
    'tf.nn.max_pool':
        'TensorFlow quirk matched: on a rank-5 input without data_format, the gradient fails '
        '(AttributeError) as TensorFlow\'s MaxPool3D/AvgPool3D gradient does.',
    'tf.nn.convolution':
        'TensorFlow quirks matched: explicit padding lists are refused (TypeError); a 3-D '
        'convolution without data_format has a failing gradient (AttributeError), as in TensorFlow.',
    'tf.conv':
        'As TensorFlow 2.21: no gradient (LookupError) and groups > 1 unimplemented on CPU.',
    'tf.conv2d_backprop_input_v2': 'As TensorFlow 2.21 on CPU: no kernel (NotFoundError).',
    'tf.conv2d_backprop_filter_v2': 'As TensorFlow 2.21 on CPU: no kernel (NotFoundError).',
    'tf.nn.depthwise_conv2d':
        'TensorFlow quirk matched: with dilations > 1 and strides > 1 (which TensorFlow only '
        'warns about) the strides apply to the space-to-batch grid, as TensorFlow computes it.',
    'tf.nn.conv2d_transpose':
        'As TensorFlow on CPU: dilations > 1 and NCHW are refused (InvalidArgumentError).',
    'tf.nn.conv3d':
        'As TensorFlow on CPU: dilations > 1 and NCDHW are refused (InvalidArgumentError).',
}


def _vals(tf, shape, scale=0.7, offset=0.0):
    n = 1
    for d in shape:
        n *= d
    return tf.reshape(tf.sin(tf.range(n, dtype=tf.float32) * scale + offset), shape)


def _grads(tf, fn, *args):
    """fn(*args) and the gradients of a weighted sum of it with respect to every argument."""
    args = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(args)
        y = fn(*args)
        loss = tf.reduce_sum(y * _vals(tf, y.shape, 1.3, 0.5))
    return [y, tape.gradient(loss, args)]


def _x4(tf, shape=(2, 5, 5, 3)):
    return _vals(tf, shape)


# -- conv2d_transpose / conv1d_transpose / conv3d_transpose / conv_transpose ----------------------
def case_conv2d_transpose_same_stride2(tf):
    return _grads(tf, lambda x, w: tf.nn.conv2d_transpose(x, w, [2, 10, 10, 4], 2, "SAME"),
                  _x4(tf, (2, 5, 5, 3)), _vals(tf, (3, 3, 4, 3), 0.3))


def case_conv2d_transpose_valid_stride2_odd(tf):
    return _grads(tf, lambda x, w: tf.nn.conv2d_transpose(x, w, [1, 7, 8, 2], [2, 2], "VALID"),
                  _x4(tf, (1, 3, 3, 3)), _vals(tf, (3, 4, 2, 3), 0.3))


def case_conv2d_transpose_explicit_padding(tf):
    return _grads(tf, lambda x, w: tf.nn.conv2d_transpose(
        x, w, tf.constant([1, 9, 8, 2]), 2, [[0, 0], [1, 1], [1, 2], [0, 0]]),
        _x4(tf, (1, 5, 5, 3)), _vals(tf, (3, 3, 2, 3), 0.3))


def case_conv2d_transpose_same_stride1_is_conv_gradient(tf):
    x = _x4(tf, (1, 4, 4, 2))
    w = _vals(tf, (3, 3, 3, 2), 0.4)
    return _grads(tf, lambda x, w: tf.nn.conv2d_transpose(x, w, [1, 4, 4, 3], 1, "SAME"), x, w)


def case_conv2d_transpose_output_shape_mismatch(tf):
    return tf.nn.conv2d_transpose(_x4(tf, (1, 5, 5, 3)), _vals(tf, (3, 3, 2, 3)),
                                  [1, 12, 12, 2], 2, "SAME")


def case_conv2d_transpose_dilations_refused_on_cpu(tf):
    return tf.nn.conv2d_transpose(_x4(tf, (1, 5, 5, 3)), _vals(tf, (3, 3, 2, 3)),
                                  [1, 9, 9, 2], 1, "VALID", dilations=2)


def case_conv2d_transpose_nchw_refused_on_cpu(tf):
    return tf.nn.conv2d_transpose(_x4(tf, (1, 3, 5, 5)), _vals(tf, (3, 3, 2, 3)),
                                  [1, 2, 10, 10], 2, "SAME", data_format="NCHW")


def case_conv2d_transpose_channel_mismatch(tf):
    return tf.nn.conv2d_transpose(_x4(tf, (1, 5, 5, 3)), _vals(tf, (3, 3, 2, 4)),
                                  [1, 10, 10, 2], 2, "SAME")


def case_conv1d_transpose_same_stride2(tf):
    return _grads(tf, lambda x, w: tf.nn.conv1d_transpose(x, w, [2, 10, 2], 2, "SAME"),
                  _vals(tf, (2, 5, 3)), _vals(tf, (3, 2, 3), 0.3))


def case_conv1d_transpose_valid(tf):
    return _grads(tf, lambda x, w: tf.nn.conv1d_transpose(x, w, [1, 8, 2], 1, "VALID"),
                  _vals(tf, (1, 6, 3)), _vals(tf, (3, 2, 3), 0.3))


def case_conv3d_transpose_same_stride2(tf):
    return _grads(tf, lambda x, w: tf.nn.conv3d_transpose(x, w, [1, 6, 4, 6, 2], 2, "SAME"),
                  _vals(tf, (1, 3, 2, 3, 3)), _vals(tf, (2, 2, 3, 2, 3), 0.3))


def case_conv3d_transpose_valid(tf):
    return _grads(tf, lambda x, w: tf.nn.conv3d_transpose(
        x, w, [1, 4, 5, 4, 2], [1, 1, 2, 1, 1], "VALID"),
        _vals(tf, (1, 3, 2, 3, 2)), _vals(tf, (2, 3, 2, 2, 2), 0.3))


def case_conv_transpose_dispatches_by_rank(tf):
    y1 = tf.nn.conv_transpose(_vals(tf, (1, 4, 2)), _vals(tf, (2, 3, 2)), [1, 8, 3], 2)
    y2 = tf.nn.conv_transpose(_vals(tf, (1, 2, 3, 2)), _vals(tf, (2, 2, 3, 2)), [1, 4, 6, 3], 2)
    y3 = tf.nn.conv_transpose(_vals(tf, (1, 2, 2, 2, 2)), _vals(tf, (2, 2, 2, 1, 2)),
                              [1, 4, 4, 4, 1], 2, "VALID")
    return [y1, y2, y3]


def case_conv_transpose_second_order(tf):
    """conv2d_transpose's gradient is a conv2d; the gradient of that gradient is a transpose."""
    x = tf.constant(_x4(tf, (1, 3, 3, 2)))
    w = tf.constant(_vals(tf, (2, 2, 3, 2), 0.4))
    with tf.GradientTape() as outer:
        outer.watch(w)
        with tf.GradientTape() as inner:
            inner.watch([x, w])
            y = tf.nn.conv2d_transpose(x, w, [1, 6, 6, 3], 2, "SAME")
            loss = tf.reduce_sum(y * y)
        gx = inner.gradient(loss, x)
        z = tf.reduce_sum(gx * _vals(tf, gx.shape, 0.9))
    return [gx, outer.gradient(z, w)]


# -- conv3d and convolution -------------------------------------------------------------------------
def case_conv3d_same_and_valid(tf):
    x = _vals(tf, (2, 4, 5, 3, 2))
    w = _vals(tf, (2, 3, 2, 2, 3), 0.3)
    return [_grads(tf, lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "SAME"), x, w),
            _grads(tf, lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 2, 1], "VALID"), x, w)]


def case_conv3d_dilations_refused_on_cpu(tf):
    return tf.nn.conv3d(_vals(tf, (1, 5, 5, 5, 1)), _vals(tf, (2, 2, 2, 1, 1)),
                        [1, 1, 1, 1, 1], "SAME", dilations=[1, 2, 2, 2, 1])


def case_conv3d_ncdhw_refused_on_cpu(tf):
    return tf.nn.conv3d(_vals(tf, (1, 1, 5, 5, 5)), _vals(tf, (2, 2, 2, 1, 1)),
                        [1, 1, 1, 1, 1], "SAME", data_format="NCDHW")


def case_conv3d_int_strides_refused(tf):
    return tf.nn.conv3d(_vals(tf, (1, 5, 5, 5, 1)), _vals(tf, (2, 2, 2, 1, 1)), 1, "SAME")


def case_convolution_by_rank(tf):
    return [
        _grads(tf, lambda x, w: tf.nn.convolution(x, w, padding="SAME"),
               _vals(tf, (2, 7, 3)), _vals(tf, (3, 3, 2), 0.3)),
        _grads(tf, lambda x, w: tf.nn.convolution(x, w, strides=2, padding="SAME"),
               _x4(tf, (1, 6, 5, 3)), _vals(tf, (3, 2, 3, 2), 0.3)),
        tf.nn.convolution(_vals(tf, (1, 4, 5, 3, 2)), _vals(tf, (2, 2, 2, 2, 2), 0.3),
                          strides=[1, 2, 1], padding="VALID"),
    ]


def case_convolution_3d_gradient_without_data_format(tf):
    """TensorFlow's Conv3D gradient reads a data_format attribute tf.nn.convolution left unset."""
    return _grads(tf, lambda x, w: tf.nn.convolution(x, w, padding="VALID"),
                  _vals(tf, (1, 4, 5, 3, 2)), _vals(tf, (2, 2, 2, 2, 2), 0.3))


def case_convolution_3d_gradient_with_data_format(tf):
    return _grads(tf, lambda x, w: tf.nn.convolution(x, w, padding="VALID", data_format="NDHWC"),
                  _vals(tf, (1, 4, 5, 3, 2)), _vals(tf, (2, 2, 2, 2, 2), 0.3))


def case_convolution_dilated_2d(tf):
    return _grads(tf, lambda x, w: tf.nn.convolution(x, w, padding="SAME", dilations=2),
                  _x4(tf, (1, 7, 6, 2)), _vals(tf, (3, 3, 2, 2), 0.3))


def case_convolution_dilated_1d(tf):
    return _grads(tf, lambda x, w: tf.nn.convolution(x, w, padding="VALID", dilations=[2]),
                  _vals(tf, (1, 9, 2)), _vals(tf, (3, 2, 2), 0.3))


def case_convolution_dilated_3d(tf):
    return _grads(tf, lambda x, w: tf.nn.convolution(x, w, padding="SAME", dilations=2),
                  _vals(tf, (1, 5, 5, 4, 1)), _vals(tf, (2, 2, 2, 1, 2), 0.3))


def case_convolution_explicit_padding(tf):
    return _grads(tf, lambda x, w: tf.nn.convolution(x, w, padding=[[0, 0], [1, 0], [2, 1], [0, 0]]),
                  _x4(tf, (1, 4, 4, 2)), _vals(tf, (3, 3, 2, 2), 0.3))


def case_convolution_rank_mismatch(tf):
    return tf.nn.convolution(_vals(tf, (1, 5, 5, 2)), _vals(tf, (3, 2, 2)), padding="SAME")


def case_convolution_nchw_refused_on_cpu(tf):
    return tf.nn.convolution(_vals(tf, (1, 2, 5, 5)), _vals(tf, (3, 3, 2, 2)), padding="SAME",
                             data_format="NCHW")


def case_atrous_conv2d(tf):
    x, w = _x4(tf, (1, 7, 7, 2)), _vals(tf, (3, 3, 2, 3), 0.3)
    return [_grads(tf, lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), x, w),
            _grads(tf, lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "VALID"), x, w)]


def case_atrous_conv2d_transpose(tf):
    x, w = _x4(tf, (1, 6, 6, 2)), _vals(tf, (3, 3, 3, 2), 0.3)
    return [_grads(tf, lambda x, w: tf.nn.atrous_conv2d_transpose(x, w, [1, 6, 6, 3], 2, "SAME"),
                   x, w),
            _grads(tf, lambda x, w: tf.nn.atrous_conv2d_transpose(x, w, [1, 10, 10, 3], 2,
                                                                  "VALID"), x, w)]


# -- depthwise and separable ------------------------------------------------------------------------
def case_depthwise_conv2d_same_multiplier2(tf):
    return _grads(tf, lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME"),
                  _x4(tf, (2, 5, 4, 3)), _vals(tf, (3, 3, 3, 2), 0.3))


def case_depthwise_conv2d_valid_strided(tf):
    return _grads(tf, lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "VALID"),
                  _x4(tf, (1, 7, 6, 2)), _vals(tf, (3, 2, 2, 1), 0.3))


def case_depthwise_conv2d_dilated(tf):
    return _grads(tf, lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME",
                                                          dilations=[2, 2]),
                  _x4(tf, (1, 7, 6, 2)), _vals(tf, (3, 3, 2, 2), 0.3))


def case_depthwise_conv2d_dilated_and_strided_quirk(tf):
    return _grads(tf, lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME",
                                                          dilations=[2, 2]),
                  _x4(tf, (1, 7, 6, 2)), _vals(tf, (3, 3, 2, 2), 0.3))


def case_depthwise_conv2d_explicit_padding(tf):
    return _grads(tf, lambda x, w: tf.nn.depthwise_conv2d(
        x, w, [1, 1, 1, 1], [[0, 0], [1, 1], [0, 2], [0, 0]]),
        _x4(tf, (1, 4, 4, 2)), _vals(tf, (3, 3, 2, 2), 0.3))


def case_depthwise_conv2d_nchw_refused_on_cpu(tf):
    return tf.nn.depthwise_conv2d(_x4(tf, (1, 2, 4, 4)), _vals(tf, (3, 3, 2, 1)), [1, 1, 1, 1],
                                  "SAME", data_format="NCHW")


def case_depthwise_conv2d_channel_mismatch(tf):
    return tf.nn.depthwise_conv2d(_x4(tf, (1, 4, 4, 3)), _vals(tf, (3, 3, 2, 1)), [1, 1, 1, 1],
                                  "SAME")


def case_depthwise_backprop_input_and_filter(tf):
    x = _x4(tf, (1, 5, 5, 2))
    w = _vals(tf, (3, 3, 2, 2), 0.3)
    dy = _vals(tf, (1, 3, 3, 4), 1.1)
    return [tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], w, dy, [1, 2, 2, 1], "SAME"),
            tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 2, 2], dy, [1, 2, 2, 1], "SAME")]


def case_separable_conv2d(tf):
    x = _x4(tf, (1, 5, 5, 2))
    dw = _vals(tf, (3, 3, 2, 2), 0.3)
    pw = _vals(tf, (1, 1, 4, 3), 0.5)
    return [_grads(tf, lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME"),
                   x, dw, pw),
            _grads(tf, lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 2, 2, 1], "VALID"),
                   x, dw, pw),
            _grads(tf, lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME",
                                                              dilations=[2, 2]), x, dw, pw)]


# -- pooling ----------------------------------------------------------------------------------------
def case_max_pool3d_and_avg_pool3d(tf):
    x = _vals(tf, (1, 4, 5, 3, 2))
    return [_grads(tf, lambda x: tf.nn.max_pool3d(x, 2, 2, "SAME"), x),
            _grads(tf, lambda x: tf.nn.avg_pool3d(x, 2, 2, "SAME"), x),
            _grads(tf, lambda x: tf.nn.max_pool3d(x, [2, 3, 2], [1, 1, 1], "VALID"), x),
            _grads(tf, lambda x: tf.nn.avg_pool3d(x, [1, 2, 3, 2, 1], [1, 2, 2, 1, 1], "VALID"), x)]


def case_max_pool3d_ties(tf):
    x = tf.constant([[[[[1.0], [1.0]], [[0.0], [1.0]]], [[[1.0], [0.5]], [[1.0], [0.0]]]]])
    return _grads(tf, lambda x: tf.nn.max_pool3d(x, 2, 2, "VALID"), x)


def case_max_pool2d_ties_first_max_gets_gradient(tf):
    x = tf.constant([[[[1.0], [3.0], [3.0]], [[3.0], [2.0], [3.0]], [[0.0], [3.0], [1.0]]]])
    return [_grads(tf, lambda x: tf.nn.max_pool2d(x, 2, 1, "VALID"), x),
            _grads(tf, lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME"), x)]


def case_max_pool_and_avg_pool_dispatch_by_rank(tf):
    x5 = _vals(tf, (1, 3, 4, 3, 2))
    return [_grads(tf, lambda x: tf.nn.max_pool(x, 2, 2, "SAME"), _vals(tf, (2, 5, 3))),
            _grads(tf, lambda x: tf.nn.avg_pool(x, 3, 2, "SAME"), _vals(tf, (2, 5, 3))),
            _grads(tf, lambda x: tf.nn.max_pool(x, [2, 2], 2, "VALID"), _x4(tf, (1, 5, 4, 2))),
            _grads(tf, lambda x: tf.nn.avg_pool(x, 2, 1, "SAME"), _x4(tf, (1, 3, 4, 2))),
            tf.nn.max_pool(x5, 2, 2, "SAME"), tf.nn.avg_pool(x5, 2, 2, "SAME"),
            _grads(tf, lambda x: tf.nn.max_pool(x, 2, 2, "SAME", data_format="NDHWC"), x5),
            _grads(tf, lambda x: tf.nn.avg_pool(x, 2, 2, "SAME", data_format="NDHWC"), x5)]


def case_max_pool_rank5_gradient_without_data_format(tf):
    """TensorFlow's MaxPool3D gradient reads a data_format attribute tf.nn.max_pool left unset."""
    return _grads(tf, lambda x: tf.nn.max_pool(x, 2, 2, "SAME"), _vals(tf, (1, 3, 4, 3, 2)))


def case_avg_pool_rank5_gradient_without_data_format(tf):
    return _grads(tf, lambda x: tf.nn.avg_pool(x, 2, 2, "SAME"), _vals(tf, (1, 3, 4, 3, 2)))


def case_max_pool_rank_6_refused(tf):
    return tf.nn.max_pool(_vals(tf, (1, 2, 2, 2, 2, 1)), 2, 2, "SAME")


def case_max_pool3d_ncdhw_refused_on_cpu(tf):
    return tf.nn.max_pool3d(_vals(tf, (1, 2, 4, 4, 4)), 2, 2, "SAME", data_format="NCDHW")


def case_avg_pool_explicit_padding_refused(tf):
    return tf.nn.avg_pool2d(_x4(tf), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]])


def case_max_pool_explicit_padding(tf):
    return _grads(tf, lambda x: tf.nn.max_pool2d(x, 2, 2, [[0, 0], [1, 1], [1, 0], [0, 0]]),
                  _x4(tf, (1, 4, 5, 2)))


def case_pool_generic(tf):
    return [_grads(tf, lambda x: tf.nn.pool(x, [3], "MAX", strides=[2], padding="SAME"),
                   _vals(tf, (1, 7, 2))),
            _grads(tf, lambda x: tf.nn.pool(x, [2, 2], "AVG", strides=[2, 2], padding="SAME"),
                   _x4(tf, (1, 5, 5, 2))),
            _grads(tf, lambda x: tf.nn.pool(x, [2, 2, 2], "MAX", strides=[1, 2, 2]),
                   _vals(tf, (1, 3, 4, 5, 1)))]


def case_pool_dilated_valid(tf):
    x = _x4(tf, (1, 6, 7, 2))
    return [_grads(tf, lambda x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 2]),
                   x),
            _grads(tf, lambda x: tf.nn.pool(x, [2, 3], "AVG", padding="VALID", dilations=[2, 1]),
                   x)]


def case_pool_dilated_same_refused(tf):
    return tf.nn.pool(_x4(tf), [2, 2], "MAX", padding="SAME", dilations=[2, 2])


def case_pool_dilated_strided_refused(tf):
    return tf.nn.pool(_x4(tf, (1, 6, 6, 1)), [2, 2], "MAX", strides=[2, 2], padding="VALID",
                      dilations=[2, 2])


def case_pool_bad_type(tf):
    return tf.nn.pool(_x4(tf), [2, 2], "MIN", padding="SAME")


def case_max_pool_with_argmax(tf):
    x = _x4(tf, (2, 4, 5, 2))
    out, idx = tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")
    out_b, idx_b = tf.nn.max_pool_with_argmax(x, [1, 3, 2, 1], [1, 1, 2, 1], "VALID",
                                              include_batch_in_index=True)
    _, idx32 = tf.nn.max_pool_with_argmax(x, 2, 2, "SAME", output_dtype=tf.int32)
    return [out, idx, out_b, idx_b, idx32,
            _grads(tf, lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")[0], x)]


def case_max_pool_with_argmax_ties(tf):
    x = tf.constant([[[[2.0], [2.0]], [[2.0], [1.0]]]])
    out, idx = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
    return [out, idx, _grads(tf, lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")[0], x)]


def case_dilation2d_and_erosion2d(tf):
    x = _x4(tf, (1, 5, 6, 2))
    f = _vals(tf, (2, 3, 2), 0.9)
    return [_grads(tf, lambda x, f: tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC",
                                                     [1, 1, 1, 1]), x, f),
            _grads(tf, lambda x, f: tf.nn.dilation2d(x, f, [1, 2, 1, 1], "VALID", "NHWC",
                                                     [1, 1, 2, 1]), x, f),
            _grads(tf, lambda x, f: tf.nn.erosion2d(x, f, [1, 1, 1, 1], "SAME", "NHWC",
                                                    [1, 1, 1, 1]), x, f)]


def case_dilation2d_ties(tf):
    x = tf.constant([[[[1.0], [1.0], [0.0]], [[1.0], [1.0], [0.0]]]])
    f = tf.zeros([2, 2, 1])
    return _grads(tf, lambda x, f: tf.nn.dilation2d(x, f, [1, 1, 1, 1], "VALID", "NHWC",
                                                    [1, 1, 1, 1]), x, f)


def case_fractional_pools_shapes_and_seeded_determinism(tf):
    x = _x4(tf, (1, 9, 8, 2))
    out = []
    for fn in (tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool):
        for overlapping in (False, True):
            a = fn(x, [1.0, 1.5, 1.44, 1.0], overlapping=overlapping, seed=7)
            b = fn(x, [1.0, 1.5, 1.44, 1.0], overlapping=overlapping, seed=7)
            rows = [int(v) for v in a.row_pooling_sequence.numpy()]
            cols = [int(v) for v in a.col_pooling_sequence.numpy()]
            out.append([a.output.shape, a.output.dtype, a.row_pooling_sequence.dtype,
                        len(rows), len(cols), rows[0], rows[-1], cols[0], cols[-1],
                        all(1 <= q - p <= 2 for p, q in zip(rows, rows[1:])),
                        bool(tf.reduce_all(a.output == b.output)),
                        bool(tf.reduce_all(a.row_pooling_sequence == b.row_pooling_sequence))])
    return out


def case_fractional_max_pool_values_follow_sequences(tf):
    """Each output is the maximum (mean) of the cells its pooling sequences name."""
    x = _x4(tf, (1, 6, 6, 1))
    a = tf.nn.fractional_max_pool(x, [1.0, 2.0, 2.0, 1.0], seed=3)
    m = tf.nn.fractional_avg_pool(x, [1.0, 2.0, 2.0, 1.0], seed=3)
    rows, cols = a.row_pooling_sequence.numpy(), a.col_pooling_sequence.numpy()
    ok_max, ok_avg = True, True
    for i in range(len(rows) - 1):
        for j in range(len(cols) - 1):
            cell = x[0, rows[i]:rows[i + 1], cols[j]:cols[j + 1], 0]
            ok_max &= abs(float(tf.reduce_max(cell)) - float(a.output[0, i, j, 0])) < 1e-6
            r2, c2 = m.row_pooling_sequence.numpy(), m.col_pooling_sequence.numpy()
            cell2 = x[0, r2[i]:r2[i + 1], c2[j]:c2[j + 1], 0]
            ok_avg &= abs(float(tf.reduce_mean(cell2)) - float(m.output[0, i, j, 0])) < 1e-5
    return [a.output.shape, bool(ok_max), bool(ok_avg)]


# -- local response normalization -------------------------------------------------------------------
def case_local_response_normalization(tf):
    x = _x4(tf, (1, 2, 3, 7))
    return [_grads(tf, lambda x: tf.nn.local_response_normalization(x), x),
            _grads(tf, lambda x: tf.nn.lrn(x, depth_radius=2, bias=2.0, alpha=0.5, beta=0.75), x)]


def case_lrn_needs_rank_4(tf):
    return tf.nn.lrn(_vals(tf, (2, 3, 4)))


# -- depth/space and space/batch ------------------------------------------------------------------
def case_depth_to_space_and_space_to_depth(tf):
    x = _vals(tf, (1, 2, 3, 8))
    return [_grads(tf, lambda x: tf.nn.depth_to_space(x, 2), x),
            _grads(tf, lambda x: tf.nn.space_to_depth(x, 2), _vals(tf, (2, 4, 6, 3))),
            tf.nn.space_to_depth(tf.nn.depth_to_space(x, 2), 2)]


def case_depth_to_space_indivisible(tf):
    return tf.nn.depth_to_space(_vals(tf, (1, 2, 2, 6)), 2)


def case_space_to_depth_indivisible(tf):
    return tf.nn.space_to_depth(_vals(tf, (1, 3, 4, 1)), 2)


def case_depth_to_space_nchw_refused_on_cpu(tf):
    return tf.nn.depth_to_space(_vals(tf, (1, 8, 2, 2)), 2, data_format="NCHW")


def case_space_to_batch_and_back(tf):
    x = _vals(tf, (2, 3, 5, 2))
    return [_grads(tf, lambda x: tf.nn.space_to_batch(x, [2, 2], [[1, 0], [0, 1]]), x),
            _grads(tf, lambda x: tf.space_to_batch(x, [2, 3], [[0, 1], [1, 0]]), x),
            _grads(tf, lambda x: tf.space_to_batch_nd(x, [2], [[1, 0]]), x),
            _grads(tf, lambda x: tf.batch_to_space(x, [2, 2], [[0, 1], [1, 0]]),
                   _vals(tf, (8, 2, 3, 1)))]


def case_space_to_batch_indivisible(tf):
    return tf.space_to_batch(_vals(tf, (1, 3, 4, 1)), [2, 2], [[0, 0], [0, 0]])


def case_batch_to_space_indivisible_batch(tf):
    return tf.batch_to_space(_vals(tf, (3, 2, 2, 1)), [2, 2], [[0, 0], [0, 0]])


def case_required_space_to_batch_paddings(tf):
    return [tf.required_space_to_batch_paddings([5, 6], [2, 4]),
            tf.required_space_to_batch_paddings([7, 3], [3, 2], base_paddings=[[1, 2], [0, 1]])]


def case_with_space_to_batch(tf):
    w = tf.constant(_vals(tf, (2, 2, 2, 1), 0.3))

    def op(x, num_spatial_dims, padding):
        return tf.nn.conv2d(x, w, 1, padding)

    x = _x4(tf, (1, 7, 6, 2))
    return [_grads(tf, lambda x: tf.nn.with_space_to_batch(x, [2, 2], "SAME", op,
                                                           filter_shape=[2, 2]), x),
            _grads(tf, lambda x: tf.nn.with_space_to_batch(x, [2, 3], "VALID", op), x)]


# -- top-level raw ops ----------------------------------------------------------------------------
def case_conv2d_backprop_input_v2_has_no_cpu_kernel(tf):
    return tf.conv2d_backprop_input_v2(_x4(tf, (1, 5, 5, 2)), _vals(tf, (3, 3, 2, 3), 0.3),
                                       _vals(tf, (1, 3, 3, 3), 1.1), [1, 2, 2, 1], "SAME")


def case_conv2d_backprop_filter_v2_has_no_cpu_kernel(tf):
    return tf.conv2d_backprop_filter_v2(_x4(tf, (1, 5, 5, 2)), _vals(tf, (3, 3, 2, 3), 0.3),
                                        _vals(tf, (1, 3, 3, 3), 1.1), [1, 2, 2, 1], "SAME")


def case_tf_conv_raw(tf):
    return [tf.conv(_x4(tf, (1, 5, 5, 4)), _vals(tf, (3, 3, 4, 2), 0.3), [1, 2, 1, 1], "SAME"),
            tf.conv(_x4(tf, (1, 5, 5, 2)), _vals(tf, (2, 3, 2, 2), 0.3), [1, 1, 1, 1], "EXPLICIT",
                    explicit_paddings=[0, 0, 1, 0, 0, 2, 0, 0], dilations=[1, 2, 1, 1]),
            tf.conv(_vals(tf, (1, 4, 4, 4, 1)), _vals(tf, (2, 2, 2, 1, 2)), [1, 1, 2, 1, 1],
                    "VALID")]


def case_tf_conv_has_no_gradient(tf):
    return _grads(tf, lambda x, w: tf.conv(x, w, [1, 1, 1, 1], "SAME"),
                  _x4(tf, (1, 5, 5, 4)), _vals(tf, (3, 3, 4, 4), 0.3))


def case_tf_conv_groups_unimplemented_on_cpu(tf):
    return tf.conv(_x4(tf, (1, 5, 5, 4)), _vals(tf, (3, 3, 2, 4), 0.3), [1, 1, 1, 1], "SAME",
                   groups=2)


def case_extract_volume_patches(tf):
    x = _vals(tf, (1, 4, 4, 3, 2))
    return [_grads(tf, lambda x: tf.extract_volume_patches(x, [1, 2, 2, 2, 1], [1, 2, 2, 1, 1],
                                                           "VALID"), x),
            _grads(tf, lambda x: tf.extract_volume_patches(x, [1, 3, 2, 2, 1], [1, 2, 2, 2, 1],
                                                           "SAME"), x)]


# -- dtypes and more of TensorFlow's refusals ------------------------------------------------------
def _outcome(fn):
    try:
        y = fn()
        return ["ok", y.dtype if not isinstance(y, tuple) else y[0].dtype]
    except Exception as e:  # noqa: BLE001 - the class of the refusal is what is compared
        return type(e).__name__


def case_dtypes_each_kernel_takes(tf):
    ops = {
        "conv3d": lambda d: tf.nn.conv3d(tf.ones([1, 3, 3, 3, 1], d), tf.ones([2, 2, 2, 1, 1], d),
                                         [1] * 5, "VALID"),
        "conv2d_transpose": lambda d: tf.nn.conv2d_transpose(
            tf.ones([1, 2, 2, 1], d), tf.ones([2, 2, 1, 1], d), [1, 3, 3, 1], 1, "VALID"),
        "conv3d_transpose": lambda d: tf.nn.conv3d_transpose(
            tf.ones([1, 2, 2, 2, 1], d), tf.ones([2, 2, 2, 1, 1], d), [1, 3, 3, 3, 1], 1, "VALID"),
        "depthwise": lambda d: tf.nn.depthwise_conv2d(tf.ones([1, 3, 3, 1], d),
                                                      tf.ones([2, 2, 1, 1], d), [1, 1, 1, 1],
                                                      "VALID"),
        "max_pool3d": lambda d: tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 1], d), 2, 2, "VALID"),
        "avg_pool3d": lambda d: tf.nn.avg_pool3d(tf.ones([1, 2, 2, 2, 1], d), 2, 2, "VALID"),
        "argmax": lambda d: tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1], d), 2, 2, "VALID"),
        "dilation2d": lambda d: tf.nn.dilation2d(tf.ones([1, 2, 2, 1], d), tf.ones([1, 1, 1], d),
                                                 [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1]),
        "lrn": lambda d: tf.nn.lrn(tf.ones([1, 2, 2, 1], d)),
        "depth_to_space": lambda d: tf.nn.depth_to_space(tf.ones([1, 1, 1, 4], d), 2),
        "space_to_batch": lambda d: tf.space_to_batch(tf.ones([1, 2, 2, 1], d), [2, 2],
                                                      [[0, 0], [0, 0]]),
        "volume_patches": lambda d: tf.extract_volume_patches(tf.ones([1, 2, 2, 2, 1], d),
                                                              [1, 2, 2, 2, 1], [1] * 5, "VALID"),
        "conv": lambda d: tf.conv(tf.ones([1, 3, 3, 1], d), tf.ones([2, 2, 1, 1], d),
                                  [1, 1, 1, 1], "VALID"),
    }
    dtypes = [tf.float16, tf.float32, tf.float64, tf.int32, tf.int64, tf.uint8, tf.bool]
    return {name: [_outcome(lambda: fn(d)) for d in dtypes] for name, fn in ops.items()}


def case_more_refusals(tf):
    x4 = tf.ones([1, 5, 5, 2])
    x5 = tf.ones([1, 4, 4, 4, 2])
    return [
        _outcome(lambda: tf.nn.conv1d_transpose(tf.ones([1, 6, 2]), tf.ones([2, 3, 2]), [1, 7, 3],
                                                1, "VALID", dilations=2)),
        _outcome(lambda: tf.nn.conv3d_transpose(x5, tf.ones([2, 2, 2, 3, 2]), [1, 5, 5, 5, 3], 1,
                                                "VALID", dilations=2)),
        _outcome(lambda: tf.nn.conv3d_transpose(tf.ones([1, 2, 4, 4, 4]),
                                                tf.ones([2, 2, 2, 3, 2]), [1, 3, 8, 8, 8], 2,
                                                "SAME", data_format="NCDHW")),
        _outcome(lambda: tf.nn.convolution(x4, tf.ones([2, 2, 2, 2]), strides=2, dilations=2,
                                           padding="SAME")),
        _outcome(lambda: tf.nn.max_pool_with_argmax(x4, 2, 2, "SAME", data_format="NCHW")),
        _outcome(lambda: tf.nn.depth_to_space(x4, 1)),
        _outcome(lambda: tf.space_to_batch(x4, [2, 2], [[-1, 0], [0, 1]])),
        _outcome(lambda: tf.nn.conv2d_transpose(x4, tf.ones([3, 3, 2, 2]), [5, 5, 2], 1, "SAME")),
        _outcome(lambda: tf.nn.fractional_max_pool(x4, [1.0, 0.5, 1.5, 1.0])),
        _outcome(lambda: tf.nn.conv3d(x5, tf.ones([2, 2, 2, 2, 1]), [2, 1, 1, 1, 1], "VALID")),
        _outcome(lambda: tf.nn.conv3d(x5, tf.ones([2, 2, 2, 2, 1]), [1, 0, 1, 1, 1], "VALID")),
        _outcome(lambda: tf.nn.max_pool3d(x5, 0, 1, "VALID")),
    ]


def case_pool_1d_dilated(tf):
    return _grads(tf, lambda x: tf.nn.pool(x, [2], "MAX", padding="VALID", dilations=[2]),
                  _vals(tf, (1, 7, 2)))


def case_conv2d_and_max_pool2d_explicit_padding(tf):
    x, w = _x4(tf, (1, 4, 5, 2)), _vals(tf, (3, 2, 2, 3), 0.3)
    return [_grads(tf, lambda x, w: tf.nn.conv2d(x, w, [1, 2, 1, 1],
                                                 [[0, 0], [2, 1], [0, 1], [0, 0]]), x, w),
            _grads(tf, lambda x: tf.nn.max_pool2d(x, 3, 1, [[0, 0], [1, 1], [2, 0], [0, 0]]), x)]


def case_with_space_to_batch_explicit_padding_passes_through_at_rate_1(tf):
    return tf.nn.with_space_to_batch(_x4(tf, (1, 4, 4, 1)), [1, 1], [[0, 0], [1, 1], [1, 1], [0, 0]],
                                     lambda a, n, p: tf.nn.max_pool2d(a, 2, 1, p))


def case_nchw_refusals_of_the_2d_ops(tf):
    x = tf.ones([1, 2, 4, 4])
    return [_outcome(lambda: tf.nn.max_pool(x, 2, 2, "SAME", data_format="NCHW")),
            _outcome(lambda: tf.nn.avg_pool2d(x, 2, 2, "SAME", data_format="NCHW")),
            _outcome(lambda: tf.nn.conv2d(x, tf.ones([2, 2, 2, 1]), 1, "SAME", data_format="NCHW")),
            _outcome(lambda: tf.nn.max_pool1d(tf.ones([1, 2, 4]), 2, 2, "SAME",
                                              data_format="NCW")),
            _outcome(lambda: tf.nn.pool(x, [2, 2], "MAX", padding="SAME", data_format="NCHW"))]


def case_named_results_print_like_tensorflows(tf):
    x = tf.constant([[[[1.0], [3.0]], [[2.0], [0.0]]]])
    r = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
    print(type(r).__name__, r._fields)
    f = tf.nn.fractional_avg_pool(tf.ones([1, 4, 4, 1]), [1.0, 2.0, 2.0, 1.0])
    print(type(f).__name__, f._fields)
    return [r.output, r.argmax, f.output, f.row_pooling_sequence]


# --- where tapegrad's message is its own -----------------------------------------------------------
_KERNELS = ("TensorFlow lists every kernel registered for the op on every device; tapegrad says "
            "what its CPU kernel takes, or what to use instead")
case_conv2d_backprop_filter_v2_has_no_cpu_kernel.message_differs = (
    _KERNELS, ("Could not find device for node: Conv2DBackpropFilterV2", "tf.nn.conv2d"))
case_conv2d_backprop_input_v2_has_no_cpu_kernel.message_differs = (
    _KERNELS, ("Could not find device for node: Conv2DBackpropInputV2", "tf.nn.conv2d"))
case_depth_to_space_nchw_refused_on_cpu.message_differs = (
    _KERNELS, ("Could not find device for node: DepthToSpace", "only NHWC"))
case_conv2d_transpose_output_shape_mismatch.message_differs = (
    "TensorFlow reports the first spatial dimension that differs with its kernel's sizes; "
    "tapegrad gives both spatial shapes", ("Size of out_backprop doesn't match computed",
                                          "actual = [5, 5], computed = [6, 6]"))
