"""The progress bar, Ctrl-C while threads count, and counts from several threads."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import nqueens
from nqueens._oeis import A000170, A002562

# progress


def test_progress_bar_on_request(capsys):
    assert nqueens.count(12, progress=True, workers=2) == A000170[12]
    err = capsys.readouterr().err
    assert "nqueens" in err and "subproblem" in err and "100%" in err


def test_cli_shows_no_progress_when_stderr_is_not_a_terminal():
    for extra in ([], ["--progress"], ["--no-progress"]):
        result = subprocess.run(
            [sys.executable, "-m", "nqueens", "count", "13", "--workers", "2", *extra],
            capture_output=True,
            text=True,
        )
        assert result.stdout == f"{A000170[13]}\n"
        assert ("100%" in result.stderr) == (extra == ["--progress"])


# Ctrl-C and threads


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("n", [40, 21])  # the row-by-row core, the quadrant core
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_ctrl_c_interrupts_a_long_count_within_a_second(native_core, n, workers, monkeypatch):
    # a process started with SIGINT ignored (a background job) would never stop
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupted_count(workers, n)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_second_ctrl_c_while_the_threads_stop_still_waits_for_them():
    from nqueens._engine.threads import run_subproblems

    def slow_to_stop(subproblems, stop):
        while not stop[0]:
            time.sleep(0.005)
        time.sleep(0.4)  # a core that sees the flag late (a loaded machine)
        return [0] * len(subproblems)

    def press_twice() -> None:
        time.sleep(0.1)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.15)  # while the threads are being waited for
        os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser = threading.Thread(target=press_twice)
    try:
        presser.start()
        with pytest.raises(KeyboardInterrupt):
            list(run_subproblems(slow_to_stop, list(range(8)), 2))
        alive = [t.name for t in threading.enumerate() if t.name.startswith("nqueens-")]
        presser.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert alive == []  # both presses raised once, after every thread had stopped


def test_a_count_that_fails_leaves_no_search_of_its_check_running(native_core):
    # the check of the total (Burnside's) searches on a helper thread while the
    # workers count: 0.8 s at n = 23; a count that ends early stops it too
    def failing(func, items):
        raise RuntimeError("the cluster went away")

    with pytest.raises(RuntimeError, match="went away"):
        nqueens.count(23, workers=failing, recount=0, units=4)
    assert [t.name for t in threading.enumerate() if t.name == "nqueens-symmetric"] == []


def interrupted_count(workers, n=40):
    # Ctrl-C after 0.5 s, pressed again every 0.5 s as a user would: a signal
    # that arrives while the interpreter runs a finalizer (a garbage collection
    # in the split) raises KeyboardInterrupt there, where it is lost
    threads_before = threading.active_count()
    done = threading.Event()

    def press() -> None:
        while not done.wait(0.5):
            os.kill(os.getpid(), signal.SIGINT)

    presser = threading.Thread(target=press)
    start = time.monotonic()
    presser.start()
    gc.disable()  # no collection, so no gc callback (Hypothesis has one) to lose a press in
    try:
        with pytest.raises(KeyboardInterrupt):
            nqueens.count(n, workers=workers)
        elapsed = time.monotonic() - start
    finally:
        gc.enable()
        while presser.is_alive():  # a press may land while the presser stops
            try:
                done.set()
                presser.join()
                sum(range(100))  # where a last pending press is raised, within the try
            except KeyboardInterrupt:
                pass
    assert elapsed < 5  # about 0.5 s; generous for a loaded machine
    assert threading.active_count() == threads_before


def test_concurrent_calls_from_four_threads(core):
    sizes = [9, 10, 11, 12] * 2
    results = {}

    def work(k, n):
        results[k] = (nqueens.count(n, workers=2), nqueens.count(n, unique=True))

    threads = [threading.Thread(target=work, args=(k, n)) for k, n in enumerate(sizes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {k: (A000170[n], A002562[n]) for k, n in enumerate(sizes)}


def test_a_helper_sets_its_end_past_a_lock_an_interrupted_wait_left_held():
    # a Ctrl-C that lands as the waiting thread takes a lock can leave it held
    # (bpo-29988); with threading.Event the helper's set() then waited on that lock
    # for ever. Done.set() takes none: here its lock is left held as such a Ctrl-C
    # would, and the helper still ends, and the wait still sees it
    from nqueens._engine.threads import Done, wait_for

    done = Done()
    assert not done.wait(0.01)
    done._wake.acquire(timeout=0)  # (held since creation: acquiring again fails)
    helper = threading.Thread(target=done.set)
    helper.start()
    helper.join(timeout=5)
    assert not helper.is_alive()
    assert done.wait(0.01) and done.is_set() and wait_for([done]) is None
    done._wake.acquire(timeout=0)  # left held by an interrupted wait
    assert done.wait(5.0)  # answered by the flag, at once
