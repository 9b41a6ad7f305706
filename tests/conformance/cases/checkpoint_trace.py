"""tf.train.Checkpoint of objects that are not variables (a tf.random.Generator, a tf.data
iterator), and tf.summary's trace_on / trace_off / trace_export answers. Written from the
checkpoint guide (its section on saving a tf.data iterator) and the tf.summary reference."""
import logging
import os
import tempfile

NOTES = {
    "tf.train.Checkpoint": "a tf.data iterator's position is saved as the number of elements "
                           "it gave (and its shuffles' epochs), and replayed on restore",
    "tf.summary.trace_export": "the graphs go to events.out.tapegrad.jsonl as JSON, not to "
                               "TensorBoard's event file",
}


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return "no error"


def _keys(path, tf):
    """The saved names, without TensorFlow's object-graph entry and attribute suffixes."""
    names = tf.train.load_checkpoint(path).get_variable_to_shape_map()
    return sorted(n.replace("/.ATTRIBUTES/VARIABLE_VALUE", "").replace("/.ATTRIBUTES/", "/")
                  for n in names if n != "_CHECKPOINTABLE_OBJECT_GRAPH")


def case_generator_numbers_repeat_after_restore(tf):
    d = tempfile.mkdtemp()
    g = tf.random.Generator.from_seed(42)
    ckpt = tf.train.Checkpoint(generator=g)
    first = g.normal([2])
    path = ckpt.save(os.path.join(d, "rng"))
    after_save = g.uniform([3])
    g.normal([5])
    status = ckpt.restore(path)
    again = g.uniform([3])
    return [first, after_save, again, g.state, _keys(path, tf),
            status.assert_consumed() is status]


def case_generator_restored_into_another(tf):
    d = tempfile.mkdtemp()
    g = tf.random.Generator.from_seed(7)
    g.uniform([4])
    path = tf.train.Checkpoint(g=g).write(os.path.join(d, "w"))
    expected = g.normal([2, 2])
    other = tf.random.Generator.from_seed(123)
    tf.train.Checkpoint(g=other).read(path).assert_consumed()
    return [other.state, other.normal([2, 2]), expected]


def case_iterator_continues_from_saved_element(tf):
    d = tempfile.mkdtemp()
    it = iter(tf.data.Dataset.range(20).map(lambda x: x * 3))
    ckpt = tf.train.Checkpoint(step=tf.Variable(0), iterator=it)
    seen = [next(it) for _ in range(4)]
    path = ckpt.save(os.path.join(d, "data"))
    later = [next(it) for _ in range(3)]
    ckpt.restore(path)
    resumed = [next(it) for _ in range(2)]
    return [seen, later, resumed, _keys(path, tf)]


def case_iterator_restored_into_fresh_iterator(tf):
    d = tempfile.mkdtemp()
    ds = tf.data.Dataset.range(10).batch(3)
    it = iter(ds)
    next(it)
    path = tf.train.Checkpoint(it=it).save(os.path.join(d, "c"))
    fresh = iter(tf.data.Dataset.range(10).batch(3))
    tf.train.Checkpoint(it=fresh).restore(path)
    return [next(fresh), next(fresh), _error(lambda: next(fresh))]


def case_iterator_of_seeded_shuffle_repeats(tf):
    d = tempfile.mkdtemp()
    it = iter(tf.data.Dataset.range(12).shuffle(5, seed=4).repeat(2).batch(4))
    ckpt = tf.train.Checkpoint(it=it)
    next(it)
    next(it)
    path = ckpt.save(os.path.join(d, "s"))
    after = [next(it).numpy().tolist() for _ in range(3)]
    ckpt.restore(path)
    again = [next(it).numpy().tolist() for _ in range(3)]
    return after == again


def case_iterator_saved_at_the_end(tf):
    d = tempfile.mkdtemp()
    it = iter(tf.data.Dataset.from_tensor_slices([1.0, 2.0]))
    ckpt = tf.train.Checkpoint(it=it)
    items = list(it)
    path = ckpt.save(os.path.join(d, "end"))
    ckpt.restore(path)
    return [items, _error(lambda: next(it)), _error(it.get_next)]


def case_iterator_over_from_generator_cannot_be_saved(tf):
    d = tempfile.mkdtemp()

    def numbers():
        yield from range(5)
    ds = tf.data.Dataset.from_generator(numbers, output_signature=tf.TensorSpec((), tf.int64))
    it = iter(ds)
    next(it)
    tf.train.Checkpoint(it=it).save(os.path.join(d, "gen"))


def case_dataset_and_numpy_iterator_are_trackable(tf):
    ds = tf.data.Dataset.range(3)
    return [type(tf.train.Checkpoint(ds=ds)).__name__,
            type(tf.train.Checkpoint(it=ds.as_numpy_iterator())).__name__,
            _error(lambda: tf.train.Checkpoint(x=object()))]


class _Warnings(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _traced(tf, body):
    """``body()``'s result with the warnings tf logged meanwhile (tf.get_logger())."""
    handler = _Warnings()
    logger = tf.get_logger()
    logger.addHandler(handler)
    try:
        result = body()
    finally:
        logger.removeHandler(handler)
        tf.summary.trace_off()
    return [result, handler.messages]


def case_trace_export_before_trace_on(tf):
    tf.summary.trace_off()
    tf.summary.trace_export("nothing", step=0)


def case_trace_on_twice_warns(tf):
    def body():
        tf.summary.trace_on(graph=True, profiler=False)
        tf.summary.trace_on(graph=True, profiler=False)
    return _traced(tf, body)


def case_trace_on_profiler_without_outdir_warns(tf):
    return _traced(tf, lambda: tf.summary.trace_on(graph=True, profiler=True))


def case_trace_export_without_writer_ends_the_trace(tf):
    @tf.function
    def plus_one(x):
        return x + 1

    def body():
        tf.summary.trace_on(graph=True)
        plus_one(tf.constant(1.0))
        result = tf.summary.trace_export("no_writer", step=0)
        return [result, _error(lambda: tf.summary.trace_export("again", step=0))]
    return _traced(tf, body)


def case_trace_export_without_step_keeps_the_trace(tf):
    writer = tf.summary.create_file_writer(tempfile.mkdtemp())

    def body():
        tf.summary.trace_on(graph=True)
        with writer.as_default():
            missing = _error(lambda: tf.summary.trace_export("x"))
            return [missing, tf.summary.trace_export("x", step=1)]
    return _traced(tf, body)


def case_trace_off_without_trace_on(tf):
    tf.summary.trace_off()
    return [tf.summary.trace_off(), tf.summary.trace_off()]
