"""``fit``/``evaluate``/``predict`` of a model made under a ``tf.distribute`` strategy of several
replicas, as Keras runs them on TensorFlow:

- each global batch is cut into one part per replica (``ceil(B / N)`` rows each, in order; under
  ``MultiWorkerMirroredStrategy`` worker ``r`` takes part ``r``) and the step (``train_step``,
  ``test_step``, ``predict_step``) runs once per replica in ``strategy.run``;
- the losses divide by ``num_replicas_in_sync`` (``losses.loss.scale_loss_for_distribution``) and
  the optimizer sums the replicas' gradients, so the update is that of the whole batch;
- the metrics hold the sums of every replica's updates (TensorFlow's metric variables are
  ``ON_READ`` with ``SUM`` aggregation): local replicas update them one at a time, and across
  workers each step's changes are all-reduced, so every worker logs the global values;
- ``predict`` joins the replicas' outputs (across workers too) in the order of the batch.
"""
import contextlib
import threading

from ... import nest
from ...backend import xp
from ...distribute import allreduce
from ...distribute.input import split_rows
from ...distribute.values import per_replica
from ...tensor import convert_to_tensor

_METRIC_LOCK = threading.RLock()


def is_distributing(strategy):
    """Whether ``strategy`` has several replicas (one replica runs the step as it is)."""
    return strategy is not None and strategy.num_replicas_in_sync > 1


def across_workers(strategy):
    """Whether some replicas run in other processes (MultiWorkerMirroredStrategy)."""
    return len(strategy._local_replicas) < strategy.num_replicas_in_sync


def same_order_on_every_worker(strategy, data):
    """Array data shuffled by every worker in rank 0's order, so that the workers' parts are
    parts of the same global batch."""
    if is_distributing(strategy) and across_workers(strategy) and getattr(data, "shuffle", False):
        data.permute = lambda n: strategy._mpi.broadcast(xp.random.permutation(n))


def split_batch(strategy, batch):
    """This process's replicas' parts of a global batch (a ``PerReplica`` nest, or one part)."""
    pieces = split_rows(batch, strategy.num_replicas_in_sync)
    return per_replica([pieces[strategy._replica_id(i)] for i in strategy._local_replicas])


def _metrics(model):
    out = []
    for m in model.metrics:
        out.append(m)
        out.extend(getattr(m, "metrics", ()) or ())
    return out


def _metric_variables(model):
    return [v for m in model.metrics for v in m.variables]


@contextlib.contextmanager
def _one_update_at_a_time(model, strategy):
    """Local replicas share the metric objects: their ``update_state`` calls take turns."""
    if len(strategy._local_replicas) == 1:
        yield
        return
    metrics = _metrics(model)
    for m in metrics:
        m.update_state = _taking_turns(m.update_state)
    try:
        yield
    finally:
        for m in metrics:
            m.__dict__.pop("update_state", None)


def _taking_turns(update):
    def update_state(*args, **kwargs):
        with _METRIC_LOCK:
            return update(*args, **kwargs)
    return update_state


def _build(model, strategy, parts):
    """Builds the model on the first replica's part (once, in cross-replica context), so that
    the replicas share its weights and MultiWorkerMirroredStrategy syncs them at the step."""
    if model.built:
        return
    first = strategy.experimental_local_results(parts)[0]
    x = first[0] if isinstance(first, tuple) else first
    model(x, training=False)


def run_step(model, step_fn, batch):
    """``step_fn`` (a train, test or predict step) on each replica's part of ``batch``; what
    each replica returned (``PerReplica`` leaves). The metrics then hold every replica's
    updates, on every worker."""
    strategy = model.distribute_strategy
    parts = split_batch(strategy, batch)
    with strategy.scope():
        _build(model, strategy, parts)
        if not across_workers(strategy):
            with _one_update_at_a_time(model, strategy):
                return strategy.run(step_fn, args=(parts,))
        variables = _metric_variables(model)
        before = {id(v): v.numpy().copy() for v in variables}
        out = strategy.run(step_fn, args=(parts,))
        _sum_across_workers(strategy, _metric_variables(model), before)
    return out


def _sum_across_workers(strategy, variables, before):
    """Each metric variable becomes its value before the step plus every worker's change (a
    variable made during the step counts from zero)."""
    if not variables:
        return
    starts = [before.get(id(v), xp.zeros_like(v.numpy())) for v in variables]
    changes = [convert_to_tensor(v.numpy() - s) for v, s in zip(variables, starts)]
    summed = allreduce.all_reduce_fused(changes, strategy._group, "SUM")
    for v, s, total in zip(variables, starts, summed):
        v.assign(s + total.numpy())


def replica_logs(strategy, out):
    """The replicas' logs averaged (Keras's reduction of a custom step's logs): a value the
    replicas all returned as one object is kept."""
    def mean(value):
        try:
            return strategy.reduce("MEAN", value, axis=None)
        except (TypeError, ValueError):
            return strategy.experimental_local_results(value)[0]
    return nest.map_structure(mean, out)


def joined_outputs(strategy, out):
    """``predict_step``'s outputs of every replica, joined along the batch in replica order
    (across workers too) as NumPy arrays."""
    local = [nest.map_structure(_array, part)
             for part in strategy.experimental_local_results(out)]
    if across_workers(strategy):
        local = [part for worker in strategy._mpi.allgather(local) for part in worker]
    first = local[0]
    flat = [nest.flatten(part) for part in local]
    return nest.pack_sequence_as(first, [xp.concatenate(parts, axis=0)
                                         for parts in zip(*flat)])


def _array(t):
    return xp.asarray(getattr(t, "_value", t))
