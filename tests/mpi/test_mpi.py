"""tf.distribute over MPI (issue 32): ``mpiexec -n 2`` and ``-n 3`` train to the weights of
single-process full-batch training, with DistributedGradientTape, with
MultiWorkerMirroredStrategy + strategy.run and with Keras's fit under that strategy; a worker that raises ends the whole job within 30 s
with its rank named; workers that made different variables fail at the first step.

Needs mpi4py and MPICH's mpiexec (the extra ``tapegrad[mpi]``); skips, saying so, without them.
"""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import tapegrad as tf

SCRIPTS = pathlib.Path(__file__).resolve().parent / "scripts"
MPIEXEC = shutil.which("mpiexec", path=str(pathlib.Path(sys.executable).parent)) or \
    shutil.which("mpiexec")

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mpi4py") is None or MPIEXEC is None,
    reason="mpi4py or mpiexec is not installed (pip install -e '.[mpi]' brings both)")

sys.path.insert(0, str(SCRIPTS))
import common  # noqa: E402


def _mpiexec(n, script, out, timeout=60):
    """Runs ``script`` on ``n`` processes; (return code, output, seconds)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(SCRIPTS), os.environ.get("PYTHONPATH", "")]))
    start = time.monotonic()
    run = subprocess.run([MPIEXEC, "-n", str(n), sys.executable, str(SCRIPTS / script), str(out)],
                         capture_output=True, text=True, timeout=timeout, env=env, cwd=SCRIPTS)
    return run.returncode, run.stdout + run.stderr, time.monotonic() - start


@pytest.mark.parametrize("script", ["train_tape.py", "train_strategy.py"])
@pytest.mark.parametrize("n", [2, 3])
def test_workers_train_to_the_full_batch_weights(tmp_path, script, n):
    code, output, seconds = _mpiexec(n, script, tmp_path / "weights")
    assert code == 0, output
    assert seconds < 30, f"{script} on {n} workers took {seconds:.1f} s"
    want_w, want_b = common.full_batch(tf)
    for rank in range(n):
        saved = np.load(tmp_path / f"weights.rank{rank}.npz")
        np.testing.assert_allclose(saved["w"], want_w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(saved["b"], want_b, rtol=1e-5, atol=1e-6)


def _fit_alone(x, y, w0, b0, runs):
    """A one-process Keras fit (``runs``: (batch_size, epochs) one after another)."""
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])
    model.set_weights([w0, b0])
    model.compile(optimizer=tf.keras.optimizers.SGD(common.LR), loss="mse", metrics=["mae"])
    histories = [model.fit(x, y, batch_size=b, epochs=e, shuffle=False, verbose=0).history
                 for b, e in runs]
    return model, histories


@pytest.mark.parametrize("n", [2, 3])
def test_keras_fit_on_workers_equals_one_process(tmp_path, n):
    """fit/evaluate/predict under MultiWorkerMirroredStrategy (train_fit.py): the full-batch
    weights, the same losses and metrics on every worker, the chief alone writing checkpoints,
    BackupAndRestore resuming at the interrupted epoch."""
    code, output, seconds = _mpiexec(n, "train_fit.py", tmp_path / "fit")
    assert code == 0, output
    assert seconds < 30, f"train_fit.py on {n} workers took {seconds:.1f} s"
    want_w, want_b = common.full_batch(tf)
    x, y = common.data()
    alone, (history,) = _fit_alone(x, y, *common.initial(), [(common.ROWS, common.STEPS)])
    resumed, _ = _fit_alone(x, y, *common.initial(), [(common.ROWS, 3), (6, 3)])
    for rank in range(n):
        saved = np.load(tmp_path / f"fit.rank{rank}.npz")
        np.testing.assert_allclose(saved["w"], want_w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(saved["b"], want_b, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(saved["loss"], history["loss"], rtol=1e-5)
        np.testing.assert_allclose(saved["mae"], history["mae"], rtol=1e-5)
        np.testing.assert_allclose(saved["evaluated"], alone.evaluate(x, y, verbose=0),
                                   rtol=1e-5)
        np.testing.assert_allclose(saved["predicted"], alone.predict(x, verbose=0), rtol=1e-5)
        assert list(saved["resumed_epochs"]) == [3, 4, 5]
        np.testing.assert_allclose(saved["resumed_w"], resumed.get_weights()[0], rtol=1e-5,
                                   atol=1e-6)
        assert (tmp_path / f"fit.rank{rank}.weights.h5").exists() == (rank == 0)
    assert not (tmp_path / "fit.backup").exists()   # deleted by the chief at the end


def test_a_worker_that_raises_ends_every_worker_naming_its_rank(tmp_path):
    code, output, seconds = _mpiexec(3, "fault.py", tmp_path / "none")
    assert code != 0
    assert seconds < 30, f"the job took {seconds:.1f} s to end"
    assert "worker rank 1 of 3 failed: RuntimeError: worker one gave up" in output, output
    assert "not reached" not in output


def test_different_variables_fail_the_first_step(tmp_path):
    code, output, seconds = _mpiexec(2, "mismatch.py", tmp_path / "none")
    assert code != 0 and seconds < 30
    assert "the workers made different variables before this step (worker rank 1 made 2 " \
           "variable(s): w:0 [2, 2] float32, extra:0 [3] float32" in output, output
    assert "not reached" not in output


def test_a_worker_that_dies_ends_every_worker(tmp_path):
    code, output, seconds = _mpiexec(3, "dies.py", tmp_path / "none")
    assert code != 0 and seconds < 30, (code, seconds, output)
    assert "Killed (signal 9)" in output, output   # MPICH's report names the process's PID
    assert "not reached" not in output
