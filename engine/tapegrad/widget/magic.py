"""IPython integration: ``%load_ext tapegrad`` and the ``%%tapegrad`` cell magic.

Loading the extension captures every cell's tapes and gradient calls (so ``tape.show()`` can
animate the backward pass); ``%%tapegrad`` runs its cell and shows one graph panel with every
tape the cell recorded (the panel's selector switches between them; lines are the cell's as
the notebook numbers them, ``%%tapegrad`` being line 1), or, for a cell that trains
(a loop or ``fit``: a tape per step), its last complete step, as the playground does
(``graph.training_view``). A cell stopped with Jupyter's interrupt ends with a quiet
"Stopped at line N." and its graph, as in the playground: no traceback.
"""
import contextlib
import json

from .. import graph
from ..graph.export import to_json
from ..graph.training_view import LiveSteps, representative_step
from .display import TAPE_HEIGHT, _svg, _widget_class, empty_widget, remember

# put in the place of the cell's first line (%%tapegrad), so that the lines the graph, the stop
# and a traceback name are the cell's lines as the notebook numbers them (not before another cell
# magic, e.g. %%time: IPython reads a cell magic on the cell's first line only)
HEADER = "# %%tapegrad\n"
_open = []   # the captures of the cells running now (%%tapegrad runs its cell inside a cell)


def run_captured(run):
    """Calls ``run()`` inside a graph capture, remembered for later displays; returns
    (the capture, run's result).

    >>> import tapegrad as tf
    >>> def cell():
    ...     with tf.GradientTape() as t:
    ...         x = tf.constant(1.0)
    ...         t.watch(x)
    ...         y = x + x
    ...     return t.gradient(y, x)
    >>> cap, g = run_captured(cell)
    >>> len(cap.tapes), float(g)
    (1, 2.0)
    """
    cap = graph.capture()
    remember(cap)
    with cap:
        result = run()
    return cap, result


def _pre_run_cell(*_):
    cap = graph.capture()
    remember(cap)
    cap.__enter__()
    _open.append(cap)


def _post_run_cell(*_):
    if _open:
        _open.pop().__exit__(None, None, None)


def _cell_magic(line, cell):
    from IPython import get_ipython
    from IPython.display import SVG, display

    height = int(line.strip() or TAPE_HEIGHT)
    shell = get_ipython()
    view = None if _widget_class() is None else empty_widget(height)
    if view is not None:
        display(view)        # shown now: a loop's latest step is drawn in it while it trains
    cap = graph.capture(let_go_steps=True)
    remember(cap)
    live = None if view is None else LiveSteps(lambda doc: setattr(view, "doc", to_json(doc)))
    with cap, (contextlib.nullcontext() if live is None else live.follow(cap)):
        run_stoppable(shell, cell if cell.lstrip().startswith("%%") else HEADER + cell)
    if not cap.tapes:
        print("%%tapegrad: the cell recorded no tape")
        if view is not None:
            view.close()
        return
    doc = representative_step(cap)
    if doc is None:
        doc = cap.to_dict()
    else:
        print(doc["representative"]["text"])
    if view is None:
        display(SVG(_svg(doc)))
    else:
        view.doc = json.dumps(doc)


def run_stoppable(shell, cell):
    """Runs ``cell`` in ``shell``; an interrupt (Jupyter's Stop) prints "Stopped at line N."
    (the cell's line that was running) instead of a traceback, as the playground's Stop does."""
    saved = shell.custom_exceptions, shell.CustomTB
    shell.set_custom_exc((KeyboardInterrupt,), _stopped)
    try:
        return shell.run_cell(cell, store_history=False)
    finally:
        shell.custom_exceptions, shell.CustomTB = saved


def _stopped(shell, etype, value, tb, tb_offset=None):
    line = cell_line(tb)
    print(f"Stopped at line {line}." if line else "Stopped.")


def cell_line(tb):
    """The line of the cell that was running when traceback ``tb`` (from IPython's ``run_code``,
    whose frame comes first) was raised: the innermost frame of the cell's own code."""
    cell = tb.tb_next
    if cell is None:
        return None
    name, line = cell.tb_frame.f_code.co_filename, cell.tb_lineno
    while cell is not None:
        if cell.tb_frame.f_code.co_filename == name:
            line = cell.tb_lineno
        cell = cell.tb_next
    return line


def load_ipython_extension(ipython):
    """``%load_ext tapegrad``: registers ``%%tapegrad`` and captures every cell."""
    ipython.register_magic_function(_cell_magic, magic_kind="cell", magic_name="tapegrad")
    ipython.events.register("pre_run_cell", _pre_run_cell)
    ipython.events.register("post_run_cell", _post_run_cell)


def unload_ipython_extension(ipython):
    for name, hook in (("pre_run_cell", _pre_run_cell), ("post_run_cell", _post_run_cell)):
        try:
            ipython.events.unregister(name, hook)
        except ValueError:
            pass
