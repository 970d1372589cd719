"""Every kind of workers: threads, executors, pools, Dask; the ledger a process pool
shares; workers that die, clients killed mid-count."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.pool import Pool, ThreadPool

import pytest

import nqueens
from nqueens._engine.subproblems import QUADRANT_RUN
from nqueens._oeis import A000170, A002562

# every kind of workers


def test_plain_map_and_a_thread_pool():
    assert nqueens.count(13, workers=map) == A000170[13]
    with ThreadPoolExecutor(3) as pool:
        assert nqueens.count(13, workers=pool.map, unique=True) == A002562[13]


def test_process_pool_executor():
    with ProcessPoolExecutor(2) as pool:
        assert nqueens.count(14, workers=pool.map) == A000170[14]
        assert nqueens.count(12, workers=pool.map, unique=True) == A002562[12]
        assert nqueens.count(14, workers=pool, depth=1) == A000170[14]  # the executor itself


_FORKED_BESIDE: list[list[str]] = []  # our threads (and tqdm's) at each fork, while a test listens
_LISTENING = threading.Event()


def _before_fork():
    if _LISTENING.is_set():
        _FORKED_BESIDE.append(
            [
                t.name
                for t in threading.enumerate()
                if t.name.startswith("nqueens") or type(t).__name__ == "TMonitor"  # tqdm's
            ]
        )


os.register_at_fork(before=_before_fork)


@contextlib.contextmanager
def _forking_pool_listened():
    # a pool that forks, whose forks record our threads alive beside them
    _FORKED_BESIDE.clear()
    _LISTENING.set()
    try:
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
            yield pool
    finally:
        _LISTENING.clear()


@pytest.mark.parametrize("progress", [False, True])
def test_no_thread_of_ours_runs_when_a_process_pool_forks(monkeypatch, progress):
    # a fork beside a running thread may deadlock the child (Python 3.12 warns of
    # it, a DeprecationWarning): the check of the total starts once the workers have
    # sent a result; slowed here so that it would still run at the first submit
    from nqueens import _select

    real = _select.bitsolver.count_symmetric

    def slow(n, **kwargs):
        time.sleep(0.3)
        return real(n, **kwargs)

    monkeypatch.setattr(_select.bitsolver, "count_symmetric", slow)
    with _forking_pool_listened() as pool:
        assert nqueens.count(14, workers=pool, progress=progress) == A000170[14]
    assert len(_FORKED_BESIDE) == 2 and _FORKED_BESIDE == [[], []], _FORKED_BESIDE


@pytest.mark.native  # quadrant subproblems: the compiled core's only
def test_the_check_of_the_total_still_running_at_the_fork_starts_again_after(monkeypatch):
    # for a pool that forks, the check of the total starts beside the table's build;
    # one still running at the fork is stopped (its partial counts dropped), and
    # searched again once the workers run: the classes come out exact
    from nqueens import _select

    real = _select.bitsolver.count_symmetric
    calls = []

    def stopped_first(n, **kwargs):
        calls.append(n)
        if len(calls) > 1:
            return real(n, **kwargs)
        stop = kwargs["stop"]
        deadline = time.monotonic() + 30
        while not stop[0] and time.monotonic() < deadline:
            time.sleep(0.001)
        assert stop[0]  # stopped before the fork
        return (0, 0)  # partial, as the core's are when stopped

    monkeypatch.setattr(_select.bitsolver, "count_symmetric", stopped_first)
    with _forking_pool_listened() as pool:
        assert nqueens.count(16, workers=pool, unique=True) == A002562[16]
    assert calls == [16, 16]
    assert _FORKED_BESIDE == [[], []], _FORKED_BESIDE


@pytest.mark.native  # quadrant subproblems: the compiled core's only
def test_a_count_stopped_while_the_table_builds_leaves_no_thread(monkeypatch):
    # Ctrl-C during the split, while the table and the check of the total run on
    # helper threads: both are stopped and waited for, and the pool never forks
    from nqueens._engine import assembly as _assembly

    def interrupted(n, size):
        raise KeyboardInterrupt

    monkeypatch.setattr(_assembly, "split", interrupted)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        with pytest.raises(KeyboardInterrupt):
            nqueens.count(20, workers=pool)
        assert not pool._processes  # nothing was submitted
    assert [t.name for t in threading.enumerate() if t.name.startswith("nqueens")] == []


def _record_build(real, path):
    def build(n, *args, **kwargs):
        with open(path, "a") as f:
            f.write(f"{os.getpid()} {n}\n")
        return real(n, *args, **kwargs)

    return build


def _record_builds(monkeypatch, path):
    # every quadrant table built, by any path, in this process or one it forks
    from nqueens import _select

    monkeypatch.setattr(
        _select.quadrants, "Quarter", _record_build(_select.quadrants.Quarter, path)
    )


@pytest.mark.native  # quadrant subproblems: the compiled core's only
def test_a_forking_pool_counts_with_the_table_built_here(monkeypatch, tmp_path):
    # the table is built here before the pool forks: its processes count with it
    # (each built its own before, beside this one's, on the same cores)
    from nqueens._engine import assembly as _assembly

    builds = tmp_path / "builds"
    _record_builds(monkeypatch, builds)
    parent = [str(os.getpid()), "16"]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        assert nqueens.count(16, workers=pool.map) == A000170[16]
        assert builds.read_text().split() == parent
        assert _assembly._process_quarter is None  # not kept here after the count
        # the pool's processes keep theirs for the next count of the same n
        assert nqueens.count(16, workers=pool, recount=0.5) == A000170[16]
        assert builds.read_text().split() == parent * 2
    builds.unlink()
    with _forking_pool_listened() as pool:
        # nothing to check and the units given: the table is still built here, for
        # the fork, and nothing of ours runs beside the fork
        assert nqueens.count(16, workers=pool, recount=0, units=8) == A000170[16]
    assert builds.read_text().split() == parent
    assert _FORKED_BESIDE == [[], []], _FORKED_BESIDE
    builds.unlink()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        # a spawned process has nothing of this one's: each builds its own (not
        # recorded: the patch is this process's), this one builds its own for the checks
        assert nqueens.count(16, workers=pool) == A000170[16]
        assert builds.read_text().split() == parent
        builds.unlink()
        # nothing to check: none here
        assert nqueens.count(16, workers=pool, recount=0) == A000170[16]
        assert not builds.exists()


@pytest.mark.native  # quadrant subproblems: the compiled core's only
def test_a_forking_pool_without_a_table_here_is_checked_through_it(monkeypatch):
    # no memory here for the table (_here() warns and says False): asked once, before
    # the fork; the workers build their own and every check goes through them
    from nqueens._engine.counting import _Count

    asked = []

    def no_table(self):
        asked.append(self.n)
        return False

    monkeypatch.setattr(_Count, "_here", no_table)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        assert nqueens.count(16, workers=pool) == A000170[16]
    assert asked == [16]


class Recorded(ProcessPoolExecutor):
    """A pool of two processes on a start method, which records what it is asked to run."""

    def __init__(self, method, **kwargs):
        super().__init__(2, mp_context=multiprocessing.get_context(method), **kwargs)
        self.submitted = []

    def submit(self, fn, *args, **kwargs):
        self.submitted.append(fn.__name__)
        return super().submit(fn, *args, **kwargs)


@pytest.mark.native  # quadrant subproblems: the compiled core's only
@pytest.mark.parametrize("units", [None, 7])
def test_a_forking_pool_takes_its_units_from_shared_memory(units):
    # one call a process, which takes the units from memory shared at the fork; with
    # every subproblem checked twice (the second counts are units of the same ledger)
    with Recorded("fork") as pool:  # forks at its first submit
        assert nqueens.count(16, workers=pool, recount=1.0, units=units) == A000170[16]
        assert pool.submitted == ["count_forked", "count_forked"]
        # forked already: the next count's ledger is a file, one call a process again
        assert nqueens.count(15, workers=pool, units=4) == A000170[15]
        assert pool.submitted[2:] == ["count_shared", "count_shared"]


def _verified(path):
    """How many of a journal's rows were counted twice, and how many rows it has."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        rows = [verified for (verified,) in db.execute("SELECT verified FROM done")]
    return sum(rows), len(rows)


@pytest.mark.native  # quadrant subproblems: the compiled core's only
def test_a_pool_forked_for_the_count_counts_nothing_twice_unless_asked(tmp_path):
    # its processes are copies of this one, counting with its core and table, and
    # their counts come back through memory shared with it, as threads' do: by
    # default nothing is counted twice; recount= asks for it all the same
    fork = multiprocessing.get_context("fork")
    with Recorded("fork") as pool:
        assert nqueens.count(16, workers=pool, journal=tmp_path / "new.sqlite") == A000170[16]
        assert pool.submitted == ["count_forked", "count_forked"]
        twice, rows = _verified(tmp_path / "new.sqlite")
        assert twice == 0 and rows > 100
        # forked already, for another count: its results come through a file and are
        # checked, as those of any pool that did not fork for the count
        assert nqueens.count(16, workers=pool, journal=tmp_path / "kept.sqlite") == A000170[16]
        assert pool.submitted[2:] == ["count_shared", "count_shared"]
        twice, rows = _verified(tmp_path / "kept.sqlite")
        assert 4 <= twice < rows
    with ProcessPoolExecutor(2, mp_context=fork) as pool:
        assert (
            nqueens.count(16, workers=pool, journal=tmp_path / "asked.sqlite", recount=0.02)
            == A000170[16]
        )
        twice, rows = _verified(tmp_path / "asked.sqlite")
        assert 4 <= twice < rows
    with ThreadPoolExecutor(2) as threads:  # not a fork: checked by default
        assert nqueens.count(14, workers=threads, journal=tmp_path / "t.sqlite") == A000170[14]
        twice, rows = _verified(tmp_path / "t.sqlite")
        assert 4 <= twice < rows


@pytest.fixture
def ledgers(monkeypatch):
    """The ledger files this test's counts make (whatever other tests run beside it)."""
    from nqueens._engine.workers import ledger

    made = []

    def board_file(size):
        found = making(size)
        if found is not None:
            made.append(found[1])
        return found

    making = ledger.ledger_file
    monkeypatch.setattr(ledger, "ledger_file", board_file)
    return made


needs_flock = pytest.mark.skipif(sys.platform == "win32", reason="no file locks (flock)")


@pytest.mark.native  # quadrant subproblems: the compiled core's only
@needs_flock
@pytest.mark.parametrize(
    ("kind", "method"),
    [("executor", "forkserver"), ("executor", "spawn"), ("pool", "fork"), ("pool", "spawn")],
)
def test_a_pool_that_does_not_fork_here_takes_its_units_from_a_board_file(kind, method, ledgers):
    # one call a process, with the units (an executor's submit, a multiprocessing pool's
    # apply_async); each takes them from a file shared in memory, with every subproblem checked
    # twice (the second counts are units of the same ledger); rows still go unit by unit
    make, one_by_one = (
        (Recorded, "count_unit") if kind == "executor" else (RecordedPool, "count_numbered")
    )
    with make(method) as pool:
        assert nqueens.count(16, workers=pool, recount=1.0) == A000170[16]
        assert pool.submitted == ["count_shared", "count_shared"]
        assert nqueens.count(15, workers=pool.map, units=7, unique=True) == A002562[15]
        assert nqueens.count(13, workers=pool, depth=1) == A000170[13]  # rows: unit by unit
        assert pool.submitted[2:4] == ["count_shared", "count_shared"]
        assert set(pool.submitted[4:]) == {one_by_one}
    assert len(ledgers) == 2 and not any(map(os.path.exists, ledgers))  # unlinked


@pytest.mark.native  # quadrant subproblems: the compiled core's only
@needs_flock
@pytest.mark.parametrize("full", ["file", "room"])
def test_without_room_for_a_board_file_the_units_go_through_the_queues(monkeypatch, full):
    # a full /dev/shm: no file, or no room for its size (a page written later would
    # kill the process that writes it): the count goes unit by unit, exact
    import errno

    def no_room(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    made = []  # the files made before the lack of room showed

    def mkstemp(*args, **kwargs):
        found = making(*args, **kwargs)
        made.append(found[1])
        return found

    making = tempfile.mkstemp
    monkeypatch.setattr(tempfile, "mkstemp", no_room if full == "file" else mkstemp)
    if full == "room":
        monkeypatch.setattr(os, "ftruncate", no_room)
    with Recorded("forkserver") as pool:
        assert nqueens.count(15, workers=pool) == A000170[15]
    assert set(pool.submitted) == {"count_unit"}
    assert len(made) == (full == "room") and not any(map(os.path.exists, made))


class RecordedPool(Pool):
    """A multiprocessing pool of two processes on a start method, which records what it
    is asked to run."""

    def __init__(self, method, **kwargs):
        super().__init__(2, context=multiprocessing.get_context(method), **kwargs)
        self.submitted = []

    def apply_async(self, func, args=(), kwds=None, callback=None, error_callback=None):
        self.submitted.append(func.__name__)
        return super().apply_async(func, args, kwds or {}, callback, error_callback)

    def imap_unordered(self, func, iterable, chunksize=1):
        self.submitted.append(func.__name__)
        return super().imap_unordered(func, iterable, chunksize)


def test_only_multiprocessings_process_pools_get_a_board_file():
    # its threads count here anyway, and Ray's Pool (imap_unordered too) may have its
    # processes on other machines, where a file here is not shared
    from nqueens._engine.workers.engines import Pool, engine_for
    from nqueens._engine.workers.ledger import Shared

    class Remote:
        def imap_unordered(self, func, items):
            return map(func, items)

    subproblems = nqueens.subproblems(16)
    with ThreadPool(2) as threads:
        assert type(engine_for(threads)) is Pool and not Shared.serves(
            engine_for(threads), subproblems
        )
    assert type(engine_for(Remote())) is Pool and not Shared.serves(
        engine_for(Remote()), subproblems
    )
    assert nqueens.count(12, workers=Remote(), recount=1.0) == A000170[12]


@pytest.mark.native  # quadrant subproblems: the compiled core's only
@needs_flock
def test_a_board_whose_client_is_gone_is_removed_by_its_worker():
    # a client killed before every call had opened the ledger cannot remove it: the
    # first process to find the client gone does, and counts nothing; none of a client
    # still there
    from nqueens._engine.workers import ledger
    from nqueens._engine.workers.messages import Unit

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    subproblems = nqueens.subproblems(16)
    units = [Unit((i,), (subproblems[i],)) for i in range(3)]
    origin = (nqueens.__version__, nqueens.IMPLEMENTATION)
    for client, counted, left in [(gone.pid, 0, False), (os.getpid(), 3, True)]:
        made = ledger.ledger_file(ledger.Ledger.size([1, 1, 1], 0))
        assert made is not None
        handle, path = made
        os.close(handle)
        try:
            assert ledger.count_shared(path, units, origin, client)[2] == counted
            assert os.path.exists(path) == left
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)


def _lie_here():
    from nqueens._engine.workers import ledger

    ledger.count_run = _lying_run


def _fail_here():
    from nqueens._engine.workers import ledger

    ledger.count_run = _failing_run


@pytest.mark.native  # quadrant subproblems: the compiled core's only
@needs_flock
@pytest.mark.parametrize("kind", ["executor", "pool"])
def test_a_board_files_wrong_or_failing_counts_are_refused(tmp_path, kind, journal_rows):
    path = tmp_path / "count.sqlite"
    make, method = (Recorded, "forkserver") if kind == "executor" else (RecordedPool, "spawn")
    with (
        make(method, initializer=_lie_here) as pool,
        pytest.raises(nqueens.ExecutorError, match=r"this process|counted again"),
    ):
        nqueens.count(16, workers=pool, journal=path)
    assert pool.submitted == ["count_shared", "count_shared"]
    assert journal_rows(path) == 0  # nothing handed on before a check agreed
    with (
        make(method, initializer=_fail_here) as pool,
        pytest.raises(RuntimeError, match="a forked process failed"),
    ):
        nqueens.count(16, workers=pool)


@pytest.mark.native
@needs_flock
def test_a_board_files_calls_from_another_release_are_refused(monkeypatch):
    # a process of another release counts nothing and says which it is

    monkeypatch.setattr(nqueens._version, "__version__", "0.0.1")
    with (
        Recorded("forkserver") as pool,
        pytest.raises(nqueens.ExecutorError, match=r"release"),
    ):
        nqueens.count(16, workers=pool)


def _lying_run(subproblems, stop, quarter=None, per_thread=None):
    from nqueens._engine import subproblems as _subproblems

    return [2 * value for value in _subproblems.count_run(subproblems, stop, quarter, per_thread)]


def _failing_run(subproblems, stop, quarter=None, per_thread=None):
    raise RuntimeError("a forked process failed")


@pytest.mark.native  # quadrant subproblems: the compiled core's only
def test_a_forking_pools_wrong_or_failing_counts_are_refused(monkeypatch, tmp_path, journal_rows):
    from nqueens._engine.workers import ledger

    path = tmp_path / "count.sqlite"
    monkeypatch.setattr(ledger, "count_run", _lying_run)  # the forked processes' only
    with (
        ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool,
        pytest.raises(nqueens.ExecutorError, match=r"this process|counted again"),
    ):
        # (checked when asked: by default such a pool is trusted as threads are)
        nqueens.count(16, workers=pool, journal=path, recount=0.02)
    assert journal_rows(path) == 0  # nothing handed on before a check agreed
    monkeypatch.setattr(ledger, "count_run", _failing_run)
    with (
        ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool,
        pytest.raises(RuntimeError, match="a forked process failed"),
    ):
        nqueens.count(16, workers=pool)


@pytest.mark.native  # quadrant subproblems: the compiled core's only
@pytest.mark.parametrize("method", ["fork", pytest.param("forkserver", marks=needs_flock)])
def test_ctrl_c_stops_a_pools_processes_too(method):
    # Ctrl-C here (not in the pool's processes, as in a terminal): they stop at once,
    # and the pool shuts down in moments where count(20) takes about a minute
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    start = time.monotonic()
    try:
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(method)) as pool:
            interrupt = threading.Thread(target=_interrupt_once_working, args=(pool,))
            interrupt.start()
            try:
                with pytest.raises(KeyboardInterrupt):
                    nqueens.count(20, workers=pool)
            finally:
                interrupt.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 10  # about 1 s


def _interrupt_once_working(pool):
    # Ctrl-C half a second after the pool's first submit has started its manager
    # thread. Sent during that start (a fixed 1 s did so once the count reached the
    # pool sooner), it interrupts Thread.start() in CPython's submit, whose thread
    # shutdown() then cannot join ("cannot join thread before it is started"): the
    # pool's own race, not the count's.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        manager = pool._executor_manager_thread
        if manager is not None and manager.is_alive():
            break
        time.sleep(0.01)
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)


def test_forks_at_submit_only_for_a_pool_yet_to_fork():
    from nqueens._engine.workers.engines import forks_at_submit

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        assert forks_at_submit(pool)
        assert forks_at_submit(pool.map)  # its bound map: the same pool
        pool.submit(int).result()
        assert forks_at_submit(pool) is False  # forked already
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert forks_at_submit(pool) is False
    with ThreadPoolExecutor(1) as threads:
        assert forks_at_submit(threads) is False
    assert forks_at_submit(map) is False


def test_multiprocessing_pool():
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert nqueens.count(13, workers=pool.map) == A000170[13]
        assert nqueens.count(12, workers=pool.map, depth=1, recount=1.0) == A000170[12]
        # passed itself, as the docs say it may be (it was refused as "not an int")
        assert nqueens.count(14, workers=pool, recount=1.0) == A000170[14]


def test_each_engine_is_driven_by_its_own_submission():
    from nqueens._engine.workers.engines import Futures, Map, Pool, engine_for

    with ThreadPoolExecutor(3) as threads:
        assert type(engine_for(threads)) is type(engine_for(threads.map)) is Futures
        assert engine_for(threads).size == 3  # read from the pool: 16 units a worker or so
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert type(engine_for(pool.map)) is Pool and engine_for(pool.map).size == 2
        assert type(engine_for(pool)) is Pool and engine_for(pool).size == 2
    assert type(engine_for(map)) is type(engine_for(lambda f, xs: map(f, xs))) is Map
    with pytest.raises(TypeError, match="workers must be"):
        engine_for(object())


class Submitted(ThreadPoolExecutor):
    """A thread pool that counts the subproblems of the units submitted to it."""

    subproblems = 0

    def submit(self, fn, *args, **kwargs):
        self.subproblems += len(args[0].subproblems)
        return super().submit(fn, *args, **kwargs)


class Logged(ThreadPoolExecutor):
    """A thread pool that logs its units (their sizes) among count()'s steps."""

    def __init__(self, workers, log):
        super().__init__(workers)
        self.log = log

    def submit(self, fn, *args, **kwargs):
        self.log.append(("unit", len(args[0].subproblems)))
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def steps(monkeypatch):
    """A log of count()'s steps, where this process builds its table: ("table", 0)."""
    log = []
    real = nqueens._engine.counting._Count._here

    def here(self):
        log.append(("table", 0))
        return real(self)

    monkeypatch.setattr(nqueens._engine.counting._Count, "_here", here)
    return log


@pytest.mark.native
def test_the_first_round_counts_while_this_process_builds_its_table(steps):
    log = steps
    total = len(nqueens.subproblems(16))
    with Logged(2, log) as pool:
        assert nqueens.count(16, workers=pool) == A000170[16]
        # a unit a worker first, each an eighth of the split (the fewest units, 4 a
        # worker, in runs of up to QUADRANT_RUN subproblems), then the table and the pace
        assert [kind for kind, _ in log[:3]] == ["unit", "unit", "table"]
        assert all(abs(size - total / 8) <= QUADRANT_RUN for _, size in log[:2])
        assert sum(size for kind, size in log if kind == "unit") > total  # and the checks
        log.clear()
        # units asked for: no pace, so the table comes first (for the checks)
        assert nqueens.count(16, workers=pool, units=6) == A000170[16]
        assert log[0] == ("table", 0)
        assert [kind for kind, _ in log].count("table") == 1


class LoggedPool(ThreadPool):
    """A multiprocessing pool (of threads) that logs each call's units among count()'s steps."""

    def __init__(self, workers, log):
        super().__init__(workers)
        self.log = log

    def imap_unordered(self, func, iterable, chunksize=1):
        items = list(iterable)
        self.log.append(("call", len(items)))
        return super().imap_unordered(func, items, chunksize)


@pytest.mark.native
def test_a_pools_first_round_counts_while_this_process_builds_its_table(steps):
    log = steps
    with LoggedPool(2, log) as pool:
        assert nqueens.count(16, workers=pool.map) == A000170[16]
        # a unit a worker, handed on before the table and the pace; then the rest
        assert log[:2] == [("call", 2), ("table", 0)]
        assert len(log) > 2 and all(kind == "call" for kind, _ in log[2:])
        # every unit's answer is taken, whichever call it came in
        log.clear()
        assert nqueens.count(15, workers=pool.map, unique=True) == A002562[15]
        assert log[0] == ("call", 2)


@pytest.mark.native
def test_an_executor_gets_the_units_asked_for_and_each_task_once(tmp_path):
    from nqueens._engine.workers.plan import cut_units

    with Submitted(2) as pool:
        assert nqueens.count(16, workers=pool, recount=0, units=7) == A000170[16]
        assert pool.subproblems == len(nqueens.subproblems(16))
    cut = cut_units(nqueens.subproblems(16), list(range(len(nqueens.subproblems(16)))), 7)
    assert len(cut) == 7


@pytest.mark.native
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kill -9 is POSIX")
@pytest.mark.parametrize("method", [None, pytest.param("forkserver", marks=needs_flock)])
def test_a_process_pool_whose_worker_is_killed_says_so_and_resumes(tmp_path, method, journal_rows):
    # one worker kills itself (kill -9) 0.3 s after it starts, mid-count: on Linux's
    # default start method, forked here (before Python 3.14), or from a server
    path, victim = tmp_path / "count.sqlite", tmp_path / "victim"
    context = multiprocessing.get_context(method)
    with (
        ProcessPoolExecutor(
            2, mp_context=context, initializer=_kill_one_later, initargs=(str(victim), 0.3)
        ) as pool,
        pytest.raises(nqueens.BrokenWorkers, match=r"stopped: BrokenProcessPool.*resumes"),
    ):
        nqueens.count(18, workers=pool, journal=path, units=64)
    kept = journal_rows(path)
    total = len(nqueens.subproblems(18))
    assert kept < total
    with Submitted(2) as pool:  # the resume sends only what is left
        assert nqueens.count(18, workers=pool, journal=path, recount=0, units=8) == A000170[18]
        assert pool.subproblems == total - kept


@pytest.mark.native  # quadrant subproblems: the compiled core's only
@needs_flock
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kill -9 is POSIX")
def test_a_multiprocessing_pool_whose_worker_is_killed_says_so_and_resumes(tmp_path, journal_rows):
    # a multiprocessing.Pool puts a new process in the place of one killed, and its call
    # is lost without a word: count() finds the process gone from the ledger's calls
    path, victim = tmp_path / "count.sqlite", tmp_path / "victim"
    with (
        multiprocessing.get_context("spawn").Pool(
            2, initializer=_die_at_the_third_unit, initargs=(str(victim),)
        ) as pool,
        pytest.raises(
            nqueens.BrokenWorkers,
            match=r"stopped: ChildProcessError \(process \d+ died mid-count\).*resumes",
        ),
    ):
        nqueens.count(16, workers=pool, journal=path)
    kept = journal_rows(path)
    total = len(nqueens.subproblems(16))
    assert kept < total  # the unit it was counting, at least
    with Submitted(2) as pool:  # the resume sends only what is left
        assert nqueens.count(16, workers=pool, journal=path, recount=0, units=8) == A000170[16]
        assert pool.subproblems == total - kept


def _die_at_the_third_unit(victim):
    from nqueens._engine.workers import ledger

    try:
        os.close(os.open(victim, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return  # another process is the one
    counting = ledger.count_run
    units = []

    def count_run(subproblems, stop, quarter=None, per_thread=None):
        units.append(len(subproblems))
        if len(units) == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return counting(subproblems, stop, quarter, per_thread)

    ledger.count_run = count_run


def _kill_one_later(victim, seconds):
    try:
        os.close(os.open(victim, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return  # another worker is the one
    threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGKILL)).start()


CLIENT = """
import sys
from concurrent.futures import ProcessPoolExecutor
import nqueens
if __name__ == "__main__":
    with ProcessPoolExecutor(2) as pool:
        print(nqueens.count(18, workers=pool, journal=sys.argv[1], units=64), flush=True)
"""


@contextlib.contextmanager
def _client_killed_mid_count(journal_rows, script, path, *args):
    """A client running `script` (with the journal `path`, then `args`), killed (kill
    -9) once its journal has a row; its pool's processes, orphaned, are killed after
    the block, and its temporary files removed."""
    # its temporary files in a folder of their own: a client killed cannot remove its
    # multiprocessing folder (a "forkserver" pool's socket), left in /tmp each run
    # before (a short path: a socket's is at most 107 bytes)
    scratch = tempfile.mkdtemp(prefix="nqclient-")
    # in a session of its own: its pool's processes go with the session at the end
    child = subprocess.Popen(
        [sys.executable, str(script), str(path), *args],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "TMPDIR": scratch},
    )
    try:
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and child.poll() is None:
                try:
                    if path.exists() and journal_rows(path) > 0:
                        break
                except sqlite3.OperationalError:
                    pass  # being written
                time.sleep(0.01)
            child.kill()  # mid-count (the client alone: its processes live on)
        finally:
            child.wait()
        # a pool's process forked just before the kill holds the journal's lock until
        # its fork handler closes its copy, moments later on a busy machine: a resume
        # in those moments is refused as the journal is in use
        deadline = time.monotonic() + 10
        while not _lockable(path) and time.monotonic() < deadline:
            time.sleep(0.01)
        yield child.pid
    finally:
        _end_session(child.pid)
        shutil.rmtree(scratch, ignore_errors=True)


def _lockable(path):
    """Whether the journal's lock can be taken now (as count() takes it); True where
    it was never written or there is no flock()."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # (the lock, if taken, goes with it)
    return True


def _end_session(session):
    """Kill -9 what is left of a client's session but its resource tracker, which then
    removes what the client's pool left named (a "forkserver" pool's semaphores, in
    /dev/shm) and ends; killed with the rest, it left them there for good."""
    trackers = []
    for pid in _alive(session):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                tracker = b"resource_tracker" in f.read()
        except OSError:
            continue  # gone
        if tracker:
            trackers.append(pid)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and set(trackers) & _alive(session):
        time.sleep(0.01)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(session, signal.SIGKILL)


@pytest.mark.native
def test_a_client_killed_mid_count_resumes_with_nothing_counted_twice(tmp_path, journal_rows):
    path, script = tmp_path / "count.sqlite", tmp_path / "client.py"
    script.write_text(CLIENT)
    with _client_killed_mid_count(journal_rows, script, path):
        kept = journal_rows(path)
        total = len(nqueens.subproblems(18))
        assert 0 < kept < total, "the count ended before the kill: make it longer"
        with Submitted(2) as pool:
            assert nqueens.count(18, workers=pool, journal=path, recount=0, units=8) == A000170[18]
            assert pool.subproblems == total - kept


def _session_stats(session):
    """The fields of /proc/PID/stat past the name of the processes of a session, by
    pid (the first: its state, Z for a zombie)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone
            if int(fields[3]) == session:  # its session id
                found[int(entry)] = fields
    return found


def _alive(session):
    """The pids of a session's processes that have not ended (zombies have)."""
    return {pid for pid, fields in _session_stats(session).items() if fields[0] != "Z"}


def _session_cpu(session):
    """The processor time (clock ticks) of the processes of a session, by pid."""
    return {
        pid: int(fields[11]) + int(fields[12])  # utime + stime
        for pid, fields in _session_stats(session).items()
    }


BOARD_CLIENT = """
import multiprocessing, sys
from concurrent.futures import ProcessPoolExecutor
import nqueens
if __name__ == "__main__":
    context = multiprocessing.get_context(sys.argv[2])
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        print(nqueens.count(20, workers=pool, journal=sys.argv[1]), flush=True)
"""


@pytest.mark.native
@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_a_pools_processes_stop_when_their_client_is_killed(tmp_path, method, journal_rows):
    # the processes take units from the ledger until none is left: orphaned, they stop
    # instead (forked here, they are this process's children; from a server, the
    # server's, which outlived a client killed -9: they watch the client itself)
    path, script = tmp_path / "count.sqlite", tmp_path / "client.py"
    script.write_text(BOARD_CLIENT)
    with _client_killed_mid_count(
        journal_rows, script, path, method
    ) as session:  # a minute before the end
        time.sleep(1.0)  # a unit of n = 20 takes milliseconds
        before = _session_cpu(session)
        time.sleep(1.0)
        after = _session_cpu(session)
    # the two orphans, alive (and, from a server, the server and the resource tracker)
    assert len(before) == 2 if method == "fork" else len(before) >= 2, before
    spent = sum(after[pid] - before.get(pid, 0) for pid in after)
    assert spent < 0.2 * os.sysconf("SC_CLK_TCK"), (before, after)  # not 2 cores' worth


UNGUARDED = """
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
import nqueens
with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
    print(nqueens.count(12, workers=pool), flush=True)
"""


def test_a_script_without_a_main_guard_on_spawn_ends_with_broken_workers(tmp_path):
    # each spawned process imports the script again, makes a pool of its own there and
    # dies of it: the count says so, as README.md has it, and does not wait for ever
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode != 0
    assert "BrokenWorkers: workers" in done.stderr
    assert "stopped: BrokenProcessPool" in done.stderr
    assert "__main__" in done.stderr  # multiprocessing's own advice, from a process


@pytest.mark.native
def test_dask_local_cluster_by_its_executor_and_its_client(dask_client, tmp_path):
    from nqueens._engine.workers.engines import Dask, engine_for

    executor = dask_client.get_executor()
    assert nqueens.count(14, workers=executor.map) == A000170[14]
    assert nqueens.count(13, workers=executor.map, unique=True) == A002562[13]
    flow = engine_for(dask_client)
    assert type(flow) is Dask and flow.size == 2
    path = tmp_path / "count.sqlite"
    assert nqueens.count(16, workers=dask_client, journal=path) == A000170[16]
    assert nqueens.count(16, workers=dask_client, journal=path, unique=True) == A002562[16]
    assert nqueens.count(12, workers=dask_client, depth=1, recount=1.0) == A000170[12]
