"""Building the widget (or its SVG fallback) for a tape or a capture, and showing it."""
import functools
import json
import sys
from pathlib import Path

from .. import graph
from .. import tape as tape_module

STATIC = Path(__file__).with_name("static")
TAPE_HEIGHT = 420          # pixels: the panel's height in the notebook
_recent = []               # graph captures of notebook cells (magic.py), newest last
_MAX_RECENT = 20


def remember(capture):
    """Keeps ``capture`` so that later displays of its tapes include its gradient calls."""
    _recent.append(capture)
    del _recent[:-_MAX_RECENT]


def _capture_of(tape):
    """A capture holding ``tape`` with the gradient calls made on it (seen by a cell capture)."""
    own = graph.capture()
    own.add_tape(tape)
    for cap in reversed(_recent):
        if tape in cap.tapes:
            index = cap.tapes.index(tape)
            own.calls = [(0,) + c[1:] for c in cap.calls if c[0] == index]
            if index in cap.tape_names:
                own.tape_names[0] = cap.tape_names[index]
            break
    return own


def graph_document(source):
    """The graph JSON (docs/graph-json.md) of a ``GradientTape`` or a ``graph.capture()`` (or
    such a document itself).

    >>> import tapegrad as tf
    >>> with tf.GradientTape() as tape:
    ...     x = tf.constant(2.0)
    ...     tape.watch(x)
    ...     y = x * x
    >>> len(graph_document(tape)["tapes"])
    1
    """
    if isinstance(source, tape_module.GradientTape):
        return _capture_of(source).to_dict()
    if isinstance(source, dict) and "tapes" in source and "nodes" in source:
        return source                    # a document already (%%tapegrad's training step)
    if hasattr(source, "to_dict") and hasattr(source, "tapes"):
        return source.to_dict()
    raise TypeError("tapegrad.widget: expected a tf.GradientTape, a tapegrad.graph.capture() or "
                    f"its graph document, got {type(source).__name__}")


def _svg(doc):
    from ..graph.export import to_svg  # lazy: the export, as for tape._repr_svg_
    # each source's gradient of the first tape's last gradient call, when there is one
    calls = doc["tapes"][0]["gradients"] if doc["tapes"] else []
    return to_svg(doc, (0, len(calls) - 1) if calls else None)


@functools.lru_cache(maxsize=None)
def _widget_class():
    """The anywidget class (anywidget imported here only); None when it is not installed."""
    try:
        import anywidget
        import traitlets
    except ImportError:
        return None

    class TapeGraphWidget(anywidget.AnyWidget):
        """The graph panel of web/src/graph/ with one graph JSON document."""
        _esm = STATIC / "graph-widget.js"
        _css = STATIC / "graph-widget.css"
        doc = traitlets.Unicode("").tag(sync=True)
        height = traitlets.Int(TAPE_HEIGHT).tag(sync=True)

    return TapeGraphWidget


def widget(source, height=TAPE_HEIGHT):
    """The widget for a tape or capture; ImportError naming the extra when anywidget is missing."""
    return _new_widget(json.dumps(graph_document(source)), height)


def empty_widget(height=TAPE_HEIGHT):
    """A widget with no graph yet (its ``doc`` set later: ``%%tapegrad`` while the cell trains)."""
    return _new_widget("", height)


def _new_widget(doc_text, height):
    cls = _widget_class()
    if cls is None:
        raise ImportError("tapegrad's notebook widget needs anywidget: "
                          "pip install 'tapegrad[notebook]'")
    if not isinstance(height, int) or height < 100:
        raise ValueError(f"tapegrad.widget: height must be an int of at least 100 pixels, got {height!r}")
    return cls(doc=doc_text, height=height)


def mimebundle(source, include=None, exclude=None):
    """The rich display of a tape: the widget view (when anywidget is installed) and, always,
    the static SVG (image/svg+xml), which front ends without widgets show instead."""
    doc = graph_document(source)
    data = {}
    cls = _widget_class()
    if cls is not None:
        view = cls(doc=json.dumps(doc))._repr_mimebundle_(include=include, exclude=exclude)
        if isinstance(view, tuple):          # (data, metadata), as ipywidgets 8 returns it
            view = view[0]
        data.update(view or {})
    data["image/svg+xml"] = _svg(doc)
    data.setdefault("text/plain", f"<tapegrad graph: {len(doc['nodes'])} nodes>")
    return data


def show(source, height=TAPE_HEIGHT):
    """Displays the interactive graph of a tape (or capture) in the running notebook; the SVG
    when anywidget is missing. Outside IPython, raises RuntimeError."""
    try:
        from IPython import get_ipython
        from IPython.display import SVG, display
    except ImportError:
        get_ipython = None
    if get_ipython is None or get_ipython() is None:
        raise RuntimeError("tape.show() draws in a Jupyter notebook (IPython); elsewhere use "
                           "tapegrad.graph.capture() and its to_dict(), or tape._repr_svg_()")
    if _widget_class() is None:
        display(SVG(_svg(graph_document(source))))
    else:
        display(widget(source, height))


tape_module.notebook_display = sys.modules[__name__]
