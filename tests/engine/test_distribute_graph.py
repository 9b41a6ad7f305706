"""Watching data-parallel training (issue 32, item 5): a MirroredStrategy's replicas drawn as one
group each, ``strategy.reduce`` as one AllReduce node joining them, the backward pass through
every replica; the gallery's data-parallel example and ``python -m tapegrad graph``."""
import json
import sys
import threading

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.__main__ import _run_script, main as tapegrad_main
from tapegrad.distribute import rendezvous
from tapegrad.graph.capturing import Capture
from tapegrad.graph.compact import expand
from tapegrad.graph.training_view import representative_step
from tapegrad.thread_state import state

from test_web_examples import EXAMPLES

SCRIPT = """
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range({n})])
with strategy.scope():
    w = tf.Variable([[1.0], [-1.0]], name="w")
x = tf.data.Dataset.from_tensor_slices([[1.0, 2.0]] * {n}).batch({n})
batch = next(iter(strategy.experimental_distribute_dataset(x)))
with tf.GradientTape() as tape:
    per_replica = strategy.run(lambda part: tf.reduce_sum(part @ w), args=(batch,))
    loss = strategy.reduce("SUM", per_replica, axis=None)
grad = tape.gradient(loss, w)
"""


MEETING = pytest.mark.skipif(sys.platform == "emscripten",
                             reason="Pyodide has no threads: replicas cannot all-reduce in a step")


@pytest.fixture(autouse=True)
def logical_cpus():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)


def replica_structure(doc):
    """The replica groups' ids, and for each AllReduce node the replica groups its inputs come
    from (the innermost replica group around each input's op)."""
    groups = {g["id"]: g for g in doc["groups"]}
    replicas = sorted(g["id"] for g in groups.values() if g["kind"] == "replica")
    nodes = {n["id"]: n for n in doc["nodes"]}

    def replica_of(node_id):
        node = nodes[node_id]
        if node["kind"] == "tensor":     # an op's output: the op's group
            node = next(nodes[e["source"]] for e in doc["edges"] if e["target"] == node_id)
        gid = node.get("group")
        while gid is not None and groups[gid]["kind"] != "replica":
            gid = groups[gid]["parent"]
        return gid

    joins = {}
    for n in doc["nodes"]:
        if n.get("op") == "AllReduce":
            ins = [e["source"] for e in doc["edges"] if e["target"] == n["id"]]
            joins[n["id"]] = sorted(replica_of(s) for s in ins)
    return replicas, joins, groups


def test_gallery_example_graph_has_one_group_per_replica_and_one_all_reduce(capsys):
    # the page's graph: the example's last complete step (tapegrad.graph.training_view), here
    # without a playground Session (whose Keras hooks stay installed for the process)
    with Capture() as cap:
        _run_script(str(EXAMPLES / "21_data_parallel.py"), [])
    assert "same weights as one device: True" in capsys.readouterr().out
    doc = representative_step(cap)
    assert doc["representative"]["tapes"] == 42           # 40 steps and the two replicas' tapes
    replicas, joins, groups = replica_structure(doc)
    assert [groups[r]["label"] for r in replicas] == ["replica 0 (replica)", "replica 1 (replica)"]
    assert len(joins) == 1                          # the step shown: one AllReduce
    (joined,) = joins.values()
    assert joined == replicas                       # an edge from every replica's group
    # the backward pass of the step runs through both replicas' ops
    (tape,) = doc["tapes"]
    (call,) = tape["gradients"]
    ops_by_replica = {r: {n for n in groups[r]["nodes"] if n.startswith("o")} for r in replicas}
    visited = {e["op"] for e in call["events"]}
    for r, ops in ops_by_replica.items():
        assert ops and ops <= visited, r


@pytest.mark.parametrize("n", [2, 3, 4])
def test_graph_command_draws_the_replicas_of_one_step(tmp_path, n, capsys):
    script = tmp_path / "step.py"
    script.write_text(SCRIPT.replace("{n}", str(n)))
    out = tmp_path / "step.json"
    assert tapegrad_main(["graph", str(script), "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    doc = expand(doc) if doc.get("version") == 2 else doc
    replicas, joins, groups = replica_structure(doc)
    assert [groups[r]["label"] for r in replicas] == [f"replica {i} (replica)" for i in range(n)]
    assert list(joins.values()) == [replicas]


@pytest.mark.parametrize("threads", [True, False], ids=["threads", "in-turn"])
def test_tape_around_run_gets_every_replica_and_the_reduce_is_one_op(threads, monkeypatch):
    if threads and not rendezvous.THREADS:
        pytest.skip("no threads here (Pyodide)")
    monkeypatch.setattr(rendezvous, "THREADS", threads)   # in-turn: as in Pyodide
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
    with strategy.scope():
        w = tf.Variable([[1.0], [2.0]])
    parts = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([[1.0, float(ctx.replica_id_in_sync_group)]]))
    with tf.GradientTape() as tape:
        losses = strategy.run(lambda x: tf.reduce_sum(x @ w), args=(parts,))
        total = strategy.reduce("SUM", losses, axis=None)
    records = tape._records
    assert [r.op.name for r in records].count("AllReduce") == 1
    scopes = {r.scope for r in records if r.op.name == "MatMul"}
    assert scopes == {("replica:0",), ("replica:1",), ("replica:2",)}
    np.testing.assert_allclose(tape.gradient(total, w).numpy(), [[3.0], [3.0]])
    assert float(total) == 1.0 * 3 + 2.0 * (0 + 1 + 2)
    assert (state.active, state.scopes) == ([], [])          # nothing left open


@MEETING
def test_replicas_take_turns_and_keep_their_own_tapes():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        w = tf.Variable(3.0)
    order, running = [], []
    lock = threading.Lock()

    def step():
        i = int(tf.distribute.get_replica_context().replica_id_in_sync_group)
        with tf.GradientTape() as t:
            with lock:
                running.append(i)
                assert len(running) == 1             # never two replicas at once
            order.append(i)
            y = w * float(i + 1)
            running.remove(i)
            total = tf.distribute.get_replica_context().all_reduce("SUM", y)  # inside the tape
            with lock:
                running.append(i)
            order.append(i)
            running.remove(i)
        return t.gradient(total, w)

    grads = strategy.experimental_local_results(strategy.run(step))
    assert order == [0, 1, 0, 1]
    # each replica's tape holds its own ops (w * (i + 1)); the all-reduce's reverse rule sums
    # the two replicas' upstream gradients (as TensorFlow): 2 * (i + 1)
    assert [float(g) for g in grads] == [2.0, 4.0]


@MEETING
def test_one_replica_returning_while_others_wait_is_an_error_not_a_hang():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def step():
        ctx = tf.distribute.get_replica_context()
        if int(ctx.replica_id_in_sync_group) == 0:
            return ctx.all_reduce("SUM", tf.constant(1.0))
        return tf.constant(0.0)

    with pytest.raises(RuntimeError, match="did not all make the same all-reduce"):
        strategy.run(step)


def test_multi_worker_style_single_local_replica_gets_its_group(monkeypatch):
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    with tf.GradientTape() as tape:
        x = tf.constant(2.0)
        tape.watch(x)
        strategy.run(lambda: x * x)
    assert [r.scope for r in tape._records] == [None]     # one replica in all: no group
    monkeypatch.setattr(type(strategy), "num_replicas_in_sync", property(lambda s: 2))
    monkeypatch.setattr(type(strategy), "_replica_id", lambda s, i: 1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        strategy.run(lambda: x * x)
    assert [r.scope for r in tape._records] == [("replica:1",)]
