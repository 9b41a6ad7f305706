"""The tape as a graph: the nodes a person would draw, events that replay to the gradients,
a layout without overlaps, and the exports."""
import json
import subprocess
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.graph import capture
from tapegrad.graph.export import expand, to_dot, to_json, to_svg
from tapegrad.graph.layout import NODE_SIZE


def kinds(doc):
    out = {}
    for n in doc["nodes"]:
        out.setdefault(n["kind"], []).append(n["label"])
    return {k: sorted(v) for k, v in out.items()}


def test_square_of_a_variable():
    with capture() as cap:
        x = tf.Variable(3.0, name="x")
        with tf.GradientTape() as tape:
            y = x ** 2
        tape.gradient(y, x)
    doc = cap.to_dict()
    # x -> Pow <- 2 ; Pow -> y
    assert kinds(doc) == {"variable": ["x"], "constant": ["2"], "op": ["Pow"], "tensor": ["y"]}
    assert len(doc["edges"]) == 3


def test_linear_model_cell():
    with capture() as cap:
        w = tf.Variable(np.ones((3, 2), np.float32), name="w")
        b = tf.Variable(np.zeros(2, np.float32), name="b")
        x = [[1., 2., 3.]]
        with tf.GradientTape(persistent=True) as tape:
            y = x @ w + b
            loss = tf.reduce_mean(y ** 2)
        tape.gradient(loss, [w, b])
        tape.gradient(loss, {"w": w, "b": b})
    doc = cap.to_dict()
    assert kinds(doc)["op"] == ["AddV2", "MatMul", "Mean", "Pow"]
    assert kinds(doc)["variable"] == ["b", "w"]
    assert len(doc["nodes"]) == 2 + 2 + 4 + 4   # variables, constants (x, 2), ops, outputs
    assert len(doc["edges"]) == 7 + 4            # op inputs (2+2+2+1) + op outputs
    assert len(doc["tapes"][0]["gradients"]) == 2   # two calls on a persistent tape: two streams


def test_dense_layer_is_a_group():
    with capture() as cap:
        layer = tf.keras.layers.Dense(2, activation="relu", name="dense")
        x = tf.constant([[1., 2., 3.]])
        with tf.GradientTape() as tape:
            y = layer(x)
            loss = tf.reduce_mean(y ** 2)
        tape.gradient(loss, layer.trainable_variables)
    doc = cap.to_dict()
    assert kinds(doc)["op"] == ["AddV2", "MatMul", "Mean", "Pow", "Relu"]
    group = [g for g in doc["groups"] if g["label"] == "dense (Dense)"]
    assert len(group) == 1
    ops_in_group = sorted(n["label"] for n in doc["nodes"] if n["id"] in group[0]["nodes"]
                          and n["kind"] == "op")
    assert ops_in_group == ["AddV2", "MatMul", "Relu"]


def test_user_function_is_a_group():
    def f(x):
        return x * x + 1.0
    with capture() as cap:
        x = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            y = f(x) * 3.0
        tape.gradient(y, x)
    doc = cap.to_dict()
    grp = [g for g in doc["groups"] if g["label"] == "f()"]
    assert len(grp) == 1
    assert sorted(n["label"] for n in doc["nodes"] if n["id"] in grp[0]["nodes"]
                  and n["kind"] == "op") == ["AddV2", "Mul"]


def _replay(doc, tape_index=0, call_index=0):
    """Sum every contribution the events sent to each node."""
    call = doc["tapes"][tape_index]["gradients"][call_index]
    totals = {}
    for t in call["targets"]:
        if t["node"] is not None:
            totals[t["node"]] = np.array(t["seed"]["data"], dtype=np.float64)
    for ev in call["events"]:
        for c in ev["contributions"]:
            if "value" in c:
                v = np.array(c["value"]["data"], dtype=np.float64)
                totals[c["to"]] = totals.get(c["to"], 0) + v
    return call, totals


@pytest.mark.parametrize("example", ["fanout", "broadcast", "chain", "matmul"])
def test_backward_events_replay_to_the_gradients(example):
    with capture() as cap:
        if example == "fanout":
            x = tf.Variable(2.0)
            with tf.GradientTape() as tape:
                a = x * x
                y = a * x + a          # x used three times, a twice
            tape.gradient(y, x)
        elif example == "broadcast":
            b = tf.Variable([1.0, 2.0, 3.0])
            x = tf.constant([[1.0, 0.0, 2.0], [3.0, 1.0, 1.0]])
            with tf.GradientTape() as tape:
                y = tf.reduce_sum((x + b) ** 2)
            tape.gradient(y, b)
        elif example == "chain":
            x = tf.constant([0.5, -1.0])
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.sigmoid(tf.sin(x) * 3.0)
            tape.gradient(y, x)
        else:
            w = tf.Variable([[1.0, 2.0], [0.5, -1.0]])
            v = tf.Variable([1.0, 1.0])
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(tf.matmul([[1.0, 2.0]], w) * v)
            tape.gradient(y, [w, v])
    doc = cap.to_dict()
    call, totals = _replay(doc)
    assert call["events"], "no backward events"
    for r in call["results"]:
        assert not r["none"]
        np.testing.assert_allclose(totals[r["node"]], np.array(r["gradient"]["data"]), rtol=1e-6)
    if example == "fanout":
        assert any(c.get("summed") for ev in call["events"] for c in ev["contributions"])


def test_pruned_inputs_and_unvisited_ops():
    with capture() as cap:
        x = tf.Variable(1.0)
        z = tf.Variable(5.0)
        with tf.GradientTape(persistent=True) as tape:
            y = x * z
            w = z * 2.0
        tape.gradient(y, x)
    call = cap.to_dict()["tapes"][0]["gradients"][0]
    mul = call["events"][0]
    assert [c.get("pruned", False) for c in mul["contributions"]] == [False, True]
    assert len(call["unvisited"]) == 1      # w = z * 2.0 was recorded but not on the path


def test_nested_tapes_give_distinguishable_streams():
    with capture() as cap:
        x = tf.Variable(1.0)
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = x * x * x
            dy = inner.gradient(y, x)
        d2y = outer.gradient(dy, x)
    assert float(d2y) == 6.0
    doc = cap.to_dict()
    assert len(doc["tapes"]) == 2
    outer_doc, inner_doc = doc["tapes"]
    # the outer tape recorded the inner tape's backward ops, so its stream is longer
    assert len(outer_doc["forward"]) > len(inner_doc["forward"]) == 2
    assert len(outer_doc["gradients"]) == len(inner_doc["gradients"]) == 1
    ops_seen_by_both = {n["id"] for n in doc["nodes"] if n.get("tapes") == [0, 1]}
    assert len(ops_seen_by_both) >= 2


def test_layout_has_no_overlapping_nodes():
    with capture() as cap:
        x = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = x
            for i in range(6):
                y = tf.tanh(y * x + float(i)) + tf.sin(y)
            loss = tf.reduce_sum(y)
        tape.gradient(loss, x)
    doc = cap.to_dict()
    boxes = [(n["x"] - n["w"] / 2, n["y"] - n["h"] / 2, n["x"] + n["w"] / 2, n["y"] + n["h"] / 2)
             for n in doc["nodes"]]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i], boxes[j]
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], \
                (doc["nodes"][i]["id"], doc["nodes"][j]["id"])


def test_layout_is_deterministic():
    def run():
        with capture() as cap:
            x = tf.Variable(2.0)
            with tf.GradientTape() as tape:
                y = x * x + tf.sin(x) * x
            tape.gradient(y, x)
        doc = cap.to_dict()
        return [(n["kind"], n["label"], n["x"], n["y"]) for n in doc["nodes"]]
    assert run() == run()


def test_thousand_node_tape_exports_and_larger_ones_are_summarized():
    # How long the export takes is measured by engine/bench/graph_export.py, not asserted here.
    with capture() as cap:
        x = tf.Variable(np.ones(4, np.float32))
        with tf.GradientTape() as tape:
            y = x
            for _ in range(333):       # 333 ops: about 1,000 nodes (op, output, constant)
                y = y * 1.0001
            loss = tf.reduce_sum(y)
        tape.gradient(loss, x)
    doc = cap.to_dict(max_nodes=5000)
    text = to_json(doc)
    assert len(doc["nodes"]) >= 1000
    assert json.loads(text)["version"] == 2          # the compact form (docs/graph-json.md)
    assert expand(json.loads(text))["nodes"] == doc["nodes"]
    small = cap.to_dict(max_nodes=200)              # too big to lay out: the collapsed view
    assert small["summarized"]["original_nodes"] == len(doc["nodes"])
    assert small["summarized"]["boxes"] == len(small["groups"]) < 200
    assert any("×" in g["label"] for g in small["groups"])


def test_svg_dot_json_exports(tmp_path):
    with capture() as cap:
        x = tf.constant(3.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        tape.gradient(y, x)
    doc = cap.to_dict()
    svg = to_svg(doc, gradient=(0, 0))
    assert svg.startswith("<svg") and svg.count("data-node-id=") == len(doc["nodes"])
    assert "grad: 6" in svg
    dot = to_dot(doc)
    assert dot.startswith("digraph") and dot.count("->") == len(doc["edges"])
    import xml.dom.minidom
    xml.dom.minidom.parseString(svg)  # well-formed


def test_notebook_display():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.exp(x)
    svg = tape._repr_svg_()
    assert svg.startswith("<svg") and ">Exp<" in svg


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide has no subprocess")
def test_command_line_writes_each_format(tmp_path):
    script = tmp_path / "demo.py"
    script.write_text("import tapegrad as tf\nx = tf.Variable(2.0)\n"
                      "with tf.GradientTape() as t:\n    y = x * x\nprint(t.gradient(y, x))\n")
    for ext in ("svg", "json", "dot"):
        out = tmp_path / f"out.{ext}"
        proc = subprocess.run([sys.executable, "-m", "tapegrad", "graph", str(script), "-o",
                               str(out)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert "tf.Tensor(4.0" in proc.stdout
        assert out.read_text().strip()
    doc = expand(json.loads((tmp_path / "out.json").read_text()))   # the compact form, decoded
    assert sorted(n["kind"] for n in doc["nodes"]) == ["op", "tensor", "variable"]


def test_node_sizes_are_known_for_every_kind():
    assert {"op", "tensor", "variable", "watched", "constant"} <= set(NODE_SIZE)


def test_jacobian_rows_are_their_own_streams():
    with capture() as cap:
        x = tf.Variable([1.0, 2.0, 3.0])
        with tf.GradientTape() as tape:
            y = x * x
        j = tape.jacobian(y, x)
    assert np.allclose(j.numpy(), np.diag([2.0, 4.0, 6.0]))
    calls = cap.to_dict()["tapes"][0]["gradients"]
    assert [(c["kind"], c["row"]) for c in calls] == [("jacobian", 0), ("jacobian", 1),
                                                      ("jacobian", 2)]
    for row, c in enumerate(calls):
        assert c["results"][0]["gradient"]["data"] == [2.0 * (row + 1) if k == row else 0.0
                                                       for k in range(3)]
