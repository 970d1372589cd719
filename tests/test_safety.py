"""Nothing wrong, nothing lost: bad input is refused before any work, on both cores;
results from map-like workers are verified; the journal is safe to create and share.

The fuzz at the end calls the core's entry points directly with arbitrary
arguments: each must return or raise, the same way on both cores.  Under
the sanitizer build of .ci/run it is what proves the extension memory-safe.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import traceback
import warnings
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import nqueens
import nqueens._bitsolver_py
from nqueens import ExecutorError, JournalError, Subproblem, count, count_subproblem
from nqueens._oeis import A000170, A002562

# the reproducers of the issue: each must raise, never crash nor answer


BAD_TASKS = [
    ((100, 1, (), ()), ValueError, "n must be between"),
    ((70, 1, (0,), (0,)), ValueError, "n must be between"),
    ((8, 1, (0, 1, 2), ()), ValueError, "as long"),
    ((8, 1, (0, 1), (0,)), ValueError, "as long"),
    ((8, 1, (64,), (0,)), ValueError, "rows must lie on the board"),
    ((8, 1, (0,), (99,)), ValueError, "cols must lie on the board"),
    ((8.5, 1, (), ()), TypeError, "n must be an int"),
    ((65, 1, (), ()), ValueError, "n must be between"),
    ((-1, 1, (), ()), ValueError, "n must be between"),
    ((8, "x", (), ()), TypeError, "weight must be an int"),
    ((8, 0, (), ()), ValueError, "weight must be a positive int"),
    ((8, True, (), ()), TypeError, "weight must be an int, not bool"),
    ((8, 1, (0, 0), (1, 5)), ValueError, "row 0 holds two queens"),
    ((8, 1, "01", "01"), TypeError, "rows must be a sequence of ints"),
    ((8, 1, (0.0,), (1,)), TypeError, r"rows\[0\] must be an int"),
]


@pytest.mark.parametrize(("fields", "error", "message"), BAD_TASKS)
def test_bad_subproblems_are_refused(core, fields, error, message):
    with pytest.raises(error, match=message):
        Subproblem(*fields)
    # a plain tuple, and a Subproblem made without the checks, are checked by count_subproblem
    with pytest.raises(error, match=message):
        count_subproblem(fields)
    with pytest.raises(error, match=message):
        count_subproblem(tuple.__new__(Subproblem, fields))


@pytest.mark.parametrize("subproblem", [(8, 1, (), ()), [8, 1, (), ()], 8, None, (8, 1, ())])
def test_count_subproblem_takes_a_subproblem_or_a_plain_tuple(core, subproblem):
    if isinstance(subproblem, tuple) and len(subproblem) == 4:
        assert count_subproblem(subproblem) == 92
    else:
        with pytest.raises(TypeError, match="subproblem must be a Subproblem or a tuple"):
            count_subproblem(subproblem)


def test_valid_subproblems_count_exactly(core, brute):
    for n in range(7):
        for row in range(n):
            for col in range(n):
                expected = sum(1 for p in brute(n) if p[row] == col)
                assert count_subproblem(Subproblem(n, 3, (row,), (col,))) == 3 * expected
    # queens that attack each other have no completion
    assert count_subproblem(Subproblem(8, 1, (0, 1), (0, 1))) == 0
    assert count_subproblem(Subproblem(8, 1, (0, 5), (2, 2))) == 0


def test_subproblems_survive_pickling_and_are_checked_when_unpickled():
    import pickle

    subproblem = Subproblem(8, 2, (0, 7), (3, 4))
    assert pickle.loads(pickle.dumps(subproblem)) == subproblem
    forged = pickle.dumps(subproblem).replace(b"\x4b\x08", b"\x4b\x63", 1)  # n = 99
    with pytest.raises(ValueError, match="n must be between"):
        pickle.loads(forged)


def test_numpy_like_ints_are_accepted(core):
    class Index:
        def __init__(self, value):
            self.value = value

        def __index__(self):
            return self.value

    subproblem = Subproblem(Index(8), Index(1), (Index(0),), (Index(0),))
    assert type(subproblem.n) is int and subproblem.rows == (0,)
    assert count_subproblem(subproblem) == 4


# the core's entry points, called directly (the Python layer bypassed)


def core_calls(module):
    stop = bytearray(1)
    return [
        lambda: module.count_preset(100, (), (), stop),
        lambda: module.count_preset(70, (0,), (0,), stop),
        lambda: module.count_preset(8, (0, 1, 2), (), stop),
        lambda: module.count_preset(8, (0, 1), (0,), stop),
        lambda: module.count_preset(8, (64,), (0,), stop),
        lambda: module.count_preset(8, (0,), (99,), stop),
        lambda: module.count_preset(8, (0,), (-1,), stop),
        lambda: module.count_preset(8.5, (), (), stop),
        lambda: module.count_preset(8, (), (), bytearray()),
        lambda: module.count_preset(8, (), (), None),
        lambda: module.count_preset(8, tuple(range(70)), tuple(range(70)), stop),
        lambda: module.count_each([(70, 1, (), ())], stop, module.Tables()),
        lambda: module.count_each([(8, 1, (0, 1), (0,))], stop, module.Tables()),
        lambda: module.count_each([(8, 1, (9,), (0,))], stop, module.Tables()),
        lambda: module.count_each([(8, 1, (0,), (0,))], bytearray(), module.Tables()),
        lambda: module.count_each([(8,)], stop, module.Tables()),
        lambda: module.count_solutions(65, stop),
        lambda: module.count_solutions(-1, stop),
        lambda: module.count_solutions(8, bytearray()),
        lambda: module.count_symmetric(65),
        lambda: module.count_symmetric(-5),
        lambda: module.constellations(200),
        lambda: module.Gathered(16, False),
        lambda: module.Gathered(8, False).placements(0, 10**6),
        lambda: module.Gathered(8, False).placements(-1, 2),
        lambda: module.Gathered(8, False, 2, 2),
        lambda: module.Gathered(8, False, -1, 2),
        lambda: module.Gathered(8, False, 0, 0),
        lambda: module.Gathered(8, False, 0, 65),
        lambda: module.Gathered(8, False, 0, 2).placements(0, 1),
        lambda: module.Gathered(8, False, 0, 2).take(module.Gathered(8, False, 0, 2)),
        lambda: module.Gathered(8, False, 0, 2).take(module.Gathered(9, False, 1, 2)),
        lambda: module.Gathered(8, False, 0, 2).take(module.Gathered(8, True, 1, 2)),
        lambda: module.Gathered(8, False, 0, 2).take(module.Gathered(8, False, 1, 3)),
        lambda: module.Gathered(8, False, 0, 2).take(None),
        lambda: module.Gathered(8, False).take(module.Gathered(8, False)),
        lambda: module.Enumerator(65, (), False),
        lambda: module.Enumerator(8, (0,) * 9, False),
        lambda: module.Enumerator(8, (64,), False),
        lambda: module.Enumerator(8, (-1,), False),
        lambda: module.Enumerator(8, (), False).fill(bytearray(7), 1, 10),
        lambda: module.Enumerator(8, (), False).fill(bytearray(8), -1, 10),
        lambda: module.Enumerator(8, (), False).fill(bytes(8), 1, 10),
        lambda: module.Enumerator.__new__(module.Enumerator).fill(bytearray(64), 1, 10),
    ]


@pytest.mark.parametrize("call", range(len(core_calls(nqueens._bitsolver_py))))
def test_the_core_refuses_what_lies_outside_its_arrays(core, call):
    with pytest.raises((ValueError, TypeError, IndexError, BufferError, OverflowError)) as cython:
        core_calls(core)[call]()
    with pytest.raises(Exception) as python:
        core_calls(nqueens._bitsolver_py)[call]()
    assert cython.type is python.type


def test_a_crash_would_show_here_too():
    # the same reproducers in a process of their own: a crash is an exit
    # status, not a failed assertion inside this one
    script = textwrap.dedent(
        """
        import nqueens
        from nqueens import Subproblem, count_subproblem
        from nqueens._select import bitsolver as core
        for fields in [(100, 1, (), ()), (70, 1, (0,), (0,)), (8, 1, (0, 1, 2), ()),
                       (8, 1, (0, 1), (0,)), (8, 1, (64,), (0,))]:
            for call in (lambda: count_subproblem(fields),
                         lambda: core.count_preset(fields[0], fields[2], fields[3], bytearray(1)),
                         lambda: core.count_each([fields], bytearray(1), core.Tables())):
                try:
                    call()
                except (ValueError, TypeError):
                    pass
                else:
                    raise SystemExit(f"accepted {fields}")
        print("refused")
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (0, "refused\n"), result.stderr


# a Hypothesis fuzz of every entry point: the two cores give the same
# answer or raise the same exception, and nothing crashes

SMALL = st.integers(-3, 12)
ANY_INT = st.one_of(SMALL, st.integers(-(2**70), 2**70))
ARG = st.one_of(
    ANY_INT, st.none(), st.floats(-100, 100), st.booleans(), st.text(max_size=2), st.just(())
)
QUEENS = st.lists(st.one_of(SMALL, ANY_INT, st.none()), max_size=14)
BUFFER = st.one_of(
    st.binary(max_size=80).map(bytearray), st.binary(max_size=4), st.none(), st.just([0])
)


def outcome(call):
    try:
        return "ok", call()
    except (ValueError, TypeError, IndexError, BufferError, OverflowError) as exc:
        return "raised", type(exc)


def both(build):
    from nqueens import _bitsolver, _bitsolver_py

    return outcome(lambda: build(_bitsolver)), outcome(lambda: build(_bitsolver_py))


def stopped_unless_small(n, stop):
    # a valid large board would search for ever: let the stop flag end it at once
    if isinstance(stop, bytearray) and len(stop) and not (isinstance(n, int) and n <= 10):
        stop[0] = 1
    return stop


@pytest.mark.native
@given(n=ARG, rows=QUEENS, cols=QUEENS, stop=BUFFER, upper=st.one_of(SMALL, ARG))
def test_fuzz_count_preset(n, rows, cols, stop, upper):
    stop = stopped_unless_small(n, stop)
    cython, python = both(lambda m: m.count_preset(n, rows, cols, bytearray(stop or b""), upper))
    assert cython == python
    cython, python = both(lambda m: m.count_preset(n, rows, cols, stop, upper, m.Tables()))
    assert cython == python


@pytest.mark.native
@given(
    subproblems=st.lists(
        st.tuples(st.one_of(SMALL, ARG), st.just(1), QUEENS, QUEENS)
        | st.tuples(ARG)
        | st.tuples(SMALL, SMALL, QUEENS),
        max_size=4,
    ),
    stop=BUFFER,
)
def test_fuzz_count_each(subproblems, stop):
    if isinstance(stop, bytearray) and len(stop):
        stop[0] = 1
    cython, python = both(lambda m: m.count_each(subproblems, stop, m.Tables()))
    assert cython == python


@pytest.mark.native
@given(n=ARG, stop=BUFFER)
def test_fuzz_board_functions(n, stop):
    stop = stopped_unless_small(n, stop)
    cython, python = both(lambda m: m.count_solutions(n, stop))
    assert cython == python
    small = n if not (isinstance(n, int) and 13 <= n <= 64) else 70
    cython, python = both(lambda m: m.count_symmetric(small))
    assert cython == python
    cython, python = both(lambda m: m.constellations(small))
    assert cython == python


@pytest.mark.native
@given(
    n=st.one_of(st.integers(-2, 10), ARG),
    unique=st.booleans(),
    start=ANY_INT,
    stop=ANY_INT,
)
def test_fuzz_gathered(n, unique, start, stop):
    cython, python = both(lambda m: list(m.Gathered(n, unique).placements(start, stop)))
    assert cython == python


@pytest.mark.native
@given(
    n=st.one_of(st.integers(-2, 66), ARG),
    prefix=QUEENS,
    unique=st.booleans(),
    out=BUFFER,
    max_count=st.one_of(st.integers(-2, 8), ARG),
    max_nodes=st.one_of(st.integers(-2, 2000), ARG),
)
def test_fuzz_enumerator(n, prefix, unique, out, max_count, max_nodes):
    def walk(module):
        buffer = bytearray(out) if isinstance(out, bytearray) else out
        walker = module.Enumerator(n, prefix, unique)
        found = walker.fill(buffer, max_count, max_nodes)
        return found, bytes(buffer[: found * walker_n(n)]) if buffer is not None else None

    assert both(walk)[0] == both(walk)[1]


def walker_n(n):
    return n if isinstance(n, int) else 0


# results from map-like workers


def dropping(func, units):
    return [func(unit) for unit in units][:-1]


def negating(func, units):
    return [r._replace(counts=tuple(-c for c in r.counts)) for r in map(func, units)]


def doubling(func, units):
    return [*map(func, units), *map(func, units)]


def stranger(func, units):
    results = list(map(func, units))
    first = results[0]
    one = first._replace(
        indices=(10**9,), counts=first.counts[:1], subproblems=first.subproblems[:1]
    )
    return [one, *results[1:]]


def halving(func, units):
    return [r._replace(counts=tuple(c // 2 for c in r.counts)) for r in map(func, units)]


@pytest.mark.parametrize(
    ("workers", "message"),
    [
        (dropping, "dropped some"),
        (lambda f, xs: [], "dropped some"),
        (lambda f, xs: {i: f(x) for i, x in enumerate(xs)}, "not a result"),
        (lambda f, xs: [True for _ in xs], "not a result"),
        (lambda f, xs: [f(x)[1:] for x in xs], "not a result|malformed"),
        (lambda f, xs: [(r.indices, r.counts) for r in map(f, xs)], "not a result"),
        (negating, "cannot be its count"),
        (halving, "cannot be its count|wrong counts|cannot be the number"),
        (doubling, "twice"),
        (stranger, "not given"),
        (lambda f, xs: 5, "not an iterable"),
        (lambda f, xs: None, "not an iterable"),
    ],
    ids=[
        "drops-one",
        "empty",
        "dict",
        "bools",
        "bare-counts",
        "older-release",
        "negated",
        "halved",
        "doubled",
        "stranger",
        "int",
        "none",
    ],
)
@pytest.mark.parametrize("unique", [False, True])
def test_a_misbehaving_map_is_refused(core, workers, message, unique):
    # the split by borders (depth given): subproblems weighted 2, 4 or 8
    with pytest.raises(ExecutorError, match=message):
        count(12, workers=workers, unique=unique, depth=0)
    # the split by quadrants (subproblems of an even n weigh 1: a halved count is caught
    # by the counts made twice)
    with pytest.raises(ExecutorError, match=message):
        count(14, workers=workers, unique=unique)


def test_a_map_that_reorders_its_results_still_counts_exactly(core):
    def reordering(func, units):
        results = list(map(func, units))
        random.Random(len(results)).shuffle(results)
        return iter(results)

    assert count(12, workers=reordering) == A000170[12]
    assert count(12, workers=reordering, unique=True) == A002562[12]


def test_nothing_unverified_is_journalled(tmp_path):
    path = tmp_path / "count.sqlite"
    with pytest.raises(ExecutorError):
        count(12, workers=doubling, journal=path)
    # the results before the refused one were verified: resuming is exact
    assert count(12, workers=map, journal=path) == A000170[12]


def test_reordered_results_interrupted_mid_batch_resume_exactly(tmp_path):
    path = tmp_path / "count.sqlite"
    calls = []

    def reversed_then_interrupted(func, units):
        calls.append(len(units))
        results = list(map(func, units))[::-1]
        if len(calls) == 3:  # the third call stops halfway through its results
            yield from results[: len(results) // 2]
            raise KeyboardInterrupt
        yield from results

    with pytest.raises(KeyboardInterrupt):
        count(14, workers=reversed_then_interrupted, journal=path)
    for _ in range(2):
        assert count(14, workers=map, journal=path) == A000170[14]


# the journal


def test_journal_refuses_what_keeps_nothing_before_any_work(tmp_path, monkeypatch):
    def no_split(*args):
        raise AssertionError("the split started before the journal was checked")

    def no_estimate(*args):
        raise AssertionError("the estimate started before the journal was checked")

    monkeypatch.setattr("nqueens._engine.counting.split", no_split)
    monkeypatch.setattr("nqueens._engine.estimate.before_count", no_estimate)
    (tmp_path / "folder").mkdir()
    for journal, message in [
        ("", "would keep nothing"),
        (":memory:", "would keep nothing"),
        ("/dev/null", "not a regular file"),
        (str(tmp_path / "folder"), "is a directory"),
        (str(tmp_path / "missing" / "j.sqlite"), "does not exist"),
        ("/proc/self/nqueens.sqlite", "cannot be written|not writable|leads into /proc"),
    ]:
        with pytest.raises(JournalError, match=message):
            count(30, journal=journal)  # a size that count() estimates first
    with pytest.raises(TypeError, match="journal must be a path"):
        count(22, journal=3)
    assert list((tmp_path / "folder").iterdir()) == []


def test_cli_refuses_a_device_in_one_line(cli):
    result = cli("count", "12", "--journal", "/dev/null")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "nqueens: /dev/null is not a regular file (a device, pipe or socket)\n"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs POSIX processes and users")
def test_a_read_only_journal_is_refused_before_any_work(monkeypatch):
    with tempfile.TemporaryDirectory() as top:
        os.chmod(top, 0o755)  # the user nobody must reach it
        read_only_journal_is_refused(Path(top), monkeypatch)


def read_only_journal_is_refused(top, monkeypatch):
    folder = top / "shared"
    folder.mkdir()
    path = folder / "count.sqlite"
    count(12, workers=map, journal=path, depth=1)
    db = sqlite3.connect(path)
    with db:
        db.execute("DELETE FROM done WHERE task % 2 = 0")
    db.close()
    os.chmod(path, 0o444)
    os.chmod(folder, 0o555)
    err = top / "stderr.txt"
    err.write_text("")
    os.chmod(err, 0o666)

    def no_split(*args):
        os._exit(98)  # work started

    monkeypatch.setattr("nqueens._engine.counting.split", no_split)
    from nqueens.cli import main  # imported here: nobody cannot read the standard library

    # root may write anything: the command runs in a child that drops to
    # nobody after the fork (no exec, so nothing more need be readable)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads about
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 99
        try:
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            os.dup2(os.open(err, os.O_WRONLY), 2)
            sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
            status = main(["count", "12", "--depth", "1", "--journal", str(path)])
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stderr.flush()
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    os.chmod(folder, 0o755)
    message = err.read_text()
    assert os.waitstatus_to_exitcode(status) == 74, message  # cannot be written: EX_IOERR
    assert len(message.splitlines()) == 1 and "cannot be written" in message


def test_resume_with_other_workers_keeps_the_recorded_split(core, tmp_path):
    path = tmp_path / "count.sqlite"
    calls = []

    def interrupted(func, units):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return map(func, units)

    with pytest.raises(KeyboardInterrupt):
        count(12, workers=interrupted, journal=path, depth=1, recount=0)  # a finer split
    with sqlite3.connect(path) as db:
        depth = int(db.execute("SELECT value FROM meta WHERE key = 'depth'").fetchone()[0])
        done = {t for (t,) in db.execute("SELECT task FROM done")}
    db.close()
    total = len(nqueens.subproblems(12, depth=1))
    assert depth == 1 and 0 < len(done) < total
    counted = []

    def counting(func, units):
        counted.extend(i for unit in units for i in unit.indices)
        return map(func, units)

    # depth 0 if it were new
    assert count(12, workers=counting, journal=path, recount=0) == A000170[12]
    assert sorted(counted) == sorted(set(range(total)) - done)
    assert count(12, workers=1, journal=path, unique=True) == A002562[12]
    with pytest.raises(JournalError, match="depth 1, not depth 0"):
        count(12, journal=path, depth=0)


def test_concurrent_starts_in_threads(tmp_path):
    path = tmp_path / "count.sqlite"
    outcomes = []
    barrier = threading.Barrier(4)

    def start():
        barrier.wait()
        try:
            outcomes.append(count(13, workers=map, journal=path))
        except JournalError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert A000170[13] in outcomes
    assert all(o == A000170[13] or "is in use by another count" in str(o) for o in outcomes)
    assert count(13, workers=map, journal=path) == A000170[13]


def test_concurrent_starts_in_processes(tmp_path):
    path = tmp_path / "count.sqlite"
    # long enough that the three usually overlap (0.1 s compiled, 0.6 s in the twin)
    n = 16 if nqueens.IMPLEMENTATION == "cython" else 13
    command = [sys.executable, "-m", "nqueens", "count", str(n), "--journal", str(path)]
    processes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    results = [(p.wait(), *p.communicate()) for p in processes]
    assert (0, f"{A000170[n]}\n", "") in results
    for status, out, err in results:
        assert (status, out, err) == (0, f"{A000170[n]}\n", "") or (
            status == 2 and out == "" and "is in use by another count" in err
        )
    assert count(n, journal=path) == A000170[n]


KILLED = textwrap.dedent(
    """
    import sys, nqueens
    print("started", flush=True)
    nqueens.count(12, workers=map, journal=sys.argv[1])
    """
)


def test_kill_9_during_journal_creation_never_leaves_a_refused_journal(tmp_path):
    rng = random.Random(11)
    outcomes = {"absent": 0, "resumed": 0}
    for trial in range(30):
        path = tmp_path / f"j{trial}.sqlite"
        process = subprocess.Popen(
            [sys.executable, "-c", KILLED, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout.readline() == "started\n"
        # the journal is set up within a few ms of the import
        threading.Event().wait(rng.uniform(0, 0.03))
        process.kill()
        process.wait()
        process.stdout.close()
        if not path.exists():
            outcomes["absent"] += 1
            continue
        assert count(12, workers=map, journal=path) == A000170[12]
        outcomes["resumed"] += 1
    assert sum(outcomes.values()) == 30
