"""AutoGraph: Python ``if``/``while``/``for`` over tensors inside a ``tf.function`` become graph
control flow (one trace serves inputs taking either branch), loops over Python values unroll,
``autograph=False`` keeps Python's own control flow, and the errors a converted branch or loop
raises. Written from TensorFlow's guides "Introduction to graphs and tf.function", "Better
performance with tf.function" and the AutoGraph reference, in our own words."""


def case_if_over_tensor_traces_once(tf):
    @tf.function
    def sign_double(x):
        if tf.reduce_sum(x) > 0:
            y = x * 2
        else:
            y = -x
        return y
    out = [sign_double(tf.constant([1.0, 2.0])), sign_double(tf.constant([-3.0, 1.0])),
           sign_double(tf.constant([4.0, 0.5]))]
    return out, sign_double.experimental_get_tracing_count()


def case_if_without_else_keeps_value(tf):
    @tf.function
    def clip(x):
        y = x
        if x > 3.0:
            y = tf.constant(3.0)
        return y
    return [clip(tf.constant(1.0)), clip(tf.constant(5.0))], clip.experimental_get_tracing_count()


def case_print_in_both_branches_once_per_trace(tf):
    @tf.function
    def pick(x):
        if x > 0:
            print("then branch traced")
            y = x + 1
        else:
            print("else branch traced")
            y = x - 1
        return y
    out = [pick(tf.constant(1)), pick(tf.constant(-1)), pick(tf.constant(7))]
    return out, pick.experimental_get_tracing_count()


def case_if_over_python_value_is_plain_python(tf):
    @tf.function
    def scaled(x, double):
        if double:
            print("double branch")
            return x * 2
        print("plain branch")
        return x
    out = [scaled(tf.constant(2.0), True), scaled(tf.constant(2.0), False),
           scaled(tf.constant(3.0), True)]
    return out, scaled.experimental_get_tracing_count()


def case_while_over_tensor(tf):
    @tf.function
    def grow(x):
        while tf.reduce_sum(x) < 10.0:
            x = x * 2
        return x
    out = [grow(tf.constant([1.0, 1.0])), grow(tf.constant([3.0, 0.5])),
           grow(tf.constant([20.0, 1.0]))]
    return out, grow.experimental_get_tracing_count()


def case_while_counter_and_accumulator(tf):
    @tf.function
    def total(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            s += i * i
            i += 1
        return s
    return [total(tf.constant(4)), total(tf.constant(0)), total(tf.constant(6))], \
        total.experimental_get_tracing_count()


def case_for_over_tf_range(tf):
    @tf.function
    def power(x, n):
        y = tf.ones_like(x)
        for _ in tf.range(n):
            y = y * x
        return y
    return [power(tf.constant(2.0), tf.constant(3)), power(tf.constant(3.0), tf.constant(2))], \
        power.experimental_get_tracing_count()


def case_for_over_tensor_rows(tf):
    @tf.function
    def row_sum(m):
        acc = tf.zeros([2])
        for row in m:
            acc = acc + row
        return acc
    return row_sum(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))


def case_for_over_python_range_unrolls(tf):
    traced = []

    @tf.function
    def poly(x):
        y = tf.zeros_like(x)
        for k in range(3):
            traced.append(k)
            y = y + x ** k
        return y
    out = [poly(tf.constant(2.0)), poly(tf.constant(3.0))]
    return out, traced, poly.experimental_get_tracing_count()


def case_gradient_through_converted_if(tf):
    @tf.function
    def f(x):
        if x > 0:
            y = x * x
        else:
            y = -3.0 * x
        return y
    grads = []
    for v in (2.0, -1.0, 5.0):
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        grads.append(tape.gradient(y, x))
    return grads, f.experimental_get_tracing_count()


def case_gradient_through_converted_while(tf):
    @tf.function
    def f(x):
        while x < 100.0:
            x = x * 3.0
        return x
    grads = []
    for v in (2.0, 50.0):
        x = tf.constant(v)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        grads.append((y, tape.gradient(y, x)))
    return grads


def case_variable_defined_in_one_branch_only(tf):
    @tf.function
    def f(x):
        if x > 0:
            y = x
        return y
    return f(tf.constant(1.0))


def case_branches_with_different_dtypes(tf):
    @tf.function
    def f(x):
        if x > 0:
            y = tf.constant(1)
        else:
            y = tf.constant(1.0)
        return y
    return f(tf.constant(1.0))


def case_loop_variable_changes_dtype(tf):
    @tf.function
    def f(x):
        while x < 10:
            x = tf.cast(x, tf.float32) * 2.0
        return x
    return f(tf.constant(1))


def case_loop_variable_changes_shape(tf):
    @tf.function
    def f(x):
        while tf.reduce_sum(x) < 10.0:
            x = tf.concat([x, x], 0)
        return x
    return f(tf.constant([1.0]))


def case_autograph_false_bool_of_tensor_fails(tf):
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x
    return f(tf.constant(1.0))


def case_autograph_false_python_loop_still_runs(tf):
    @tf.function(autograph=False)
    def f(x):
        for k in range(3):
            x = x + k
        return x
    return f(tf.constant(1.0)), f.experimental_get_tracing_count()


def case_converted_nested_user_function(tf):
    def relu_ish(v):
        if v > 0:
            r = v
        else:
            r = 0.1 * v
        return r

    @tf.function
    def f(x):
        return relu_ish(x) + 1.0
    return [f(tf.constant(2.0)), f(tf.constant(-2.0))], f.experimental_get_tracing_count()


def case_elif_chain(tf):
    @tf.function
    def bucket(x):
        if x < 0:
            b = tf.constant(0)
        elif x < 10:
            b = tf.constant(1)
        else:
            b = tf.constant(2)
        return b
    return [bucket(tf.constant(v)) for v in (-5, 3, 50)], bucket.experimental_get_tracing_count()


def case_break_in_tensor_while(tf):
    @tf.function
    def first_over(x, limit):
        i = tf.constant(0)
        while i < 100:
            if i * x > limit:
                break
            i += 1
        return i
    return [first_over(tf.constant(3), tf.constant(10)), first_over(tf.constant(5), tf.constant(12))]


def case_return_in_tensor_if(tf):
    @tf.function
    def f(x):
        if x > 0:
            return x * 10
        return x
    return [f(tf.constant(2)), f(tf.constant(-2))], f.experimental_get_tracing_count()


def case_to_code_is_text(tf):
    def f(x):
        if x > 0:
            x = x * 2
        return x
    code = tf.autograph.to_code(f)
    return isinstance(code, str), "def " in code
