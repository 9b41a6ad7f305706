"""The activations that are primitives: sigmoid, softplus, relu (with ``relu_grad``, its
backward as its own primitive, as TensorFlow's ReluGrad), and ``log_sigmoid``. ``relu'(0) = 0``.
The composite activations (elu, gelu, selu, ...) are in nn_ops."""
from ..backend import xp
from .. import convert
from ..ground import NO_ATTRS, incompatible, scalar_like, unary, zeros_of
from ..kernels import dispatch as kernels
from ..recording import bind
from ..table import defjvp, defvjp, elementwise, primitive
from ..checks.dtype_rules import FLOAT, FLOAT_COMPLEX, INTERNAL, REAL
from .. import shape_rules
from ..table import defshape
from ..tensor import EagerTensor
from .arithmetic_ops import multiply, negative, subtract
from ..batching import rows_broadcast


def _sigmoid_impl(x):
    with xp.errstate(all="ignore"):
        return (1.0 / (1.0 + xp.exp(-x))).astype(x.dtype, copy=False)


def _softplus_impl(x):
    with xp.errstate(all="ignore"):
        return xp.logaddexp(xp.zeros((), x.dtype), x).astype(x.dtype, copy=False)


def _relu_impl(x):
    return xp.maximum(x, xp.zeros((), x.dtype))


SIGMOID = elementwise("Sigmoid", _sigmoid_impl,
                      lambda ans, x: multiply(ans, subtract(scalar_like(1, ans), ans)),
                      dtypes=FLOAT_COMPLEX)
SOFTPLUS = elementwise("Softplus", _softplus_impl, lambda ans, x: sigmoid(x), dtypes=FLOAT)
for _prim, _kernel in ((SIGMOID, "sigmoid_grad"), (SOFTPLUS, "softplus_grad")):
    kernels.fuse_vjp(_prim, _kernel)  # one pass for g * deriv while nothing records it
# relu'(x) g is its own primitive, as TensorFlow's ReluGrad: its gradient with respect to x is
# zero (not None), so relu'' is zeros, as in TF.
RELU = primitive("Relu", kernels.route_unary("relu", _relu_impl), dtypes=REAL)
defshape(RELU, shape_rules.same)
# (``where`` without NumPy's array-function dispatcher, a Python call, where it has one)
_where = getattr(xp.where, "_implementation", xp.where)
RELU_GRAD = primitive("ReluGrad", kernels.route_relu_grad(
    lambda g, x: _where(x > 0, g, xp.zeros((), g.dtype))), incompatible, exempt=INTERNAL)
defshape(RELU_GRAD, shape_rules.same_as(1))
# Speed: a cotangent of the input's dtype binds directly (relu_grad's conversion hands both back).
defvjp(RELU, lambda g, ans, x: bind(RELU_GRAD, (g, x), NO_ATTRS) if type(g) is EagerTensor
       and type(x) is EagerTensor and g._value.dtype == x._value.dtype else relu_grad(g, x))
defjvp(RELU, lambda t, ans, x: relu_grad(t, x))
defvjp(RELU_GRAD, lambda gg, ans, g, x: relu_grad(gg, x), lambda gg, ans, g, x: zeros_of(x))
defjvp(RELU_GRAD, lambda t, ans, g, x: relu_grad(t, x), lambda t, ans, g, x: zeros_of(ans))


def relu_grad(gradients, features):
    """``gradients`` where ``features > 0``, else 0 (the backward of relu)."""
    return bind(RELU_GRAD, convert.binary(gradients, features, "ReluGrad"), NO_ATTRS)


def sigmoid(x, name=None):
    return unary(SIGMOID, x)


def softplus(features, name=None):
    return unary(SOFTPLUS, features)


def relu(features, name=None):
    return unary(RELU, features)


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) computed stably as -softplus(-x)."""
    return negative(softplus(negative(convert.tensor(x))))


# -- batched rules (batching.py): every row of a jacobian in one pass --------------------------
rows_broadcast(RELU, RELU_GRAD)
