"""Data-parallel training throughput (issue 32, item 6): Keras ``fit`` under
``MultiWorkerMirroredStrategy`` on N MPI processes, for a W3-style MLP (784→256→10) and a small
CNN (28×28×1 → conv 8 → pool → conv 16 → pool → dense 10), each worker one thread.

    mpiexec -n N .venv/bin/python engine/bench/distributed.py [--per-worker-batch 128]
    .venv/bin/python engine/bench/distributed.py [--workers 1,2]      # the driver

Under ``mpiexec`` each run prints one JSON line per model (rank 0): samples per second over the
timed epoch, milliseconds per step, the gradient's bytes and the time of one all-reduce of them.
Run without a launcher, the driver runs ``mpiexec -n N`` for each N of ``--workers`` (``--repeat``
times, keeping the best run) and prints samples/s and the scaling efficiency
``samples/s(N) / (N × samples/s(1))``. The batch per worker
is fixed (weak scaling: the global batch is N times it), as data-parallel training is run.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peerbench.threads import SINGLE_THREAD_ENV, limit_this_process  # noqa: E402

limit_this_process()            # one thread per worker (set before numpy is imported)

import numpy as np  # noqa: E402

LAUNCHED_BY = ("PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")


def mlp(tf):
    return tf.keras.Sequential([tf.keras.Input(shape=(784,)),
                                tf.keras.layers.Dense(256, activation="relu"),
                                tf.keras.layers.Dense(10)]), (784,)


def cnn(tf):
    return tf.keras.Sequential([tf.keras.Input(shape=(28, 28, 1)),
                                tf.keras.layers.Conv2D(8, 3, activation="relu"),
                                tf.keras.layers.MaxPooling2D(),
                                tf.keras.layers.Conv2D(16, 3, activation="relu"),
                                tf.keras.layers.MaxPooling2D(),
                                tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(10)]), (28, 28, 1)


MODELS = {"W3-MLP": mlp, "small-CNN": cnn}


def _allreduce_ms(tf, strategy, model, repeat=20):
    """Milliseconds of one fused all-reduce of the model's gradient-sized buffer."""
    from tapegrad.distribute import allreduce
    grads = [tf.zeros(w.shape) for w in model.trainable_variables]
    allreduce.all_reduce_fused(grads, strategy._group, "SUM")      # warm up
    strategy._barrier()
    start = time.perf_counter()
    for _ in range(repeat):
        allreduce.all_reduce_fused(grads, strategy._group, "SUM")
    return (time.perf_counter() - start) / repeat * 1000


def measure(tf, strategy, name, per_worker_batch, steps):
    """One model's timed epoch of ``steps`` global batches (after a warm-up epoch)."""
    workers = strategy.num_replicas_in_sync
    batch = per_worker_batch * workers
    with strategy.scope():
        model, shape = MODELS[name](tf)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.01),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    rng = np.random.default_rng(0)
    x = rng.normal(size=(batch * steps, *shape)).astype(np.float32)
    y = rng.integers(0, 10, size=batch * steps).astype(np.int32)
    model.fit(x[:batch * 2], y[:batch * 2], batch_size=batch, epochs=1, verbose=0, shuffle=False)
    strategy._barrier()
    start = time.perf_counter()
    model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
    strategy._barrier()
    seconds = time.perf_counter() - start
    grad_bytes = sum(int(np.prod(w.shape)) * 4 for w in model.trainable_variables)
    return {"model": name, "workers": workers, "per_worker_batch": per_worker_batch,
            "samples_per_s": batch * steps / seconds, "step_ms": seconds / steps * 1000,
            "grad_bytes": grad_bytes, "allreduce_ms": _allreduce_ms(tf, strategy, model)}


def worker(args):
    import tapegrad as tf
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    for name in args.models.split(","):
        result = measure(tf, strategy, name, args.per_worker_batch, args.steps)
        if strategy.cluster_resolver.task_id == 0:
            print(json.dumps(result), flush=True)


def driver(args):
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or \
        shutil.which("mpiexec")
    if mpiexec is None:
        raise SystemExit("mpiexec not found: pip install -e '.[mpi]' brings it (mpi4py, mpich)")
    results = {}
    for n in [int(v) for _ in range(args.repeat) for v in args.workers.split(",")]:
        command = [mpiexec, "-n", str(n), sys.executable, __file__, "--models", args.models,
                   "--per-worker-batch", str(args.per_worker_batch), "--steps", str(args.steps)]
        run = subprocess.run(command, capture_output=True, text=True,
                             env=dict(os.environ, **SINGLE_THREAD_ENV))
        if run.returncode != 0:
            raise SystemExit(run.stdout + run.stderr)
        for line in run.stdout.splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                best = results.get((r["model"], n))
                if best is None or r["samples_per_s"] > best["samples_per_s"]:
                    results[(r["model"], n)] = r      # the best run: the least disturbed
    print(f"{'model':<10} {'workers':>7} {'samples/s':>10} {'ms/step':>8} {'efficiency':>10} "
          f"{'grad MB':>8} {'all-reduce ms':>13}")
    for (name, n), r in results.items():
        base = results.get((name, 1))
        efficiency = r["samples_per_s"] / (n * base["samples_per_s"]) if base else float("nan")
        print(f"{name:<10} {n:>7} {r['samples_per_s']:>10.0f} {r['step_ms']:>8.1f} "
              f"{efficiency:>10.2f} {r['grad_bytes'] / 1e6:>8.2f} {r['allreduce_ms']:>13.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", default="1,2", help="the driver's process counts")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--per-worker-batch", type=int, default=128)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--repeat", type=int, default=1,
                   help="the driver's runs of each N; the best is shown")
    args = p.parse_args()
    if any(name in os.environ for name in LAUNCHED_BY):
        worker(args)
    else:
        driver(args)


if __name__ == "__main__":
    main()
