"""What a ``tf.function`` call in progress changes: whether code runs eagerly, the body's prints
hidden on the calls that would not trace, the call's cluster in the tape graph, and the hooks
other modules enter around each call."""
import contextlib
import os
import sys
import threading

from .. import recording

# The package's directory: text written from code in it (``tf.print``) is never hidden.
_ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class _CallState(threading.local):
    def __init__(self):
        self.depth = 0      # tf.function calls in progress in this thread
        self.muted = 0      # of which calls that hide the body's prints (not tracing)


_calls = _CallState()
_run_eagerly = [False]


def run_functions_eagerly(run_eagerly):
    """``tf.config.run_functions_eagerly``: with ``True`` every call behaves as eager code (its
    prints always show and ``tf.executing_eagerly()`` is ``True`` inside). Calls always run
    eagerly in tapegrad; the flag changes only what TensorFlow's flag observably changes."""
    _run_eagerly[0] = bool(run_eagerly)


def functions_run_eagerly():
    """Whether ``run_functions_eagerly(True)`` is in effect."""
    return _run_eagerly[0]


def executing_eagerly():
    """``True`` outside a ``tf.function``; ``False`` inside one, as TensorFlow's graph answers.

    >>> import tapegrad as tf
    >>> tf.executing_eagerly()
    True
    """
    return _calls.depth == 0 or _run_eagerly[0]


class _HiddenPrints:
    """Stands for ``sys.stdout`` during calls that would not trace in TensorFlow: text written
    from the user's code is dropped, text written by the engine (``tf.print``) goes through."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        if sys._getframe(1).f_code.co_filename.startswith(_ENGINE_DIR):
            return self._stream.write(text)
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


# Context managers entered around each call, given the Python function (graph_gradients.py
# records the ops ``tf.gradients`` reads there).
call_hooks = []

# Functions told of every call made outside other calls, given ``(function, args, kwargs)``
# (``tf.summary.trace_on`` keeps the calls whose graphs ``trace_export`` writes).
call_watchers = []


@contextlib.contextmanager
def hooked(python_function):
    if not call_hooks:
        yield
        return
    with contextlib.ExitStack() as stack:
        for hook in call_hooks:
            stack.enter_context(hook(python_function))
        yield


@contextlib.contextmanager
def call_scope(label, hide_prints):
    """One call: ``label`` names its cluster in the tape graph; with ``hide_prints`` what the
    user's code prints is dropped."""
    _calls.depth += 1
    recording.scope_stack.append(label)
    saved = sys.stdout
    if hide_prints:
        _calls.muted += 1
        sys.stdout = _HiddenPrints(saved)
    try:
        yield
    finally:
        if hide_prints:
            sys.stdout = saved
            _calls.muted -= 1
        recording.scope_stack.pop()
        _calls.depth -= 1
