"""SavedModel: ``tf.saved_model.save`` of a ``tf.Module`` with ``tf.function`` methods and of Keras
models, ``tf.saved_model.load``, signatures, and Keras 3's ``model.export`` for serving.

Written from TensorFlow's guide "Using the SavedModel format" (saving a custom model, the
``signatures`` argument, loading and fine-tuning, concrete functions kept only for the signatures
a function was traced with) and Keras 3's ``Model.export`` reference; recorded under TensorFlow
2.21 / Keras 3.15. Each case saves into its own temporary directory.

What the recording showed beside the fixtures: TensorFlow writes ``saved_model.pb``,
``fingerprint.pb``, ``variables/`` and ``assets/``; tapegrad writes its own format
(``saved_model.json``, ``variables/variables.npz``, ``constants.npz``: docs/saved-model.md), so
the two libraries cannot read each other's SavedModels and no case compares file names. A loaded
object in TensorFlow also has ``graph_debug_info``, ``tensorflow_version`` and
``tensorflow_git_version`` attributes; the cases look at the saved attributes only.
``model.export`` prints the ids of the captured variables (different on every run): the cases
keep the lines before them.
"""
import contextlib
import io
import os
import tempfile

import numpy as np


def _dir():
    return os.path.join(tempfile.mkdtemp(), "model")


def _module(tf):
    class Affine(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]], name="w")
            self.b = tf.Variable([0.25, -0.5], name="b")
            self.steps = tf.Variable(0, name="steps")
            self.inner = tf.Module()
            self.inner.scale = tf.Variable(3.0, name="scale")
            self.extra = [tf.Variable(1.5, name="first"), tf.Variable(2.0, name="second")]

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def __call__(self, x):
            self.steps.assign_add(1)
            return tf.tanh(tf.matmul(x, self.w) + self.b) * self.extra[0] + self.extra[1]

        @tf.function
        def pair(self, x):
            return {"sum": x + self.inner.scale, "product": x * self.inner.scale}

        @tf.function
        def mode(self, x, training):
            return x * 2.0 if training else x - 1.0

        @tf.function
        def unused(self, x):
            return x
    return Affine()


X = [[0.1, -0.2, 0.3], [1.0, 0.5, -0.4]]


def _specs(structure):
    """A signature's dict (or ``(args, dict)``) as sorted text: TensorFlow gives these dicts in
    the order of its protobuf maps, no order to rely on."""
    if isinstance(structure, tuple):
        return [_specs(part) for part in structure]
    return sorted((k, repr(v)) for k, v in structure.items()) if isinstance(structure, dict) \
        else repr(structure)


def _saved(tf, obj, **kwargs):
    path = _dir()
    tf.saved_model.save(obj, path, **kwargs)
    return tf.saved_model.load(path)


def case_module_call_and_attributes(tf):
    m = _module(tf)
    loaded = _saved(tf, m)
    names = ["w", "b", "steps", "inner", "extra", "pair", "mode", "unused", "signatures"]
    return (loaded(tf.constant(X)), [hasattr(loaded, n) for n in names],
            loaded.inner.scale, loaded.extra[1], loaded.w.name, list(loaded.signatures))


def case_module_assignment_runs_on_each_call(tf):
    loaded = _saved(tf, _module(tf))
    loaded(tf.constant(X))
    loaded(tf.constant(X))
    return loaded.steps


def case_restored_variables_are_used_by_functions(tf):
    loaded = _saved(tf, _module(tf))
    before = loaded(tf.constant(X))
    loaded.extra[1].assign(12.0)
    loaded.w.assign(tf.zeros([3, 2]))
    return before, loaded(tf.constant(X))


def case_signatures_named_outputs(tf):
    m = _module(tf)
    m.pair(tf.constant([1.0, 2.0]))
    loaded = _saved(tf, m, signatures={
        "serving_default": m.__call__,
        "pair": m.pair.get_concrete_function(tf.TensorSpec([2], tf.float32))})
    serving = loaded.signatures["serving_default"]
    return (list(loaded.signatures.keys()), _specs(serving.structured_input_signature),
            _specs(serving.structured_outputs), serving(x=tf.constant(X)),
            serving(tf.constant(X)), loaded.signatures["pair"](x=tf.constant([1.0, 1.0])))


def case_signature_too_many_arguments(tf):
    m = _module(tf)
    loaded = _saved(tf, m, signatures=m.__call__)
    return loaded.signatures["serving_default"](tf.constant(X), 3)


case_signature_too_many_arguments.message_differs = (
    "tapegrad names the signature's arguments; TensorFlow tells how binding failed twice",
    ("takes 1 positional arguments, got 2",))


def case_one_function_with_input_signature_is_the_default(tf):
    class One(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="values")])
        def scaled(self, x):
            return (x * self.v, x + self.v)
    loaded = _saved(tf, One())
    serving = loaded.signatures["serving_default"]
    return (list(loaded.signatures), _specs(serving.structured_input_signature),
            _specs(serving.structured_outputs), serving(values=tf.constant([1.0])))


def case_only_traced_signatures_are_kept(tf):
    m = _module(tf)
    m.mode(tf.constant(1.0), True)
    m.mode(tf.constant([1.0, 2.0]), False)
    loaded = _saved(tf, m)
    return (loaded.mode(tf.constant(3.0), True), loaded.mode(tf.constant([3.0, 4.0]), False),
            loaded.mode(x=tf.constant(5.0), training=True))


def case_untraced_function_cannot_be_called(tf):
    loaded = _saved(tf, _module(tf))
    return loaded.unused(tf.constant(1.0))


def case_call_with_an_unsaved_signature(tf):
    m = _module(tf)
    m.pair(tf.constant([1.0, 2.0]))
    loaded = _saved(tf, m)
    return loaded.pair(tf.constant([1.0, 2.0, 3.0]))


case_call_with_an_unsaved_signature.message_differs = (
    "tapegrad prints the tensor given without a graph name",
    ("Could not find matching concrete function to call loaded from the SavedModel",
     "Option 1:", "TensorSpec(shape=(2,), dtype=tf.float32, name='x')"))


def case_pretty_printed_concrete_signatures(tf):
    # (a function returning one tensor: a dict's items print in the order of TensorFlow's
    # protobuf map, which changes from run to run)
    m = _module(tf)
    m.mode(tf.constant(1.0), True)
    m.mode(tf.constant([1.0, 2.0]), True)
    return _saved(tf, m).mode.pretty_printed_concrete_signatures()


def case_fine_tuning_gradients(tf):
    loaded = _saved(tf, _module(tf))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(loaded(tf.constant(X)) ** 2)
    grads = tape.gradient(loss, [loaded.w, loaded.b, loaded.extra[0], loaded.extra[1]])
    tf.keras.optimizers.SGD(0.1).apply_gradients(
        zip(grads, [loaded.w, loaded.b, loaded.extra[0], loaded.extra[1]]))
    return loss, grads, loaded(tf.constant(X))


def case_gradient_inside_a_saved_function(tf):
    class Inner(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[0.5], [-1.0]])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def slope(self, x):
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(tf.sin(tf.matmul(x, self.w)))
            return tape.gradient(y, self.w)
    loaded = _saved(tf, Inner())     # (kept: the restored function reads its variables)
    return loaded.slope(tf.constant([[1.0, 2.0], [0.5, -1.0]]))


def case_save_needs_a_trackable(tf):
    tf.saved_model.save(3, _dir())


def case_signature_needs_an_input_signature(tf):
    m = _module(tf)
    tf.saved_model.save(m, _dir(), signatures=m.pair)


case_signature_needs_an_input_signature.message_differs = (
    "the function's repr (an address) differs",
    ("Expected a TensorFlow function for which to generate a signature",
     "Only `tf.functions` with an input signature or concrete functions can be used as a "
     "signature."))


def case_load_missing_directory(tf):
    tf.saved_model.load(os.path.join(tempfile.mkdtemp(), "missing"))


case_load_missing_directory.message_differs = (
    "tapegrad's SavedModel file is saved_model.json", ("SavedModel file does not exist at:",))


def case_py_function_in_a_saved_function(tf):
    class Python(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return tf.py_function(lambda a: a * 2, [x], tf.float32)
    return _saved(tf, Python()).f(tf.constant(1.0))


case_py_function_in_a_saved_function.known_divergence = (
    "TensorFlow saves tf.py_function as an op whose Python callback lives only in the saving "
    "process; tapegrad refuses at save time (ValueError) since its format stores no Python")


def case_contains_saved_model(tf):
    path = _dir()
    tf.saved_model.save(_module(tf), path)
    return tf.saved_model.contains_saved_model(path), \
        tf.saved_model.contains_saved_model(tempfile.mkdtemp())


# ---------------------------------------------------------------- Keras
def _fill(model):
    model.set_weights([np.linspace(-1.0, 1.0, int(np.prod(w.shape))).reshape(w.shape)
                       .astype("float32") for w in model.weights])
    return model


def _sequential(tf):
    return _fill(tf.keras.Sequential([tf.keras.Input((3,)),
                                      tf.keras.layers.Dense(4, activation="relu"),
                                      tf.keras.layers.Dense(2)]))


def _functional(tf, as_dict):
    L = tf.keras.layers
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    joined = L.Concatenate()([L.Dense(4)(a), b])
    outputs = [L.Dense(1)(joined), L.Dense(2)(a)]
    if as_dict:
        return _fill(tf.keras.Model({"a": a, "b": b}, {"o": outputs[0], "s": outputs[1]}))
    return _fill(tf.keras.Model([a, b], outputs))


def _subclassed(tf):
    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(4, activation="tanh")
            self.out = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.out(self.hidden(x)) * 2.0
    model = Sub()
    model(np.ones((1, 3), np.float32))
    return _fill(model)


XK = np.linspace(0, 1, 12).reshape(4, 3).astype(np.float32)


def case_keras_sequential_serving_signature(tf):
    loaded = _saved(tf, _sequential(tf))
    serving = loaded.signatures["serving_default"]
    return (list(loaded.signatures), _specs(serving.structured_input_signature),
            _specs(serving.structured_outputs), serving(inputs=tf.constant(XK)), callable(loaded))


def case_keras_functional_serving_signature(tf):
    out = []
    for as_dict in (True, False):
        serving = _saved(tf, _functional(tf, as_dict)).signatures["serving_default"]
        out.append((_specs(serving.structured_input_signature), _specs(serving.structured_outputs),
                    serving(inputs=tf.constant(XK), inputs_1=tf.constant(XK[:, :2]))))
    return out


def case_keras_subclassed_serving_signature(tf):
    serving = _saved(tf, _subclassed(tf)).signatures["serving_default"]
    return (_specs(serving.structured_input_signature), _specs(serving.structured_outputs),
            serving(inputs=tf.constant(XK[:1])))


def _export(model, path):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        returned = model.export(path)
    lines = printed.getvalue().replace(path, "<path>").splitlines()
    return returned, lines[:lines.index("Captures:")]


def case_keras_export_sequential(tf):
    model = _sequential(tf)
    path = _dir()
    returned, lines = _export(model, path)
    loaded = tf.saved_model.load(path)
    return (returned, lines, list(loaded.signatures), loaded.serve(XK),
            loaded.signatures["serving_default"](tf.constant(XK)),
            [len(loaded.variables), len(loaded.trainable_variables),
             len(loaded.non_trainable_variables)])


def case_keras_export_subclassed(tf):
    model = _subclassed(tf)
    path = _dir()
    _, lines = _export(model, path)
    loaded = tf.saved_model.load(path)
    return lines, loaded.serve(XK), loaded.serve.pretty_printed_concrete_signatures()


case_keras_export_subclassed.tolerance = (1e-5, 1e-6)


def case_keras_export_fine_tuning(tf):
    path = _dir()
    _export(_functional(tf, as_dict=True), path)
    loaded = tf.saved_model.load(path)
    inputs = {"a": tf.constant(XK), "b": tf.constant(XK[:, :2])}
    with tf.GradientTape() as tape:
        out = loaded.serve(inputs)
        loss = tf.reduce_sum(out["o"] ** 2) + tf.reduce_sum(out["s"])
    return loss, tape.gradient(loss, loaded.trainable_variables)


def case_keras_export_serves_any_batch(tf):
    L = tf.keras.layers
    model = _fill(tf.keras.Sequential([
        tf.keras.Input((6, 6, 1)), L.Conv2D(2, 3, activation="relu"), L.MaxPooling2D(),
        L.Flatten(), L.Dense(3)]))
    path = _dir()
    _export(model, path)
    loaded = tf.saved_model.load(path)
    images = np.linspace(-1, 1, 5 * 36).reshape(5, 6, 6, 1).astype(np.float32)
    return [loaded.serve(images[:n]) for n in (1, 2, 5)]


def case_keras_export_lstm(tf):
    L = tf.keras.layers
    model = _fill(tf.keras.Sequential([tf.keras.Input((4, 2)), L.LSTM(3), L.Dense(1)]))
    path = _dir()
    _export(model, path)
    loaded = tf.saved_model.load(path)
    steps = np.linspace(-1, 1, 3 * 8).reshape(3, 4, 2).astype(np.float32)
    return loaded.serve(steps), loaded.serve(steps[:1])


case_keras_export_lstm.tolerance = (1e-5, 1e-6)
