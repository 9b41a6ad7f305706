"""``tf.nn.batch_norm_with_global_normalization``: the older spelling of batch normalization with
given (global) statistics and a flag for the scale."""
from .nn_composite_ops import batch_normalization


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma,  # noqa: A002
                                         variance_epsilon, scale_after_normalization, name=None):
    """(input - mean) / sqrt(variance + variance_epsilon) * gamma + beta, with gamma used only
    if ``scale_after_normalization``; mean, variance, beta, gamma are 1-D over the last axis.

    >>> import tapegrad as tf
    >>> tf.nn.batch_norm_with_global_normalization(
    ...     tf.constant([[1.0, 3.0]]), [1.0, 1.0], [4.0, 4.0], [0.0, 1.0], [2.0, 2.0], 0.0,
    ...     True).numpy().tolist()
    [[0.0, 3.0]]
    """
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon)
