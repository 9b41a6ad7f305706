"""The live training plot's feed (kind "training"), with no user code involved.

- ``fit``: an observer added to every ``CallbackList`` (``CallbackList.observers``) sends
  ``{"event": "begin", "epochs", "steps"}``, one ``{"event": "step", "step", "epoch", "logs"}``
  per batch (at most one per ``STEP_EVERY_S`` seconds, the last batch of an epoch always),
  ``{"event": "epoch", "epoch", "logs"}`` (validation included) and ``{"event": "end"}``.
- custom loops: each ``result()`` of a ``tf.keras.metrics`` object outside fit/evaluate sends
  ``{"event": "point", "name", "value"}`` (the feed subscribes to ``Metric.result_observers``):
  the page plots each metric against the number of times its result was read (a loop that reads
  ``train_acc.result()`` once per epoch gives one point per epoch).
- Stop during fit: Stop's interrupt is held until the running step has finished (its update
  applied), then ``StopBetweenSteps`` (a ``KeyboardInterrupt``) ends the run between steps.
  Elsewhere Stop interrupts at once.
"""
import json
import signal
import time

from .errors import StopBetweenSteps
from .messages import TRAINING


class TrainingFeed:
    """Sends the page what it needs for the live training plot (see the module's text)."""

    STEP_EVERY_S = 0.1     # the plot redraws every 250 ms (web/src/training-plot.js)

    def __init__(self, send):
        self.send = send
        self.busy = 0              # > 0 inside fit/evaluate/predict: metric reads are theirs
        self.stop_requested = False
        self.last_step_sent = 0.0
        self.previous_handler = None

    current = None        # the feed of the run in progress: the hooks below are installed once
    _hooked = False

    def install(self):
        TrainingFeed.current = self
        if TrainingFeed._hooked:
            return
        try:
            from tapegrad.keras.callbacks import Callback
            from tapegrad.keras.callbacks.callback_list import CallbackList
            from tapegrad.keras.metrics.base import Metric
        except ImportError:        # a build without Keras: nothing to follow
            return
        TrainingFeed._hooked = True
        CallbackList.observers.append(type("PageTrainingObserver", (_FitObserver, Callback), {}))
        Metric.result_observers.append(_metric_result)

    def reset(self):
        self.busy = 0
        self.stop_requested = False

    def done(self):
        """The run has ended: a fit outside a run (Python going on after it, or natively in a
        process that ran the playground) is no longer followed (_OutsideARun)."""
        if TrainingFeed.current is self:
            TrainingFeed.current = None

    def event(self, event, **fields):
        self.send(TRAINING, json.dumps({"event": event, **fields}))

    # Stop while fit runs: remember it, end the run at the next step boundary.
    def hold_interrupts(self):
        try:
            self.previous_handler = signal.signal(signal.SIGINT, self._on_sigint)
        except (ValueError, OSError, AttributeError):   # not the main thread, or no signals
            self.previous_handler = None

    def release_interrupts(self):
        if self.previous_handler is not None:
            signal.signal(signal.SIGINT, self.previous_handler)
            self.previous_handler = None

    def _on_sigint(self, signum, frame):
        self.stop_requested = True

    def check_stop(self, where):
        if self.stop_requested:
            self.stop_requested = False
            raise StopBetweenSteps(f"between training steps ({where})")


class _OutsideARun(TrainingFeed):
    """The feed of a fit outside a playground run: sends nothing and leaves Ctrl+C alone (a fit
    that raised would otherwise keep the held handler)."""

    def __init__(self):
        super().__init__(lambda kind, payload: None)

    def hold_interrupts(self):
        pass


def _metric_result(metric, value):
    """A metric's result read outside fit/evaluate/predict: one point of its curve."""
    feed = TrainingFeed.current
    if feed is not None and feed.busy == 0:
        number = as_number(value)
        if number is not None:
            feed.event("point", name=metric.name, value=number)


class _FitObserver:
    """Added to each fit/evaluate by the playground (as a Keras ``Callback``, which follows it in
    the class's bases): feeds the live plot, honours Stop."""

    def __init__(self):
        super().__init__()
        self.feed = TrainingFeed.current or _OutsideARun()
        self.epoch = 0
        self.step = 0
        self.training = False

    def on_train_begin(self, logs=None):
        self.feed.busy += 1
        self.training = True
        self.feed.hold_interrupts()
        params = self.params or {}
        self.feed.event("begin", epochs=params.get("epochs"), steps=params.get("steps"))

    def on_train_end(self, logs=None):
        self.feed.busy -= 1
        self.training = False
        self.feed.release_interrupts()
        self.feed.event("end")
        self.feed.check_stop("after the last step")

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch + 1

    def on_train_batch_end(self, batch, logs=None):
        self.step += 1
        feed = self.feed
        steps = (self.params or {}).get("steps")
        now = time.monotonic()
        last_of_epoch = steps is not None and batch + 1 >= steps
        if last_of_epoch or now - feed.last_step_sent >= feed.STEP_EVERY_S or feed.stop_requested:
            feed.last_step_sent = now
            feed.event("step", step=self.step, epoch=self.epoch, logs=_numbers(logs))
        if feed.stop_requested:
            feed.release_interrupts()
            feed.busy -= 1
            self.training = False
            feed.event("end", stopped=True)
            feed.check_stop(f"epoch {self.epoch}, after step {self.step}; the model keeps "
                            f"the weights of the {self.step} steps that finished")

    def on_epoch_end(self, epoch, logs=None):
        self.feed.event("epoch", epoch=epoch + 1, logs=_numbers(logs))

    def on_test_begin(self, logs=None):
        self.feed.busy += 1

    def on_test_end(self, logs=None):
        self.feed.busy -= 1

    def on_predict_begin(self, logs=None):
        self.feed.busy += 1

    def on_predict_end(self, logs=None):
        self.feed.busy -= 1


def _numbers(logs):
    """The logs' finite numbers, by name."""
    out = {}
    for k, v in (logs or {}).items():
        number = as_number(v)
        if number is not None:
            out[k] = number
    return out


def as_number(value):
    try:
        if hasattr(value, "numpy"):
            value = value.numpy()
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number == number and abs(number) != float("inf") else None
