"""Collectives between processes over MPI (``mpi4py``, the optional extra ``tapegrad[mpi]``):
one process per worker, launched with ``mpiexec -n N python train.py``.

mpi4py is loaded only here, and only when a multi-worker strategy is made (loading it starts
MPI); where it is missing (Pyodide, a plain install) ``world()`` raises ``MpiUnavailable``.

Faults are loud, never a hang: once MPI runs, an exception that ends a worker prints
``tapegrad.distribute: worker rank R of N failed: ...`` and aborts every process of the job;
a collective that the other workers do not join within ``TAPEGRAD_COLLECTIVE_TIMEOUT`` seconds
(default 600) names the waiting rank and aborts too.
"""
import importlib
import os
import sys
import time
import traceback

from ..backend import to_host
from . import allreduce

# Environment variables that the launchers (MPICH's Hydra, Open MPI, SLURM) set in each process.
LAUNCHED_BY = ("PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")


class MpiUnavailable(RuntimeError):
    """MPI cannot be used here (mpi4py is not installed, or this is the browser)."""


def launched():
    """Whether this process was started by an MPI launcher."""
    return any(name in os.environ for name in LAUNCHED_BY)


def _load_mpi():
    try:
        return importlib.import_module("mpi4py.MPI")
    except ImportError as e:
        raise MpiUnavailable(
            "MultiWorkerMirroredStrategy needs MPI, which is unavailable here: mpi4py cannot be "
            f"imported ({e}). Install it with `pip install tapegrad[mpi]` (mpi4py and mpich) "
            "and launch the workers with `mpiexec -n N python train.py`.") from None


class MpiGroup:
    """Every process of ``MPI.COMM_WORLD``, as an all-reduce group."""

    def __init__(self, mpi):
        self.mpi = mpi
        self.comm = mpi.COMM_WORLD
        self.rank = self.comm.Get_rank()
        self.size = self.comm.Get_size()
        self.timeout = float(os.environ.get("TAPEGRAD_COLLECTIVE_TIMEOUT", "600"))
        self.key = allreduce.register(self)

    def _finish(self, request, what):
        """Waits for ``request``, polling, so that a lost worker ends in an error, not a hang."""
        deadline = time.monotonic() + self.timeout
        pause = 0.0
        while not request.Test():
            if time.monotonic() > deadline:
                self.abort(f"rank {self.rank} waited {self.timeout:.0f} s in {what} for the "
                           "other workers (one of them died or is stuck)")
            time.sleep(pause)
            pause = min(0.002, pause + 0.0001)

    def all_reduce(self, array, op):
        send = to_host(array).__array__().copy(order="C")   # host, contiguous, an array
        out = send.copy()
        self._finish(self.comm.Iallreduce(send, out, op=self.mpi.SUM), "an all-reduce")
        if op == "MEAN":
            out = (out / self.size).astype(send.dtype)
        return out

    def broadcast(self, array):
        """Rank 0's ``array`` on every rank."""
        buffer = to_host(array).__array__().copy(order="C")
        self._finish(self.comm.Ibcast(buffer, root=0), "a broadcast")
        return buffer

    def barrier(self):
        """Returns once every rank has called it."""
        self._finish(self.comm.Ibarrier(), "a barrier")

    def allgather(self, obj):
        """Every rank's ``obj`` (small, picklable), in rank order."""
        return self.comm.allgather(obj)

    # The launcher kills every process as soon as one aborts, and drops what it has not yet
    # forwarded from their pipes: the message (and the traceback before it) were lost in about
    # one abort in five on a loaded 2-core machine (tests/mpi, fault.py).
    ABORT_GRACE_S = 0.5

    def abort(self, message):
        sys.stderr.write(f"tapegrad.distribute: {message}\n")
        sys.stderr.flush()
        sys.stdout.flush()
        time.sleep(self.ABORT_GRACE_S)   # for the launcher to forward the output first
        self.comm.Abort(1)


_world = []


def world():
    """The group of all MPI processes (MPI is started on the first call)."""
    if not _world:
        group = MpiGroup(_load_mpi())
        _world.append(group)
        if group.size > 1:
            _abort_on_uncaught(group)
    return _world[0]


def _abort_on_uncaught(group):
    """An exception that ends a worker names its rank and aborts the whole job: the other
    workers would otherwise wait for it in their next collective forever."""
    previous = sys.excepthook

    def hook(kind, error, tb):
        text = "".join(traceback.format_exception(kind, error, tb))
        sys.stderr.write(text)
        group.abort(f"worker rank {group.rank} of {group.size} failed: "
                    f"{kind.__name__}: {error}; ending every worker")
        previous(kind, error, tb)

    sys.excepthook = hook
