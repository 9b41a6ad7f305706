"""The playground runtime's live graph (web/python/playground_runtime/graph.py, ``live_graph``:
tapegrad.graph.training_view.LiveSteps sending kind "live-graph"):
while a training loop or ``fit`` runs, the page gets its latest complete step's graph (kind
"live-graph"), throttled in the worker. Time is a fake clock here: nothing depends on speed.
"""
import json
import signal

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.graph.compact import expand
from tapegrad.graph.training_view import LiveSteps

from test_web_examples import runtime   # the playground's runtime, imported from web/python

LOOP = """
import tensorflow as tf
w = tf.Variable(2.0)
for step in range(8):
    with tf.GradientTape() as tape:
        loss = (w * 3.0 - 1.0) ** 2
    grad = tape.gradient(loss, w)
    w.assign_sub(0.01 * grad)
"""

THREE_TAPES = """
import tensorflow as tf
x = tf.Variable(1.0)
with tf.GradientTape() as a:
    y = x * x
print(a.gradient(y, x))
with tf.GradientTape() as b:
    y = tf.sin(x)
print(b.gradient(y, x))
with tf.GradientTape() as c:
    y = tf.exp(x)
print(c.gradient(y, x))
"""

FIT = """
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
x = np.linspace(-1, 1, 64, dtype="float32")[:, None]
model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(4, name="hidden"),
                             tf.keras.layers.Dense(1, name="out")])
model.compile(optimizer="sgd", loss="mse")
model.fit(x, x ** 2, epochs=2, batch_size=16, verbose=0)
"""


class Clock:
    """A fake clock: each reading advances it by `tick` seconds."""

    def __init__(self, tick):
        self.now, self.tick = 100.0, tick

    def __call__(self):
        self.now += self.tick
        return self.now


def run(source, tick, every=1.0, share=0.04):
    """Runs `source` in a Session whose live graph reads a fake clock; returns the messages."""
    messages = []
    session = runtime.Session(lambda kind, payload: messages.append((kind, json.loads(payload))))
    session.live_graph.clock = Clock(tick)
    session.live_graph.EVERY_S = every
    session.live_graph.MAX_SHARE = share
    status = session.run(source)
    assert status["ok"], messages
    return messages


def live_docs(messages):
    return [expand(doc) for kind, doc in messages if kind == "live-graph"]


def test_a_loop_sends_its_latest_complete_step_while_it_runs_then_the_graph_at_the_end():
    messages = run(LOOP, tick=0.0, every=0.0)
    kinds = [kind for kind, _ in messages]
    live = live_docs(messages)
    # from the loop's second step on (one line asked two tapes): steps 2..8
    assert [doc["live"]["tape"] for doc in live] == list(range(1, 8))
    assert kinds.index("graph") > max(i for i, k in enumerate(kinds) if k == "live-graph")
    for doc in live:
        (tape,) = doc["tapes"]
        assert tape["label"] == f"step {doc['live']['tape'] + 1} (training goes on)"
        assert len(tape["gradients"]) == 1                     # the step's gradient call
        assert {n["op"] for n in doc["nodes"] if n["kind"] == "op"} >= {"Mul", "Sub", "Pow"}
        assert doc["live"]["text"] == f"Training: step {doc['live']['tape'] + 1}, the latest complete one."
    # the live form is the collapsed one (boxes, no values: cheap); the end's is the whole step
    assert all(doc["layout"].get("collapsed") for doc in live)
    final = expand(next(doc for kind, doc in messages if kind == "graph"))
    assert final["tapes"][0]["label"] == "step 8 of 8"          # the end: the last complete step
    assert not final["layout"].get("collapsed")


def test_at_most_one_live_graph_per_interval():
    # each clock reading is 0.3 s later; after a send, the next waits for 1 s of readings
    messages = run(LOOP, tick=0.3, every=1.0, share=1.0)
    steps = [doc["live"]["tape"] for doc in live_docs(messages)]
    assert steps and len(steps) < 7
    assert all(b - a >= 2 for a, b in zip(steps, steps[1:])), steps


def test_a_costly_export_waits_longer_so_that_exports_stay_a_small_share_of_the_run():
    # every reading 0.3 s later: an export "costs" 0.3 s, so the next may come 0.3 / 0.04 = 7.5 s
    # later, 25 gradient calls on (3 readings per call). The first export (cold in the page) does
    # not set the pace: the next step follows it, and after that second export none of the 8
    # steps is sent
    messages = run(LOOP, tick=0.3, every=0.0, share=0.04)
    assert [doc["live"]["tape"] for doc in live_docs(messages)] == [1, 2]


def test_distinct_tapes_are_no_loop_and_send_no_live_graph():
    messages = run(THREE_TAPES, tick=0.0, every=0.0)
    assert live_docs(messages) == []
    assert [kind for kind, _ in messages].count("graph") == 1


def test_fit_sends_live_step_graphs_with_the_model_layers():
    messages = run(FIT, tick=0.0, every=0.0)
    live = live_docs(messages)
    assert len(live) >= 6                            # 2 epochs of 4 steps, from the second step
    groups = {g["label"] for g in live[-1]["groups"]}
    assert {"hidden (Dense)", "out (Dense)"} <= groups, groups          # the layers' boxes
    final = expand(next(doc for kind, doc in messages if kind == "graph"))
    assert final["representative"]["tape"] == live[-1]["live"]["tape"]   # the same last step


def test_a_failing_export_ends_the_live_graphs_not_the_run(monkeypatch):
    def broken(self, index):
        raise RuntimeError("no export")
    monkeypatch.setattr(LiveSteps, "send_step", broken)
    messages = run(LOOP, tick=0.0, every=0.0)
    assert live_docs(messages) == [] and [k for k, _ in messages].count("graph") == 1


def test_a_fit_outside_a_run_is_not_followed_and_leaves_ctrl_c_alone():
    # after a playground run, the runtime's fit observer stays installed in Keras (once per process)
    run(FIT, tick=0.0, every=0.0)

    class Boom(Exception):
        pass

    def fail(batch, logs):
        raise Boom()

    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((8, 1), "float32")
    with pytest.raises(Boom):     # ends mid-training: the observer's on_train_end never comes
        model.fit(x, x, epochs=1, batch_size=4, verbose=0,
                  callbacks=[tf.keras.callbacks.LambdaCallback(on_train_batch_end=fail)])
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert runtime.TrainingFeed.current is None
