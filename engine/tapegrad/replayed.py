"""Engine functions that a traced graph runs again on every replay, each as one node.

A ``tf.function`` trace records primitives (``function/graph.py``), and a tensor made in Python
by anything else stops the trace from being replayed. Some engine functions are not primitives
and must not keep their first value: a random draw reads and advances a stream, ``tf.unique``
makes a tensor whose shape depends on the values, ``tf.sparse.to_dense`` reads its dense shape in
Python. Marked ``@replayed(...)``, such a function is one ``CALL`` node while a trace records it:
its tensor arguments are slots of the graph, its tensor results new slots, and every replay
calls it again on the replay's tensors. That is what TensorFlow does with its stateful and
data-dependent ops: the Python body runs once per trace, the op on every call.

``tracer`` is None unless a trace is in progress; ``function.graph`` sets it then, and a marked
call goes through it. ``CALLS`` names every marked function (a SavedModel stores the name).
"""
import functools
import inspect

tracer = None
CALLS = {}          # "module:qualname" -> its ``Call``


class Call:
    """How a marked function becomes a node (see ``replayed``)."""

    __slots__ = ("fn", "name", "op", "per_node", "dynamic_shape", "only_dynamic", "pure",
                 "_signature")

    def __init__(self, fn, op, per_node, dynamic_shape, only_dynamic, pure):
        self.fn, self.op, self.per_node = fn, op, per_node
        self.dynamic_shape, self.only_dynamic = dynamic_shape, only_dynamic
        self.pure = pure or dynamic_shape or only_dynamic
        self.name = f"{fn.__module__}:{fn.__qualname__}"
        self._signature = None

    def arguments(self, args, kwargs):
        """The call's arguments by name, defaults included."""
        if self._signature is None:
            self._signature = inspect.signature(self.fn)
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.arguments

    def run(self, context, args, kwargs):
        """The function called, inside the node's ``context`` where it has one."""
        if context is None:
            return self.fn(*args, **kwargs)
        with context:
            return self.fn(*args, **kwargs)

    def node_context(self, args, kwargs, ordinal):
        """The context every run of this node enters (None: none), made once per node."""
        if self.per_node is None:
            return None
        return self.per_node(self.arguments(args, kwargs), ordinal)


def replayed(op, per_node=None, dynamic_shape=False, only_dynamic=False, pure=False):
    """Marks an engine function as a node that replays call again (see the module docstring).

    ``op``: the TensorFlow op type a concrete function's graph lists for it.
    ``per_node(arguments, ordinal)``: a context manager (or None) that each run of the node
    enters, the trace's own run and every replay's, made once when the node is recorded from the
    call's arguments by name and the node's position among the trace's calls (a seeded draw's
    own stream, as TensorFlow's kernel keeps one per op).
    ``dynamic_shape``: the results' shapes depend on the values, not only on the arguments'
    shapes (a trace that read such a shape in Python checks it on every replay).
    ``only_dynamic``: a node only when an argument has such a shape (``tf.shape``, ``tf.size``:
    otherwise the trace knows their result).
    ``pure``: its results are a function of its arguments alone and it changes no state (implied
    by the two above); a node that is not (a draw, an update, a print) is not run twice by a
    replay that gives way to the Python body (``function.graph.ShapeChanged``).
    """
    def mark(fn):
        call = Call(fn, op, per_node, dynamic_shape, only_dynamic, pure)

        @functools.wraps(fn)
        def run(*args, **kwargs):
            trace = tracer
            if trace is None:
                return fn(*args, **kwargs)
            return trace(call, args, kwargs)
        run.replayed = call
        CALLS[call.name] = call
        return run
    return mark
