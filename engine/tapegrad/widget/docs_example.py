"""Live examples for documentation sites (tapegrad.sphinx, tapegrad.markdown): a code block
becomes a ``<tapegrad-playground>`` element (web/src/element.js, editable, run in the browser on
Pyodide), and, at build time, the code is run natively so that the page already shows its printed
output and its tape's graph (SVG) before, or without, the browser engine booting. Once the reader
runs the example, the element's live output replaces the pre-rendered one (docs-example.css).

>>> r = run_example("import tapegrad as tf\\nprint(tf.constant(2.0) * 3)\\n")
>>> r.stdout
'tf.Tensor(6.0, shape=(), dtype=float32)\\n'
"""
import contextlib
import html
import io
import re
import traceback
from pathlib import Path

from .. import graph
from ..aliases import aliased

STATIC = Path(__file__).with_name("static")
CSS = STATIC / "docs" / "docs-example.css"
ELEMENT_SCRIPT = "tapegrad-playground.js"   # in a tapegrad dist/ (npm run build)


class ExampleRun:
    """What one example did when run natively: its printed output, the error that ended it
    (the traceback's last line, or None) and the SVG of the last tape it recorded (or None)."""

    def __init__(self, stdout, error, svg):
        self.stdout, self.error, self.svg = stdout, error, svg


def run_example(code, name="<tapegrad example>"):
    """Runs ``code`` in a fresh namespace inside a graph capture, with ``import tensorflow`` and
    ``import keras`` giving tapegrad as in the page (only while it runs); returns an
    ``ExampleRun``."""
    if not isinstance(code, str):
        raise TypeError(f"tapegrad docs example: code must be a str, got {type(code).__name__}")
    out = io.StringIO()
    error = None
    cap = graph.capture()
    with aliased(), cap, contextlib.redirect_stdout(out):
        try:
            exec(compile(code, name, "exec"), {"__name__": "__tapegrad_example__"})
        except Exception as e:  # the page shows the error as the example printed it
            error = "".join(traceback.format_exception_only(type(e), e)).strip()
    svg = None
    if cap.tapes:
        from ..graph.export import to_svg  # lazy: the export, only when a docs page is built
        doc = cap.to_dict()
        last = len(doc["tapes"]) - 1
        calls = doc["tapes"][last]["gradients"]
        # the layout holds every tape; the last gradient call of the last tape is annotated
        svg = to_svg(doc, (last, len(calls) - 1) if calls else None)
    return ExampleRun(out.getvalue(), error, svg)


def _script_text(code):
    """The code inside <script type="text/x-python">: only "</script" must not appear."""
    return re.sub(r"</(script)", r"<\\/\1", code, flags=re.IGNORECASE)


def _sized(svg, height):
    """The SVG scaled to ``height`` pixels (its width follows, by its viewBox)."""
    return re.sub(r'^<svg([^>]*?) width="[^"]*" height="[^"]*"',
                  lambda m: f'<svg{m.group(1)} height="{int(height)}"', svg, count=1)


def example_html(code, readonly=False, height=None, script_url=None, run=None):
    """The HTML of one live example: the element, then the pre-rendered output and graph.

    ``script_url``: where the page loads tapegrad-playground.js (None when the page loads it
    itself); ``height``: pixels of the pre-rendered graph; ``run``: an ``ExampleRun`` (made now
    when None).
    """
    if height is not None and (not isinstance(height, int) or height < 50):
        raise ValueError(f"tapegrad docs example: height must be an int of at least 50 pixels, got {height!r}")
    run = run_example(code) if run is None else run
    parts = []
    if script_url:
        parts.append(f'<script src="{html.escape(script_url)}"></script>')
    ro = " readonly" if readonly else ""
    parts.append(f'<tapegrad-playground{ro}><script type="text/x-python">\n{_script_text(code)}'
                 '</script></tapegrad-playground>')
    pre = ['<div class="tapegrad-prerendered" data-testid="prerendered">',
           '<div class="tapegrad-prerendered-label">Output when this page was built '
           '(press Run to run it in your browser)</div>']
    text = run.stdout + (run.error + "\n" if run.error else "")
    if text:
        pre.append(f'<pre class="tapegrad-output">{html.escape(text)}</pre>')
    if run.svg:
        svg = _sized(run.svg, height) if height else run.svg
        pre.append(f'<div class="tapegrad-graph-svg">{svg}</div>')
    pre.append("</div>")
    parts.append("".join(pre))
    return '<div class="tapegrad-example">' + "\n".join(parts) + "</div>\n"
