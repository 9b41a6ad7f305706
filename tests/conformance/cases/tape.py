"""GradientTape details beyond the seeds: watched_variables order, watch warnings, gradients of
non-scalar and nested targets, persistent tapes, UnconnectedGradients."""

# What the coverage table says of these names (build/coverage.py reads it).
NOTES = {
    'tf.GradientTape':
        'watched_variables() in creation order; Sqrt/Rsqrt/Reciprocal gradients are 0 '
        "where the incoming gradient is 0 (TensorFlow's kernels); batch_jacobian gives "
        "zeros for an unconnected source even with 'none' (TensorFlow quirk matched).",
}



def case_watched_variables_in_creation_order(tf):
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    c = tf.Variable(3.0, name="c")
    with tf.GradientTape() as tape:
        y = c * a + b
    return [v.name for v in tape.watched_variables()], y


def case_watched_variables_explicit_watch_then_read(tf):
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = a * b
    return [v.name for v in tape.watched_variables()]


def case_watched_variables_created_inside_later(tf):
    b = tf.Variable(2.0, name="b")
    with tf.GradientTape() as tape:
        a = tf.Variable(1.0, name="a")
        y = a * 2.0 + b
    return [v.name for v in tape.watched_variables()]


def case_watched_variables_non_trainable_left_out(tf):
    a = tf.Variable(1.0, name="a", trainable=False)
    b = tf.Variable(2.0, name="b")
    with tf.GradientTape() as tape:
        y = a * b
    return [v.name for v in tape.watched_variables()]


def case_gradient_of_a_dict_target(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        out = {"sq": x * x, "sum": tf.reduce_sum(x)}
    return tape.gradient(out, x)


def case_gradient_with_output_gradients(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5, 0.0]))


def case_unconnected_zero_for_structure(tf):
    x = tf.Variable(1.0)
    z = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * 2.0
    return tape.gradient(y, {"x": x, "z": z},
                         unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_persistent_tape_two_gradients(tf):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return tape.gradient(z, x), tape.gradient(y, x)


def case_second_gradient_of_non_persistent_tape_raises(tf):
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    return tape.gradient(y, x)


def case_jacobian_unconnected_zero_shape(tf):
    x = tf.Variable([1.0, 2.0])
    z = tf.Variable([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = x * 3.0
    return tape.jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_batch_jacobian_unconnected_zero_shape(tf):
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    z = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as tape:
        y = x * x
    return tape.batch_jacobian(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def case_gradient_through_where_masked_sqrt(tf):
    """The classic NaN trap: tf.where does not stop the NaN gradient of the untaken branch."""
    x = tf.Variable([-1.0, 0.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.where(x > 0.0, tf.sqrt(x), tf.zeros_like(x))
    return tape.gradient(y, x)


def case_gradient_through_where_masked_log(tf):
    x = tf.Variable([0.0, 1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.where(x > 0.5, tf.math.log(x), x)
    return tape.gradient(y, x)


def case_gradient_through_safe_where(tf):
    x = tf.Variable([-1.0, 0.0, 4.0])
    with tf.GradientTape() as tape:
        safe = tf.where(x > 0.0, x, tf.ones_like(x))
        y = tf.where(x > 0.0, tf.sqrt(safe), tf.zeros_like(x))
    return tape.gradient(y, x)


def case_gradient_of_a_python_number(tf):
    """A Python number as the target is refused (TensorFlow asks it for a dtype), never None."""
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        x * 2.0
    return tape.gradient(3.0, x)


def case_gradient_of_a_list_holding_a_python_number(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = x * 2.0
    return tape.gradient([y, 3], x)
