"""``model.save_weights(path)`` in the page also sends the file as kind "weights" (``{"path",
"data"}``, base64 of the ``.npz`` bytes); the page keeps it in the browser's storage and writes it
back into Python's file system before each run, so ``load_weights`` finds it in a later run or
after a reload."""
import base64
import json
import os

from .messages import WEIGHTS


class WeightStorage:
    """Wraps ``Model.save_weights`` (once) to send each file it writes."""

    def __init__(self, send):
        self.send = send
        self.installed = False

    def install(self):
        if self.installed:
            return
        try:
            from tapegrad.keras.models.model import Model
        except ImportError:
            return
        self.installed = True
        original = Model.save_weights
        storage = self

        def save_weights(model, filepath, *args, **kwargs):
            original(model, filepath, *args, **kwargs)
            path = os.path.abspath(os.fspath(filepath))
            with open(path, "rb") as f:
                data = base64.b64encode(f.read()).decode()
            storage.send(WEIGHTS, json.dumps({"path": path, "data": data}))
        save_weights.__doc__ = original.__doc__
        Model.save_weights = save_weights
