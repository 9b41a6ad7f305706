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


# -- return, break and continue over tensors (lowered into flag variables) ---------------------
def case_return_in_nested_tensor_ifs_prints_once(tf):
    @tf.function
    def classify(x):
        print("tracing classify")
        if x < 0:
            if x < -10:
                return tf.constant(-2)
            return tf.constant(-1)
        if x > 10:
            return tf.constant(2)
        return tf.constant(0)
    out = [classify(tf.constant(v)) for v in (-20.0, -3.0, 0.5, 42.0)]
    return out, classify.experimental_get_tracing_count()


def case_return_value_statements_after_if_run_only_without_return(tf):
    @tf.function
    def f(x):
        if tf.reduce_max(x) > 5.0:
            return x * 0.0
        x = x + 1.0
        y = x * 2.0
        return y
    return [f(tf.constant([1.0, 2.0])), f(tf.constant([6.0, 1.0]))], \
        f.experimental_get_tracing_count()


def case_return_of_different_dtypes_in_branches(tf):
    @tf.function
    def f(x):
        if x > 0:
            return tf.constant(1)
        return tf.constant(1.0)
    return f(tf.constant(1.0))


def case_return_of_different_structures_in_branches(tf):
    @tf.function
    def f(x):
        if x > 0:
            return x, x
        return x
    return f(tf.constant(1.0))


def case_return_in_one_branch_only(tf):
    @tf.function
    def f(x):
        if x > 0:
            return x
    return f(tf.constant(1.0))


def case_return_inside_tensor_loop_is_not_supported(tf):
    @tf.function
    def first_positive(v):
        for item in v:
            if item > 0:
                return item
        return tf.constant(-1.0)
    return first_positive(tf.constant([-1.0, 2.0]))


def case_continue_in_tensor_while(tf):
    @tf.function
    def odd_sum(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            i += 1
            if i % 2 == 0:
                continue
            s += i
        return s
    return [odd_sum(tf.constant(v)) for v in (0, 5, 10)], odd_sum.experimental_get_tracing_count()


def case_break_in_for_over_tf_range(tf):
    @tf.function
    def steps_to_reach(x, target):
        total = tf.constant(0.0)
        n = tf.constant(0)
        for i in tf.range(100):
            if total >= target:
                break
            total += x
            n += 1
        return n, total
    out = [steps_to_reach(tf.constant(2.0), tf.constant(v)) for v in (0.0, 7.0, 20.0)]
    return out, steps_to_reach.experimental_get_tracing_count()


def case_break_and_continue_over_tensor_rows(tf):
    @tf.function
    def positive_prefix_sum(m):
        acc = tf.zeros([2])
        for row in m:
            if tf.reduce_sum(row) < 0:
                break
            if row[0] == 0:
                continue
            acc += row
        return acc
    out = [positive_prefix_sum(tf.constant([[1.0, 2.0], [0.0, 5.0], [3.0, 1.0], [-9.0, 0.0],
                                            [4.0, 4.0]])),
           positive_prefix_sum(tf.constant([[-1.0, 0.0], [2.0, 2.0], [1.0, 1.0], [1.0, 1.0],
                                            [1.0, 1.0]]))]
    return out, positive_prefix_sum.experimental_get_tracing_count()


def case_break_in_nested_loops_leaves_inner_only(tf):
    @tf.function
    def count_pairs(n):
        count = tf.constant(0)
        for i in tf.range(n):
            for j in tf.range(n):
                if j > i:
                    break
                count += 1
        return count
    return [count_pairs(tf.constant(v)) for v in (0, 3, 4)], count_pairs.experimental_get_tracing_count()


def case_while_else_runs_when_no_break(tf):
    @tf.function
    def search(x, wanted):
        i = tf.constant(0)
        found = tf.constant(-1)
        while i < tf.size(x):
            if x[i] == wanted:
                found = i
                break
            i += 1
        else:
            found = tf.constant(-100)
        return found
    x = tf.constant([4, 7, 9])
    return [search(x, tf.constant(7)), search(x, tf.constant(5))], search.experimental_get_tracing_count()


case_while_else_runs_when_no_break.known_divergence = (
    "TensorFlow's AutoGraph refuses a function holding a while/else (or for/else) and runs it as "
    "written, where bool() of a traced tensor is OperatorNotAllowedInGraphError; tapegrad also "
    "runs it as written (with the same warning), but reads the tensor in Python while tracing "
    "(the trace is then not replayable) and gives the results")


def case_break_on_tensor_in_python_loop_is_not_supported(tf):
    @tf.function
    def f(x):
        for _ in range(3):
            if x > 0:
                break
            x = x + 1.0
        return x
    return f(tf.constant(1.0))


def case_break_on_python_value_in_python_loop_unrolls(tf):
    @tf.function
    def f(x):
        for k in range(10):
            if k == 3:
                break
            print("unrolled step", k)
            x = x * 2.0
        return x
    return [f(tf.constant(1.0)), f(tf.constant(3.0))], f.experimental_get_tracing_count()


def case_to_code_shows_lowered_flags(tf):
    def f(x):
        for i in tf.range(5):
            if i > x:
                break
            if i == 1:
                continue
            x = x + i
        if x > 10:
            return x
        return -x
    code = tf.autograph.to_code(f)
    return [name in code for name in ("do_return", "retval_", "break_", "continue_")]


# -- explicit tf.cond / tf.while_loop / tf.case / tf.switch_case inside tf.function ------------
def case_explicit_cond_traces_both_branches_once(tf):
    @tf.function
    def f(x):
        def big():
            print("tracing big")
            return x * 100.0

        def small():
            print("tracing small")
            return x - 1.0
        return tf.cond(tf.reduce_sum(x) > 1.0, big, small)
    out = [f(tf.constant([1.0, 2.0])), f(tf.constant([0.1, 0.2])), f(tf.constant([3.0, 0.0]))]
    return out, f.experimental_get_tracing_count()


def case_explicit_cond_branches_of_different_dtypes(tf):
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32))
    return f(tf.constant(1.0))


def case_explicit_cond_branches_of_different_lengths(tf):
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: (x, x), lambda: x)
    return f(tf.constant(1.0))


def case_explicit_cond_branches_with_different_keys(tf):
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: {"pos": x}, lambda: {"neg": -x})
    return f(tf.constant(1.0))


def case_explicit_while_loop_traces_once(tf):
    @tf.function
    def collatz_steps(n):
        def body(n, steps):
            n = tf.where(n % 2 == 0, n // 2, 3 * n + 1)
            return n, steps + 1
        return tf.while_loop(lambda n, steps: n > 1, body, (n, tf.constant(0)))
    out = [collatz_steps(tf.constant(v)) for v in (1, 6, 27)]
    return out, collatz_steps.experimental_get_tracing_count()


def case_explicit_while_loop_maximum_and_parallel_iterations(tf):
    @tf.function
    def f(x, cap):
        return tf.while_loop(lambda v: v < 1000.0, lambda v: v * 2.0, [x],
                             maximum_iterations=cap, parallel_iterations=4)
    out = [f(tf.constant(1.0), tf.constant(3)), f(tf.constant(1.0), tf.constant(20)),
           f(tf.constant(5000.0), tf.constant(3))]
    return out, f.experimental_get_tracing_count()


def case_explicit_while_loop_variable_changes_shape(tf):
    @tf.function
    def f(x):
        return tf.while_loop(lambda v: tf.reduce_sum(v) < 10.0, lambda v: (tf.concat([v, v], 0),), (x,))  # noqa: E501
    return f(tf.constant([1.0]))


case_explicit_while_loop_variable_changes_shape.message_differs = (
    "TensorFlow names the loop variable by its graph tensor (`x:0`), which tapegrad's traces do "
    "not have: tapegrad names it by its place in loop_vars",
    ("Input tensor `loop_vars[0]` enters the loop with shape (1,), but has shape (2,)",))


def case_explicit_while_loop_shape_invariants(tf):
    @tf.function
    def f(x):
        return tf.while_loop(lambda v: tf.reduce_sum(v) < 10.0,
                             lambda v: (tf.concat([v, v], 0),), (x,),
                             shape_invariants=(tf.TensorShape([None]),))
    return [f(tf.constant([1.0])), f(tf.constant([4.0]))], f.experimental_get_tracing_count()


def case_explicit_while_loop_variable_changes_dtype(tf):
    @tf.function
    def f(x):
        return tf.while_loop(lambda i: i < 100, lambda i: tf.cast(i, tf.float32), [x])
    return f(tf.constant(0))


def case_explicit_while_loop_body_returns_too_many(tf):
    @tf.function
    def f(x):
        return tf.while_loop(lambda i: i < 100, lambda i: (i, i), [x])
    return f(tf.constant(0))


def case_explicit_switch_case_and_case_trace_once(tf):
    @tf.function
    def pick(i, x):
        return tf.switch_case(i, [lambda: x, lambda: x * 2.0, lambda: x * 3.0])

    @tf.function
    def piecewise(x):
        return tf.case([(x < 0, lambda: -x), (x > 5, lambda: x * 10.0)], default=lambda: x)
    picked = [pick(tf.constant(k), tf.constant(1.5)) for k in (0, 1, 2, 7, -1)]
    pieces = [piecewise(tf.constant(v)) for v in (-2.0, 7.0, 1.0)]
    return picked, pieces, pick.experimental_get_tracing_count(), \
        piecewise.experimental_get_tracing_count()


def case_explicit_case_branches_of_different_dtypes(tf):
    @tf.function
    def f(x):
        return tf.case([(x < 0, lambda: -x), (x > 5, lambda: tf.cast(x, tf.int32))], default=lambda: x)  # noqa: E501
    return f(tf.constant(1.0))


def case_gradient_through_explicit_cond_and_while_in_function(tf):
    @tf.function
    def f(x, w):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * w, lambda: tf.sin(x) * w * w)
        _, z = tf.while_loop(lambda i, z: tf.reduce_sum(z) < 20.0,
                             lambda i, z: (i + 1, z * 1.5 + w), (0, y), maximum_iterations=8)
        return tf.reduce_sum(z)
    w = tf.Variable(1.3)
    out = []
    for values in ([1.0, 2.0], [-1.0, -0.5], [0.1, 0.1]):
        x = tf.constant(values)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x, w)
        out.append((y, tape.gradient(y, [x, w])))
    return out, f.experimental_get_tracing_count()


def case_user_names_like_the_rewrites_own(tf):
    """Variables named as AutoGraph's flags and helpers keep their values."""
    @tf.function
    def f(x):
        do_return, retval_, break_1, if_body_1, continue_1 = 5.0, 7.0, 3.0, 2.0, 1.0
        for _ in tf.range(4):
            if x > 2.0:
                break
            if x < -5.0:
                continue
            x = x + 1.0
        if x > 10.0:
            return x + do_return + retval_
        return x - break_1 - if_body_1 - continue_1
    return [f(tf.constant(1.0)), f(tf.constant(11.0)), f(tf.constant(-9.0))]
