"""``GradientTape.jacobian`` and ``GradientTape.batch_jacobian``.

With ``experimental_use_pfor=True`` (TensorFlow's default) all rows come from one reverse pass
whose cotangents carry a leading row axis, seeded with the identity (``batching.py``); where a
primitive on the way has no batched rule, and with ``experimental_use_pfor=False``, the rows
come from one reverse pass (``backprop.backward``) per element of the target, seeded with a
one-hot ``output_gradients``. Both are written with the engine's own ops, so a jacobian taken
inside an outer tape is itself differentiable (Hessians by nesting).

>>> import tapegrad as tf
>>> x = tf.constant([1.0, 2.0])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = x * x
>>> tape.jacobian(y, x).numpy().tolist()
[[2.0, 0.0], [0.0, 4.0]]
"""
from . import nest
from .backend import xp
from .backprop import GradientCall, UnconnectedGradients, as_target, backward, check_sources, unconnected
from .batching import batched_backward
from .ops import concat, reshape, stack, transpose
from .tensor import wrap

STREAMED_ROWS = 32   # rows of a jacobian shown as backward streams in the graph


def _rows(records, watched, observer, target, flat_sources, seeds):
    """One reverse pass per seed: for each source, the list of its gradients (None if unconnected)."""
    ids = [s._id for s in flat_sources]
    rows = [[] for _ in flat_sources]
    for i, seed in enumerate(seeds):
        streamed = observer is not None and observer.wants_events and i < STREAMED_ROWS
        events = [] if streamed else None
        grads = backward(records, [target], [seed], ids, watched, events)
        if streamed:  # each row is its own backward animation in the graph
            row = [grads.get(s._id) for s in flat_sources]
            observer.on_gradient(GradientCall(records, [target], flat_sources, [seed], row, events,
                                              UnconnectedGradients.NONE, kind="jacobian", row=i))
        for k, s in enumerate(flat_sources):
            g = grads.get(s._id)
            if g is not None and type(g) is not type(target) and hasattr(g, "_as_tensor"):
                g = g._as_tensor()   # IndexedSlices rows are stacked densely
            rows[k].append(g)
    return rows


def _stack_rows(rows, source, lead_shape, mode):
    """Stacks per-seed gradients of ``source`` into ``lead_shape + source.shape``."""
    shape = tuple(source._value.shape)
    dtype = source._value.dtype
    if all(g is None for g in rows):
        if mode is UnconnectedGradients.ZERO:
            return wrap(xp.zeros(tuple(lead_shape) + shape, dtype))
        return None
    filled = [wrap(xp.zeros(shape, dtype)) if g is None else g for g in rows]
    out = stack(filled, axis=0) if filled else wrap(xp.zeros((0,) + shape, dtype))
    return reshape(out, tuple(lead_shape) + shape)


def _start(target, unconnected_gradients, method="jacobian"):
    """The checks every jacobian call begins with; returns (target, unconnected mode).

    A target that is not a tensor or variable (a Python number or list) raises TensorFlow's
    AttributeError, with what to pass instead."""
    if target is None:
        raise TypeError("Argument `target` should be a Tensor to be differentiated, but "
                        "received None.")
    if not hasattr(target, "shape") or not hasattr(target, "dtype"):
        raise AttributeError(
            f"'{type(target).__name__}' object has no attribute 'shape': GradientTape.{method} "
            f"differentiates a tensor computed inside the tape, got the Python value {target!r}")
    return as_target(target), unconnected(unconnected_gradients)


# Entries of the widest batched cotangent one pass may hold (128 MiB of float64): a jacobian with
# more rows takes several passes, each for a block of rows (the same numbers, row by row).
ROWS_BUDGET = 1 << 24


def _rows_per_pass(records, rows):
    """Rows a pass may take: each row's cotangents are as large as the tape's tensors."""
    widest = 1
    for rec in records:
        size = rec.output._value.size
        if size > widest:
            widest = size
        for x in rec.inputs:
            size = x._value.size
            if size > widest:
                widest = size
    return max(1, min(rows, ROWS_BUDGET // widest))


def _all_rows(records, watched, observer, target, flat_sources, seeds_for, rows):
    """All rows in batched reverse passes (one per block of rows, ``seeds_for(start, stop)``
    giving a block's seeds): per source, its gradients with the rows first (None if
    unconnected); None when the rows must be computed one by one (a primitive without a batched
    rule, or a graph that animates each row's backward pass)."""
    if observer is not None and observer.wants_events:
        return None
    ids = [s._id for s in flat_sources]
    step = _rows_per_pass(records, rows)
    blocks = []
    for start in range(0, rows, step):
        stop = min(rows, start + step)
        grads = batched_backward(records, target, seeds_for(start, stop), ids, watched)
        if grads is None:
            return None
        blocks.append([grads.get(i) for i in ids])
    if len(blocks) == 1:
        return blocks[0]
    sizes = [min(rows, start + step) - start for start in range(0, rows, step)]
    out = []
    for k, s in enumerate(flat_sources):
        parts = [b[k] for b in blocks]
        if all(p is None for p in parts):
            out.append(None)
            continue
        out.append(concat([wrap(xp.zeros((size,) + tuple(s._value.shape), s._value.dtype))
                           if p is None else p for p, size in zip(parts, sizes)], axis=0))
    return out


def _unconnected(source, lead_shape, mode):
    if mode is UnconnectedGradients.ZERO:
        return wrap(xp.zeros(tuple(lead_shape) + tuple(source._value.shape), source._value.dtype))
    return None


def jacobian(records, watched, observer, target, sources,
             unconnected_gradients=UnconnectedGradients.NONE, use_pfor=True):
    """d target[i...] / d source[j...] for each source: shape ``target.shape + source.shape``.

    ``records`` and ``watched`` are a tape's; ``observer`` its provenance recorder (or None).
    ``sources`` may be any nesting of tensors and variables (results in the same structure).
    ``use_pfor``: all rows in one batched pass where every primitive has a batched rule;
    otherwise rows are computed one after another.
    """
    target, mode = _start(target, unconnected_gradients)
    flat_sources = nest.flatten(sources)
    check_sources(flat_sources)
    shape = tuple(target._value.shape)
    n = int(target._value.size)
    if n == 0:   # TensorFlow: zeros with pfor (whatever the mode), an error from its loop
        if not use_pfor:
            s0 = tuple(flat_sources[0]._value.shape) if flat_sources else ()
            raise ValueError(f"Tensor's shape {shape} is not compatible with supplied shape "
                             f"{shape + s0}.")
        return nest.pack_sequence_as(sources, [wrap(xp.zeros(shape + tuple(s._value.shape),
                                                             s._value.dtype))
                                               for s in flat_sources])
    if use_pfor:
        def seeds_for(start, stop):   # rows start..stop-1 of the identity
            if stop - start == n:
                return wrap(xp.eye(n, dtype=target._value.dtype).reshape((n,) + shape))
            block = xp.zeros((stop - start, n), target._value.dtype)
            block[xp.arange(stop - start), xp.arange(start, stop)] = 1
            return wrap(block.reshape((stop - start,) + shape))
        batched = _all_rows(records, watched, observer, target, flat_sources, seeds_for, n)
        if batched is not None:
            results = [_unconnected(s, shape, mode) if g is None
                       else reshape(g, shape + tuple(s._value.shape))
                       for g, s in zip(batched, flat_sources)]
            return nest.pack_sequence_as(sources, results)
    seeds = []
    for i in range(n):
        onehot = xp.zeros(n, target._value.dtype)
        onehot[i] = 1
        seeds.append(wrap(onehot.reshape(shape)))
    rows = _rows(records, watched, observer, target, flat_sources, seeds)
    results = [_stack_rows(r, s, shape, mode) for r, s in zip(rows, flat_sources)]
    return nest.pack_sequence_as(sources, results)


def batch_jacobian(records, watched, observer, target, source,
                   unconnected_gradients=UnconnectedGradients.NONE, use_pfor=True):
    """Per-example jacobian: ``result[b] = d target[b] / d source[b]``.

    Target and source share their first (batch) dimension; the result has shape
    ``target.shape + source.shape[1:]``. As in TensorFlow, row ``b`` of the target must depend
    only on row ``b`` of the source (other rows' contributions would be summed in). A source
    the target does not depend on gives zeros, even with ``unconnected_gradients='none'``
    (TensorFlow 2.21 does so on both of its paths).
    ``use_pfor``: all rows in one batched pass where every primitive has a batched rule.
    """
    target, mode = _start(target, unconnected_gradients, "batch_jacobian")
    check_sources([source])
    tshape, sshape = tuple(target._value.shape), tuple(source._value.shape)
    if len(tshape) < 1 or len(sshape) < 1:
        raise ValueError(f"batch_jacobian: target and source need a batch dimension; got shapes "
                         f"{tshape} and {sshape}")
    if tshape[0] != sshape[0]:
        raise ValueError(f"batch_jacobian: need first dimension of target shape ({tshape}) and "
                         f"source shape ({sshape}) to match.")
    batch = tshape[0]
    inner = tshape[1:]
    m = 1
    for d in inner:
        m *= d
    if use_pfor and m > 0 and batch > 0:
        def seeds_for(start, stop):   # row j: ones at [b, j] for every example b
            block = xp.zeros((stop - start, 1, m), target._value.dtype)
            block[xp.arange(stop - start), 0, xp.arange(start, stop)] = 1
            return wrap(xp.broadcast_to(block, (stop - start, batch, m)).reshape(
                (stop - start,) + tshape))
        batched = _all_rows(records, watched, observer, target, [source], seeds_for, m)
        if batched is not None:
            (g,) = batched
            if g is None:   # TensorFlow 2.21: zeros whatever the mode (see batch_jacobian)
                return wrap(xp.zeros(tshape + sshape[1:], source._value.dtype))
            nd = len(sshape) + 1   # (rows, batch, source dims...) -> (batch, rows, ...)
            return reshape(transpose(g, (1, 0) + tuple(range(2, nd))), tshape + sshape[1:])
    seeds = []
    for j in range(m):
        onehot = xp.zeros((batch, m), target._value.dtype)
        onehot[:, j] = 1
        seeds.append(wrap(onehot.reshape(tshape)))
    (rows,) = _rows(records, watched, observer, target, [source], seeds)
    if all(g is None for g in rows):
        return wrap(xp.zeros(tshape + sshape[1:], source._value.dtype))
    filled = [wrap(xp.zeros(sshape, source._value.dtype)) if g is None else g for g in rows]
    out = stack(filled, axis=1) if filled else wrap(xp.zeros((batch, 0) + sshape[1:],
                                                             source._value.dtype))
    return reshape(out, tshape + sshape[1:])
