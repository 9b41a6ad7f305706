"""The playground runtime's report for the scripting API (docs/scripting.md): a reporting Session's
status carries the error's message and the run's named gradients (web/python/playground_runtime/
gradients.py); a plain Session's status is as before. Runs natively and inside Pyodide.
"""
import importlib

from test_web_examples import runtime  # noqa: E402  (the playground's Python side)

gradients_module = importlib.import_module("playground_runtime.gradients")


def run(source, report=True):
    return runtime.Session(lambda kind, payload: None, report=report).run(source)


NAMED = """
import tensorflow as tf
x = tf.Variable(3.0)
w = tf.Variable([[1.0, 2.0]])
u = tf.Variable(1.0)
with tf.GradientTape(persistent=True) as tape:
    y = x * x
    z = tf.reduce_sum(w * w)
dx = tape.gradient(y, x)
dw, dx_again = tape.gradient(z, [w, x])
grads = tape.gradient(z, [w, x])
by_name = tape.gradient(z, {"w": w})
none = tape.gradient(y, u)
doubled = dx * 2
_private = dx
def step():
    with tf.GradientTape() as t:
        q = x * 4.0
    local = t.gradient(q, x)
    return local
returned = step()
for i in range(3):
    with tf.GradientTape() as t:
        q = x * float(i)
    last = t.gradient(q, x)
"""


def test_named_gradients_are_module_level_names_bound_to_gradient_results():
    status = run(NAMED)
    assert status["ok"] and status["gradients_omitted"] == []
    assert status["gradients"] == {
        "dx": 6.0, "dw": [[2.0, 4.0]], "grads": [[[2.0, 4.0]], None], "by_name": {"w": [[2.0, 4.0]]},
        "returned": 4.0, "last": 2.0,
    }   # dx_again is None (z does not use x): not named; nor doubled, _private, none


def test_the_gradient_method_is_restored_after_each_run():
    from tapegrad.tape import GradientTape
    original = GradientTape.__dict__["gradient"]
    run(NAMED)
    run("raise ValueError('no')")
    assert GradientTape.__dict__["gradient"] is original


def test_errors_carry_their_message_and_gradients_made_before_them():
    status = run("import tensorflow as tf\nx = tf.Variable(2.0)\nwith tf.GradientTape() as t:\n"
                 "    y = x * x\ng = t.gradient(y, x)\ntf.reshape(tf.constant([1, 2, 3]), [2])\n")
    assert status["error"]["type"] == "InvalidArgumentError" and status["error"]["line"] == 6
    assert status["error"]["message"].startswith("Input to reshape is a tensor with 3 values")
    assert status["gradients"] == {"g": 4.0}


def test_gradients_past_the_budget_are_listed_as_omitted(monkeypatch):
    monkeypatch.setattr(gradients_module, "MAX_VALUES", 5)
    status = run("import tensorflow as tf\nx = tf.Variable([1.0, 2.0, 3.0])\n"
                 "with tf.GradientTape(persistent=True) as t:\n    y = tf.reduce_sum(x * x)\n"
                 "a = t.gradient(y, x)\nb = t.gradient(y, x)\n")
    assert status["gradients"] == {"a": [2.0, 4.0, 6.0]} and status["gradients_omitted"] == ["b"]


def test_complex_gradients_are_real_imaginary_pairs():
    status = run("import tensorflow as tf\nz = tf.Variable(1 + 2j)\nwith tf.GradientTape() as t:\n"
                 "    w = z * z\ngz = t.gradient(w, z)\n")
    assert status["gradients"] == {"gz": [2.0, -4.0]}


def test_a_plain_session_reports_as_before():
    assert run("x = 1", report=False) == {"ok": True, "error": None, "interrupted": False}
    status = run("1 / 0", report=False)
    assert status["error"] == {"type": "ZeroDivisionError", "line": 1}


def test_tracebacks_do_not_show_the_gradient_wrapper():
    """An error inside tape.gradient reads the same whether the session reports or not."""
    source = ("import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
              "    y = x * x\nt.gradient(y, x)\nt.gradient(y, x)\n")
    texts = []
    for report in (False, True):
        sent = []
        runtime.Session(lambda kind, payload: sent.append((kind, payload)), report=report).run(source)
        texts.append([payload for kind, payload in sent if kind == "traceback"])
    assert texts[0] == texts[1] and len(texts[0]) == 1
    assert "the playground" not in texts[1][0] and "frames inside tapegrad" in texts[1][0]
