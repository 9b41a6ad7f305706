"""``tf.distribute.ReduceOp``: how values from the replicas are combined."""
import enum


class ReduceOp(enum.Enum):
    """``SUM`` adds the replicas' values, ``MEAN`` averages them.

    >>> import tapegrad as tf
    >>> tf.distribute.ReduceOp("MEAN")
    <ReduceOp.MEAN: 'MEAN'>
    """
    SUM = "SUM"
    MEAN = "MEAN"


def as_reduce_op(op):
    """``op`` given as a ``ReduceOp`` or its name (``"SUM"``)."""
    if isinstance(op, ReduceOp):
        return op
    if isinstance(op, str) and op.upper() in ReduceOp.__members__:
        return ReduceOp[op.upper()]
    raise ValueError(f"Invalid reduce_op value: {op}")
