"""One ``Session`` serves many runs of the user's code (see the package's text)."""
import importlib.util
import json
import linecache
import re
import sys

from .aliases import install_tensorflow_alias
from .errors import USER_FILE, stopped_status, user_traceback
from .gradients import GradientNames
from .graph import live_graph, send_graph
from .messages import TRACEBACK
from .plots import PlotSender, uses_matplotlib
from . import stdin
from .training import TrainingFeed
from .weights import WeightStorage


def uses_keras(source):
    """Whether the code can reach Keras: it names it, or an earlier run imported it. (A first
    gradient must not pay for importing Keras: about a second in the browser.)"""
    return "tapegrad.keras" in sys.modules or re.search(r"\bkeras\b", source) is not None


def _fresh_keras_names():
    """Each Run starts with fresh globals, so Keras's layer names start again too (``dense``,
    not ``dense_1`` on the second Run), as in a new Python process."""
    from tapegrad.keras.backend import clear_session
    clear_session()


class Session:
    def __init__(self, send, flush=None, report=False):
        self.send = send
        self.flush = flush  # optional: delivers the output written so far to the page
        # report: each status also carries the error's message and the run's named gradients
        # ("gradients", "gradients_omitted"), for the page's scripting API (gradients.py)
        self.report = report
        self.gradient_names = GradientNames()
        self.namespace = {}
        self.kept = None   # a notebook's namespace, kept from cell to cell (run(notebook="keep"))
        self.plots = PlotSender(send)
        self.training = TrainingFeed(send)
        self.weights = WeightStorage(send)
        self._live_graph = None    # made on first use: it imports tapegrad

    @property
    def live_graph(self):
        """The run's live graph (``graph.live_graph``: tapegrad.graph.training_view.LiveSteps)."""
        if self._live_graph is None:
            self._live_graph = live_graph(self.send)
        return self._live_graph

    def run(self, source, notebook=None):
        """Runs ``source`` as ``main.py``; returns ``{"ok", "error": {"type", "line"} or None,
        "interrupted"}``, and for a run that Stop ended ``"stopped": {"line", "text"}`` (the
        quiet line the page ends it with: no traceback, no error mark). A reporting session
        adds the error's ``"message"``, ``"gradients"`` and ``"gradients_omitted"``.
        ``notebook``: "keep" or "fresh" runs it as a notebook cell, in a namespace kept for the
        next cell ("fresh": a new one)."""
        try:
            cap = self._prepare(source)
        except KeyboardInterrupt as exc:   # a Stop as the run begins: the code does not start
            return stopped_status(exc, "before the code started")
        with stdin.no_keyboard_input():
            status = self._execute(source, cap, notebook)
        # A late Stop raises KeyboardInterrupt here too: it ends the run quietly, never escapes.
        try:
            self.plots.flush()
        except BaseException as exc:  # a figure that cannot be drawn must not hide the graph
            status = self._late_failure(status, exc, "while drawing figures")
        try:
            send_graph(self.send, cap, self.namespace.values())
        except KeyboardInterrupt as exc:  # the user's code has ended: the graph is still wanted
            status = self._late_failure(status, exc, "while exporting the graph")
            try:
                send_graph(self.send, cap, self.namespace.values())
            except BaseException as again:
                status = self._late_failure(status, again, "while exporting the graph")
        except BaseException as exc:
            status = self._late_failure(status, exc, "while exporting the graph")
        if self.report:
            status["gradients"], status["gradients_omitted"] = self.gradient_names.report(
                self.namespace, cap.calls)
        self.kept = self.namespace if notebook else None
        self.namespace = {}
        return status

    def _prepare(self, source):
        """Readies a run of ``source``; its graph capture."""
        import tapegrad.graph
        install_tensorflow_alias()   # imports tapegrad: not in __init__, which the worker times apart
        linecache.cache[USER_FILE] = (len(source), None, source.splitlines(True), USER_FILE)
        self.plots.reset()
        self.training.reset()
        return tapegrad.graph.capture(let_go_steps=True)   # a loop keeps its last steps whole, not all

    def _execute(self, source, cap, notebook):
        """The user's code, inside the graph capture ``cap``; the run's status."""
        status = {"ok": True, "error": None, "interrupted": False}
        try:
            if uses_keras(source):   # their hooks import Keras: not for code that never uses it
                self.training.install()
                self.weights.install()
                if notebook != "keep" or self.kept is None:
                    _fresh_keras_names()
            if uses_matplotlib(source) and importlib.util.find_spec("matplotlib") is not None:
                self.plots.install()
            self.namespace = {"__name__": "__main__", "__file__": USER_FILE}
            if notebook == "keep" and self.kept is not None:
                self.namespace = self.kept
            code = compile(source, USER_FILE, "exec")
            with cap, self.live_graph.follow(cap):
                exec(code, self.namespace)
        except KeyboardInterrupt as exc:  # Stop (or the code raised it): not an error
            status = stopped_status(exc)
        except BaseException as exc:  # the user's code may raise anything
            text, line = user_traceback(exc)
            status = {"ok": False, "error": {"type": type(exc).__name__, "line": line},
                      "interrupted": False}
            if self.report:
                status["error"]["message"] = str(exc)
            self.send(TRACEBACK, json.dumps({"text": text, "line": line}))
        finally:
            self.training.release_interrupts()
            self.training.done()
            sys.stdout.flush()
            sys.stderr.flush()
            if self.flush is not None:
                self.flush()  # the page shows the output now, before the graph is built
        return status

    def _late_failure(self, status, exc, doing):
        if isinstance(exc, KeyboardInterrupt):   # a late Stop: quiet, and the first stop's line stays
            return status if status.get("stopped") else stopped_status(exc, doing)
        self.send(TRACEBACK, json.dumps({"text": f"{doing}: {exc!r}\n", "line": None}))
        return status
