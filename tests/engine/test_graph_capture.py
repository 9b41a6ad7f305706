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


def _loop(cap_of, steps, extra_tapes=0):
    """A training loop of ``steps`` steps (one gradient line), then ``extra_tapes`` tapes asked
    on two other lines in turn."""
    with cap_of as cap:
        w = tf.Variable([1.0, 2.0], name="w")
        for _ in range(steps):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * w)
            w.assign_sub(0.1 * tape.gradient(loss, w))
        for i in range(extra_tapes):
            with tf.GradientTape() as other:
                y = w * float(i)
            other.gradient(y, w) if i % 2 else other.gradient(tf.reduce_sum(y), w)
    return cap


def test_a_loop_past_keep_tapes_lets_go_of_its_older_steps_records_only_when_asked():
    from tapegrad.graph import capturing
    whole = _loop(capture(), capturing.KEEP_TAPES + 10)
    assert not whole.let_go and all(t.observer.released for t in whole.tapes)
    cap = _loop(capture(let_go_steps=True), capturing.KEEP_TAPES + 10)
    n = len(cap.tapes)
    assert cap.let_go == set(range(n - 2))            # the last two steps stay whole
    assert all(cap.tapes[i].observer.released is None for i in cap.let_go)
    assert all(cap.tapes[i].observer.released for i in (n - 2, n - 1))
    assert all(call.records == () and call.events == [] for i, call, *_ in cap.calls if i in cap.let_go)
    assert all(call.results[0] is not None for _, call, *_ in cap.calls)   # the gradients stay
    doc = cap.to_dict()                               # the steps left are exported, renumbered
    assert len(doc["tapes"]) == 2
    assert len(doc["nodes"]) == len(_loop(capture(), 2).to_dict()["nodes"])


def test_a_loop_of_big_steps_lets_go_before_keep_tapes(monkeypatch):
    from tapegrad.graph import capturing
    monkeypatch.setattr(capturing, "KEEP_BYTES", 100)     # each step's outputs: a few floats
    cap = _loop(capture(let_go_steps=True), 6)
    assert cap.let_go == {0, 1, 2, 3} and len(cap.to_dict()["tapes"]) == 2


def test_a_short_loop_and_a_loop_with_few_tapes_keep_every_step():
    from tapegrad.graph import capturing
    short = _loop(capture(let_go_steps=True), capturing.KEEP_TAPES - 1, extra_tapes=1)
    assert not short.let_go and len(short.to_dict()["tapes"]) == capturing.KEEP_TAPES
    # persistent tapes keep their records (the user may ask again): nothing is let go
    with capture(let_go_steps=True) as cap:
        w = tf.Variable(1.0)
        for _ in range(capturing.KEEP_TAPES + 5):
            with tf.GradientTape(persistent=True) as tape:
                y = w * w
            tape.gradient(y, w)
    assert not cap.let_go and len(cap.to_dict()["tapes"]) == capturing.KEEP_TAPES + 5
