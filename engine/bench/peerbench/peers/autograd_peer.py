"""HIPS autograd: NumPy code differentiated with autograd.grad (autograd.numpy in the functions)."""
from importlib import metadata

import autograd
import autograd.numpy as anp
import numpy as np

from .. import data
from ..cases import LEARNING_RATE
from ..peer_api import Peer

PEER = Peer("autograd", version=metadata.version("autograd"))


@PEER.case("W1")
def tape_overhead(case):
    n = case.params["ops"]

    def chain(x):
        y = x
        for _ in range(n):
            y = y * np.float32(1.0001)
        return anp.sum(y)
    grad = autograd.grad(chain)
    x = np.ones(case.params["size"], np.float32)
    return lambda: grad(x)


def _log_softmax(h):
    shifted = h - anp.max(h, axis=1, keepdims=True)
    return shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))


@PEER.case("W2", "W3-*")
def mlp_step(case):
    sizes, batch = case.params["sizes"], case.params["batch"]
    params = data.mlp_params(sizes)
    x, labels = data.mlp_batch(sizes, batch)
    rows = np.arange(batch)

    def loss_fn(params):
        h = x
        for i, (w, b) in enumerate(params):
            h = anp.dot(h, w) + b
            if i < len(params) - 1:
                h = anp.maximum(h, 0.0)
        return -anp.mean(_log_softmax(h)[rows, labels])
    value_and_grad = autograd.value_and_grad(loss_fn)
    state = [params]

    def step():
        loss, grads = value_and_grad(state[0])
        state[0] = [(w - LEARNING_RATE * gw, b - LEARNING_RATE * gb)
                    for (w, b), (gw, gb) in zip(state[0], grads)]
        return loss
    return step


@PEER.case("W4-*")
def gemm(case):
    a, b = data.gemm_product_operands(**case.params)
    return lambda: anp.dot(a, b)


@PEER.case("W5-tanh")
def tanh_chain(case):
    x, w, b = data.tanh_chain(case.params["size"])
    grads = autograd.value_and_grad(lambda args: anp.sum(anp.tanh(args[0] * args[1] + args[2])))
    return lambda: grads((x, w, b))[0]


@PEER.case("W5-softmax")
def softmax_ce(case):
    logits, labels = data.softmax_logits(case.params["shape"])
    rows = np.arange(logits.shape[0])
    return lambda: autograd.grad(lambda z: -anp.mean(_log_softmax(z)[rows, labels]))(logits)


@PEER.case("W6-jacobian")
def jacobian(case):
    w, b, x = data.jacobian_layer(case.params["width"])
    jac = autograd.jacobian(lambda x: anp.tanh(anp.dot(w, x) + b))
    return lambda: jac(x)


@PEER.case("W6-hvp")
def hessian_vector_product(case):
    a, x, v = data.hvp_problem(case.params["params"], case.params["rows"])
    hvp = autograd.hessian_vector_product(lambda x: anp.sum(anp.tanh(anp.dot(a, x))))
    return lambda: hvp(x, v)


@PEER.case("W6-d3")
def third_derivative(case):
    d3 = autograd.grad(autograd.grad(autograd.grad(lambda x: x ** 3 * anp.sin(x))))
    x = np.float32(case.params["x"])
    return lambda: d3(x)
