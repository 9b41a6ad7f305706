"""``tf.linalg``: matrix ops under TensorFlow's names."""
from .ops.array_ops import eye, matrix_transpose  # noqa: F401
from .ops.math_ops import matmul  # noqa: F401

transpose = matrix_transpose
