"""Variables while tracing: how many the process has made (a function may create them on its
first call only), and the program's state kept as it was across a trace TensorFlow would only
build a graph from."""
import gc

from .. import variables
from ..backend import xp as np
from ..thread_state import state
from ..variables import Variable


def variables_made():
    """How many variables this process has made so far, read (not advanced) from the counter
    that numbers them (``variables._next_uid``, an ``itertools.count``: its repr is
    ``count(<next>)``); None where that counter cannot be read."""
    counter = getattr(getattr(variables, "_next_uid", None), "__self__", None)
    text = repr(counter)
    return text if text.startswith("count(") else None


def _ignore(*args, **kwargs):
    return None


class UndoAssignments:
    """While active, no tape sees the ops run, and on exit every variable alive on entry gets
    back the value it had, its array restored in place too (optimizers update their slots in
    place): a trace TensorFlow would only build a graph from must not change the program."""

    def __getattr__(self, name):
        if name.startswith("on_"):        # any event a recorder may be told: ignored
            return _ignore
        raise AttributeError(name)

    def __enter__(self):
        self._saved = [(v, v._value, np.array(v._value, copy=True))
                       for v in gc.get_objects() if isinstance(v, Variable)]
        self._outer = state.active
        state.active = [self]
        return self

    def __exit__(self, *exc):
        state.active = self._outer
        for var, array, contents in self._saved:
            if isinstance(array, np.ndarray) and array.flags.writeable:
                array[...] = contents
                var._value = array
            else:
                var._value = contents
        return False
