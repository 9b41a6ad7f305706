"""Argument validation, error classes, integer division by zero, empty tensors and complex
gradients, as TensorFlow 2.21 does them (issue 16, items 2 and 3).

Each case makes one call; what TensorFlow raises is compared by class name."""

# What the coverage table says of these names (build/coverage.py reads it).
NOTES = {
    'tf.multiply':
        'TensorFlow quirk matched: `*` on two bool tensors is logical_and while '
        'tf.multiply rejects bool.',
    'tf.reduce_any':
        'TensorFlow quirk matched: a non-bool input raises ValueError with a list axis, '
        'InvalidArgumentError with a scalar axis.',
    'tf.squeeze':
        'TensorFlow quirk matched: a whole float axis is accepted.',
    'tf.gather':
        'TensorFlow quirk matched: indices are not checked when the slices are empty.',
    'tf.nn.softmax_cross_entropy_with_logits':
        'Differs: rank-3 inputs with an empty class axis give zeros (TensorFlow fails '
        'inside a reshape).',
}



def _m(tf):
    return tf.reshape(tf.range(6.0), [2, 3])


# --- shapes -------------------------------------------------------------------------------------
def case_reshape_minus_two(tf):
    return tf.reshape(tf.zeros([6]), [-2, 3])


def case_reshape_two_unknown(tf):
    return tf.reshape(tf.zeros([6]), [-1, -1])


def case_reshape_float_size(tf):
    return tf.reshape(tf.zeros([6]), [2.5, 3])


def case_reshape_wrong_count(tf):
    return tf.reshape(tf.zeros([6]), [4, 2])


def case_reshape_one_unknown(tf):
    return tf.reshape(tf.zeros([6]), [-1, 2])


def case_reshape_tensorshape(tf):
    return tf.reshape(tf.zeros([6]), tf.TensorShape([3, 2]))


def case_reshape_shape_tensor(tf):
    return tf.reshape(tf.zeros([6]), tf.constant([2, 3]))


def case_zeros_float_size(tf):
    return tf.zeros([2.5])


def case_zeros_negative_size(tf):
    return tf.zeros([2, -1])


def case_zeros_minus_two(tf):
    return tf.zeros([-2])


def case_ones_float_size(tf):
    return tf.ones([2.5, 1])


def case_zeros_tensorshape(tf):
    return tf.zeros(tf.TensorShape([2, 1]))


def case_zeros_scalar_size(tf):
    return tf.zeros(3)


def case_fill_negative(tf):
    return tf.fill([-1], 1.0)


def case_eye_negative(tf):
    return tf.eye(-1)


def case_eye_float(tf):
    return tf.eye(2.5)


def case_variable_shape_incompatible(tf):
    return tf.Variable([1.0, 2.0], shape=[3])


def case_variable_shape_unknown_dim(tf):
    v = tf.Variable([1.0, 2.0], shape=[None])
    v.assign([1.0, 2.0, 3.0])
    return [v.shape, v]


def case_variable_assign_other_shape(tf):
    v = tf.Variable([1.0, 2.0])
    v.assign([1.0, 2.0, 3.0])


def case_variable_unknown_dim_assign_wrong_rank(tf):
    v = tf.Variable([1.0, 2.0], shape=[None])
    v.assign([[1.0]])


def case_variable_shape_tensorshape(tf):
    return tf.Variable([1.0, 2.0], shape=tf.TensorShape([2])).shape


# --- axes ---------------------------------------------------------------------------------------
def case_reduce_sum_float_axis(tf):
    return tf.reduce_sum(_m(tf), axis=1.0)


def case_reduce_sum_float_tensor_axis(tf):
    return tf.reduce_sum(_m(tf), axis=tf.constant(1.0))


def case_reduce_sum_axis_too_big(tf):
    return tf.reduce_sum(_m(tf), axis=2)


def case_reduce_sum_axis_too_negative(tf):
    return tf.reduce_sum(_m(tf), axis=-3)


def case_reduce_sum_duplicate_axes(tf):
    return tf.reduce_sum(_m(tf), axis=[1, 1])


def case_reduce_sum_duplicate_negative_axes(tf):
    return tf.reduce_sum(_m(tf), axis=[1, -1])


def case_reduce_max_duplicate_axes(tf):
    return tf.reduce_max(_m(tf), axis=[0, 0])


def case_reduce_mean_duplicate_axes(tf):
    return tf.reduce_mean(_m(tf), axis=[0, -2])


def case_reduce_sum_axis_tensor(tf):
    return tf.reduce_sum(_m(tf), axis=tf.constant([0, 1]))


def case_reduce_sum_numpy_axis(tf):
    import numpy as np
    return tf.reduce_sum(_m(tf), axis=np.int64(1))


def case_argmax_float_axis(tf):
    return tf.argmax(_m(tf), axis=1.0)


def case_argmax_axis_too_big(tf):
    return tf.argmax(_m(tf), axis=2)


def case_cumsum_axis_too_big(tf):
    return tf.cumsum(_m(tf), axis=2)


def case_concat_axis_too_big(tf):
    return tf.concat([_m(tf), _m(tf)], axis=2)


def case_stack_axis_too_big(tf):
    return tf.stack([_m(tf), _m(tf)], axis=3)


def case_expand_dims_axis_too_big(tf):
    return tf.expand_dims(_m(tf), 3)


def case_expand_dims_float_axis(tf):
    return tf.expand_dims(_m(tf), 1.0)


def case_squeeze_not_one(tf):
    return tf.squeeze(_m(tf), axis=0)


def case_transpose_repeated_perm(tf):
    return tf.transpose(_m(tf), [0, 0])


def case_softmax_axis_too_big(tf):
    return tf.nn.softmax(_m(tf), axis=2)


# --- indices and sizes ----------------------------------------------------------------------------
def case_one_hot_negative_depth(tf):
    return tf.one_hot([0, 1], -1)


def case_one_hot_zero_depth(tf):
    return tf.one_hot([0, 1], 0)


def case_one_hot_float_depth(tf):
    return tf.one_hot([0, 1], 2.5)


def case_one_hot_float_indices(tf):
    return tf.one_hot([0.0, 1.0], 3)


def case_one_hot_out_of_range_indices(tf):
    return tf.one_hot([0, 5, -1], 3)


def case_unstack_axis_too_big(tf):
    return tf.unstack(_m(tf), axis=2)


def case_unstack_axis_too_negative(tf):
    return tf.unstack(_m(tf), axis=-3)


def case_unstack_wrong_num(tf):
    return tf.unstack(_m(tf), num=3)


def case_slice_size_past_end(tf):
    return tf.slice(_m(tf), [0, 1], [2, 3])


def case_slice_negative_begin(tf):
    return tf.slice(_m(tf), [-1, 0], [1, 1])


def case_slice_size_minus_one(tf):
    return tf.slice(_m(tf), [1, 1], [-1, -1])


def case_slice_size_minus_two(tf):
    return tf.slice(_m(tf), [0, 0], [-2, 1])


def case_slice_wrong_length(tf):
    return tf.slice(_m(tf), [0], [1])


def case_gather_past_end(tf):
    return tf.gather(tf.constant([1.0, 2.0, 3.0]), [3])


def case_gather_negative(tf):
    return tf.gather(tf.constant([1.0, 2.0, 3.0]), [-1])


def case_gather_float_indices(tf):
    return tf.gather(tf.constant([1.0, 2.0, 3.0]), [1.0])


def case_split_uneven(tf):
    return tf.split(tf.zeros([5]), 2)


def case_split_zero(tf):
    return tf.split(tf.zeros([4]), 0)


def case_tile_wrong_length(tf):
    return tf.tile(_m(tf), [2])


def case_pad_negative(tf):
    return tf.pad(_m(tf), [[-1, 0], [0, 0]])


def case_range_zero_delta(tf):
    return tf.range(0, 3, 0)


# --- integer division by zero ---------------------------------------------------------------------
def case_floordiv_int32_by_zero(tf):
    return tf.math.floordiv(tf.constant([5, 3]), tf.constant([0, 2]))


def case_floordiv_int64_by_zero(tf):
    return tf.math.floordiv(tf.constant([5], tf.int64), tf.constant([0], tf.int64))


def case_floordiv_operator_by_zero(tf):
    return tf.constant([5, 3]) // tf.constant([0, 2])


def case_floormod_int32_by_zero(tf):
    return tf.math.floormod(tf.constant([5]), tf.constant([0]))


def case_mod_operator_by_zero(tf):
    return tf.constant([5, 3]) % tf.constant([0, 2])


def case_truediv_int32_by_zero(tf):
    return tf.math.truediv(tf.constant([5, 0, -1]), tf.constant([0, 0, 0]))


def case_divide_operator_int_by_zero(tf):
    return tf.constant([5]) / tf.constant([0])


def case_floordiv_float_by_zero(tf):
    return tf.math.floordiv(tf.constant([5.0, -1.0, 0.0]), tf.constant([0.0, 0.0, 0.0]))


def case_floormod_float_by_zero(tf):
    return tf.math.floormod(tf.constant([5.0, -1.0]), tf.constant([0.0, 0.0]))


def case_floordiv_int32_no_zero(tf):
    return tf.math.floordiv(tf.constant([7, -7]), tf.constant([2, 2]))


# --- dtypes ---------------------------------------------------------------------------------------
def case_sigmoid_int32(tf):
    return tf.sigmoid(tf.constant([1, 2]))


def case_exp_int32(tf):
    return tf.exp(tf.constant([1, 2]))


def case_sqrt_int64(tf):
    return tf.sqrt(tf.constant([1, 4], tf.int64))


def case_softmax_int32(tf):
    return tf.nn.softmax(tf.constant([1, 2]))


def case_reduce_mean_int32(tf):
    return tf.reduce_mean(tf.constant([1, 2]))


def case_add_bool(tf):
    return tf.add(tf.constant([True]), tf.constant([True]))


def case_add_operator_bool(tf):
    return tf.constant([True]) + tf.constant([True])


def case_multiply_operator_bool(tf):
    return tf.constant([True, False]) * tf.constant([True, True])


def case_subtract_bool(tf):
    return tf.subtract(tf.constant([True]), tf.constant([False]))


def case_int_tensor_and_python_float(tf):
    x = tf.constant([4], tf.int64)
    out = []
    for fn in (lambda: tf.math.add(x, 2.0), lambda: x + 2.0, lambda: tf.multiply(x, 2.0),
               lambda: x * 2.5, lambda: tf.subtract(2.0, x), lambda: tf.maximum(x, 2.0),
               lambda: tf.math.equal(x, 2.0), lambda: x * 2, lambda: tf.constant([1.5]) + 2):
        try:
            out.append(fn())
        except Exception as e:  # noqa: BLE001 - the class is the outcome
            out.append(type(e).__name__)
    return out


def case_reshape_empty_with_unknown(tf):
    return tf.reshape(tf.zeros([0, 2, 1]), [0, 3, -1])


def case_one_hot_no_indices(tf):
    return tf.one_hot([], 3)


def case_add_bool_and_number(tf):
    return tf.math.add(tf.constant(True), -1)


def case_batched_bool_matmul(tf):
    a, b = tf.zeros([2, 2, 0], tf.bool), tf.zeros([2, 0, 3], tf.bool)
    out = []
    for kw in ({}, {"transpose_b": True}):
        try:
            out.append(tf.matmul(a, b if not kw else tf.zeros([2, 3, 0], tf.bool), **kw))
        except Exception as e:  # noqa: BLE001 - the class is the outcome
            out.append(type(e).__name__)
    return out


def case_add_n_needs_one_shape(tf):
    return tf.add_n([tf.ones([2, 2]), tf.ones([])])


def case_add_mixed_dtypes(tf):
    return tf.add(tf.constant([1.0]), tf.constant([1]))


def case_matmul_bool(tf):
    return tf.matmul(tf.constant([[True]]), tf.constant([[True]]))


def case_reciprocal_int32(tf):
    return tf.math.reciprocal(tf.constant([1, 2]))


# --- the tape's arguments -------------------------------------------------------------------------
def case_gradient_of_string_target(tf):
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        v * 2.0
    return tape.gradient("abc", v)


def case_gradient_wrt_string_source(tf):
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = v * 2.0
    return tape.gradient(y, "abc")


# --- empty tensors --------------------------------------------------------------------------------
def _empty(tf):
    return tf.zeros([0, 3])


def case_reduce_max_empty(tf):
    return tf.reduce_max(_empty(tf))


def case_reduce_max_empty_axis0(tf):
    return tf.reduce_max(_empty(tf), axis=0)


def case_reduce_max_empty_axis1(tf):
    return tf.reduce_max(_empty(tf), axis=1)


def case_reduce_min_empty(tf):
    return tf.reduce_min(_empty(tf))


def case_reduce_max_empty_int32(tf):
    return tf.reduce_max(tf.zeros([0], tf.int32))


def case_reduce_mean_empty(tf):
    return tf.reduce_mean(_empty(tf))


def case_reduce_prod_empty(tf):
    return tf.reduce_prod(_empty(tf))


def case_reduce_sum_empty(tf):
    return tf.reduce_sum(_empty(tf), axis=0)


def case_reduce_mean_empty_complex(tf):
    return tf.reduce_mean(tf.zeros([0], tf.complex64))


def case_reduce_prod_empty_gradient(tf):
    x = tf.Variable(tf.zeros([0, 2]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.reduce_prod(x, axis=0))
    return tape.gradient(y, x)


def case_reduce_any_of_floats_by_axis_kind(tf):
    x = tf.constant([[1.5, 0.0]])
    out = []
    for axis in (None, 0, [0], [0, 1]):
        try:
            out.append(tf.reduce_any(x, axis=axis))
        except Exception as e:  # noqa: BLE001 - the class is the outcome
            out.append(type(e).__name__)
    return out


def case_argmax_empty_rows(tf):
    return tf.argmax(_empty(tf), axis=1)


def case_argmax_empty_axis(tf):
    return tf.argmax(_empty(tf), axis=0)


def case_argmin_empty_axis(tf):
    return tf.argmin(_empty(tf), axis=0)


def case_softmax_empty_rows(tf):
    return tf.nn.softmax(_empty(tf))


def case_softmax_empty_classes(tf):
    return tf.nn.softmax(tf.zeros([3, 0]))


def case_log_softmax_empty_classes(tf):
    return tf.nn.log_softmax(tf.zeros([3, 0]))


def case_logsumexp_empty(tf):
    return tf.reduce_logsumexp(tf.zeros([3, 0]), axis=1)


def case_matmul_empty_inner(tf):
    return tf.matmul(tf.zeros([2, 0]), tf.zeros([0, 3]))


def case_reduce_max_empty_gradient(tf):
    x = tf.Variable(tf.zeros([0, 3]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.reduce_max(x, axis=1))
    return tape.gradient(y, x)


# --- boolean_mask ---------------------------------------------------------------------------------
def case_boolean_mask_int_mask(tf):
    return tf.boolean_mask(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 0, 2]))


def case_boolean_mask_float_mask(tf):
    return tf.boolean_mask(tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 0.0, 2.0]))


def case_boolean_mask_list_int_mask(tf):
    return tf.boolean_mask(tf.constant([1.0, 2.0, 3.0]), [1, 0, 1])


def case_boolean_mask_wrong_shape(tf):
    return tf.boolean_mask(tf.constant([1.0, 2.0, 3.0]), [True, False])


# --- complex values -----------------------------------------------------------------------------
def case_complex_abs_gradient(tf):
    z = tf.Variable(tf.constant([3 + 4j, 1 - 1j, 0j], tf.complex64))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.abs(z))
    return tape.gradient(y, z)


def case_complex_abs_gradient_weighted(tf):
    z = tf.constant([3 + 4j, -2j], tf.complex128)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.reduce_sum(tf.abs(z) * tf.constant([2.0, 0.5], tf.float64))
    return tape.gradient(y, z)


def _complex_gradients(tf, fn):
    z = tf.Variable(tf.constant([0.5 + 1j, -1.5 + 0.25j], tf.complex64))
    w = tf.constant([2.0 - 1j, 0.5 + 0.5j], tf.complex64)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(fn(z, w))
    return tape.gradient(y, z)


def case_complex_square_gradient(tf):
    return _complex_gradients(tf, lambda z, w: z * z)


def case_complex_exp_gradient(tf):
    return _complex_gradients(tf, lambda z, w: tf.exp(z))


def case_complex_elementwise_gradients(tf):
    return [_complex_gradients(tf, f) for f in (
        lambda z, w: tf.math.log(z), lambda z, w: tf.sin(z), lambda z, w: tf.tanh(z),
        lambda z, w: tf.sqrt(z), lambda z, w: tf.square(z), lambda z, w: tf.math.reciprocal(z),
        lambda z, w: tf.sigmoid(z), lambda z, w: tf.cos(z))]


def case_complex_binary_gradients(tf):
    return [_complex_gradients(tf, f) for f in (
        lambda z, w: z * w, lambda z, w: w * z, lambda z, w: z / w, lambda z, w: w / z,
        lambda z, w: z + w, lambda z, w: w - z)]


def case_complex_matmul_gradient(tf):
    a = tf.Variable(tf.constant([[1 + 1j, 2 - 1j], [0.5j, -1 + 0j]], tf.complex64))
    b = tf.constant([[2 + 0j, 1j], [1 - 1j, 3 + 0.5j]], tf.complex64)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(a, b))
    return tape.gradient(y, a)


def case_python_complex_constants(tf):
    return [tf.constant(1 + 2j), tf.constant([1j, 2.0]), tf.constant(0.5j, tf.complex64)]


def case_complex_abs_value(tf):
    return tf.abs(tf.constant([3 + 4j], tf.complex64))


# --- NaN and Inf are values, not warnings -----------------------------------------------------------
def case_sqrt_negative_is_nan(tf):
    return tf.sqrt(tf.constant([-1.0]))


def case_log_zero_is_minus_inf(tf):
    return tf.math.log(tf.constant([0.0]))


def case_zero_over_zero(tf):
    return tf.constant([0.0]) / tf.constant([0.0])


def case_map_num_parallel_calls_zero(tf):
    return list(tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=0))


def case_map_num_parallel_calls_negative(tf):
    return list(tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=-7))


def case_map_num_parallel_calls_autotune(tf):
    return list(tf.data.Dataset.range(3).map(lambda x: x * 2, num_parallel_calls=-1))


def case_rot90_fractional_turns(tf):
    return tf.image.rot90(tf.ones([2, 2, 1]), k=1.5)


def case_reduce_join_axis_past_the_rank(tf):
    return tf.strings.reduce_join(tf.constant(["a", "b"]), axis=5)


# --- where tapegrad's message is its own -----------------------------------------------------------
_STRING = ("TensorFlow fails converting the string to a dtype ('Cannot convert the argument "
           "`type_value`: 'abc' to a TensorFlow DType'); tapegrad says what was passed")
case_gradient_of_string_target.message_differs = (_STRING, ("target 'abc' is a Python string",))
case_gradient_wrt_string_source.message_differs = (_STRING, ("source 'abc' is a Python string",))
case_reciprocal_int32.message_differs = (
    "TensorFlow lists every kernel registered for the op on every device; tapegrad says the "
    "dtype has no CPU kernel", ("Reciprocal: no kernel for dtype int32",))
