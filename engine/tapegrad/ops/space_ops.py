"""Rearranging space, depth and batch: ``depth_to_space``, ``space_to_depth``,
``space_to_batch_nd`` (``tf.space_to_batch``), ``batch_to_space``,
``required_space_to_batch_paddings`` and ``with_space_to_batch``.

Each is a pad or crop, a reshape and a transpose, so each gradient is the inverse arrangement
(as TensorFlow's registered gradients are) and comes from those ops' rules.
"""
from .. import convert
from ..checks import check_dtype
from ..checks.dtype_rules import COMPLEX_NAMES, NOT_STRING, composite
from ..backend import xp
from ..errors import InvalidArgumentError, NotFoundError
from ..ground import reshape
from ..tensor import wrap
from .array_ops import getitem, transpose
from .shape_ops import pad


def _ints(value, name):
    v = value._value.tolist() if hasattr(value, "_value") else value
    if hasattr(v, "numpy"):
        v = v.numpy().tolist()
    if isinstance(v, int):
        return [v]
    return [[int(a) for a in row] if isinstance(row, (list, tuple)) else int(row) for row in v]


def _check_nhwc(x, block_size, data_format, op):
    if data_format not in (None, "NHWC"):
        raise NotFoundError(f"Could not find device for node: {op}[data_format=\"{data_format}\"]: "
                            f"TensorFlow's CPU kernel takes only NHWC [Op:{op}]")
    if x._value.ndim != 4:
        raise InvalidArgumentError(f"input rank should be 4 instead of {x._value.ndim} [Op:{op}]")
    if int(block_size) < 2:
        raise InvalidArgumentError(f"Value for attr 'block_size' of {block_size} must be at least "
                                   f"minimum 2 [Op:{op}]")
    return int(block_size)


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Moves blocks of depth into ``block_size x block_size`` spatial blocks:
    ``[n, h, w, c]`` -> ``[n, h*b, w*b, c/(b*b)]``.

    >>> import tapegrad as tf
    >>> tf.nn.depth_to_space(tf.reshape(tf.range(4.0), [1, 1, 1, 4]), 2)[0, :, :, 0].numpy().tolist()
    [[0.0, 1.0], [2.0, 3.0]]
    """
    x = convert.tensor(input)
    b = _check_nhwc(x, block_size, data_format, "DepthToSpace")
    n, h, w, c = x._value.shape
    if c % (b * b):
        raise InvalidArgumentError(f"Input depth dimension {c} should be divisible by: {b * b} "
                                   f"[Op:DepthToSpace]")
    y = transpose(reshape(x, (n, h, w, b, b, c // (b * b))), (0, 1, 3, 2, 4, 5))
    return reshape(y, (n, h * b, w * b, c // (b * b)))


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Moves each ``block_size x block_size`` spatial block into depth (the inverse of
    ``depth_to_space``)."""
    x = convert.tensor(input)
    b = _check_nhwc(x, block_size, data_format, "SpaceToDepth")
    n, h, w, c = x._value.shape
    if h % b or w % b:
        raise InvalidArgumentError(f"Image width {w} and height {h} should be divisible by "
                                   f"block_size: {b} [Op:SpaceToDepth]")
    y = transpose(reshape(x, (n, h // b, b, w // b, b, c)), (0, 1, 3, 2, 4, 5))
    return reshape(y, (n, h // b, w // b, b * b * c))


def _block_args(x, block_shape, pairs, name, op):
    block = _ints(block_shape, "block_shape")
    pairs = _ints(pairs, name)
    m = len(block)
    if len(pairs) != m or any(len(p) != 2 for p in pairs):
        raise InvalidArgumentError(f"{name} should have shape [{m}, 2] instead of "
                                   f"{[len(pairs), 2]} [Op:{op}]")
    if x._value.ndim < m + 1:
        raise InvalidArgumentError(f"input rank should be >= {m + 1} instead of {x._value.ndim} "
                                   f"[Op:{op}]")
    if any(b < 1 for b in block):
        raise InvalidArgumentError(f"All values in block_shape must be positive, got {block} "
                                   f"[Op:{op}]")
    if any(a < 0 for p in pairs for a in p):
        raise InvalidArgumentError(f"All values in {name} must be non-negative, got {pairs} "
                                   f"[Op:{op}]")
    return block, pairs


SPACE_TO_BATCH = composite("SpaceToBatchND", NOT_STRING.no_kernel("bool", *COMPLEX_NAMES))


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """Pads the spatial dimensions (1..M), cuts them into ``block_shape`` blocks and moves the
    position inside each block into the batch dimension.

    >>> import tapegrad as tf
    >>> tf.space_to_batch(tf.reshape(tf.range(4.0), [1, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]]).shape
    TensorShape([4, 1, 1, 1])
    """
    x = convert.tensor(input)
    check_dtype(SPACE_TO_BATCH, x)
    block, pairs = _block_args(x, block_shape, paddings, "paddings", "SpaceToBatchND")
    m = len(block)
    shape = x._value.shape
    padded = [shape[1 + i] + pairs[i][0] + pairs[i][1] for i in range(m)]
    for i, (p, b) in enumerate(zip(padded, block)):
        if p % b:
            raise InvalidArgumentError(f"padded_shape[{i}]={p} is not divisible by "
                                       f"block_shape[{i}]={b} [Op:SpaceToBatchND]")
    rest = tuple(shape[1 + m:])
    y = pad(x, [[0, 0]] + pairs + [[0, 0]] * len(rest)) if any(a for p in pairs for a in p) else x
    split = (shape[0],) + sum(((p // b, b) for p, b in zip(padded, block)), ()) + rest
    y = reshape(y, split)
    perm = tuple(2 + 2 * i for i in range(m)) + (0,) + tuple(1 + 2 * i for i in range(m)) + \
        tuple(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    y = transpose(y, perm)
    prod = 1
    for b in block:
        prod *= b
    return reshape(y, (shape[0] * prod,) + tuple(p // b for p, b in zip(padded, block)) + rest)


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    """TensorFlow 2's ``tf.space_to_batch`` / ``tf.nn.space_to_batch``: ``space_to_batch_nd``."""
    return space_to_batch_nd(input, block_shape, paddings)


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of ``space_to_batch_nd``: batch blocks back into space, then ``crops``."""
    x = convert.tensor(input)
    block, pairs = _block_args(x, block_shape, crops, "crops", "BatchToSpaceND")
    m = len(block)
    shape = x._value.shape
    prod = 1
    for b in block:
        prod *= b
    if shape[0] % prod:
        raise InvalidArgumentError(f"Input batch dimension ({shape[0]}) is not divisible by "
                                   f"product of block sizes ({prod}) [Op:BatchToSpaceND]")
    batch = shape[0] // prod
    spatial = tuple(shape[1:1 + m])
    rest = tuple(shape[1 + m:])
    y = reshape(x, tuple(block) + (batch,) + spatial + rest)
    perm = (m,) + sum(((m + 1 + i, i) for i in range(m)), ()) + \
        tuple(range(2 * m + 1, 2 * m + 1 + len(rest)))
    y = reshape(transpose(y, perm), (batch,) + tuple(s * b for s, b in zip(spatial, block)) + rest)
    full = [s * b for s, b in zip(spatial, block)]
    for i, (c0, c1) in enumerate(pairs):
        if c0 + c1 > full[i]:
            raise InvalidArgumentError(f"Crops must be non-negative and not exceed the block "
                                       f"size product: crops[{i}]={[c0, c1]} for size {full[i]} "
                                       f"[Op:BatchToSpaceND]")
    if any(a for p in pairs for a in p):
        y = getitem(y, (slice(None),) + tuple(slice(c0, f - c1) for (c0, c1), f in zip(pairs, full)))
    return y


batch_to_space_nd = batch_to_space


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """The paddings and crops that make each spatial size (plus ``base_paddings``) a multiple of
    ``block_shape``: returns ``(paddings, crops)``, int32 tensors of shape ``[M, 2]``.

    >>> import tapegrad as tf
    >>> p, c = tf.required_space_to_batch_paddings([5, 6], [2, 4])
    >>> p.numpy().tolist(), c.numpy().tolist()
    ([[0, 1], [0, 2]], [[0, 1], [0, 2]])
    """
    shape = _ints(input_shape, "input_shape")
    block = _ints(block_shape, "block_shape")
    base = [[0, 0]] * len(block) if base_paddings is None else _ints(base_paddings, "base_paddings")
    paddings, crops = [], []
    for n, b, (start, end) in zip(shape, block, base):
        extra = (b - (n + start + end) % b) % b
        paddings.append([start, end + extra])
        crops.append([0, extra])
    as_tensor = lambda v: wrap(xp.asarray(v, dtype=xp.int32).reshape(len(block), 2))  # noqa: E731
    return as_tensor(paddings), as_tensor(crops)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """Runs ``op(input, num_spatial_dims, padding)`` as a dilated op: space-to-batch by
    ``dilation_rate``, ``op`` with 'VALID' padding, batch-to-space back, as TensorFlow does
    (for 'SAME', ``filter_shape`` gives the padding)."""
    x = convert.tensor(input)
    rate = _ints(dilation_rate, "dilation_rate")
    m = len(rate)
    if any(r < 1 for r in rate):
        raise ValueError(f"dilation_rate must be positive, got {rate}")
    if data_format is not None and data_format.startswith("NC"):
        raise ValueError("with_space_to_batch: only channels-last data formats are implemented")
    dims = list(range(1, m + 1)) if spatial_dims is None else [int(d) for d in spatial_dims]
    if dims != list(range(dims[0], dims[0] + m)):
        raise ValueError(f"spatial_dims must be consecutive and ascending, got {dims}")
    if all(r == 1 for r in rate):
        return op(x, m, padding)
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if padding.upper() == "SAME":
        if filter_shape is None:
            raise ValueError("filter_shape must be specified for SAME padding")
        ks = _ints(filter_shape, "filter_shape")[:m]
        base = []
        for k, r in zip(ks, rate):
            extra = (k - 1) * r
            base.append([extra // 2, extra - extra // 2])
    else:
        base = [[0, 0]] * m
    first = dims[0]
    if first != 1:
        # Move the spatial dimensions next to a single leading batch dimension.
        lead = tuple(x._value.shape[:first])
        x = reshape(x, (-1,) + tuple(x._value.shape[first:]))
    spatial = [int(x._value.shape[1 + i]) for i in range(m)]
    paddings, crops = required_space_to_batch_paddings(spatial, rate, base)
    y = op(space_to_batch_nd(x, rate, paddings), m, "VALID")
    y = batch_to_space(y, rate, crops)
    if first != 1:
        y = reshape(y, lead + tuple(y._value.shape[1:]))
    return y
