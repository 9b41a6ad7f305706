"""The ``tf.linalg.LinearOperator`` base class and the operators every other one leans on:
``LinearOperatorFullMatrix``, ``LinearOperatorLowerTriangular``, ``LinearOperatorAdjoint``,
``LinearOperatorInversion`` and ``LinearOperatorComposition``.

An operator is a (batch of) matrix A of shape ``batch_shape + [M, N]`` that may never be
formed. A subclass gives its shape (``_shape``) and its product (``_matmul(x, adjoint,
adjoint_arg)``); every other method has a generic version here, written with the engine's ops
on ``to_dense()`` (a product with the identity), which a subclass replaces where its structure
allows (a diagonal's determinant is a product, and so on). All of it is composed of recorded
ops, so gradients flow to the operator's parameters (Variables included: they are read at use,
and ``trainable_variables`` lists them, as ``tf.Module`` does).

Hints (``is_non_singular``, ``is_self_adjoint``, ``is_positive_definite``, ``is_square``) are
promises, not checks, as in TensorFlow: positive definite implies non-singular, which implies
square, and so does self-adjoint; a contradiction is a ValueError.
"""
from ..backend import xp
from ..dtypes import as_dtype
from ..errors import InvalidArgumentError
from ..module import Module
from ..tensor import convert_to_tensor
from ..tensor_shape import TensorShape
from ..variables import Variable
from .. import ops


def tensor(x, dtype=None):
    """A Tensor of ``x`` (a Variable is read, so a tape records the read)."""
    if isinstance(x, Variable):
        x = x.read_value()
    return convert_to_tensor(x, dtype=dtype) if dtype is not None else convert_to_tensor(x)


def adjoint_of(x):
    """The conjugate transpose of the last two axes."""
    return ops.adjoint(x)


def product(a, b, adjoint_a=False, adjoint_b=False):
    """``a @ b``, either side conjugate-transposed (``tf.matmul``'s adjoints)."""
    return ops.matmul(a, b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)


def broadcast_batch(*shapes):
    return tuple(xp.broadcast_shapes(*[tuple(s) for s in shapes]))


def check_dtypes(operators, sort_names=True):
    """A combined operator needs operators, all of one dtype (TensorFlow's errors; the dtypes
    named in set order where ``sort_names`` is False, as LinearOperatorComposition names them)."""
    if not operators:
        raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
    dtypes = {op.dtype for op in operators}
    if len(dtypes) > 1:
        names = (d.name for d in dtypes)
        raise TypeError(f"Expected all operators to have the same dtype.  Found "
                        f"{' '.join(sorted(names) if sort_names else names)}")


_HINT_WORDS = {"is_non_singular": "non-singular", "is_self_adjoint": "self-adjoint",
               "is_positive_definite": "positive definite"}


def implied_hints(combination, operators, message=None, **given):
    """The hints ``given`` (``is_non_singular=...``), each made True where every one of
    ``operators`` has it (the combined operator has it too); given as False then, a
    ``ValueError``: ``message``, or "<combination> of <what> operators is always <what>."."""
    hints = {}
    for hint, value in given.items():
        if all(getattr(op, hint) for op in operators):
            if value is False:
                what = _HINT_WORDS[hint]
                raise ValueError(message or f"{combination} of {what} operators is always {what}.")
            value = True
        hints[hint] = value
    return hints


class LinearOperator(Module):
    """Base class: a linear map, like a matrix, given by its shape and its product.

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    >>> op.matvec([1.0, 1.0]).numpy().tolist()
    [3.0, 7.0]
    """

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        super().__init__(name=name or type(self).__name__)
        self._dtype = as_dtype(dtype)
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_hint = is_square
        self._parameters = dict(parameters or {})

    def _init_combined(self, operators, parts, separator, name, **hints):
        """``__init__`` of an operator made of ``operators``: the dtype of the first of
        ``parts`` (the operators it names), and by default their names joined by ``separator``."""
        self.operators = operators
        LinearOperator.__init__(self, parts[0].dtype, name=name or separator.join(
            op.name for op in parts), parameters={"operators": operators, "name": name}, **hints)

    def _init_derived(self, operator, suffix, name, **hints):
        """``__init__`` of an operator derived from ``operator`` (its adjoint, its inverse):
        each hint not given is the operator's; by default named after it with ``suffix``."""
        self.operator = operator
        LinearOperator.__init__(
            self, operator.dtype, name=name or operator.name + suffix,
            parameters={"operator": operator, "name": name},
            **{hint: getattr(operator, hint) if given is None else given
               for hint, given in hints.items()})

    # -- what a subclass provides -------------------------------------------------------------
    def _shape(self):
        raise NotImplementedError(f"{type(self).__name__} does not define _shape")

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        raise NotImplementedError(f"{type(self).__name__} does not define _matmul")

    # -- shape and hints --------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self):
        return dict(self._parameters)

    @property
    def graph_parents(self):
        return []

    @property
    def shape(self):
        return TensorShape(list(self._shape()))

    def shape_tensor(self, name="shape_tensor"):
        return ops.convert.tensor(xp.asarray(self._shape(), dtype=xp.int32))

    @property
    def batch_shape(self):
        return TensorShape(list(self._shape()[:-2]))

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        return ops.convert.tensor(xp.asarray(self._shape()[:-2], dtype=xp.int32))

    @property
    def tensor_rank(self):
        return len(self._shape())

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        return ops.convert.tensor(xp.int32(len(self._shape())))

    @property
    def domain_dimension(self):
        return self._shape()[-1]

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        return ops.convert.tensor(xp.int32(self._shape()[-1]))

    @property
    def range_dimension(self):
        return self._shape()[-2]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        return ops.convert.tensor(xp.int32(self._shape()[-2]))

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        if self._is_square_hint is not None:
            return self._is_square_hint
        s = self._shape()
        return s[-1] == s[-2]

    def __repr__(self):
        return (f"<tf.linalg.{type(self).__name__} '{self.name}' batch_shape="
                f"{tuple(self._shape()[:-2])} shape={tuple(self._shape())} "
                f"dtype={self.dtype.name}>")

    # -- products and solves -----------------------------------------------------------------------
    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """``A @ x`` (``A^H`` when ``adjoint``, ``x^H`` when ``adjoint_arg``); another operator
        gives their composition."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return left._compose_with(right)
        x = tensor(x, self.dtype)
        self._check_inner(x, adjoint, adjoint_arg, "matmul")
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def _compose_with(self, other):
        return LinearOperatorComposition([self, other])

    def matvec(self, x, adjoint=False, name="matvec"):
        x = tensor(x, self.dtype)
        return self.matmul(ops.expand_dims(x, -1), adjoint=adjoint)[..., 0]

    def _check_inner(self, x, adjoint, adjoint_arg, what):
        if x.shape.rank is None or len(x.shape) < 1:
            raise ValueError(f"{what}: the argument must have rank >= 1")
        need = self._shape()[-2] if adjoint else self._shape()[-1]
        have = x.shape[-1] if adjoint_arg else (x.shape[-2] if len(x.shape) > 1 else None)
        if have is not None and have != need:
            raise ValueError(f"Dimensions {need} and {have} are not compatible "
                             f"(operator {tuple(self._shape())}, argument {tuple(x.shape)})")

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """X with ``A X = rhs`` (``A^H X`` when ``adjoint``; ``rhs^H`` when ``adjoint_arg``)."""
        self._refuse_if_hinted(NotImplementedError, (
            ("is_non_singular", "Exact solve not implemented for an operator that is expected "
                                "to be singular."),
            ("is_square", "Exact solve not implemented for an operator that is expected to not "
                          "be square.")))
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            return LinearOperatorComposition([left.inverse(), right])
        rhs = tensor(rhs, self.dtype)
        self._check_inner(rhs, not adjoint, adjoint_arg, "solve")
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        matrix = self.to_dense()
        return ops.solve(adjoint_of(matrix) if adjoint else matrix, _broadcast_rhs(matrix, rhs))

    def solvevec(self, rhs, adjoint=False, name="solve"):
        rhs = tensor(rhs, self.dtype)
        return self.solve(ops.expand_dims(rhs, -1), adjoint=adjoint)[..., 0]

    # -- dense views and scalars ----------------------------------------------------------------
    def to_dense(self, name="to_dense"):
        return self._to_dense()

    def _to_dense(self):
        s = self._shape()
        ident = ops.convert.tensor(xp.broadcast_to(xp.eye(s[-1], dtype=self.dtype.as_numpy_dtype),
                                                   tuple(s[:-2]) + (s[-1], s[-1])).copy())
        return self._matmul(ident)

    def diag_part(self, name="diag_part"):
        return self._diag_part()

    def _diag_part(self):
        return ops.diag_part(self.to_dense())

    def trace(self, name="trace"):
        return ops.reduce_sum(self.diag_part(), axis=-1)

    def add_to_tensor(self, x, name="add_to_tensor"):
        return ops.add(self.to_dense(), tensor(x, self.dtype))

    def _check_square(self, what):
        if self.is_square is False or self._shape()[-1] != self._shape()[-2]:
            raise NotImplementedError(f"{what} not implemented for an operator that is expected "
                                      f"to not be square.")

    def determinant(self, name="det"):
        self._check_square("Determinant")
        return self._determinant()

    def _determinant(self):
        return ops.det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        self._check_square("Determinant")
        return self._log_abs_determinant()

    def _log_abs_determinant(self):
        return ops.slogdet(self.to_dense())[1]

    def cond(self, name="cond"):
        s = ops.svd(self.to_dense(), compute_uv=False)
        return ops.reduce_max(s, axis=-1) / ops.reduce_min(s, axis=-1)

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._eigvals()

    def _eigvals(self):
        return ops.eigvalsh(self.to_dense())

    # -- derived operators -------------------------------------------------------------------------
    def adjoint(self, name="adjoint"):
        if self.is_self_adjoint is True:
            return self
        return self._adjoint_operator()

    def _adjoint_operator(self):
        return LinearOperatorAdjoint(self)

    H = property(lambda self: self.adjoint())

    def inverse(self, name="inverse"):
        self._refuse_if_hinted(ValueError, (
            ("is_square", "Cannot take the Inverse: This operator represents a non square "
                          "matrix."),
            ("is_non_singular", "Cannot take the Inverse: This operator represents a singular "
                                "matrix.")))
        return self._inverse_operator()

    def _refuse_if_hinted(self, error, refusals):
        """``error(message)`` for the first ``(hint, message)`` whose hint is False."""
        for hint, message in refusals:
            if getattr(self, hint) is False:
                raise error(message)

    def _inverse_operator(self):
        return LinearOperatorInversion(self)

    def cholesky(self, name="cholesky"):
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite "
                             "self adjoint matrix.")
        return self._cholesky_operator()

    def _can_use_cholesky(self):
        return bool(self.is_self_adjoint and self.is_positive_definite)

    def _cholesky_operator(self):
        return LinearOperatorLowerTriangular(ops.cholesky(self.to_dense()), is_non_singular=True,
                                             is_square=True)

    # -- run-time checks ---------------------------------------------------------------------------
    def assert_non_singular(self, name="assert_non_singular"):
        s = ops.svd(self.to_dense(), compute_uv=False).numpy()
        if xp.any(s.min(axis=-1) <= s.max(axis=-1) * xp.finfo(s.dtype).eps * s.shape[-1]):
            raise InvalidArgumentError("Singular operator: a singular value was zero.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        dense = self.to_dense().numpy()
        sym = 0.5 * (dense + xp.conj(xp.swapaxes(dense, -1, -2)))
        if xp.any(xp.linalg.eigvalsh(sym) <= 0):
            raise InvalidArgumentError("Operator is not positive definite.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        dense = self.to_dense().numpy()
        if not xp.allclose(dense, xp.conj(xp.swapaxes(dense, -1, -2))):
            raise InvalidArgumentError("Operator is not self-adjoint.")


def _broadcast_rhs(matrix, rhs):
    """rhs with the operator's batch axes, for solves whose batch shapes differ."""
    batch = broadcast_batch(matrix.shape[:-2], rhs.shape[:-2])
    if tuple(rhs.shape[:-2]) == batch:
        return rhs
    return ops.broadcast_to(rhs, batch + tuple(rhs.shape[-2:]))


# -- full and triangular matrices ------------------------------------------------------------------
class LinearOperatorFullMatrix(LinearOperator):
    """An operator holding its matrix ``[..., M, N]`` (a Tensor or a Variable).

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorFullMatrix([[2.0, 0.0], [0.0, 4.0]])
    >>> float(op.determinant()), op.solvevec([2.0, 4.0]).numpy().tolist()
    (8.0, [1.0, 1.0])
    """

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorFullMatrix"):
        self.matrix = matrix if isinstance(matrix, Variable) else tensor(matrix)
        value = tensor(self.matrix)
        if value.dtype.name not in ("float16", "float32", "float64", "complex64", "complex128"):
            raise TypeError(f"Argument matrix must have dtype in [float16, float32, float64, "
                            f"complex64, complex128]. Found: {value.dtype.name}")
        if len(value.shape) < 2:
            raise ValueError(f"Argument matrix must have at least 2 dimensions. Found: "
                             f"{list(value.shape)}")
        super().__init__(value.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters={"matrix": matrix, "name": name})

    def _shape(self):
        return tuple(tensor(self.matrix).shape)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return product(tensor(self.matrix), x, adjoint, adjoint_arg)

    def _to_dense(self):
        return tensor(self.matrix)


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of ``tril`` ``[..., N, N]`` (the rest is ignored): solves by
    substitution, determinant = product of the diagonal.

    >>> import tapegrad as tf
    >>> op = tf.linalg.LinearOperatorLowerTriangular([[2.0, 9.0], [1.0, 4.0]])
    >>> op.to_dense().numpy().tolist(), float(op.determinant())
    ([[2.0, 0.0], [1.0, 4.0]], 8.0)
    """

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorLowerTriangular"):
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self.tril = tril if isinstance(tril, Variable) else tensor(tril)
        value = tensor(self.tril)
        if len(value.shape) < 2 or value.shape[-1] != value.shape[-2]:
            raise ValueError(f"Argument tril must be square, got shape {list(value.shape)}")
        super().__init__(value.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters={"tril": tril, "name": name})

    def _lower(self):
        return ops.band_part(tensor(self.tril), -1, 0)

    def _shape(self):
        return tuple(tensor(self.tril).shape)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return product(self._lower(), x, adjoint, adjoint_arg)

    def _to_dense(self):
        return self._lower()

    def _diag_part(self):
        return ops.diag_part(tensor(self.tril))

    def _determinant(self):
        return ops.reduce_prod(self._diag_part(), axis=-1)

    def _log_abs_determinant(self):
        return ops.reduce_sum(ops.log(ops.abs(self._diag_part())), axis=-1)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        lower = self._lower()
        return ops.triangular_solve(lower, _broadcast_rhs(lower, rhs), lower=True, adjoint=adjoint)

    def _eigvals(self):
        return self._diag_part()


# -- adjoint, inverse, composition -----------------------------------------------------------------
class LinearOperatorAdjoint(LinearOperator):
    """The adjoint (conjugate transpose) of ``operator``, never formed."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        self._init_derived(operator, "_adjoint", name, is_non_singular=is_non_singular,
                           is_self_adjoint=is_self_adjoint,
                           is_positive_definite=is_positive_definite, is_square=is_square)

    def _shape(self):
        s = self.operator._shape()
        return tuple(s[:-2]) + (s[-1], s[-2])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator._matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator._solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return adjoint_of(self.operator.to_dense())

    def _diag_part(self):
        d = self.operator.diag_part()
        return ops.conj(d) if d.dtype.is_complex else d

    def _determinant(self):
        d = self.operator.determinant()
        return ops.conj(d) if d.dtype.is_complex else d

    def _log_abs_determinant(self):
        return self.operator.log_abs_determinant()

    def adjoint(self, name="adjoint"):
        return self.operator


class LinearOperatorInversion(LinearOperator):
    """The inverse of a square, non-singular ``operator``: its products are the operator's
    solves and the reverse."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError("operator and supplied hints must be non-singular")
        if operator.is_square is False or is_square is False:
            raise ValueError("operator and supplied hints must be square")
        self._init_derived(operator, "_inv", name, is_non_singular=is_non_singular,
                           is_self_adjoint=is_self_adjoint,
                           is_positive_definite=is_positive_definite, is_square=True)

    def _shape(self):
        return self.operator._shape()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator._solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator._matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return ops.reciprocal(self.operator.determinant())

    def _log_abs_determinant(self):
        return ops.negative(self.operator.log_abs_determinant())

    def inverse(self, name="inverse"):
        return self.operator


class LinearOperatorComposition(LinearOperator):
    """The product ``A1 A2 ... An`` of ``operators`` (applied right to left), never formed.

    >>> import tapegrad as tf
    >>> a = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [0.0, 1.0]])
    >>> b = tf.linalg.LinearOperatorDiag([2.0, 3.0])
    >>> tf.linalg.LinearOperatorComposition([a, b]).to_dense().numpy().tolist()
    [[2.0, 6.0], [0.0, 3.0]]
    """

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        operators = list(operators)
        check_dtypes(operators, sort_names=False)
        for left, right in zip(operators[:-1], operators[1:]):
            if left._shape()[-1] != right._shape()[-2]:
                raise ValueError(f"Operators are incompatible. Expected them to form a valid "
                                 f"product: {left.name} {tuple(left._shape())} and "
                                 f"{right.name} {tuple(right._shape())}")
        hints = implied_hints("The composition", operators, is_non_singular=is_non_singular)
        self._init_combined(operators, operators, "_o_", name, is_self_adjoint=is_self_adjoint,
                            is_positive_definite=is_positive_definite, is_square=is_square,
                            **hints)

    def _shape(self):
        batch = broadcast_batch(*[op._shape()[:-2] for op in self.operators])
        return batch + (self.operators[0]._shape()[-2], self.operators[-1]._shape()[-1])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        chain = list(reversed(self.operators)) if adjoint else list(self.operators)
        out = chain[-1]._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in reversed(chain[:-1]):
            out = op._matmul(out, adjoint=adjoint)
        return out

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if any(op._shape()[-1] != op._shape()[-2] for op in self.operators):
            return LinearOperator._solve(self, rhs, adjoint, adjoint_arg)
        chain = list(self.operators) if not adjoint else list(reversed(self.operators))
        out = chain[0]._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in chain[1:]:
            out = op._solve(out, adjoint=adjoint)
        return out

    def _determinant(self):
        return self._from_factors("determinant", ops.multiply)

    def _log_abs_determinant(self):
        return self._from_factors("log_abs_determinant", ops.add)

    def _from_factors(self, method, combine):
        """``method`` of the product: the factors' combined by ``combine`` when all are square,
        otherwise the generic way (from the dense matrix)."""
        if any(op._shape()[-1] != op._shape()[-2] for op in self.operators):
            return getattr(LinearOperator, "_" + method)(self)
        out = getattr(self.operators[0], method)()
        for op in self.operators[1:]:
            out = combine(out, getattr(op, method)())
        return out
