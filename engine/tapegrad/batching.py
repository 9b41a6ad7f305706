"""Batched reverse rules: every row of a jacobian in one backward pass. This module is the engine
that runs them and the makers that build them from a VJP; the rules themselves are declared with
their primitive (``defbatched``, next to its VJP in the module of its family).

A batched rule takes the output's cotangents for all rows at once, stacked on a new leading axis
(``G`` of shape ``(rows,) + output shape``), and gives each input's cotangents the same way
(``(rows,) + input shape``). Row ``i`` of every result is what the primitive's own VJP gives for
row ``i`` of ``G``: rules are the VJPs with the batch axis kept out of the op's axes, written
with the same ops in the same order, so the values are the per-row loop's.

    rule(G, ans, inputs, attrs, wanted) -> one batched cotangent (Tensor or None) per input

Elementwise primitives (``table.elementwise``: ``g * f'(x)``, which broadcasts over a leading
axis) have their VJP as their rule. A primitive without a rule, or whose VJP was replaced after
its rule was declared (``tf.RegisterGradient``), has none: ``batched_backward`` then answers
None and the caller computes the rows one by one; so does a rule that raises ``NotBatchable``.
A primitive with no gradient gets a rule raising the loop's LookupError.

The makers, for VJPs that batch by a pattern:

- ``own_vjp``        the VJP already broadcasts over a leading axis: it is the rule (a VJP that
                     reads input shapes counts the rows as ``lead_of(g, ans)`` leading axes);
- ``rows_first``     VJPs that read an input's shape (reshape, reductions): the inputs are given
                     the rows' axis and the attributes that count axes are shifted past it;
- ``rows_broadcast`` elementwise-like binaries whose VJP ends in ``unbroadcast``;
- ``rows_linear``    the same for linear ones that read only shapes (``G`` stands in for inputs);
- ``rows_reshaped``  reshapes: ``G`` reshaped to the rows and the input's shape;
- ``rows_last``      gathers and segments along leading axes (the rows become a last axis);
- ``folded``         ops that treat each example on its own (the rows join the examples' axis).

``tests/engine/test_batching.py`` checks every rule against the loop, bit for bit.
"""
from .ground import add, broadcast_to, reduce_sum, reshape_to, unbroadcast
from .primitives import TABLE, defbatched
from .recording import bind


class NotBatchable(Exception):
    """Raised by a rule for attributes it cannot batch (the rows are then computed one by one)."""


def rule_of(prim):
    """The batched rule of ``prim``, or None (the rows are then computed one by one)."""
    if prim.nondiff:
        return _nondiff
    if prim.vjp is None:
        return _no_gradient(prim.name)
    fn = prim.batched
    if fn is None or not _is_or_wraps(prim.vjp, prim.batched_vjp):
        return None
    return fn


def _is_or_wraps(vjp, rule_):
    """Whether ``vjp`` is ``rule_``, or a fused kernel's VJP (``kernels.fuse_vjp``) that falls
    back to it (it keeps the rule in its closure and computes the same values)."""
    if vjp is rule_:
        return True
    return rule_ is not None and any(getattr(c, "cell_contents", None) is rule_
                                     for c in (getattr(vjp, "__closure__", None) or ()))


def _nondiff(G, ans, inputs, attrs, wanted):
    return [None] * len(inputs)


def _no_gradient(name):
    """A primitive with no registered gradient: the loop's error, raised on the batched path."""
    def batched(G, ans, inputs, attrs, wanted):
        raise LookupError(f"gradient registry has no entry for: {name}")
    return batched


def shape_of(x):
    """The shape of tensor ``x``, as a tuple."""
    return tuple(x._value.shape)


_shape = shape_of


def rows(G):
    """How many rows ``G`` holds (its first axis)."""
    return G._value.shape[0]


def shifted(axis):
    """An axis of the op's input, counted in the rows-first cotangent."""
    return axis + 1 if axis >= 0 else axis


def unbroadcast_rows(G, shape):
    """``ground.unbroadcast`` for each row: sums ``G`` (rows first) down to ``(rows,) + shape``."""
    gshape = G._value.shape[1:]
    if gshape == shape:
        return G
    lead = len(gshape) - len(shape)
    axes = tuple(range(1, lead + 1)) + tuple(
        i + lead + 1 for i, d in enumerate(shape) if d == 1 and gshape[i + lead] != 1)
    if axes:
        G = reduce_sum(G, axis=axes)
    if G._value.shape[1:] != shape:
        G = reshape_to(G, (G._value.shape[0],) + shape)
    return G


def lead_of(g, ans):
    """How many leading row axes a VJP's cotangent ``g`` has beyond its output ``ans``'s (0 in
    the VJP's own calls, 1 when ``own_vjp`` runs it for all rows)."""
    return g._value.ndim - ans._value.ndim


def unbroadcast_lead(g, shape, lead):
    """``ground.unbroadcast`` that keeps ``lead`` (0 or 1) leading row axes out of the sum."""
    return unbroadcast_rows(g, shape) if lead else unbroadcast(g, shape)


# -- the makers -------------------------------------------------------------------------------
def own_vjp(*prims):
    """The primitive's own VJP is its batched rule: it only broadcasts over leading axes (no
    ``unbroadcast``, no reshape to the input's shape, axes counted from the end)."""
    for prim in prims:
        defbatched(prim, prim.vjp)


def rows_first(*prims, lift=None, data=(0,)):
    """For VJPs that would keep a leading axis out of the op's axes if their inputs had one,
    but read an input's shape (``reshape`` back to it, a reduction's spread): the inputs at
    positions ``data`` and the output are broadcast over the rows, ``lift(attrs, inputs)`` (see
    ``past_rows``) shifts the attributes that count axes past the rows' axis, and the VJP's
    cotangents are then the rows' own."""
    for prim in prims:
        defbatched(prim, _rows_first_rule(prim.vjp, lift, data))


def _rows_first_rule(vjp, lift, data):
    def batched(G, ans, inputs, attrs, wanted):
        n = rows(G)
        inner = tuple(broadcast_to(x, (n,) + _shape(x)) if i in data else x
                      for i, x in enumerate(inputs))
        return vjp(G, broadcast_to(ans, (n,) + _shape(ans)), inner,
                   attrs if lift is None else lift(attrs, inputs), wanted)
    return batched


def past_rows(name):
    """A ``lift`` for ``rows_first``: attribute ``name`` (an axis, a tuple of axes, or None for
    all axes of the first input) shifted past the rows' axis."""
    def lift(attrs, inputs):
        a = attrs[name]
        if a is None:
            a = tuple(range(inputs[0]._value.ndim))
        return {**attrs, name: tuple(map(shifted, a)) if isinstance(a, tuple) else shifted(a)}
    return lift


def rows_broadcast(*prims):
    """For elementwise-like binaries whose VJP ends in ``unbroadcast``: the VJP is given inputs
    broadcast to the rows' shape (so its ``unbroadcast`` has nothing to sum and its local
    derivatives are the same numbers, entry by entry), and the rows are then summed down to each
    input's shape as the loop's ``unbroadcast`` sums each row."""
    for prim in prims:
        defbatched(prim, _rows_broadcast(prim.vjp))


def _rows_broadcast(vjp):
    def batched(G, ans, inputs, attrs, wanted):
        shape = G._value.shape
        full = tuple(x if x._value.shape == shape else broadcast_to(x, shape) for x in inputs)
        cts = vjp(G, broadcast_to(ans, shape), full, attrs, wanted)
        return [None if ct is None else unbroadcast_rows(ct, _shape(x))
                for x, ct in zip(inputs, cts)]
    return batched


def rows_linear(*prims):
    """For linear ops whose VJP reads only its inputs' shapes and ends in ``unbroadcast`` (add,
    subtract, broadcast_to): inputs broadcast to the rows' shape would have ``G``'s shape, so
    ``G`` itself stands in for them (no broadcast copies), and the rows are summed down to each
    input's shape as in ``rows_broadcast``."""
    for prim in prims:
        defbatched(prim, _rows_linear(prim.vjp))


def _rows_linear(vjp):
    def batched(G, ans, inputs, attrs, wanted):
        cts = vjp(G, G, (G,) * len(inputs), attrs, wanted)
        return [None if ct is None else unbroadcast_rows(ct, _shape(x))
                for x, ct in zip(inputs, cts)]
    return batched


def rows_reshaped(*prims):
    """For ops whose cotangent is ``G`` reshaped back to the input's shape (reshape, squeeze,
    expand_dims): each row reshaped, which is ``G`` reshaped to ``(rows,) + input shape``."""
    for prim in prims:
        defbatched(prim, _rows_reshaped)


def _rows_reshaped(G, ans, inputs, attrs, wanted):
    return [reshape_to(G, (rows(G),) + _shape(inputs[0]))]


def rows_to_front(t):
    """Moves the last axis of ``t`` (the rows) to the front."""
    nd = t._value.ndim
    return bind(TABLE["Transpose"], (t,), {"perm": (nd - 1,) + tuple(range(nd - 1))})


def rows_to_back(G):
    """Moves the first axis of ``G`` (the rows) to the end."""
    nd = G._value.ndim
    return bind(TABLE["Transpose"], (G,), {"perm": tuple(range(1, nd)) + (0,)})


def rows_last(*prims, data=(0,)):
    """For VJPs that gather or scatter along their leading axes and broadcast elsewhere: the VJP
    is given the rows as a last axis (the inputs at positions ``data``, and the output, get a
    size-1 last axis), so each row's numbers meet in the same order as in the loop; its
    cotangents then have their rows moved back to the front."""
    for prim in prims:
        defbatched(prim, _rows_last_rule(prim.vjp, data))


def _rows_last_rule(vjp, data):
    def batched(G, ans, inputs, attrs, wanted):
        inner = tuple(reshape_to(x, _shape(x) + (1,)) if i in data else x
                      for i, x in enumerate(inputs))
        cts = vjp(rows_to_back(G), reshape_to(ans, _shape(ans) + (1,)), inner, attrs, wanted)
        return [None if ct is None else rows_to_front(ct) for ct in cts]
    return batched


def fold(t):
    """(rows, examples, ...) -> (rows * examples, ...)."""
    s = _shape(t)
    return reshape_to(t, (s[0] * s[1],) + s[2:])


def unfold(t, n_rows):
    """(rows * examples, ...) -> (rows, examples, ...)."""
    s = _shape(t)
    return reshape_to(t, (n_rows, s[0] // n_rows) + s[1:])


def _each_row(x, n_rows):
    """``x`` (examples first) repeated for each row, in the order ``fold`` gives them."""
    return bind(TABLE["Tile"], (x,), {"multiples": (n_rows,) + (1,) * (x._value.ndim - 1)})


def folded(*prims, per_example=()):
    """For VJPs that treat each example (the first axis) on its own and read no example count
    from their inputs or output: the rows folded into the examples' axis, the inputs at
    ``per_example`` repeated for each row."""
    for prim in prims:
        defbatched(prim, _folded_rule(prim.vjp, per_example))


def _folded_rule(vjp, per_example):
    def batched(G, ans, inputs, attrs, wanted):
        n = rows(G)
        inputs = tuple(_each_row(x, n) if i in per_example else x for i, x in enumerate(inputs))
        cts = vjp(fold(G), ans, inputs, attrs, wanted)
        return [None if ct is None else unfold(ct, n) for ct in cts]
    return batched


# -- the engine -------------------------------------------------------------------------------
def _relevant(records, target, source_ids, watched):
    """The records on a path from a source, in order, and the ids they reach (the forward walk of
    ``backprop.backward``: only what the tape watches, or the target itself, starts a path)."""
    reach = {i for i in source_ids if watched is None or i in watched or i == target._id}
    relevant = []
    for rec in records:
        for x in rec.inputs:
            if x._id in reach:
                relevant.append(rec)
                reach.add(rec.output._id)
                break
    return relevant, reach


def batched_backward(records, target, G, source_ids, watched):
    """One reverse pass for all rows of ``G``: ``{source id: cotangents (rows first)}``, or None
    when a record on the way has no batched rule (the caller then goes row by row).

    >>> import tapegrad as tf
    >>> x = tf.constant([1.0, 2.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> eye = tf.constant([[1.0, 0.0], [0.0, 1.0]])
    >>> batched_backward(tape.records, y, eye, [x._id], tape.watched_ids)[x._id].numpy().tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    relevant, reach = _relevant(records, target, source_ids, watched)
    rules = []
    for rec in relevant:
        fn = rule_of(rec.op)
        if fn is None:
            return None
        rules.append(fn)
    keep = set(source_ids)
    grads = {}
    if target._id in reach and target._value.dtype.kind in "fc":
        grads[target._id] = G
    for rec, fn in zip(reversed(relevant), reversed(rules)):
        oid = rec.output._id
        g = grads.pop(oid, None) if oid not in keep else grads.get(oid)
        if g is None:
            continue
        inputs = rec.inputs
        wanted = [x._id in reach for x in inputs]
        try:
            cts = fn(g, rec.output, inputs, rec.attrs, wanted)
        except NotBatchable:
            return None
        for x, ct, w in zip(inputs, cts, wanted):
            if not w or ct is None:
                continue
            if ct._value.shape[1:] != x._value.shape:
                return None   # a rule that does not keep rows apart here: go row by row
            prev = grads.get(x._id)
            grads[x._id] = ct if prev is None else add(prev, ct)
    return {k: grads[k] for k in keep if k in grads}
