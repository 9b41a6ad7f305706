"""The traced graphs of tf.functions as graph documents (tapegrad.graph.function_view)."""
import json
import linecache

import tapegrad as tf
from tapegrad.graph.compact import compact, expand
from tapegrad.graph.function_view import function_graph_doc, traced_functions


def _traced_twice():
    w = tf.Variable([[0.5], [-1.0]], name="w")

    @tf.function
    def predict(x):
        return tf.sigmoid(tf.matmul(x, w) + 1.0)
    predict(tf.constant([[1.0, 2.0]]))
    predict(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    predict(tf.constant([[0.0, 2.0], [3.0, 1.0]]))     # same shape: no trace
    return predict


def test_each_trace_in_order_with_the_retrace_marked():
    (entry,) = traced_functions([_traced_twice(), "not a function", 3])
    assert entry["name"] == "predict"
    assert [t["text"] for t in entry["traces"]] == [
        "trace 1: x: TensorSpec(shape=(1, 2), dtype=tf.float32, name=None)",
        "trace 2 (retrace): x: TensorSpec(shape=(2, 2), dtype=tf.float32, name=None)"]
    assert [t["retrace"] for t in entry["traces"]] == [False, True]
    json.dumps(entry, allow_nan=False)        # strict JSON, as the page's message is


def test_the_graph_holds_the_traced_ops_with_their_edges():
    doc = traced_functions([_traced_twice()])[0]["traces"][1]["graph"]
    by_id = {n["id"]: n for n in doc["nodes"]}
    ops = [n["label"] for n in doc["nodes"] if n["kind"] == "op"]
    assert ops == ["ReadVariableOp", "MatMul", "AddV2", "Sigmoid", "Identity"]
    x = next(n for n in doc["nodes"] if n["kind"] == "watched")
    assert (x["label"], x["value"]["shape"], x["value"]["dtype"]) == ("x", [2, 2], "float32")
    matmul = next(n["id"] for n in doc["nodes"] if n["label"] == "MatMul")
    into = sorted((e["index"], by_id[e["source"]]["label"]) for e in doc["edges"]
                  if e["target"] == matmul)
    assert into == [(0, "x"), (1, "ReadVariableOp:0")]
    assert all(e["source"] in by_id and e["target"] in by_id for e in doc["edges"])
    for e in doc["edges"]:                    # laid out left to right, as the tape's graph is
        assert by_id[e["source"]]["x"] < by_id[e["target"]]["x"]
    assert [by_id[s["op"]]["label"] for s in doc["tapes"][0]["forward"]] == \
        ["ReadVariableOp", "MatMul", "AddV2", "Sigmoid"]
    assert doc["tapes"][0]["gradients"] == []
    for n in doc["nodes"]:     # an op's box holds its whole type (the pane cuts a longer text)
        assert n["kind"] != "op" or n["w"] - 12 >= 6.6 * len(n["label"]), n
    assert expand(compact(doc))["nodes"] == doc["nodes"]   # the page's two forms


def test_a_concrete_function_s_own_graph():
    add = tf.function(lambda a, b: a * b + b)
    cf = add.get_concrete_function(tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.float32))
    doc = function_graph_doc(cf.graph, "lambda")
    assert [n["label"] for n in doc["nodes"] if n["kind"] == "op"] == ["Mul", "AddV2", "Identity"]
    assert [n["label"] for n in doc["nodes"] if n["kind"] == "watched"] == ["a", "b"]
    assert doc["tapes"][0]["label"] == "lambda"
    (entry,) = traced_functions([add])
    assert entry["traces"][0]["text"] == ("trace 1: a: TensorSpec(shape=(3,), dtype=tf.float32, "
                                          "name=None), b: TensorSpec(shape=(3,), dtype=tf.float32, "
                                          "name=None)")


def test_functions_that_never_traced_are_left_out():
    assert traced_functions([tf.function(lambda x: x)]) == []


def test_the_playground_sends_the_run_s_traced_functions_with_its_graph():
    # (send_graph alone: a whole Session would hook Keras's metrics for the rest of the process)
    from test_web_examples import EXAMPLES, Page, runtime
    import tapegrad.graph
    namespace = {"tf": tf}
    source = (EXAMPLES / "22_tf_function_graph.py").read_text().replace("import tensorflow as tf", "")
    linecache.cache["<tf-function-graph>"] = (len(source), None, source.splitlines(True), "")
    page = Page()
    with tapegrad.graph.capture() as cap:
        exec(compile(source, "<tf-function-graph>", "exec"), namespace)
    runtime.graph.send_graph(page, cap, namespace.values())
    (doc,) = page.of("graph")
    (entry,) = doc["functions"]
    assert entry["name"] == "f" and [t["retrace"] for t in entry["traces"]] == [False, True]
    assert "MatMul" in [n["label"] for n in entry["traces"][0]["graph"]["nodes"]]
    page = Page()
    runtime.graph.send_graph(page, cap, [])
    assert "functions" not in page.of("graph")[0]


def test_an_open_signature_s_graph_shows_unknown_sizes_and_setting_constants():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def flat(x):
        return tf.reshape(tf.nn.relu(x) * 2.0, [-1])
    doc = function_graph_doc(flat.get_concrete_function().graph, "flat")
    shapes = {n["label"]: n["value"]["shape"] for n in doc["nodes"] if n["kind"] in ("tensor", "watched")}
    assert shapes == {"x": [None, 3], "Relu:0": [None, 3], "Mul:0": [None, 3], "Reshape:0": [None]}
    constants = {n["label"]: n["value"]["shape"] for n in doc["nodes"] if n["kind"] == "constant"}
    assert constants["Reshape/shape"] == [1]               # the setting TensorFlow takes as an input
    json.dumps(doc, allow_nan=False)
