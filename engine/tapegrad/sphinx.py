"""Sphinx extension: live, editable tapegrad examples in documentation pages.

In ``conf.py``::

    extensions = ["tapegrad.sphinx"]
    tapegrad_dist = "../../dist"      # a built tapegrad dist/ (npm run build): the runtime files
                                      # the site's examples need are copied into _static/tapegrad/
                                      # (tapegrad.docs_runtime: the element, its worker, Pyodide's
                                      # core, NumPy and tapegrad, and the packages the examples
                                      # import; about 22 MB, at most 25 MB, its size printed), so
                                      # the site is self-hosted and offline
    # or, where a tapegrad dist/ is already served on the site's origin:
    # tapegrad_dist_url = "/tapegrad/"

In a page::

    .. tapegrad-playground::
       :readonly:
       :height: 240

       import tapegrad as tf
       x = tf.Variable(3.0)
       with tf.GradientTape() as tape:
           y = x * x
       print(tape.gradient(y, x))

The body is the code (a nested ``.. code-block:: python`` is accepted too). At build time each
example runs natively: the page shows its printed output and its tape's graph (SVG) until the
reader presses Run, which boots Python in the browser. ``:readonly:`` makes the editor read-only;
``:height:`` is the pre-rendered graph's height in pixels.
"""
import textwrap
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.errors import ExtensionError
from sphinx.util import logging

from . import docs_runtime
from .widget.docs_example import CSS, ELEMENT_SCRIPT, example_html

logger = logging.getLogger(__name__)


def _code_of(lines):
    """The example's code: the directive's body, or that of a nested code-block directive."""
    text = "\n".join(lines)
    first = text.lstrip().split("\n", 1)
    if first[0].startswith((".. code-block::", ".. code::", ".. sourcecode::")):
        rest = first[1] if len(first) > 1 else ""
        body = [ln for ln in rest.split("\n") if not ln.strip().startswith(":")]
        text = textwrap.dedent("\n".join(body))
    return text.strip("\n") + "\n"


class TapegradPlayground(Directive):
    has_content = True
    option_spec = {"readonly": directives.flag, "height": directives.positive_int}

    def run(self):
        if not self.content or not "".join(self.content).strip():
            raise self.error("tapegrad-playground: the directive needs the example's code as its body")
        env = self.state.document.settings.env
        code = _code_of(list(self.content))
        html = example_html(code, readonly="readonly" in self.options,
                            height=self.options.get("height"))
        meta = env.metadata[env.docname]
        meta["tapegrad_examples"] = True
        # what the site's runtime copy must hold for this page (docs_runtime.copy_runtime)
        meta["tapegrad_modules"] = sorted(set(meta.get("tapegrad_modules", ()))
                                          | docs_runtime.needed_modules(code))
        return [nodes.raw("", html, format="html")]


def _element_url(app):
    url = app.config.tapegrad_dist_url
    if url:
        return url.rstrip("/") + "/" + ELEMENT_SCRIPT
    return "tapegrad/" + ELEMENT_SCRIPT      # in _static/


def _on_config(app, config):
    if config.tapegrad_dist and config.tapegrad_dist_url:
        raise ValueError("tapegrad.sphinx: set tapegrad_dist (copy a dist/ into the site) or "
                         "tapegrad_dist_url (a dist/ served elsewhere on the site), not both")
    if config.tapegrad_dist:
        dist = Path(app.confdir, config.tapegrad_dist).resolve()
        if not (dist / ELEMENT_SCRIPT).is_file():
            raise FileNotFoundError(f"tapegrad.sphinx: tapegrad_dist = {config.tapegrad_dist!r} "
                                    f"has no {ELEMENT_SCRIPT} ({dist}); build it with npm run build")
        docs_runtime.Dist(dist)      # its Pyodide folder and lock are readable
    elif not config.tapegrad_dist_url:
        raise ValueError("tapegrad.sphinx: set tapegrad_dist (a built tapegrad dist/ folder) "
                         "or tapegrad_dist_url (where one is served)")
    config.html_static_path.append(str(CSS.parent.resolve()))


def _on_builder(app):
    app.add_css_file(CSS.name)


def _on_page(app, pagename, templatename, context, doctree):
    if app.env.metadata.get(pagename, {}).get("tapegrad_examples"):
        app.add_js_file(_element_url(app), priority=900)


def _on_finished(app, exception):
    if exception is not None or not app.config.tapegrad_dist or app.builder.format != "html":
        return
    dist = Path(app.confdir, app.config.tapegrad_dist).resolve()
    modules = set()
    for meta in app.env.metadata.values():
        modules.update(meta.get("tapegrad_modules", ()))
    try:
        copy = docs_runtime.copy_runtime(dist, Path(app.outdir, "_static", "tapegrad"), modules)
    except (docs_runtime.RuntimeTooLarge, ValueError, KeyError) as err:
        raise ExtensionError(f"tapegrad.sphinx: {err}") from err
    logger.info(copy.summary())


def setup(app):
    app.add_config_value("tapegrad_dist", None, "html")
    app.add_config_value("tapegrad_dist_url", None, "html")
    app.add_directive("tapegrad-playground", TapegradPlayground)
    app.connect("config-inited", _on_config)
    app.connect("builder-inited", _on_builder)
    app.connect("html-page-context", _on_page)
    app.connect("build-finished", _on_finished)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
