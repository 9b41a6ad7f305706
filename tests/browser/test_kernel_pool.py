"""Large products on every core in the browser (issue 34, item 3): on a cross-origin-isolated page
the Python worker's kernel pool (web/src/kernel-pool.js) computes the rows of large matrix
products on extra workers, bit for bit as one thread does; Stop still ends a run in the middle of
one; a page that is not isolated keeps one thread.

One page (one Pyodide boot) serves the module, but for the non-isolated page.
"""
from __future__ import annotations

import re

import pytest

from test_playground_stop_fallback import strip_isolation

# Products through the kernel with every thread and with one, compared bit for bit: shapes whose
# rows split unevenly, a transposed operand, batches (with B shared and not), both float types,
# and sizes below the pool's threshold (one thread either way).
SAME_BITS = """\
import numpy as np
from tapegrad.kernels import calls, dispatch, threads
lib = dispatch.lib()
print("threads", threads.count(), "limit", threads.POOL_LIMIT)
rng = np.random.default_rng(0)
cases = []   # (name, (a, b), keywords, whether the pool takes it where there is one)
for dt in (np.float32, np.float64):
    for (m, n, k), pooled in [((257, 300, 129), True), ((1001, 300, 64), True), ((1200, 2, 900), False),
                              ((7, 1000, 400), False), ((33, 40, 50), False), ((1, 2000, 600), False)]:
        # (1200x2: too few multiply-adds per element copied; 7x1000: B is copied for 3 rows;
        # 33x40x50: below the threshold; 1 row: nothing to split)
        a = rng.standard_normal((m, k)).astype(dt)
        b = rng.standard_normal((k, n)).astype(dt)
        cases.append((f"{dt.__name__} {m}x{k}@{k}x{n}", (a, b), {}, pooled))
        cases.append((f"{dt.__name__} {m}x{k}T@{k}x{n}", (np.ascontiguousarray(a.T), b), {"transpose_a": True}, pooled))
        cases.append((f"{dt.__name__} {m}x{k}@({n}x{k})T", (a, np.ascontiguousarray(b.T)), {"transpose_b": True}, pooled))
    x = rng.standard_normal((3, 151, 200)).astype(dt)
    cases.append((f"{dt.__name__} batch@shared", (x, rng.standard_normal((200, 170)).astype(dt)), {}, True))
    cases.append((f"{dt.__name__} batch@batch", (x, rng.standard_normal((3, 200, 170)).astype(dt)), {}, True))
differ, unexpected = [], []
pool = threads.count() > 1
for name, args, kw, pooled in cases:
    threads.set_count(1)
    one = calls.matmul(lib, *args, **kw)
    threads.set_count(64)
    before = threads.split()
    many = calls.matmul(lib, *args, **kw)
    if one.tobytes() != many.tobytes() or one.shape != many.shape:
        differ.append(name)
    if (threads.split() > before) != (pooled and pool):
        unexpected.append(name)
print("cases", len(cases), "differ", differ, "unexpected", unexpected, "split", threads.split(),
      "by workers", threads.by_workers())
"""

# A convolution (the CNN's second, 16 -> 32 channels) and its gradients with all threads and with
# one: the forward product and the input's gradient go to the pool (the filter's gradient, 144 rows
# of 7744 multiply-adds, copies too much for what it saves and stays on one thread).
CONV_SAME_BITS = """\
import numpy as np
import tensorflow as tf
from tapegrad.kernels import threads
rng = np.random.default_rng(1)
x = tf.Variable(rng.standard_normal((64, 13, 13, 16)).astype("float32"))
w = tf.Variable(rng.standard_normal((3, 3, 16, 32)).astype("float32"))
def grads():
    with tf.GradientTape() as tape:
        y = tf.nn.relu(tf.nn.conv2d(x, w, 1, "VALID"))
        loss = tf.reduce_sum(y * y)
    return [v.numpy().tobytes() for v in [loss, *tape.gradient(loss, [x, w])]]
before = threads.split()
many = grads()
used = threads.split() - before
threads.set_count(1)
one = grads()
threads.set_count(64)
print("conv same", one == many, "split", used)
"""

LONG_PRODUCTS = """\
import numpy as np
from tapegrad.kernels import calls, dispatch, threads
lib = dispatch.lib()
a = np.ones((1500, 1500), np.float32)
print("multiplying")
while True:
    calls.matmul(lib, a, a)
"""


def settled(play):
    """A ready page whose kernel library is there: after a boot from the snapshot the packages'
    files come on demand, the kernels' after a first run that wanted them (that run computes
    with NumPy alone; the engine tries the library again on its next call)."""
    play.wait_ready()
    run_ok(play, "from tapegrad.kernels import dispatch\ndispatch.lib()\nprint('first run')\n")
    play.pg.wait_for_function("() => performance.getEntriesByName('tapegrad:settled').length > 0",
                              timeout=120_000)
    return play


@pytest.fixture(scope="module")
def pg(module_page, as_playground):
    return settled(as_playground(module_page("", viewport=(1400, 900))))


def run_ok(play, code, timeout_ms=300_000):
    play.set_code(code)
    assert play.run(timeout_ms) == "ok", play.last_run_output()
    return play.last_run_output()


def test_the_pool_is_used_where_the_page_is_isolated(pg):
    cores = pg.pg.evaluate("navigator.hardwareConcurrency")
    out = run_ok(pg, "from tapegrad import kernels\nprint('threads', kernels.status()['threads'])\n")
    assert f"threads {max(cores, 1)}" in out
    assert cores >= 2, "this test needs a machine with two cores"


def test_products_are_bit_identical_to_one_thread(pg):
    out = run_ok(pg, SAME_BITS)
    assert "differ []" in out and "unexpected []" in out, out
    assert "threads 1 " not in out, out
    assert int(re.search(r"by workers (\d+)", out).group(1)) > 0, out


def test_convolution_gradients_are_bit_identical(pg):
    out = run_ok(pg, CONV_SAME_BITS)
    assert "conv same True" in out, out
    assert int(re.search(r"split (\d+)", out).group(1)) >= 2, out


def test_stop_ends_a_run_in_the_middle_of_products(pg):
    pg.set_code(LONG_PRODUCTS)
    n = pg.click_run()
    pg.pg.wait_for_function(
        "() => document.querySelector('[data-testid=console]').innerText.includes('multiplying')")
    pg.pg.wait_for_timeout(1500)   # some products on the pool
    pg.pg.locator("[data-testid=stop]").click()
    assert pg.wait_run(n, timeout_ms=10_000) == "interrupted"
    assert "Python was restarted" not in pg.last_run_output()   # the interrupt, not a new worker
    # the same worker and pool go on: products still split, still the same bits
    out = run_ok(pg, SAME_BITS)
    assert "differ []" in out and "unexpected []" in out and "threads 1 " not in out, out


def test_one_thread_where_the_page_is_not_isolated(page, as_playground):
    pg = page("", on_context=strip_isolation)
    play = settled(as_playground(pg))
    assert pg.evaluate("self.crossOriginIsolated") is False
    out = run_ok(play, SAME_BITS)
    assert "threads 1 " in out and "differ []" in out and "unexpected []" in out, out
    assert "split 0" in out, out
