"""For each tutorial cell: the graph a person would draw (ops, node and edge counts) and the
reason behind every None it prints. The cells are restated in the project's own words."""
import pytest

import tapegrad as tf
from tapegrad.graph import capture

CELLS = {
    "square": ("""
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x ** 2
g = tape.gradient(y, x)
""", ["Pow"], 4, 3, {}),
    "what_is_watched": ("""
a0 = tf.Variable(3.0, name="a0")
a1 = tf.Variable(3.0, name="a1", trainable=False)
a2 = tf.Variable(2.0, name="a2") + 1.0
a3 = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = a0 ** 2 + a1 ** 2 + a2 ** 2
g = tape.gradient(y, [a0, a1, a2, a3])
""", ["AddV2", "AddV2", "Pow"], 13, 9,
        {"a1": "non_trainable", "a2": "not_watched", "a3": "not_watched"}),
    "watch_a_constant": ("""
c = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(c)
    y = c ** 2
g = tape.gradient(y, c)
""", ["Pow"], 4, 3, {}),
    "watch_accessed_off": ("""
v0 = tf.Variable(0.0)
v1 = tf.Variable(10.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(v1)
    s = tf.math.sin(v0) + tf.nn.softplus(v1)
    total = tf.reduce_sum(s)
g = tape.gradient(total, {"v0": v0, "v1": v1})
""", ["AddV2", "Softplus", "Sum"], 9, 7, {"v0": "watch_accessed_variables"}),
    "intermediate": ("""
c = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(c)
    sq = c * c
    quad = sq * sq
g = tape.gradient(quad, sq)
""", ["Mul", "Mul"], 5, 4, {}),
    "two_targets": ("""
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    p = v ** 2
    q = 1 / v
g = tape.gradient({"p": p, "q": q}, v)
""", ["Pow", "RealDiv"], 7, 6, {}),
    "control_flow": ("""
c = tf.constant(1.0)
v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(c)
    out = v0 if c > 0.0 else v1 ** 2
g = tape.gradient(out, [v0, v1])
h = tape.gradient(out, c)
""", ["Greater"], 6, 3, {"v1": "not_used", "c": "no_path"}),
    "through_numpy": ("""
m = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    m2 = m ** 2
    col = np.mean(m2, axis=0)
    out = tf.reduce_mean(col, axis=0)
g = tape.gradient(out, m)
""", ["Pow"], 5, 3, {"m": "numpy"}),
    "integers": ("""
k = tf.constant(10)
with tf.GradientTape() as tape:
    tape.watch(k)
    out = k * k
g = tape.gradient(out, k)
""", [], 2, 0, {"k": "integer_dtype"}),
    "assign": ("""
s0 = tf.Variable(3.0)
s1 = tf.Variable(0.0)
with tf.GradientTape() as tape:
    s1.assign_add(s0)
    out = s1 ** 2
g = tape.gradient(out, s0)
""", ["Pow"], 5, 3, {"s0": "stateful_assign"}),
    "unconnected_zero": ("""
u = tf.Variable([2.0, 2.0])
w = tf.Variable(3.0)
with tf.GradientTape() as tape:
    out = w ** 2
g = tape.gradient(out, u, unconnected_gradients=tf.UnconnectedGradients.ZERO)
""", ["Pow"], 5, 3, {"u": "not_used"}),
    "loop_in_a_function": ("""
def power_steps(x, n):
    acc = 1.0
    for i in range(n):
        if 1 < i < 5:
            acc = tf.multiply(acc, x)
    return acc
c = tf.convert_to_tensor(2.0)
with tf.GradientTape() as tape:
    tape.watch(c)
    out = power_steps(c, 6)
g = tape.gradient(out, c)
""", ["Mul", "Mul", "Mul"], 8, 9, {}),
    "persistent_two_calls": ("""
c = tf.constant([1, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(c)
    sq = c * c
    quad = sq * sq
g1 = tape.gradient(quad, c)
g2 = tape.gradient(sq, c)
""", ["Mul", "Mul"], 5, 4, {}),
    "non_scalar_target": ("""
v = tf.Variable(2.0)
with tf.GradientTape() as tape:
    out = v * [3.0, 4.0]
g = tape.gradient(out, v)
""", ["Mul"], 4, 3, {}),
    "sigmoid_curve": ("""
xs = tf.linspace(-10.0, 10.0, 201)
with tf.GradientTape() as tape:
    tape.watch(xs)
    ys = tf.nn.sigmoid(xs)
g = tape.gradient(ys, xs)
""", ["Sigmoid"], 3, 2, {}),
    "variable_replaced_by_tensor": ("""
p = tf.Variable(2.0)
for epoch in range(2):
    with tf.GradientTape() as tape:
        out = p + 1
    g = tape.gradient(out, p)
    p = p + 1
""", ["AddV2"], 6, 3, {"p": "not_watched"}),
    "no_registered_gradient": ("""
image = tf.Variable([[[0.5, 0.0, 0.0]]])
delta = tf.Variable(0.1)
with tf.GradientTape() as tape:
    new_image = tf.image.adjust_contrast(image, delta)
try:
    tape.gradient(new_image, [image, delta])
except LookupError:
    pass
""", ["AdjustContrastv2"], 4, 3, {}),
    "sum_then_square": ("""
ones = tf.ones((2, 2))
with tf.GradientTape() as tape:
    tape.watch(ones)
    total = tf.reduce_sum(ones)
    sq = tf.multiply(total, total)
g = tape.gradient(sq, ones)
""", ["Mul", "Sum"], 5, 4, {}),
    "watch_a_list": ("""
b0 = tf.Variable(3.0)
b1 = tf.Variable(3.0, trainable=False)
b2 = tf.Variable(2.0) + 1.0
b3 = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch([b1, b2, b3])
    out = b0 ** 2 + b1 ** 2 + b2 ** 2 + b3 ** 2
g = tape.gradient(out, [b0, b1, b2, b3])
""", ["AddV2"] * 3 + ["Pow"] * 4, 22, 21, {}),
}


@pytest.mark.parametrize("name", sorted(CELLS))
def test_seed_cell_graph(name):
    import numpy as np
    code, ops, n_nodes, n_edges, reasons = CELLS[name]
    ns = {"tf": tf, "np": np}
    with capture() as cap:
        exec(compile(code, f"<{name}>", "exec"), ns)
    doc = cap.to_dict()
    assert sorted(n["label"] for n in doc["nodes"] if n["kind"] == "op") == sorted(ops)
    assert len(doc["nodes"]) == n_nodes, [(n["kind"], n["label"]) for n in doc["nodes"]]
    assert len(doc["edges"]) == n_edges
    found = {}
    for tape in doc["tapes"]:
        for call in tape["gradients"]:
            for r in call["results"]:
                if r["reason"]:
                    found[r["label"]] = r["reason"]["code"]
                    assert r["label"] in r["reason"]["message"]
                    assert r["reason"]["line"] is None or r["reason"]["line"] >= 1
    assert found == reasons
