"""PyTorch (CPU wheel), one thread: tensors with requires_grad, torch.autograd.grad, torch.optim.SGD,
torch.func for the jacobian."""
import numpy as np
import torch
import torch.nn.functional as F

from .. import data
from ..cases import LEARNING_RATE
from ..peer_api import Peer

torch.set_num_threads(1)
torch.set_num_interop_threads(1)

PEER = Peer("torch", version=torch.__version__)


def _t(a, grad=False):
    t = torch.from_numpy(np.ascontiguousarray(a))
    if a.dtype.kind == "i":
        t = t.long()                     # class indices for cross_entropy
    return t.requires_grad_() if grad else t


@PEER.case("W1")
def tape_overhead(case):
    x = torch.ones(case.params["size"], dtype=torch.float32, requires_grad=True)
    n = case.params["ops"]

    def step():
        y = x
        for _ in range(n):
            y = y * 1.0001
        (g,) = torch.autograd.grad(y.sum(), x)
        return g
    return step


@PEER.case("W2", "W3-*", "W2-fn", "W3-b64-fn")   # (the "-fn" rows: this same step)
def mlp_step(case):
    sizes, batch = case.params["sizes"], case.params["batch"]
    layers = [(_t(w, True), _t(b, True)) for w, b in data.mlp_params(sizes)]
    params = [p for layer in layers for p in layer]
    x, labels = (_t(a) for a in data.mlp_batch(sizes, batch))
    opt = torch.optim.SGD(params, lr=LEARNING_RATE)

    def step():
        h = x
        for i, (w, b) in enumerate(layers):
            h = h @ w + b
            if i < len(layers) - 1:
                h = torch.relu(h)
        loss = F.cross_entropy(h, labels)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss
    return step


@PEER.case("CNN-step")
def cnn_step(case):
    # PyTorch's own layout: NCHW images, OIHW filters; the dense rows reordered from NHWC's
    # (h, w, c) flattening to NCHW's (c, h, w), so the step computes the same numbers.
    p = case.params
    w1, b1, w2, b2, w3, b3 = data.cnn_params(p["image"], p["filters"], p["classes"])
    x_np, labels_np = data.cnn_batch(p["image"], p["classes"], p["batch"])
    f2 = w2.shape[3]
    side = int(round((w3.shape[0] // f2) ** 0.5))
    w3 = w3.reshape(side, side, f2, -1).transpose(2, 0, 1, 3).reshape(w3.shape[0], -1)
    params = [_t(w1.transpose(3, 2, 0, 1), True), _t(b1, True), _t(w2.transpose(3, 2, 0, 1), True),
              _t(b2, True), _t(w3, True), _t(b3, True)]
    x, labels = _t(x_np.transpose(0, 3, 1, 2)), _t(labels_np)
    opt = torch.optim.SGD(params, lr=LEARNING_RATE)

    def step():
        c1, d1, c2, d2, w, b = params
        h = F.max_pool2d(torch.relu(F.conv2d(x, c1, d1)), 2)
        h = F.max_pool2d(torch.relu(F.conv2d(h, c2, d2)), 2)
        loss = F.cross_entropy(h.flatten(1) @ w + b, labels)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss
    return step


@PEER.case("W4-*")
def gemm(case):
    p = case.params
    a, b = (_t(m) for m in data.gemm_operands(**p))
    a = a.T if p["transpose_a"] else a
    b = b.T if p["transpose_b"] else b
    return lambda: a @ b


@PEER.case("W5-tanh")
def tanh_chain(case):
    x, w, b = (_t(a, True) for a in data.tanh_chain(case.params["size"]))

    def step():
        loss = torch.tanh(x * w + b).sum()
        torch.autograd.grad(loss, [x, w, b])
        return loss
    return step


@PEER.case("W5-softmax")
def softmax_ce(case):
    logits_np, labels_np = data.softmax_logits(case.params["shape"])
    logits, labels = _t(logits_np, True), _t(labels_np)

    def step():
        (g,) = torch.autograd.grad(F.cross_entropy(logits, labels), logits)
        return g
    return step


@PEER.case("W6-jacobian")
def jacobian(case):
    w, b, x = (_t(a) for a in data.jacobian_layer(case.params["width"]))
    jac = torch.func.jacrev(lambda x: torch.tanh(w @ x + b))
    return lambda: jac(x)


@PEER.case("W6-hvp")
def hessian_vector_product(case):
    a, x, v = (_t(m) for m in data.hvp_problem(case.params["params"], case.params["rows"]))
    x.requires_grad_()

    def step():
        f = torch.tanh(a @ x).sum()
        (g,) = torch.autograd.grad(f, x, create_graph=True)
        (hv,) = torch.autograd.grad(g @ v, x)
        return hv
    return step


@PEER.case("W6-d3")
def third_derivative(case):
    x = torch.tensor(case.params["x"], dtype=torch.float32, requires_grad=True)

    def step():
        y = x ** 3 * torch.sin(x)
        (d1,) = torch.autograd.grad(y, x, create_graph=True)
        (d2,) = torch.autograd.grad(d1, x, create_graph=True)
        (d3,) = torch.autograd.grad(d2, x)
        return d3
    return step
