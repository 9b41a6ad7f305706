"""Errors in the page (issue 16, item 7): TensorFlow's class and message first, the user's line
marked in the editor, only the user's frames with the engine's folded into one line."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    play = as_playground(module_page(""))
    play.wait_ready()
    return play


def test_an_engine_error_shows_tensorflows_class_first_and_marks_the_users_line(pg, shot):
    page = pg.pg
    pg.set_code("import tensorflow as tf\n\nx = tf.zeros([6])\n"
                "def flatten_in_fours(t):\n    return tf.reshape(t, [4, -1])\n\nflatten_in_fours(x)\n")
    assert pg.run() == "error"
    out = pg.last_run_output()
    first = out.splitlines()[1]                 # the line after "▶ Run N"
    assert first.startswith("InvalidArgumentError: Input to reshape is a tensor with 6 values")
    assert "(tf.errors.InvalidArgumentError)" in first
    assert "frames inside tapegrad" in out
    assert "engine/tapegrad" not in out and "site-packages" not in out and "playground_runtime" not in out
    marked = page.locator("[data-testid=editor] .cm-mark-error")
    assert marked.count() == 1 and "return tf.reshape(t, [4, -1])" in marked.inner_text()
    links = page.locator("[data-testid=console] .line-link")
    assert [links.nth(i).get_attribute("data-line") for i in range(links.count())][-2:] == ["7", "5"]
    shot(page, "error-invalid-argument")


def test_a_keras_error_deep_in_fit_shows_only_the_users_frame(pg):
    pg.set_code("import numpy as np\nimport tensorflow as tf\n"
                "model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])\n"
                "model.compile(optimizer='sgd', loss='mse')\n"
                "model.fit(np.zeros((4, 5), 'float32'), np.zeros((4, 2), 'float32'), verbose=0)\n")
    assert pg.run() == "error"
    out = pg.last_run_output()
    lines = out.splitlines()
    assert lines[1].split(":")[0].endswith("Error"), out
    user_frames = [line for line in lines if line.strip().startswith('File "')]
    assert user_frames == ['  File "main.py", line 5, in <module>'], out
    assert any(line.startswith("  … ") and "inside tapegrad" in line for line in lines)


def test_input_says_the_playground_has_no_keyboard_input(pg):
    pg.set_code("name = input('Your name? ')\nprint('hello', name)\n")
    assert pg.run() == "error"
    out = pg.last_run_output()
    assert "Your name? " in out
    assert "EOFError: input() has nothing to read here" in out and 'name = "Ada"' in out, out
    pg.set_code("print('after', 1 + 1)\n")     # the page goes on as before
    assert pg.run() == "ok" and "after 2" in pg.last_run_output()
