"""GradientTape.jacobian and batch_jacobian with both of TensorFlow's paths (experimental_use_pfor
True, its default, and False): values, shapes, dtypes, unconnected sources, nesting."""
W = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
X = [[0.1, 0.2, -0.3], [0.4, -0.5, 0.6]]


def _layer(tf, pfor):
    w = tf.constant(W, tf.float64)
    x = tf.Variable([0.3, -0.2, 0.9], dtype=tf.float64)
    b = tf.constant([0.1, -0.1], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(x, (-1, 1))), (-1,)) + b)
    return tape.jacobian(y, x, experimental_use_pfor=pfor)


def case_layer_jacobian_pfor(tf):
    return _layer(tf, True)


def case_layer_jacobian_loop(tf):
    return _layer(tf, False)


def _mixed(tf, pfor):
    x = tf.constant(X, tf.float32)
    s = tf.constant(2.0, tf.float32)
    u = tf.constant([1.0, 2.0], tf.float32)    # unconnected
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, s, u])
        y = tf.reduce_sum(tf.nn.relu(x) * s - x / 3.0, axis=1) + tf.reduce_mean(x ** 2)
    jn = tape.jacobian(y, [x, s, u], experimental_use_pfor=pfor)
    jz = tape.jacobian(y, {"x": x, "u": u}, unconnected_gradients="zero",
                       experimental_use_pfor=pfor)
    return [jn, jz, [None if j is None else (j.shape, j.dtype.name) for j in jn]]


def case_mixed_ops_pfor(tf):
    return _mixed(tf, True)


def case_mixed_ops_loop(tf):
    return _mixed(tf, False)


def _batch(tf, pfor):
    x = tf.constant(X, tf.float64)
    other = tf.constant([[1.0], [2.0]], tf.float64)
    w = tf.constant([[1.0, -2.0], [0.5, 0.5], [2.0, 1.0]], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, other])
        y = tf.sigmoid(tf.matmul(x, w)) * tf.exp(x[:, :1])
        z = tf.square(other) * 2.0
    return [tape.batch_jacobian(y, x, experimental_use_pfor=pfor),
            tape.batch_jacobian(z, x, experimental_use_pfor=pfor),
            tape.batch_jacobian(z, x, unconnected_gradients="zero", experimental_use_pfor=pfor),
            tape.batch_jacobian(y, other, unconnected_gradients="zero",
                                experimental_use_pfor=pfor)]


def case_batch_jacobian_pfor(tf):
    return _batch(tf, True)


def case_batch_jacobian_loop(tf):
    return _batch(tf, False)


def case_hessian_by_nested_jacobians(tf):
    x = tf.constant([0.5, -1.0, 2.0], tf.float64)
    out = []
    for pfor in (True, False):
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(x)
            with tf.GradientTape(persistent=True) as inner:
                inner.watch(x)
                f = tf.reduce_sum(tf.sin(x) * x ** 3) + tf.reduce_prod(x)
            g = inner.gradient(f, x)
        out.append(outer.jacobian(g, x, experimental_use_pfor=pfor))
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(x)
            with tf.GradientTape(persistent=True) as inner:
                inner.watch(x)
                y = tf.stack([x[0] * x[1], tf.cos(x[2]), x[1] / x[2]])
            j = inner.jacobian(y, x, experimental_use_pfor=pfor)
        out.append(outer.jacobian(j, x, experimental_use_pfor=pfor))
    return out


def case_softmax_cross_entropy_jacobian(tf):
    logits = tf.constant([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], tf.float32)
    labels = tf.constant([[0.0, 1.0, 0.0], [0.2, 0.3, 0.5]], tf.float32)
    out = []
    for pfor in (True, False):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(logits)
            loss = tf.nn.softmax_cross_entropy_with_logits(labels, logits)
        out.append(tape.jacobian(loss, logits, experimental_use_pfor=pfor))
    return out


def case_stack_concat_slice_jacobian(tf):
    x = tf.constant([1.0, 2.0, 3.0], tf.float64)
    out = []
    for pfor in (True, False):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.concat([tf.stack([x[0], x[2]]), x[1:] * 2.0, tf.transpose(
                tf.broadcast_to(x[:2], (2, 2)))[0]], axis=0)
        out.append(tape.jacobian(y, x, experimental_use_pfor=pfor))
    return out


def case_empty_target_pfor(tf):
    x = tf.constant([1.0, 2.0], tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        e = x[:0] * 2.0
        s = tf.reduce_sum(x * x)
    return [tape.jacobian(e, x), tape.jacobian(e, x, unconnected_gradients="zero"),
            tape.jacobian(s, x)]


def case_empty_target_loop_raises(tf):
    x = tf.constant([1.0, 2.0], tf.float32)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        e = x[:0] * 2.0
    return tape.jacobian(e, x, experimental_use_pfor=False)


def case_loop_needs_persistent_tape(tf):
    x = tf.constant([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    return tape.jacobian(y, x, experimental_use_pfor=False)


def case_batch_loop_needs_persistent_tape(tf):
    x = tf.constant([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    return tape.batch_jacobian(y, x, experimental_use_pfor=False)


def case_jacobian_of_a_python_number(tf):
    """A Python number as the target is refused (TensorFlow: AttributeError), never None."""
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        x * 2.0
    return tape.jacobian(3, x)


def case_jacobian_of_a_python_list(tf):
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        x * 2.0
    return tape.jacobian([3.0], x)


def case_batch_jacobian_of_a_python_number(tf):
    x = tf.Variable([[1.0], [2.0]])
    with tf.GradientTape() as tape:
        x * 2.0
    return tape.batch_jacobian(2.5, x)
