"""tf.function: tracing (what prints and how often), input_signature, concrete functions,
methods, gradients, and tf.executing_eagerly, as TensorFlow's guides use them."""

# What the coverage table says of these names (build/coverage.py reads it).
NOTES = {
    'tf.function':
        'Traces: the first call with a new signature runs the Python body and records its '
        'primitives; later calls replay that graph (Python side effects once per trace). A '
        'trace that read a value in Python (if on a tensor, .numpy(), an op setting taken from '
        'a computed value, tf.print, random ops) runs its body on every call instead, printing '
        'only when TensorFlow would trace; no AutoGraph conversion (engine/tapegrad/function/).',
}



def case_print_runs_once_per_trace(tf):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a
    out = [double(tf.constant(1)), double(tf.constant(1.5)), double(tf.constant(2)),
           double(tf.constant([1.0, 2.0]))]
    return out, double.experimental_get_tracing_count()


def case_python_arguments_trace_per_value(tf):
    @tf.function
    def scale(x, factor):
        print("trace", factor)
        return x * factor
    x = tf.constant(2.0)
    out = [scale(x, 2.0), scale(x, 2.0), scale(x, 3.0), scale(x, 2)]
    return out, scale.experimental_get_tracing_count()


def case_nested_and_keyword_arguments_print_graph_names(tf):
    @tf.function
    def f(pair, scale=None, *rest, **options):
        print(pair, scale, rest, options)
        return pair[0] * pair[1]
    a = f([tf.constant(1.0), tf.constant(2.0)], scale=tf.constant(3.0))
    b = f([tf.constant(4.0), tf.constant(5.0)], tf.constant(6.0))
    c = f((tf.constant(1.0), tf.constant(2.0)), 1, tf.constant(2.0), z=tf.constant(3.0))
    return [a, b, c], f.experimental_get_tracing_count()


def case_numpy_arguments_trace_by_shape(tf):
    import numpy as np

    @tf.function
    def f(x):
        print("trace", x)
        return x * 2
    out = [f(np.array([1.0, 2.0])), f(np.array([3.0, 4.0])), f(np.float32(2.0))]
    return out, f.experimental_get_tracing_count()


def case_variables_trace_by_shape_and_dtype(tf):
    @tf.function
    def f(v):
        return v * 2
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable([2.0, 3.0])
    return [f(a), f(b), f(c)], f.experimental_get_tracing_count()


def case_reduce_retracing_relaxes_shapes(tf):
    @tf.function(reduce_retracing=True)
    def f(x):
        print("trace", x)
        return tf.reduce_sum(x)
    out = [f(tf.constant([1.0])), f(tf.constant([1.0, 2.0])), f(tf.constant([1.0, 2.0, 3.0])),
           f(tf.constant([[1.0]]))]
    return out, f.experimental_get_tracing_count()


def case_input_signature_traces_once(tf):
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def f(x):
        print("trace", x)
        return x + 1
    out = [f(tf.constant([1.0, 2.0])), f(tf.constant([3.0])), f([1, 2]), f(x=[4.0])]
    return out, f.experimental_get_tracing_count(), f.input_signature


def case_input_signature_rejects_dtype(tf):
    f = tf.function(lambda x: x, input_signature=[tf.TensorSpec([None], tf.float32)])
    return f(tf.constant([1, 2]))


def case_input_signature_rejects_shape(tf):
    f = tf.function(lambda x: x, input_signature=[tf.TensorSpec([None], tf.float32)])
    return f(tf.constant([[1.0]]))


def case_input_signature_rejects_extra_argument(tf):
    f = tf.function(lambda x: x, input_signature=[tf.TensorSpec([None], tf.float32)])
    return f(tf.constant([1.0]), tf.constant([1.0]))


def case_input_signature_rejects_string(tf):
    f = tf.function(lambda x: x, input_signature=[tf.TensorSpec([], tf.float32)])
    return f("a")


def case_input_signature_must_be_a_list(tf):
    return tf.function(lambda x: x, input_signature=tf.TensorSpec([None]))


def case_input_signature_must_hold_specs(tf):
    return tf.function(lambda x: x, input_signature=[3])


def case_input_signature_nested(tf):
    f = tf.function(lambda p: p[0] + p[1],
                    input_signature=[(tf.TensorSpec([]), tf.TensorSpec([]))])
    return f((tf.constant(1.0), tf.constant(2.0)))


def case_concrete_function_from_signature(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(x):
        return x * 2
    cf = g.get_concrete_function()
    return [cf(tf.constant([1.0, 2.0])), cf.structured_input_signature, repr(cf.structured_outputs),
            repr(cf.inputs), repr(cf.outputs), g.experimental_get_tracing_count()]


def case_concrete_function_traces_and_prints(tf):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a
    print("Obtaining concrete trace")
    cf = double.get_concrete_function(tf.TensorSpec([2], tf.int32))
    print("Executing traced function")
    out = cf(tf.constant([1, 2]))
    again = double.get_concrete_function(tf.constant([5, 6]))
    return [out, again(tf.constant([3, 4])), double.experimental_get_tracing_count(),
            str(cf.structured_input_signature)]


def case_concrete_function_rejects_dtype(tf):
    cf = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([None], tf.float32))
    return cf(tf.constant([1]))


def case_concrete_function_pretty_printed(tf):
    f = tf.function(lambda x: x + 1)
    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    return str(cf).replace("<lambda>", "f")


def case_concrete_function_keeps_variables(tf):
    v = tf.Variable(1.0)

    @tf.function
    def bump(x):
        v.assign_add(x)
        return v.read_value()
    bump.get_concrete_function(tf.TensorSpec([], tf.float32))
    return v.numpy(), bump(tf.constant(2.0)), v.numpy()


def case_module_method_traces_per_instance(tf):
    class Scale(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            print("tracing", x)
            return self.w * x
    a, b = Scale(), Scale()
    out = [a(tf.constant(1.0)), b(tf.constant(1.0)), a(tf.constant(2.0))]
    return out, a.__call__.experimental_get_tracing_count(), Scale.__call__.experimental_get_tracing_count()


def case_gradient_through_function(tf):
    w = tf.Variable(3.0)

    @tf.function
    def loss(x):
        return w * x * x

    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = loss(x)
    with tf.GradientTape() as tape2:
        z = loss(tf.constant(1.0))
    return tape.gradient(y, [x, w]), tape2.gradient(z, w)


def case_training_step_function(tf):
    w = tf.Variable([[1.0], [2.0]])
    b = tf.Variable([0.5])
    opt = tf.keras.optimizers.SGD(learning_rate=0.1)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.square(pred - y))
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        return loss

    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.constant([[1.0], [2.0]])
    losses = [train_step(x, y) for _ in range(3)]
    return losses, w, b, train_step.experimental_get_tracing_count()


def case_nested_functions_trace_once(tf):
    @tf.function
    def inner(a):
        print("inner", a)
        return a + 1

    @tf.function
    def outer(a):
        print("outer", a)
        return inner(a) * 2
    out = [outer(tf.constant(1.0)), outer(tf.constant(2.0)), inner(tf.constant(3.0))]
    return out, inner.experimental_get_tracing_count(), outer.experimental_get_tracing_count()


def case_executing_eagerly_inside(tf):
    @tf.function
    def f():
        return tf.executing_eagerly()
    return tf.executing_eagerly(), f()


def case_python_results_become_tensors(tf):
    @tf.function
    def f(x):
        return 1, 2.5, True, None, [x, 3]
    return f(tf.constant(1.0))


def case_decorator_with_options(tf):
    @tf.function(jit_compile=False, autograph=False, reduce_retracing=False)
    def f(x):
        return x ** 2
    return f(tf.constant(3.0)), f.__name__, callable(f.python_function)


def case_run_functions_eagerly_prints_every_call(tf):
    @tf.function
    def f(x):
        print("inside", tf.executing_eagerly())
        return x + 1
    tf.config.run_functions_eagerly(True)
    try:
        out = [f(tf.constant(1.0)), f(tf.constant(2.0))]
    finally:
        tf.config.run_functions_eagerly(False)
    f(tf.constant(3.0))
    return out


def case_autograph_helpers(tf):
    @tf.autograph.experimental.do_not_convert
    def plain(x):
        return x + 1
    tf.autograph.set_verbosity(0)
    return plain(tf.constant(1.0)), plain.__name__


def case_tensorspec_forms(tf):
    import numpy as np
    s = tf.TensorSpec([None, 3], tf.float32, name="a")
    return [repr(s), str(tf.TensorSpec([2])), repr(tf.TensorSpec(None)), repr(tf.TensorSpec(3)),
            repr(tf.TensorSpec((2, None), "int64")), repr(tf.TensorSpec([2], np.float64)),
            s.shape, s.dtype, s.name, repr(tf.TensorSpec(None).shape),
            s.is_compatible_with(tf.zeros([2, 3])), s.is_compatible_with(tf.zeros([2, 4])),
            s.is_compatible_with(tf.zeros([2, 3], tf.int32)),
            s.is_compatible_with(tf.TensorSpec([5, 3])),
            repr(tf.TensorSpec.from_tensor(tf.constant([1, 2]), name="z")),
            tf.TensorSpec([2]) == tf.TensorSpec([2]), tf.TensorSpec([2], name="a") == tf.TensorSpec([2])]


def case_variable_created_on_every_call_is_an_error(tf):
    @tf.function
    def f(x):
        print("trace f")
        v = tf.Variable(1.0)
        return v + x
    return f(1.0)


def case_variable_created_once_traces_twice(tf):
    class Count(tf.Module):
        def __init__(self):
            super().__init__()
            self.count = None

        @tf.function
        def __call__(self):
            print("trace count")
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)
    c = Count()
    return [c(), c(), c.__call__.experimental_get_tracing_count(), c.count]


def case_keras_layer_built_inside_function(tf):
    layer = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")

    @tf.function
    def f(x):
        print("trace", x.shape)
        return layer(x)
    out = [f(tf.constant([[1.0, 2.0]])), f(tf.constant([[3.0, 4.0]]))]
    return out, f.experimental_get_tracing_count(), len(layer.trainable_variables)


def case_returned_variable_comes_back_as_tensor(tf):
    v = tf.Variable(1.0)
    read = tf.function(lambda: v)
    bump = tf.function(lambda: v.assign_add(1.0))
    a, b = read(), bump()
    return [type(a).__name__, a, type(b).__name__, b]


def case_method_with_input_signature(tf):
    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def __call__(self, x):
            print("trace", x)
            return self.w * x
    m = Affine()
    out = [m(tf.constant([1.0])), m(tf.constant([1.0, 2.0]))]
    return out, m.__call__.experimental_get_tracing_count(), m.__call__.input_signature



def case_optimizer_variables_on_first_call_only(tf):
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)

    @tf.function
    def train_step(w, x, y, optimizer):
        print("trace")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w * x - y))
        optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        return loss

    w = tf.Variable(2.0)
    x, y = tf.constant([-1.0]), tf.constant([2.0])
    out = [train_step(w, x, y, opt1), w.numpy(), opt1.iterations.numpy(),
           train_step(w, x, y, opt1), w.numpy(), opt1.iterations.numpy()]
    try:
        train_step(w, x, y, opt2)
    except ValueError:
        out.append("ValueError for a second optimizer")
    return out, train_step.experimental_get_tracing_count()


def case_failed_trace_is_not_counted(tf):
    @tf.function
    def f(x):
        print("trace", x)
        if x > 1:
            raise ValueError("too big")
        return x
    f(0)
    try:
        f(5)
    except ValueError:
        pass
    return f.experimental_get_tracing_count()


# --- where tapegrad's message is its own -----------------------------------------------------------
case_input_signature_must_be_a_list.message_differs = (
    "the class's module path is tapegrad's", ("input_signature must be either a tuple or a list",
                                             "TensorSpec"))
case_variable_created_on_every_call_is_an_error.message_differs = (
    "TensorFlow prefixes the 'in user code' frame of the traced function; tapegrad gives the "
    "sentence alone", ("only supports singleton tf.Variables created on the first call",))
