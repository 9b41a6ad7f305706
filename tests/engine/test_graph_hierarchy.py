"""The graph's groups (issue 28, hierarchy): ops are grouped by Keras model, layer and sub-layer,
by tf.function call and by tf.name_scope, nested as they ran; each group says what it stands for
(docs/graph-json.md, groups). The page collapses and lays them out (web/src/graph/model.js)."""
from pathlib import Path

import numpy as np

import tapegrad as tf
from tapegrad.graph import capture
from tapegrad.graph.collapsed import group_kind, group_label, group_path


def groups_of(fn):
    with capture() as cap:
        fn()
    doc = cap.to_dict()
    return {g["id"]: g for g in doc["groups"]}, doc


def tail(gid):
    return gid.rsplit("/", 1)[-1]


def test_a_sequential_models_layers_are_groups_inside_the_model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(4, name="hidden"),
                                 tf.keras.layers.Dense(1, name="out")], name="net")
    x = tf.constant(np.ones((2, 3), "float32"))

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
        tape.gradient(loss, model.trainable_variables)

    groups, doc = groups_of(step)
    top = groups["g:model:Sequential:net"]      # the model is the group (not the function step)
    assert (top["kind"], top["label"], top["parent"]) == ("model", "net (Sequential)", None)
    layers = sorted(tail(g["id"]) for g in groups.values() if g["parent"] == top["id"])
    assert layers == ["Dense:hidden", "Dense:out"]
    hidden = groups[top["id"] + "/Dense:hidden"]
    assert (hidden["kind"], hidden["label"]) == ("layer", "hidden (Dense)")
    ops = {n["id"]: n for n in doc["nodes"] if n["kind"] == "op"}
    assert "MatMul" in {ops[m]["op"] for m in hidden["nodes"] if m in ops}
    assert "g:function:step" in groups                  # the loss, computed in step() itself
    # the model's group names nothing: the variables keep Keras's names
    assert sorted(v.name for v in model.trainable_variables) == [
        "hidden/bias:0", "hidden/kernel:0", "out/bias:0", "out/kernel:0"]


class Block(tf.keras.layers.Layer):
    """A layer made of two sub-layers."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.inner = tf.keras.layers.Dense(2, name="inner")
        self.gate = tf.keras.layers.Dense(2, activation="sigmoid", name="gate")

    def call(self, x):
        return self.inner(x) * self.gate(x)


def test_a_functional_model_holds_layers_that_hold_sub_layers():
    inputs = tf.keras.Input(shape=(2,))
    h = Block(name="block")(inputs)
    outputs = tf.keras.layers.Add(name="skip")([h, inputs])
    model = tf.keras.Model(inputs, outputs, name="res")
    x = tf.constant([[1.0, 2.0]])

    def step():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(model(x))
        tape.gradient(y, model.trainable_variables)

    groups, _ = groups_of(step)
    # Block.call's own ops (the product) are Block's: its call method is no group of its own
    chain = ["model:Functional:res", "Block:block", "Dense:gate"]
    ids = ["g:" + "/".join(chain[:i + 1]) for i in range(len(chain))]
    assert all(i in groups for i in ids), sorted(groups)
    assert [groups[i]["parent"] for i in ids] == [None] + ids[:-1]
    assert [groups[i]["kind"] for i in ids] == ["model", "layer", "layer"]
    assert ids[0] + "/Add:skip" in groups
    assert not any("function:call" in g for g in groups)


def test_tf_function_calls_and_name_scopes_are_groups():
    w = tf.Variable(2.0, name="w")

    @tf.function
    def train_step():
        with tf.GradientTape() as tape:
            with tf.name_scope("loss"):
                with tf.name_scope("square"):
                    y = w * w
                z = y + 1.0
        return tape.gradient(z, w)

    groups, _ = groups_of(train_step)
    # the function's own call: one group (not "train_step()" around "train_step (tf.function)")
    top = groups["g:tf.function:train_step"]
    assert (top["kind"], top["label"], top["parent"]) == ("tf.function", "train_step (tf.function)", None)
    loss = groups["g:tf.function:train_step/name_scope:loss"]
    assert (loss["kind"], loss["label"], loss["parent"]) == ("name_scope", "loss (name_scope)", top["id"])
    assert groups["g:tf.function:train_step/name_scope:loss/name_scope:square"]["parent"] == loss["id"]
    assert not any(g.startswith("g:function:") for g in groups)


def test_a_name_scope_inside_the_users_function_nests_under_it():
    x = tf.Variable(1.0, name="x")

    def forward():
        with tf.name_scope("body"):
            return tf.sin(x) * 2.0

    def run():
        with tf.GradientTape() as tape:
            y = forward()
        tape.gradient(y, x)

    groups, _ = groups_of(run)
    assert groups["g:function:forward/name_scope:body"]["parent"] == "g:function:forward"
    assert groups["g:function:forward"]["kind"] == "function"
    assert groups["g:function:forward/name_scope:body"]["kind"] == "name_scope"


def test_name_scope_keeps_naming_variables_and_restores_the_recording_scope():
    from tapegrad.recording import scope_stack
    before = list(scope_stack)
    with tf.name_scope("outer"):
        with tf.name_scope("inner"):
            v = tf.Variable(1.0, name="v")
            assert list(scope_stack)[-2:] == ["name_scope:outer", "name_scope:inner"]
    assert v.name == "outer/inner/v:0"
    assert list(scope_stack) == before


def test_group_parts():
    assert group_path("f", ("Dense:d",)) == ["function:f", "Dense:d"]
    assert group_path("f", ("model:Sequential:m", "Dense:d")) == ["model:Sequential:m", "Dense:d"]
    assert group_path("call", ("Block:b",)) == ["Block:b"]
    assert group_path("f", ("tf.function:f", "name_scope:s")) == ["tf.function:f", "name_scope:s"]
    assert group_path("<module>", None) == []
    assert [group_kind(p) for p in ("function:f", "model:Sequential:m", "Dense:d", "name_scope:s",
                                    "tf.function:f")] == ["function", "model", "layer", "name_scope",
                                                          "tf.function"]
    assert group_label("model:Functional:res") == "res (Functional)"


def test_a_big_keras_tape_is_boxed_by_the_models_layers():
    """Past the export's node limit (the collapsed view), the boxes follow the same groups: one
    box for the whole model would say nothing, so its layers are the boxes."""
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(3, name="a"),
                                 tf.keras.layers.Dense(3, name="b")], name="deep")
    x = tf.constant(np.ones((1, 3), "float32"))
    with capture() as cap:
        with tf.GradientTape() as tape:
            y = x
            for _ in range(10):
                y = model(y)
        tape.gradient(y, model.trainable_variables)
    doc = cap.to_dict(max_nodes=40)
    assert doc["version"] == 2 and doc["summarized"]["boxes"] == 20
    assert [g["label"] for g in doc["groups"]] == ["a (Dense)", "b (Dense)"] * 10


# -- the static drawing (svg.py through view.py) starts as the page does ---------------------------
SVG_NS = "{http://www.w3.org/2000/svg}"


def drawn(svg_text):
    """{data-node-id: data-kind} of the drawn items, the frames' group ids and the edge texts."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(svg_text)
    items = {el.get("data-node-id"): el.get("data-kind") for el in root.iter() if el.get("data-node-id")}
    frames = [el.get("data-group-id") for el in root.iter() if el.get("data-group-id")]
    return items, frames, [el.text or "" for el in root.iter(SVG_NS + "text")]


KERAS_STEP = Path(__file__).parent / "graph_programs" / "keras_step.py"


def keras_step_doc():
    """The groups and document of graph_programs/keras_step.py's step."""
    tf.keras.backend.clear_session()
    with capture() as cap:
        exec(compile(KERAS_STEP.read_text(), str(KERAS_STEP), "exec"), {"__name__": "__main__"})
    doc = cap.to_dict()
    return {g["id"]: g for g in doc["groups"]}, doc


def test_the_static_svg_draws_a_keras_step_with_its_layers_as_boxes_in_the_models_frame():
    from tapegrad.graph.svg import to_svg
    from tapegrad.graph.view import COLLAPSE_ABOVE, visible_graph
    groups, doc = keras_step_doc()
    assert len(doc["nodes"]) > COLLAPSE_ABOVE
    items, frames, texts = drawn(to_svg(doc))
    layers = {gid for gid, g in groups.items() if g["kind"] == "layer"}
    boxes = {gid for gid, kind in items.items() if kind == "group"}
    assert layers <= boxes          # and the loss's function, a group with no groups inside
    assert all(groups[b]["kind"] == "layer" or not any(g["parent"] == b for g in groups.values())
               for b in boxes)
    assert "g:model:Sequential:net" in frames          # the model stays open around its layers
    hidden_ops = {m for gid in layers for m in groups[gid]["nodes"]}
    assert not hidden_ops & set(items)                  # no op of a closed layer is drawn
    assert {"hidden (Dense)", "mid (Dense)", "out (Dense)"} <= set(texts)
    # edges between boxes say what they carry: the activations between layers are 5×8
    assert "5×8" in texts
    view = visible_graph(doc)
    boxes = [it for it in view["items"]]
    for i, a in enumerate(boxes):                       # no two drawn boxes overlap
        for b in boxes[i + 1:]:
            assert (abs(a["x"] - b["x"]) * 2 >= a["w"] + b["w"]
                    or abs(a["y"] - b["y"]) * 2 >= a["h"] + b["h"]), (a["id"], b["id"])


def test_the_static_svg_of_a_small_graph_is_every_node():
    from tapegrad.graph.svg import to_svg
    x = tf.Variable(2.0, name="x")
    with capture() as cap:
        with tf.GradientTape() as tape:
            with tf.name_scope("outer"):
                y = tf.exp(x) * x
        tape.gradient(y, x)
    doc = cap.to_dict()
    items, frames, _ = drawn(to_svg(doc))
    assert set(items) == {n["id"] for n in doc["nodes"]}    # a name scope in a small graph is open
    assert frames and all(f.startswith("g:function:") for f in frames[:-1])
    assert frames[-1].endswith("name_scope:outer")       # open frames, outermost first
