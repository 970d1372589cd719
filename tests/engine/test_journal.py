"""The journal: resumed, interrupted, refused when it belongs to another count."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import nqueens
from nqueens import JournalError
from nqueens._oeis import A000170, A002562


class CountingMap:
    """A map-like `workers` that remembers how many subproblems it was given (each
    item it maps is a unit of subproblems that share the core's table)."""

    def __init__(self):
        self.subproblems = 0

    def __call__(self, func, units):
        self.subproblems += sum(len(unit.subproblems) for unit in units)
        return map(func, units)


# the journal


def test_journal_resumes_and_answers_at_once_when_complete(tmp_path, journal_rows):
    path = tmp_path / "count.sqlite"
    first = CountingMap()
    assert nqueens.count(12, workers=first, journal=path, depth=1, recount=0) == A000170[12]
    assert first.subproblems == len(nqueens.subproblems(12, depth=1)) == journal_rows(path)
    again = CountingMap()
    assert nqueens.count(12, workers=again, journal=path, depth=1, unique=True) == A002562[12]
    assert again.subproblems == 0


def interrupt_cli(journal_rows, path, sig):
    # the pure-Python twin makes n = 14 slow enough to stop midway; a process that
    # does not end is stopped with SIGABRT, for the faulthandler's stacks of its
    # threads, and killed (not left to the next test)
    env = {**os.environ, "NQUEENS_PUREPYTHON": "1", "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens", "count", "14", "--depth", "1", "--journal", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if path.exists() and journal_rows(path) >= 20:
            break
    assert process.poll() is None, process.communicate()
    sent = time.monotonic()
    process.send_signal(sig)
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        try:
            out, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
        pytest.fail(f"still running 30 s after {sig!r}; its threads:\n{err[-6000:]}")
    return process.returncode, time.monotonic() - sent, out, err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_journal_survives_interruption(tmp_path, sig, journal_rows):
    path = tmp_path / "count.sqlite"
    status, delay, out, err = interrupt_cli(journal_rows, path, sig)
    if sig == signal.SIGINT:
        assert (status, err) == (130, "nqueens: interrupted\n")
    elif sig == signal.SIGTERM:
        assert (status, err) == (143, "nqueens: terminated\n")
    else:
        assert status == -signal.SIGKILL
    assert delay < 5 and out == ""
    done = journal_rows(path)
    total = len(nqueens.subproblems(14, depth=1))
    assert 20 <= done < total
    resumed = CountingMap()
    assert nqueens.count(14, workers=resumed, journal=path, depth=1, recount=0) == A000170[14]
    assert resumed.subproblems == total - done


def test_journal_of_another_count_is_refused_and_kept(tmp_path):
    path = tmp_path / "count.sqlite"
    nqueens.count(9, journal=path, depth=2)
    before = path.read_bytes()
    with pytest.raises(JournalError, match="journals another count"):
        nqueens.count(10, journal=path, depth=2)
    with pytest.raises(JournalError, match="journals another count"):
        nqueens.count(9, journal=path, depth=3)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content", [b"this is not a database at all" * 100, b"\x00" * 4096], ids=["text", "zeros"]
)
def test_corrupt_journal_is_reported_and_never_overwritten(tmp_path, content):
    path = tmp_path / "count.sqlite"
    path.write_bytes(content)
    with pytest.raises(JournalError, match="is not an nqueens journal"):
        nqueens.count(9, journal=path)
    assert path.read_bytes() == content


def test_foreign_database_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    with db:
        db.execute("CREATE TABLE people (name TEXT)")
    db.close()  # (the context manager commits; it does not close)
    before = path.read_bytes()
    with pytest.raises(JournalError, match="is not an nqueens journal"):
        nqueens.count(9, journal=path)
    assert path.read_bytes() == before


def test_cli_journal_errors_exit_2(tmp_path):
    path = tmp_path / "bad.sqlite"
    path.write_bytes(b"garbage" * 1000)
    result = subprocess.run(
        [sys.executable, "-m", "nqueens", "count", "9", "--journal", str(path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "is not an nqueens journal" in result.stderr
    # a journal that cannot be one is refused before the estimate of a long count
    result = subprocess.run(
        [sys.executable, "-m", "nqueens", "count", "30", "--journal", "/dev/null"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and result.stderr.splitlines() == [
        "nqueens: /dev/null is not a regular file (a device, pipe or socket)"
    ]
    # and one that cannot be written exits 74, as it does once the count has started
    script = (
        "import os, sys\n"
        "os.access = lambda *args, **kwargs: False  # a folder this user cannot write\n"
        "from nqueens.cli import main\n"
        "sys.exit(main(['count', '30', '--journal', sys.argv[1]]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "j.sqlite")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 74 and len(result.stderr.splitlines()) == 1, result.stderr
    assert "is not writable" in result.stderr


def test_cli_complete_journal_answers_at_once(tmp_path):
    path = tmp_path / "count.sqlite"
    # the pure-Python twin would take a minute at n = 15: the journal answers instead
    # (where this process runs on it too, the journal of n = 13 is made in a second)
    n = 15 if nqueens.IMPLEMENTATION == "cython" else 13
    nqueens.count(n, journal=path, workers=2, depth=1)
    command = [sys.executable, "-m", "nqueens", "count", str(n), "--depth", "1"]
    env = {**os.environ, "NQUEENS_PUREPYTHON": "1"}
    result = subprocess.run(
        [*command, "--journal", str(path)], capture_output=True, text=True, env=env, timeout=30
    )
    assert (result.returncode, result.stdout) == (0, f"{A000170[n]}\n")
