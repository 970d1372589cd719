"""The `core` fixture runs a test on both cores; the brute-force oracle lives here.

A missing extension is an error, never a silent skip: pass --no-native to
run on the pure-Python twin alone (as the pure-Python pass in .ci/run does).
"""

from __future__ import annotations

import importlib
import itertools
import operator
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=30, deadline=None)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# the sanitizer pass of .ci/run fuzzes the core's entry points harder
settings.register_profile(
    "fuzz", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _alone_at_fork() -> None:
    """Wait (at most 2 s) until no other thread of this process is left."""
    deadline = time.monotonic() + 2.0
    while len(os.listdir("/proc/self/subproblem")) > 1:
        if time.monotonic() > deadline:
            names = [t.name for t in threading.enumerate()]
            print(f"forked beside other threads: {names}", file=sys.stderr)
            return
        time.sleep(0.001)


# The sanitized runs of .ci/run set NQUEENS_TEST_FORK_ALONE: there, every fork first waits
# until the threads that tests and counts started have ended.  GCC's AddressSanitizer has no
# fork handlers: a fork while another thread holds its allocator's lock leaves the child
# blocked for ever at its first allocation.  A thread that join() has returned for may hold
# it still (up to Python 3.12, join() returns before the thread has ended): a fork at once
# after join() left the child blocked 3 times in 5,000 here, and CI's sanitized run once hung
# to its limit.  Outside the sanitizers the C library takes its own locks across a fork, and
# no test waits.
if os.environ.get("NQUEENS_TEST_FORK_ALONE") and os.path.isdir("/proc/self/subproblem"):
    os.register_at_fork(before=_alone_at_fork)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-native",
        action="store_true",
        help="run without the compiled extension (tests marked native are deselected)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # a run started as a background job (`cmd &` in a script, nohup) ignores Ctrl-C, and so
    # would every command the tests start and then interrupt: they would search on for ever.
    # A handler of this process's own is reset to the default in every child at its exec.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--no-native"):
        return
    kept = [item for item in items if item.get_closest_marker("native") is None]
    config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = kept


def _install_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    suffix = "" if request.param == "cython" else "_py"
    try:
        module = importlib.import_module(f"nqueens._bitsolver{suffix}")
        quadrants = importlib.import_module(f"nqueens._quadrants{suffix}")
    except ImportError as exc:  # pragma: no cover - the point is to fail loudly
        pytest.fail(f"the compiled core is missing ({exc}); pass --no-native to test without it")
    monkeypatch.setattr("nqueens._select.bitsolver", module)
    monkeypatch.setattr("nqueens._select.quadrants", quadrants)
    return module


_NATIVE = pytest.param("cython", marks=pytest.mark.native)
# the twin's runs, marked so that the passes which test only a build of the compiled core
# (the sanitizers, most of the wheels) can leave them to the passes that test the twin
_TWIN = pytest.param("python", marks=pytest.mark.twin)


@pytest.fixture(params=[_NATIVE, _TWIN])
def core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Each core in turn, installed as the one the public API calls."""
    return _install_core(request, monkeypatch)


@pytest.fixture(params=[_NATIVE])
def native_core(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The extension alone, for sizes the twin would take minutes over."""
    return _install_core(request, monkeypatch)


def brute_force(n: int) -> list[tuple[int, ...]]:
    """Every solution, by checking every permutation of the columns: the naive oracle."""
    # two queens share a diagonal when their row and column have the same sum or the same
    # difference: a permutation is a solution when its n sums and its n differences all differ
    rows = range(n)
    return [
        perm
        for perm in itertools.permutations(rows)
        if len(set(map(operator.add, perm, rows))) == n
        and len(set(map(operator.sub, perm, rows))) == n
    ]


def images(placement: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The 8 images of a placement, by rotating and reflecting its squares."""
    n = len(placement)
    squares = [(r, c) for r, c in enumerate(placement)]
    moves: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    result = []
    for move in moves:
        board = dict(move(r, c) for r, c in squares)
        result.append(tuple(board[r] for r in range(n)))
    return result


@pytest.fixture(scope="session")
def brute() -> Callable[[int], list[tuple[int, ...]]]:
    cache: dict[int, list[tuple[int, ...]]] = {}

    def solve(n: int) -> list[tuple[int, ...]]:
        if n not in cache:
            cache[n] = brute_force(n)
        return cache[n]

    return solve


@pytest.fixture(scope="session")
def border_queens() -> Callable[[int, int, int, int, int], tuple[tuple[int, ...], tuple[int, ...]]]:
    """(rows, cols) of the queens of a border (top, bottom, left, right), a corner one once."""

    def queens(
        n: int, top: int, bottom: int, left: int, right: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        placed = sorted({(0, top), (n - 1, bottom), (left, 0), (right, n - 1)})
        return tuple(r for r, _ in placed), tuple(c for _, c in placed)

    return queens


@pytest.fixture(scope="session")
def canonical() -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    return lambda placement: min(images(placement))


def _run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [sys.executable, "-m", "nqueens", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:  # fails the test with what the child printed
        printed = (
            exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr
        )
        pytest.fail(f"nqueens {' '.join(args)} hung for {timeout} s; its stderr: {printed!r}")


@pytest.fixture(scope="session")
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run `python -m nqueens ARGS...` as a user would (timeout=seconds: 300); the
    finished process."""
    return _run_cli


def _patience(seconds: float) -> float:
    try:
        load = os.getloadavg()[0] / len(os.sched_getaffinity(0))
    except (OSError, AttributeError):  # no load average, or no affinity, on this system
        load = 1.0
    return seconds * min(10.0, max(1.0, 2 * load))


@pytest.fixture(scope="session")
def patience() -> Callable[[float], float]:
    """How long to wait for something to start (a cluster's workers): patience(seconds)
    is `seconds` on a machine with cores to spare, scaled up by the load per core (what
    other programs and the suite's own processes ask of the cores), at most ten times
    over.  A bound for a start that must come, never a measure of speed."""
    return _patience


@pytest.fixture
def dask_client() -> Iterator[Any]:
    """A Client of a LocalCluster of two single-threaded worker processes (nannied:
    a worker killed is started again), on 127.0.0.1 and any free dashboard port."""
    distributed = pytest.importorskip("dask.distributed", reason="the [dask] extra is missing")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",  # any free port: another cluster may hold 8787
            silence_logs=50,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def _journal_rows(path: Any) -> int:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'done'").fetchone():
            return 0
        return int(db.execute("SELECT COUNT(*) FROM done").fetchone()[0])
    finally:
        db.close()


@pytest.fixture
def journal_rows() -> Callable[[Any], int]:
    """How many subproblems a journal file records so far (0 while it is set up)."""
    return _journal_rows
