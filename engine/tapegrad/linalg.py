"""``tf.linalg``: matrix ops under TensorFlow's names."""
from .ops.array_ops import eye, matrix_transpose  # noqa: F401
from .ops.math_ops import matmul  # noqa: F401
from .ops.linalg_ops import (  # noqa: F401
    band_part, cholesky, cholesky_solve, det, diag, diag_part, inv, logdet, set_diag, slogdet,
    solve, trace, triangular_solve,
)
from .ops.math_more import norm  # noqa: F401
from .ops.shape_ops import einsum, tensordot  # noqa: F401

transpose = matrix_transpose
adjoint = matrix_transpose
matrix_inverse = inv
