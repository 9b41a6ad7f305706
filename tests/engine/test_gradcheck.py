"""Every primitive in the table against central finite differences (float64), reverse and forward
mode, first and second order, on shapes (), (3,), (2, 3) and broadcasting pairs.

A primitive added to the table without a case here makes ``test_every_primitive_has_a_case`` fail.
"""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad.distribute.allreduce import all_reduce, sum_replicas
from tapegrad.ops import relu_grad
from tapegrad.table import TABLE
from tapegrad.test_util import check_gradients

rng = np.random.default_rng(42)
SHAPES = [(), (3,), (2, 3)]
PAIRS = [((), ()), ((3,), (3,)), ((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3))]


def normal(shape):
    return rng.standard_normal(shape)


def positive(shape):
    return rng.uniform(0.5, 2.0, shape)


def unit(shape):
    return rng.uniform(-0.8, 0.8, shape)


def away_from_zero(shape):
    return rng.uniform(0.3, 1.5, shape) * rng.choice([-1.0, 1.0], shape)


def unary(fn, sample=normal):
    return [(fn, [sample(s)]) for s in SHAPES]


def binary(fn, sx=normal, sy=normal):
    return [(fn, [sx(a), sy(b)]) for a, b in PAIRS]


def distinct_pair(a, b):
    x, y = normal(a), normal(b)
    return [x, y + np.where(np.abs(np.broadcast_to(x, np.broadcast_shapes(a, b)) - y) < 0.1, 0.5, 0)
            if np.shape(y) == np.broadcast_shapes(a, b) else y]


def reductions(fn):
    cases = [(lambda x: fn(x), [normal(s)]) for s in SHAPES]
    cases += [(lambda x: fn(x, axis=1), [normal((2, 3))]),
              (lambda x: fn(x, axis=0, keepdims=True), [normal((2, 3))]),
              (lambda x: fn(x, axis=[0, 2]), [normal((2, 3, 2))])]
    return cases


def _distinct(shape):
    """Values at least 0.1 apart, so no pooling window has a tie (finite differences stay local)."""
    return rng.permutation(np.arange(int(np.prod(shape))) * 0.1 - 1.0).reshape(shape)


def _well_conditioned(shape):
    return normal(shape) + 3 * np.eye(shape[-1])


def _conv_input_grad(x, w):
    # Col2Im only appears inside Conv2D's rule: reach it as the input gradient of a convolution.
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.nn.conv2d(x, w, 1, "SAME")
    return t.gradient(y, x, output_gradients=tf.ones_like(y) * y)


from tapegrad.ops import conv_ops as _pool  # noqa: E402

_ROWS_OF_ONE = rng.dirichlet(np.ones(3), 2)     # labels whose rows sum to 1
_LOGITS = normal((2, 3))


CASES = {
    "AddV2": binary(tf.add),
    "Sub": binary(tf.subtract),
    "Mul": binary(tf.multiply),
    "RealDiv": binary(tf.divide, normal, away_from_zero),
    "Pow": binary(tf.pow, positive, normal) + [(lambda x: x ** 3.0, [normal((2, 3))])],
    "Maximum": [(tf.maximum, distinct_pair(a, b)) for a, b in PAIRS],
    "Minimum": [(tf.minimum, distinct_pair(a, b)) for a, b in PAIRS],
    "FloorMod": [(lambda x, y: tf.math.floormod(x, y), [rng.uniform(0.1, 0.9, s) + 3.0,
                                                         np.full(s, 2.0)]) for s in SHAPES],
    "Neg": unary(tf.negative),
    "Abs": unary(tf.abs, away_from_zero),
    "Square": unary(tf.square),
    "Sqrt": unary(tf.sqrt, positive),
    "Rsqrt": unary(tf.math.rsqrt, positive),
    "Reciprocal": unary(tf.math.reciprocal, away_from_zero),
    "Exp": unary(tf.exp),
    "Log": unary(tf.math.log, positive),
    "Log1p": unary(tf.math.log1p, positive),
    "Expm1": unary(tf.math.expm1),
    "Sin": unary(tf.sin),
    "Cos": unary(tf.cos),
    "Tan": unary(tf.tan, unit),
    "Tanh": unary(tf.tanh),
    "Sigmoid": unary(tf.sigmoid),
    "Softplus": unary(tf.nn.softplus),
    "Relu": unary(tf.nn.relu, away_from_zero),
    "ReluGrad": [(lambda g, x: relu_grad(g, x), [normal((2, 3)), away_from_zero((2, 3))])],
    "Sign": unary(lambda x: tf.sign(x) * x, away_from_zero),
    "SelectV2": [(lambda x, y: tf.where(tf.constant(np.array([True, False, True])), x, y),
                  [normal((3,)), normal((3,))]),
                 (lambda x, y: tf.where(tf.constant(np.array([[True], [False]])), x, y),
                  [normal((2, 3)), normal((3,))])],
    # through float32: a coarse step, since float32 rounding would swamp a 1e-6 difference
    "Cast": [(lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64), [normal(s)],
              dict(eps=1e-2, rtol=1e-4, atol=1e-4)) for s in SHAPES],
    "Identity": unary(tf.identity),
    "Sum": reductions(tf.reduce_sum),
    "Mean": reductions(tf.reduce_mean),
    "Max": reductions(tf.reduce_max),
    "Min": reductions(tf.reduce_min),
    "Prod": reductions(tf.reduce_prod),
    "Cumsum": [(lambda x: tf.cumsum(x, axis=1), [normal((2, 3))]),
               (lambda x: tf.cumsum(x, exclusive=True, reverse=True), [normal((3,))])],
    "Cumprod": [(lambda x: tf.math.cumprod(x, axis=1), [away_from_zero((2, 3))]),
                (lambda x: tf.math.cumprod(x, exclusive=True, reverse=True), [away_from_zero((3,))])],
    "MatMul": [(tf.matmul, [normal((2, 3)), normal((3, 4))]),
               (lambda a, b: tf.matmul(a, b, transpose_a=True), [normal((3, 2)), normal((3, 4))]),
               (lambda a, b: tf.matmul(a, b, transpose_b=True), [normal((2, 3)), normal((4, 3))]),
               (lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                [normal((3, 2)), normal((4, 3))]),
               (tf.matmul, [normal((2, 2, 3)), normal((3, 2))])],
    "Reshape": [(lambda x: tf.reshape(x, (3, 2)), [normal((2, 3))]),
                (lambda x: tf.expand_dims(x, 0), [normal((3,))]),
                (lambda x: tf.squeeze(x), [normal((1, 3))])],
    "Transpose": [(tf.transpose, [normal((2, 3))]),
                  (lambda x: tf.transpose(x, (1, 2, 0)), [normal((2, 3, 2))])],
    "BroadcastTo": [(lambda x: tf.broadcast_to(x, (2, 3)), [normal((3,))]),
                    (lambda x: tf.broadcast_to(x, (2, 3)), [normal(())])],
    "ConcatV2": [(lambda x, y: tf.concat([x, y], axis=0), [normal((2, 3)), normal((1, 3))]),
                 (lambda x, y: tf.concat([x, y], axis=-1), [normal((2, 3)), normal((2, 2))])],
    "Pack": [(lambda x, y: tf.stack([x, y]), [normal((3,)), normal((3,))]),
             (lambda x, y: tf.stack([x, y], axis=1), [normal((2, 3)), normal((2, 3))])],
    "StridedSlice": [(lambda x: x[1], [normal((2, 3))]),
                     (lambda x: x[:, ::-2], [normal((2, 3))]),
                     (lambda x: x[None, -1, 1:], [normal((2, 3))]),
                     (lambda x: x[..., 0], [normal((2, 3))])],
    "StridedSliceGrad": [(lambda x: _slice_grad(x), [normal((2, 2))])],
    # -- issue 6: more math ------------------------------------------------------------------
    "Erf": unary(tf.math.erf),
    "Asin": unary(tf.asin, unit),
    "Acos": unary(tf.acos, unit),
    "Atan": unary(tf.atan),
    "Sinh": unary(tf.sinh),
    "Cosh": unary(tf.cosh),
    "Asinh": unary(tf.asinh),
    "Acosh": unary(tf.acosh, lambda s: rng.uniform(1.2, 3.0, s)),
    "Atanh": unary(tf.atanh, unit),
    "Atan2": binary(tf.atan2, normal, away_from_zero),
    "Relu6": [(tf.nn.relu6, [rng.uniform(0.3, 5.7, s) * rng.choice([-1.0, 1.0], s) + 0.0])
              for s in SHAPES] + [(tf.nn.relu6, [np.array([-1.0, 2.0, 6.5, 7.0])])],
    # TF's rule gives the logits g * (softmax - labels): the derivative when each row of labels
    # sums to 1, so labels are either constants that do (or a softmax-free normalization of an
    # input, which keeps them so for every perturbation), or the only input (their rule is exact).
    "SoftmaxCrossEntropyWithLogits": [
        (lambda x: tf.nn.softmax_cross_entropy_with_logits(_ROWS_OF_ONE, x), [normal((2, 3))]),
        (lambda x, u: tf.nn.softmax_cross_entropy_with_logits(
            u / tf.reduce_sum(u, -1, keepdims=True), x), [normal((2, 3)), positive((2, 3))]),
        (lambda x, u: tf.nn.softmax_cross_entropy_with_logits(u / tf.reduce_sum(u), x),
         [normal((4,)), positive((4,))]),
        (lambda u: tf.nn.softmax_cross_entropy_with_logits(u, _LOGITS), [positive((2, 3))]),
        (lambda x: tf.nn.softmax_cross_entropy_with_logits(_ROWS_OF_ONE.T, x, axis=0),
         [normal((3, 2))])],
    # -- nn: convolution and pooling ------------------------------------------------------------
    "Conv2D": [(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"), [normal((1, 4, 4, 2)), normal((3, 3, 2, 2))]),
               (lambda x, w: tf.nn.conv2d(x, w, 2, "VALID"), [normal((2, 5, 5, 1)), normal((2, 2, 1, 3))]),
               (lambda x, w: tf.nn.conv2d(x, w, [1, 2, 1, 1], "SAME", dilations=2),
                [normal((1, 5, 4, 1)), normal((2, 2, 1, 2))])],
    "Im2Col": [(lambda x: tf.nn.avg_pool2d(x, 2, 1, "SAME"), [normal((1, 3, 3, 2))])],
    "Col2Im": [(lambda x, w: _conv_input_grad(x, w), [normal((1, 4, 4, 1)), normal((2, 2, 1, 2))])],
    "MaxPool": [(lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME"), [_distinct((1, 3, 3, 2))]),
                (lambda x: tf.nn.max_pool2d(x, [1, 3, 2, 1], 1, "VALID"), [_distinct((2, 4, 3, 1))])],
    "MaxPoolGrad": [(lambda x, g: _pool.max_pool_grad(x, g, _pool.pool_attrs(x, 2, 1, "SAME")),
                     [_distinct((1, 3, 3, 1)), normal((1, 3, 3, 1))])],
    "MaxPoolGradGrad": [(lambda x, t: _pool.max_pool_grad_grad(x, t, _pool.pool_attrs(x, 2, 1, "SAME")),
                         [_distinct((1, 3, 3, 1)), normal((1, 3, 3, 1))])],
    # -- shape and indexing -----------------------------------------------------------------------
    "Tile": [(lambda x: tf.tile(x, [2, 3]), [normal((2, 3))]),
             (lambda x: tf.tile(x, [3]), [normal((1,))])],
    "ReverseV2": [(lambda x: tf.reverse(x, [1]), [normal((2, 3))]),
                  (lambda x: tf.reverse(x, [0, -1]), [normal((2, 3))])],
    "Pad": [(lambda x: tf.pad(x, [[1, 0], [2, 1]]), [normal((2, 3))]),
            (lambda x: tf.pad(x, [[1, 2]], constant_values=3.0), [normal((3,))])],
    "Einsum": [(lambda a, b: tf.einsum("ij,jk->ik", a, b), [normal((2, 3)), normal((3, 2))]),
               (lambda a, b: tf.einsum("ij,ik->j", a, b), [normal((2, 3)), normal((2, 2))]),
               (lambda a, b: tf.einsum("...ij,...jk", a, b), [normal((2, 2, 3)), normal((1, 3, 2))]),
               (lambda a: tf.einsum("ij->ji", a), [normal((2, 3))]),
               (lambda a, b: tf.tensordot(a, b, [[0], [1]]), [normal((2, 3)), normal((3, 2))])],
    "GatherV2": [(lambda x: tf.gather(x, [2, 0, 2]), [normal((3, 2))]),
                 (lambda x: tf.gather(x, [[1, 0]], axis=1), [normal((2, 3))])],
    "UnsortedSegmentSum": [(lambda x: tf.math.unsorted_segment_sum(x, [0, 2, 0], 3),
                            [normal((3, 2))])],
    "GatherNd": [(lambda x: tf.gather_nd(x, [[0, 1], [1, 2], [0, 1]]), [normal((2, 3))]),
                 (lambda x: tf.gather_nd(x, [[1]]), [normal((2, 3))])],
    "ScatterNd": [(lambda u: tf.scatter_nd([[0], [2], [0]], u, (3, 2)), [normal((3, 2))])],
    # -- linear algebra -------------------------------------------------------------------------------
    "MatrixInverse": [(tf.linalg.inv, [_well_conditioned((3, 3))]),
                      (lambda a: tf.linalg.inv(a, adjoint=True), [_well_conditioned((2, 2, 2))])],
    "MatrixDeterminant": [(tf.linalg.det, [_well_conditioned((3, 3))]),
                          (tf.linalg.det, [_well_conditioned((2, 2, 2))])],
    "LogMatrixDeterminant": [(lambda a: tf.linalg.slogdet(a)[1], [_well_conditioned((3, 3))])],
    "MatrixSolve": [(tf.linalg.solve, [_well_conditioned((3, 3)), normal((3, 2))]),
                    (lambda a, b: tf.linalg.solve(a, b, adjoint=True),
                     [_well_conditioned((2, 3, 3)), normal((2, 3, 1))])],
    "MatrixTriangularSolve": [
        (tf.linalg.triangular_solve, [_well_conditioned((3, 3)), normal((3, 2))]),
        (lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True),
         [_well_conditioned((3, 3)), normal((3, 2))])],
    "Cholesky": [(lambda x: tf.linalg.cholesky(tf.matmul(x, x, transpose_b=True) + 3 * tf.eye(
        3, dtype=tf.float64)), [normal((3, 3))])],
}

# Ops that by definition (and as in TensorFlow) have a None gradient.
NONE_GRADIENT = {"FloorDiv": (tf.math.floordiv, 2), "Floor": (tf.floor, 1),
                 "Ceil": (tf.math.ceil, 1), "Round": (tf.round, 1),
                 "StopGradient": (tf.stop_gradient, 1),
                 "ArgMax": (tf.argmax, 1), "ArgMin": (tf.math.argmin, 1)}
BOOLEAN = {"Any", "All", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd",
           "LogicalOr", "LogicalXor", "LogicalNot", "IsNan", "IsInf", "IsFinite"}
# one replica (group 0); several replicas' rules: tests/engine/test_distribute.py
CASES["CollectiveAllReduce"] = [(lambda x: all_reduce(x * x, op="MEAN") * x, [normal((2, 3))])]
# strategy.reduce's join of the local replicas' values (one op, several inputs)
CASES["AllReduce"] = [(lambda x, y: sum_replicas([x * y, x, y]) * x, [normal((2, 3)), normal((2, 3))])]

ELSEWHERE = {"ReadVariableOp": "test_tape.py (variables)",
             "AdjustContrastv2": "no gradient registered: test_unregistered_gradient"}

# -- issue 15: the everyday tf.math / tf.nn surface -------------------------------------------------
_IDS = [2, 0, 2, 1]


def _parts(z):
    return tf.stack([tf.math.real(z), tf.math.imag(z)])


def _spread_symmetric():
    """A symmetric matrix with well separated eigenvalues (eigenvector rules divide by gaps)."""
    q, _ = np.linalg.qr(normal((3, 3)))
    return (q * np.array([1.0, 2.5, 4.0])) @ q.T


CASES.update({
    "GatherAlongAxis": [(lambda x: tf.math.top_k(x, 2).values, [_distinct((2, 4))]),
                        (lambda x: tf.sort(x, axis=0), [_distinct((3, 2))])],
    "ScatterAlongAxis": [(lambda g: _top_k_grad(g), [normal((2, 2))])],
    "UnsortedSegmentMax": [(lambda x: tf.math.unsorted_segment_max(x, _IDS, 3), [_distinct((4, 2))]),
                           (lambda x: tf.math.segment_max(x, [0, 0, 1]), [_distinct((3,))])],
    "UnsortedSegmentMin": [(lambda x: tf.math.unsorted_segment_min(x, _IDS, 3), [_distinct((4, 2))])],
    "UnsortedSegmentProd": [(lambda x: tf.math.unsorted_segment_prod(x, _IDS, 3),
                             [away_from_zero((4, 2))]),
                            (lambda x: tf.math.segment_prod(x, [0, 0, 1]), [away_from_zero((3,))])],
    "Lgamma": unary(tf.math.lgamma, positive),
    "Digamma": unary(tf.math.digamma, positive),
    "Polygamma": [(lambda x: tf.math.polygamma(tf.constant(np.full(np.shape(x), 1.0)), x),
                   [positive(s)]) for s in SHAPES],
    "Xlogy": binary(tf.math.xlogy, away_from_zero, positive),
    "Xdivy": binary(tf.math.xdivy, away_from_zero, away_from_zero),
    "Xlog1py": binary(tf.math.xlog1py, away_from_zero, positive),
    "EinsumDiagonal": [(lambda x: tf.einsum("ii->i", x), [normal((3, 3))]),
                       (lambda x, v: tf.einsum("...ii,i->...", x, v), [normal((2, 3, 3)), normal((3,))]),
                       (lambda x: tf.einsum("iji->j", x), [normal((2, 3, 2))])],
    "EinsumDiagonalEmbed": [(lambda g: _diagonal_grad(g), [normal((3,))])],
    "Erfc": unary(tf.math.erfc),
    "BesselI0": unary(tf.math.special.bessel_i0),
    "BesselI1": unary(tf.math.special.bessel_i1),
    "BesselI0e": unary(tf.math.bessel_i0e, away_from_zero),
    "BesselI1e": unary(tf.math.bessel_i1e, away_from_zero),
    "Erfinv": unary(tf.math.erfinv, unit),
    "MulNoNan": binary(tf.math.multiply_no_nan, normal, away_from_zero),
    # decompositions: vectors enter squared (their signs are a convention)
    "SelfAdjointEigV2": [(tf.linalg.eigvalsh, [_well_conditioned((3, 3))]),
                         (tf.linalg.eigvalsh, [_well_conditioned((2, 2, 2))])],
    "SelfAdjointEigV2Vectors": [(lambda a: tf.linalg.eigh(a)[1] ** 2, [_spread_symmetric()])],
    "Svd": [(lambda a: tf.linalg.svd(a, compute_uv=False), [normal((3, 2))]),
            (lambda a: tf.linalg.svd(a, compute_uv=False), [normal((2, 2, 3))])],
    "SvdU": [(lambda a: tf.linalg.svd(a)[1] ** 2, [normal((3, 2))]),
             (lambda a: tf.linalg.svd(a)[1] ** 2, [normal((2, 3))])],
    "SvdV": [(lambda a: tf.linalg.svd(a)[2] ** 2, [normal((3, 2))]),
             (lambda a: tf.linalg.svd(a)[2] ** 2, [normal((2, 3))])],
    "Qr": [(lambda a: tf.linalg.qr(a)[0], [normal((3, 2))]),
           (lambda a: tf.linalg.qr(a)[0], [normal((2, 2))]),
           (lambda a: tf.linalg.qr(a)[0], [normal((2, 3))])],
    "QrR": [(lambda a: tf.linalg.qr(a)[1], [normal((3, 2))]),
            (lambda a: tf.linalg.qr(a, full_matrices=True)[1], [normal((2, 2, 2))]),
            (lambda a: tf.linalg.qr(a)[1], [normal((2, 4))])],
    # complex values enter and leave through real and imaginary parts
    "Complex": [(lambda a, b: tf.math.imag(tf.complex(a, b)) * tf.math.real(tf.complex(b, a)),
                 [normal((3,)), normal((3,))])],
    "Real": [(lambda a: tf.math.real(tf.complex(a, a * a)) ** 2, [normal((2, 3))])],
    "Imag": [(lambda a: tf.math.imag(tf.complex(a, a * a)) ** 2, [normal((2, 3))])],
    "Conj": [(lambda a, b: _parts(tf.math.conj(tf.complex(a, b))), [normal((3,)), normal((3,))])],
    "FFT": [(lambda a, b: _parts(tf.signal.fft(tf.complex(a, b))), [normal((5,)), normal((5,))]),
            (lambda a, b: _parts(tf.signal.fft2d(tf.complex(a, b))),
             [normal((2, 3)), normal((2, 3))])],
    "IFFT": [(lambda a, b: _parts(tf.signal.ifft(tf.complex(a, b))), [normal((4,)), normal((4,))]),
             (lambda a, b: _parts(tf.signal.ifft2d(tf.complex(a, b))),
              [normal((2, 2)), normal((2, 2))])],
    "RFFT": [(lambda a: _parts(tf.signal.rfft(a)), [normal((5,))]),
             (lambda a: _parts(tf.signal.rfft(a, fft_length=[6])), [normal((2, 4))]),
             (lambda a: _parts(tf.signal.rfft2d(a)), [normal((2, 4))])],
    "IRFFT": [(lambda a, b: tf.signal.irfft(tf.complex(a, b)), [normal((3,)), normal((3,))]),
              (lambda a, b: tf.signal.irfft(tf.complex(a, b), [5]), [normal((3,)), normal((3,))]),
              (lambda a, b: tf.signal.irfft(tf.complex(a, b), [3]), [normal((3,)), normal((3,))]),
              (lambda a, b: tf.signal.irfft2d(tf.complex(a, b)), [normal((2, 3)), normal((2, 3))])],
})
NONE_GRADIENT["TruncateDiv"] = (tf.truncatediv, 2)
ELSEWHERE.update({
    "SparseSoftmaxCrossEntropyWithLogits": "test_sparse_xent.py (integer labels: first and "
                                           "second order against finite differences)"})
ELSEWHERE.update({"DenseBincount": "no gradient registered in TF: conformance math bincount",
                  "TruncateMod": "no gradient registered in TF: conformance math truncatemod"})
# -- ops/rearrange_ops.py: its own primitives (the rest are composites) ---------------------------------
CASES.update({
    "DynamicStitch": [(lambda a, b: tf.dynamic_stitch([[2, 0], [1]], [a, b]),
                       [normal((2, 3)), normal((1, 3))])],
    "TensorScatterMax": [(lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [2]], u),
                          [np.array([1.0, 2.0, 3.0]), np.array([5.0, 0.5])])],
    "TensorScatterMin": [(lambda t, u: tf.tensor_scatter_nd_min(t, [[0], [2]], u),
                          [np.array([1.0, 2.0, 3.0]), np.array([5.0, 0.5])])],
})
ELSEWHERE.update({"GuaranteeConst": "no gradient registered in TF (LookupError): test_array_more"})
# -- tf.linalg: matrix functions, eig, LU ------------------------------------------------------------
CASES.update({
    "MatrixSquareRoot": [(tf.linalg.sqrtm, [_spread_symmetric() + 2.0 * np.eye(3)])],
})
ELSEWHERE.update({
    "Eig": "reverse mode only, as TF (no forward rule): test_ops_eig.py",
    "EigVectors": "reverse mode only, as TF (no forward rule): test_ops_eig.py",
    "Lu": "no gradient registered in TF (LookupError): test_ops_lu.py",
    "MatrixLogarithm": "no gradient registered in TF (LookupError): test_ops_matrix_functions.py",
})
# -- tf.math special functions, tf.nn CTC / isotonic regression (gamma_ops, ctc_ops, isotonic_ops) --
CASES.update({
    "Igamma": [(lambda x: tf.math.igamma(tf.constant([0.7, 2.5, 4.0], tf.float64), x),
                [np.array([0.4, 3.1, 2.2])])],
    "Igammac": [(lambda x: tf.math.igammac(tf.constant([0.7, 2.5, 4.0], tf.float64), x),
                 [np.array([0.4, 3.1, 2.2])])],
    "Betainc": [(lambda x: tf.math.betainc(tf.constant([2.0, 0.7], tf.float64),
                                           tf.constant([3.0, 1.5], tf.float64), x),
                 [np.array([0.3, 0.6])])],
    "Zeta": [(lambda q: tf.math.zeta(tf.constant([2.5, 4.0], tf.float64), q),
              [np.array([0.8, 3.0])])],
    "Erfcinv": [(tf.math.erfcinv, [np.array([0.3, 1.0, 1.7])])],
    "NextAfter": [(tf.math.nextafter, [np.array([1.0, -2.0]), np.array([5.0, -7.0])])],
    "IsotonicRegression": [(lambda x: tf.nn.isotonic_regression(x)[0],
                            [np.array([[1.0, 3.0, 2.0, 4.0, 0.5], [5.0, 1.0, 1.5, 2.0, 3.0]])])],
})
ELSEWHERE.update({
    "IgammaGradA": "no gradient in TF (LookupError); d/da checked to first order: test_ops_gamma",
    "InvertPermutation": "integer op, no gradient: test_ops_gamma.py",
    "CTCLoss": "first order (TF prevents the second): test_ops_ctc.py",
    "CTCLossGrad": "no gradient, as TF's prevent_gradient: test_ops_ctc.py",
    "IsotonicRegressionSegments": "integer output: test_ops_isotonic.py",
})


_TOP_K_INPUT = _distinct((2, 4))
_SQUARE = normal((3, 3))



def _diagonal_grad(g):
    # EinsumDiagonalEmbed only appears inside EinsumDiagonal's rule: reach it as its gradient.
    x = tf.constant(_SQUARE)
    with tf.GradientTape() as t:
        t.watch(x)
        d = tf.einsum("ii->i", x)
    return t.gradient(d, x, output_gradients=g * g)


def _top_k_grad(g):
    # ScatterAlongAxis only appears inside GatherAlongAxis's rule: reach it as top_k's gradient.
    x = tf.constant(_TOP_K_INPUT)
    with tf.GradientTape() as t:
        t.watch(x)
        v = tf.math.top_k(x, 2).values
    return t.gradient(v, x, output_gradients=g * g)


def _slice_grad(x):
    # StridedSliceGrad only appears inside rules: reach it as the gradient of a slice, and
    # differentiate that gradient again (it is linear in the upstream gradient).
    with tf.GradientTape() as t:
        t.watch(x)
        y = x[0:1, ::-1]
    return t.gradient(y, x, output_gradients=tf.ones_like(y) * x[0:1, ::-1])



# -- tf.nn N-d convolution and pooling windows (window_ops, conv_nd_ops) ----------------------------
from tapegrad.ops.window_ops import gather_windows as _gather_windows  # noqa: E402
from tapegrad.ops.window_ops import scatter_windows as _scatter_windows  # noqa: E402

CASES.update({
    "GatherWindows": [(lambda x: _gather_windows(x, (2, 2), (2, 1), (1, 2), ((0, 1), (1, 1)),
                                                 (2, 3)), [normal((1, 3, 3, 2))])],
    "ScatterWindows": [(lambda c: _scatter_windows(c, (3, 3), (2, 2), (2, 1), (1, 2),
                                                   ((0, 1), (1, 1)), (2, 3)),
                        [normal((1, 2, 3, 2, 2, 2))])],
})
ELSEWHERE.update({
    "Conv": "no gradient registered in TF (LookupError): test_ops_conv_nd.py, conformance nn_conv",
    "UnsetDataFormatIdentity": "TF's failing 3-D gradient without data_format (AttributeError): "
                               "test_ops_pool_nd.py, conformance nn_conv",
})


# integer-only ops (tf.bitwise, tf.bitcast): no gradient, checked to give None
ELSEWHERE.update({op: "integer op, None gradient: test_ops_bitwise" for op in (
    "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift", "Bitcast")})


# -- tf.image colour and drawing ops (color_ops, image_geometry_ops) ---------------------------------
ELSEWHERE.update({
    "AdjustHue": "no gradient registered in TF (LookupError): test_ops_color.py",
    "AdjustSaturation": "no gradient registered in TF (LookupError): conformance image_more",
    "HSVToRGB": "None gradient, as TF: test_ops_color.py",
    "DrawBoundingBoxesV2": "no gradient registered in TF (LookupError): conformance image_more",
})

# SparseTensor times or divided by a scalar: TensorFlow's gradient fails, and so does ours
ELSEWHERE.update({op: "gradient raises TensorFlow's InvalidArgumentError: conformance sparse_more, "
                      "test_batching RAISING_CASES" for op in ("SparseDenseCwiseMul",
                                                               "SparseDenseCwiseDiv")})


def test_every_primitive_has_a_case():
    covered = set(CASES) | set(NONE_GRADIENT) | BOOLEAN | set(ELSEWHERE)
    missing = sorted(set(TABLE) - covered)
    assert not missing, f"primitives without a gradient check: {missing}"


@pytest.mark.parametrize("name,index", [(n, i) for n in CASES for i in range(len(CASES[n]))])
def test_primitive_matches_finite_differences(name, index):
    fn, args, *options = CASES[name][index]
    check_gradients(fn, args, order=2, **(options[0] if options else {}))


@pytest.mark.parametrize("name", sorted(NONE_GRADIENT))
def test_none_gradient_ops(name):
    fn, arity = NONE_GRADIENT[name]
    xs = [tf.constant(np.array([1.7, -2.2, 3.4])) for _ in range(arity)]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    assert tape.gradient(y, xs) == [None] * arity
    with tf.autodiff.ForwardAccumulator(xs, [tf.ones_like(x) for x in xs]) as acc:
        y = fn(*xs)
    assert acc.jvp(y) is None


def test_unregistered_gradient():
    image = tf.Variable([[[0.5, 0.0, 0.0]]])
    with tf.GradientTape() as tape:
        out = tf.image.adjust_contrast(image, 0.1)
    with pytest.raises(LookupError, match="gradient registry has no entry for: AdjustContrastv2"):
        tape.gradient(out, image)


def test_checker_catches_a_wrong_rule():
    """The checker itself must fail on a wrong derivative (a checker that can't fail is useless)."""
    from tapegrad.table import TABLE, defvjp, elementwise
    from tapegrad.test_util import GradientCheckError
    bad = TABLE.get("WrongSquare") or elementwise("WrongSquare", np.square,
                                                  lambda ans, x: 3.0 * x)
    with pytest.raises(GradientCheckError):
        check_gradients(lambda x: bad.apply(x), [np.array([1.0, 2.0])], order=1)
    del TABLE["WrongSquare"]
    assert defvjp  # imported API stays available
