"""``tf.name_scope``, ``tf.get_current_name_scope`` and ``tf.init_scope``.

In eager code TensorFlow's name scopes name only what carries a name: variables
(``outer/inner/v:0``) and the scope string itself. Tensors computed eagerly have no name, so
tapegrad has nothing else to name either. The scope is the same per-thread prefix list Keras
layers push their names onto (``variables.name_scope_stack``), so the two nest.

>>> import tapegrad as tf
>>> with tf.name_scope("outer"):
...     with tf.name_scope("inner") as scope:
...         v = tf.Variable(1.0, name="v")
>>> scope, v.name
('outer/inner/', 'outer/inner/v:0')
"""
import contextlib
import threading

from . import recording
from .function import _calls as function_calls
from .function.graph import lifted as traces_lifted
from .tape import GradientTape
from .thread_state import state


class _Lifted(threading.local):
    depth = 0    # tf.function calls that an init_scope has lifted the code out of


lifted = _Lifted()


def get_current_name_scope():
    """The current name scope, without the trailing slash (``""`` at the top).

    >>> import tapegrad as tf
    >>> with tf.name_scope("a"):
    ...     tf.get_current_name_scope()
    'a'
    """
    return "".join(state.name_scopes).rstrip("/")


class name_scope:  # noqa: N801 - TensorFlow's name
    """A context in which variables' names get the prefix ``name/`` (nested scopes join with
    ``/``; a name ending in ``/`` replaces the whole scope, an empty one clears it). Entering
    gives the scope string, as TensorFlow's does.
    """

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._saved = []

    @property
    def name(self):
        return self._name

    def __enter__(self):
        scopes = state.name_scopes
        current = "".join(scopes)
        name = self._name
        if not name:
            scope = ""
        elif name.endswith("/"):
            scope = name
        else:
            scope = current + name + "/"
        self._saved.append(scopes[:])
        scopes[:] = [scope] if scope else []
        recording.scope_stack.append(f"name_scope:{name.rstrip('/') or '/'}")   # its graph group
        return scope

    def __exit__(self, *exc):
        state.name_scopes[:] = self._saved.pop()
        recording.scope_stack.pop()
        return False


@contextlib.contextmanager
def init_scope():
    """Lifts the code inside out of any ``tf.function`` call and pauses the gradient tapes, as
    TensorFlow's ``init_scope`` does (for creating state once): ``tf.executing_eagerly()`` is
    ``True`` inside, the tapes record nothing, and a trace in progress does not see it (what it
    makes is a constant of the graph; a draw inside runs once, not on every call).

    >>> import tapegrad as tf
    >>> @tf.function
    ... def f():
    ...     with tf.init_scope():
    ...         return tf.executing_eagerly()
    >>> bool(f())
    True
    """
    calls = function_calls             # the tf.function calls in progress in this thread
    depth, calls.depth = calls.depth, 0
    lifted.depth += depth
    with contextlib.ExitStack() as stack:
        stack.enter_context(traces_lifted())
        for recorder in list(state.active):
            if isinstance(recorder, GradientTape) and recorder._recording:
                stack.enter_context(recorder.stop_recording())
        try:
            yield
        finally:
            calls.depth = depth
            lifted.depth -= depth
