"""Errors with TensorFlow's names, so ``except tf.errors.InvalidArgumentError`` works."""


class OpError(Exception):
    """An op could not run; the message names the op as ``[Op:Name]``."""


class InvalidArgumentError(OpError, ValueError):
    pass


class UnimplementedError(OpError, NotImplementedError):
    pass


class ResourceExhaustedError(OpError):
    pass
