"""The graph export at scale (issue 28, items 4 and 8): the compact JSON form (version 2,
docs/graph-json.md) round-trips, grows linearly, a big tape is drawn as its collapsed view, and
one SVG writer serves ``tape._repr_svg_()`` and ``python -m tapegrad graph --svg``.
How long the export takes is measured by engine/bench/graph_export.py, not asserted here."""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.graph import capture
from tapegrad.graph.compact import box_members, box_view, compact, expand
from tapegrad.graph.export import to_json
from tapegrad.graph.svg import to_svg

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine" / "bench"))
from graph_export import record_chain  # noqa: E402  (the benchmark's tape)

SVG = "{http://www.w3.org/2000/svg}"


def chain(ops, max_nodes=1000):
    """The graph document of the bench's ``ops``-op tape y = y * 1.0001 ... (3 nodes per op)."""
    return record_chain(ops).to_dict(max_nodes=max_nodes)


def scalar_doc():
    with capture() as cap:
        x = tf.Variable(3.0, name="x")
        w = tf.Variable(2.0, name="w", trainable=False)
        with tf.GradientTape(persistent=True) as tape:
            y = x * x
            z = y + tf.sin(x)
        tape.gradient(z, [x, w])
        tape.gradient(y, x)
    return cap.to_dict()


def test_compact_form_round_trips_to_the_same_document():
    doc = scalar_doc()
    text = to_json(doc)
    back = expand(json.loads(text))
    assert json.loads(text)["version"] == 2
    assert back["nodes"] == doc["nodes"]
    assert back["edges"] == doc["edges"]
    assert back == json.loads(json.dumps(doc))        # groups, tapes, events, results too
    assert compact(json.loads(text)) == json.loads(text)   # already compact: kept as is


def test_compact_nodes_are_small_integers_indexing_tables():
    doc = json.loads(to_json(chain(300, max_nodes=5000)))
    nodes, tables = doc["nodes"], doc["tables"]
    assert set(nodes) == {"id", "fields"}
    assert all(isinstance(i, int) for col in nodes.values() for i in col)
    assert all(isinstance(i, int) for col in doc["edges"].values() for i in col)
    assert "Mul" in tables["strings"]
    # each op's source line is stored once
    assert len(tables["sources"]) < 10


def test_json_size_grows_linearly_with_the_tape():
    sizes = {ops: len(to_json(chain(ops))) for ops in (1_000, 2_000, 4_000)}
    per_op = [sizes[n] / n for n in sizes]
    assert max(per_op) < 1.5 * min(per_op), sizes
    assert per_op[0] < 200         # bytes per op (3 nodes, 3 edges, a forward and backward step)


def test_a_big_tape_is_collapsed_into_boxes_with_only_they_laid_out():
    doc = chain(3_000)
    assert doc["version"] == 2 and doc["layout"]["collapsed"]
    full = expand(doc)
    assert len(full["nodes"]) == doc["summarized"]["original_nodes"] == 3 * 3_000   # Sum: no constant
    assert len(full["edges"]) == len(doc["edges"]["source"])
    boxes = {g["id"]: g for g in full["groups"]}
    assert doc["summarized"]["boxes"] == len(boxes) <= 60
    # every node is in exactly one box, or laid out on its own (the variable)
    members = [m for g in full["groups"] for m in g["nodes"]]
    alone = [n for n in full["nodes"] if "x" in n]
    assert len(members) == len(set(members))
    assert sorted(members + [n["id"] for n in alone]) == sorted(n["id"] for n in full["nodes"])
    assert [n["kind"] for n in alone] == ["variable"]
    assert all(len(g["box"]) == 4 for g in full["groups"])
    # the edges between boxes carry all edges that cross boxes
    visible = {m: g["id"] for g in full["groups"] for m in g["nodes"]}
    crossing = sum(1 for e in full["edges"]
                   if visible.get(e["source"], e["source"]) != visible.get(e["target"], e["target"]))
    assert sum(n for _, _, n in doc["layout"]["edges"]) == crossing
    assert any("×" in g["label"] for g in full["groups"])


def test_a_big_tape_keeps_its_streams_and_gradient_results():
    small, big = chain(400, max_nodes=5000), chain(400, max_nodes=500)
    full = expand(big)
    ids = {n["id"]: n for n in full["nodes"]}
    assert len(full["tapes"][0]["forward"]) == len(small["tapes"][0]["forward"]) == 400
    call, big_call = small["tapes"][0]["gradients"][0], full["tapes"][0]["gradients"][0]
    assert len(big_call["events"]) == len(call["events"])
    assert [r["gradient"] for r in big_call["results"]] == [r["gradient"] for r in call["results"]]
    assert [(ids[e["op"]]["op"], len(e["contributions"])) for e in big_call["events"]] == \
        [(next(n for n in small["nodes"] if n["id"] == e["op"])["op"], len(e["contributions"]))
         for e in call["events"]]
    # the same nodes as the laid-out export, summarized by shape and dtype only
    kinds = sorted((n["kind"], n.get("label"), n.get("op")) for n in small["nodes"])
    assert sorted((n["kind"], n.get("label"), n.get("op")) for n in full["nodes"]) == kinds


def test_groups_become_boxes_of_a_big_tape():
    layer = tf.keras.layers.Dense(3, name="dense")
    with capture() as cap:
        x = tf.constant(np.ones((2, 3), np.float32))
        with tf.GradientTape() as tape:
            y = x
            for _ in range(150):
                y = layer(y)
            loss = tf.reduce_sum(y)
        tape.gradient(loss, layer.trainable_variables)
    doc = cap.to_dict(max_nodes=300)
    labels = [g["label"] for g in doc["groups"]]
    assert any("dense (Dense)" in label for label in labels), labels
    assert len(labels) <= 60


def shape_name(value):
    """The shape an edge carries as the page writes it (web/src/graph/model.js, visibleEdges)."""
    shape = value.get("shape") if isinstance(value, dict) else None
    if not isinstance(shape, list):
        return None
    return "×".join("" if d is None else str(d) for d in shape) or "scalar"


def test_a_big_tapes_preview_is_its_collapsed_view_alone():
    layer = tf.keras.layers.Dense(3, name="dense")
    with capture() as cap:
        x = tf.Variable(np.ones((2, 3), np.float32), name="x")
        with tf.GradientTape() as tape:
            y = x
            for _ in range(150):
                y = tf.nn.relu(layer(y)) * 0.5
            loss = tf.reduce_sum(y)
        tape.gradient(loss, layer.trainable_variables)
    previews = []
    doc = cap.to_dict(max_nodes=300, preview=previews.append)
    assert to_json(doc) == to_json(cap.to_dict(max_nodes=300))    # the document is the same
    [preview] = previews
    assert preview["preview"] is True and preview["version"] == 1 and preview["edges"] == []
    # written in the compact form as every document, which the page expands back
    assert expand(json.loads(to_json(preview))) == json.loads(json.dumps(preview))
    full = expand(json.loads(to_json(doc)))
    # the same boxes, without members, and the nodes drawn on their own
    assert [{**g, "nodes": []} for g in full["groups"]] == \
        [{k: v for k, v in g.items() if k != "fixed"} for g in preview["groups"]]
    assert all(g["fixed"] for g in preview["groups"])
    assert preview["nodes"] == [n for n in full["nodes"] if "x" in n]
    assert {n["kind"] for n in preview["nodes"]} == {"variable"}
    assert [{k: v for k, v in t.items() if k not in ("forward", "gradients")} for t in full["tapes"]] \
        == [{k: v for k, v in t.items() if k not in ("forward", "gradients")} for t in preview["tapes"]]
    assert all(t["forward"] == t["gradients"] == [] for t in preview["tapes"])
    assert preview["summarized"] == full["summarized"]
    # the drawn edges with their counts, and the shape each carries as the page finds it
    box = {m: g["id"] for g in full["groups"] for m in g["nodes"]}
    nodes = {n["id"]: n for n in full["nodes"]}
    carried = {}
    for e in full["edges"]:
        a, b = box.get(e["source"], e["source"]), box.get(e["target"], e["target"])
        if a != b:
            carried.setdefault((a, b), []).append(shape_name(nodes[e["source"]].get("value")))
    expected = [[a, b, len(s), s[0] if len(set(s)) == 1 else None] for (a, b), s in carried.items()]
    assert preview["layout"]["edges"] == expected
    assert [e[:3] for e in preview["layout"]["edges"]] == doc["layout"]["edges"]
    assert {e[3] for e in expected} >= {"3×3", "2×3"}
    assert {k: v for k, v in preview["layout"].items() if k != "edges"} == \
        {k: v for k, v in doc["layout"].items() if k != "edges"}


def test_a_small_tape_has_no_preview():
    previews = []
    record_chain(50).to_dict(preview=previews.append)
    assert previews == []


def svg_tree(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def test_svg_has_one_element_per_node_and_edge_and_the_labels():
    doc = scalar_doc()
    root = svg_tree(to_svg(doc))
    ids = [el.get("data-node-id") for el in root.iter() if el.get("data-node-id")]
    assert sorted(ids) == sorted(n["id"] for n in doc["nodes"])
    assert len([el for el in root.iter(SVG + "path") if el.get("class") == "edge"]) == len(doc["edges"])
    texts = {el.text for el in root.iter(SVG + "text")}
    assert {"x", "w", "Mul", "Sin", "AddV2"} <= texts


def test_svg_texts_are_at_least_11px_and_names_fit_their_boxes():
    """A Keras step's drawing: no text under 11 px; a name longer than its box (the loss's
    SparseSoftmaxCrossEntropyWithLogits) is shortened with an ellipsis to fit inside it."""
    from tapegrad.graph.svg import CHAR_W
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(3)])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    with capture() as cap:
        with tf.GradientTape() as tape:
            loss = loss_fn(np.array([0, 2]), model(np.ones((2, 4), np.float32)))
        tape.gradient(loss, model.trainable_variables)
    root = svg_tree(to_svg(cap.to_dict()))
    texts = list(root.iter(SVG + "text"))
    assert texts and all(float(t.get("font-size", "12")) >= 11 for t in texts)
    shortened = 0
    for group in [root, *root.iter(SVG + "g")]:
        children = list(group)
        for box, text in zip(children, children[1:]):
            if box.tag != SVG + "rect" or not box.get("data-node-id") or text.tag != SVG + "text":
                continue
            font = "bold" if text.get("font-weight") == "bold" else text.get("font-size", "12")
            assert len(text.text) * CHAR_W[font] <= float(box.get("width")), text.text
            shortened += text.text.endswith("…")
    assert shortened >= 1       # the loss op's name


def test_svg_of_a_big_tape_draws_its_boxes():
    doc = chain(3_000)
    root = svg_tree(to_svg(doc))
    ids = [el.get("data-node-id") for el in root.iter() if el.get("data-node-id")]
    assert sorted(ids) == sorted([g["id"] for g in doc["groups"]] + ["v" + str(doc["nodes"]["id"][0])])
    edges = [el for el in root.iter(SVG + "path") if el.get("class") == "edge"]
    assert len(edges) == len(doc["layout"]["edges"])
    assert any(el.text and "×" in el.text for el in root.iter(SVG + "text"))


def test_repr_svg_is_the_svg_writers_drawing():
    x = tf.Variable(2.0, name="x")
    with tf.GradientTape() as tape:
        y = tf.exp(x) * x
    svg = tape._repr_svg_()
    root = svg_tree(svg)
    assert len([el for el in root.iter() if el.get("data-node-id")]) == 5   # x, Exp, t, Mul, t
    assert {"x", "Exp", "Mul"} <= {el.text for el in root.iter(SVG + "text")}


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide has no subprocess")
def test_command_line_svg_is_what_repr_svg_draws(tmp_path):
    script = tmp_path / "demo.py"
    script.write_text("import sys\nimport tapegrad as tf\nx = tf.Variable(2.0, name='x')\n"
                      "with tf.GradientTape() as t:\n    y = tf.exp(x) * x\n"
                      "open(sys.argv[1], 'w').write(t._repr_svg_())\nprint('ran')\n")
    out, both, own = tmp_path / "out.svg", tmp_path / "both.svg", tmp_path / "repr.svg"
    for args in (["--svg", str(out)], ["-o", str(tmp_path / "g.json"), "--svg", str(both)]):
        proc = subprocess.run([sys.executable, "-m", "tapegrad", "graph", *args, str(script),
                               str(own)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert "ran" in proc.stdout
    root = svg_tree(out.read_text())
    assert {"x", "Exp", "Mul"} <= {el.text for el in root.iter(SVG + "text")}
    assert out.read_text() == both.read_text() == own.read_text()
    assert expand(json.loads((tmp_path / "g.json").read_text()))["version"] == 1
    proc = subprocess.run([sys.executable, "-m", "tapegrad", "graph", str(script)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--svg" in proc.stderr


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide has no subprocess")
def test_command_line_draws_a_training_loop_as_its_last_step_and_keeps_every_tape_in_json(tmp_path):
    """As the page: a loop's SVG (and DOT) is one step, the last complete one, said on stderr;
    the JSON still holds every tape."""
    script = tmp_path / "loop.py"
    script.write_text("import tensorflow as tf\nw = tf.Variable(2.0, name='w')\n"
                      "for step in range(5):\n    with tf.GradientTape() as tape:\n"
                      "        loss = tf.square(w - 1.0)\n    w.assign_sub(0.1 * tape.gradient(loss, w))\n")
    svg, dot, doc = tmp_path / "loop.svg", tmp_path / "loop.dot", tmp_path / "loop.json"
    proc = subprocess.run([sys.executable, "-m", "tapegrad", "graph", "-o", str(doc), "--svg", str(svg),
                           str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "loop.svg: 6 nodes, 5 edges, 1 tape(s) (One training step shown: the last complete one " \
           "(tape 5 of 5 recorded).)" in proc.stderr
    assert len(expand(json.loads(doc.read_text()))["tapes"]) == 5
    texts = [el.text for el in svg_tree(svg.read_text()).iter(SVG + "text")]
    assert texts.count("Square") == 1 and "w" in texts
    proc = subprocess.run([sys.executable, "-m", "tapegrad", "graph", "-o", str(dot), str(script)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "1 tape(s) (One training step shown" in proc.stderr, proc.stderr


@pytest.mark.skipif(sys.platform in ("emscripten", "win32"), reason="no subprocess / no SIGINT")
def test_command_line_stopped_with_ctrl_c_writes_the_graph_so_far_quietly(tmp_path):
    """Ctrl-C (a real SIGINT) during a training script: a quiet "Stopped at line N of ..." on
    stderr (N the script's line running: the sleep, or a step's line if the signal came during
    one), no traceback, the last complete step drawn, exit status 130 as a shell gives."""
    import signal
    script = tmp_path / "slow.py"
    script.write_text("import time\nimport tensorflow as tf\nw = tf.Variable(2.0, name='w')\n"
                      "for step in range(400):\n    with tf.GradientTape() as tape:\n"
                      "        loss = tf.square(w - 1.0)\n    w.assign_sub(0.1 * tape.gradient(loss, w))\n"
                      "    if step == 2:\n        print('training', flush=True)\n    time.sleep(0.05)\n")
    svg = tmp_path / "slow.svg"
    proc = subprocess.Popen([sys.executable, "-m", "tapegrad", "graph", "-o", str(svg), str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "training\n"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    stopped = re.search(rf"Stopped at line (\d+) of {re.escape(str(script))}\.", err)
    assert stopped and int(stopped.group(1)) in (5, 6, 7, 8, 9, 10), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    shown = re.search(r"1 tape\(s\) \(One training step shown: the last complete one \(tape (\d+) of \1", err)
    assert shown and 3 <= int(shown.group(1)) < 400, err
    texts = [el.text for el in svg_tree(svg.read_text()).iter(SVG + "text")]
    assert texts.count("Square") == 1 and "w" in texts


@pytest.mark.skipif(sys.platform == "emscripten", reason="Pyodide has no subprocess")
def test_command_line_json_of_a_big_tape_is_one_compact_line(tmp_path):
    """A big tape's JSON is written without indentation (json's indenting encoder is pure Python:
    a 200,000-op tape took twice the time and memory); a small one stays indented."""
    texts = {}
    for ops in (5, 600):
        script = tmp_path / f"chain{ops}.py"
        script.write_text("import tapegrad as tf\nx = tf.Variable(1.0, name='x')\n"
                          "with tf.GradientTape() as t:\n    y = x\n"
                          f"    for _ in range({ops}):\n        y = y * 1.0001\n"
                          "t.gradient(y, x)\n")
        out = tmp_path / f"chain{ops}.json"
        proc = subprocess.run([sys.executable, "-m", "tapegrad", "graph", str(script), "-o", str(out)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        texts[ops] = out.read_text()
    assert "\n " in texts[5]
    assert "\n" not in texts[600] and json.loads(texts[600])["layout"]["collapsed"]
    assert len(expand(json.loads(texts[600]))["nodes"]) == 3 * 600 + 1



def test_the_workers_warm_up_exports_a_big_tape_and_its_preview(monkeypatch):
    """The playground worker's idle warm-up (playground_runtime.graph.warm_up): a big tape
    recorded and exported as a run's would be, its preview first, the texts thrown away."""
    import importlib

    from test_web_examples import runtime   # the playground's runtime, imported from web/python
    import tapegrad.graph.export as export
    graph = importlib.import_module(runtime.__name__ + ".graph")
    import tapegrad.graph.compact as compact_module
    written, boxed = [], []
    monkeypatch.setattr(export, "to_json", lambda doc: written.append(doc) or "")
    real = compact_module.box_view
    monkeypatch.setattr(compact_module, "box_view",
                        lambda doc, preview: boxed.append((doc, preview)) or real(doc, preview))
    assert graph.warm_up(ops=600) is None
    # the preview written first, then the page's box view made of the whole document
    [preview] = written
    [(whole, given)] = boxed
    assert given is preview and preview["preview"] and whole["layout"]["collapsed"]
    assert whole["summarized"]["nodes"] == 3 * 600 + 1
    assert graph.kept["doc"] is None       # thrown away


def _keras_free_loop(ops):
    """A tape whose ops fall into several boxes: a chain, a sum and a product under name scopes,
    recorded by a persistent tape with one gradient call per source."""
    with capture() as cap:
        x = tf.Variable(np.ones(3, np.float32), name="x")
        w = tf.Variable(2.0, name="w")
        with tf.GradientTape(persistent=True) as tape:
            y = x
            with tf.name_scope("chain"):
                for _ in range(ops):
                    y = y * 1.0001
            with tf.name_scope("head"):
                loss = tf.reduce_sum(y) * w
        tape.gradient(loss, x)
        tape.gradient(loss, w)
    return cap


def test_a_big_tapes_box_view_has_the_boxes_steps():
    """The page's document of a big tape (docs/graph-json.md, "The box view"): the preview's
    drawing with each tape's steps as runs of one box's ops; replaying them lights the same boxes
    and edges as the whole document's events, and their counts add up to its steps."""
    cap = _keras_free_loop(400)
    previews = []
    doc = cap.to_dict(max_nodes=300, preview=previews.append)
    [preview] = previews
    view = box_view(doc, preview)
    text = json.dumps(view, allow_nan=False)
    assert len(text) < 20_000 and view["boxes"] is True and "preview" not in view
    assert {k: v for k, v in view.items() if k not in ("tapes", "boxes")} == \
        {k: v for k, v in preview.items() if k not in ("tapes", "preview")}
    full = expand(doc)
    box_of = {m: g["id"] for g in full["groups"] for m in g["nodes"]}
    drawn = {n["id"] for n in preview["nodes"]}
    item = lambda i: box_of.get(i, i if i in drawn else None)     # noqa: E731
    edges = {(a, b) for a, b, *_ in preview["layout"]["edges"]}
    for whole, boxed in zip(full["tapes"], view["tapes"]):
        assert sum(s["count"] for s in boxed["forward"]) == len(whole["forward"])
        runs = [item(s["op"]) for s in whole["forward"]]
        assert [s["op"] for s in boxed["forward"]] == [r for k, r in enumerate(runs) if k == 0 or runs[k - 1] != r]
        assert len(whole["gradients"]) == len(boxed["gradients"]) == 2
        for wc, bc in zip(whole["gradients"], boxed["gradients"]):
            assert sum(e["count"] for e in bc["events"]) == len(wc["events"])
            assert [r["node"] for r in bc["results"]] == [item(r["node"]) for r in wc["results"]]
            assert [t["node"] for t in bc["targets"]] == [item(t["node"]) for t in wc["targets"]]
            sent = {(item(c["to"]), item(e["op"])) for e in wc["events"] for c in e["contributions"]
                    if not c.get("pruned") and item(c["to"]) != item(e["op"])}
            assert {(c["to"], e["op"]) for e in bc["events"] for c in e["contributions"]
                    if not c.get("pruned")} == sent
            assert sent <= edges            # every step lights a drawn edge
    assert len(view["groups"]) >= 2


def test_a_box_lists_its_members_in_pages():
    cap = _keras_free_loop(400)
    doc = cap.to_dict(max_nodes=300)
    full = expand(doc)
    group = max(full["groups"], key=lambda g: len(g["nodes"]))
    first = box_members(doc, group["id"], 0, 50)
    later = box_members(doc, group["id"], 50, 1000)
    assert first["total"] == later["total"] == len(group["nodes"]) > 1000 // 2
    ids = [m["id"] for m in first["members"] + later["members"]]
    assert ids == group["nodes"][:1050]
    nodes = {n["id"]: n for n in full["nodes"]}
    for m in first["members"]:
        n = nodes[m["id"]]
        assert m["kind"] == n["kind"] and m.get("op") == n.get("op") and m.get("line") == n.get("line")
        assert m.get("shape") == (n.get("value") or {}).get("shape")
    assert box_members(doc, "u:nope")["total"] == -1


def test_the_playground_sends_a_big_tapes_box_view_and_lists_its_boxes():
    """playground_runtime.graph: a big tape's "graph" message is its box view (the whole
    document stays in the worker, which lists a box's members); a small tape's is whole."""
    import importlib

    from test_web_examples import runtime
    graph = importlib.import_module(runtime.__name__ + ".graph")
    sent = []
    graph.send_graph(lambda kind, text: sent.append((kind, json.loads(text))), _keras_free_loop(700))
    kinds = [k for k, _ in sent]
    assert kinds[:2] == ["graph-preview", "graph"]
    doc = sent[1][1]
    assert doc["boxes"] and doc["version"] == 1 and doc["tapes"][0]["gradients"]
    box = doc["groups"][0]["id"]
    listed = json.loads(graph.graph_members(box, 0, 10))
    assert listed["total"] > 10 and len(listed["members"]) == 10
    sent.clear()
    graph.send_graph(lambda kind, text: sent.append((kind, json.loads(text))), _keras_free_loop(3))
    assert [k for k, _ in sent] == ["graph"] and "boxes" not in sent[0][1]
    assert json.loads(graph.graph_members(box))["total"] == -1
