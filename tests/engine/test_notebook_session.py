"""A notebook's cells share one namespace in the playground runtime (Session.run(notebook=...)):
"fresh" starts it, "keep" goes on in it, a plain run keeps nothing. Runs natively and inside Pyodide."""
from test_web_examples import runtime  # noqa: E402  (the playground's Python side)


def session():
    return runtime.Session(lambda kind, payload: None, report=True)


def test_cells_share_names_until_a_fresh_cell():
    s = session()
    assert s.run("import tensorflow as tf\nx = tf.Variable(3.0)", notebook="fresh")["ok"]
    assert s.run("with tf.GradientTape() as t:\n    y = x * x\ng = t.gradient(y, x)\nassert float(g) == 6.0",
                 notebook="keep")["ok"]
    assert s.run("assert float(g) == 6.0", notebook="keep")["ok"]
    status = s.run("g", notebook="fresh")
    assert status["error"]["type"] == "NameError"


def test_a_failing_cell_keeps_the_session():
    s = session()
    assert s.run("a = 1", notebook="fresh")["ok"]
    assert s.run("a = 2\nraise ValueError('no')", notebook="keep")["error"]["type"] == "ValueError"
    assert s.run("def f(:\n", notebook="keep")["error"]["type"] == "SyntaxError"
    assert s.run("assert a == 2", notebook="keep")["ok"]


def test_a_script_run_keeps_nothing():
    s = session()
    assert s.run("b = 1", notebook="fresh")["ok"]
    assert s.run("b = 5")["ok"]
    assert s.run("b", notebook="keep")["error"]["type"] == "NameError"
