"""The batched reverse pass (``experimental_use_pfor=True``) against the row loop: for every
primitive in the table, a small jacobian through it is taken both ways, and the two must agree
to the last bit with the batched pass really taken (no fall back to the loop).

A primitive added to the table later fails ``test_every_primitive_has_a_batched_case`` until it
has a case here (and a rule), or an entry in ``LOOP_ONLY`` saying why it cannot be batched exactly.
"""
import numpy as np
import pytest

import tapegrad as tf
import tapegrad.keras  # noqa: F401  (its primitives join the table)
import tapegrad.jacobians as J
from tapegrad import batching
from tapegrad.distribute.allreduce import all_reduce, sum_replicas
from tapegrad.table import ELEMENTWISE, TABLE

_rng = np.random.default_rng(7)


def _r(*shape, lo=-1.0, hi=1.0, dtype=np.float64):
    return _rng.uniform(lo, hi, shape).astype(dtype)


def _spd(n):
    a = _r(n, n)
    return a @ a.T + n * np.eye(n)


def _sym(n):
    a = _r(n, n)
    return a + a.T


def _inner_grad(f, x, upstream=None):
    """``f``'s gradient taken inside the outer tape (so its VJP's primitives are recorded)."""
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = f(x)
    return inner.gradient(y, x, output_gradients=upstream)


def _conv(x, w):
    return tf.nn.conv2d(x, w, strides=1, padding="SAME")


def _pool(x):
    return tf.nn.max_pool2d(x, 2, 1, "VALID")


_IDS = np.array([0, 2, 0, 1])
# Gathers, pools and maxima need distinct values (ties are broken by position, equally in both).
CASES = {
    # -- arithmetic, arrays, reductions, activations, losses
    "ReadVariableOp": (lambda v: tf.Variable(v) * 1.0, [_r(3)]),
    "Identity": (lambda x: tf.identity(x) * 2.0, [_r(2, 3)]),
    "Neg": (lambda x: -x, [_r(2, 3)]),
    "AddV2": (lambda x, y: x + y, [_r(2, 3), _r(3)]),
    "Sub": (lambda x, y: x - y, [_r(2, 1), _r(3)]),
    "Mul": (lambda x, y: x * y, [_r(4, 1, 3), _r(2, 1)]),
    "RealDiv": (lambda x, y: x / y, [_r(2, 3), _r(3, lo=1.0, hi=2.0)]),
    "Pow": (lambda x, y: x ** y, [_r(2, 3, lo=0.5, hi=2.0), _r(3)]),
    "Maximum": (lambda x, y: tf.maximum(x, y), [_r(2, 3), _r(3)]),
    "Minimum": (lambda x, y: tf.minimum(x, y) + tf.minimum(y, 0.0), [_r(2, 1), _r(3)]),
    "SelectV2": (lambda x, y: tf.where(x > 0.0, x * 2.0, y), [_r(2, 3), _r(3)]),
    "Cast": (lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64) * x, [_r(3)]),
    "Relu": (lambda x: tf.nn.relu(x), [_r(2, 5)]),
    "Reshape": (lambda x: tf.reshape(x, (3, 2)) * 3.0, [_r(2, 3)]),
    "BroadcastTo": (lambda x: tf.broadcast_to(x, (2, 4, 3)), [_r(4, 1)]),
    "Transpose": (lambda x: tf.transpose(x, (2, 0, 1)) * 2.0, [_r(2, 3, 4)]),
    "Sum": (lambda x: tf.reduce_sum(x, axis=0) + tf.reduce_sum(x, axis=[0], keepdims=True)
            + tf.reduce_sum(x), [_r(3, 4)]),
    "Mean": (lambda x: tf.reduce_mean(x, axis=0) - tf.reduce_mean(x), [_r(3, 4)]),
    "MatMul": (lambda a, b: tf.matmul(a, b) + tf.matmul(a, b, transpose_a=True)
               + tf.matmul(b, a, transpose_b=True) + tf.matmul(b, a, True, True),
               [_r(3, 3), _r(3, 3)]),
    "Pack": (lambda x, y: tf.stack([x, y, x], axis=1), [_r(2, 3), _r(2, 3)]),
    "ConcatV2": (lambda x, y: tf.concat([x, y], axis=1), [_r(2, 3), _r(2, 1)]),
    "StridedSlice": (lambda x: x[1:, ::2] * 2.0 + x[0, 0] + x[..., None][0, :2, 0], [_r(3, 4)]),
    "StridedSliceGrad": (lambda x: _inner_grad(lambda x: x[1:, :2] * x[1:, :2], x), [_r(3, 4)]),
    "SoftmaxCrossEntropyWithLogits": (
        lambda x, z: tf.nn.softmax_cross_entropy_with_logits(z, x), [_r(3, 4), _r(3, 4, lo=0.0)]),
    "Atan2": (lambda y, x: tf.math.atan2(y, x), [_r(2, 3), _r(3, lo=0.5)]),
    "FloorMod": (lambda x, y: tf.math.floormod(x, y), [_r(2, 3, hi=5.0), _r(3, lo=1.5, hi=2.0)]),
    "MulNoNan": (lambda x, y: tf.math.multiply_no_nan(x, y), [_r(3), _r(2, 1)]),
    "Polygamma": (lambda x: tf.math.polygamma(tf.constant([[1.0], [2.0]], tf.float64), x),
                  [_r(3, lo=0.5, hi=2.0)]),
    "Xdivy": (lambda x, y: tf.math.xdivy(x, y), [_r(2, 3), _r(3, lo=0.5)]),
    "Xlog1py": (lambda x, y: tf.math.xlog1py(x * tf.constant([1.0, 0.0, 1.0], tf.float64), y),
                [_r(2, 3), _r(3, lo=0.5)]),
    "Xlogy": (lambda x, y: tf.math.xlogy(x, y), [_r(3), _r(2, 1, lo=0.5)]),
    "Igamma": (lambda a, x: tf.math.igamma(a, x), [_r(2, 3, lo=0.5, hi=2.0), _r(3, lo=0.5)]),
    "Igammac": (lambda a, x: tf.math.igammac(a, x), [_r(3, lo=0.5, hi=2.0), _r(2, 1, lo=0.5)]),
    "Betainc": (lambda x: tf.math.betainc(tf.constant([1.5, 2.0, 0.5], tf.float64),
                                          tf.constant([2.5, 1.0, 3.0], tf.float64), x),
                [_r(3, lo=0.1, hi=0.9)]),
    "Zeta": (lambda q: tf.math.zeta(tf.constant([[2.5], [3.0]], tf.float64), q),
             [_r(3, lo=0.5, hi=2.0)]),
    "NextAfter": (lambda x, y: tf.math.nextafter(x, y) * x, [_r(2, 3), _r(3)]),
    "Sign": (lambda x: tf.sign(x) * x, [_r(2, 3)]),
    "ReluGrad": (lambda x: _inner_grad(lambda x: tf.nn.relu(x) * x, x), [_r(2, 3)]),
    "SparseSoftmaxCrossEntropyWithLogits": (
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits([[1, 0], [3, 2]], x),
        [_r(2, 2, 4)]),
    "SparseSoftmaxCrossEntropyWithLogitsBackprop": (lambda x: _inner_grad(
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits([2, 0], x), x) * x, [_r(2, 4)]),
    # -- matrices, complex numbers, FFTs
    "Abs": (lambda x, y: tf.abs(x) + tf.abs(tf.complex(x, y)), [_r(2, 3), _r(2, 3)]),
    "Complex": (lambda x, y: tf.math.real(tf.complex(x, y) * tf.complex(y, x)), [_r(3), _r(3)]),
    "Conj": (lambda x, y: tf.math.imag(tf.math.conj(tf.complex(x, y)) * tf.complex(y, x)),
             [_r(3), _r(3)]),
    "Real": (lambda x, y: tf.math.real(tf.complex(x, y) ** 2), [_r(3), _r(3)]),
    "Imag": (lambda x, y: tf.math.imag(tf.complex(x, y) ** 2), [_r(3), _r(3)]),
    "Cholesky": (lambda a: tf.linalg.cholesky(a), [_spd(3)]),
    "MatrixInverse": (lambda a: tf.linalg.inv(a) + tf.linalg.inv(a, adjoint=True), [_spd(3)]),
    "MatrixDeterminant": (lambda a: tf.linalg.det(a), [_r(2, 3, 3)]),
    "LogMatrixDeterminant": (lambda a: tf.linalg.slogdet(a)[1], [_r(2, 3, 3)]),
    "MatrixSolve": (lambda a, b: tf.linalg.solve(a, b) + tf.linalg.solve(a, b, adjoint=True),
                    [_spd(3), _r(2, 3, 2)]),
    "MatrixTriangularSolve": (
        lambda a, b: tf.linalg.triangular_solve(a, b)
        + tf.linalg.triangular_solve(a, b, lower=False, adjoint=True), [_spd(3), _r(3, 2)]),
    "SelfAdjointEigV2": (lambda a: tf.linalg.eigvalsh(a), [_sym(3)]),
    "SelfAdjointEigV2Vectors": (lambda a: tf.abs(tf.linalg.eigh(a)[1]), [_sym(3)]),
    "Svd": (lambda a: tf.linalg.svd(a, compute_uv=False), [_r(4, 3)]),
    "SvdU": (lambda a: tf.abs(tf.linalg.svd(a)[1]) + tf.reduce_sum(tf.linalg.svd(
        tf.transpose(a))[1]), [_r(4, 3)]),
    "SvdV": (lambda a: tf.abs(tf.linalg.svd(a)[2]) + tf.reduce_sum(tf.linalg.svd(
        tf.transpose(a))[2]), [_r(4, 3)]),
    "Qr": (lambda a: tf.linalg.qr(a)[0], [_r(4, 3)]),
    "QrR": (lambda a: tf.linalg.qr(a)[1], [_r(2, 3, 3)]),
    "Eig": (lambda a: tf.abs(tf.linalg.eigvals(a)), [_r(3, 3)]),
    "EigVectors": (lambda a: tf.math.real(tf.linalg.eig(a)[1] * tf.math.conj(
        tf.linalg.eig(a)[1])), [_r(3, 3)]),
    "MatrixSquareRoot": (lambda a: tf.linalg.sqrtm(a), [_spd(3)]),
    "FFT": (lambda x, y: tf.abs(tf.signal.fft(tf.complex(x, y))), [_r(2, 4), _r(2, 4)]),
    "IFFT": (lambda x, y: tf.math.real(tf.signal.ifft(tf.complex(x, y))), [_r(4), _r(4)]),
    "RFFT": (lambda x: tf.abs(tf.signal.rfft(x)), [_r(2, 5)]),
    "IRFFT": (lambda x, y: tf.signal.irfft(tf.complex(x, y)), [_r(2, 4), _r(2, 4)]),
    # -- shapes, indexing, reductions, convolution
    "Cumsum": (lambda x: tf.math.cumsum(x, axis=1) + tf.math.cumsum(x, axis=-2, exclusive=True,
                                                                    reverse=True), [_r(3, 4)]),
    "Cumprod": (lambda x: tf.math.cumprod(x, axis=0, reverse=True), [_r(3, 2, lo=0.5)]),
    "ReverseV2": (lambda x: tf.reverse(x, [1]) * x, [_r(2, 3)]),
    "Tile": (lambda x: tf.tile(x, [2, 3]), [_r(2, 2)]),
    "Pad": (lambda x: tf.pad(x, [[1, 0], [0, 2]], constant_values=3.0), [_r(2, 3)]),
    "Max": (lambda x: tf.reduce_max(x, axis=1) + tf.reduce_max(x), [np.array(
        [[1.0, 3.0, 3.0], [2.0, 0.5, -1.0]])]),
    "Min": (lambda x: tf.reduce_min(x, axis=0, keepdims=True), [np.array(
        [[1.0, 0.5, 3.0], [1.0, 0.5, -1.0]])]),
    "Prod": (lambda x: tf.reduce_prod(x, axis=1) + tf.reduce_prod(x), [np.array(
        [[1.5, 0.0, 3.0], [2.0, 0.5, -1.0]])]),
    "GatherV2": (lambda x: tf.gather(x, [2, 0, 2])
                 + tf.reduce_sum(tf.gather(x, [[1], [1]], axis=1)), [_r(3, 2)]),
    "GatherNd": (lambda x: tf.gather_nd(x, [[0, 1], [1, 0], [0, 1]]), [_r(2, 2)]),
    "ScatterNd": (lambda u: tf.scatter_nd([[1], [0], [1]], u, (3, 2)), [_r(3, 2)]),
    "GatherAlongAxis": (lambda x: tf.sort(x, axis=-1) * 2.0, [_r(2, 4)]),
    "ScatterAlongAxis": (lambda x: _inner_grad(lambda x: tf.math.top_k(x, 2).values ** 2, x),
                         [_r(2, 4)]),
    "TensorScatterMax": (lambda x, u: tf.tensor_scatter_nd_max(x, [[1], [0], [1]], u),
                         [np.array([[1.0, 2.0], [0.5, 0.0], [1.0, 3.0]]),
                          np.array([[1.0, 1.0], [0.5, 4.0], [-1.0, 0.0]])]),
    "TensorScatterMin": (lambda u, x: tf.tensor_scatter_nd_min(x, [[1], [0], [1]], u),
                         [np.array([[1.0, 1.0], [0.5, 4.0], [-1.0, 0.0]]),
                          np.array([[1.0, 2.0], [0.5, 0.0], [1.0, 3.0]])]),
    "DynamicStitch": (lambda x, y: tf.dynamic_stitch([[0, 2], [1, 2]], [x, y]), [_r(2, 3),
                                                                               _r(2, 3)]),
    "UnsortedSegmentSum": (lambda x: tf.math.unsorted_segment_sum(x, _IDS, 3), [_r(4, 2)]),
    "UnsortedSegmentMax": (lambda x: tf.math.unsorted_segment_max(x, _IDS, 3), [np.array(
        [[1.0, 2.0], [0.5, 0.0], [1.0, 3.0], [-1.0, 0.0]])]),
    "UnsortedSegmentMin": (lambda x: tf.math.unsorted_segment_min(x, [0, -1, 0, 1], 2), [np.array(
        [[1.0, 2.0], [0.5, 0.0], [1.0, 3.0], [-1.0, 0.0]])]),
    "UnsortedSegmentProd": (lambda x: tf.math.unsorted_segment_prod(x, _IDS, 3), [np.array(
        [[1.0, 2.0], [0.5, 0.0], [1.5, 0.0], [-1.0, 0.0]])]),
    "Einsum": (lambda a, b: tf.einsum("ij,jk->ik", a, b) + tf.einsum("bij,j->i", b[None], a[0]),
               [_r(3, 3), _r(3, 3)]),
    "EinsumDiagonal": (lambda a: tf.einsum("ii->i", a) * 2.0, [_r(3, 3)]),
    "EinsumDiagonalEmbed": (lambda a: _inner_grad(lambda a: tf.einsum("ii->i", a) ** 2, a),
                            [_r(3, 3)]),
    "Conv2D": (_conv, [_r(2, 3, 3, 2), _r(2, 2, 2, 3)]),
    "Im2Col": (lambda x: tf.nn.avg_pool2d(x, 2, 1, "VALID"), [_r(2, 3, 3, 2)]),
    "Col2Im": (lambda x, w: _inner_grad(lambda x: _conv(x, w) ** 2, x), [_r(1, 3, 3, 2),
                                                                          _r(2, 2, 2, 2)]),
    "MaxPool": (_pool, [_r(2, 3, 3, 2)]),
    "MaxPoolGrad": (lambda u, x: _inner_grad(_pool, x, upstream=u), [_r(2, 2, 2, 2),
                                                                      _r(2, 3, 3, 2)]),
    "GatherWindows": (lambda x, w: tf.nn.conv3d(x, w, [1] * 5, "SAME"),
                      [_r(2, 3, 3, 2, 1), _r(2, 2, 1, 1, 2)]),
    "ScatterWindows": (lambda x, w: _inner_grad(lambda x: tf.nn.conv3d(x, w, [1] * 5, "VALID") ** 2,
                                                 x), [_r(1, 3, 3, 2, 1), _r(2, 2, 1, 1, 2)]),
    "IsotonicRegression": (lambda x: tf.nn.isotonic_regression(x)[0], [np.array(
        [[1.0, 3.0, 2.0, 4.0], [0.5, -1.0, 2.0, 1.5]])]),
    "CTCLoss": (lambda x: tf.nn.ctc_loss([[1, 2], [2, 2]], x, [2, 2], [4, 4],
                                         logits_time_major=False), [_r(2, 4, 3, dtype=np.float32)]),
    "MaxPoolGradGrad": (lambda t, x: _inner_grad(
        lambda u: _inner_grad(_pool, x, upstream=u), tf.zeros((2, 2, 2, 2), tf.float64), t),
        [_r(2, 3, 3, 2), _r(2, 3, 3, 2)]),
    # (one replica: the all-reduce group 0; tests/engine/test_distribute.py runs several)
    "CollectiveAllReduce": (lambda x: all_reduce(x * x, op="MEAN") * x, [_r(2, 3)]),
    # strategy.reduce's join of the local replicas' values (one op, several inputs)
    "AllReduce": (lambda x, y: sum_replicas([x * y, x, y]) * x, [_r(2, 3), _r(2, 3)]),
}

# More cases for rules that mirror a VJP with branches (complex operands, adjoints):
# label -> (the primitive, function, arrays).
_A, _B = _spd(3), _r(3, 3)   # constants of the complex cases (the same for both paths)
VARIANTS = {
    "MatrixSolve, complex, adjoint": ("MatrixSolve", lambda x, y: tf.abs(tf.linalg.solve(
        tf.complex(tf.constant(_A), tf.constant(_B)) * tf.complex(x, y),
        tf.complex(y, x), adjoint=True)), [_r(3, 3, lo=0.5), _r(3, 3)]),
    "MatrixSolve, complex": ("MatrixSolve", lambda x, y: tf.abs(tf.linalg.solve(
        tf.complex(tf.constant(_A), tf.constant(_B)) * tf.complex(x, y),
        tf.complex(y, x))), [_r(3, 3, lo=0.5), _r(3, 3)]),
    "MatrixTriangularSolve, complex, adjoint": ("MatrixTriangularSolve", lambda x, y: tf.abs(
        tf.linalg.triangular_solve(tf.complex(tf.constant(_A), tf.constant(_B))
                                   * tf.complex(x, y), tf.complex(y, x), lower=False,
                                   adjoint=True)), [_r(3, 3, lo=0.5), _r(3, 3)]),
    "MatMul, complex, adjoint": ("MatMul", lambda x, y: tf.abs(tf.matmul(
        tf.complex(x, y), tf.complex(y, x), adjoint_a=True) + tf.matmul(
        tf.complex(x, y), tf.complex(y, x), adjoint_b=True)), [_r(3, 3), _r(3, 3)]),
    "MatrixInverse, complex, adjoint": ("MatrixInverse", lambda x, y: tf.abs(tf.linalg.inv(
        tf.complex(tf.constant(_A), x), adjoint=True)), [_r(3, 3), _r(3, 3)]),
    "SvdU, full_matrices": ("SvdU", lambda a: tf.abs(tf.linalg.svd(a, full_matrices=True)[1]),
                            [_r(4, 3)]),
    "SvdV, full_matrices": ("SvdV", lambda a: tf.abs(tf.linalg.svd(a, full_matrices=True)[2]),
                            [_r(3, 4)]),
    "Cumsum, complex": ("Cumsum", lambda x, y: tf.abs(tf.math.cumsum(tf.complex(x, y), axis=1)),
                        [_r(2, 3), _r(2, 3)]),
    "Einsum, complex": ("Einsum", lambda x, y: tf.abs(tf.einsum("ij,kj->ik", tf.complex(x, y),
                                                                tf.complex(y, x))),
                        [_r(2, 3), _r(2, 3)]),
}


# Primitives with no gradient at all share one batched rule, which raises the loop's LookupError;
# these cases check it on both paths (others with no gradient need no case of their own).
NO_GRADIENT_CASES = {
    "AdjustContrastv2": (lambda x: tf.image.adjust_contrast(x, 2.0), [_r(2, 2, 3)]),
    "DenseBincount": (lambda w: tf.math.bincount(tf.constant([0, 1, 1]), weights=w), [_r(3)]),
    "TruncateMod": (lambda x, y: tf.truncatemod(x, y), [_r(3), _r(3, lo=0.5)]),
    "GuaranteeConst": (lambda x: tf.guarantee_const(x) * x, [_r(3)]),
    "IgammaGradA": (lambda a, x: _inner_grad(lambda a: tf.math.igamma(a, x), a),
                    [_r(3, lo=0.5, hi=2.0), _r(3, lo=0.5)]),
}

# A VJP that raises TensorFlow's own error: the batched pass raises it too.
RAISING_CASES = {
    "UnsetDataFormatIdentity": (lambda x, w: tf.nn.convolution(x, w), AttributeError,
                                [_r(1, 2, 2, 2, 1), _r(1, 1, 1, 1, 1)]),
    "SparseDenseCwiseMul": (lambda v, s: (tf.sparse.SparseTensor([[0], [2]], v, [3]) * s).values,
                            tf.errors.InvalidArgumentError, [_r(2), _r()]),
    "SparseDenseCwiseDiv": (lambda v, s: (tf.sparse.SparseTensor([[0], [2]], v, [3]) / s).values,
                            tf.errors.InvalidArgumentError, [_r(2), _r(lo=0.5)]),
}

# Primitives whose rows cannot be batched exactly, name -> the reason; they go row by row. None
# today: every rule computes the loop's numbers (reductions keep their axes' order, matrix
# products and solves stay one LAPACK/BLAS call per row, gathers and scatters add in index order).
LOOP_ONLY = {}

_DOMAINS = {"Acosh": (1.2, 3.0), "Erfinv": (-0.9, 0.9), "Atanh": (-0.9, 0.9), "Asin": (-0.9, 0.9),
            "Acos": (-0.9, 0.9)}


def _elementwise_case(name):
    lo, hi = _DOMAINS.get(name, (0.2, 0.8))
    return (lambda x: TABLE[name].apply(x)), [_r(2, 3, lo=lo, hi=hi)]


def _case(name):
    if name in CASES:
        return CASES[name]
    if TABLE[name] in ELEMENTWISE:
        return _elementwise_case(name)
    return None


def _both_paths(fn, arrays, batch=False):
    """(batched result, loop result, whether the batched pass ran) of fn's jacobian."""
    out, ran = [], []
    real = batching.batched_backward

    def spy(*a):
        r = real(*a)
        ran.append(r is not None)
        return r
    for pfor in (True, False):
        xs = [tf.constant(a) for a in arrays]
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(xs)
            y = fn(*xs)
        J.batched_backward = spy
        try:
            out.append(tape.batch_jacobian(y, xs[0], experimental_use_pfor=pfor) if batch
                       else tape.jacobian(y, xs, experimental_use_pfor=pfor))
        finally:
            J.batched_backward = real
    return out[0], out[1], ran == [True]


def _assert_same_bits(a, b):
    fa, fb = tf.nest.flatten(a), tf.nest.flatten(b)
    assert len(fa) == len(fb)
    for p, q in zip(fa, fb):
        assert (p is None) == (q is None)
        if p is not None:
            assert p.shape == q.shape and p.dtype == q.dtype
            np.testing.assert_array_equal(p.numpy(), q.numpy())


def _recorded_ops(fn, arrays):
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        fn(*xs)
    return {rec.op.name for rec in tape.records}


def test_every_primitive_has_a_batched_case():
    missing = [name for name, prim in TABLE.items()
               if not prim.nondiff and prim.vjp is not None and _case(name) is None
               and name not in RAISING_CASES and name not in LOOP_ONLY]
    assert not missing, f"primitives with no batched case here (add a rule and a case): {missing}"
    checked = set(CASES) | set(RAISING_CASES)
    declared = {name for name, prim in TABLE.items()
                if prim.batched is not None and prim not in ELEMENTWISE}
    assert declared <= checked, declared - checked


@pytest.mark.parametrize("name", sorted(n for n in CASES if n in TABLE))
def test_each_case_records_its_primitive(name):
    fn, arrays = CASES[name]
    assert name in _recorded_ops(fn, arrays)


@pytest.mark.parametrize("name", sorted(n for n, p in TABLE.items()
                                        if not p.nondiff and p.vjp is not None
                                        and n not in LOOP_ONLY and _case(n) is not None))
def test_primitive_is_batched_bit_for_bit(name):
    assert batching.rule_of(TABLE[name]) is not None, f"{name} has no batched rule"
    fn, arrays = _case(name)
    batched, loop, ran = _both_paths(fn, arrays)
    assert ran, f"{name}: the batched pass fell back to the row loop"
    _assert_same_bits(batched, loop)


@pytest.mark.parametrize("label", sorted(VARIANTS))
def test_variant_is_batched_bit_for_bit(label):
    name, fn, arrays = VARIANTS[label]
    assert name in _recorded_ops(fn, arrays)
    batched, loop, ran = _both_paths(fn, arrays)
    assert ran, f"{label}: the batched pass fell back to the row loop"
    _assert_same_bits(batched, loop)


@pytest.mark.parametrize("name", sorted(n for n in NO_GRADIENT_CASES if n in TABLE))
def test_primitive_without_gradient_raises_the_same_on_both_paths(name):
    fn, arrays = NO_GRADIENT_CASES[name]
    assert name in _recorded_ops(fn, arrays)
    for pfor in (True, False):
        xs = [tf.constant(a) for a in arrays]
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(xs)
            y = fn(*xs)
        with pytest.raises(LookupError, match=f"no entry for: {name}$"):
            tape.jacobian(y, xs, experimental_use_pfor=pfor)


@pytest.mark.parametrize("name", sorted(n for n in RAISING_CASES if n in TABLE))
def test_vjp_raising_an_error_raises_it_on_both_paths(name):
    fn, error, arrays = RAISING_CASES[name]
    assert name in _recorded_ops(fn, arrays) and batching.rule_of(TABLE[name]) is not None
    for pfor in (True, False):
        xs = [tf.constant(a) for a in arrays]
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(xs)
            y = fn(*xs)
        with pytest.raises(error):
            tape.jacobian(y, xs, experimental_use_pfor=pfor)


def test_nondifferentiable_ops_batch_as_unconnected():
    batched, loop, ran = _both_paths(lambda x: tf.floor(x) + tf.cast(x > 0, tf.float64) + x,
                                     [_r(4)])
    assert ran
    _assert_same_bits(batched, loop)


def test_primitive_without_rule_falls_back_to_the_loop():
    prim = TABLE["Cumsum"]
    saved, prim.batched = prim.batched, None
    try:
        assert batching.rule_of(prim) is None
        x0 = _r(5)
        batched, loop, ran = _both_paths(lambda x: tf.math.cumsum(x * x), [x0])
        assert not ran
        _assert_same_bits(batched, loop)
        np.testing.assert_allclose(batched[0].numpy(), np.tril(np.ones((5, 5))) * 2 * x0[None, :])
    finally:
        prim.batched = saved


def test_rule_raising_not_batchable_falls_back_to_the_loop():
    prim = TABLE["Neg"]
    saved = prim.batched

    def refuses(*args):
        raise batching.NotBatchable("test")
    prim.batched = refuses
    try:
        x0 = _r(3)
        batched, loop, ran = _both_paths(lambda x: -x * x, [x0])
    finally:
        prim.batched = saved
    assert not ran
    _assert_same_bits(batched, loop)
    np.testing.assert_array_equal(batched[0].numpy(), np.diag(-2 * x0))


@pytest.mark.parametrize("name", ["Neg", "Cholesky", "Atan2"])
def test_replaced_gradient_is_not_batched(name):
    prim = TABLE[name]
    assert batching.rule_of(prim) is not None
    saved = prim.vjp
    prim.vjp = lambda g, ans, inputs, attrs, wanted: [g * 3.0] + [None] * (len(inputs) - 1)
    try:
        assert batching.rule_of(prim) is None
    finally:
        prim.vjp = saved
    assert batching.rule_of(prim) is not None
    x = tf.constant([1.0, 2.0])
    prim = TABLE["Neg"]
    saved = prim.vjp
    prim.vjp = lambda g, ans, inputs, attrs, wanted: [g * 3.0]
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = -x
        np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), 3 * np.eye(2))
    finally:
        prim.vjp = saved


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)])
def test_svd_and_qr_rules_for_tall_wide_and_stacked_matrices(shape):
    a = _r(*shape)
    for fn in (lambda a: tf.linalg.svd(a)[0], lambda a: tf.linalg.svd(a)[1],
               lambda a: tf.linalg.svd(a)[2], lambda a: tf.linalg.qr(a)[1]):
        batched, loop, ran = _both_paths(fn, [a])
        assert ran
        _assert_same_bits(batched, loop)


def test_conv_and_pool_batch_jacobians_are_batched_and_exact():
    w = tf.constant(_r(2, 2, 2, 3))
    for fn in (lambda x: _conv(x, w), _pool, lambda x: tf.nn.avg_pool2d(x, 2, 1, "SAME")):
        batched, loop, ran = _both_paths(fn, [_r(3, 4, 4, 2)], batch=True)
        assert ran
        _assert_same_bits(batched, loop)


def test_tanh_layer_and_batch_jacobian_are_batched_and_exact():
    w, b, x = _r(16, 16, dtype=np.float32), _r(16, dtype=np.float32), _r(16, dtype=np.float32)
    batched, loop, ran = _both_paths(
        lambda x, w, b: tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(x, (-1, 1))), (-1,)) + b),
        [x, w, b])
    assert ran
    _assert_same_bits(batched, loop)
    batched, loop, ran = _both_paths(lambda x, w: tf.sigmoid(tf.matmul(x, w)) * x[:, :1],
                                     [_r(5, 4), _r(4, 3)], batch=True)
    assert ran and batched.shape == (5, 3, 4)
    _assert_same_bits(batched, loop)


def test_batched_jacobian_is_differentiable_by_an_outer_tape():
    x0 = _r(3, lo=0.5, hi=1.5)
    hessians = []
    for pfor in (True, False):
        x = tf.constant(x0)
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(x)
            with tf.GradientTape(persistent=True) as inner:
                inner.watch(x)
                y = tf.sin(x) * tf.reduce_prod(tf.math.cumsum(x) ** 3)
            j = inner.jacobian(y, x, experimental_use_pfor=pfor)
        hessians.append(outer.jacobian(j, x, experimental_use_pfor=pfor))
    assert hessians[0].shape == (3, 3, 3)
    _assert_same_bits(hessians[0], hessians[1])


@pytest.mark.parametrize("batch", [False, True])
def test_many_rows_take_several_passes_with_the_same_numbers(monkeypatch, batch):
    passes = []
    real = batching.batched_backward

    def counted(*a):
        passes.append(1)
        return real(*a)
    x0, w0 = _r(6, 5), _r(5, 4)
    results = []
    for budget in (J.ROWS_BUDGET, 60):   # 60 entries: 2 rows a pass (x, the widest, has 30)
        monkeypatch.setattr(J, "ROWS_BUDGET", budget)
        monkeypatch.setattr(J, "batched_backward", counted)
        x, w, u = tf.constant(x0), tf.constant(w0), tf.constant([1.0])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, w, u])
            y = tf.nn.relu(tf.matmul(x, w)) * tf.reduce_sum(x, axis=1, keepdims=True)
        passes.clear()
        if batch:
            results.append([tape.batch_jacobian(y, x)])
        else:
            results.append(tape.jacobian(y, [x, w, u]))
        results[-1].append(len(passes))
    (*whole, n_whole), (*blocks, n_blocks) = results
    assert n_whole == 1 and n_blocks == (2 if batch else 12)
    _assert_same_bits(whole, blocks)
    monkeypatch.setattr(J, "batched_backward", real)
    loop = [tape.batch_jacobian(y, x, experimental_use_pfor=False)] if batch else \
        tape.jacobian(y, [x, w, u], experimental_use_pfor=False)
    _assert_same_bits(blocks, loop)


def _second_order(fn, arrays, pfor):
    """The jacobian of the jacobian (wrt the first array), or the error it raised."""
    xs = [tf.constant(a) for a in arrays]
    try:
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(xs)
            with tf.GradientTape(persistent=True) as inner:
                inner.watch(xs)
                y = fn(*xs)
            j = inner.jacobian(y, xs[0], experimental_use_pfor=pfor)
        return None if j is None else outer.jacobian(j, xs[0], experimental_use_pfor=pfor)
    except LookupError as e:   # a rule's own ops with no gradient (CTCLossGrad, IgammaGradA)
        return type(e)


# Second order by the row loop takes seconds for these (rows x rows backward passes through
# decompositions and window ops); their rules are checked at first order above.
SLOW_SECOND_ORDER = {"Qr", "QrR", "SvdU", "SvdV", "EigVectors", "SelfAdjointEigV2Vectors",
                     "ScatterWindows", "Col2Im"}


@pytest.mark.parametrize("name", sorted(n for n in CASES if n in TABLE
                                        and n not in SLOW_SECOND_ORDER))
def test_second_order_through_batched_rules_matches_the_loop(name):
    """The batched rules are written with the engine's ops, so an outer tape differentiates them;
    the jacobian of a jacobian has the loop's bits too."""
    fn, arrays = CASES[name]
    batched, loop = _second_order(fn, arrays, True), _second_order(fn, arrays, False)
    if isinstance(loop, type):
        assert batched is loop
    else:
        _assert_same_bits(batched, loop)
