"""matplotlib in the page: draws with Agg; ``plt.show()`` and ``plt.pause()`` send PNGs as kind
"plot" (``{"key", "png"}``: a key seen before replaces that image, which is how a live plot
updates). show() closes the figures it sent, pause() keeps them open; figures still open at the
end of a run are sent."""
import base64
import io
import json
import os
import re
import sys

from .messages import PLOT

os.environ.setdefault("MPLBACKEND", "Agg")


def uses_matplotlib(source):
    return re.search(r"^\s*(import|from)\s+(matplotlib|pylab)\b", source, re.MULTILINE) is not None


class PlotSender:
    """Replaces pyplot's show/pause with functions that send PNGs to the page."""

    def __init__(self, send):
        self.send = send
        self.serial = 0
        self.live_keys = {}        # figure number -> key, for figures sent by pause()

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

    def _send_figure(self, number, keep_key):
        fig = self.plt.figure(number)
        key = self.live_keys.get(number)
        if key is None:
            self.serial += 1
            key = f"figure-{self.serial}"
            if keep_key:
                self.live_keys[number] = key
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
        self.send(PLOT, json.dumps({"key": key, "png": base64.b64encode(buf.getvalue()).decode()}))

    def show(self, *args, **kwargs):
        for number in self.plt.get_fignums():
            self._send_figure(number, keep_key=False)
            self.live_keys.pop(number, None)
        self.plt.close("all")

    def pause(self, interval=0.0):
        # Agg has no event loop to run: drawing and sending the figure is the whole point.
        if self.plt.get_fignums():
            self._send_figure(self.plt.gcf().number, keep_key=True)

    def flush(self):
        """At the end of a run: send the figures the code drew but never showed."""
        if "matplotlib.pyplot" in sys.modules and hasattr(self, "plt"):
            self.show()
