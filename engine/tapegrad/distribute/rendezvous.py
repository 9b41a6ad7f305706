"""The replicas of a MirroredStrategy: one thread each, taking turns, meeting to exchange values
(all-reduce, ``merge_call``). A replica that raises ends the step at once: the others stop
waiting and the step raises the first replica's error.

The replicas run one at a time, in replica order, each until it asks to meet the others or
returns (all of them compute on the one CPU anyway). Taking turns lets them share the recording
state of the thread that called ``strategy.run``: a tape open there records every replica's ops,
and each replica's ops carry the scope ``replica:<i>`` (the graph draws each replica's step as a
group). Whatever a replica leaves open in that state when its turn ends (its own tape, a layer's
scope) is put aside until its next turn.

Pyodide has no threads: there the replicas run one after another, and a replica that asks to
meet the others (all-reduce, ``merge_call``) gets an error saying so."""
import sys
import threading

from ..thread_state import state
from . import allreduce


THREADS = sys.platform != "emscripten"
_SHARED = ("active", "scopes", "name_scopes")   # the caller's recording state, shared in turns


class ReplicaFailed(Exception):
    """Another replica of the same step raised; its error is the one reported."""


class LocalGroup:
    def __init__(self, count, scope_names=None):
        self.size = count
        self._cond = threading.Condition()
        self._turn = 0
        self._done = set()
        self._waiting = 0             # replicas waiting in an exchange for the others
        self._failed = None
        self._slots = [None] * count
        self._round = None            # every replica's value of the last exchange
        self._local = threading.local()
        self._in_turn = False         # replicas run one after another (no threads)
        names = scope_names or [f"replica:{i}" for i in range(count)]
        self._shared = [getattr(state, name) for name in _SHARED]
        self._bases = [len(lst) for lst in self._shared]
        self._aside = [([], [name], []) for name in names]   # each replica's own part of them
        self.key = allreduce.register(self)

    @property
    def replica(self):
        return self._local.replica

    # -- the recording state: the caller's, with each replica's own part in its turn ----------
    def _resume(self, i):
        for lst, mine in zip(self._shared, self._aside[i]):
            lst.extend(mine)

    def _put_aside(self, i):
        self._aside[i] = tuple(lst[base:] for lst, base in zip(self._shared, self._bases))
        for lst, base in zip(self._shared, self._bases):
            del lst[base:]

    def _share_state(self):
        """In a replica's thread: the caller's recording lists become this thread's."""
        for name, lst in zip(_SHARED, self._shared):
            setattr(state, name, lst)

    # -- turns ------------------------------------------------------------------------------
    def _wait_turn(self, i):
        """Waits (holding the lock) until it is replica ``i``'s turn, then resumes its state."""
        while self._turn != i and self._failed is None:
            self._cond.wait()
        if self._failed is not None:
            raise ReplicaFailed("another replica of this step raised")
        self._resume(i)

    def _end_turn(self, i):
        """Puts replica ``i``'s state aside and hands the turn to the next live replica."""
        self._put_aside(i)
        live = [j for j in range(self.size) if j not in self._done]
        if live:
            self._turn = min((j for j in live if j > i), default=live[0])
        self._cond.notify_all()

    def _fail(self, error):
        if self._failed is None:
            self._failed = error
        self._cond.notify_all()

    def exchange(self, value):
        """Every replica's ``value``, in replica order (each replica calls it once)."""
        if self._in_turn:
            raise RuntimeError(
                f"The {self.size} replicas of this MirroredStrategy run one after another here "
                "(no threads, as in the browser), so they cannot meet inside strategy.run for "
                "an all-reduce or merge_call: return the per-replica values and combine them "
                "with strategy.reduce, or use one replica")
        i = self._local.replica
        with self._cond:
            if self._done:
                self._fail(_mismatch())
                raise self._failed
            self._slots[i] = value
            self._waiting += 1
            if self._waiting == self.size:        # the last to arrive: everyone's values
                self._round, self._waiting = list(self._slots), 0
            self._end_turn(i)
            self._wait_turn(i)
            return self._round

    def all_reduce(self, array, op):
        parts = self.exchange(array)
        total = parts[0].copy()
        for part in parts[1:]:
            total = total + part
        if op == "MEAN":
            total = (total / self.size).astype(parts[0].dtype)
        return total

    def run(self, replica_fn):
        """``replica_fn(i)`` for each replica ``i``, each in its own thread, in turns; their
        results."""
        if not THREADS:
            return self._run_in_turn(replica_fn)
        results, errors = [None] * self.size, [None] * self.size
        threads = [threading.Thread(target=self._body, args=(i, replica_fn, results, errors),
                                    daemon=True) for i in range(self.size)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        allreduce.GROUPS.pop(self.key, None)
        if any(e is not None for e in errors):
            raise next((e for e in errors if e is not None and not isinstance(e, ReplicaFailed)),
                       self._failed)
        return results

    def _body(self, i, replica_fn, results, errors):
        self._local.replica = i
        self._share_state()
        try:
            with self._cond:
                self._wait_turn(i)
            results[i] = replica_fn(i)
        except BaseException as e:   # noqa: BLE001 - handed to the caller below
            errors[i] = e
            with self._cond:
                self._fail(e)
        with self._cond:
            self._done.add(i)
            if self._waiting and self._failed is None:   # others wait for this one in vain
                self._fail(_mismatch())
            if self._turn == i:
                self._end_turn(i)

    def _run_in_turn(self, replica_fn):
        self._in_turn = True
        try:
            results = []
            for i in range(self.size):
                self._local.replica = i
                self._resume(i)
                try:
                    results.append(replica_fn(i))
                finally:
                    self._put_aside(i)
            return results
        finally:
            allreduce.GROUPS.pop(self.key, None)


def _mismatch():
    return RuntimeError("The replicas of this MirroredStrategy step did not all make the same "
                        "all-reduce or merge_call: one returned while others waited for it")
