"""Running the user's functions (``map``, ``filter``, ``reduce``...) the way ``tf.data`` does.

TensorFlow traces such a function into the dataset's own graph, so no ``GradientTape`` sees
its ops (a gradient through a ``map`` to a variable is None) and its output spec is known when
the dataset is built. Here the function runs eagerly on each element, outside every tape, and
the spec comes from running it once on the first input element (a probe, see
``Dataset._probe``).
"""
import contextlib
import threading

from ..errors import InvalidArgumentError
from ..tensor import TensorShape
from ..thread_state import state
from . import structure


@contextlib.contextmanager
def outside_tapes():
    """No tape or accumulator of this thread sees the ops run inside (restored even on
    errors)."""
    active = state.active
    saved = active[:]
    del active[:]
    try:
        yield
    finally:
        active[:] = saved


class _Probing(threading.local):
    depth = 0


probing_state = _Probing()


@contextlib.contextmanager
def probing():
    """Within this block datasets produce elements only to learn specs: shuffles do not count
    an epoch and caches keep nothing."""
    probing_state.depth += 1
    try:
        with outside_tapes():
            yield
    finally:
        probing_state.depth -= 1


def is_probing():
    return probing_state.depth > 0


def call(fn, element):
    """``fn`` on one element: a tuple element is passed as separate arguments, as in TF."""
    if type(element) is tuple:
        return apply(fn, *element)
    return apply(fn, element)


def apply(fn, *args):
    """``fn(*args)`` with TF's error for mixed dtypes: in a traced function, an op given a
    tensor of the wrong dtype raises ``TypeError`` (eagerly it is ``InvalidArgumentError``)."""
    try:
        return fn(*args)
    except InvalidArgumentError as e:
        if "was expected to be a" in str(e):
            raise TypeError(f"{e} (in a function that tf.data traces, where TensorFlow raises "
                            f"TypeError for mixed dtypes)") from e
        raise


class _Skipping(threading.local):
    depth = 0


skipping_state = _Skipping()


@contextlib.contextmanager
def skipping_errors():
    """Within this block a ``map`` drops the elements whose function raised a TF op error
    (``ignore_errors``)."""
    skipping_state.depth += 1
    try:
        yield
    finally:
        skipping_state.depth -= 1


def spec_from_probe(output, probe_input, input_spec):
    """The spec of ``output`` (what a function returned for ``probe_input``), with a dimension
    left unknown (None) where it follows an unknown dimension of the input.

    An output leaf of exactly the shape of an input leaf takes that leaf's spec shape (an
    elementwise function); otherwise a size equal to one that the input spec left unknown is
    taken as unknown too.
    """
    inputs = structure.flatten(probe_input) if probe_input is not None else []
    in_specs = structure.flatten(input_spec) if probe_input is not None else []
    by_shape = {}
    unknown_sizes = set()
    for t, s in zip(inputs, in_specs):
        if s.shape.rank is None:
            continue
        by_shape.setdefault(tuple(t.shape), s.shape)
        unknown_sizes.update(n for n, d in zip(t.shape, s.shape) if d is None)

    def leaf_spec(t):
        shape = tuple(t.shape)
        own = structure.leaf_spec(t)
        if shape in by_shape:
            return structure.spec_like(own, by_shape[shape])
        return structure.spec_like(own, TensorShape([None if n in unknown_sizes else n
                                                     for n in shape]))

    return structure.pack(output, [leaf_spec(t) for t in structure.flatten(output)])
