"""Large matrix products on more than one thread, in the browser: the playground's Pyodide worker
attaches its kernel pool (web/src/kernel-pool.js: Web Workers running the same GEMM kernel over
shared memory) with ``attach(pool)``; a product of at least ``POOL_LIMIT`` multiply-adds is then
split by output rows: the pool copies the other threads' operands to them and their rows back,
and this thread computes the first rows with its own kernel meanwhile. Each output element is
summed in the same order as on one thread (the reduction is never split), so the result is bit
for bit the one-thread product.

Nothing here imports Pyodide's ``js`` module: the pool arrives as an object from JavaScript, and
without one (natively, under Node, on a page that is not cross-origin isolated) every product
runs on one thread as before.
"""
import os

# Multiply-adds (m * n * k * batch) from which a product goes to the pool. Measured in Chromium
# on the 2-core development machine (docs/performance.md, "Threads in the browser"): below this,
# copying the operands and waking a worker cost about what the second thread saves.
POOL_LIMIT = int(os.environ.get("TAPEGRAD_POOL_LIMIT", 1 << 20))

# usable: None until the pool was given the kernels; split: products it has computed
_pool = {"js": None, "usable": None, "split": 0}


def attach(pool):
    """Use ``pool`` (a JavaScript KernelPool, or None to stop using one) for large products."""
    _pool["js"] = pool
    _pool["usable"] = None


def count():
    """Threads a large product uses now (1 without a pool)."""
    pool = _pool["js"]
    return 1 if pool is None else int(pool.threads)


def set_count(n):
    """Uses at most ``n`` threads (1: the pool is not used); returns the number now used."""
    pool = _pool["js"]
    return 1 if pool is None else int(pool.setThreads(int(n)))


def split():
    """How many products went to the pool so far."""
    return _pool["split"]


def by_workers():
    """How many of those the pool's workers computed rows of (the rest: every worker was busy
    when this thread was done with its own rows, and this thread computed theirs too)."""
    pool = _pool["js"]
    return 0 if pool is None else int(pool.byWorkers)


def wanted(work):
    """Whether a product of ``work`` multiply-adds goes to the pool."""
    return work >= POOL_LIMIT and _pool["js"] is not None and _pool["usable"] is not False


def gemm(lib, dtype, m, n, k, pa, rsa, csa, pb, rsb, csb, pc, batch, bsa, bsb, work):
    """tg_gemm's product (calls.matmul's arguments; C contiguous) split over the pool; False when
    the pool did not take it (the caller then computes it on this thread)."""
    pool = _pool["js"]
    if _pool["usable"] is None:
        _pool["usable"] = bool(pool.load(lib.path))
    if not _pool["usable"]:
        return False
    code = 0 if dtype == "float32" else 1
    own = pool.begin(code, m, n, k, pa, rsa, csa, pb, rsb, csb, batch, bsa, bsb)
    if own < 0:
        return False
    kernel = lib.fn("tg_gemm", dtype)
    kernel(own, n, k, pa, rsa, csa, pb, rsb, csb, pc, n, batch, bsa, bsb, m * n, work)
    left = pool.end(pc)
    if left is None:  # a worker failed or was lost: this thread computes the whole product
        kernel(m, n, k, pa, rsa, csa, pb, rsb, csb, pc, n, batch, bsa, bsb, m * n, work)
        return True
    _pool["split"] += 1
    left = list(left)
    size = 4 if code == 0 else 8
    for i in range(0, len(left), 2):  # rows a busy worker had not started: computed here
        row0, rows = left[i], left[i + 1]
        kernel(rows, n, k, pa + row0 * rsa * size, rsa, csa, pb, rsb, csb, pc + row0 * n * size, n,
               batch, bsa, bsb, m * n, work)
    return True
