"""Max pooling finds each window's winner once: the forward keeps the positions for the gradient
(issue 34, item 2), and they are the positions the windows' ``argmax`` gives (first maximum, NaN
largest), so the results are those of the search they replace, bit for bit."""
import gc

import numpy as np
import pytest

import tapegrad as tf
from tapegrad.ops import conv_ops

CONFIGS = [(2, 2, "VALID"), (2, 2, "SAME"), (3, 2, "VALID"), (3, 2, "SAME"), (3, 1, "SAME"),
           ((2, 3), (1, 2), "SAME"), ((1, 3), (2, 3), "SAME")]


def _inputs(dtype):
    rng = np.random.RandomState(7)
    x = rng.standard_normal((2, 7, 6, 3)).astype(dtype)
    signed_zeros = np.where(rng.rand(*x.shape) < 0.5, -0.0, 0.0).astype(dtype)
    infs = x.copy()
    infs.flat[::3], infs.flat[::5] = -np.inf, np.inf
    return {"random": x, "ties": np.round(x), "signed zeros": signed_zeros, "infinities": infs}


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("config", CONFIGS)
def test_the_running_maximum_finds_the_windows_argmax(dtype, config):
    for name, x in _inputs(dtype).items():
        a = conv_ops.pool_attrs(x, *config)
        np.testing.assert_array_equal(conv_ops._first_max(x, **a), conv_ops._searched_index(x, **a),
                                      err_msg=name)


def test_integers_and_a_nan_are_found_as_argmax_finds_them():
    x = np.random.RandomState(3).randint(-2, 2, (2, 6, 6, 2)).astype(np.int32)
    a = conv_ops.pool_attrs(x, 2, 2, "SAME")
    np.testing.assert_array_equal(conv_ops._first_max(x, **a), conv_ops._searched_index(x, **a))
    y = np.zeros((1, 2, 2, 1), np.float32)
    y[0, 1, 0, 0] = np.nan                       # NaN counts as the largest: argmax picks it
    a = conv_ops.pool_attrs(y, 2, 2, "VALID")
    assert conv_ops._first_max(y, **a) is None    # (so the search answers)
    assert conv_ops._argmax_index(y, **a).ravel().tolist() == [2]
    assert np.isnan(tf.nn.max_pool2d(y, 2, 2, "VALID").numpy()).all()


def test_the_gradient_uses_the_forwards_winners_without_searching_again(monkeypatch):
    x = tf.constant(np.round(np.random.RandomState(1).standard_normal((2, 8, 8, 3)) * 2)
                    .astype(np.float32))
    searches = []
    first_max = conv_ops._first_max
    monkeypatch.setattr(conv_ops, "_first_max",
                        lambda *a, **k: searches.append(1) or first_max(*a, **k))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
        loss = tf.reduce_sum(y * y)
    assert len(searches) == 1
    g = tape.gradient(loss, x)
    assert len(searches) == 1                     # the reverse rule searched nothing
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y2 = tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert len(searches) == 2                     # one search: the forward's
    np.testing.assert_array_equal(acc.jvp(y2).numpy(), np.ones(y2.shape, np.float32))
    idx = conv_ops._searched_index(x.numpy(), **conv_ops.pool_attrs(x, 2, 2, "VALID"))
    expected = np.zeros(x.shape[0] * 8 * 8 * 3, np.float32)
    expected[idx.ravel()] = 2 * y.numpy().ravel()
    np.testing.assert_array_equal(g.numpy().ravel(), expected)   # every gradient at its first max


def test_a_minus_zero_gradient_arrives_as_zero_as_the_summed_scatter_gives_it():
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    a = conv_ops.pool_attrs(x, 2, 2, "VALID")
    g = np.array([-0.0, 1.0, -2.0, -0.0], np.float32).reshape(1, 2, 2, 1)
    dx = conv_ops._scatter_to_max(x, g, **a)
    assert dx.ravel()[[5, 7, 13, 15]].tolist() == [0.0, 1.0, -2.0, 0.0]
    assert not np.signbit(dx[dx == 0]).any()      # no -0.0 anywhere


def test_overlapping_windows_add_up_where_one_entry_wins_twice():
    x = np.zeros((1, 3, 3, 1), np.float32)
    x[0, 1, 1, 0] = 5.0                           # the centre wins all four 2×2 windows
    with tf.GradientTape() as tape:
        xt = tf.constant(x)
        tape.watch(xt)
        loss = tf.reduce_sum(tf.nn.max_pool2d(xt, 2, 1, "VALID"))
    assert tape.gradient(loss, xt).numpy()[0, 1, 1, 0] == 4.0


def test_kept_winners_go_with_their_output_and_a_jacobian_still_routes_right():
    before = len(conv_ops._kept)
    x = tf.constant(np.random.RandomState(2).standard_normal((2, 4, 4, 1)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    jac = tape.jacobian(y, x).numpy().reshape(y.shape.num_elements(), -1)
    idx = conv_ops._searched_index(x.numpy(), **conv_ops.pool_attrs(x, 2, 2, "VALID")).ravel()
    np.testing.assert_array_equal(jac, np.eye(x.shape.num_elements(), dtype=np.float32)[idx])
    assert len(conv_ops._kept) > before
    del tape, y
    gc.collect()
    assert len(conv_ops._kept) == before
