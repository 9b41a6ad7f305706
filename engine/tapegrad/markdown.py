"""Python-Markdown extension (MkDocs): a fenced ``tapegrad`` block becomes a live example.

In ``mkdocs.yml``::

    markdown_extensions:
      - tapegrad.markdown:
          dist_url: /tapegrad/     # where the site serves tapegrad's runtime files

and, before ``mkdocs build``, copy into docs/tapegrad/ (MkDocs publishes it as is) the runtime
files the pages' examples need, with the stylesheet of their pre-rendered output (about 22 MB, at
most 25 MB; it prints the size and fails above that)::

    python -m tapegrad.docs_runtime path/to/tapegrad/dist docs/tapegrad docs/

(or point ``dist_url`` at a tapegrad dist/ served elsewhere on the site's origin).

In a page (options after the language, all optional)::

    ```tapegrad readonly height=240
    import tapegrad as tf
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    print(tape.gradient(y, x))
    ```

Each block is run natively when the page is built (its printed output and tape graph are shown
until the reader presses Run) and becomes a ``<tapegrad-playground>`` element; the first one on a
page also loads the element's script and the pre-rendered output's stylesheet.

>>> import markdown
>>> page = markdown.markdown("```tapegrad\\nprint(1 + 1)\\n```", extensions=["tapegrad.markdown"])
>>> "<tapegrad-playground>" in page and "2\\n</pre>" in page
True
"""
import html

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from .docs_runtime import FENCE
from .widget.docs_example import CSS, ELEMENT_SCRIPT, example_html

OPEN = '<div class="tapegrad-example">'


def _options(text):
    """``readonly height=240`` -> (readonly, height); a clear error for anything else."""
    readonly, height = False, None
    for word in text.split():
        if word == "readonly":
            readonly = True
        elif word.startswith("height="):
            value = word[len("height="):]
            if not value.isdigit():
                raise ValueError(f"tapegrad.markdown: height must be a number of pixels, got {value!r}")
            height = int(value)
        else:
            raise ValueError(f"tapegrad.markdown: unknown option {word!r} after ```tapegrad "
                             "(known: readonly, height=PIXELS)")
    return readonly, height


class TapegradBlocks(Preprocessor):
    def __init__(self, md, ext):
        super().__init__(md)
        self.ext = ext

    def run(self, lines):
        text = "\n".join(lines)
        first = [True]

        def replace(m):
            readonly, height = _options(m.group("opts"))
            block = example_html(m.group("code") + "\n", readonly=readonly, height=height)
            if first[0]:
                first[0] = False
                base = self.ext.getConfig("dist_url").rstrip("/") + "/"
                head = (f'<link rel="stylesheet" href="{html.escape(base)}{CSS.name}">\n'
                        f'<script src="{html.escape(base)}{ELEMENT_SCRIPT}"></script>\n')
                block = block.replace(OPEN, OPEN + head, 1)   # inside the block-level div
            return "\n" + self.md.htmlStash.store(block) + "\n"

        return FENCE.sub(replace, text).split("\n")


class TapegradExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"dist_url": ["tapegrad/", "URL of tapegrad's runtime files (python -m "
                                    "tapegrad.docs_runtime copies them, with docs-example.css), "
                                    "or of a served tapegrad dist/ with docs-example.css beside "
                                    "its tapegrad-playground.js"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        # before fenced_code (priority 25), which would turn the block into plain code
        md.preprocessors.register(TapegradBlocks(md, self), "tapegrad", 30)


def makeExtension(**kwargs):
    return TapegradExtension(**kwargs)
