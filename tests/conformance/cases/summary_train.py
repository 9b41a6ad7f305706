"""tf.summary's image, audio, write and graph calls (what they answer and refuse), and tf.train's
checkpoint state, checkpoints_iterator, CheckpointOptions, ClusterSpec and Coordinator. Written
from the tf.summary and tf.train API references and the checkpoint guide, in our own words."""
import os
import sys
import tempfile
import threading

NOTES = {
    "tf.summary.image": "written to events.out.tapegrad.jsonl as PNG (base64), not to "
                        "TensorBoard's event file",
    "tf.summary.audio": "written to events.out.tapegrad.jsonl as WAV (base64), not to "
                        "TensorBoard's event file",
    "tf.summary.write": "the tensor's values go to events.out.tapegrad.jsonl as JSON",
    "tf.summary.graph": "the graph's nodes go to events.out.tapegrad.jsonl as JSON",
}


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return "no error"


def _writer(tf):
    return tf.summary.create_file_writer(tempfile.mkdtemp())


def case_image_answers(tf):
    images = tf.random.stateless_uniform([2, 4, 5, 3], seed=[1, 2])
    with _writer(tf).as_default(step=1):
        written = [tf.summary.image("pictures", images),
                   tf.summary.image("grey", tf.zeros([1, 3, 3, 1]), max_outputs=1),
                   tf.summary.image("bytes", tf.ones([3, 2, 2, 4], tf.uint8) * 200, step=4)]
    return [written, tf.summary.image("nowhere", images, step=0)]


def case_image_refuses_rank_three(tf):
    with _writer(tf).as_default(step=0):
        tf.summary.image("bad", tf.zeros([4, 5, 3]))


def case_image_refuses_two_channels(tf):
    with _writer(tf).as_default(step=0):
        tf.summary.image("bad", tf.zeros([1, 4, 5, 2]))


def case_image_without_step(tf):
    with _writer(tf).as_default():
        tf.summary.image("no_step", tf.zeros([1, 2, 2, 1]))


def case_audio_answers(tf):
    wave = tf.sin(tf.linspace(0.0, 20.0, 80))
    clips = tf.reshape(tf.stack([wave, -wave]), [2, 80, 1])
    with _writer(tf).as_default(step=2):
        return [tf.summary.audio("tone", clips, sample_rate=8000),
                tf.summary.audio("one", clips[:1], 16000, max_outputs=1)]


def case_audio_refuses_rank_two(tf):
    with _writer(tf).as_default(step=0):
        tf.summary.audio("bad", tf.zeros([2, 80]), sample_rate=8000)


def case_write_answers(tf):
    writer = _writer(tf)
    outside = tf.summary.write("value", tf.constant([1.0, 2.0]), step=0)
    with writer.as_default():
        inside = [tf.summary.write("value", tf.constant([1.0, 2.0]), step=1),
                  tf.summary.write("text", tf.constant("hello"), step=2),
                  tf.summary.write("int", 3, step=3)]
    return [outside, inside]


def case_write_without_step(tf):
    with _writer(tf).as_default():
        tf.summary.write("value", 1.0)


def case_graph_of_a_concrete_function(tf):
    @tf.function
    def f(x):
        return x * x + 1.0
    graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    with _writer(tf).as_default():
        written = tf.summary.graph(graph)
    outside = tf.summary.graph(graph)
    with _writer(tf).as_default():
        return [written, outside, tf.summary.graph(graph.as_graph_def())]


def case_graph_refuses_a_number(tf):
    with _writer(tf).as_default():
        tf.summary.graph(3)


def _saves(tf, n):
    d = tempfile.mkdtemp()
    v = tf.Variable(1.0)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), d, max_to_keep=2)
    paths = [manager.save() for _ in range(n)]
    return d, paths


def _tail(path):
    return os.path.basename(path) if path is not None else None


def case_checkpoint_state(tf):
    d, paths = _saves(tf, 3)
    state = tf.train.get_checkpoint_state(d)
    return [type(state).__name__, _tail(state.model_checkpoint_path),
            [_tail(p) for p in state.all_model_checkpoint_paths], _tail(paths[-1]),
            tf.train.get_checkpoint_state(tempfile.mkdtemp())]


def case_checkpoint_state_relative_paths(tf):
    d, _ = _saves(tf, 1)
    state = tf.train.get_checkpoint_state(d)
    return [os.path.dirname(state.model_checkpoint_path) == d,
            os.path.isabs(state.model_checkpoint_path)]


def case_checkpoints_iterator_gives_the_latest_then_stops(tf):
    d, paths = _saves(tf, 2)
    found = list(tf.train.checkpoints_iterator(d, timeout=0.2))
    return [[_tail(p) for p in found], _tail(paths[-1])]


def case_checkpoints_iterator_of_empty_directory(tf):
    return list(tf.train.checkpoints_iterator(tempfile.mkdtemp(), timeout=0.1))


def case_checkpoints_iterator_timeout_fn_ends_it(tf):
    d, _ = _saves(tf, 1)
    calls = []

    def done():
        calls.append(1)
        return True
    found = list(tf.train.checkpoints_iterator(d, timeout=0.1, timeout_fn=done))
    return [len(found), len(calls)]


def case_checkpoint_options_accepted(tf):
    d = tempfile.mkdtemp()
    options = tf.train.CheckpointOptions()
    v = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.save(os.path.join(d, "o"), options=options)
    v.assign([5.0, 6.0])
    ckpt.restore(path, options=options)
    other = tf.train.CheckpointOptions(experimental_io_device="/job:localhost",
                                       experimental_enable_async_checkpoint=False)
    return [v, options.experimental_io_device, other.experimental_io_device,
            options.experimental_enable_async_checkpoint]


def case_cluster_spec_of_lists(tf):
    spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": ["p0:2222"]})
    return [spec.jobs, spec.num_tasks("worker"), spec.task_indices("ps"),
            spec.task_address("worker", 1), spec.job_tasks("worker"), spec.as_dict(),
            bool(spec), spec == tf.train.ClusterSpec(spec.as_dict())]


def case_cluster_spec_of_sparse_tasks(tf):
    spec = tf.train.ClusterSpec({"worker": {1: "w1:2222", 3: "w3:2222"}})
    return [spec.task_indices("worker"), spec.as_dict(), spec.num_tasks("worker"),
            _error(lambda: spec.task_address("worker", 0)),
            _error(lambda: spec.num_tasks("chief")), bool(tf.train.ClusterSpec({}))]


def case_cluster_spec_refuses_a_string(tf):
    tf.train.ClusterSpec("worker")


def case_coordinator_stops_threads(tf):
    coord = tf.train.Coordinator()
    counts = []

    def work():
        n = 0
        while not coord.should_stop():
            n += 1
            if n == 5:
                coord.request_stop()
        counts.append(n)
    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    coord.join(threads)
    return [coord.should_stop(), len(counts), coord.wait_for_stop(0.01)]


def case_coordinator_reraises_a_thread_error(tf):
    coord = tf.train.Coordinator()

    def work():
        with coord.stop_on_exception():
            raise ValueError("the worker failed")
    t = threading.Thread(target=work)
    t.start()
    coord.join([t])


def case_coordinator_clear_stop(tf):
    coord = tf.train.Coordinator()
    before = coord.should_stop()
    coord.request_stop()
    stopped = coord.should_stop()
    coord.clear_stop()
    return [before, stopped, coord.should_stop(), coord.joined]


def case_experimental_optional(tf):
    opt = tf.experimental.Optional.from_value(tf.constant([1, 2]))
    empty = tf.experimental.Optional.empty(tf.TensorSpec([], tf.float32))
    return [opt.has_value(), opt.get_value(), empty.has_value(),
            tf.experimental.Optional is tf.data.experimental.Optional]


if sys.platform == "emscripten":   # Pyodide cannot start threads
    for _case in (case_coordinator_stops_threads, case_coordinator_reraises_a_thread_error):
        _case.known_divergence = "Pyodide cannot start threads, so no thread can be coordinated"
