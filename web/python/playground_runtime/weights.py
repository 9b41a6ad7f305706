"""``model.save_weights(path)`` and ``model.save(path)`` (a ``.keras`` file) in the page also
send the file as kind "weights" (``{"path", "data"}``, base64 of its bytes); the page keeps it in
the browser's storage and writes it back into Python's file system before each run, so
``load_weights`` and ``keras.models.load_model`` find it in a later run or after a reload."""
import base64
import json
import os

from .messages import WEIGHTS


class WeightStorage:
    """Wraps ``Model.save_weights`` and hooks ``.keras`` saving (once) to send each file."""

    def __init__(self, send):
        self.send = send
        self.installed = False

    def install(self):
        if self.installed:
            return
        try:
            from tapegrad.keras.models.model import Model
            from tapegrad.keras.saving import keras_file
        except ImportError:
            return
        self.installed = True
        original = Model.save_weights
        storage = self

        def save_weights(model, filepath, *args, **kwargs):
            original(model, filepath, *args, **kwargs)
            storage.keep(filepath)
        save_weights.__doc__ = original.__doc__
        Model.save_weights = save_weights
        keras_file.saved_hooks.append(self.keep)

    def keep(self, filepath):
        """Sends the file at ``filepath`` for the page to keep."""
        path = os.path.abspath(os.fspath(filepath))
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        self.send(WEIGHTS, json.dumps({"path": path, "data": data}))
