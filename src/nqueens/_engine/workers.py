"""Workers beyond this process: the units they are handed, how units reach them, the checks.

count(n, workers=...) cuts the pending tasks into units (runs of tasks that
can share the core's table), as many as balance what a unit costs the
engine against the time a worker may wait at the end (``unit_count``: from
the pace measured here on a few tasks; about a second of work a unit at
n = 20 on 2 workers), in whole rounds of the workers (16 of them assumed
where the engine does not say); each unit holds a like sample of the whole split
(``cut_units``), so that the units take about as long (at odd n, of whole blocks
of a cross's runs: the core keeps the work of one cross at a time).  Where the engine
says how many workers it has, a first round of one unit a worker (an
eighth of the work each on two workers) goes out before the pace, which
is measured here, in processor time, while they count.  A process pool
that forks its processes at its first submit (``forks_at_submit``: a
``ProcessPoolExecutor`` on the "fork" start method) is handed this
process's quadrant table instead: count() builds it before that submit, and
the forked processes count with it rather than each building its own
beside it (at n = 18, 24 ms each on the same cores).  Nor does such a pool
pass units through its queues: it gets one call a process (``count_forked``),
and each takes the units, a run of neighbouring tasks each, from memory
shared at the fork, as threads take them; this process reads their counts
there as they are logged (``_Forked``: through the queues, a unit cost a
worker about 0.5 ms at n = 18, and this process 0.25 ms).  Any other
``ProcessPoolExecutor`` (on "forkserver", Python 3.14's default on Linux, on
"spawn", or one that forked before) gets one call a process too, where the
system has file locks (``_Shared``): the units go with the call, the board is a
file in memory (flock), and each process builds its own table and keeps it for
the next count of the same n.  The units reach
the workers by the engine's own submission where it has one: a Dask
``Client`` (``Client.map`` and ``as_completed``), a ``concurrent.futures``
executor (``submit``, ``as_completed``: a ``ProcessPoolExecutor``, Dask's
``get_executor()``, ``mpi4py.futures.MPIPoolExecutor``), a pool with
``imap_unordered`` (``multiprocessing.Pool``, Ray's ``Pool``), passed
themselves or as their bound ``map``; results are taken as they arrive.
Any other map-like callable is called as ``workers(count_unit, units)`` in
up to BATCHES calls of at least PER_CALL units, one call ahead (the next
call's units are submitted before this call's results are read).  A unit
of quadrant tasks is pickled as the bytes of their (cross, first, end) and
checked in one pass where it is unpickled (``Unit.__reduce__``).

Each result says where it comes from: the worker's release of nqueens, the
core that counted (compiled or twin) and the tasks it counted, echoed.
Nothing a worker returns is taken on trust:

- a result of another release, for tasks other than those sent (a cache of
  another n, a shifted range), repeated, missing or malformed is refused;
- each count must keep what the mathematics gives for free: a whole
  multiple of its task's weight (the orbit it stands for), at least 0 and
  at most the task's bound from the split (``_tasks.task_bound``);
- a share ``verify`` of the tasks, chosen at random per call of count(),
  and never fewer than MIN_CHECKS, is counted twice: the few whose pace is
  measured here (at least LOCAL_CHECKS - 1) and, as the first results come
  in, one task of each until one that has a solution agrees (no result is
  handed on before, so that an executor wrong on every unit commits
  nothing) are counted in this process; the rest go through the workers a
  second time, in units of their own, sent after the units that hold them
  (so that the second count usually lands on another worker).  Two counts
  that differ raise ExecutorError naming the task and both counts.

The checks are counted in tasks, not units: the units grow with the work,
the share of the work checked does not shrink with them.  Any refusal
raises ExecutorError; count() then keeps nothing unverified of that call in
its journal.  Workers that stop (a process pool whose process died, a Dask
task whose workers kept dying) raise BrokenWorkers: what they finished is
kept.
"""

from __future__ import annotations

import array
import contextlib
import itertools
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from .. import _select, _version
from .._validate import is_engine, short_repr
from . import assembly as _assembly
from .assembly import Checked, QuadrantTask
from .subproblems import Task, as_task, count_run, runs, task_bound

if TYPE_CHECKING:
    import random

# A plain map-like is called at most this many times per count (each call's
# results are journalled before the next is read) and each call holds at
# least PER_CALL units (so that a call keeps a cluster busy)
BATCHES = 64
PER_CALL = 16
UNITS_PER_WORKER = 4
"""Units at least per worker."""
ASSUMED_WORKERS = 16
"""The workers assumed where the engine does not say how many it has."""
# the pace is measured on up to this many random tasks, for up to this long
PACE_TASKS = 16
PACE_SECONDS = 0.03
# tasks counted twice per count, at the least (all of them where there are fewer)
MIN_CHECKS = 4
# of those, counted again in the calling process (one of them from the first results)
LOCAL_CHECKS = 2
# checks of the first results, none with a solution, after which the gate opens
GATE_TRIES = 8
VERIFY_DEFAULT = 0.02
"""The share of tasks count() counts twice by default (see count's ``verify``)."""


class ExecutorError(RuntimeError):
    """``workers`` gave back results that do not match the work it was given."""


class BrokenWorkers(ExecutorError):
    """The workers stopped before the count ended (a process of a process pool died,
    a Dask task's workers kept dying).  What they finished is kept: with a journal,
    the same call resumes from it."""


class Unit(NamedTuple):
    """What the workers count in one call of the function they are handed: tasks,
    with their indices, so that every result comes back with its tasks' identity."""

    indices: tuple[int, ...]
    tasks: tuple[Task, ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # quadrant tasks of one n (every unit of a split by quadrants) travel as the
        # bytes of their (cross, first, end), 4 each (32-bit, little-endian: a row
        # set's rank is below 2**20 for n <= 23), and are checked in one pass
        # where they land, once (each task pickled itself, was checked as it was
        # unpickled and again by count_unit)
        tasks = cast("tuple[QuadrantTask, ...]", self.tasks)
        if tasks and type(tasks[0]) is QuadrantTask:
            n = tasks[0][0]
            if all(type(t) is QuadrantTask and t[0] == n for t in tasks):
                try:
                    triples = array.array("i", [v for t in tasks for v in t[1:]])
                except OverflowError:  # not a task of any split: pickled as it is
                    return (Unit, (self.indices, self.tasks))
                if _BIG_ENDIAN:  # little-endian on the way, whatever the machines
                    triples.byteswap()
                return (_quadrant_unit, (self.indices, n, triples.tobytes()))
        return (Unit, (self.indices, self.tasks))


def _quadrant_unit(indices: tuple[int, ...], n: int, data: bytes) -> Unit:
    """A Unit of quadrant tasks as Unit.__reduce__ packed it, each task checked."""
    triples = array.array("i")
    triples.frombytes(data)
    if _BIG_ENDIAN:
        triples.byteswap()
    return Unit(indices, _assembly.checked_tasks(n, triples.tolist()))


_BIG_ENDIAN = sys.byteorder == "big"


class UnitResult(NamedTuple):
    """A unit's counts, with where they come from."""

    version: str  # the worker's release of nqueens
    core: str  # the core that counted: "cython" or "python"
    tasks: tuple[tuple[Any, ...], ...]  # the tasks it counted, as it read them, as tuples
    indices: tuple[int, ...]
    counts: tuple[int, ...]


class Finished(NamedTuple):
    """One task's count as count() keeps it."""

    task: int  # its index in the split
    value: int
    core: str
    verified: bool  # counted twice, alike
    version: str


def count_unit(unit: Unit) -> UnitResult:
    """The function the workers run: a unit's weighted counts, with the worker's
    release, its core and the tasks, checked again, that it counted."""
    indices, tasks = unit
    # (a unit unpickled here was checked as it was: see Unit.__reduce__)
    checked = tasks if type(tasks) is Checked else tuple(as_task(task) for task in tasks)
    counts = tuple(count_run(checked, bytearray(1)))
    # echoed as plain tuples: what the client compares with what it sent (a task
    # type's own pickling checks it again on the way back, 2 us a task)
    echoed = tuple(tuple(task) for task in checked)
    return UnitResult(_version.__version__, _select.IMPLEMENTATION, echoed, tuple(indices), counts)


def count_numbered(item: tuple[int, Unit]) -> tuple[int, UnitResult]:
    """count_unit for a pool that returns results in any order, with their number."""
    position, unit = item
    return position, count_unit(unit)


def forks_at_submit(workers: object) -> bool:
    """Whether `workers` (or the pool of its bound map) is a process pool that forks
    its processes from this process at its next submit (the standard library's
    ProcessPoolExecutor on the "fork" start method, before its first task): what
    this process holds then, they hold too."""
    flow = engine(workers)
    pool = flow.executor if isinstance(flow, _Futures) else None
    # the pool's own attributes, read with care (private: anything else says False)
    context = getattr(pool, "_mp_context", None)
    if context is None or getattr(pool, "_processes", None) != {}:
        return False
    try:
        return bool(context.get_start_method() == "fork")
    except Exception:  # another pool's context: no promise
        return False


@contextlib.contextmanager
def claimed_fork(workers: object) -> Iterator[bool]:
    """Whether this count forks the processes of `workers` (forks_at_submit), held
    for the count: two counts that share a pool yet to fork cannot both count on
    what they hold at the fork (the second one's would be made after it): the first
    claims the fork, and any other meanwhile takes the pool as one that forked."""
    flow = engine(workers)
    pool = flow.executor if isinstance(flow, _Futures) else None
    while True:
        with _claims_lock:
            other = pool is not None and id(pool) in _claims
            claimed = pool is not None and not other and forks_at_submit(pool)
            if claimed:
                _claims.add(id(pool))
        if not (other and forks_at_submit(pool)):
            break
        # another count holds the fork and has not made it yet: whatever this count
        # submits now could fork the processes before that count's board exists
        time.sleep(_CLAIM_WAIT)
    try:
        yield claimed
    finally:
        if claimed:
            with _claims_lock:
                _claims.discard(id(pool))


_claims: set[int] = set()  # the pools (by id) whose fork a count has claimed
_CLAIM_WAIT = 0.05  # seconds between two looks at a pool another count forks
_claims_lock = threading.Lock()


# -- the engines ---------------------------------------------------------------------


UNIT_COST = 0.01
"""What a unit costs on a cluster's engine (Dask's, and the default), in seconds: the
engine's own (Dask: 3.7 ms for a no-op) and the worker's (what n = 19 took more on two
Dask workers with 160 units than with 20)."""


class _Engine:
    """How units reach the workers: stream() yields (payload position, answer) as
    answers arrive, for the payloads of every call in `calls`, taken one by one
    (the next call's payloads are made while the first round counts: an engine
    with a size takes every call before it hands on an answer)."""

    size: int | None = None  # how many workers, where the engine says
    cost = UNIT_COST
    shared = False  # units through shared memory, next to free: no first round, no pace

    def __init__(self, name: str) -> None:
        self.name = name

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        raise NotImplementedError

    def broken(self, exc: BaseException) -> BrokenWorkers:
        reason = str(exc).splitlines()[0] if str(exc) else ""
        return BrokenWorkers(
            f"workers {self.name} stopped: {type(exc).__name__}"
            + (f" ({reason})" if reason else "")
            + "; what they finished is kept (with a journal, the same call resumes from it)"
        )


def _is_broken(exc: BaseException) -> bool:
    # a pool whose process died, or a Dask task whose workers kept dying
    names = {cls.__name__ for cls in type(exc).__mro__}
    futures = sys.modules.get("concurrent.futures")  # loaded: it made the executor
    return (futures is not None and isinstance(exc, futures.BrokenExecutor)) or (
        "KilledWorker" in names
    )


class _Futures(_Engine):
    """A concurrent.futures executor: every unit submitted at once, taken as it ends."""

    cost = 0.002

    def __init__(self, executor: Any, name: str) -> None:
        super().__init__(name)
        self.executor = executor
        size = getattr(executor, "num_workers", None)  # mpi4py's MPIPoolExecutor
        if not isinstance(size, int):
            size = getattr(executor, "_max_workers", None)  # the standard library's pools
        self.size = size if isinstance(size, int) and size > 0 else None

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        flight: dict[Any, int] = {}
        try:
            try:
                for call in calls:
                    for position in call:
                        flight[self.executor.submit(count_unit, payloads[position])] = position
                import concurrent.futures  # imported by whoever made the executor

                for future in concurrent.futures.as_completed(list(flight)):
                    position = flight.pop(future)
                    yield position, future.result()
            except Exception as exc:
                if _is_broken(exc):
                    raise self.broken(exc) from None
                raise
        finally:
            for future in flight:
                future.cancel()


class _Boarded(_Futures):
    """A process pool whose processes take the units from a board (_Log) in memory
    they share with this process, one call a process, each taking the units one
    after another as threads take them, where the pool would pickle each unit and
    its result through its queues and this process's threads (at n = 18, about
    0.5 ms of a worker's time a unit).  This process reads the finished units as
    they are logged there, and calls `started` once the processes count (its
    checks here: count_here)."""

    shared = True  # units cost almost nothing: no first round, no pace

    def __init__(self, executor: Any, name: str, started: Callable[[], None]) -> None:
        super().__init__(executor, name)
        self.started = started

    def _account(self, answer: Any) -> None:
        # a call's (release, core, units counted); a process of another release
        # or core counts nothing (count_forked, count_shared) and is refused here
        if not (isinstance(answer, tuple) and len(answer) == 3):
            raise ExecutorError(
                f"workers {self.name} returned {short_repr(answer)}, not an account"
            )
        if type(answer[0]) is not str or answer[0] != _version.__version__:
            raise _other_release(self.name, answer[0])
        if answer[1] != _select.IMPLEMENTATION:
            raise ExecutorError(
                f"workers {self.name} count with the {short_repr(answer[1])} core, not the "
                f"{_select.IMPLEMENTATION} one of this process"
            )

    @property
    def calls(self) -> int:
        """The calls made: one a process."""
        return self.size or 1

    def _submit(self, function: Callable[..., Any], *args: Any) -> list[Any]:
        """One call of `function` a process."""
        try:
            return [self.executor.submit(function, *args) for _ in range(self.calls)]
        except Exception as exc:
            if _is_broken(exc):
                raise self.broken(exc) from None
            raise

    def _follow(
        self,
        log: _Log,
        made: list[Any],
        order: list[int],
        answer: Callable[[int], UnitResult],
        wait: Callable[..., Any],
    ) -> Iterator[Any]:
        """The logged units' answers as they come, until every unit has one, or every
        call has ended (results() refuses what they left); `wait(timeout=...)` waits
        for news."""
        try:
            seen = 0
            started = False
            while seen < len(order):
                wait(timeout=_POLL)
                if not started:
                    self.started()  # once the processes have started counting
                    started = True
                ended = all(future.done() for future in made)  # before the last look
                taken = log.logged(seen)
                for item in taken:
                    yield order[item], answer(item)
                seen += len(taken)
                for future in made:
                    if future.done():  # a process that died: BrokenProcessPool
                        self._account(future.result())
                if isinstance(self.executor, _Submitting):  # a pool that says nothing of it
                    died = log.died()
                    if died is not None:
                        raise self.broken(ChildProcessError(f"process {died} died mid-count"))
                if ended and seen < len(order):
                    break  # every call ended without them: results() refuses that
        except Exception as exc:
            if _is_broken(exc):
                raise self.broken(exc) from None
            raise


class _Forked(_Boarded):
    """A process pool that forks its processes at its first submit, counting with
    this process's quadrant table: the units and the board inherited at the fork
    (_Board)."""

    def __init__(
        self, executor: Any, name: str, table: Callable[[], Any], started: Callable[[], None]
    ) -> None:
        super().__init__(executor, name, started)
        self.table = table

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        order = [position for call in calls for position in call]  # planned first
        board = _Board(self.executor._mp_context, payloads, order, self.table(), self.calls)
        key = next(_board_keys)
        _boards[key] = board  # the processes fork with it, at the first submit
        try:
            made = self._submit(count_forked, key)
            # (the semaphore is released as the last unit is logged)
            yield from self._follow(board.log, made, order, board.answer, board.ended.acquire)
        finally:
            board.log.stop[0] = 1  # the processes still counting stop within moments
            del _boards[key]


class _Shared(_Boarded):
    """Any other process pool of the standard library on a system with file locks
    (a "forkserver" or "spawn" ProcessPoolExecutor, one that forked before, or a
    multiprocessing.Pool, through _Submitting): each process builds its own table
    (and keeps it for a later count of the same n), and the board is a file in
    memory (/dev/shm where there is one), locked with flock; each call gets the
    units with its arguments, pickled once a call.  The file is unlinked once
    every call has opened it (or as the count ends)."""

    @staticmethod
    def serves(flow: _Engine, tasks: Sequence[Task]) -> bool:
        if not (tasks and isinstance(tasks[0], QuadrantTask) and _has_flock()):
            return False
        if type(flow) is _Futures:
            futures = sys.modules.get("concurrent.futures")
            return futures is not None and isinstance(flow.executor, futures.ProcessPoolExecutor)
        # multiprocessing's process pool (not its ThreadPool, nor Ray's Pool, whose
        # processes may be on other machines, where a file here is not shared)
        pools = sys.modules.get("multiprocessing.pool")
        return (
            type(flow) is _Pool
            and pools is not None
            and isinstance(flow.pool, pools.Pool)
            and not isinstance(flow.pool, pools.ThreadPool)
        )

    @classmethod
    def of(cls, flow: _Engine, layout: _Layout) -> _Shared:
        """The board for the pool behind `flow` (that serves() takes)."""
        if isinstance(flow, _Futures):
            return cls(flow.executor, flow.name, layout.count_here)
        assert isinstance(flow, _Pool)
        shared = cls(_Submitting(flow.pool), flow.name, layout.count_here)
        shared.size = flow.size
        return shared

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        import concurrent.futures
        import mmap

        order = [position for call in calls for position in call]  # planned first
        units = [payloads[position] for position in order]
        sizes = [len(unit.indices) for unit in units]
        made_file = _board_file(_Log.size(sizes, self.calls))
        if made_file is None:  # no room for it: the units go through the queues
            yield from _Futures.stream(self, [order], payloads)
            return
        handle, path = made_file
        unlinked: list[bool] = []
        made: list[Any] = []
        try:
            with mmap.mmap(handle, 0) as memory:
                log = _Log(memory, sizes, _FileLock(handle), self.calls)
                origin = (_version.__version__, _select.IMPLEMENTATION)

                def wait(timeout: float) -> None:
                    running = [future for future in made if not future.done()]
                    concurrent.futures.wait(running, timeout, "FIRST_COMPLETED")
                    if not unlinked and log.begun() == len(made):
                        os.unlink(path)  # every call has it open
                        unlinked.append(True)

                try:
                    made.extend(self._submit(count_shared, path, units, origin, os.getpid()))
                    answer = lambda item: _answer(units[item], log.counts(item), origin)  # noqa: E731
                    yield from self._follow(log, made, order, answer, wait)
                finally:
                    log.stop[0] = 1  # the processes still counting stop within moments
                    # and their calls are waited for: a multiprocessing.Pool's terminate()
                    # (its with block's exit) that kills a process handing its result
                    # back can wait for ever on the lock that process held
                    concurrent.futures.wait(made, timeout=_SETTLE)
                    log.release()
        finally:
            os.close(handle)
            if not unlinked:
                os.unlink(path)


class _Submitting:
    """A multiprocessing.Pool as an executor, for _Shared: submit() is apply_async,
    whose result the pool's own thread sets on a concurrent.futures Future.  Such a
    pool never says that a process died (it starts another, and the call is lost):
    _Boarded._follow watches the board's processes instead (_Log.died)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        import concurrent.futures

        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()  # (a call the pool has cannot be cancelled)
        self.pool.apply_async(
            function, args, callback=future.set_result, error_callback=future.set_exception
        )
        return future


def _board_file(size: int) -> tuple[int, str] | None:
    """A new file of `size` bytes in memory (/dev/shm where there is one), open, and
    its path; its blocks are taken now where the system can (a page of a file in
    memory first written when there is no room left for it would kill the process
    that writes it).  None where there is no room for it."""
    import tempfile

    folder = "/dev/shm" if os.access("/dev/shm", os.W_OK | os.X_OK) else None
    try:
        handle, path = tempfile.mkstemp(prefix="nqueens-", suffix=".board", dir=folder)
    except OSError:
        return None
    try:
        os.ftruncate(handle, size)
        if hasattr(os, "posix_fallocate"):
            os.posix_fallocate(handle, 0, size)
    except OSError:
        os.close(handle)
        os.unlink(path)
        return None
    return handle, path


def _exists(pid: int) -> bool:
    """Whether the process `pid` is there (a zombie is, until reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: there
        pass
    return True


def _has_flock() -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        return False
    return hasattr(fcntl, "flock")


class _FileLock:
    """A lock on an open file (flock), across processes: the system lets it go
    when its holder ends, however it ends."""

    def __init__(self, handle: int) -> None:
        self.handle = handle

    def acquire(self, timeout: float | None = None) -> bool:
        import fcntl

        fcntl.flock(self.handle, fcntl.LOCK_EX)  # held for moments: no holder is stuck
        return True

    def release(self) -> None:
        import fcntl

        fcntl.flock(self.handle, fcntl.LOCK_UN)

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def count_shared(
    path: str, units: Sequence[Unit], origin: tuple[str, str], client: int
) -> tuple[str, str, int]:
    """The function a pool's processes run for _Shared, once each: its release and
    core, and how many units of the board at `path` it counted (none, if its
    release or core is not `origin`, or the board is gone); it stops if the process
    `client` (the count's) is gone, and removes the board then (a client killed
    before every call had opened it could not)."""
    import mmap

    here = (_version.__version__, _select.IMPLEMENTATION)
    if here != origin:
        return (*here, 0)
    parent = os.getppid()  # (a forkserver's processes' is the server, which may outlive it)
    try:
        handle = os.open(path, os.O_RDWR)
    except FileNotFoundError:  # the count ended before this call began
        return (*here, 0)
    try:
        with mmap.mmap(handle, 0) as memory:
            log = _Log(memory, [len(unit.indices) for unit in units], _FileLock(handle))
            try:
                counted = log.take(
                    lambda item: units[item].tasks,
                    None,
                    lambda: os.getppid() == parent and _exists(client),
                )
            finally:
                log.release()
    finally:
        os.close(handle)
    if not _exists(client):
        with contextlib.suppress(FileNotFoundError):  # (or another process did)
            os.unlink(path)
    return (*here, counted)


_POLL = 0.05  # how often a pool's finished units are read from its board, at most (seconds)
_SETTLE = 1.0  # how long a count waits, at most, for a board's calls to return at its end
_boards: dict[int, _Board] = {}  # each count's board, for its forked processes
_board_keys = itertools.count()


class _Log:
    """What the processes of a pool with a board (_Forked, _Shared) share with this
    process, in shared memory, as int64 words: the stop flag (its first byte, the
    core's), the next unit to take, the units logged, the calls begun, the calls
    planned, the process of each call begun (its pid, 0 once it has ended), the log
    of the units finished (in the order they ended), then their counts.  The units
    are numbered in the order they are taken; `lock` guards the words between
    processes.  This process gives the number of `calls`; a worker reads it."""

    HEAD = 5

    def __init__(
        self, memory: Any, sizes: Sequence[int], lock: Any, calls: int | None = None
    ) -> None:
        self.words = memoryview(memory).cast("q")
        self.stop = memoryview(memory)[:1]
        if calls is not None:
            self.words[4] = calls
        self.calls = int(self.words[4])
        self.starts = list(itertools.accumulate(sizes, initial=0))
        self.units = len(sizes)
        self.log_at = self.HEAD + self.calls
        self.counts_at = self.log_at + self.units
        self.lock = lock

    @classmethod
    def size(cls, sizes: Sequence[int], calls: int) -> int:
        """The bytes of the memory for units of these sizes (tasks each), and `calls`
        calls."""
        return 8 * (cls.HEAD + calls + len(sizes) + sum(sizes))

    def take(
        self,
        tasks_of: Callable[[int], Sequence[Task]],
        quarter: Any,
        alive: Callable[[], bool],
        last: Callable[[], Any] | None = None,
    ) -> int:
        """In a worker: take units until there are none, or stop, or `alive` says
        the count's process is gone (a client killed mid-count leaves no process
        counting on); how many this process counted.  `last` is called by the
        process that logs the last unit."""
        words, lock = self.words, self.lock
        with lock:
            call = int(words[3])
            words[3] = call + 1
            if call < self.calls:  # (a call more than planned is not watched)
                words[self.HEAD + call] = os.getpid()
        try:
            return self._take(tasks_of, quarter, alive, last)
        finally:
            if call < self.calls:
                with lock:
                    words[self.HEAD + call] = 0  # ended: not a process that died counting

    def _take(
        self,
        tasks_of: Callable[[int], Sequence[Task]],
        quarter: Any,
        alive: Callable[[], bool],
        last: Callable[[], Any] | None,
    ) -> int:
        words, stop, lock = self.words, self.stop, self.lock
        counted = 0
        while not stop[0] and alive():
            with lock:
                item = words[1]
                if item >= self.units:
                    break
                words[1] = item + 1
            # (the core reads the first byte of any buffer as its stop flag; the
            # working memory is the process's, kept for its next count as count_unit's)
            counts = count_run(tasks_of(item), cast("bytearray", stop), quarter)
            if stop[0]:  # a stopped search returns partial counts
                break
            first = self.counts_at + self.starts[item]
            words[first : first + len(counts)] = array.array("q", counts)
            with lock:
                logged = words[2]
                words[self.log_at + logged] = item
                words[2] = logged + 1
            if logged + 1 == self.units and last is not None:
                last()
            counted += 1
        return counted

    def logged(self, seen: int) -> list[int]:
        """The units logged since the first `seen`: none for now if a process holds
        the lock past _POLL (a forked pool's, held by a process killed: the pool
        then breaks)."""
        if not self.lock.acquire(timeout=_POLL):
            return []
        try:
            return self.words[self.log_at + seen : self.log_at + self.words[2]].tolist()
        finally:
            self.lock.release()

    def died(self) -> int | None:
        """A process that began a call and is gone without ending it (killed), or
        None."""
        for pid in self.words[self.HEAD : self.log_at].tolist():
            if pid and not _exists(pid):
                return int(pid)
        return None

    def begun(self) -> int:
        """How many calls have begun to take units."""
        return int(self.words[3])

    def counts(self, item: int) -> tuple[int, ...]:
        at = self.counts_at
        return tuple(self.words[at + self.starts[item] : at + self.starts[item + 1]].tolist())

    def release(self) -> None:
        """Let go of the memory (before it is closed)."""
        self.stop.release()
        self.words.release()


class _Board:
    """A forked pool's board: the units (in the order they are taken, inherited at
    the fork), the table, and the _Log in anonymous shared memory, with the
    context's lock, and a semaphore released as the last unit is logged."""

    def __init__(
        self, context: Any, payloads: Sequence[Unit], order: list[int], quarter: Any, calls: int
    ) -> None:
        import mmap

        self.payloads, self.order, self.quarter = payloads, order, quarter
        sizes = [len(payloads[position].indices) for position in order]
        self.memory = mmap.mmap(-1, _Log.size(sizes, calls))  # shared, zeroed
        self.log = _Log(self.memory, sizes, context.Lock(), calls)
        self.ended = context.Semaphore(0)
        self.parent = os.getpid()
        self.origin = (_version.__version__, _select.IMPLEMENTATION)

    def work(self) -> int:
        """In a forked process: count units from the board (_Log.take)."""
        if (_version.__version__, _select.IMPLEMENTATION) != self.origin:
            return 0  # (count_forked says which)
        payloads, order, parent = self.payloads, self.order, self.parent
        return self.log.take(
            lambda item: payloads[order[item]].tasks,
            self.quarter,
            lambda: os.getppid() == parent,
            self.ended.release,
        )

    def answer(self, item: int) -> UnitResult:
        """A logged unit's counts, as count_unit would have answered them."""
        return _answer(self.payloads[self.order[item]], self.log.counts(item), self.origin)


def _answer(unit: Unit, counts: tuple[int, ...], origin: tuple[str, str]) -> UnitResult:
    version, core = origin
    return UnitResult(version, core, unit.tasks, unit.indices, counts)


def count_forked(key: int) -> tuple[str, str, int]:
    """The function a forked pool's processes run, once each: its release and core,
    and how many units of the count's board it counted (none, if it was not forked
    with it, or its release or core is not the board's)."""
    board = _boards.pop(key, None)  # this process's copy: dropped once counted
    counted = board.work() if board is not None else 0
    return _version.__version__, _select.IMPLEMENTATION, counted


class _Dask(_Engine):
    """A Dask Client: Client.map over every unit, taken with as_completed."""

    def __init__(self, client: Any, name: str) -> None:
        super().__init__(name)
        self.client = client
        try:
            size = sum(int(k) for k in client.nthreads().values())
        except Exception:  # a client that cannot say: the default for an unknown size
            size = 0
        self.size = size or None

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        from distributed import as_completed

        futures: list[Any] = []
        flight: dict[Any, int] = {}
        try:
            try:
                for call in calls:
                    batch = self.client.map(count_unit, [payloads[p] for p in call], pure=False)
                    futures.extend(batch)
                    flight.update((future.key, p) for future, p in zip(batch, call))
                for future in as_completed(futures):
                    position = flight.pop(future.key)
                    answer = future.result()
                    future.release()
                    yield position, answer
            except Exception as exc:
                if _is_broken(exc):
                    raise self.broken(exc) from None
                raise
        finally:
            left = [future for future in futures if future.key in flight]
            if left:
                # (a stream dropped after its client closed has nothing left to cancel:
                # the closed client says so by raising)
                with contextlib.suppress(Exception):
                    self.client.cancel(left)


class _Pool(_Engine):
    """A pool with imap_unordered (multiprocessing's, Ray's): numbered units."""

    cost = 0.002

    def __init__(self, pool: Any, name: str) -> None:
        super().__init__(name)
        self.pool = pool
        size = getattr(pool, "_processes", None)  # multiprocessing.Pool
        self.size = size if isinstance(size, int) and size > 0 else None

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        # a call is handed on as soon as it is planned (the first round counts while
        # the rest is planned); the pool keeps each call's answers until they are
        # taken, call by call (a later call's answers wait for the last of the one before:
        # about a unit, as the pool hands out units in order)
        try:
            waiting = [
                self.pool.imap_unordered(count_numbered, [(p, payloads[p]) for p in call])
                for call in calls
            ]
            for answer in itertools.chain.from_iterable(waiting):
                if not (
                    isinstance(answer, tuple)
                    and len(answer) == 2
                    and type(answer[0]) is int
                    and 0 <= answer[0] < len(payloads)
                ):
                    raise ExecutorError(
                        f"workers {self.name} returned {short_repr(answer)}, not a numbered result"
                    )
                yield answer
        except Exception as exc:
            if _is_broken(exc):
                raise self.broken(exc) from None
            raise


class _Map(_Engine):
    """Any map-like callable: workers(count_unit, units), a call at a time, one ahead;
    results are matched to their units by their tasks."""

    def __init__(self, func: Callable[..., Iterable[Any]], name: str) -> None:
        super().__init__(name)
        self.func = func

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        flight = None
        for call in calls:
            upcoming = self._send(call, payloads)
            if flight is not None:
                yield from self._take(*flight)
            flight = upcoming
        if flight is not None:
            yield from self._take(*flight)

    def _send(self, call: Sequence[int], payloads: Sequence[Unit]) -> tuple[dict[int, int], Any]:
        owner = {payloads[p].indices[0]: p for p in call}
        try:
            return owner, self.func(count_unit, [payloads[p] for p in call])
        except Exception as exc:
            if _is_broken(exc):
                raise self.broken(exc) from None
            raise

    def _take(self, owner: dict[int, int], answers: Any) -> Iterator[Any]:
        try:
            answers = iter(answers)
        except TypeError:
            raise ExecutorError(
                f"workers {self.name} returned {type(answers).__name__}, not an iterable of results"
            ) from None
        seen: set[int] = set()
        try:
            for answer in answers:
                indices = _parse(self.name, answer)[3]
                if not indices or indices[0] not in owner:
                    raise ExecutorError(
                        f"workers {self.name} returned a result for a task it was not given"
                    )
                position = owner[indices[0]]
                if position in seen:
                    raise ExecutorError(
                        f"workers {self.name} returned the result of task {indices[0]} twice"
                    )
                seen.add(position)
                yield position, answer
        except ExecutorError:
            raise
        except Exception as exc:
            if _is_broken(exc):
                raise self.broken(exc) from None
            raise
        if len(seen) < len(owner):
            raise ExecutorError(
                f"workers {self.name} returned no result for {len(owner) - len(seen)} of the "
                f"{len(owner)} units it was given: it dropped some"
            )


def engine(workers: Any) -> _Engine:
    """The engine behind `workers`: a Dask Client, an executor or a pool, passed
    itself or as its bound ``map``, or any other map-like callable."""
    name = _describe(workers)
    owner = getattr(workers, "__self__", None)
    target = owner if owner is not None and getattr(workers, "__name__", "") == "map" else workers
    if target is not workers or is_engine(target):
        kind = type(target)
        if kind.__name__ == "Client" and kind.__module__.split(".")[0] == "distributed":
            return _Dask(target, name)
        # concurrent.futures is imported here only if the caller made an executor
        futures = sys.modules.get("concurrent.futures")
        if (futures is not None and isinstance(target, futures.Executor)) or callable(
            getattr(target, "submit", None)
        ):
            return _Futures(target, name)
        if callable(getattr(target, "imap_unordered", None)):
            return _Pool(target, name)
    if not callable(workers):
        raise TypeError(
            f"workers must be a number of threads, a map-like callable, an executor or a Dask "
            f"Client, not {type(workers).__name__}"
        )
    return _Map(workers, name)


# -- the plan: units, calls and checks -------------------------------------------------


def work_of(task: Task) -> int:
    """A task's work in the units the cut balances: row sets (a quadrant task), or 1."""
    return task.end - task.first if isinstance(task, QuadrantTask) else 1


def unit_count(seconds: float | None, size: int | None, cost: float) -> int:
    """How many units count() cuts `seconds` of work (one core here; None: not
    measured) into for `size` workers (None: the engine does not say), each unit
    costing the engine `cost` seconds: about sqrt(seconds * size / (2 * cost)), the
    number that balances the engine's cost of the units against a worker's idle
    time at the end (half a unit), in whole rounds of `size`, a few at least."""
    workers = size or ASSUMED_WORKERS
    if seconds is None:
        found = UNITS_PER_WORKER * workers
    else:
        balanced = math.ceil(math.sqrt(seconds * workers / (2 * cost)))
        found = max(UNITS_PER_WORKER * workers, balanced)
    return -(-found // workers) * workers


def cut_units(tasks: Sequence[Task], pending: Sequence[int], count: int) -> list[tuple[int, ...]]:
    """The pending tasks' indices cut into `count` units (fewer where there are fewer
    runs) of similar work, each made of whole runs of tasks that share a table.

    The work of a task varies along the split by a factor of hundreds, so a unit
    is not one stretch of it: the runs are dealt to the units one at a time, back
    and forth (the first unit takes the first run and the 2*count-th), so that
    every unit holds a like sample of the whole.  (Dealt so, four units of n = 18
    took 0.39 to 0.41 s each, where sixteen stretches of the split took 0.001 to
    0.21 s each, and units of 32 such stretches 0.40 to 0.48 s; dealt task by task
    the whole took 7% less time than in stretches.  Quadrant tasks are dealt in
    runs of up to QUADRANT_RUN (32) neighbours, which keep the core's work from
    task to task: units dealt task by task took 9% more work at n = 18 than the
    same tasks in their order, and two processes counted 0.90x as fast as two
    threads where runs of eight counted 0.99x.)

    Where the split holds several jobs (odd n: the crosses, one or several a
    job), a worker's core keeps the north placements of one job, the last: a
    unit that takes one run of each job places them all again.  There the runs,
    in their order, are cut into `count` stretches of about as many runs, a unit
    each (``_blocks``): a stretch may end one job and start the next, so the
    units meet at most count + jobs - 1 jobs in all.  (n = 19 has 37 jobs of 9
    runs: 36 units dealt run by run met a new job 332 times, and took 1.04x the
    processor time of the runs in their order; in blocks of whole jobs' runs, 38
    times and 1.00x; a 2-process Dask LocalCluster counted at 0.88x the speed of
    two threads, and at 0.93x with blocks.  Blocks of whole jobs left one unit
    two jobs' runs where the jobs were a few more than the units, and n = 17's
    jobs of grouped crosses, one of twice the others' runs, 2x the runs of
    others; stretches across jobs meet up to twice as many jobs and take as
    many runs each, to one.)"""
    starts = runs([tasks[i] for i in pending])
    bounds = [*starts[1:], len(pending)]
    count = max(1, min(count, len(starts)))
    members: list[list[int]] = [[] for _ in range(count)]
    for k, (a, b) in enumerate(_blocks(tasks, pending, starts, bounds, count)):
        lap, place = divmod(k, count)
        members[place if lap % 2 == 0 else count - 1 - place].extend(pending[a:b])
    return [tuple(unit) for unit in members]


def _blocks(
    tasks: Sequence[Task],
    pending: Sequence[int],
    starts: Sequence[int],
    bounds: Sequence[int],
    count: int,
) -> list[tuple[int, int]]:
    """The stretches of `pending` (positions) cut_units deals: its runs, or, where the
    quadrant tasks' runs belong to several jobs, `count` stretches of about as many
    runs, in their order."""
    jobs: list[list[int]] = []  # the runs (their numbers), job by job
    last = None
    for k, a in enumerate(starts):
        task = tasks[pending[a]]
        key = (task.n, task.cross) if isinstance(task, QuadrantTask) else k
        if jobs and key == last:
            jobs[-1].append(k)
        else:
            jobs.append([k])
        last = key
    if len(jobs) <= 1 or len(jobs) == len(starts):  # one job, or every run its own
        return list(zip(starts, bounds))
    edges = [round(p * len(starts) / count) for p in range(count + 1)]
    return [(starts[a], bounds[b - 1]) for a, b in zip(edges, edges[1:])]


def _calls(count: int, calls: int) -> list[list[int]]:
    # positions 0..count-1 in `calls` runs of about as many
    calls = max(1, min(calls, count))
    edges = [round(k * count / calls) for k in range(calls + 1)]
    return [list(range(a, b)) for a, b in zip(edges, edges[1:]) if b > a]


class Plan(NamedTuple):
    payloads: list[Unit]
    again: list[bool]  # a payload of second counts
    calls: list[list[int]]  # payload positions, call by call


def plan(
    tasks: Sequence[Task],
    cut: Sequence[tuple[int, ...]],
    twice: set[int],
    calls: int,
    rng: random.Random,
    first: int = 0,
) -> Plan:
    """The payloads: the units of `cut` in `calls` calls (the first `first` units in
    a call of their own before them), and the tasks in `twice` again, in units of
    their own (about as big) in the call after their own."""
    payloads = [Unit(u, tuple(tasks[i] for i in u)) for u in cut]
    again = [False] * len(payloads)
    grouped = [list(range(first))] if first else []
    if len(cut) > first:
        grouped += [[p + first for p in call] for call in _calls(len(cut) - first, calls)]
    target = max(1, max((len(u) for u in cut), default=1))
    later: list[list[int]] = [[] for _ in range(len(grouped) + 1)]
    for k, call in enumerate(grouped):
        chosen = sorted(i for p in call for i in cut[p] if i in twice)
        rng.shuffle(chosen)
        for a in range(0, len(chosen), target):
            piece = tuple(sorted(chosen[a : a + target]))
            later[k + 1].append(len(payloads))
            payloads.append(Unit(piece, tuple(tasks[i] for i in piece)))
            again.append(True)
    merged = [call + later[k] for k, call in enumerate(grouped)]
    if later[-1]:
        merged.append(later[-1])
    return Plan(payloads, again, merged)


def choose_twice(
    pending: Sequence[int], here: Iterable[int], verify: float, local: bool, rng: random.Random
) -> set[int]:
    """The tasks counted a second time through the workers: with those counted `here`,
    a share `verify` of the pending tasks, at random, MIN_CHECKS at least, and
    MIN_CHECKS - LOCAL_CHECKS of them through the workers at least (`local`: the
    gate counts one more here; every check goes through the workers without)."""
    if verify <= 0:
        return set()
    counted = set(here)
    wanted = max(round(verify * len(pending)), min(MIN_CHECKS, len(pending)))
    rest = [i for i in pending if i not in counted]
    remote = max(wanted - len(counted), MIN_CHECKS - LOCAL_CHECKS) if local else wanted
    return set(rng.sample(rest, min(len(rest), remote)))


class _Layout:
    """The plan of one call of results(), made as the engine takes its calls.

    Where the pace is to be measured and the engine says how many workers it has,
    a first round (a unit a worker, cut as for the fewest units) goes out before
    anything else: this process's table and the pace then cost the workers no
    waiting.  The rest of the tasks, a like sample of the split, is cut by the
    pace, its last round in units of half the size.  The plan is whole once
    calls() has given its second call (its first without a first round); every
    engine with a size takes all its calls before it hands on a result, and the
    others (a map-like) get no first round.  A forked pool (its units through
    shared memory, next to free) gets neither a first round nor a pace: each run
    of tasks is a unit, and its tasks checked here are counted once it has forked
    (count_here)."""

    def __init__(
        self,
        flow: _Engine,
        tasks: Sequence[Task],
        pending: list[int],
        verify: float,
        local: Callable[[Unit], list[int]] | None,
        ready: Callable[[], bool] | None,
        rng: random.Random,
        units: int | None,
    ) -> None:
        self.flow, self.tasks, self.pending, self.verify = flow, tasks, pending, verify
        self.local, self.ready, self.rng, self.units = local, ready, rng, units
        self.payloads: list[Unit] = []  # grows as calls() plans
        self.here: dict[int, int] = {}  # tasks counted here, with their counts
        self.twice: set[int] = set()  # tasks counted twice through the workers
        self.deferred: list[int] = []  # tasks to count here once a forked pool runs
        self.laid: Plan | None = None

    def calls(self) -> Iterator[list[int]]:
        tasks, pending, size = self.tasks, self.pending, self.flow.size
        first: list[tuple[int, ...]] = []
        shared = self.flow.shared
        if self.units is None and size and self.local is not None and not shared:
            fewest = cut_units(tasks, pending, unit_count(None, size, self.flow.cost))
            first = fewest[:size]
            self.payloads.extend(Unit(u, tuple(tasks[i] for i in u)) for u in first)
            yield list(range(len(first)))
        seconds = None
        if shared:
            # planned while this process's table builds: the tasks checked here are
            # counted once the pool has forked (count_here), and the checks through
            # the workers are as many as if none were (there may be no table here);
            # with nothing to check, no table here either
            if self.verify <= 0:
                self.local = None
            wanted = LOCAL_CHECKS - 1 if self.local is not None else 0
            self.deferred = self.rng.sample(pending, min(len(pending), wanted))
        else:
            self._check_table()
            seconds = self._pace()
        units = self.units
        if units is None:
            # through shared memory, each run of tasks a unit, taken as threads take them
            units = len(pending) if shared else unit_count(seconds, size, self.flow.cost)
        taken = {i for unit in first for i in unit}
        rest = [i for i in pending if i not in taken]
        cut = first + (cut_units(tasks, rest, max(1, units - len(first))) if rest else [])
        if self.units is None and size and len(cut) >= 3 * size and not shared:
            # the last round in halves: the workers end closer together
            cut[-size:] = [half for unit in cut[-size:] for half in cut_units(tasks, unit, 2)]
        if shared:
            self.twice = choose_twice(pending, self.deferred, self.verify, False, self.rng)
        else:
            here = self.here
            self.twice = choose_twice(pending, here, self.verify, self.local is not None, self.rng)
        calls = max(1, min(BATCHES, len(cut) // PER_CALL))
        laid = plan(tasks, cut, self.twice, calls, self.rng, len(first))
        self.payloads[len(first) :] = laid.payloads[len(first) :]
        self.laid = laid
        yield from laid.calls[1:] if first else laid.calls

    def count_here(self) -> None:
        """For a pool forked at its first submit, once it has forked: the tasks
        chosen to be checked here, counted here (unless this process has no table)."""
        self._check_table()
        local = self.local
        if local is not None:
            for index in self.deferred:
                self.here[index] = local(Unit((index,), (self.tasks[index],)))[0]
        self.deferred = []

    def _check_table(self) -> None:
        if self.local is not None and self.ready is not None and not self.ready():
            self.local = None  # no table here: every check goes through the workers

    def _pace(self) -> float | None:
        """The seconds of work of the pending tasks on one core here, from a few
        random tasks counted here (checks too, unless verify is 0); None: not
        measured."""
        local, tasks, pending = self.local, self.tasks, self.pending
        spent = 0.0
        measured = 0
        if local is not None and (self.verify > 0 or self.units is None):
            wanted_here = PACE_TASKS if self.units is None else LOCAL_CHECKS - 1
            started = time.perf_counter()
            for index in self.rng.sample(pending, min(len(pending), wanted_here)):
                begun = _cpu()
                self.here[index] = local(Unit((index,), (tasks[index],)))[0]
                spent += _cpu() - begun
                measured += work_of(tasks[index])
                if time.perf_counter() - started > PACE_SECONDS:
                    break
        if self.verify <= 0:
            self.here.clear()
        if not measured:
            return None
        if isinstance(tasks[pending[0]], QuadrantTask):  # (work_of's, 4,420 at n = 18)
            quads = cast("Sequence[QuadrantTask]", tasks)
            return spent / measured * sum(quads[i][3] - quads[i][2] for i in pending)
        return spent / measured * sum(work_of(tasks[i]) for i in pending)


_cpu_clock: list[Callable[[], float]] = []


def _cpu() -> float:
    """This thread's processor time, where the clock is fine enough for tasks of a
    millisecond (the pace is measured while the first units count, on the same
    cores: wall time would count their share too); else the wall clock."""
    if not _cpu_clock:
        fine = time.get_clock_info("thread_time").resolution <= 1e-6
        _cpu_clock.append(time.thread_time if fine else time.perf_counter)
    return _cpu_clock[0]()


def results(
    pool: Any,
    tasks: Sequence[Task],
    pending: list[int],
    verify: float,
    local: Callable[[Unit], list[int]] | None,
    rng: random.Random,
    units: int | None = None,
    ready: Callable[[], bool] | None = None,
    forked: Callable[[], Any] | None = None,
) -> Iterator[Finished]:
    """Every pending task's count, counted by `pool`, as results arrive: checked,
    and verified as the module says (`local` counts a unit in this process, once
    `ready` has made that possible (False: it cannot); None sends every check
    through the workers).  `forked`, for a pool that forks at its first submit:
    what gives this process's quadrant table (None: none) once the units are
    planned, just before the fork; the processes then take the units through
    shared memory (_Forked)."""
    flow = engine(pool)
    layout = _Layout(flow, tasks, pending, verify, local, ready, rng, units)
    if forked is not None and isinstance(flow, _Futures):
        layout.flow = flow = _Forked(flow.executor, flow.name, forked, layout.count_here)
    elif _Shared.serves(flow, tasks):
        layout.flow = flow = _Shared.of(flow, layout)
    name = flow.name
    if not pending:
        return
    answers = flow.stream(layout.calls(), layout.payloads)
    gate: bool | None = None  # closed until a check with a solution agrees (set at the first)
    tries = 0
    waiting: list[Finished] = []
    held: dict[int, Finished] = {}  # first counts of tasks counted twice, waiting
    seconds_first: dict[int, int] = {}  # second counts that came before the first
    answered: set[int] = set()

    def compare(first: Finished, value: int, where: str) -> Finished:
        if first.value != value:
            raise ExecutorError(
                f"workers {name} counted task {first.task} ({short_repr(tasks[first.task])}) as "
                f"{first.value:,}, and {where} as {value:,}: a worker gives wrong counts"
            )
        return first._replace(verified=True)

    for position, answer in answers:
        laid, here, twice, local = layout.laid, layout.here, layout.twice, layout.local
        if laid is None:  # cannot happen: every engine takes its calls first
            raise AssertionError("a result came before the plan was whole")
        if gate is None:
            gate = verify > 0 and local is not None
        if position in answered:
            raise ExecutorError(f"workers {name} returned the result of a unit twice")
        unit = laid.payloads[position]
        version, core, counts = _match(name, tasks, unit, answer)
        answered.add(position)
        if laid.again[position]:
            for index, value in zip(unit.indices, counts):
                if index in held:
                    first = compare(held.pop(index), value, "counted again")
                    if gate:
                        waiting.append(first)
                    else:
                        yield first
                else:
                    seconds_first[index] = value
            continue
        firsts = [Finished(i, v, core, False, version) for i, v in zip(unit.indices, counts)]
        if gate:
            solved = [f for f in firsts if f.value]
            known = [f for f in solved if f.task in here]
            if known:
                gate = False  # compared below, before anything is handed on
            else:
                probe = rng.choice(solved or firsts)
                value = local(Unit((probe.task,), (tasks[probe.task],)))[0]  # type: ignore[misc]
                here[probe.task] = value
                tries += 1
                gate = not (value or tries >= GATE_TRIES)
                compare(probe, value, "this process")
        kept: list[Finished] = []
        for first in firsts:
            index = first.task
            if index in here:
                first = compare(first, here[index], "this process")
            if index in twice:
                if index not in seconds_first:
                    held[index] = first  # until its second count comes
                    continue
                first = compare(first, seconds_first.pop(index), "counted again")
            kept.append(first)
        if gate:
            waiting.extend(kept)
            continue
        if waiting:
            yield from waiting
            waiting.clear()
        yield from kept
    if layout.laid is None or len(answered) < len(layout.payloads) or held or seconds_first:
        raise ExecutorError(f"workers {name} left some units without a result")
    yield from waiting  # the gate's every check agreed, none with a solution


def _parse(name: str, answer: Any) -> tuple[Any, ...]:
    """A result's fields, refused unless it has the shape of count_unit's and comes
    from this release."""
    if not (isinstance(answer, tuple) and len(answer) == len(UnitResult._fields)):
        raise ExecutorError(
            f"workers {name} returned {short_repr(answer)}, which is not a result of the function "
            "it was given (call it on every item, as map(func, items) does; a worker of "
            "an older nqueens gives results without their origin)"
        )
    version, core, counted, indices, counts = answer
    if type(version) is not str or version != _version.__version__:
        raise _other_release(name, version)
    if not (
        isinstance(indices, tuple)
        and isinstance(counts, tuple)
        and isinstance(counted, tuple)
        and type(core) is str
        and len(indices) == len(counts) == len(counted)
        and all(type(i) is int for i in indices)
    ):
        raise ExecutorError(f"workers {name} returned a malformed result: {short_repr(answer)}")
    return version, core, counted, indices, counts


def _other_release(name: str, version: Any) -> ExecutorError:
    return ExecutorError(
        f"workers {name} returned a result counted by nqueens {short_repr(version)}, not "
        f"{_version.__version__} as here: run one release on every worker"
    )


def _match(
    name: str, tasks: Sequence[Task], unit: Unit, answer: Any
) -> tuple[str, str, tuple[int, ...]]:
    """(version, core, counts) of the answer to `unit`, refused if it is malformed, of
    another release, for other tasks than the unit's, or not a possible count."""
    version, core, counted, indices, counts = _parse(name, answer)
    try:  # the echoes are the workers' objects: their comparison may raise
        other = indices != unit.indices or bool(counted != unit.tasks)
    except Exception:
        other = True
    if other:
        raise ExecutorError(
            f"workers {name} returned a result for other tasks than those it was given "
            f"(tasks {short_repr(indices)}: {short_repr(counted)})"
        )
    for index, value in zip(indices, counts):
        task = tasks[index]
        if type(value) is not int or not 0 <= value <= task_bound(task) or value % task.weight:
            raise ExecutorError(
                f"workers {name} returned {short_repr(value)} for task {index}, which cannot be "
                "its count"
            )
    return version, core, counts


def _describe(pool: Any) -> str:
    return short_repr(getattr(pool, "__qualname__", None) or pool)
