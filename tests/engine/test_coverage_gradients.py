"""docs/coverage.md marks "gradient checked" only for functions a recorded case actually
differentiates through (build/coverage.py runs the gradient cases on tapegrad and follows which
functions' results a cotangent reached); classes keep the case-level mark."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "emscripten" or not (ROOT / "build").is_dir(),
                                reason="build/coverage.py runs natively, from the repository")


def _case(tf):
    x = tf.Variable([1.0, 2.0])
    unused = tf.math.cos(x)                      # computed from x, but not part of y
    with tf.GradientTape() as tape:
        n = tf.cast(tf.argmax(x), tf.float32)    # an integer op: no gradient flows through it
        y = tf.reduce_sum(tf.math.sin(x)) * n + tf.size(x, out_type=tf.float32)
    tape.gradient(y, x)
    return unused


def _raises_after_a_gradient(tf):
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = tf.square(x)
    tape.gradient(y, x)
    raise ValueError("a case that raises on purpose after its gradient")


def test_only_functions_a_gradient_flowed_through_are_marked(coverage_script):
    found = coverage_script.differentiated_names([_case, _raises_after_a_gradient])
    assert {"tf.math.sin", "tf.reduce_sum", "tf.square"} <= found
    assert not found & {"tf.math.cos", "tf.argmax", "tf.cast", "tf.size"}, found


def test_functions_are_followed_and_classes_keep_the_case_mark(coverage_script):
    assert coverage_script._is_function("tf.math.sin")
    assert not coverage_script._is_function("tf.keras.layers.Dense")
    assert not coverage_script._is_function("tf.GradientTape")


def test_a_decorators_function_is_followed_too(coverage_script):
    def case(tf):
        x = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            y = tf.recompute_grad(lambda v: v * v)(x)
        tape.gradient(y, x)
    assert "tf.recompute_grad" in coverage_script.differentiated_names([case])


def test_the_table_no_longer_marks_an_integer_function_as_differentiated():
    text = (ROOT / "docs" / "coverage.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `argsort` | function"))
    cells = [c.strip() for c in row.split("|")]
    assert cells[3:6] == ["✓", "✓", ""], row   # implemented, checked, not gradient checked
