"""The inputs of every case, made with NumPy from fixed seeds: every peer starts from the same numbers
(so the check values that peers return can be compared) and converts them to its own arrays."""
from __future__ import annotations

import numpy as np


def _rng(*key) -> np.random.RandomState:
    return np.random.RandomState(_seed(key))


def _seed(key) -> int:
    # hash() of strings is randomized per process; a plain sum of code points is stable.
    return sum((i + 1) * ord(ch) for i, ch in enumerate(repr(key))) % (2**31)


def mlp_params(sizes) -> list[tuple[np.ndarray, np.ndarray]]:
    """Glorot-uniform weights and zero biases, one (W[in, out], b[out]) pair per layer."""
    rng = _rng("mlp", tuple(sizes))
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        limit = np.sqrt(6.0 / (n_in + n_out))
        layers.append((rng.uniform(-limit, limit, (n_in, n_out)).astype(np.float32),
                       np.zeros(n_out, np.float32)))
    return layers


def mlp_batch(sizes, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """Inputs float32[batch, sizes[0]] and integer class labels int32[batch]."""
    rng = _rng("batch", tuple(sizes), batch)
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    labels = rng.randint(0, sizes[-1], batch).astype(np.int32)
    return x, labels


def gemm_operands(m, k, n, transpose_a=False, transpose_b=False) -> tuple[np.ndarray, np.ndarray]:
    """a and b such that op(a) @ op(b) is m×k @ k×n (stored transposed where the case says so)."""
    rng = _rng("gemm", m, k, n, transpose_a, transpose_b)
    a = rng.standard_normal((k, m) if transpose_a else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if transpose_b else (k, n)).astype(np.float32)
    return a, b


def gemm_product_operands(m, k, n, transpose_a=False, transpose_b=False) -> tuple[np.ndarray, np.ndarray]:
    """The operands of ``gemm_operands`` as (transposed) views whose plain product is the case."""
    a, b = gemm_operands(m, k, n, transpose_a, transpose_b)
    return (a.T if transpose_a else a), (b.T if transpose_b else b)


def tanh_chain(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = _rng("tanh", size)
    return tuple(rng.standard_normal(size).astype(np.float32) for _ in range(3))


def softmax_logits(shape) -> tuple[np.ndarray, np.ndarray]:
    rng = _rng("softmax", tuple(shape))
    return (rng.standard_normal(shape).astype(np.float32),
            rng.randint(0, shape[-1], shape[0]).astype(np.int32))


def jacobian_layer(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W[width, width], b[width], x[width] for y = tanh(W @ x + b)."""
    rng = _rng("jacobian", width)
    w = (rng.standard_normal((width, width)) / np.sqrt(width)).astype(np.float32)
    return w, rng.standard_normal(width).astype(np.float32), rng.standard_normal(width).astype(np.float32)


def hvp_problem(params: int, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A[rows, params], x[params], v[params] for the HVP of f(x) = sum(tanh(A @ x)) along v."""
    rng = _rng("hvp", params, rows)
    a = (rng.standard_normal((rows, params)) / np.sqrt(params)).astype(np.float32)
    return a, rng.standard_normal(params).astype(np.float32), rng.standard_normal(params).astype(np.float32)


def cnn_params(image, filters, classes) -> list[np.ndarray]:
    """Glorot-uniform weights, zero biases: conv1 [3, 3, C, F1], b1, conv2 [3, 3, F1, F2], b2,
    dense [5·5·F2, classes] (rows in NHWC flattening order: (h, w, c)), b3."""
    rng = _rng("cnn", tuple(image), tuple(filters), classes)

    def glorot(shape, fan_in, fan_out):
        limit = np.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-limit, limit, shape).astype(np.float32)
    c, (f1, f2) = image[2], filters
    side = ((image[0] - 2) // 2 - 2) // 2          # two (3×3 VALID conv, 2×2 pool) stages
    return [glorot((3, 3, c, f1), 9 * c, 9 * f1), np.zeros(f1, np.float32),
            glorot((3, 3, f1, f2), 9 * f1, 9 * f2), np.zeros(f2, np.float32),
            glorot((side * side * f2, classes), side * side * f2, classes), np.zeros(classes, np.float32)]


def cnn_batch(image, classes, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """NHWC images float32[batch, *image] and integer class labels int32[batch]."""
    rng = _rng("cnn-batch", tuple(image), classes, batch)
    return (rng.standard_normal((batch, *image)).astype(np.float32),
            rng.randint(0, classes, batch).astype(np.int32))
