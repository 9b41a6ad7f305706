"""The replicas of a MirroredStrategy: one thread each, meeting at a barrier to exchange values
(all-reduce, ``merge_call``). A replica that raises breaks the barrier, so the others stop
waiting and the step raises the first replica's error.

Pyodide has no threads: there the replicas run one after another, and a replica that asks to
meet the others (all-reduce, ``merge_call``) gets an error saying so."""
import sys
import threading

from . import allreduce


THREADS = sys.platform != "emscripten"


class ReplicaFailed(Exception):
    """Another replica of the same step raised; its error is the one reported."""


class LocalGroup:
    def __init__(self, count):
        self.size = count
        self._barrier = threading.Barrier(count)
        self._slots = [None] * count
        self._local = threading.local()
        self._in_turn = False   # replicas run one after another (no threads)
        self.key = allreduce.register(self)

    @property
    def replica(self):
        return self._local.replica

    def _wait(self):
        try:
            self._barrier.wait()
        except threading.BrokenBarrierError:
            raise ReplicaFailed("another replica of this step raised") from None

    def exchange(self, value):
        """Every replica's ``value``, in replica order (each replica calls it once)."""
        if self._in_turn:
            raise RuntimeError(
                f"The {self.size} replicas of this MirroredStrategy run one after another here "
                "(no threads, as in the browser), so they cannot meet inside strategy.run for "
                "an all-reduce or merge_call: return the per-replica values and combine them "
                "with strategy.reduce, or use one replica")
        self._slots[self._local.replica] = value
        self._wait()
        values = list(self._slots)
        self._wait()
        return values

    def all_reduce(self, array, op):
        parts = self.exchange(array)
        total = parts[0].copy()
        for part in parts[1:]:
            total = total + part
        if op == "MEAN":
            total = (total / self.size).astype(parts[0].dtype)
        return total

    def run(self, replica_fn):
        """``replica_fn(i)`` for each replica ``i``, each in its own thread; their results."""
        if not THREADS:
            return self._run_in_turn(replica_fn)
        results, errors = [None] * self.size, [None] * self.size

        def body(i):
            self._local.replica = i
            try:
                results[i] = replica_fn(i)
            except BaseException as e:   # noqa: BLE001 - handed to the caller below
                errors[i] = e
                self._barrier.abort()

        threads = [threading.Thread(target=body, args=(i,), daemon=True)
                   for i in range(self.size)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        allreduce.GROUPS.pop(self.key, None)
        first = next((e for e in errors if e is not None and not isinstance(e, ReplicaFailed)),
                     next((e for e in errors if e is not None), None))
        if first is not None:
            raise first
        return results

    def _run_in_turn(self, replica_fn):
        self._in_turn = True
        try:
            results = []
            for i in range(self.size):
                self._local.replica = i
                results.append(replica_fn(i))
            return results
        finally:
            allreduce.GROUPS.pop(self.key, None)
