"""The eager Tensor and Variable surface learners touch: graph-only attributes (their eager
errors), set_shape/get_shape, ref()/deref(), Python conversions (len, bool, index, __array__),
assign's read_value, the sparse reads and the scatter updates of a variable."""
import numpy as np

NOTES = {
    "tf.Variable": "a non-callable constraint raises TensorFlow's ValueError text, its repeated "
                   "'a callable.' included; assign/scatter updates return the variable printed "
                   "as 'UnreadVariable'",
    "tf.Tensor": "indexing with a float scalar tensor raises AttributeError (NumPy's), as TF",
}


def _try(fn):
    """The result, or the exception's class name and message (for checks whose message
    matters, not only its class)."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]


def _rows(tf):
    return tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])


def _slices(tf, values, indices):
    return tf.IndexedSlices(tf.constant(values), tf.constant(indices), tf.constant([3, 2]))


def case_tensor_graph_attributes_eager_errors(tf):
    t = tf.constant([[1.0, 2.0]])
    return [_try(lambda: t.graph), _try(lambda: t.op), _try(lambda: t.name),
            _try(lambda: t.value_index), _try(t.consumers), _try(t.eval)]


def case_tensor_devices(tf):
    t = tf.constant([1, 2])
    return [t.device, t.backing_device, t.is_packed, t.cpu(), t.ndim]


def case_tensor_set_shape(tf):
    t = tf.constant([[1.0, 2.0]])
    return [t.set_shape([1, 2]), t.set_shape([None, 2]), t.set_shape(tf.TensorShape(None)),
            t.set_shape([None, None]), _try(lambda: t.set_shape([2, 2])),
            _try(lambda: t.set_shape([2])), t.get_shape(), t.get_shape().as_list()]


def case_tensor_ref_deref(tf):
    a, b = tf.constant([1.0]), tf.constant([1.0])
    table = {a.ref(): "a", b.ref(): "b"}
    print(repr(a.ref()))
    return [table[a.ref()], a.ref() == a.ref(), a.ref() == b.ref(), a.ref().deref() is a,
            a.experimental_ref().deref() is a, _try(lambda: hash(a))]


def case_tensor_python_conversions(tf):
    t = tf.constant([[1.0, 2.0]])
    return [len(t), _try(lambda: len(tf.constant(1.0))), _try(lambda: bool(t)),
            bool(tf.constant(0.0)), bool(tf.constant([3])), [10, 20, 30][tf.constant(1)],
            [10, 20, 30][tf.constant(2, tf.int64)], _try(lambda: [1, 2][tf.constant([1])]),
            int(tf.constant(7)), float(tf.constant(2.5))]


def case_tensor_index_of_float_raises(tf):
    return [10, 20][tf.constant(1.0)]


def case_tensor_array_protocol(tf):
    t = tf.constant([[1.0, 2.0]])
    a = np.asarray(t)
    b = t.__array__(dtype=np.float64)
    return [a.dtype.name, a.tolist(), b.dtype.name, np.add(t, 1).tolist(),
            np.array(tf.constant(3)).tolist()]


def case_tensor_gpu_unknown_device(tf):
    return tf.constant(1.0).gpu()


def case_variable_eager_errors_and_defaults(tf):
    v = tf.Variable([1.0, 2.0], name="w")
    return [_try(lambda: v.graph), _try(lambda: v.op), _try(lambda: v.initial_value),
            v.initializer, v.constraint, _try(v.eval), _try(v.to_proto),
            _try(lambda: setattr(v, "trainable", False)), v.trainable, v.is_initialized(),
            v.read_value_no_copy()]


def case_variable_constraint_kept(tf):
    v = tf.Variable([1.0, -2.0], constraint=lambda x: tf.maximum(x, 0.0))
    return [callable(v.constraint), v.constraint(v), _try(lambda: tf.Variable(1.0, constraint=3))]


def case_variable_set_shape(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    return [v.set_shape([2, 2]), v.set_shape([None, 2]), _try(lambda: v.set_shape([3, 2]))]


def case_variable_assign_read_value(tf):
    v = tf.Variable([1.0, 2.0], name="w")
    out = [v.assign([3.0, 4.0], read_value=False), v.assign_add([1.0, 1.0], read_value=False),
           v.assign_sub([0.5, 0.5], read_value=False), v.numpy()]
    r = v.assign([5.0, 6.0], use_locking=True)
    print(repr(r))
    print(v.assign_add([1.0, 1.0]))
    out += [r.numpy(), r.name, r.shape, r.dtype, v.name, v.load([0.0, 1.0]), v.numpy()]
    return out


def case_variable_unread_tracks_the_variable(tf):
    v = tf.Variable(1.0)
    r = v.assign(2.0)
    v.assign_add(3.0)
    chained = v.assign(1.0).assign_add(4.0)
    return [r.numpy(), chained.numpy(), v.numpy(), r + 1.0]


def case_variable_assign_gradient_through_returned(tf):
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        r = v.assign(2.0)
        y = r * r
    return [y, tape.gradient(y, v)]


def case_variable_sparse_read_and_gather_nd(tf):
    v = _rows(tf)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v.sparse_read([2, 0, 2]) * [[1.0, 2.0]]) + \
            tf.reduce_sum(v.gather_nd([[1, 0], [0, 1]]))
    g = tape.gradient(y, v)
    return [v.sparse_read([1]), v.gather_nd([[2, 1]]), v.gather_nd([[1]]), y,
            tf.convert_to_tensor(g)]


def case_variable_scatter_rows(tf):
    out = []
    for method in ("scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
                   "scatter_max", "scatter_min"):
        v = _rows(tf)
        r = getattr(v, method)(_slices(tf, [[10.0, 20.0], [2.0, 2.0]], [2, 0]))
        out.append([method, r.numpy(), v.numpy()])
    return out


def case_variable_scatter_repeated_rows_accumulate(tf):
    v = _rows(tf)
    v.scatter_add(_slices(tf, [[1.0, 1.0], [2.0, 2.0], [4.0, 4.0]], [1, 1, 0]))
    w = _rows(tf)
    w.scatter_mul(_slices(tf, [[2.0, 2.0], [3.0, 3.0]], [2, 2]))
    return [v, w]


def case_variable_scatter_needs_indexed_slices(tf):
    return _rows(tf).scatter_update([1.0, 2.0])


def case_variable_batch_scatter_update(tf):
    v = _rows(tf)
    r = v.batch_scatter_update(_slices(tf, [[9.0, 9.0]], [1]))
    return [r.numpy(), v]


def case_variable_scatter_nd(tf):
    out = []
    for method in ("scatter_nd_update", "scatter_nd_add", "scatter_nd_sub", "scatter_nd_max",
                   "scatter_nd_min"):
        v = tf.Variable([1.0, 2.0, 3.0, 4.0])
        out.append([method, getattr(v, method)([[1], [3]], [10.0, -5.0]).numpy(), v.numpy()])
    m = _rows(tf)
    m.scatter_nd_update([[0, 1], [2, 0]], [-1.0, -2.0])
    s = _rows(tf)
    s.scatter_nd_add([[1]], [[100.0, 200.0]])
    return [out, m, s]


def case_variable_scatter_nd_out_of_range(tf):
    return tf.Variable([1.0, 2.0]).scatter_nd_update([[5]], [1.0])


def case_variable_ref(tf):
    v = tf.Variable(1.0)
    print(repr(v.ref()))
    return [{v.ref(): 1}[v.ref()], v.ref().deref() is v, v.experimental_ref() == v.ref()]


def case_variable_slice_assign(tf):
    """variable[key].assign(value) writes into the variable (a scalar broadcasts) and returns it;
    a value that cannot broadcast to the slice is refused; a slice of a slice's product is a
    plain tensor again."""
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    out = [w[0, 0].assign(-1.0), w[1].assign([7.0, 8.0]), w[:, 1].assign([5.0, 6.0]),
           w[1].assign(5.0)]
    for bad in (lambda: w[1].assign([7.0, 8.0, 9.0]), lambda: w[0, 0].assign([1.0, 2.0]),
                lambda: (w[0] * 2).assign(1.0)):
        try:
            out.append(bad())
        except Exception as e:  # noqa: BLE001 - the class is the outcome
            out.append(type(e).__name__)
    return out + [w]
