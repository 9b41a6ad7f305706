"""Fields of the captured JSON that the playground's graph panel reads: each op's group, the
line of every gradient call and the user's name for each tape."""
import tapegrad as tf
from tapegrad.graph import capture


def test_ops_and_outputs_of_a_layer_name_their_group():
    with capture() as cap:
        layer = tf.keras.layers.Dense(2, name="dense")
        x = tf.constant([[1., 2.]])
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(layer(x))
        tape.gradient(y, layer.trainable_variables)
    doc = cap.to_dict()
    group = next(g for g in doc["groups"] if g["label"] == "dense (Dense)")
    ops = {n["id"]: n for n in doc["nodes"] if n["kind"] == "op"}
    inside = {n for n in group["nodes"] if n in ops}
    assert {ops[n]["label"] for n in inside} == {"MatMul", "AddV2"}
    assert all(ops[n]["group"] == group["id"] for n in inside)
    # the Sum ran in this test function only: the function's group, the layer's parent
    (total,) = [op for op in ops.values() if op["label"] == "Sum"]
    assert total["group"] == group["parent"]
    assert group["parent"] == "g:function:test_ops_and_outputs_of_a_layer_name_their_group"


def test_gradient_calls_carry_their_line_and_tapes_their_user_names():
    with capture() as cap:
        x = tf.Variable(2.0)
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = x * x
            dy = inner.gradient(y, x)
        outer.gradient(dy, x)
    doc = cap.to_dict()
    by_name = {t["name"]: t for t in doc["tapes"]}
    assert set(by_name) == {"outer", "inner"}
    inner_line = by_name["inner"]["gradients"][0]["line"]
    outer_line = by_name["outer"]["gradients"][0]["line"]
    assert outer_line == inner_line + 1
    assert by_name["inner"]["gradients"][0]["kind"] == "gradient"


def test_jacobian_rows_share_the_line_of_the_jacobian_call():
    with capture() as cap:
        x = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = x * x
        tape.jacobian(y, x)
    rows = cap.to_dict()["tapes"][0]["gradients"]
    assert [r["row"] for r in rows] == [0, 1]
    assert len({r["line"] for r in rows}) == 1 and rows[0]["line"] is not None


def test_a_tape_without_gradient_calls_has_no_name():
    with capture() as cap:
        with tf.GradientTape() as unused:
            tf.constant(1.0) + 1.0
    assert cap.to_dict()["tapes"][0]["name"] is None
