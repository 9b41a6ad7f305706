"""tf.distribute in one process (issue 32): MirroredStrategy training equals full-batch training,
the all-reduce primitive's rules, the fused buffer, DistributedGradientTape, errors that end a
step instead of hanging it, and MultiWorkerMirroredStrategy's error where MPI is missing.
TensorFlow's recorded behaviour is replayed by the conformance area ``distribute``."""
import subprocess
import sys
import time

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.distribute import allreduce, collective, rendezvous


# Pyodide has no threads: there replicas run in turn and cannot meet inside strategy.run (tested
# natively by test_without_threads_replicas_run_in_turn_and_cannot_meet)
MEETING = pytest.mark.skipif(sys.platform == "emscripten",
                             reason="Pyodide has no threads: replicas cannot all-reduce in a step")


@pytest.fixture
def two_cpus():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
    yield tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    tf.config.set_logical_device_configuration(cpu, None)


def _data():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(8, 3)).astype(np.float32)
    return x, (x @ np.array([1.0, -2.0, 0.5], np.float32) + 0.25).reshape(8, 1)


def _full_batch(steps, lr=0.1):
    x, y = _data()
    w, b = tf.Variable(np.ones((3, 1), np.float32)), tf.Variable(np.zeros(1, np.float32))
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ w + b - y) ** 2)
        for v, g in zip((w, b), tape.gradient(loss, (w, b))):
            v.assign_sub(lr * g)
    return w.numpy(), b.numpy()


@MEETING
def test_mirrored_training_equals_full_batch_training(two_cpus):
    s, (x, y), lr = two_cpus, _data(), 0.1
    with s.scope():
        w, b = tf.Variable(np.ones((3, 1), np.float32)), tf.Variable(np.zeros(1, np.float32))
    batches = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y))
                                                .batch(8).repeat(5))

    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((xb @ w + b - yb) ** 2)
        grads = tf.distribute.get_replica_context().all_reduce("MEAN", tape.gradient(loss, [w, b]))
        return grads
    for xb, yb in batches:
        grads = s.experimental_local_results(s.run(step, args=(xb, yb)))[0]
        for v, g in zip((w, b), grads):
            v.assign_sub(lr * g)
    want_w, want_b = _full_batch(5, lr)
    np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.numpy(), want_b, rtol=1e-5, atol=1e-6)


@MEETING
def test_distributed_gradient_tape_in_replicas_averages(two_cpus):
    s = two_cpus

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(x * x)
        tape = tf.distribute.DistributedGradientTape(tape)
        return tape.gradient(loss, x)
    parts = tf.distribute.experimental.ValueContext
    assert parts(1, 2).replica_id_in_sync_group == 1
    xs = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group + 1))
    out = s.experimental_local_results(s.run(step, args=(xs,)))
    for g in out:   # mean of 2x over the replicas: (2 * [1, 2] + 2 * [2, 4]) / 2
        np.testing.assert_allclose(g.numpy(), [3.0, 6.0])


@MEETING
def test_all_reduce_rules_to_second_order(two_cpus):
    """Reverse over reverse, and forward, through the all-reduce of two replicas."""
    def step():
        ctx = tf.distribute.get_replica_context()
        x = tf.constant([1.0, 2.0]) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(ctx.all_reduce("SUM", x * x))
            g = inner.gradient(y, x)          # 2 x, all-reduced: 2 * 2 x
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            z = ctx.all_reduce("SUM", 3.0 * x)
        return g, outer.gradient(g, x), acc.jvp(z)
    g, h, t = (s.values for s in two_cpus.run(step))
    np.testing.assert_allclose(g[1].numpy(), [8.0, 16.0])
    np.testing.assert_allclose(h[0].numpy(), [4.0, 4.0])   # d(4x)/dx: the all-reduced 2 x 2
    np.testing.assert_allclose(t[0].numpy(), [6.0, 6.0])   # both replicas' tangents, 3 each


def test_gradients_are_fused_into_one_buffer_per_dtype():
    calls = []

    class Counting:
        size = 1

        def all_reduce(self, array, op):
            calls.append((array.shape, array.dtype.name, op))
            return array * 2

    key = allreduce.register(Counting())
    try:
        a, b, n = tf.ones([2, 3]), tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant([5, 6])
        out = allreduce.all_reduce_fused([a, n, b], key, "MEAN")
    finally:
        del allreduce.GROUPS[key]
    assert sorted(calls) == [((2,), "int32", "MEAN"), ((10,), "float32", "MEAN")]
    assert [o.shape.as_list() for o in out] == [[2, 3], [2], [4]]
    np.testing.assert_allclose(out[2].numpy(), [2.0, 4.0, 6.0, 8.0])


def test_distributed_gradient_tape_alone_is_the_plain_tape():
    w = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape = tf.distribute.DistributedGradientTape(tape)
        loss = tf.reduce_sum(w * w) + 0.0 * tf.reduce_sum(tf.ones(2))
    g, none = tape.gradient(loss, [w, tf.Variable(1.0)])
    np.testing.assert_allclose(g.numpy(), [[2.0, 4.0]])
    assert none is None


@MEETING
def test_a_failing_replica_ends_the_step_with_its_error(two_cpus):
    def step():
        ctx = tf.distribute.get_replica_context()
        if int(ctx.replica_id_in_sync_group) == 1:
            raise KeyError("replica 1")
        return ctx.all_reduce("SUM", tf.ones(2))   # replica 0 waits here: it must not hang
    start = time.monotonic()
    with pytest.raises(KeyError, match="replica 1"):
        two_cpus.run(step)
    assert time.monotonic() - start < 5
    assert len(allreduce.GROUPS) == 1   # the step's group is gone


@MEETING
def test_merge_call_error_reaches_every_replica(two_cpus):
    def step():
        def merge(strategy, value):
            raise RuntimeError("merge failed")
        return tf.distribute.get_replica_context().merge_call(merge, args=(tf.ones(1),))
    with pytest.raises(RuntimeError, match="merge failed"):
        two_cpus.run(step)


def test_scope_keeps_its_variables_and_refuses_another_strategy(two_cpus):
    other = tf.distribute.OneDeviceStrategy("/cpu:1")
    with two_cpus.scope():
        v = tf.Variable(1.0)
        with pytest.raises(ValueError, match="Mixing different tf.distribute.Strategy"):
            with other.scope():
                pass
    tf.Variable(2.0)
    assert two_cpus._variables == [v]


def test_without_threads_replicas_run_in_turn_and_cannot_meet(two_cpus, monkeypatch):
    """As in Pyodide: results per replica, reduce across them; an all-reduce says why not."""
    monkeypatch.setattr(rendezvous, "THREADS", False)
    r = two_cpus.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                     tf.float32) + 1.0)
    assert float(two_cpus.reduce("SUM", r, axis=None)) == 3.0
    with pytest.raises(RuntimeError, match="run one after another here"):
        two_cpus.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.ones(2)))
    assert len(allreduce.GROUPS) == 1


def test_unknown_device_is_an_error():
    with pytest.raises(ValueError, match="CPU:7 is not found"):
        tf.distribute.MirroredStrategy(["/cpu:7"])


def test_multi_worker_without_mpi_says_so(monkeypatch):
    monkeypatch.setattr(collective, "_world", [])
    monkeypatch.setattr(collective.importlib, "import_module",
                        lambda name: (_ for _ in ()).throw(ImportError("No module named 'mpi4py'")))
    with pytest.raises(collective.MpiUnavailable, match="needs MPI, which is unavailable here"):
        tf.distribute.MultiWorkerMirroredStrategy()


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide cannot start a process")
def test_importing_tapegrad_does_not_start_mpi():
    code = "import sys, tapegrad as tf; tf.distribute.MirroredStrategy(); " \
           "print('mpi4py' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


@MEETING
def test_a_keras_optimizer_inside_strategy_run_sums_the_replicas_and_applies_once(two_cpus):
    """TensorFlow's custom training loop: the loss scaled by the global batch, the optimizer's
    apply_gradients inside strategy.run; the same weights as full-batch training."""
    s, (x, y), lr = two_cpus, _data(), 0.1
    with s.scope():
        w, b = tf.Variable(np.ones((3, 1), np.float32)), tf.Variable(np.zeros(1, np.float32))
        optimizer = tf.keras.optimizers.SGD(lr)
    batches = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y))
                                                .batch(8).repeat(5))

    def step(xb, yb):
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean((xb @ w + b - yb) ** 2, axis=1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=8)
        optimizer.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    for xb, yb in batches:
        s.run(step, args=(xb, yb))
    want_w, want_b = _full_batch(5, lr)
    np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b.numpy(), want_b, rtol=1e-5, atol=1e-6)
    assert int(optimizer.iterations.numpy()) == 5       # one update per step, not per replica


class _CountingGroup:
    """A two-replica group that doubles what it is given and notes each buffer's bytes."""

    size = 2

    def __init__(self):
        self.buffers = []

    def all_reduce(self, array, op):
        self.buffers.append(array.nbytes)
        return array * 2


def test_a_big_gradient_set_is_all_reduced_in_bounded_buckets_with_the_same_results():
    group = _CountingGroup()
    key = allreduce.register(group)
    try:
        _check_buckets(group, key)
    finally:
        del allreduce.GROUPS[key]


def _check_buckets(group, key):
    rng = np.random.default_rng(0)
    grads = [tf.constant(rng.normal(size=s).astype("float32")) for s in [(1000,), (10, 10), (3000,), (700,)]]
    grads.append(tf.constant(np.ones(5)))                    # float64: a buffer of its own
    bucketed = allreduce.all_reduce_fused(grads, key, limit=8000)
    assert group.buffers == [4400, 12000, 2800, 40]          # 4000+400 | 12000 alone | 2800 | f64
    one = allreduce.all_reduce_fused(grads, key, limit=10**9)
    assert group.buffers[4:] == [4400 + 12000 + 2800, 40]    # one buffer per dtype
    for a, b, g in zip(bucketed, one, grads):
        assert a.shape == g.shape and a.dtype == g.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        np.testing.assert_array_equal(a.numpy(), 2 * g.numpy())
    with tf.GradientTape() as tape:                          # recorded: its gradient flows back
        tape.watch(grads[0])
        y = tf.reduce_sum(allreduce.all_reduce_fused(grads[:3], key, limit=8000)[0])
    np.testing.assert_array_equal(tape.gradient(y, grads[0]).numpy(), np.full(1000, 2.0, "float32"))
