"""``tf.cond``, ``tf.case`` and ``tf.switch_case`` run eagerly: only the chosen branch runs, so
the tape records only its ops (gradients flow through the branch taken, as in TensorFlow).
While a ``tf.function`` traces, over a predicate the trace computed, they are graph nodes
instead (``traced``): both branches are traced, and later calls replay the one picked."""
import sys

from ..errors import InvalidArgumentError
from ..function.control import NOT_TRACED
from ..tensor import Tensor
from . import traced


def cond(pred, true_fn=None, false_fn=None, name=None):
    """Runs ``true_fn()`` if ``pred`` is true, else ``false_fn()``, and returns its result.

    >>> import tapegrad as tf
    >>> x = tf.constant(3.0)
    >>> float(tf.cond(x > 2.0, lambda: x * 10.0, lambda: x))
    30.0
    """
    for label, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if fn is None:
            raise TypeError(f"cond(): '{label}' argument required")
        if not callable(fn):
            raise TypeError(f"'{label}' must be callable.")
    out = traced.cond(pred, true_fn, false_fn, sys._getframe(1))
    if out is not NOT_TRACED:
        return out
    # A tensor's truth value: a scalar's, an error for several elements (NumPy's message, as TF)
    return true_fn() if bool(pred) else false_fn()


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """Runs the function of the first true predicate (``exclusive=True``: of the only true one),
    or ``default`` if none is true.

    >>> import tapegrad as tf
    >>> x = tf.constant(3)
    >>> int(tf.case([(x < 2, lambda: tf.constant(1)), (x < 5, lambda: tf.constant(2))],
    ...             default=lambda: tf.constant(0)))
    2
    """
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else pred_fn_pairs
    if not isinstance(pairs, (list, tuple)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict.")
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if not isinstance(pred, Tensor):
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        if pred.dtype.name != "bool":
            raise TypeError(f"pred must be Tensor of type bool: {pred.dtype.name}")
        if not callable(fn):
            # TensorFlow fails here while naming the predicate (Tensor.name, undefined eagerly)
            raise AttributeError(f"Tensor.name is undefined when eager execution is enabled "
                                 f"(tf.case: the function paired with {pred} is not callable).")
    if default is not None and not callable(default):
        raise TypeError("default must be callable.")
    if default is not None and not exclusive:
        out = traced.chain([p for p, _ in pairs], [fn for _, fn in pairs], default,
                           sys._getframe(1))
        if out is not NOT_TRACED:
            return out
    truth = [bool(pred) for pred, _ in pairs]
    if exclusive and sum(truth) > 1:
        raise InvalidArgumentError(
            "Input error: exclusive=True: more than 1 conditions evaluated as True: "
            + ", ".join(str(t) for t in truth))
    for t, (_, fn) in zip(truth, pairs):
        if t:
            return fn()
    if default is None:
        raise InvalidArgumentError("Input error: None of conditions evaluated as True: "
                                   + ", ".join(str(t) for t in truth))
    return default()


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """Runs ``branch_fns[branch_index]()``; an index out of range runs ``default`` (or, without
    one, the last branch), as TensorFlow does.

    >>> import tapegrad as tf
    >>> int(tf.switch_case(tf.constant(1), [lambda: tf.constant(10), lambda: tf.constant(20)]))
    20
    """
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    actions = _branches_in_order(branch_fns)
    if default is not None:
        actions.append(default)
    if branch_index.ndim != 0:
        raise InvalidArgumentError(
            f"'branch_index' must be a scalar, got shape {branch_index.shape} [Op:Case]")
    out = traced.switch_case(branch_index, actions, sys._getframe(1))
    if out is not NOT_TRACED:
        return out
    i = int(branch_index)
    if i < 0 or i >= len(actions):
        i = len(actions) - 1
    return actions[i]()


def _branches_in_order(branch_fns):
    items = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if all(callable(fn) for fn in items):
        items = list(enumerate(items))
    for pair in items:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = sorted(k for k, _ in items)
    if keys != list(range(len(keys))):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to {len(keys)}) "
                         f"but found {{{','.join(map(str, keys))}}}")
    return [fn for _, fn in sorted(items, key=lambda p: p[0])]
