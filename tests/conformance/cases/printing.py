"""How dtypes, shapes, tensors and variables print (str and repr), as TensorFlow prints them."""


def case_dtype_str_and_repr(tf):
    return [str(tf.float32), repr(tf.float32), str(tf.int32), repr(tf.bool), str(tf.string)]


def case_dtype_printed(tf):
    x = tf.constant([1.5, 2.0])
    print(x.dtype)
    print(tf.constant(3).dtype, tf.constant(True).dtype)


def case_dtype_properties(tf):
    d = tf.float64
    return [d.name, d.is_floating, d.is_integer, d.size, tf.int8.max, tf.uint8.min]


def case_tensor_str_scalar(tf):
    return [str(tf.constant(6.0)), str(tf.constant(7)), str(tf.constant(True))]


def case_tensor_repr_vector(tf):
    return [repr(tf.constant([1.0, 2.5])), repr(tf.constant([1, 2, 3])),
            repr(tf.constant([1, 2], dtype=tf.int64))]


def case_tensor_str_matrix(tf):
    return str(tf.constant([[1.0, 2.0], [3.0, 4.0]]))


def case_tensorshape_forms(tf):
    s = tf.constant([[1.0, 2.0, 3.0]]).shape
    return [str(s), repr(s), s.as_list(), s.rank, str(tf.TensorShape([None, 3]))]


def case_variable_repr(tf):
    v = tf.Variable([1.0, 2.0], name="w")
    return [repr(v), str(v)]


def case_variable_scalar_repr(tf):
    return repr(tf.Variable(3.0, name="x"))


def case_print_tensor_and_variable(tf):
    print(tf.constant([[1, 2], [3, 4]]))
    print(tf.Variable(2.0, name="b"))


def case_tensor_format_specs(tf):
    t, i, flag = tf.constant(3.14159), tf.constant(7), tf.constant(True)
    v, s = tf.constant([1.5, 2.25]), tf.constant("hi")
    return [f"{t:.2f}", f"{t}", "{:4.1f}".format(t), f"{t:e}", f"{i:d}", f"{i:5}", f"{i:.2f}",
            f"{v}", format(v, ""), f"{s}", f"{flag}"]


def case_tensor_format_of_a_vector_with_a_spec(tf):
    return f"{tf.constant([1.5, 2.25]):.2f}"


def case_tensor_format_in_a_training_loop_line(tf):
    loss = tf.reduce_mean(tf.square(tf.constant([0.5, 1.5])))
    print("step {:3d}: loss {:.4f}".format(tf.constant(12), loss))
    print(f"loss={loss:.3f} acc={tf.constant(0.875):.1%}")
