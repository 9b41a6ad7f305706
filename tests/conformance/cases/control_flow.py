"""Control flow as functions: cond, case, switch_case, while_loop, scan, foldl/foldr, map_fn,
vectorized_map, TensorArray and the grouping helpers; values, errors and gradients."""

# What the coverage table says of these names (build/coverage.py reads it).
NOTES = {
    'tf.switch_case':
        'TensorFlow quirk matched: an out-of-range branch index runs the last branch '
        '(or default).',
    'tf.case':
        'TensorFlow quirk matched: a non-callable in pred_fn_pairs raises '
        'AttributeError.',
    'tf.scan':
        'TensorFlow quirk matched: a Python list or scalar as elems raises '
        'IndexError/AttributeError.',
    'tf.TensorArray':
        'Eager copies share storage as in TensorFlow; clear_after_read defaults to '
        'True.',
    'tf.while_loop':
        'TensorFlow quirk matched: maximum_iterations with a bare tensor result raises '
        'ValueError.',
}



# -- cond / case / switch_case -------------------------------------------------------------------
def case_cond_python_and_tensor_predicates(tf):
    x = tf.constant(3.0)
    return [tf.cond(True, lambda: 1, lambda: 2), tf.cond(x > 5.0, lambda: x, lambda: (x * 2, 3)),
            tf.cond(tf.constant(1), lambda: "one", lambda: "other"),
            tf.cond(pred=x < 5.0, true_fn=lambda: x + 1, false_fn=lambda: x - 1)]


def case_cond_runs_only_the_branch_taken(tf):
    ran = []
    tf.cond(tf.constant(False), lambda: ran.append("true"), lambda: ran.append("false"))
    return ran


def case_cond_missing_false_fn(tf):
    return tf.cond(True, lambda: 1)


def case_cond_branch_not_callable(tf):
    return tf.cond(True, 3, lambda: 2)


def case_cond_vector_predicate(tf):
    return tf.cond(tf.constant([True, False]), lambda: 1, lambda: 2)


def case_cond_gradient_through_branch_taken(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(5.0)
    with tf.GradientTape(persistent=True) as tape:
        out = tf.cond(x > 1.0, lambda: x * x * 3.0, lambda: y * 2.0)
    return tape.gradient(out, x), tape.gradient(out, y)


def case_case_first_true_and_default(tf):
    x = tf.constant(3)
    first = tf.case([(x > 2, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))],
                    default=lambda: tf.constant(0))
    default = tf.case([(x > 5, lambda: tf.constant(1))], default=lambda: tf.constant(7))
    return first, default


def case_case_exclusive_with_two_true(tf):
    x = tf.constant(3)
    return tf.case([(x > 2, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))],
                   default=lambda: tf.constant(0), exclusive=True)


def case_case_none_true_without_default(tf):
    return tf.case([(tf.constant(3) > 5, lambda: tf.constant(1))])


def case_case_python_predicate(tf):
    return tf.case([(True, lambda: 1)], default=lambda: 2)


def case_case_entry_not_a_pair(tf):
    return tf.case([3])


def case_switch_case_lists_dicts_and_out_of_range(tf):
    fns = [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)]
    return [tf.switch_case(tf.constant(1), fns), tf.switch_case(tf.constant(7), fns),
            tf.switch_case(tf.constant(-1), fns),
            tf.switch_case(tf.constant(5), fns, default=lambda: tf.constant(99)),
            tf.switch_case(tf.constant(1, tf.int64), {1: lambda: tf.constant(1.5),
                                                      0: lambda: tf.constant(0.5)})]


def case_switch_case_python_index(tf):
    return tf.switch_case(1, [lambda: 1, lambda: 2])


def case_switch_case_float_index(tf):
    return tf.switch_case(tf.constant(1.0), [lambda: 1, lambda: 2])


def case_switch_case_keys_not_contiguous(tf):
    return tf.switch_case(tf.constant(1), {1: lambda: 1, 3: lambda: 3})


def case_switch_case_gradient(tf):
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = tf.switch_case(tf.constant(2), [lambda: x, lambda: x * x, lambda: tf.sin(x) * x])
    return y, tape.gradient(y, x)


# -- while_loop -----------------------------------------------------------------------------------
def case_while_loop_structures(tf):
    t = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), (0, tf.constant(1.0)))
    lst = tf.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * 2.0], [0, 1.0])
    mixed = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), [0, 1.0])
    one = tf.while_loop(lambda i: i < 10, lambda i: (i + 1,), [tf.constant(0)])
    return t, lst, mixed, one


def case_while_loop_nested_loop_vars(tf):
    return tf.while_loop(lambda d: d["i"] < 2,
                         lambda d: ({"i": d["i"] + 1, "v": d["v"] * 3.0},),
                         [{"i": 0, "v": tf.constant([1.0, 2.0])}])


def case_while_loop_maximum_iterations(tf):
    capped = tf.while_loop(lambda i: i < 10, lambda i: [i + 1], [tf.constant(0)],
                           maximum_iterations=4)
    never = tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)],
                          maximum_iterations=0)
    pair = tf.while_loop(lambda i, s: True, lambda i, s: (i + 1, s + i), (0, 0),
                         maximum_iterations=tf.constant(5))
    return capped, never, pair


def case_while_loop_shape_and_dtype_may_change(tf):
    grown = tf.while_loop(lambda x: tf.size(x) < 4, lambda x: (tf.concat([x, x], 0),),
                          [tf.constant([1.0])], shape_invariants=[tf.TensorShape([None])])
    return grown


def case_while_loop_single_variable_returned_bare(tf):
    return tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)])


def case_while_loop_bare_vector_of_wrong_length(tf):
    return tf.while_loop(lambda x: tf.size(x) < 3, lambda x: tf.concat([x, [1.0]], 0),
                         [tf.constant([1.0])])


def case_while_loop_bare_result_with_maximum_iterations(tf):
    return tf.while_loop(lambda i: True, lambda i: i + 1, [tf.constant(0)], maximum_iterations=5)


def case_while_loop_list_where_tuple_was(tf):
    return tf.while_loop(lambda i: i < 3, lambda i: [i + 1], (tf.constant(0),),
                         maximum_iterations=2)


def case_while_loop_wrong_count(tf):
    return tf.while_loop(lambda i, j: i < 3, lambda i, j: (i + 1,), [0, 1])


def case_while_loop_no_loop_vars(tf):
    return tf.while_loop(lambda: True, lambda: (), [])


def case_while_loop_vector_maximum_iterations(tf):
    return tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [0], maximum_iterations=[4])


def case_while_loop_body_not_callable(tf):
    return tf.while_loop(lambda i: i < 3, 3, [0])


def case_while_loop_gradient(tf):
    v = tf.Variable(1.5)
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        _, out = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * v + x),
                               [0, tf.constant(2.0)])
    return out, tape.gradient(out, [v, x])


def case_while_loop_gradient_dynamic_trip_count(tf):
    x = tf.Variable(1.1)
    with tf.GradientTape() as tape:
        (y,) = tf.while_loop(lambda y: y < 10.0, lambda y: (y * x + 1.0,), [tf.constant(1.0)])
    return y, tape.gradient(y, x)


# -- scan / fold ----------------------------------------------------------------------------------
def case_scan_forms(tf):
    return [tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])),
            tf.scan(lambda a, x: a + x, tf.constant([1.0, 2.0, 3.0]), initializer=tf.constant(10.0)),
            tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3]), reverse=True),
            tf.scan(lambda a, x: a + x, tf.constant([1, 2]), initializer=0),
            tf.scan(lambda a, x: a * x, tf.constant([[1.0, 2.0], [3.0, 4.0]]))]


def case_scan_nested(tf):
    pair = tf.scan(lambda a, x: (a[0] + x[0], a[1] * x[1]),
                   (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))
    state = tf.scan(lambda a, x: {"s": a["s"] + x, "n": a["n"] + 1}, tf.constant([1.0, 2.0]),
                    initializer={"s": tf.constant(0.0), "n": tf.constant(0)})
    return pair, state


def case_scan_empty(tf):
    return tf.scan(lambda a, x: a + x, tf.constant([], tf.float32), initializer=tf.constant(0.0))


def case_scan_empty_without_initializer(tf):
    return tf.scan(lambda a, x: a + x, tf.constant([], tf.float32))


def case_scan_scalar_elems(tf):
    return tf.scan(lambda a, x: a + x, tf.constant(1.0))


def case_scan_fn_not_callable(tf):
    return tf.scan(3, tf.constant([1.0]))


def case_fold_forms(tf):
    return [tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3])),
            tf.foldl(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]), initializer=tf.constant(0)),
            tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]), initializer=tf.constant(0)),
            tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3])),
            tf.foldl(lambda a, x: a + x[0] * x[1], (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
                     initializer=tf.constant(0.0)),
            tf.foldl(lambda a, x: a + x, tf.constant([1, 2]), initializer=5)]


def case_foldl_empty(tf):
    return tf.foldl(lambda a, x: a + x, tf.constant([], tf.float32))


def case_scan_and_fold_gradients(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        s = tf.scan(lambda a, e: a * e, x)
        f = tf.foldl(lambda a, e: a + e * e, x, initializer=tf.constant(0.0))
        r = tf.foldr(lambda a, e: a * 2.0 + e, x)
        init = tf.Variable(0.5)
        s2 = tf.scan(lambda a, e: a * e + 1.0, x, initializer=init)
    return [tape.gradient(s, x), tape.gradient(f, x), tape.gradient(r, x), tape.gradient(s2, x),
            tape.gradient(s2, init)]


# -- map_fn / vectorized_map ------------------------------------------------------------------------
def case_map_fn_forms(tf):
    return [tf.map_fn(lambda x: x * x, tf.constant([1.0, 2.0, 3.0])),
            tf.map_fn(lambda x: x * 2, tf.constant([[1, 2], [3, 4]])),
            tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]),
                      fn_output_signature=tf.float32),
            tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]), dtype=tf.float32),
            tf.map_fn(lambda x: x[0] + x[1], (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
                      fn_output_signature=tf.float32),
            tf.map_fn(lambda x: (x, x * 2), tf.constant([1.0, 2.0]),
                      fn_output_signature=(tf.float32, tf.float32)),
            tf.map_fn(lambda d: d["a"] * d["b"], {"a": tf.constant([1.0, 2.0]),
                                                  "b": tf.constant([3.0, 4.0])},
                      fn_output_signature=tf.float32),
            tf.map_fn(lambda x: 1.0, tf.constant([1.0, 2.0])),
            tf.map_fn(lambda x: x + 1, tf.constant([], tf.float32)),
            tf.map_fn(lambda x: x * 2, tf.constant([1.0, 2.0]),
                      fn_output_signature=tf.TensorSpec([], tf.float32)),
            tf.map_fn(lambda x: tf.reduce_sum(x), tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                      fn_output_signature=tf.float32)]


def case_map_fn_dtype_change_without_signature(tf):
    return tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]))


def case_map_fn_structure_change_without_signature(tf):
    return tf.map_fn(lambda x: x[0] + x[1], (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])))


def case_map_fn_scalar_elems(tf):
    return tf.map_fn(lambda x: x + 1, tf.constant(1.0))


def case_map_fn_python_list_elems(tf):
    return tf.map_fn(lambda x: x + 1, [1.0, 2.0])


def case_map_fn_results_of_different_shapes(tf):
    return tf.map_fn(lambda x: tf.range(x), tf.constant([1, 2]))


def case_map_fn_elems_of_different_lengths(tf):
    return tf.map_fn(lambda x: x[0], (tf.constant([1.0, 2.0]), tf.constant([3.0])))


def case_vectorized_map_forms(tf):
    return [tf.vectorized_map(lambda x: x * x + 1.0, tf.constant([1.0, 2.0, 3.0])),
            tf.vectorized_map(lambda x: x[0] @ x[1], (tf.ones([2, 2, 3]), tf.ones([2, 3, 1]))),
            tf.vectorized_map(lambda x: 1.0, tf.constant([1.0, 2.0])),
            tf.vectorized_map(lambda x: tf.reduce_sum(x), tf.constant([[1, 2], [3, 4]]))]


def case_map_gradients(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    w = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        m = tf.map_fn(lambda e: e ** 2 * w, x)
        v = tf.vectorized_map(lambda e: tf.sin(e) * w, x)
    return [tape.gradient(m, x), tape.gradient(m, w), tape.gradient(v, x), tape.gradient(v, w)]


# -- TensorArray ------------------------------------------------------------------------------------
def case_tensor_array_write_read_stack(tf):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in range(3):
        ta = ta.write(i, float(i) * 2)
    return [ta.stack(), ta.size(), ta.read(1), ta.gather([2, 0]), ta.dtype, ta.dynamic_size,
            ta.element_shape]


def case_tensor_array_properties(tf):
    return [tf.TensorArray(tf.float32, 2, element_shape=[2]).element_shape,
            repr(tf.TensorArray(tf.float32, 2).element_shape),
            tf.TensorArray(tf.float32, 2).write(0, [1.0, 2.0]).element_shape,
            tf.TensorArray(tf.int32, 3).size(), tf.TensorArray(tf.float32, 2).dynamic_size]


def case_tensor_array_unwritten_are_zeros(tf):
    return [tf.TensorArray(tf.float32, 3).write(1, 5.0).stack(),
            tf.TensorArray(tf.float32, 2, element_shape=[2]).read(1),
            tf.TensorArray(tf.float32, 0).stack(),
            tf.TensorArray(tf.float32, 0, element_shape=[2]).stack(),
            tf.TensorArray(tf.float32, size=0, dynamic_size=True).stack()]


def case_tensor_array_unstack_scatter_split_concat(tf):
    un = tf.TensorArray(tf.float32, 0, dynamic_size=True).unstack([[1.0, 2.0], [3.0, 4.0]])
    sc = tf.TensorArray(tf.float32, 3).scatter([2, 0], [[1.0], [2.0]])
    sp = tf.TensorArray(tf.float32, 2, clear_after_read=False).split([1.0, 2.0, 3.0], [1, 2])
    free = tf.TensorArray(tf.float32, 2, infer_shape=False).write(0, [1.0]).write(1, [1.0, 2.0])
    return [un.read(1), un.size(), sc.stack(), sp.read(1), sp.concat(), free.concat()]


def case_tensor_array_cleared_element_of_unknown_shape(tf):
    sp = tf.TensorArray(tf.float32, 2).split([1.0, 2.0, 3.0], [1, 2])
    sp.read(1)
    return sp.concat()


def case_tensor_array_write_shares_storage(tf):
    ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
    ta2 = ta.write(0, 1.0)
    return [ta2 is ta, ta.read(0), ta2.read(0), ta.size()]


def case_tensor_array_write_python_int_to_float(tf):
    return tf.TensorArray(tf.float32, size=2).write(0, 1).read(0)


def case_tensor_array_write_out_of_range(tf):
    return tf.TensorArray(tf.float32, size=2).write(2, 1.0)


def case_tensor_array_write_negative_index(tf):
    return tf.TensorArray(tf.float32, size=2).write(-1, 1.0)


def case_tensor_array_write_wrong_dtype(tf):
    return tf.TensorArray(tf.float32, size=2).write(0, tf.constant(1))


def case_tensor_array_read_out_of_range(tf):
    return tf.TensorArray(tf.float32, size=2).read(5)


def case_tensor_array_read_twice(tf):
    ta = tf.TensorArray(tf.float32, 1).write(0, 1.0)
    ta.read(0)
    return ta.read(0)


def case_tensor_array_write_other_shape(tf):
    return tf.TensorArray(tf.float32, 2).write(0, [1.0, 2.0]).write(1, [1.0])


def case_tensor_array_element_shape_mismatch(tf):
    return tf.TensorArray(tf.float32, 2, element_shape=[2]).write(0, [1.0])


def case_tensor_array_unstack_too_many(tf):
    return tf.TensorArray(tf.float32, 1).unstack([[1.0, 2.0], [3.0, 4.0]])


def case_tensor_array_concat_scalars(tf):
    ta = tf.TensorArray(tf.float32, 2).write(0, 1.0).write(1, 2.0)
    return ta.concat()


def case_tensor_array_without_size(tf):
    return tf.TensorArray(tf.float32)


def case_tensor_array_float_index(tf):
    return tf.TensorArray(tf.float32, 2).write(0.0, 1.0)


def case_tensor_array_tensor_index(tf):
    return tf.TensorArray(tf.float32, 2).write(tf.constant(1), 1.0).read(1)


def case_tensor_array_gradients(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        ta = tf.TensorArray(tf.float32, size=3)
        for i in range(3):
            ta = ta.write(i, x[i] * x[i])
        y = tf.reduce_sum(ta.stack() * tf.constant([1.0, 10.0, 100.0]))
        tb = tf.TensorArray(tf.float32, size=3).unstack(x * 2.0)
        z = tb.read(1) + tb.gather([2, 2])
        tc = tf.TensorArray(tf.float32, size=2).split(x * x, [1, 2])
        w = tf.reduce_sum(tc.concat() * tf.constant([1.0, 2.0, 3.0]))
    return tape.gradient(y, x), tape.gradient(z, x), tape.gradient(w, x)


def case_tensor_array_in_while_loop_gradient(tf):
    x = tf.Variable(1.5)

    def body(i, acc, ta):
        acc = acc * x
        return i + 1, acc, ta.write(i, acc)

    with tf.GradientTape() as tape:
        _, _, ta = tf.while_loop(lambda i, acc, ta: i < 4, body,
                                 (0, tf.constant(1.0), tf.TensorArray(tf.float32, size=4)))
        powers = ta.stack()
        total = tf.reduce_sum(powers)
    return powers, tape.gradient(total, x)


# -- grouping -----------------------------------------------------------------------------------------
def case_grouping_helpers(tf):
    with tf.control_dependencies([tf.constant(1.0)]) as ctx:
        y = tf.constant(2.0) * 3.0
    return [tf.no_op(), tf.group(tf.constant(1.0), tf.constant(2.0)), ctx, y,
            tf.identity_n([tf.constant(1.0), 2.0])]


def case_identity_n_gradient(tf):
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        a, b = tf.identity_n([x * 2.0, x])
        y = a * b
    return tape.gradient(y, x)


# --- where tapegrad's message is its own -----------------------------------------------------------
_STRUCTURES = ("TensorFlow prints both whole structures (TensorSpecs and tensors); tapegrad says "
               "where they differ and how to fix the body")
case_map_fn_structure_change_without_signature.message_differs = (
    _STRUCTURES, ("The two structures don't have the same nested structure",
                  "the body returned a single value"))
case_while_loop_bare_result_with_maximum_iterations.message_differs = (
    _STRUCTURES, ("don't have the same nested structure", "return a 1-tuple"))
case_while_loop_bare_vector_of_wrong_length.message_differs = (
    _STRUCTURES, ("don't have the same nested structure", "return a 1-tuple"))
case_while_loop_list_where_tuple_was.message_differs = (
    _STRUCTURES, ("don't have the same sequence type", "a tuple where the body returned a list"))
case_while_loop_wrong_count.message_differs = (
    _STRUCTURES, ("don't have the same number of elements", "2 loop variables"))
case_while_loop_single_variable_returned_bare.message_differs = (
    "TensorFlow fails inside its loop with 'Cannot iterate over a scalar tensor'; tapegrad says "
    "what the body must return", ("'body' must return a list or tuple of the 1 loop variables",))
case_scan_fn_not_callable.message_differs = (
    "TensorFlow fails reading fn.__name__ ('int' object has no attribute '__name__'); tapegrad "
    "says that fn must be callable", ("'fn' must be callable", "got 3"))
case_tensor_array_cleared_element_of_unknown_shape.message_differs = (
    "TensorFlow's sentence, followed by which element is empty and why it cannot be filled",
    ("Cannot convert a partially known TensorShape <unknown> to a Tensor", "element 1 is empty"))
