"""The scripting API (docs/scripting.md): README.md's Playwright grader, run as README.md has it
(its text is taken from the README, so the two cannot drift), and what window.tapegrad.run,
element.run and the "tapegrad:run" event give: status, TensorFlow's error class and message,
stdout, stderr, the graph JSON and the named gradients; scripted runs queue.
"""
import json
import re
import subprocess
import sys
import textwrap

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, ROOT

SECTION = "## Driven by tests and autograders"


def readme_grader():
    """The README section's ```python block, as README.md has it."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", len(SECTION))]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the section has one Python example"
    return blocks[0]


def run_grader(tmp_path, url, code=None):
    """grade(url, code) of the README's example, in a process of its own (a Playwright of its
    own): (points, feedback)."""
    script = tmp_path / "grade.py"
    script.write_text(readme_grader())
    driver = textwrap.dedent(f"""
        import json, runpy, sys
        grader = runpy.run_path({str(script)!r})
        code = {code!r} if {code!r} is not None else grader["STUDENT_CODE"]
        print(json.dumps(grader["grade"]({url!r}, code, executable_path={CHROMIUM!r}, args={CHROMIUM_ARGS!r})))
    """)
    r = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return tuple(json.loads(r.stdout.strip().splitlines()[-1]))


def test_readme_grader_passes_a_right_answer(tmp_path, base_url):
    points, feedback = run_grader(tmp_path, base_url)
    assert points == 1 and feedback == "correct: dy/dx = 8.0", feedback


@pytest.mark.parametrize("code, feedback", [
    ("import tensorflow as tf\nx = tf.Variable(3.0)\nwith tf.GradientTape() as tape:\n"
     "    y = x**2\ndy_dx = tape.gradient(y, x)\n", "dy_dx should be 8.0, got 6"),
    ("import tensorflow as tf\ntf.reshape(tf.constant([1, 2, 3]), [2])\n",
     "InvalidArgumentError: Input to reshape is a tensor with 3 values, but the requested shape has 2"),
])
def test_readme_grader_fails_wrong_answers(tmp_path, base_url, code, feedback):
    points, text = run_grader(tmp_path, base_url, code)
    assert points == 0 and text.startswith(feedback), text


EXERCISE = """
import tensorflow as tf
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.matmul(tf.ones([1, 2]), w) + b)
dw, db = tape.gradient(loss, [w, b])
grads = tape.gradient
print("loss", float(loss))
import sys
print("to stderr", file=sys.stderr)
scaled = dw * 2
"""


@pytest.fixture(scope="module")
def playground(module_page):
    pg = module_page("")
    pg.wait_for_function("window.tapegrad && typeof window.tapegrad.run === 'function'")
    pg.evaluate("""() => { window.__runs = [];
                            addEventListener("tapegrad:run", (e) => window.__runs.push(e.detail)); }""")
    return pg


def test_page_run_resolves_with_the_result_and_the_event_carries_it(playground):
    result = playground.evaluate("code => window.tapegrad.run(code)", EXERCISE)
    assert result["status"] == "ok" and result["error"] is None
    assert result["stdout"] == "loss 10.0\n" and result["stderr"] == "to stderr\n"
    assert result["gradients"] == {"dw": [[1, 1], [1, 1]], "db": [1, 1]}   # not `scaled`, nor `grads`
    assert result["gradientsOmitted"] == []
    assert result["graph"]["version"] and len(result["graph"]["nodes"]) > 0
    assert playground.evaluate("window.__runs.at(-1)") == result
    # the run is the editor's code now, and the page's state says how it ended
    assert playground.evaluate("document.body.dataset.lastRun") == "ok"
    playground.wait_for_selector("[data-testid=editor] .cm-content")   # CodeMirror, once upgraded
    shown = playground.locator("[data-testid=editor] .cm-content").inner_text()
    assert "dw, db = tape.gradient" in shown


def test_page_run_reports_the_error_class_and_queues_runs(playground):
    results = playground.evaluate("""async () => Promise.all([
        window.tapegrad.run("print('first')"),
        window.tapegrad.run("import tensorflow as tf\\ntf.reshape(tf.constant([1, 2, 3]), [2])"),
        window.tapegrad.run("print('third')"),
    ])""")
    assert [r["status"] for r in results] == ["ok", "error", "ok"]
    assert results[0]["stdout"] == "first\n" and results[2]["stdout"] == "third\n"
    error = results[1]["error"]
    assert error["type"] == "InvalidArgumentError" and error["line"] == 2
    assert error["message"].startswith("Input to reshape is a tensor with 3 values")
    assert [r["stdout"] for r in playground.evaluate("window.__runs.slice(-3)")] == ["first\n", "", "third\n"]


def test_page_run_refuses_a_code_that_is_not_text(playground):
    message = playground.evaluate("() => window.tapegrad.run(42).then(() => 'ran', (e) => e.message)")
    assert "code must be a string" in message


def test_page_run_stopped_is_interrupted(playground):
    result = playground.evaluate("""async () => {
        const run = window.tapegrad.run("while True:\\n    pass\\n");
        await new Promise((r) => setTimeout(r, 1500));
        await window.tapegrad.stop();
        return run;
    }""")
    assert result["status"] == "interrupted" and result["error"] is None


def test_element_run_resolves_and_its_event_bubbles(page):
    pg = page("docs/embedding.html", viewport=(1100, 900))
    pg.wait_for_selector("tapegrad-playground[data-state=idle] .cm-content")
    result = pg.evaluate("""async () => {
        const el = document.querySelector("#editable-demo");
        const seen = new Promise((resolve) => addEventListener("tapegrad:run",
            (e) => resolve({ target: e.target.id, status: e.detail.status }), { once: true }));
        const result = await el.run("import tensorflow as tf\\nx = tf.constant(2.0)\\n"
            + "with tf.GradientTape() as t:\\n    t.watch(x)\\n    y = x * x * x\\ng = t.gradient(y, x)\\n");
        return { result, event: await seen, lastRun: el.dataset.lastRun };
    }""")
    assert result["event"] == {"target": "editable-demo", "status": "ok"}
    assert result["lastRun"] == "ok" and result["result"]["gradients"] == {"g": 12}
