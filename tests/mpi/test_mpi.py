"""tf.distribute over MPI (issue 32): ``mpiexec -n 2`` and ``-n 3`` train to the weights of
single-process full-batch training, with DistributedGradientTape and with
MultiWorkerMirroredStrategy + strategy.run; a worker that raises ends the whole job within 30 s
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
