"""The batches ``fit``, ``evaluate`` and ``predict`` iterate over.

Arrays (NumPy arrays, tensors, lists, or lists/dicts of them) are cut into batches of
``batch_size`` (32 by default), shuffled each epoch when asked. Anything else iterable
(a ``tf.data.Dataset``, a generator, any object with ``__iter__``) is taken as batches of
``(x, y)``, ``(x, y, sample_weight)`` or ``x`` and iterated again each epoch. A
``tf.sparse.SparseTensor`` among the arrays (for a model with ``Input(sparse=True)``) is cut by
rows into SparseTensors.
"""
import math
import numbers

from ... import nest
from ...backend import xp
from ...ops.sparse_ops import SparseTensor
from ...tensor import wrap


def _is_array_like(x):
    if x is None:
        return True
    if isinstance(x, dict):
        return all(_is_array_like(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return True
    return hasattr(x, "shape") and hasattr(x, "dtype")


def _to_array(x):
    if isinstance(x, SparseTensor):
        return x
    if hasattr(x, "_as_tensor"):
        x = x._as_tensor()
    value = getattr(x, "_value", None)
    return xp.asarray(value if value is not None else x)


def _arrays(x):
    """``x`` with every leaf a NumPy array (a list of numbers is one array; a list of arrays
    is a list of inputs)."""
    if x is None:
        return None
    if isinstance(x, dict):
        return {k: _to_array(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)) and x and all(hasattr(v, "shape") for v in x):
        return type(x)(_to_array(v) for v in x)
    return _to_array(x)


def _samples(a):
    return int(a.dense_shape._value[0]) if isinstance(a, SparseTensor) else int(a.shape[0])


def _select(a, index):
    """The samples ``index`` (a slice or an array of positions) of one array, as a tensor; of a
    SparseTensor, as a SparseTensor of those rows in that order."""
    if not isinstance(a, SparseTensor):
        return wrap(xp.ascontiguousarray(a[index]))
    shape = a.dense_shape._value
    rows = xp.arange(int(shape[0]))[index]
    position = xp.full(int(shape[0]), -1, xp.int64)
    position[rows] = xp.arange(len(rows))
    indices = a.indices._value
    first = position[indices[:, 0]]
    keep = first >= 0
    picked = indices[keep].copy()
    picked[:, 0] = first[keep]
    order = xp.lexsort(picked.T[::-1]) if picked.size else xp.arange(0)
    return SparseTensor(wrap(picked[order]), wrap(a.values._value[keep][order]),
                        wrap(xp.concatenate([[len(rows)], shape[1:]]).astype(xp.int64)))


def unpack(data):
    """``(x, y, sample_weight)`` from a batch (a tuple of 1 to 3, or ``x`` alone)."""
    if isinstance(data, tuple) and not hasattr(data, "_fields"):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data
        raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                         f"`(x, y, sample_weight)`, found: {data!r}")
    return data, None, None


def class_weight_to_sample_weight(y, class_weight):
    labels = _to_array(y)
    if labels.ndim > 1 and labels.shape[-1] > 1:
        labels = labels.argmax(axis=-1)
    labels = labels.reshape(labels.shape[0], -1)[:, 0].astype("int64")
    return xp.asarray([class_weight.get(int(c), 1.0) for c in labels], "float32")


def _batch(x, y, sample_weight):
    """``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``: what ``train_step`` receives (so the
    guide's ``x, y = data`` works when there are no sample weights)."""
    if sample_weight is not None:
        return x, y, sample_weight
    return (x, y) if y is not None else (x,)


def batch_size_of(batch_size):
    """``fit``/``evaluate``/``predict``'s ``batch_size``: None or 0 is 32, as in Keras; a
    negative or non-integer one is refused (Keras fails inside its slicing, with TensorFlow's
    "Invalid value in tensor used for shape" or a TypeError about the ``Slice`` op)."""
    if not batch_size:
        return 32
    if not isinstance(batch_size, numbers.Integral):
        raise TypeError(f"`batch_size` must be an integer. Received: batch_size={batch_size!r} "
                        f"(of type {type(batch_size).__name__})")
    if batch_size < 0:
        raise ValueError(f"`batch_size` must be a positive integer. Received: "
                         f"batch_size={batch_size}")
    return int(batch_size)


def check_cardinality(x, y, sample_weight):
    """Every array has the same number of samples, else Keras's ValueError naming them."""
    parts = [(label, nest.flatten(part)) for label, part in
             (("x", x), ("y", y), ("sample_weight", sample_weight)) if part is not None]
    if len({_samples(a) for _, flat in parts for a in flat}) <= 1:
        return
    message = ("Data cardinality is ambiguous. Make sure all arrays contain the same number of "
               "samples.")
    for label, flat in parts:
        message += f"'{label}' sizes: {', '.join(str(_samples(a)) for a in flat)}\n"
    raise ValueError(message)


class ArrayData:
    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False,
                 steps=None, class_weight=None):
        self.x, self.y, self.sw = _arrays(x), _arrays(y), _arrays(sample_weight)
        if class_weight is not None and self.y is not None:
            if self.sw is not None:
                raise ValueError("`sample_weight` and `class_weight` cannot be given together")
            self.sw = class_weight_to_sample_weight(self.y, class_weight)
        check_cardinality(self.x, self.y, self.sw)
        sizes = {_samples(a) for a in nest.flatten([self.x, self.y, self.sw])
                 if a is not None}
        self.n = sizes.pop() if sizes else 0
        self.batch_size = batch_size_of(batch_size)
        self.shuffle = shuffle
        self.permute = xp.random.permutation   # (MultiWorkerMirroredStrategy: rank 0's order)
        # no samples, no steps: Keras's epoch then runs no batch and logs nothing
        self.steps = steps if steps is not None else math.ceil(self.n / self.batch_size)

    def _take(self, structure, index):
        if structure is None:
            return None
        return nest.map_structure(lambda a: _select(a, index), structure)

    def batches(self):
        order = self.permute(self.n) if self.shuffle else None
        for step in range(self.steps):
            start = (step * self.batch_size) % max(self.n, 1)
            stop = min(start + self.batch_size, self.n)
            index = order[start:stop] if order is not None else slice(start, stop)
            yield step, _batch(self._take(self.x, index), self._take(self.y, index),
                               self._take(self.sw, index))

    def split(self, fraction):
        """(training part, validation part): the last ``fraction`` of the samples validate.
        As in Keras, the cut is ``floor(n * (1 - fraction))`` used as a slice index (so a
        fraction above 1 or below 0 still splits); a cut leaving either part empty is refused."""
        cut = int(math.floor(self.n * (1.0 - fraction)))
        if cut in (0, self.n):
            raise ValueError(f"Training data contains {self.n} samples, which is not sufficient "
                             f"to split it into a validation and training set as specified by "
                             f"`validation_split={fraction}`. Either provide more data, or a "
                             f"different value for the `validation_split` argument.")
        head = (lambda s: None if s is None else nest.map_structure(
            lambda a: _select(a, slice(None, cut)) if isinstance(a, SparseTensor) else a[:cut],
            s))
        tail = (lambda s: None if s is None else nest.map_structure(
            lambda a: _select(a, slice(cut, None)) if isinstance(a, SparseTensor) else a[cut:],
            s))
        return ((head(self.x), head(self.y), head(self.sw)),
                (tail(self.x), tail(self.y), tail(self.sw)))


class IterableData:
    def __init__(self, data, steps=None):
        self.data = data
        self.steps = steps
        try:
            self.known = len(data) if steps is None else steps
        except TypeError:
            self.known = steps

    def batches(self):
        """One epoch: the whole iterable, or ``steps`` batches taken from one iterator kept
        across epochs (so a repeated dataset continues where the last epoch stopped)."""
        if self.steps is None:
            source = enumerate(self.data)
        else:
            source = zip(range(self.steps), self._continued())
        for step, batch in source:
            yield step, _batch(*unpack(tuple(batch) if isinstance(batch, list) else batch))

    def _continued(self):
        while True:
            if getattr(self, "_iterator", None) is None:
                self._iterator = iter(self.data)
            try:
                yield next(self._iterator)
            except StopIteration:
                self._iterator = None
                return


def adapt(x, y=None, sample_weight=None, batch_size=None, shuffle=False, steps=None,
          class_weight=None):
    """An object whose ``batches()`` yields ``(step, (x, y, sample_weight))``."""
    if _is_array_like(x) and not hasattr(x, "element_spec"):
        return ArrayData(x, y, sample_weight, batch_size, shuffle, steps, class_weight)
    if y is not None:
        raise ValueError("`y` argument is not supported when using a dataset or an iterable "
                         "as input: give batches of (x, y) instead.")
    if sample_weight is not None:
        raise ValueError("`sample_weight` argument is not supported when the input is a "
                         "dataset or an iterable: give batches of (x, y, sample_weight).")
    return IterableData(x, steps)
