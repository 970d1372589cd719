"""The ledger: memory a process pool shares with this process, from which its processes
take units one after another, as threads do, and log what they counted.

A process pool that forks its processes at its first submit (``forks_at_submit``: a
``ProcessPoolExecutor`` on the "fork" start method) is handed this process's quadrant
table: count() builds it before that submit, and the forked processes count with it
rather than each building its own.  Nor does such a pool pass units through its queues:
it gets one call a process (``count_forked``), and each takes the units, a run of
neighbouring subproblems each, from the ledger shared at the fork; this process reads
their counts there as they are logged (``Forked``).  Any other ``ProcessPoolExecutor``
(on "forkserver", Python 3.14's default on Linux, on "spawn", or one that forked
before) gets one call a process too, where the system has file locks (``Shared``): the
units go with the call, the ledger is a file in memory (flock), and each process
builds its own table and keeps it for the next count of the same n.
"""

from __future__ import annotations

import array
import contextlib
import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from ... import _select, _version
from ..._validate import short_repr
from ..assembly import QuadrantTask
from ..subproblems import count_run
from .engines import Engine, Futures, Pool, is_broken
from .messages import ExecutorError, Unit, UnitResult, other_release, result_of

if TYPE_CHECKING:
    from ..subproblems import AnySubproblem
    from .plan import Layout


class LedgerPool(Futures):
    """A process pool whose processes take the units from a ledger (Ledger) in memory
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
            raise other_release(self.name, answer[0])
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
            if is_broken(exc):
                raise self.broken(exc) from None
            raise

    def _follow(
        self,
        log: Ledger,
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
                if isinstance(self.executor, Submitting):  # a pool that says nothing of it
                    died = log.died()
                    if died is not None:
                        raise self.broken(ChildProcessError(f"process {died} died mid-count"))
                if ended and seen < len(order):
                    break  # every call ended without them: results() refuses that
        except Exception as exc:
            if is_broken(exc):
                raise self.broken(exc) from None
            raise


class Forked(LedgerPool):
    """A process pool that forks its processes at its first submit, counting with
    this process's quadrant table: the units and the ledger inherited at the fork
    (ForkedLedger)."""

    def __init__(
        self, executor: Any, name: str, table: Callable[[], Any], started: Callable[[], None]
    ) -> None:
        super().__init__(executor, name, started)
        self.table = table

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        order = [position for call in calls for position in call]  # planned first
        ledger = ForkedLedger(self.executor._mp_context, payloads, order, self.table(), self.calls)
        key = next(_ledger_keys)
        _ledgers[key] = ledger  # the processes fork with it, at the first submit
        try:
            made = self._submit(count_forked, key)
            # (the semaphore is released as the last unit is logged)
            yield from self._follow(ledger.log, made, order, ledger.answer, ledger.ended.acquire)
        finally:
            ledger.log.stop[0] = 1  # the processes still counting stop within moments
            del _ledgers[key]


class Shared(LedgerPool):
    """Any other process pool of the standard library on a system with file locks
    (a "forkserver" or "spawn" ProcessPoolExecutor, one that forked before, or a
    multiprocessing.Pool, through Submitting): each process builds its own table
    (and keeps it for a later count of the same n), and the ledger is a file in
    memory (/dev/shm where there is one), locked with flock; each call gets the
    units with its arguments, pickled once a call.  The file is unlinked once
    every call has opened it (or as the count ends)."""

    @staticmethod
    def serves(engine: Engine, subproblems: Sequence[AnySubproblem]) -> bool:
        if not (subproblems and isinstance(subproblems[0], QuadrantTask) and has_flock()):
            return False
        if type(engine) is Futures:
            futures = sys.modules.get("concurrent.futures")
            return futures is not None and isinstance(engine.executor, futures.ProcessPoolExecutor)
        # multiprocessing's process pool (not its ThreadPool, nor Ray's Pool, whose
        # processes may be on other machines, where a file here is not shared)
        pools = sys.modules.get("multiprocessing.pool")
        return (
            type(engine) is Pool
            and pools is not None
            and isinstance(engine.pool, pools.Pool)
            and not isinstance(engine.pool, pools.ThreadPool)
        )

    @classmethod
    def of(cls, engine: Engine, layout: Layout) -> Shared:
        """The ledger for the pool behind `engine` (that serves() takes)."""
        if isinstance(engine, Futures):
            return cls(engine.executor, engine.name, layout.count_here)
        assert isinstance(engine, Pool)
        shared = cls(Submitting(engine.pool), engine.name, layout.count_here)
        shared.size = engine.size
        return shared

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        import concurrent.futures
        import mmap

        order = [position for call in calls for position in call]  # planned first
        units = [payloads[position] for position in order]
        sizes = [len(unit.indices) for unit in units]
        made_file = ledger_file(Ledger.size(sizes, self.calls))
        if made_file is None:  # no room for it: the units go through the queues
            yield from Futures.stream(self, [order], payloads)
            return
        handle, path = made_file
        unlinked: list[bool] = []
        made: list[Any] = []
        try:
            with mmap.mmap(handle, 0) as memory:
                log = Ledger(memory, sizes, _FileLock(handle), self.calls)
                origin = (_version.__version__, _select.IMPLEMENTATION)

                def wait(timeout: float) -> None:
                    running = [future for future in made if not future.done()]
                    concurrent.futures.wait(running, timeout, "FIRST_COMPLETED")
                    if not unlinked and log.begun() == len(made):
                        os.unlink(path)  # every call has it open
                        unlinked.append(True)

                try:
                    made.extend(self._submit(count_shared, path, units, origin, os.getpid()))
                    answer = lambda item: result_of(units[item], log.counts(item), origin)  # noqa: E731
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


class Submitting:
    """A multiprocessing.Pool as an executor, for Shared: submit() is apply_async,
    whose result the pool's own thread sets on a concurrent.futures Future.  Such a
    pool never says that a process died (it starts another, and the call is lost):
    LedgerPool._follow watches the ledger's processes instead (Ledger.died)."""

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


def ledger_file(size: int) -> tuple[int, str] | None:
    """A new file of `size` bytes in memory (/dev/shm where there is one), open, and
    its path; its blocks are taken now where the system can (a page of a file in
    memory first written when there is no room left for it would kill the process
    that writes it).  None where there is no room for it."""
    import tempfile

    folder = "/dev/shm" if os.access("/dev/shm", os.W_OK | os.X_OK) else None
    try:
        handle, path = tempfile.mkstemp(prefix="nqueens-", suffix=".ledger", dir=folder)
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


def has_flock() -> bool:
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
    """The function a pool's processes run for Shared, once each: its release and
    core, and how many units of the ledger at `path` it counted (none, if its
    release or core is not `origin`, or the ledger is gone); it stops if the process
    `client` (the count's) is gone, and removes the ledger then (a client killed
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
            log = Ledger(memory, [len(unit.indices) for unit in units], _FileLock(handle))
            try:
                counted = log.take(
                    lambda item: units[item].subproblems,
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


_POLL = 0.05  # how often a pool's finished units are read from its ledger, at most (seconds)
_SETTLE = 1.0  # how long a count waits, at most, for a ledger's calls to return at its end
_ledgers: dict[int, ForkedLedger] = {}  # each count's ledger, for its forked processes
_ledger_keys = itertools.count()


class Ledger:
    """What the processes of a pool with a ledger (Forked, Shared) share with this
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
        """The bytes of the memory for units of these sizes (subproblems each), and `calls`
        calls."""
        return 8 * (cls.HEAD + calls + len(sizes) + sum(sizes))

    def take(
        self,
        subproblems_of: Callable[[int], Sequence[AnySubproblem]],
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
            return self._take(subproblems_of, quarter, alive, last)
        finally:
            if call < self.calls:
                with lock:
                    words[self.HEAD + call] = 0  # ended: not a process that died counting

    def _take(
        self,
        subproblems_of: Callable[[int], Sequence[AnySubproblem]],
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
            counts = count_run(subproblems_of(item), cast("bytearray", stop), quarter)
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


class ForkedLedger:
    """A forked pool's ledger: the units (in the order they are taken, inherited at
    the fork), the table, and the Ledger in anonymous shared memory, with the
    context's lock, and a semaphore released as the last unit is logged."""

    def __init__(
        self, context: Any, payloads: Sequence[Unit], order: list[int], quarter: Any, calls: int
    ) -> None:
        import mmap

        self.payloads, self.order, self.quarter = payloads, order, quarter
        sizes = [len(payloads[position].indices) for position in order]
        self.memory = mmap.mmap(-1, Ledger.size(sizes, calls))  # shared, zeroed
        self.log = Ledger(self.memory, sizes, context.Lock(), calls)
        self.ended = context.Semaphore(0)
        self.parent = os.getpid()
        self.origin = (_version.__version__, _select.IMPLEMENTATION)

    def work(self) -> int:
        """In a forked process: count units from the ledger (Ledger.take)."""
        if (_version.__version__, _select.IMPLEMENTATION) != self.origin:
            return 0  # (count_forked says which)
        payloads, order, parent = self.payloads, self.order, self.parent
        return self.log.take(
            lambda item: payloads[order[item]].subproblems,
            self.quarter,
            lambda: os.getppid() == parent,
            self.ended.release,
        )

    def answer(self, item: int) -> UnitResult:
        """A logged unit's counts, as count_unit would have answered them."""
        return result_of(self.payloads[self.order[item]], self.log.counts(item), self.origin)


def count_forked(key: int) -> tuple[str, str, int]:
    """The function a forked pool's processes run, once each: its release and core,
    and how many units of the count's ledger it counted (none, if it was not forked
    with it, or its release or core is not the ledger's)."""
    ledger = _ledgers.pop(key, None)  # this process's copy: dropped once counted
    counted = ledger.work() if ledger is not None else 0
    return _version.__version__, _select.IMPLEMENTATION, counted
