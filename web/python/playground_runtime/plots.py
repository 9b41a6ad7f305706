"""matplotlib in the page: draws with Agg; ``plt.show()`` and ``plt.pause()`` send PNGs as kind
"plot" (``{"key", "png"}``: a key seen before replaces that image, which is how a live plot
updates). show() closes the figures it sent, pause() keeps them open; figures still open at the
end of a run are sent.

Floods are bounded: a run shows at most ``MAX_FIGURES`` figures (later new ones are closed
without drawing, and a note of kind "note" says so, with their count at the end), and after
``LIVE_FREE_UPDATES`` updates of one live figure, pause() sends it at most once per
``LIVE_EVERY_S`` (the latest drawing is sent at the end of the run)."""
import base64
import io
import json
import os
import re
import sys
import time

from .messages import NOTE, PLOT

os.environ.setdefault("MPLBACKEND", "Agg")


def uses_matplotlib(source):
    return re.search(r"^\s*(import|from)\s+(matplotlib|pylab)\b", source, re.MULTILINE) is not None


class PlotSender:
    """Replaces pyplot's show/pause with functions that send PNGs to the page."""

    MAX_FIGURES = 50
    LIVE_FREE_UPDATES = 20
    LIVE_EVERY_S = 0.2

    def __init__(self, send):
        self.send = send
        self.serial = 0
        self.live_keys = {}        # figure number -> key, for figures sent by pause()
        self.sent = {}             # key -> [times sent, when last sent], this run
        self.not_shown = 0         # figures of this run past MAX_FIGURES

    def install(self):
        import matplotlib.pyplot as plt
        self.plt = plt
        plt.switch_backend("agg")   # now, not lazily at the first plot (that would undo the patch)

        # Plain functions, not bound methods: pyplot sets attributes (__signature__) on them.
        def show(*args, **kwargs):
            self.show()

        def pause(interval=0.0):
            self.pause(interval)

        plt.show = show
        plt.pause = pause

    def reset(self):
        self.live_keys.clear()
        self.sent.clear()
        self.not_shown = 0

    def _send_figure(self, number, keep_key):
        key = self.live_keys.get(number)
        if key is None and len(self.sent) >= self.MAX_FIGURES:
            self.not_shown += 1
            if self.not_shown == 1:
                self._note(f"Plots: a run shows its first {self.MAX_FIGURES} figures; "
                           "later ones are not drawn.")
            return
        fig = self.plt.figure(number)
        if key is None:
            self.serial += 1
            key = f"figure-{self.serial}"
            if keep_key:
                self.live_keys[number] = key
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
        self.send(PLOT, json.dumps({"key": key, "png": base64.b64encode(buf.getvalue()).decode()}))
        count = self.sent.get(key, [0])[0]
        self.sent[key] = [count + 1, time.monotonic()]

    def _note(self, text):
        self.send(NOTE, json.dumps({"text": text}))

    def show(self, *args, **kwargs):
        for number in self.plt.get_fignums():
            self._send_figure(number, keep_key=False)
            self.live_keys.pop(number, None)
        self.plt.close("all")

    def pause(self, interval=0.0):
        # Agg has no event loop to run: drawing and sending the figure is the whole point.
        if self.plt.get_fignums():
            number = self.plt.gcf().number
            count, when = self.sent.get(self.live_keys.get(number), (0, 0.0))
            if count < self.LIVE_FREE_UPDATES or time.monotonic() - when >= self.LIVE_EVERY_S:
                self._send_figure(number, keep_key=True)

    def flush(self):
        """At the end of a run: send the figures the code drew but never showed."""
        if "matplotlib.pyplot" in sys.modules and hasattr(self, "plt"):
            self.show()
        if self.not_shown:
            self._note(f"Plots: {self.not_shown:,} more figure{'s' if self.not_shown != 1 else ''} "
                       f"not shown (a run shows its first {self.MAX_FIGURES}).")
            self.not_shown = 0
