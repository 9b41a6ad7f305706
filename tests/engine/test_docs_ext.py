"""tapegrad.sphinx and tapegrad.markdown: code blocks become live examples, pre-rendered natively."""
import sys
from pathlib import Path

import pytest

from tapegrad.widget import docs_example
from test_docs_runtime import stand_in_dist

ROOT = Path(__file__).resolve().parents[2]
SQUARE = ("import tapegrad as tf\nx = tf.Variable(3.0)\nwith tf.GradientTape() as tape:\n"
          "    y = x * x\nprint(tape.gradient(y, x))\n")


def test_example_is_run_natively_with_output_and_graph():
    run = docs_example.run_example(SQUARE)
    assert run.stdout == "tf.Tensor(6.0, shape=(), dtype=float32)\n"
    assert run.error is None
    assert run.svg.startswith("<svg") and "grad: 6" in run.svg


def test_example_written_for_tensorflow_and_keras_runs_as_in_the_page():
    """``import tensorflow as tf`` / ``import keras`` give tapegrad while the example runs (as the
    playground maps them), and only then: the builder's sys.modules is as it was."""
    before = {n: m for n, m in sys.modules.items() if n.split(".")[0] in ("tensorflow", "keras")}
    run = docs_example.run_example(SQUARE.replace("import tapegrad as tf", "import tensorflow as tf\nimport keras")
                                   + "print(keras.layers.Dense is tf.keras.layers.Dense)\n")
    assert run.error is None, run.error
    assert run.stdout == "tf.Tensor(6.0, shape=(), dtype=float32)\nTrue\n"
    assert run.svg.startswith("<svg") and "grad: 6" in run.svg
    after = {n: m for n, m in sys.modules.items() if n.split(".")[0] in ("tensorflow", "keras")}
    assert after == before


def test_example_error_is_shown_as_printed():
    run = docs_example.run_example("print('before')\n1 / 0\n")
    assert run.stdout == "before\n"
    assert run.error == "ZeroDivisionError: division by zero"
    assert run.svg is None


def test_example_html_holds_the_element_and_the_prerendered_output():
    page = docs_example.example_html("print('</script> is kept')\n", readonly=True)
    assert "<tapegrad-playground readonly>" in page
    assert "print('<\\/script> is kept')" in page          # cannot end the script element
    assert '<pre class="tapegrad-output">&lt;/script&gt; is kept\n</pre>' in page
    with pytest.raises(ValueError, match="height"):
        docs_example.example_html("pass\n", height=3)
    with pytest.raises(TypeError, match="code must be a str"):
        docs_example.run_example(b"pass")


def test_markdown_fenced_block_becomes_a_live_example():
    markdown = pytest.importorskip("markdown")
    text = "Intro\n\n```tapegrad readonly height=120\n" + SQUARE + "```\n\nAfter\n"
    page = markdown.markdown(text, extensions=["tapegrad.markdown"],
                             extension_configs={"tapegrad.markdown": {"dist_url": "/tg/"}})
    assert '<script src="/tg/tapegrad-playground.js"></script>' in page
    assert '<link rel="stylesheet" href="/tg/docs-example.css">' in page
    assert "<tapegrad-playground readonly>" in page
    assert "tf.Tensor(6.0, shape=(), dtype=float32)" in page and 'height="120"' in page
    assert "<p>After</p>" in page and "<p><div" not in page
    with pytest.raises(ValueError, match="unknown option 'wide'"):
        markdown.markdown("```tapegrad wide\npass\n```", extensions=["tapegrad.markdown"])


@pytest.mark.skipif(sys.platform == "emscripten", reason="builds a Sphinx site (files, subprocess-free but slow)")
def test_sphinx_builds_the_example_site_with_live_examples(tmp_path):
    pytest.importorskip("sphinx")
    from sphinx.application import Sphinx

    dist = stand_in_dist(tmp_path / "dist")        # a stand-in for a built dist/
    out = tmp_path / "html"
    app = Sphinx(str(ROOT / "docs" / "example-site"), str(ROOT / "docs" / "example-site"), str(out),
                 str(tmp_path / "doctrees"), "html", confoverrides={"tapegrad_dist": str(dist)},
                 status=None, warning=None, freshenv=True)
    app.build()
    index = (out / "index.html").read_text()
    assert '<script src="_static/tapegrad/tapegrad-playground.js' in index
    assert "<tapegrad-playground>" in index and "dy/dx = 6.0" in index
    assert 'height="160"' in index                             # :height:
    other = (out / "none-gradients.html").read_text()
    assert "<tapegrad-playground readonly>" in other           # :readonly:, nested code-block
    assert "tape never watched" in other                       # its explanation, pre-rendered
    assert (out / "_static" / "tapegrad" / "assets" / "worker.js").read_text() == "/* worker */"
    assert not (out / "_static" / "tapegrad" / "tapegrad-playground.js.map").exists()
    copied = {p.relative_to(out / "_static" / "tapegrad").as_posix()
              for p in (out / "_static" / "tapegrad").rglob("*.whl")}   # the examples import no more
    assert copied == {"pyodide-0.27.7/numpy-1.0-py3-none-any.whl", "pyodide-0.27.7/tapegrad-1.0-py3-none-any.whl"}
    assert not (out / "_static" / "tapegrad" / "pyodide-0.27.7" / "snapshot.bin").exists()
    assert (out / "_static" / "docs-example.css").is_file()
    assert "tapegrad-playground" not in (out / "genindex.html").read_text()


@pytest.mark.skipif(sys.platform == "emscripten", reason="builds a Sphinx site")
def test_sphinx_fails_clearly_when_the_runtime_copy_is_over_25_mb(tmp_path):
    pytest.importorskip("sphinx")
    from sphinx.application import Sphinx
    from sphinx.errors import ExtensionError

    dist = stand_in_dist(tmp_path / "dist")
    with open(dist / "pyodide-0.27.7" / "pyodide.asm.wasm", "r+b") as f:
        f.truncate(25_000_001)                     # (sparse: zeros)
    (dist / "build-info.json").write_text('{"pyodide_dir": "pyodide-0.27.7"}')
    app = Sphinx(str(ROOT / "docs" / "example-site"), str(ROOT / "docs" / "example-site"), str(tmp_path / "html"),
                 str(tmp_path / "doctrees"), "html", confoverrides={"tapegrad_dist": str(dist)},
                 status=None, warning=None, freshenv=True)
    with pytest.raises(ExtensionError, match=r"weighs 25\.0 MB, over the 25 MB limit .*pyodide\.asm\.wasm 25\.0 MB"):
        app.build()


def test_sphinx_without_a_dist_says_what_to_set(tmp_path):
    pytest.importorskip("sphinx")
    from sphinx.application import Sphinx
    from sphinx.errors import ConfigError, ExtensionError

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["tapegrad.sphinx"]\n')
    (src / "index.rst").write_text("Title\n=====\n")
    with pytest.raises((ValueError, ConfigError, ExtensionError), match="tapegrad_dist"):
        Sphinx(str(src), str(src), str(tmp_path / "o"), str(tmp_path / "d"), "html",
               status=None, warning=None)


@pytest.mark.parametrize("name", ["tapegrad.widget.docs_example", "tapegrad.markdown", "tapegrad.docs_runtime"])
def test_docstring_examples_run(name):
    import doctest
    import importlib

    if name == "tapegrad.markdown":
        pytest.importorskip("markdown")
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.attempted > 0 and result.failed == 0
