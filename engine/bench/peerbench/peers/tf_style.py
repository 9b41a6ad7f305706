"""The cases in TensorFlow's own API, shared word for word by the tapegrad and TensorFlow peers:
``register(peer, tf)`` with ``tf`` either ``tapegrad`` or ``tensorflow`` (eager GradientTape code as
in TensorFlow's guides; SGD as ``assign_sub``, the custom-training-loop idiom)."""
import numpy as np

from .. import data
from ..cases import LEARNING_RATE
from ..peer_api import TRACED


def register(peer, tf):
    @peer.case("W1")
    def tape_overhead(case):
        # The same chain as engine/bench/tape_overhead.py.
        x = tf.Variable(np.ones(case.params["size"], np.float32))
        n = case.params["ops"]

        def step():
            with tf.GradientTape() as tape:
                y = x
                for _ in range(n):
                    y = y * 1.0001
                loss = tf.reduce_sum(y)
            return tape.gradient(loss, x)
        return step

    @peer.case("W2", "W3-*", "W2-fn", "W3-b64-fn")
    def mlp_step(case):
        """The MLP step; for the "-fn" rows the whole step (tape, gradient, SGD) traced with
        ``tf.function``: the first call traces, later ones run the graph."""
        sizes, batch = case.params["sizes"], case.params["batch"]
        layers = [(tf.Variable(w), tf.Variable(b)) for w, b in data.mlp_params(sizes)]
        variables = [v for layer in layers for v in layer]
        x, labels = (tf.constant(a) for a in data.mlp_batch(sizes, batch))

        def step():
            with tf.GradientTape() as tape:
                h = x
                for i, (w, b) in enumerate(layers):
                    h = tf.matmul(h, w) + b
                    if i < len(layers) - 1:
                        h = tf.nn.relu(h)
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=h))
            for v, g in zip(variables, tape.gradient(loss, variables)):
                v.assign_sub(LEARNING_RATE * g)
            return loss
        return tf.function(step) if case.id.endswith(TRACED) else step

    @peer.case("W4-*")
    def gemm(case):
        p = case.params
        a, b = (tf.constant(m) for m in data.gemm_operands(**p))
        return lambda: tf.matmul(a, b, transpose_a=p["transpose_a"], transpose_b=p["transpose_b"])

    @peer.case("W5-tanh")
    def tanh_chain(case):
        x, w, b = (tf.Variable(a) for a in data.tanh_chain(case.params["size"]))

        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.tanh(x * w + b))
            tape.gradient(loss, [x, w, b])
            return loss
        return step

    @peer.case("W5-softmax")
    def softmax_ce(case):
        logits_np, labels_np = data.softmax_logits(case.params["shape"])
        logits, labels = tf.Variable(logits_np), tf.constant(labels_np)

        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
            return tape.gradient(loss, logits)
        return step

    @peer.case("W6-jacobian")
    def jacobian(case):
        w_np, b_np, x_np = data.jacobian_layer(case.params["width"])
        w, b, x = tf.constant(w_np), tf.constant(b_np), tf.Variable(x_np)

        def step():
            with tf.GradientTape() as tape:
                y = tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(x, (-1, 1))), (-1,)) + b)
            return tape.jacobian(y, x)
        return step

    @peer.case("W6-hvp")
    def hessian_vector_product(case):
        a_np, x_np, v_np = data.hvp_problem(case.params["params"], case.params["rows"])
        a, x, v = tf.constant(a_np), tf.Variable(x_np), tf.constant(v_np)

        def step():
            with tf.GradientTape() as outer:
                with tf.GradientTape() as inner:
                    f = tf.reduce_sum(tf.tanh(tf.reshape(tf.matmul(a, tf.reshape(x, (-1, 1))), (-1,))))
                g = inner.gradient(f, x)
                gv = tf.reduce_sum(g * v)
            return outer.gradient(gv, x)
        return step

    @peer.case("W6-d3")
    def third_derivative(case):
        x = tf.Variable(case.params["x"])

        def step():
            with tf.GradientTape() as t3:
                with tf.GradientTape() as t2:
                    with tf.GradientTape() as t1:
                        y = x ** 3 * tf.sin(x)
                    d1 = t1.gradient(y, x)
                d2 = t2.gradient(d1, x)
            return t3.gradient(d2, x)
        return step

    @peer.case("CNN-step")
    def cnn_step(case):
        p = case.params
        variables = [tf.Variable(a) for a in data.cnn_params(p["image"], p["filters"], p["classes"])]
        w1, b1, w2, b2, w3, b3 = variables
        x, labels = (tf.constant(a) for a in data.cnn_batch(p["image"], p["classes"], p["batch"]))

        def step():
            with tf.GradientTape() as tape:
                h = tf.nn.relu(tf.nn.conv2d(x, w1, 1, "VALID") + b1)
                h = tf.nn.max_pool2d(h, 2, 2, "VALID")
                h = tf.nn.relu(tf.nn.conv2d(h, w2, 1, "VALID") + b2)
                h = tf.nn.max_pool2d(h, 2, 2, "VALID")
                logits = tf.matmul(tf.reshape(h, (h.shape[0], -1)), w3) + b3
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
            for v, g in zip(variables, tape.gradient(loss, variables)):
                v.assign_sub(LEARNING_RATE * g)
            return loss
        return step
