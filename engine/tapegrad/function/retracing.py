"""The warning about frequent retracing, as TensorFlow logs it."""
import inspect
import logging
import weakref

_log = logging.getLogger("tapegrad")


class _RetracingWatch:
    """The recent calls of one Python function (all its tf.functions share it, so that one
    created again in a loop is noticed): a warning when 5 of about the last 10 traced, at most
    twice, as TensorFlow warns."""

    HISTORY, THRESHOLD, MAX_WARNINGS = 10, 5, 2

    def __init__(self):
        self.calls_per_trace = []     # calls since each recent trace (the trace included)
        self.calls = 0
        self.warnings = 0

    def note(self, traced, fn):
        self.calls += 1
        if not traced:
            if not self.calls_per_trace:
                self.calls_per_trace.append(0)
            self.calls_per_trace[-1] += 1
            return
        self.calls_per_trace.append(1)
        while self.calls_per_trace and self.calls - self.calls_per_trace[0] > self.HISTORY:
            self.calls -= self.calls_per_trace.pop(0)
        if self.warnings < self.MAX_WARNINGS and len(self.calls_per_trace) >= self.THRESHOLD:
            self.warnings += 1
            _log.warning(
                f"{len(self.calls_per_trace)} out of the last {self.calls} calls to {fn} triggered "
                "tf.function retracing. Tracing is expensive and the excessive number of tracings "
                "could be due to (1) creating @tf.function repeatedly in a loop, (2) passing "
                "tensors with different shapes, (3) passing Python objects instead of tensors. "
                "For (1), please define your @tf.function outside of the loop. For (2), "
                "@tf.function has reduce_retracing=True option that can avoid unnecessary "
                "retracing. For (3), please refer to "
                "https://www.tensorflow.org/guide/function#controlling_retracing and "
                "https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


_watches = weakref.WeakKeyDictionary()
_watches_by_id = {}


def retracing_watch(python_function):
    """The watch shared by every tf.function of ``python_function``'s code."""
    fn = inspect.unwrap(python_function)
    key = getattr(getattr(fn, "__func__", fn), "__code__", python_function)
    try:
        return _watches.setdefault(key, _RetracingWatch())
    except TypeError:                    # an object that cannot be weakly referenced
        return _watches_by_id.setdefault(id(key), _RetracingWatch())
