"""tf.train (Checkpoint, CheckpointManager, latest_checkpoint, ExponentialMovingAverage),
tf.io (read_file, write_file, serialize_tensor, parse_tensor) and tf.summary's answers.
Paths are compared by their last parts: each run writes to a fresh temporary directory."""
import os
import tempfile

NOTES = {
    "tf.train.Checkpoint": "same paths and state file; the data and index files are tapegrad's "
                           "own (.npz and JSON), not TensorFlow's bundle format",
}


def _tail(path, parts=2):
    return None if path is None else "/".join(path.replace(os.sep, "/").split("/")[-parts:])


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return "no error"


def case_checkpoint_save_restore(tf):
    d = tempfile.mkdtemp()
    step, w = tf.Variable(1), tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(step=step, w=w)
    p1 = ckpt.save(os.path.join(d, "a", "ckpt"))
    step.assign_add(1)
    p2 = ckpt.save(os.path.join(d, "a", "ckpt"))
    p3 = ckpt.write(os.path.join(d, "b", "x"))
    files = sorted(os.listdir(os.path.join(d, "a")))
    state = open(os.path.join(d, "a", "checkpoint")).read()
    step.assign(50)
    w.assign([0.0, 0.0])
    status = ckpt.restore(p1)
    out = [_tail(p1), _tail(p2), _tail(p3), files, state, step, w, ckpt.save_counter,
           status.assert_consumed() is status, status.expect_partial() is status,
           _tail(tf.train.latest_checkpoint(os.path.join(d, "a"))),
           tf.train.latest_checkpoint(os.path.join(d, "nowhere"))]
    other = tf.train.Checkpoint(step=tf.Variable(0))
    partial = other.restore(p2)
    out += [other.step, _error(partial.assert_consumed),
            _error(partial.assert_existing_objects_matched),
            _error(lambda: tf.train.Checkpoint(x=3)),
            _error(ckpt.restore(None).assert_consumed),
            _error(lambda: ckpt.restore(os.path.join(d, "none-1")))]
    return out


def case_checkpoint_keras_model_and_module(tf):
    d = tempfile.mkdtemp()
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.layers[0].kernel.assign([[1.0], [2.0]])

    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable([3.0])

    net = Net()
    ckpt = tf.train.Checkpoint(model=model, net=net)
    path = ckpt.save(os.path.join(d, "ck"))
    model.layers[0].kernel.assign([[0.0], [0.0]])
    net.v.assign([0.0])
    ckpt.restore(path).assert_consumed()
    return [_tail(path, 1), tf.convert_to_tensor(model.layers[0].kernel), net.v]


def case_checkpoint_manager(tf):
    d = tempfile.mkdtemp()
    ckpt = tf.train.Checkpoint(step=tf.Variable(1))
    manager = tf.train.CheckpointManager(ckpt, os.path.join(d, "m"), max_to_keep=2)
    out = [manager.latest_checkpoint, manager.checkpoints]
    for _ in range(3):
        ckpt.step.assign_add(1)
        out.append(_tail(manager.save()))
    out += [_tail(manager.latest_checkpoint), [_tail(p) for p in manager.checkpoints],
            sorted(os.listdir(os.path.join(d, "m"))), _tail(manager.save(checkpoint_number=10))]
    again = tf.train.CheckpointManager(ckpt, os.path.join(d, "m"), max_to_keep=2)
    out += [[_tail(p) for p in again.checkpoints], _tail(again.latest_checkpoint)]
    ckpt.step.assign(0)
    ckpt.restore(again.latest_checkpoint)
    out.append(ckpt.step)
    state = open(os.path.join(d, "m", "checkpoint")).read().splitlines()
    out.append([line for line in state if "timestamp" not in line])
    return out


def case_exponential_moving_average(tf):
    v, u = tf.Variable(1.0, name="w"), tf.Variable([1.0, 2.0])
    ema = tf.train.ExponentialMovingAverage(decay=0.9)
    first = ema.apply([v, u])
    out = [first, ema.average(v), ema.average_name(v), ema.average(u).name, ema.name]
    v.assign(3.0)
    u.assign([0.0, 0.0])
    ema.apply([v, u])
    out += [ema.average(v), ema.average(u), ema.average(tf.Variable(1.0))]
    e2 = tf.train.ExponentialMovingAverage(0.99, num_updates=tf.Variable(1))
    x = tf.Variable(2.0)
    e2.apply([x])
    x.assign(4.0)
    e2.apply([x])
    e3 = tf.train.ExponentialMovingAverage(0.5, zero_debias=True)
    y = tf.Variable(2.0)
    e3.apply([y])
    y.assign(4.0)
    e3.apply([y])
    out += [e2.average(x), e3.average(y), _error(lambda: ema.apply([tf.constant(1.0)])),
            _error(lambda: ema.apply([tf.Variable(1)]))]
    return out


def case_io_files(tf):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "sub", "f.txt")
    first = tf.io.write_file(path, "hello\nworld")
    out = [first, tf.io.read_file(path)]
    tf.io.write_file(path, tf.constant(b"\x00bytes"))
    out += [tf.io.read_file(path), _error(lambda: tf.io.read_file(os.path.join(d, "missing")))]
    return out


def case_io_serialize_parse(tf):
    values = [tf.constant(3), tf.constant([1.5, 2.0]), tf.constant([[True]]),
              tf.constant(["ab", "c"]), tf.constant(2.0, tf.float64), tf.constant([], tf.float32),
              tf.constant(1 + 2j), tf.constant([[1, 2], [3, 4]], tf.int64),
              tf.zeros([2, 0, 3]), tf.constant([7, 8], tf.uint8)]
    out = []
    for v in values:
        s = tf.io.serialize_tensor(v)
        out.append([s, tf.io.parse_tensor(s, v.dtype)])
    out.append(_error(lambda: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.5])),
                                                 tf.int32)))
    return out


def case_checkpoint_restores_optimizer_slots_when_built(tf):
    d = tempfile.mkdtemp()

    def setup():
        tf.random.set_seed(1)
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(
            1, kernel_initializer="ones")])
        opt = tf.keras.optimizers.Adam(0.1)
        return model, opt, tf.train.Checkpoint(model=model, optimizer=opt)

    def step(model, opt):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(tf.constant([[1.0, 2.0]])) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))

    model, opt, ckpt = setup()
    step(model, opt)
    path = ckpt.save(os.path.join(d, "c"))
    step(model, opt)
    model2, opt2, ckpt2 = setup()
    ckpt2.restore(path)
    step(model2, opt2)
    return [[tf.convert_to_tensor(w) for w in model.weights],
            [tf.convert_to_tensor(w) for w in model2.weights],
            int(opt2.iterations.numpy())]


def case_decode_raw_numbers(tf):
    pairs = tf.constant([b"\x01\x02\x03\x04", b"\x05\x06\x07\x08"])
    return [tf.io.decode_raw(pairs, tf.int16), tf.io.decode_raw(pairs, tf.uint8),
            tf.io.decode_raw(pairs, tf.int16, little_endian=False),
            tf.io.decode_raw(b"\x00\x00\x80\x3f", tf.float32),
            tf.io.decode_raw(tf.constant(b"\x01\x00\x00\x00\x00\x00\x00\x00"), tf.int64),
            tf.io.decode_raw(tf.constant([[b"ab"], [b"cd"]]), tf.uint8),
            tf.io.decode_raw(tf.constant([b"\x01\x00"]), tf.bool),
            tf.io.decode_raw(tf.constant([b"abc", b"de"]), tf.uint8, fixed_length=4)]


def case_decode_raw_strings_of_different_sizes(tf):
    return tf.io.decode_raw(tf.constant([b"abc", b"de"]), tf.uint8)


def case_decode_raw_length_not_a_multiple(tf):
    return tf.io.decode_raw(tf.constant([b"abc"]), tf.int16)


def case_decode_raw_to_strings(tf):
    return tf.io.decode_raw(tf.constant([b"abcd"]), tf.string)


def case_string_constants_keep_trailing_zero_bytes(tf):
    t = tf.constant([b"\x01\x00", b"ab", "x", b"y\x00\x00"])
    return [t, tf.strings.length(t), tf.constant([[b"a\x00"], [b"bc"]])]
