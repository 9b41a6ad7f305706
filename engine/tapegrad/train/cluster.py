"""``tf.train.ClusterSpec`` (the jobs and task addresses of a cluster) and ``tf.train.Coordinator``
(stopping a group of threads together). tapegrad runs its replicas over MPI
(``tf.distribute``), so a ClusterSpec here describes a cluster; nothing connects to it.

>>> import tapegrad as tf
>>> spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": ["p0:2222"]})
>>> spec.jobs, spec.num_tasks("worker"), spec.task_address("worker", 1)
(['worker', 'ps'], 2, 'w1:2222')
>>> coord = tf.train.Coordinator()
>>> coord.request_stop(); coord.should_stop()
True
"""
import contextlib
import sys
import threading
import time


class ClusterSpec:
    """Job name -> its tasks: a list of addresses (tasks 0, 1, ...) or a dict index -> address."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterDef` protocol buffer")
        self._jobs = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, dict):
                self._jobs[job] = {int(i): tasks[i] for i in sorted(tasks, key=int)}
            else:
                self._jobs[job] = dict(enumerate(tasks))

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self.as_dict() == other.as_dict()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return f"ClusterSpec({self.as_dict()!r})"

    @property
    def jobs(self):
        return list(self._jobs)

    def _tasks(self, job_name):
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return self._jobs[job_name]

    def num_tasks(self, job_name):
        return len(self._tasks(job_name))

    def task_indices(self, job_name):
        return list(self._tasks(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._tasks(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name):
        """The addresses by index, with None where a sparse job has no task."""
        tasks = self._tasks(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []

    def as_dict(self):
        """Each job's addresses: a list where its tasks are 0..n-1, else index -> address."""
        out = {}
        for job, tasks in self._jobs.items():
            dense = list(tasks) == list(range(len(tasks)))
            out[job] = list(tasks.values()) if dense else dict(tasks)
        return out


class Coordinator:
    """Threads ask ``should_stop()``; any of them (or the caller) ``request_stop()``s; ``join``
    waits for them and raises again an exception a thread reported."""

    def __init__(self, clean_stop_exception_types=None):
        self._clean = tuple(clean_stop_exception_types or (StopIteration,))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._exc_info = None
        self._threads = set()
        self._joined = False

    def request_stop(self, ex=None):
        """Asks every thread to stop; ``ex`` (an exception or ``sys.exc_info()``) is raised again
        by ``join`` unless it is a clean stop (StopIteration by default)."""
        with self._lock:
            if ex is not None and self._exc_info is None:
                info = ex if isinstance(ex, tuple) else (type(ex), ex, ex.__traceback__)
                if not issubclass(info[0], self._clean):
                    self._exc_info = info
            self._stop.set()

    def clear_stop(self):
        with self._lock:
            self._joined = False
            self._exc_info = None
            self._stop.clear()

    def should_stop(self):
        return self._stop.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """Inside, an exception requests the stop (and is kept for ``join``) instead of
        escaping the thread."""
        try:
            yield
        except Exception:  # noqa: BLE001 - kept and raised again by join
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        return self._stop.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._threads.add(thread)

    @property
    def joined(self):
        return self._joined

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Waits for ``threads`` (and the registered ones) to end after a stop was requested,
        then raises the exception a thread reported, if any."""
        threads = set(threads or ()) | self._threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(0.05):
            pass
        deadline = time.time() + stop_grace_period_secs
        for t in threads:
            t.join(max(0.0, deadline - time.time()))
        alive = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._threads = set()
        if alive and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: "
                               f"{' '.join(alive)}")
        self.raise_requested_exception()

    def raise_requested_exception(self):
        with self._lock:
            info, self._exc_info = self._exc_info, None
        if info is not None:
            raise info[1].with_traceback(info[2])
