"""``tf.autograph``: AutoGraph, which rewrites a ``tf.function``'s Python ``if``, ``while`` and
``for`` so that over tensors they become graph control flow (``tf.cond``, ``tf.while_loop``
nodes of the trace: one trace serves inputs taking any branch), while over Python values they
run (and unroll) as Python; ``return``, ``break`` and ``continue`` are lowered into flag
variables first (``jumps``). ``transform`` rewrites the source with ``ast``; ``operators`` holds
what the rewritten code calls. ``tf.function(autograph=False)`` runs the function as written;
so does a call under ``tf.config.run_functions_eagerly(True)``. See docs/tracing.md.

>>> import tapegrad as tf
>>> @tf.autograph.experimental.do_not_convert
... def f(x):
...     return x + 1
>>> f(1)
2
"""
from ..function.polymorphic import use_autograph
from .transform import DO_NOT_CONVERT, converted

use_autograph(converted)

_verbosity = [0]


def set_verbosity(level, alsologtostdout=False):
    """Accepted and remembered; tapegrad's conversion logs nothing."""
    _verbosity[0] = int(level)


def get_verbosity():
    return _verbosity[0]


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The source of ``entity`` as AutoGraph converted it: the code a ``tf.function`` of it
    traces (its ``if``/``while``/``for`` as ``ag__`` calls).

    >>> import tapegrad as tf
    >>> def f(x):
    ...     if x > 0:
    ...         x = -x
    ...     return x
    >>> "ag__.if_stmt" in tf.autograph.to_code(f)
    True
    """
    fn = getattr(entity, "python_function", entity)
    fn = getattr(fn, "__func__", fn)
    done = converted(fn)
    if done is fn:
        raise ValueError(f"AutoGraph could not convert {entity!r}")
    return done.ag_source + "\n"


class experimental:  # noqa: N801 - a namespace, as ``tf.autograph.experimental``
    @staticmethod
    def do_not_convert(func=None):
        """Marks a function as not to be converted: returns it unchanged (as a decorator with or
        without parentheses)."""
        if func is None:
            return experimental.do_not_convert
        try:
            setattr(func, DO_NOT_CONVERT, True)
        except (AttributeError, TypeError):     # (objects that take no attributes)
            pass
        return func

    class Feature:
        ALL = "ALL"
        AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
        ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
        BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
        EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
        LISTS = "LISTS"
        NAME_SCOPES = "NAME_SCOPES"


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The function converted by AutoGraph (``entity`` itself where it cannot be converted)."""
    if not callable(entity):
        raise ValueError(f"Expected a Python function or method, got {type(entity).__name__}")
    return converted(entity)


def trace(*args):
    """Prints its arguments, as TensorFlow's ``tf.autograph.trace`` does when the code runs."""
    print(*args)
