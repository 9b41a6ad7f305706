"""NumPy alone with every derivative written by hand: the floor an autodiff engine on NumPy adds its
overhead to (natively), and the "Pyodide NumPy" row in the browser."""
import numpy as np

from .. import data
from ..cases import LEARNING_RATE
from ..peer_api import Peer

PEER = Peer("numpy", version=np.__version__, notes="hand-written backward, no autodiff")


@PEER.case("W1")
def tape_overhead(case):
    x = np.ones(case.params["size"], np.float32)
    n = case.params["ops"]
    c = np.float32(1.0001)

    def step():
        y = x
        for _ in range(n):
            y = y * c
        loss = y.sum()   # noqa: F841 (the forward's result, as in the other peers)
        g = np.ones_like(y)
        for _ in range(n):
            g = g * c
        return g
    return step


def _softmax_ce(logits, labels):
    """Mean cross-entropy and its gradient with respect to the logits."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    total = e.sum(axis=1, keepdims=True)
    rows = np.arange(len(labels))
    loss = np.mean(np.log(total[:, 0]) - shifted[rows, labels])
    grad = e / total
    grad[rows, labels] -= 1
    return loss, grad / len(labels)


@PEER.case("W2", "W3-*", "W2-fn", "W3-b64-fn")   # (the "-fn" rows: this same step)
def mlp_step(case):
    sizes, batch = case.params["sizes"], case.params["batch"]
    layers = data.mlp_params(sizes)
    x, labels = data.mlp_batch(sizes, batch)
    lr = np.float32(LEARNING_RATE)

    def step():
        inputs, pre = [], []
        h = x
        for i, (w, b) in enumerate(layers):
            inputs.append(h)
            z = h @ w + b
            pre.append(z)
            h = np.maximum(z, 0) if i < len(layers) - 1 else z
        loss, dz = _softmax_ce(h, labels)
        for i in reversed(range(len(layers))):
            w, b = layers[i]
            dw, db = inputs[i].T @ dz, dz.sum(axis=0)
            if i:
                dz = (dz @ w.T) * (pre[i - 1] > 0)
            w -= lr * dw
            b -= lr * db
        return loss
    return step


@PEER.case("W4-*")
def gemm(case):
    a, b = data.gemm_product_operands(**case.params)
    return lambda: a @ b


@PEER.case("W5-tanh")
def tanh_chain(case):
    x, w, b = data.tanh_chain(case.params["size"])

    def step():
        t = np.tanh(x * w + b)
        loss = t.sum()
        dt = 1 - t * t
        gx, gw, gb = dt * w, dt * x, dt   # noqa: F841
        return loss
    return step


@PEER.case("W5-softmax")
def softmax_ce(case):
    logits, labels = data.softmax_logits(case.params["shape"])
    return lambda: _softmax_ce(logits, labels)[1]


@PEER.case("W6-jacobian")
def jacobian(case):
    w, b, x = data.jacobian_layer(case.params["width"])

    def step():
        y = np.tanh(w @ x + b)
        return (1 - y * y)[:, None] * w
    return step


@PEER.case("W6-hvp")
def hessian_vector_product(case):
    a, x, v = data.hvp_problem(case.params["params"], case.params["rows"])

    def step():
        t = np.tanh(a @ x)
        return a.T @ (-2 * t * (1 - t * t) * (a @ v))
    return step


@PEER.case("W6-d3")
def third_derivative(case):
    x = np.float32(case.params["x"])

    def step():   # d³/dx³ of x³·sin(x), derived by hand
        s, c = np.sin(x), np.cos(x)
        return 6 * s + 18 * x * c - 9 * x * x * s - x ** 3 * c
    return step
