"""tf.distribute's single-process strategies: MirroredStrategy over logical CPU devices,
OneDeviceStrategy and the default strategy; printed PerReplica values, reduce, distributed
datasets, replica contexts and errors.

Record this area alone (``record.py distribute``): TensorFlow fixes its logical devices when
its runtime starts, and the cases need three logical CPUs."""
import sys

# What the coverage table says of these names (build/coverage.py reads it).
NOTES = {
    'tf.distribute.MirroredStrategy':
        'Replicas run in threads of one process on the one CPU (logical devices only name '
        'them); variables made in scope are one plain variable (TensorFlow: MirroredVariable).',
    'tf.distribute':
        'MirroredStrategy, MultiWorkerMirroredStrategy (MPI), OneDeviceStrategy and the default '
        'strategy (docs/distributed.md). Differs on purpose: a GradientTape opened around '
        'strategy.run sees every replica (their threads take turns in its recording state), so '
        'one tape shows the whole step with its AllReduce; TensorFlow\'s sees none of their ops '
        'and gives None. A tape inside the replica function, TensorFlow\'s pattern, works as there.',
}


def _strategy(tf, count=2, **options):
    """A MirroredStrategy over ``count`` logical CPUs (three are configured once)."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
    except RuntimeError:   # TensorFlow: already set, and fixed once the runtime started
        pass
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(count)], **options)
    try:   # tapegrad: leave the devices as other areas expect them (TensorFlow refuses None)
        tf.config.set_logical_device_configuration(cpu, None)
    except (RuntimeError, TypeError):
        pass
    return strategy


def _scaled(tf):
    def step(x):
        ctx = tf.distribute.get_replica_context()
        return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    return step


def case_per_replica_prints_each_replica(tf):
    s = _strategy(tf)
    r = s.run(_scaled(tf), args=(tf.constant(2.0),))
    print(r)
    print(repr(r))
    print(type(r).__name__, s.num_replicas_in_sync)
    return list(s.experimental_local_results(r))


def case_three_replicas_worker_devices(tf):
    s = _strategy(tf, 3)
    r = s.run(_scaled(tf), args=(tf.constant([1.0, -1.0]),))
    print(r)
    return list(s.extended.worker_devices), s.num_replicas_in_sync


def case_reduce_sum_and_mean(tf):
    s = _strategy(tf)
    r = s.run(_scaled(tf), args=(tf.constant(2.0),))
    return s.reduce("SUM", r, axis=None), s.reduce(tf.distribute.ReduceOp.MEAN, r, axis=None)


def case_reduce_along_an_axis(tf):
    s = _strategy(tf)
    r = s.run(_scaled(tf), args=(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),))
    return [s.reduce("SUM", r, axis=0), s.reduce("MEAN", r, axis=0),
            s.reduce("MEAN", r, axis=1), s.reduce("SUM", r, axis=None)]


def case_reduce_a_plain_tensor_is_an_error(tf):
    s = _strategy(tf)
    return s.reduce("SUM", tf.constant(3.0), axis=None)


def case_reduce_op_names(tf):
    return [str(tf.distribute.ReduceOp.SUM), str(tf.distribute.ReduceOp.MEAN),
            tf.distribute.ReduceOp("MEAN") is tf.distribute.ReduceOp.MEAN]


def case_dataset_batches_split_across_replicas(tf):
    s = _strategy(tf)
    for batch in s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4)):
        print(batch)


def case_dataset_uneven_batches(tf):
    s = _strategy(tf)
    for batch in s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(3)):
        print(batch)


def case_dataset_of_pairs(tf):
    s = _strategy(tf)
    ds = tf.data.Dataset.from_tensor_slices(
        (tf.reshape(tf.range(8.0), [4, 2]), tf.constant([0, 1, 2, 3]))).batch(4)
    for x, y in s.experimental_distribute_dataset(ds):
        print(x)
        print(y)


def case_datasets_from_function(tf):
    s = _strategy(tf)

    def make(ctx):
        print(ctx, ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync)
        return tf.data.Dataset.range(8).batch(ctx.get_per_replica_batch_size(4))
    for batch in s.distribute_datasets_from_function(make):
        print(batch)


def case_input_context(tf):
    ctx = tf.distribute.InputContext(2, 1, 4)
    print(ctx)
    return ctx.get_per_replica_batch_size(16), ctx.num_input_pipelines, ctx.input_pipeline_id


def case_input_context_indivisible_batch(tf):
    return tf.distribute.InputContext(1, 0, 2).get_per_replica_batch_size(5)


def case_run_on_distributed_batches(tf):
    s = _strategy(tf)
    out = []
    for batch in s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)):
        r = s.run(lambda b: tf.reduce_sum(b * b), args=(batch,))
        out.append(s.reduce("SUM", r, axis=None))
    return out


def case_replica_context_all_reduce(tf):
    s = _strategy(tf)

    def step(x):
        ctx = tf.distribute.get_replica_context()
        scaled = x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        return ctx.all_reduce("SUM", scaled), ctx.all_reduce("MEAN", [scaled, 2.0 * scaled])
    print(s.run(step, args=(tf.constant([1.0, 2.0]),)))


def case_merge_call(tf):
    s = _strategy(tf)

    def step(x):
        ctx = tf.distribute.get_replica_context()
        scaled = x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        return ctx.merge_call(lambda strategy, v: strategy.reduce("SUM", v, axis=None),
                              args=(scaled,))
    print(s.run(step, args=(tf.constant(2.0),)))


def case_gradients_all_reduced_in_replicas(tf):
    s = _strategy(tf)
    with s.scope():
        w = tf.Variable([1.0, -2.0])

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * x) ** 2
        g = tape.gradient(loss, w)
        return tf.distribute.get_replica_context().all_reduce("SUM", g)
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1.0, 2.0], [3.0, 4.0]])).batch(2)
    batch = next(iter(s.experimental_distribute_dataset(ds)))
    r = s.run(step, args=(batch,))
    return list(s.experimental_local_results(r)), w.numpy()


def case_strategy_contexts(tf):
    s = _strategy(tf)
    out = [tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context(),
           tf.distribute.get_replica_context() is not None,
           tf.distribute.get_strategy().num_replicas_in_sync]
    with s.scope():
        out += [tf.distribute.get_strategy() is s, tf.distribute.has_strategy(),
                tf.distribute.in_cross_replica_context(), tf.distribute.get_replica_context()]
        inside = s.run(lambda: tf.constant(float(tf.distribute.in_cross_replica_context())))
    out.append(list(s.experimental_local_results(inside)))
    out.append(s.run(lambda: tf.distribute.get_replica_context().num_replicas_in_sync))
    return out


def case_one_device_strategy(tf):
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    r = s.run(lambda x: x + 1.0, args=(tf.constant([1.0, 2.0]),))
    print(r)
    batches = list(s.experimental_distribute_dataset(tf.data.Dataset.range(5).batch(2)))
    return s.num_replicas_in_sync, r, s.reduce("SUM", r, axis=0), batches


def case_default_strategy_runs_in_place(tf):
    s = tf.distribute.get_strategy()
    r = s.run(lambda x: x * 2.0, args=(tf.constant(3.0),))
    return s.num_replicas_in_sync, r, s.reduce("MEAN", r, axis=None)


def case_mirrored_with_one_device(tf):
    s = _strategy(tf, 1)
    r = s.run(lambda: tf.constant(5.0))
    print(r)
    return s.num_replicas_in_sync


def case_replica_error_reaches_the_caller(tf):
    s = _strategy(tf)

    def step(x):
        if int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
            raise ValueError("replica one failed")
        return x
    return s.run(step, args=(tf.constant(1.0),))


def case_gradient_through_all_reduce(tf):
    s = _strategy(tf)

    def step(x):
        ctx = tf.distribute.get_replica_context()
        x = x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = ctx.all_reduce("SUM", x * x)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, x)
    return list(s.experimental_local_results(s.run(step, args=(tf.constant([1.0, 2.0]),))))


if sys.platform == "emscripten":   # Pyodide has no threads: replicas cannot meet in strategy.run
    for _case in (case_replica_context_all_reduce, case_merge_call,
                  case_gradients_all_reduced_in_replicas, case_gradient_through_all_reduce):
        _case.known_divergence = "Pyodide has no threads: MirroredStrategy's replicas run one " \
            "after another and cannot all-reduce inside strategy.run"


def case_experimental_set_strategy(tf):
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    tf.distribute.experimental_set_strategy(s)
    try:
        out = [tf.distribute.get_strategy() is s, tf.distribute.has_strategy(),
               tf.distribute.in_cross_replica_context(), tf.distribute.get_replica_context()]
    finally:
        tf.distribute.experimental_set_strategy(None)
    return out + [tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context()]


def case_cross_device_ops_and_run_options(tf):
    m = _strategy(tf, 3, cross_device_ops=tf.distribute.ReductionToOneDevice())
    r = m.run(lambda: tf.constant(1.0), options=tf.distribute.RunOptions())
    return m.num_replicas_in_sync, m.reduce("SUM", r, axis=None)


def case_tf_config_cluster_resolver(tf):
    import json
    import os
    saved = os.environ.get("TF_CONFIG")
    os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["a:1", "b:2"]},
                                          "task": {"type": "worker", "index": 1}})
    try:
        r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        return r.task_type, r.task_id
    finally:
        if saved is None:
            del os.environ["TF_CONFIG"]
        else:
            os.environ["TF_CONFIG"] = saved


def case_keras_optimizer_inside_run_applies_the_summed_gradients_once(tf):
    s = _strategy(tf)
    with s.scope():
        w = tf.Variable([[1.0], [1.0]])
        optimizer = tf.keras.optimizers.SGD(0.1)
    data = tf.data.Dataset.from_tensor_slices(
        ([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [-2.0, 1.0]], [[1.0], [0.0], [2.0], [-1.0]]))
    batches = s.experimental_distribute_dataset(data.batch(4).repeat(3))

    def step(x, y):
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean((tf.matmul(x, w) - y) ** 2, axis=1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=4)
        optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        return loss
    @tf.function   # as TensorFlow's guide runs it (its eager collectives can pair up wrongly)
    def train_step(batch):
        return s.reduce(tf.distribute.ReduceOp.SUM, s.run(step, args=batch), axis=None)
    losses = [train_step(batch) for batch in batches]
    return losses, tf.identity(w), int(optimizer.iterations.numpy())


if sys.platform == "emscripten":   # (as above: the replicas' all-reduce needs threads)
    case_keras_optimizer_inside_run_applies_the_summed_gradients_once.known_divergence = \
        "Pyodide has no threads: MirroredStrategy's replicas run one after another and cannot " \
        "all-reduce inside strategy.run"
