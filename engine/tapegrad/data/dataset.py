"""``tf.data.Dataset``: a pipeline of elements, iterated in Python ``for`` loops.

Each dataset knows its ``element_spec`` and its ``cardinality`` when it is built, and makes its
elements lazily, one at a time, when iterated. The transformations (``map``, ``batch``,
``shuffle``...) return new datasets; the classes that implement them are in ``sources.py``,
``transforms.py``, ``batching.py`` and ``combining.py``.

>>> import tapegrad as tf
>>> ds = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4]).map(lambda x: x * 10).batch(3)
>>> [b.numpy().tolist() for b in ds]
[[10, 20, 30], [40]]
"""
from ..backend import xp as np
from .. import dtypes
from ..errors import FailedPreconditionError, InvalidArgumentError, OutOfRangeError
from ..tensor import wrap
from . import functions, structure
from .options import Optional, Options

INFINITE = -1          # tf.data.INFINITE_CARDINALITY
UNKNOWN = -2           # tf.data.UNKNOWN_CARDINALITY
AUTOTUNE = -1          # tf.data.AUTOTUNE


class Implementations:
    """The classes and functions behind ``Dataset``'s methods. They live in the modules that
    build on this one (``sources``, ``transforms``, ``batching``, ``combining``, ``grouping``,
    ``readers``), which add them here when imported (``tapegrad.data`` imports them all); so
    this module imports none of them, and no import goes in a circle."""

    def add(self, *objects):
        for obj in objects:
            setattr(self, obj.__name__, obj)


implementations = Implementations()


class DatasetV2:
    """The base of every dataset (``tf.data.Dataset``).

    Subclasses set ``_spec`` and ``_cardinality`` and define ``_elements()``, a generator of
    the elements (nested tuples and dicts of tensors).
    """

    _spec = None
    _cardinality = UNKNOWN

    # -- what a dataset is ------------------------------------------------------------------
    @property
    def element_spec(self):
        """The structure of one element, with a ``tf.TensorSpec`` per tensor.

        >>> import tapegrad as tf
        >>> tf.data.Dataset.from_tensor_slices(([[1.0, 2.0]], [0])).element_spec[0]
        TensorSpec(shape=(2,), dtype=tf.float32, name=None)
        """
        return self._spec

    def cardinality(self):
        """The number of elements as an int64 scalar: ``tf.data.INFINITE_CARDINALITY`` (-1)
        for an endless dataset, ``tf.data.UNKNOWN_CARDINALITY`` (-2) when it depends on the
        data (after ``filter``, for example).

        >>> import tapegrad as tf
        >>> int(tf.data.Dataset.range(10).batch(3).cardinality())
        4
        """
        return wrap(np.array(self._cardinality, np.int64))

    def __len__(self):
        n = self._cardinality
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self):
        return True   # not len(): an endless dataset is still a dataset

    def __iter__(self):
        return OwnedIterator(self)

    def __repr__(self):
        return f"<{type(self).__name__} element_spec={self.element_spec}>"

    def _elements(self):
        raise NotImplementedError(f"{type(self).__name__} does not define its elements")

    def _checkpoint_variables(self):
        """A dataset may be given to ``tf.train.Checkpoint``; it saves nothing (its iterators
        hold the positions)."""
        return []

    def _probes(self, count=2):
        """Up to ``count`` elements, made only to learn the spec of what a function returns
        for them. No tape sees them, no shuffle counts an epoch, no cache keeps them."""
        found = []
        with functions.probing():
            for element in self._elements():
                found.append(element)
                if len(found) == count:
                    break
        return found

    def as_numpy_iterator(self):
        """Iterates over the elements as NumPy values (``bytes`` for strings).

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.range(3).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2)]
        """
        return NumpyIterator(self)

    # -- sources ---------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """A dataset of the slices of ``tensors`` along their first dimension.

        ``tensors`` may be a tensor, an array, a list, or tuples and dicts of them (all with
        the same first dimension).

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2], [[1.0, 0.0], [0.0, 1.0]]))
        >>> [(int(a), b.numpy().tolist()) for a, b in ds]
        [(1, [1.0, 0.0]), (2, [0.0, 1.0])]
        """
        return implementations._TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element, ``tensors`` itself.

        >>> import tapegrad as tf
        >>> [t.numpy().tolist() for t in tf.data.Dataset.from_tensors([1, 2])]
        [[1, 2]]
        """
        return implementations._TensorDataset(tensors)

    @staticmethod
    def range(*args, **kwargs):
        """``range(stop)``, ``range(start, stop)`` or ``range(start, stop, step)`` as int64
        scalars (``output_type=`` for another dtype).

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.range(5, 0, -2).as_numpy_iterator())
        [np.int64(5), np.int64(3), np.int64(1)]
        """
        return implementations._RangeDataset(args, kwargs.get("output_type", dtypes.int64))

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """Combines datasets element by element (a tuple or dict of them, or several
        arguments); stops with the shortest.

        >>> import tapegrad as tf
        >>> a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)
        >>> [(int(x), int(y)) for x, y in tf.data.Dataset.zip(a, b)]
        [(0, 10), (1, 11)]
        """
        if datasets is not None and args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        if datasets is None:
            datasets = args[0] if len(args) == 1 else tuple(args)
        return implementations._ZipDataset(datasets)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """A dataset of what ``generator()`` yields, converted to ``output_signature``.

        >>> import tapegrad as tf
        >>> def gen():
        ...     yield from ([1.0], [2.0, 3.0])
        >>> ds = tf.data.Dataset.from_generator(
        ...     gen, output_signature=tf.TensorSpec(shape=(None,), dtype=tf.float32))
        >>> [t.numpy().tolist() for t in ds]
        [[1.0], [2.0, 3.0]]
        """
        return implementations.from_generator(generator, output_types, output_shapes, args,
                                              output_signature)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """An endless dataset ``start, start + step, ...``.

        >>> import tapegrad as tf
        >>> list(tf.data.Dataset.counter(5, 2).take(3).as_numpy_iterator())
        [np.int64(5), np.int64(7), np.int64(9)]
        """
        return implementations.counter(start, step, dtype)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Element ``i`` comes from ``datasets[choice_i]`` (``choice_dataset`` of int64).

        >>> import tapegrad as tf
        >>> a = tf.data.Dataset.from_tensors("a").repeat()
        >>> b = tf.data.Dataset.from_tensors("b").repeat()
        >>> choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 0], tf.int64))
        >>> list(tf.data.Dataset.choose_from_datasets([a, b], choice).as_numpy_iterator())
        [b'a', b'b', b'a']
        """
        return implementations._DirectedInterleaveDataset.choose(datasets, choice_dataset,
                                                                 stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Draws each element from one of ``datasets``, picked at random with ``weights``.

        >>> import tapegrad as tf
        >>> a = tf.data.Dataset.from_tensors(0).repeat(3)
        >>> b = tf.data.Dataset.from_tensors(1).repeat(3)
        >>> ds = tf.data.Dataset.sample_from_datasets([a, b], seed=1)
        >>> sorted(int(x) for x in ds)
        [0, 0, 0, 1, 1, 1]
        """
        return implementations._DirectedInterleaveDataset.sample(datasets, weights, seed,
                                                                 stop_on_empty_dataset)

    # -- element-wise transformations --------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,
            use_unbounded_threadpool=False, name=None):
        """Applies ``map_func`` to each element (a tuple element is passed as arguments).

        ``num_parallel_calls`` and ``deterministic`` are accepted; elements are mapped one
        after another, in order.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2], [10, 20]))
        >>> [int(s) for s in ds.map(lambda a, b: a + b)]
        [11, 22]
        """
        if num_parallel_calls is None:
            return implementations._MapDataset(self, map_func)
        if int(num_parallel_calls) != -1 and int(num_parallel_calls) < 1:   # -1: AUTOTUNE
            raise InvalidArgumentError("num_parallel_calls must be greater than zero. "
                                       "[Op:ParallelMapDatasetV2]")
        return implementations._ParallelMapDataset(self, map_func)

    def filter(self, predicate, name=None):
        """Keeps the elements for which ``predicate`` returns a scalar ``tf.bool`` True.

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(10).filter(lambda x: x % 4 == 0)]
        [0, 4, 8]
        """
        return implementations._FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        """Maps each element to a dataset and chains those datasets.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(1, 4).flat_map(lambda n: tf.data.Dataset.range(n))
        >>> [int(x) for x in ds]
        [0, 0, 1, 0, 1, 2]
        """
        return implementations._FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        """Maps elements to datasets and takes ``block_length`` elements from each of
        ``cycle_length`` of them in turn.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(1, 3).interleave(
        ...     lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2)
        >>> [int(x) for x in ds]
        [1, 2, 1, 2]
        """
        cls = implementations._InterleaveDataset if num_parallel_calls is None else \
            implementations._ParallelInterleaveDataset
        return cls(self, map_func, cycle_length, block_length)

    def scan(self, initial_state, scan_func, name=None):
        """Carries a state through the elements: ``scan_func(state, element)`` returns
        ``(new_state, output)``.

        >>> import tapegrad as tf
        >>> start = tf.constant(0, tf.int64)
        >>> ds = tf.data.Dataset.range(4).scan(start, lambda s, x: (s + x, s + x))
        >>> [int(x) for x in ds]
        [0, 1, 3, 6]
        """
        return implementations._ScanDataset(self, initial_state, scan_func)

    def enumerate(self, start=0, name=None):
        """Pairs each element with its int64 index, counted from ``start``.

        >>> import tapegrad as tf
        >>> [(int(i), int(x)) for i, x in tf.data.Dataset.from_tensor_slices([7, 8]).enumerate()]
        [(0, 7), (1, 8)]
        """
        indices = implementations._RangeDataset((start, np.iinfo(np.int64).max), dtypes.int64)
        return implementations._ZipDataset((indices, self))

    def unique(self, name=None):
        """The elements without repeats, in order of first appearance (int or string scalars).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.from_tensor_slices([1, 1, 2, 1, 3]).unique()]
        [1, 2, 3]
        """
        return implementations._UniqueDataset(self)

    # -- order and count ----------------------------------------------------------------------
    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        """Shuffles with a buffer of ``buffer_size`` elements: each element is drawn at random
        from the buffer, whose place the next input element takes. A buffer as large as the
        dataset gives a uniform shuffle; a buffer of 1 keeps the order. Each iteration (each
        epoch) shuffles again unless ``reshuffle_each_iteration=False``.

        >>> import tapegrad as tf
        >>> sorted(int(x) for x in tf.data.Dataset.range(5).shuffle(5, seed=1))
        [0, 1, 2, 3, 4]
        """
        return implementations._ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        """Repeats the dataset ``count`` times (forever when ``count`` is None or -1).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(2).repeat(2)]
        [0, 1, 0, 1]
        """
        return implementations._RepeatDataset(self, count)

    def take(self, count, name=None):
        """The first ``count`` elements (all of them for -1).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(10).take(3)]
        [0, 1, 2]
        """
        return implementations._TakeDataset(self, count)

    def skip(self, count, name=None):
        """All but the first ``count`` elements (none of them for -1).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(5).skip(3)]
        [3, 4]
        """
        return implementations._SkipDataset(self, count)

    def take_while(self, predicate, name=None):
        """The elements up to the first for which ``predicate`` is False.

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(10).take_while(lambda x: x < 3)]
        [0, 1, 2]
        """
        return implementations._TakeWhileDataset(self, predicate)

    def concatenate(self, dataset, name=None):
        """This dataset's elements, then those of ``dataset`` (same structure and dtypes).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 6))]
        [0, 1, 5]
        """
        return implementations._ConcatenateDataset(self, dataset)

    def prefetch(self, buffer_size, name=None):
        """Returns the same elements (TF prepares them in the background; here each element
        is made when it is asked for).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(3).prefetch(tf.data.AUTOTUNE)]
        [0, 1, 2]
        """
        return implementations._PrefetchDataset(self, buffer_size)

    def cache(self, filename="", name=None):
        """Keeps the elements of the first complete iteration in memory and replays them.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(4).shuffle(4).cache()
        >>> [int(x) for x in ds] == [int(x) for x in ds]
        True
        """
        return implementations.CacheDataset(self, filename)

    # -- batching ---------------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        """Stacks ``batch_size`` consecutive elements into one (the last batch may be smaller
        unless ``drop_remainder=True``).

        >>> import tapegrad as tf
        >>> [b.numpy().tolist() for b in tf.data.Dataset.range(5).batch(2)]
        [[0, 1], [2, 3], [4]]
        """
        return implementations._BatchDataset(self, batch_size, drop_remainder)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        """Batches elements of different shapes, padding each to ``padded_shapes`` (by
        default to the largest in the batch) with ``padding_values`` (default 0 or b"").

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.fill([n], n))
        >>> [b.numpy().tolist() for b in ds.padded_batch(2)]
        [[[1, 0], [2, 2]], [[3, 3, 3]]]
        """
        return implementations._PaddedBatchDataset(self, batch_size, padded_shapes,
                                                   padding_values, drop_remainder)

    def unbatch(self, name=None):
        """Splits each element along its first dimension (the inverse of ``batch``).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.from_tensors([1, 2, 3]).unbatch()]
        [1, 2, 3]
        """
        return implementations._UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """The elements of the batches batched again by ``batch_size`` (sizes of a list are
        used in turn).

        >>> import tapegrad as tf
        >>> [b.numpy().tolist() for b in tf.data.Dataset.range(10).batch(4).rebatch([2, 3])]
        [[0, 1], [2, 3, 4], [5, 6], [7, 8, 9]]
        """
        return implementations._RebatchDataset(self, batch_size, drop_remainder)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """A dataset of windows, each a dataset of ``size`` consecutive elements (``shift``
        apart, default ``size``), usually flattened with ``flat_map(lambda w: w.batch(size))``.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(5).window(3, shift=1, drop_remainder=True)
        >>> [w.numpy().tolist() for w in ds.flat_map(lambda w: w.batch(3))]
        [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
        """
        return implementations._WindowDataset(self, size, shift, stride, drop_remainder)

    # -- whole-dataset results ----------------------------------------------------------------
    def reduce(self, initial_state, reduce_func, name=None):
        """Folds the elements into one value: ``state = reduce_func(state, element)``.

        >>> import tapegrad as tf
        >>> int(tf.data.Dataset.range(5).reduce(tf.constant(0, tf.int64), lambda s, x: s + x))
        10
        """
        return implementations.reduce_dataset(self, initial_state, reduce_func)

    def get_single_element(self, name=None):
        """The one element of a dataset of exactly one element.

        >>> import tapegrad as tf
        >>> tf.data.Dataset.from_tensors([1, 2]).get_single_element().numpy().tolist()
        [1, 2]
        """
        it = OwnedIterator(self)
        try:
            element = next(it)
        except StopIteration:
            raise InvalidArgumentError("Dataset was empty.") from None
        try:
            next(it)
        except StopIteration:
            return element
        raise InvalidArgumentError("Dataset had more than one element.")

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """An endless dataset of random int64 scalars (repeatable with ``seed``).

        >>> import tapegrad as tf
        >>> a = [int(x) for x in tf.data.Dataset.random(seed=4).take(3)]
        >>> b = [int(x) for x in tf.data.Dataset.random(seed=4).take(3)]
        >>> a == b, len(set(a))
        (True, 3)
        """
        return implementations._RandomDataset(seed, rerandomize_each_iteration)

    def ignore_errors(self, log_warning=False, name=None):
        """Drops the elements whose ``map`` function raised a TensorFlow error.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 4.0])
        >>> ds = ds.map(lambda x: tf.debugging.check_numerics(1.0 / x, "x")).ignore_errors()
        >>> [float(x) for x in ds]
        [1.0, 0.25]
        """
        return implementations._IgnoreErrorsDataset(self)

    def shard(self, num_shards, index, name=None):
        """Every ``num_shards``-th element, starting with element ``index`` (one worker's
        part of the data).

        >>> import tapegrad as tf
        >>> [int(x) for x in tf.data.Dataset.range(10).shard(3, 1)]
        [1, 4, 7]
        """
        return implementations._ShardDataset(self, num_shards, index)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None,
                        name=None):
        """Groups elements by the int64 ``key_func(element)``; each window of
        ``window_size`` elements of one key becomes ``reduce_func(key, window)``, a dataset.

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(10).group_by_window(
        ...     key_func=lambda x: x % 2, reduce_func=lambda key, w: w.batch(3), window_size=3)
        >>> [b.numpy().tolist() for b in ds]
        [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
        """
        return implementations._GroupByWindowDataset(self, key_func, reduce_func, window_size,
                                                     window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        """Batches sequences of similar length together (fewer padding values).

        >>> import tapegrad as tf
        >>> ds = tf.data.Dataset.range(1, 5).map(lambda n: tf.fill([n], n))
        >>> ds = ds.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 2])
        >>> [b.numpy().tolist() for b in ds]
        [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
        """
        return implementations.bucket_by_sequence_length(
            self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
            padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The names of the files matching ``file_pattern`` (a glob, or a list of them),
        shuffled unless ``shuffle=False``."""
        return implementations.list_files(file_pattern, shuffle, seed)

    def apply(self, transformation_func):
        """``transformation_func(self)``, for chaining custom transformations."""
        result = transformation_func(self)
        if not isinstance(result, DatasetV2):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(result)}.")
        return result

    def with_options(self, options, name=None):
        """The same dataset with ``options`` (a ``tf.data.Options``) attached."""
        return implementations._OptionsDataset(self, options)

    def options(self):
        """The ``tf.data.Options`` set with ``with_options`` here or on an input (later
        settings win)."""
        merged = Options()
        for dataset in reversed(_lineage(self)):
            own = getattr(dataset, "_options", None)
            if own is not None:
                merged = merged.merge(own)
        return merged


def _lineage(dataset):
    """``dataset`` and the datasets it reads from, following the first input of each."""
    chain = []
    while dataset is not None:
        chain.append(dataset)
        dataset = getattr(dataset, "_input", None)
    return chain


Dataset = DatasetV2


def _pipeline(dataset):
    """Every dataset ``dataset`` reads from (itself first), through all its inputs."""
    found, todo = [], [dataset]
    while todo:
        d = todo.pop()
        if any(d is f for f in found):
            continue
        found.append(d)
        for value in vars(d).values():
            items = value if isinstance(value, (list, tuple)) else (value,)
            todo.extend(v for v in items if isinstance(v, DatasetV2))
    return found


class OwnedIterator:
    """An iterator over a dataset (``iter(dataset)``): ``next()`` raises ``StopIteration`` at
    the end, ``get_next()`` raises ``tf.errors.OutOfRangeError``.

    ``tf.train.Checkpoint`` saves its position: how many elements it gave, and the epoch of
    each ``shuffle`` in the pipeline when it started. Restoring starts the pipeline again at
    those epochs and skips that many elements, so ``next()`` continues from the saved element
    (TensorFlow saves the buffers instead; the elements are the same for pipelines whose order
    is fixed by their seeds). A pipeline reading a Python generator cannot be saved
    (``FailedPreconditionError``, as TensorFlow's)."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._epochs = self._epoch_counters()
        self._given = 0
        with functions.outside_tapes():
            self._elements = dataset._elements()

    def _epoch_counters(self):
        return [d._epochs for d in _pipeline(self._dataset) if hasattr(d, "_epochs")]

    def _checkpoint_variables(self):
        """What ``tf.train.Checkpoint`` saves for this iterator (TensorFlow's key:
        ``ITERATOR_STATE``)."""
        return [("ITERATOR_STATE", _IteratorPosition(self))]

    def _position(self):
        if any(getattr(d, "_stateful", False) for d in _pipeline(self._dataset)):
            raise FailedPreconditionError("PyFunc is stateful. [Op:SerializeIterator]")
        return np.array([self._given] + self._epochs, np.int64)

    def _restore_position(self, state):
        given, epochs = int(state[0]), [int(e) for e in state[1:]]
        shuffles = [d for d in _pipeline(self._dataset) if hasattr(d, "_epochs")]
        for d, epoch in zip(shuffles, epochs):
            d._epochs = epoch
        self._epochs, self._given = epochs, 0
        with functions.outside_tapes():
            self._elements = self._dataset._elements()
            for _ in range(given):
                if next(self._elements, _END) is _END:
                    break
                self._given += 1

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        with functions.outside_tapes():
            element = next(self._elements)
        self._given += 1
        return element

    next = __next__

    def get_next(self):
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError("End of sequence") from None

    def get_next_as_optional(self):
        try:
            return Optional(next(self), True)
        except StopIteration:
            return Optional(None, False, self.element_spec)

    def __repr__(self):
        return f"<{type(self).__name__} element_spec={self.element_spec}>"


_END = object()


class _IteratorPosition:
    """An iterator's position as a checkpoint stores a variable: read with ``numpy()``, set with
    ``assign`` (int64: the elements given, then the shuffles' epochs)."""

    name = "ITERATOR_STATE"

    def __init__(self, iterator):
        self._iterator = iterator

    @property
    def shape(self):
        return (1 + len(self._iterator._epochs),)

    def numpy(self):
        return self._iterator._position()

    def assign(self, value):
        self._iterator._restore_position(np.asarray(value, np.int64).reshape(-1))


class IteratorSpec:
    """``tf.data.IteratorSpec``: the spec of an iterator over elements of ``element_spec``."""

    def __init__(self, element_spec):
        self.element_spec = element_spec

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and other.element_spec == self.element_spec

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"IteratorSpec({self.element_spec!r},)"


class NumpyIterator:
    """``dataset.as_numpy_iterator()``: the elements as NumPy values."""

    def __init__(self, dataset):
        self._iterator = OwnedIterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return structure.to_numpy(next(self._iterator))

    def _checkpoint_variables(self):
        return self._iterator._checkpoint_variables()

    next = __next__

    def __repr__(self):
        return f"<{type(self).__name__} element_spec={self._iterator.element_spec}>"
