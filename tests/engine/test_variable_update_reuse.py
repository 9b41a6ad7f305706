"""Variable updates write into a temporary delta's own array (variables._temporary): the same values
as a new array, and never into an array that anyone else can still see."""
import weakref

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import variables

needs_reuse = pytest.mark.skipif(not variables._REUSE, reason="no exact reference counts here")


@pytest.fixture(autouse=True)
def any_size(monkeypatch):
    """Small arrays here: the reuse is tried from 0 bytes on (not only for large arrays)."""
    monkeypatch.setattr(variables, "_REUSE_BYTES", 0)


def _temporary(g, made):
    """``0.5 * g`` as a fresh tensor, remembering its array weakly (no reference kept)."""
    t = 0.5 * g
    made.append(weakref.ref(t._value))
    return t


@needs_reuse
@pytest.mark.parametrize("method", ["assign_sub", "assign_add", "assign"])
def test_a_temporary_delta_gives_its_array(method):
    w0 = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    g = tf.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    v = tf.Variable(w0)
    made = []
    getattr(v, method)(_temporary(g, made))
    assert v._value is made[0]()
    d = 0.5 * g.numpy()
    expected = {"assign_sub": w0 - d, "assign_add": w0 + d, "assign": d}[method]
    assert v.numpy().tobytes() == expected.tobytes()


@pytest.mark.parametrize("method", ["assign_sub", "assign_add", "assign"])
def test_a_delta_seen_elsewhere_is_left_alone(method):
    g = tf.constant(np.full((2, 3), 2, np.float32))
    v = tf.Variable(np.ones((2, 3), np.float32))
    named = 0.5 * g
    getattr(v, method)(named)
    assert v._value is not named._value and named.numpy().tolist() == [[1.0] * 3] * 2
    kept = [0.5 * g]
    getattr(v, method)(kept[0])
    assert v._value is not kept[0]._value and kept[0].numpy().tolist() == [[1.0] * 3] * 2
    big = tf.constant(np.ones((4, 3), np.float32))
    getattr(v, method)(big[:2])                     # a view of another tensor's array
    assert big.numpy().sum() == 12
    arr = np.ones((2, 3), np.float32)
    getattr(v, method)(tf.constant(arr))            # maybe the caller's own array
    assert arr.sum() == 6
    v.assign(np.zeros((2, 3), np.float32))
    getattr(v, method)(v.read_value() * 1.0 if method != "assign" else v.read_value())
    assert v.numpy().sum() == 0


def test_a_delta_a_tape_recorded_is_left_alone():
    w = tf.Variable(np.ones(5, np.float32))
    v = tf.Variable(np.zeros(5, np.float32))
    with tf.GradientTape() as tape:
        y = w * 3.0
        v.assign_sub(y * 1.0)     # the tape holds the product: it must keep its value
        z = tf.reduce_sum(y * 1.0)
    assert tape.gradient(z, w).numpy().tolist() == [3.0] * 5
    assert y.numpy().tolist() == [3.0] * 5 and v.numpy().tolist() == [-3.0] * 5


def test_only_large_arrays_by_default(monkeypatch):
    monkeypatch.undo()
    g = tf.constant(np.ones(8, np.float32))
    v = tf.Variable(np.zeros(8, np.float32))
    made = []
    v.assign_sub(_temporary(g, made))
    assert made[0]() is None                # small: a new array, the temporary's freed
    big = tf.constant(np.ones(1 << 15, np.float32))
    w = tf.Variable(np.zeros(1 << 15, np.float32))
    w.assign_sub(_temporary(big, made))
    assert w._value is made[1]() or not variables._REUSE


def test_training_loop_values_match_new_arrays(monkeypatch):
    def run():
        rng = np.random.default_rng(0)
        w = tf.Variable(rng.standard_normal((6, 3)).astype(np.float32))
        x = tf.constant(rng.standard_normal((8, 6)).astype(np.float32))
        for _ in range(5):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
            w.assign_sub(0.1 * tape.gradient(loss, w))
        return w.numpy()
    reused = run()
    monkeypatch.setattr(variables, "_ndarray", None)   # (off: never an ndarray)
    assert run().tobytes() == reused.tobytes()
