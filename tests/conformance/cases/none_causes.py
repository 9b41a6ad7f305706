"""Each cause of a None gradient (issue 28, item 5), as a small program: TensorFlow's answer is
recorded here (every one of them gives None, none gives zeros or raises), and the same programs
are the table that tests/engine/test_explain_causes.py and tests/browser/test_none_explained.py
run to check the sentence that says why, natively, on the page and in the notebook widget.

``CAUSES``: name -> (the reason's code in ``tape.explain``, target, source, program). A program
is written without its import line (the user of the table adds ``import ... as tf``), uses the
tape named ``tape`` and ends with ``g = tape.gradient(target, source)``.
"""

CAUSES = {
    "used_not_watched": ("not_watched", "y", "c", """\
c = tf.constant(3.0)
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = c * v
g = tape.gradient(y, c)
"""),
    "never_watched": ("not_watched", "y", "c", """\
c = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = c * c
g = tape.gradient(y, c)
"""),
    "variable_not_used": ("not_used", "y", "u", """\
u = tf.Variable(1.0)
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = v * v
g = tape.gradient(y, u)
"""),
    "watched_not_used": ("not_used", "y", "c", """\
c = tf.constant(1.0)
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    tape.watch(c)
    y = v * v
g = tape.gradient(y, c)
"""),
    "non_trainable": ("non_trainable", "y", "w", """\
w = tf.Variable(3.0, trainable=False)
with tf.GradientTape() as tape:
    y = w * w
g = tape.gradient(y, w)
"""),
    "integer_dtype": ("integer_dtype", "y", "n", """\
n = tf.constant(10)
with tf.GradientTape() as tape:
    tape.watch(n)
    y = tf.cast(n, tf.float32) * 2.0
g = tape.gradient(y, n)
"""),
    "string_dtype": ("string_dtype", "y", "s", """\
s = tf.constant("3.5")
with tf.GradientTape() as tape:
    tape.watch(s)
    y = tf.strings.to_number(s) * 2.0
g = tape.gradient(y, s)
"""),
    "numpy_function": ("numpy", "y", "x", """\
import numpy as np
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    h = x * 2.0
    y = tf.constant(np.square(h)) * 1.0
g = tape.gradient(y, x)
"""),
    "python_float": ("numpy", "y", "x", """\
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    h = x * 2.0
    y = tf.constant(float(h)) ** 2
g = tape.gradient(y, x)
"""),
    "dot_numpy": ("numpy", "y", "x", """\
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.constant(x.numpy() * 3.0) + 1.0
g = tape.gradient(y, x)
"""),
    "outside_the_block": ("outside_context", "b", "x", """\
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    a = x * 1.0
b = a * 3.0
g = tape.gradient(b, x)
"""),
    "another_tape": ("other_tape", "z", "x", """\
x = tf.constant(2.0)
with tf.GradientTape() as first:
    first.watch(x)
    y = x * x
with tf.GradientTape() as tape:
    z = y * 3.0
g = tape.gradient(z, x)
"""),
    "stop_gradient": ("stop_gradient", "y", "x", """\
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.stop_gradient(x * x) * 2.0
g = tape.gradient(y, x)
"""),
    "stop_recording": ("stop_recording", "y", "x", """\
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    with tape.stop_recording():
        y = x * x
g = tape.gradient(y, x)
"""),
    "cast_to_int_and_back": ("integer_cast", "y", "x", """\
x = tf.Variable(2.5)
with tf.GradientTape() as tape:
    n = tf.cast(x, tf.int32)
    y = tf.cast(n, tf.float32) * 2.0
g = tape.gradient(y, x)
"""),
    "argmax": ("integer_cast", "y", "x", """\
x = tf.Variable([1.0, 3.0, 2.0])
with tf.GradientTape() as tape:
    k = tf.argmax(x)
    y = tf.cast(k, tf.float32) * 2.0
g = tape.gradient(y, x)
"""),
    "custom_gradient_gives_none": ("rule_gave_none", "y", "x", """\
@tf.custom_gradient
def double(v):
    def grad(dy):
        return None
    return v * 2.0, grad
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = double(x)
g = tape.gradient(y, x)
"""),
}


def _gradient(tf, name):
    """What ``tape.gradient`` gave for the cause ``name`` (None for every cause)."""
    namespace = {"tf": tf}
    exec(CAUSES[name][3], namespace)
    return namespace["g"]


def _case(name):
    def case(tf):
        return _gradient(tf, name)
    case.__name__ = f"case_{name}"
    return case


for _name in CAUSES:
    globals()[f"case_{_name}"] = _case(_name)


def case_used_but_unwatched_constant_beside_a_variable(tf):
    """The constant's gradient is None while the variable's beside it is there."""
    c = tf.constant(3.0)
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = c * v
    return tape.gradient(y, [c, v])
