"""Nothing wrong from anywhere: results that say where they come from, counts counted
twice, invariants, a journal that cannot carry a wrong count forward, and the
reproducers of what an adversary found (each one a test here)."""

from __future__ import annotations

import os
import pickle
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

import nqueens
import nqueens._version
from nqueens import ExecutorError, JournalError, QuadrantTask, Subproblem, count
from nqueens._engine.journal import Journal
from nqueens._engine.workers.plan import LOCAL_CHECKS, MIN_CHECKS, PACE_SUBPROBLEMS, choose_twice
from nqueens._oeis import A000170, A002562

# the map-likes that lie


def halving_all(func, items):
    # the issue's example, in the results' own format
    return [r._replace(counts=tuple(c // 2 for c in r.counts)) for r in map(func, items)]


def adding_eight(func, items):
    return [r._replace(counts=tuple(c + 8 for c in r.counts)) for r in map(func, items)]


def times_two_to_the_70(func, items):
    return [r._replace(counts=tuple(c * 2**70 for c in r.counts)) for r in map(func, items)]


def shifted_ranges(func, items):
    # an off-by-one subproblem: each quadrant subproblem counted one row set earlier, each
    # border subproblem with its first queen one column on
    def shift(subproblem):
        if isinstance(subproblem, QuadrantTask):
            if subproblem.first > 0:
                return QuadrantTask(
                    subproblem.n, subproblem.cross, subproblem.first - 1, subproblem.end - 1
                )
            return subproblem
        cols = ((subproblem.cols[0] + 1) % subproblem.n, *subproblem.cols[1:])
        return Subproblem(subproblem.n, subproblem.weight, subproblem.rows, cols)

    return [func(u._replace(subproblems=tuple(shift(t) for t in u.subproblems))) for u in items]


class CachingByIndices:
    """A map that caches results by the first of unit.indices, across calls and counts."""

    def __init__(self):
        self.cache = {}

    def __call__(self, func, items):
        found = []
        for unit in items:
            if unit.indices[0] not in self.cache:
                self.cache[unit.indices[0]] = func(unit)
            found.append(self.cache[unit.indices[0]])
        return found


class PreviousCall:
    """A map that returns the results of its previous call (the first call's twice)."""

    def __init__(self):
        self.last = None

    def __call__(self, func, items):
        results = list(map(func, items))
        previous, self.last = self.last or results, results
        return previous


class HalvingOneUnit:
    """A map whose one worker halves a single unit of one call: nothing else is wrong."""

    def __init__(self):
        self.done = False

    def __call__(self, func, items):
        found = list(map(func, items))
        for k, result in enumerate(found):
            if not self.done and any(result.counts):
                found[k] = result._replace(counts=tuple(c // 2 for c in result.counts))
                self.done = True
        return found


def other_release(version="0.0.9"):
    nqueens._version.__version__ = version


LIARS = [halving_all, adding_eight, times_two_to_the_70, shifted_ranges]


@pytest.mark.parametrize("liar", LIARS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(("n", "depth"), [(16, None), (17, None), (12, 0), (13, 1)])
def test_every_liar_is_refused_by_default(native_core, liar, n, depth):
    # quadrant subproblems (n = 16: weight 1; 17: crosses weighing up to 8) and border subproblems
    with pytest.raises(ExecutorError):
        count(n, workers=liar, depth=depth)


def test_the_issues_halving_map_is_refused(native_core):
    # the issue's own lambda no longer gets pairs (its r[1] is now the core's name)
    halve = lambda f, xs: [(r[0], tuple(c // 2 for c in r[1])) for r in map(f, xs)]  # noqa: E731
    with pytest.raises(TypeError):
        count(16, workers=halve)
    pairs = lambda f, xs: [(r.indices, r.counts) for r in map(f, xs)]  # noqa: E731
    with pytest.raises(ExecutorError, match="not a result"):
        count(16, workers=pairs)
    with pytest.raises(ExecutorError, match=r"wrong counts|cannot be"):
        count(16, workers=halving_all)
    with pytest.raises(ExecutorError, match=r"wrong counts|cannot be"):
        count(18, workers=halving_all)


def test_even_without_checks_the_invariants_refuse_most_halved_totals(native_core):
    # recount=0: no count made twice; the total breaks Burnside's sum or parity at
    # n = 12 and 14, a count is not a multiple of its weight at odd n or by borders
    # (at n = 16 and 18 a halved quadrant total passes both: the checks catch it)
    for n in (12, 14):
        with pytest.raises(ExecutorError, match="cannot be the number of solutions"):
            count(n, workers=halving_all, recount=0)
    for n, depth in [(15, None), (17, None), (16, 1)]:
        with pytest.raises(ExecutorError, match="cannot be its count"):
            count(n, workers=halving_all, recount=0, depth=depth)
    with pytest.raises(ExecutorError, match="cannot be its count"):
        count(12, workers=times_two_to_the_70, recount=0)


def test_a_cache_by_indices_answers_with_another_counts_results(native_core):
    cached = CachingByIndices()
    assert count(16, workers=cached, recount=0) == A000170[16]
    with pytest.raises(ExecutorError, match="other subproblems"):
        count(14, workers=cached, recount=0)
    # within one count: a second count's unit begins with a subproblem of a first's
    with pytest.raises(ExecutorError, match="other subproblems"):
        count(16, workers=CachingByIndices(), recount=1.0)


def test_the_previous_calls_results_are_refused(core):
    with pytest.raises(ExecutorError, match=r"other subproblems|not given"):
        count(12, workers=PreviousCall(), depth=1)


def test_one_halved_unit_is_caught_by_a_quorum_of_two(core):
    # (by the check of its weight, where it breaks it; else by its second count)
    for n, depth in [(12, 1), (12, None), (14, None)]:
        with pytest.raises(ExecutorError, match=r"wrong counts|cannot be its count"):
            count(n, workers=HalvingOneUnit(), depth=depth, recount=1.0)


@pytest.mark.parametrize("task_kind", ["quadrants", "borders"])
def test_a_worker_of_another_release_is_refused_by_name(native_core, task_kind):
    depth = None if task_kind == "quadrants" else 0
    pool = ProcessPoolExecutor(1, initializer=other_release)
    try:
        with pytest.raises(ExecutorError, match=r"nqueens '0\.0\.9', not"):
            count(14, workers=pool.map, depth=depth)
    finally:
        # not a plain shutdown(): the map's iterator, left at the first result, cancels
        # its futures, and CPython before 3.10.11 can then wait for ever in shutdown(wait=True)
        # (python/cpython#94440; it hung this test on 3.9); cancel_futures drops them first
        pool.shutdown(wait=True, cancel_futures=True)


def test_honest_maps_in_any_order_slow_or_lazy_stay_exact(core):
    def reordering(func, items):
        return reversed([func(u) for u in items])

    def slow(func, items):
        for unit in items:
            time.sleep(0.001)
            yield func(unit)

    def generator_of_generators(func, items):
        return (r for r in (func(u) for u in items))

    for workers in (reordering, slow, generator_of_generators):
        assert count(12, workers=workers, recount=1.0) == A000170[12]
        assert count(12, workers=workers, depth=1) == A000170[12]


# what is counted twice, and how many


def test_verify_counts_the_share_it_says_and_at_least_a_few(core):
    sent = []

    def counting(func, items):
        sent.extend(i for unit in items for i in unit.indices)
        return map(func, items)

    subproblems = nqueens.subproblems(12, depth=1)
    total = len(subproblems)
    # with units given, one subproblem is counted here before the work is sent (and one
    # of the first results is counted here again, as the gate)
    for share, extra in [(0, 0), (1.0, total - 1), (0.1, round(0.1 * total) - 1)]:
        sent.clear()
        assert count(12, workers=counting, depth=1, recount=share, units=40) == A000170[12]
        assert sorted(set(sent)) == list(range(total))
        assert len(sent) - total == extra, share
    # by default, up to PACE_SUBPROBLEMS are counted here to measure the pace: checks too
    sent.clear()
    assert count(12, workers=counting, depth=1, recount=1.0) == A000170[12]
    assert total - PACE_SUBPROBLEMS <= len(sent) - total <= total - 1


def test_checks_are_drawn_at_random_with_a_floor():
    import random

    pending = list(range(1000))
    seen = set()
    for seed in range(20):
        twice = choose_twice(pending, [7], 0.02, True, random.Random(seed))
        assert 7 not in twice and len(twice) == round(0.02 * 1000) - 1
        seen.add(frozenset(twice))
    assert len(seen) == 20  # another choice each call
    # the floor: MIN_CHECKS besides the gate's, and never fewer than
    # MIN_CHECKS - LOCAL_CHECKS through the workers
    assert len(choose_twice(pending, [7], 0.0001, True, random.Random(1))) == MIN_CHECKS - 1
    many_here = list(range(10))
    assert len(choose_twice(pending, many_here, 0.0001, True, random.Random(1))) == (
        MIN_CHECKS - LOCAL_CHECKS
    )
    assert len(choose_twice(pending, [], 0.0001, False, random.Random(1))) == MIN_CHECKS
    assert choose_twice([0, 1], [], 0.0001, False, random.Random(1)) == {0, 1}
    assert choose_twice(pending, [], 0, True, random.Random(1)) == set()


def test_units_are_whole_runs_of_similar_work():
    from nqueens._engine.subproblems import runs
    from nqueens._engine.workers.plan import cut_units, work_of

    for subproblems in (nqueens.subproblems(12, depth=2), nqueens.subproblems(17)):
        pending = list(range(0, len(subproblems), 3))  # what a resume leaves, say
        starts = runs([subproblems[i] for i in pending])
        whole = [pending[a:b] for a, b in zip(starts, [*starts[1:], len(pending)])]
        for wanted in (1, 7, 64, 10**6):
            cut = cut_units(subproblems, pending, wanted)
            assert sorted(i for unit in cut for i in unit) == pending
            assert len(cut) == min(wanted, len(whole)) and all(cut)
            where = {i: k for k, unit in enumerate(cut) for i in unit}
            assert all(len({where[i] for i in run}) == 1 for run in whole)  # no run split
            if wanted <= 64:
                works = [sum(work_of(subproblems[i]) for i in unit) for unit in cut]
                assert max(works) <= 1.5 * sum(works) / len(works)


def test_units_of_an_odd_board_take_each_job_in_few_stretches():
    # a worker's core keeps the north placements of one job (odd n: a queen of the
    # middle row and column) at a time: units dealt run by run met every job again
    from nqueens._engine.subproblems import quadrant_split_size
    from nqueens._engine.workers.plan import cut_units

    subproblems = nqueens._engine.assembly.split(17, quadrant_split_size(17))  # (the twin's too)
    jobs = {subproblem.cross for subproblem in subproblems}
    assert len(jobs) > 1
    pending = list(range(len(subproblems)))
    for wanted in (2, 8, 36, 64):
        cut = cut_units(subproblems, pending, wanted)
        assert sorted(i for unit in cut for i in unit) == pending
        assert len(cut) == wanted and all(cut)
        stretches = [
            1 + sum(subproblems[a].cross != subproblems[b].cross for a, b in zip(unit, unit[1:]))
            for unit in cut
        ]
        assert all(
            s == len({subproblems[i].cross for i in unit}) for s, unit in zip(stretches, cut)
        )
        assert sum(stretches) <= len(cut) + len(jobs)


def test_quadrant_runs_are_neighbours_in_the_split_and_as_long_as_they_may_be():
    from nqueens._engine.subproblems import QUADRANT_RUN, quadrant_split_size, runs

    for n in (16, 17):
        subproblems = nqueens._engine.assembly.split(n, quadrant_split_size(n))  # (the twin's too)
        every = list(range(len(subproblems)))
        for pending in (every, every[::3], [i for i in every if i % 10 != 4]):
            picked = [subproblems[i] for i in pending]
            starts = runs(picked)
            edges = list(zip(starts, [*starts[1:], len(picked)]))
            assert starts[0] == 0 and all(a < b for a, b in edges)
            for a, b in edges:
                run = picked[a:b]
                assert len(run) <= QUADRANT_RUN
                assert all(
                    (t.n, t.cross, t.first) == (u.n, u.cross, u.end) for u, t in zip(run, run[1:])
                )
            for a, b in edges[:-1]:  # a run ends where it must: full, or before a gap
                last, after = picked[b - 1], picked[b]
                gap = (after.n, after.cross, after.first) != (last.n, last.cross, last.end)
                assert gap or b - a == QUADRANT_RUN


def test_a_sized_engine_gets_a_first_round_then_units_by_the_pace_the_last_in_halves():
    from nqueens._engine.subproblems import quadrant_split_size
    from nqueens._engine.workers.engines import Engine
    from nqueens._engine.workers.plan import UNITS_PER_WORKER, Layout, work_of

    class Two(Engine):
        size = 2

    subproblems = nqueens._engine.assembly.split(16, quadrant_split_size(16))
    pending = list(range(len(subproblems)))
    layout = Layout(
        Two("two"), subproblems, pending, 0.02, lambda u: [0], None, random.Random(3), None
    )
    calls = list(layout.calls())
    laid = layout.laid
    works = [sum(work_of(subproblems[i]) for i in u.indices) for u in laid.payloads]
    regular = [w for w, again in zip(works, laid.again) if not again]
    whole = sum(work_of(t) for t in subproblems)
    assert calls[0] == [0, 1]  # the first round: a unit a worker, cut for the fewest
    assert all(abs(w - whole / (2 * UNITS_PER_WORKER)) < 0.05 * whole for w in regular[:2])
    assert sum(regular) == whole  # every subproblem once, and the checks besides
    middle, last = regular[2:-4], regular[-4:]  # the last round's 2 units in 4 halves
    assert len(middle) >= 2 and max(last) < 0.6 * min(middle)
    assert all(abs(w - min(middle) / 2) < 0.05 * min(middle) for w in last)


def test_units_balance_their_cost_against_the_wait_at_the_end():
    from nqueens._engine.workers.plan import ASSUMED_WORKERS, UNITS_PER_WORKER, unit_count

    assert unit_count(None, None, 0.004) == UNITS_PER_WORKER * ASSUMED_WORKERS
    assert unit_count(None, 8, 0.004) == unit_count(0.5, 8, 0.004) == 8 * UNITS_PER_WORKER
    # n = 20 on two workers, at 4 ms a unit: about 300 units of a second or so
    assert unit_count(360.0, 2, 0.004) == 300
    assert unit_count(360.0, 3, 0.004) % 3 == 0  # whole rounds of the workers
    # n = 22 on 256 workers: the units of about a second again
    assert 30_000 <= unit_count(36_000.0, 256, 0.004) <= 40_000


def test_units_are_checked_before_any_work(core):
    with pytest.raises(ValueError, match="units must be a positive int"):
        count(8, workers=map, units=0)
    with pytest.raises(TypeError, match="units"):
        count(8, workers=map, units=2.5)
    with pytest.raises(ValueError, match="not to threads"):
        count(8, workers=2, units=4)


def test_verify_is_checked_before_any_work(core):
    for bad, error in [(-0.1, ValueError), (1.5, ValueError), (float("nan"), ValueError)]:
        with pytest.raises(error, match="recount must be"):
            count(8, recount=bad)
    with pytest.raises(TypeError, match="recount must be a number"):
        count(8, recount="all")
    with pytest.raises(TypeError, match="recount must be a number"):
        count(8, recount=True)


# the journal keeps nothing wrong


@pytest.mark.parametrize("liar", [halving_all, adding_eight], ids=lambda f: f.__name__)
@pytest.mark.parametrize("depth", [None, 1])
def test_a_liar_commits_nothing_to_the_journal(native_core, tmp_path, liar, depth):
    path = tmp_path / "count.sqlite"
    n = 16 if depth is None else 12
    with pytest.raises(ExecutorError):
        count(n, workers=liar, journal=path, depth=depth)
    with sqlite3.connect(path) as db:
        kept = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    db.close()
    assert kept == 0  # the first call's check came before anything was kept
    assert count(n, workers=map, journal=path, depth=depth) == A000170[n]


def test_a_late_liar_loses_its_call_and_the_resume_is_exact(core, tmp_path):
    path = tmp_path / "count.sqlite"
    state = {"calls": 0}

    def late(func, items):
        state["calls"] += 1
        found = list(map(func, items))
        if state["calls"] >= 3:  # wrong from the third call on
            found = [
                r._replace(counts=tuple(c + u.subproblems[0].weight for c in r.counts))
                for r, u in zip(found, items)
            ]
        return found

    with pytest.raises(ExecutorError):
        count(12, workers=late, journal=path, depth=1, recount=1.0, units=200)
    assert count(12, workers=map, journal=path, depth=1) == A000170[12]


def journal_of(path, n=12, depth=1):
    assert count(n, workers=2, journal=path, depth=depth) == A000170[n]


def edit(path, *statements):
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)
    db.close()


@pytest.mark.parametrize(
    "statements",
    [
        ["INSERT INTO done VALUES (99999, '1000000', '0.1.0', 'cython', 0, 'x')"],
        ["UPDATE done SET count = '-8' WHERE task = 3"],
        ["UPDATE done SET count = CAST(count AS INTEGER) + 1000 WHERE task = 3"],
        ["UPDATE done SET count = '1_000' WHERE task = 3"],
        ["UPDATE done SET count = '١٢' WHERE task = 3"],
        ["UPDATE done SET count = '" + "9" * 4400 + "' WHERE task = 3"],
        ["UPDATE done SET task = -1 WHERE task = 3"],
        ["DELETE FROM done WHERE task = 3"],
        ["UPDATE meta SET value = 'True' WHERE key = 'unique'"],
        ["UPDATE meta SET value = '0.0.1' WHERE key = 'version'"],
        ["UPDATE done SET version = '0.0.1' WHERE task = 3"],
    ],
    ids=[
        "row-added",
        "negative",
        "raised",
        "underscores",
        "arabic-digits",
        "4400-digits",
        "subproblem-minus-one",
        "row-removed",
        "header-unique",
        "header-version",
        "row-version",
    ],
)
def test_a_journal_changed_by_hand_is_refused_never_summed(tmp_path, statements):
    path = tmp_path / "count.sqlite"
    journal_of(path)
    edit(path, *statements)
    with pytest.raises(JournalError, match="changed or damaged"):
        count(12, journal=path, depth=1)


def test_a_journal_of_an_older_format_is_refused_with_the_reason(tmp_path):
    path = tmp_path / "count.sqlite"
    journal_of(path)
    edit(path, "UPDATE meta SET value = 'nqueens-journal-1' WHERE key = 'format'")
    with pytest.raises(JournalError, match="older nqueens"):
        count(12, journal=path, depth=1)


def forge_release(path, version, wrong_task=None):
    # rows "counted by another release", with their checksums made right
    subproblems = nqueens.subproblems(12, depth=1)
    book = Journal(path, 12)
    try:
        book.bind(1, subproblems, False, "")
        for index, subproblem in enumerate(subproblems[:8]):  # as many as a resume recounts
            value = nqueens.count_subproblem(subproblem)
            if index == wrong_task:
                value += 2 * subproblem.weight
            book.record(index, value, "cython", False, version)
    finally:
        book.close()


def test_rows_of_another_release_are_recounted_before_a_resume_trusts_them(core, tmp_path):
    right = tmp_path / "right.sqlite"
    forge_release(right, "0.0.9")
    assert count(12, journal=right, depth=1) == A000170[12]
    wrong = tmp_path / "wrong.sqlite"
    forge_release(wrong, "0.0.9", wrong_task=7)
    with pytest.raises(JournalError, match=r"subproblem 7, counted by nqueens 0\.0\.9"):
        count(12, journal=wrong, depth=1)


def test_the_journal_records_who_counted_and_what_was_verified(core, tmp_path):
    path = tmp_path / "count.sqlite"
    assert count(12, workers=map, journal=path, depth=1, recount=0.1) == A000170[12]
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT version, core, verified FROM done").fetchall()
    db.close()
    assert {(v, c) for v, c, _ in rows} == {(nqueens.__version__, nqueens._select.IMPLEMENTATION)}
    assert 0 < sum(verified for _, _, verified in rows) < len(rows)


# finding 1: a journal of a plain count reused with placed queens


def test_a_plain_counts_journal_is_refused_for_placed_queens(native_core, tmp_path, cli):
    path = tmp_path / "j.sqlite"
    assert count(14, journal=path) == A000170[14]
    with pytest.raises(JournalError, match="placed queens"):
        count(14, placed={0: 0, 1: 2}, journal=path)
    result = cli("count", "14", "--place", "0:3", "--journal", str(path))
    assert result.returncode == 2 and "placed queens" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    other = tmp_path / "placed.sqlite"
    assert count(14, placed={0: 0, 1: 2}, journal=other) == 476
    assert count(14, placed={0: 0, 1: 2}, journal=other) == 476
    with pytest.raises(JournalError, match="placed queens"):
        count(14, journal=other)


# finding 3: one core work object in two threads


def test_a_work_object_shared_by_threads_is_refused_not_a_crash(core):
    script = textwrap.dedent(
        """
        import threading, sys
        import nqueens._engine.assembly as a
        from nqueens import _select
        q = _select.quadrants
        n = int(sys.argv[1])
        quarter = q.Quarter(n)
        scratch = q.Scratch(quarter)
        j = a.jobs(n)[0]
        found, refused = [], []
        def run():
            try:
                job = q.Job(n, j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, j.crosses)
                found.append(q.count_rows(quarter, job, 0, job.row_sets, bytearray(1), scratch))
            except RuntimeError as exc:
                refused.append(str(exc))
        threads = [threading.Thread(target=run) for _ in range(4)]
        [t.start() for t in threads]; [t.join() for t in threads]
        assert set(found) <= {int(sys.argv[2])} and len(found) + len(refused) == 4, found
        assert all("in use by another thread" in r for r in refused)
        tables = _select.bitsolver.Tables()
        subproblem = [(16, 1, (0, 15, 3), (2, 7, 0))]
        counts, refused = [], []
        def each():
            try:
                for _ in range(int(sys.argv[3])):
                    counted = _select.bitsolver.count_each(subproblem, bytearray(1), tables)
                    counts.append(tuple(counted))
            except RuntimeError as exc:
                refused.append(str(exc))
        threads = [threading.Thread(target=each) for _ in range(4)]
        [t.start() for t in threads]; [t.join() for t in threads]
        assert len(set(counts)) == 1, set(counts)
        print("ok")
        """
    )
    env = {**os.environ}
    n, repeats = 16, 50  # the compiled core's count takes 0.2 s; the twin's would take a minute
    if core.__name__.endswith("_py"):
        env["NQUEENS_PUREPYTHON"] = "1"
        n, repeats = 10, 3  # the twin takes 0.1 s for each of the shared table's counts
    args = [sys.executable, "-c", script, str(n), str(A000170[n]), str(repeats)]
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


def test_read_only_stop_buffers_are_read(core):
    j = nqueens._engine.assembly.jobs(8)[0]
    quarter = nqueens._select.quadrants.Quarter(8)
    q = nqueens._select.quadrants
    job = q.Job(8, j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, j.crosses)
    assert q.count_rows(quarter, job, 0, 70, bytes(1)) == 92
    assert core.count_solutions(8, bytes(1)) == 92
    assert core.count_each([(8, 1, (0,), (0,))], bytes(1), core.Tables()) == [4]


# finding 5: too little memory, on every path


@pytest.mark.native
@pytest.mark.parametrize(
    "kwargs",
    [
        {"workers": 2},
        {"workers": 2, "progress": True},
        {"journal": "j.sqlite"},
        {"journal": "j.sqlite", "workers": 2, "progress": True},
    ],
    ids=["threads", "progress", "journal", "journal-threads-progress"],
)
def test_without_memory_for_the_table_every_path_goes_row_by_row(monkeypatch, tmp_path, kwargs):
    def no_memory(n, stop=None):
        raise MemoryError("no memory for the quadrant table")

    monkeypatch.setattr(nqueens._select.quadrants, "Quarter", no_memory)
    monkeypatch.chdir(tmp_path)
    with pytest.warns(RuntimeWarning, match="counting row by row"):
        assert count(16, **kwargs) == A000170[16]


@pytest.mark.native
def test_without_memory_here_a_map_likes_results_are_checked_through_it(monkeypatch):
    def no_memory(n, stop=None):
        raise MemoryError("no memory for the quadrant table")

    # the workers build their own tables: here, only the checks need one
    assert count(16, workers=map) == A000170[16]
    monkeypatch.setattr(nqueens._select.quadrants, "Quarter", no_memory)
    monkeypatch.setattr(nqueens._engine.assembly, "_process_quarter", None)
    with (
        pytest.warns(RuntimeWarning, match="checked through the workers only"),
        pytest.raises(MemoryError),  # this process is the map's worker too
    ):
        count(16, workers=map)


@pytest.mark.native
def test_without_memory_here_an_executors_first_round_is_checked_through_it(monkeypatch):
    def no_memory(n, stop=None):
        raise MemoryError("no memory for the quadrant table")

    # the first round goes out before this process builds its table: without one,
    # it is checked, as the rest, through the workers (who keep their own tables)
    with ProcessPoolExecutor(2) as pool:
        assert count(16, workers=pool) == A000170[16]
        monkeypatch.setattr(nqueens._select.quadrants, "Quarter", no_memory)
        monkeypatch.setattr(nqueens._engine.assembly, "_process_quarter", None)
        with pytest.warns(RuntimeWarning, match="checked through the workers only"):
            assert count(16, workers=pool) == A000170[16]


@pytest.mark.native
def test_a_quadrant_journal_without_memory_says_so_in_one_line(monkeypatch, tmp_path):
    path = tmp_path / "j.sqlite"
    assert count(16, journal=path, recount=0, workers=map) == A000170[16]

    def no_memory(n, stop=None):
        raise MemoryError("no memory for the quadrant table")

    # a resume whose rows came from another core must recount a few: no table here
    monkeypatch.setattr(nqueens._select.quadrants, "Quarter", no_memory)
    monkeypatch.setattr(nqueens._select, "IMPLEMENTATION", "other")
    with pytest.raises(MemoryError, match="journal's split needs"):
        count(16, journal=path)


def test_one_table_per_process_shared_by_its_threads(native_core, monkeypatch, tmp_path):
    built = []
    real = nqueens._select.quadrants.Quarter

    def counted(n, stop=None):
        built.append(n)
        return real(n, stop)

    monkeypatch.setattr(nqueens._select.quadrants, "Quarter", counted)
    assert count(16, workers=2, journal=tmp_path / "j.sqlite", progress=True) == A000170[16]
    assert built == [16]
    built.clear()
    subproblems = nqueens.subproblems(16)[:20]
    results = []
    threads = [
        threading.Thread(
            target=lambda: results.append(sum(map(nqueens.count_subproblem, subproblems)))
        )
        for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and len(built) <= 1  # kept from an earlier test, or built once


@pytest.mark.slow
@pytest.mark.native
def test_under_a_memory_limit_n_22_falls_back_instead_of_failing():
    # the adversary's reproducer: ulimit -v 300000, count(22, workers=2) and estimate 22
    limit = "ulimit -v 300000; "
    est = subprocess.run(
        ["bash", "-c", limit + f"{sys.executable} -m nqueens estimate 22 --budget 1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert est.returncode == 0 and est.stdout.startswith("N = 22: about"), est.stderr
    process = subprocess.Popen(
        [
            "bash",
            "-c",
            limit + f"exec {sys.executable} -c 'import nqueens; nqueens.count(22, workers=2)'",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(8)
    alive = process.poll() is None
    process.kill()
    err = process.communicate()[1]
    assert alive, err
    assert "counting row by row" in err and "Traceback" not in err


# finding 6: estimate


def test_an_estimate_whose_probes_all_died_says_so_not_exact(native_core, cli):
    died = nqueens.Estimate(52, 0.0, float("inf"), 1e40, 1e39, 1, 8, False)
    assert "no probe of the 8 reached a solution" in str(died) and "exact" not in str(died)
    for n in ("52", "64"):
        result = cli("estimate", n, "--budget", "0.3", "--seed", "1")
        assert result.returncode == 0 and "exact" not in result.stdout, result.stdout
    assert nqueens.estimate(8, budget=0.1).exact and "(exact)" in str(nqueens.estimate(8))


@pytest.mark.parametrize("n", [23, 52, 64])
def test_an_estimate_keeps_to_its_budget(native_core, n):
    began = time.monotonic()
    nqueens.estimate(n, budget=0.3)
    assert time.monotonic() - began < 5  # was 8.9 s, 17 s, 28.6 s; a generous bound


def test_big_estimates_show_no_float_noise():
    found = nqueens.Estimate(30, 2.41999e32, 1e30, 1e9, 1e7, 1, 100, True)
    assert "242,000,000,000,000,000,000,000,000,000,000 solutions" in str(found)


def test_the_notice_before_a_long_count_says_a_range_where_the_pace_was_not_measured(
    monkeypatch, capsys
):
    from nqueens._engine import estimate as _estimate
    from nqueens.cli import _commands, build_parser

    unpaced = nqueens.Estimate(
        22, 2.7e12, 1e11, 6e3, 0.0, 1, 100, False, seconds_low=3.5e3, seconds_high=1.1e4
    )
    args = build_parser().parse_args(["count", "22"])
    monkeypatch.setattr(_estimate, "before_count", lambda *a, **k: unpaced)
    _commands._before_count(args, None, bar=False)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "between 58 minutes and 3 hours on 1 thread" in err
    paced = unpaced._replace(paced=True, seconds=6.2e3)
    monkeypatch.setattr(_estimate, "before_count", lambda *a, **k: paced)
    _commands._before_count(args, None, bar=False)
    assert "will take about 103 minutes on 1 thread" in capsys.readouterr().err


# finding 7: Ctrl-C during the table's build


@pytest.mark.native
def test_ctrl_c_stops_the_table_build_at_once():
    script = "import nqueens; nqueens.count(22)"
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C's default, even where this test runs as a background job (SIGINT ignored)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        time.sleep(1.5)  # imported, and building the 551 MB table (4.7 s in all)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        err = process.communicate(timeout=60)[1]
    finally:
        process.kill()
        process.wait()
    assert time.monotonic() - sent < 2.5, err  # was up to 5 s
    assert "KeyboardInterrupt" in err


# finding 8, 9, 10: the command line and the splits


def test_solve_with_placed_queens_beyond_the_completion_limit_is_a_usage_error(cli):
    for n in ("1001", "5000"):
        result = cli("solve", n, "--place", "0:0", "--limit", "1")
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert len(result.stderr.splitlines()) == 1 and "1000" in result.stderr


def test_the_default_split_is_bounded_for_large_boards(native_core):
    from nqueens._engine.subproblems import BORDERS_MAX_N, MAX_SUBPROBLEMS

    subproblems = nqueens.subproblems(30)
    assert len(subproblems) <= MAX_SUBPROBLEMS
    core = nqueens._select.bitsolver
    assert len(core.constellations(BORDERS_MAX_N)) <= MAX_SUBPROBLEMS
    assert len(core.constellations(BORDERS_MAX_N + 1)) > MAX_SUBPROBLEMS
    with pytest.raises(ValueError, match="cannot finish anyway"):
        count(64, progress=True)
    with pytest.raises(ValueError, match="cannot finish anyway"):
        nqueens.subproblems(64)


def test_huge_splits_are_refused_by_the_command_before_any_work(cli, tmp_path):
    result = cli("count", "64", "--journal", str(tmp_path / "j.sqlite"))
    assert result.returncode == 2 and "cannot finish anyway" in result.stderr
    assert not (tmp_path / "j.sqlite").exists()


@pytest.mark.parametrize("kind", [Subproblem, QuadrantTask])
def test_every_way_of_making_a_task_checks_it(native_core, kind):
    good = Subproblem(8, 1, (0,), (3,)) if kind is Subproblem else QuadrantTask(16, 0, 0, 5)
    bad = {"rows": (9,)} if kind is Subproblem else {"end": 10**9}
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(good, protocol)) == good
    with pytest.raises(ValueError):
        good._replace(**bad)
    with pytest.raises(ValueError):
        kind._make({**good._asdict(), **bad}.values())
    if kind is QuadrantTask:
        with pytest.raises(ValueError, match="first and end"):
            QuadrantTask(16, 0, 5, 2)


def test_a_task_pickled_with_old_protocols_is_checked_when_loaded(native_core):
    for protocol in (0, 1):
        forged = pickle.dumps(tuple.__new__(QuadrantTask, (16, 0, 5, 2)), protocol)
        with pytest.raises(ValueError):
            pickle.loads(forged)
        forged = pickle.dumps(tuple.__new__(Subproblem, (8, 1, (9,), (0,))), protocol)
        with pytest.raises(ValueError):
            pickle.loads(forged)


def test_a_worker_alternating_boards_needs_no_recursion(native_core):
    subproblems = [nqueens.subproblems(12)[0], nqueens.subproblems(14)[0]] * 1500
    found = nqueens._engine.subproblems.count_run(subproblems, bytearray(1))
    assert found == [nqueens.count_subproblem(t) for t in subproblems[:2]] * 1500


def test_a_journal_on_stdout_is_refused(tmp_path):
    out = tmp_path / "out.txt"
    with open(out, "w") as stdout:
        result = subprocess.run(
            [sys.executable, "-m", "nqueens", "count", "8", "--journal", "/dev/stdout"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert result.returncode == 2 and "/proc" in result.stderr
    assert out.read_text() == ""


def test_sigterm_during_bench_exits_143(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens", "bench", "--quick", "--out", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)
    process.send_signal(signal.SIGTERM)
    err = process.communicate(timeout=60)[1]
    assert process.returncode == 143, err
    assert err.splitlines()[-1] == "nqueens: terminated"


def test_a_full_disk_mid_count_is_status_74(tmp_path):
    script = textwrap.dedent(
        """
        import sys, nqueens._engine.journal as j
        real = j.Journal.record
        calls = []
        def full(self, *args):
            calls.append(1)
            if len(calls) > 5:
                raise j.JournalWriteError(f"{self.path} cannot be written (disk is full)")
            return real(self, *args)
        j.Journal.record = full
        from nqueens.cli import main
        sys.exit(main(sys.argv[1:]))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script, "count", "12", "--journal", str(tmp_path / "j.sqlite")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 74 and "disk is full" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_bench_refuses_a_fifo_to_compare_or_to_write_json(tmp_path, cli):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = cli("bench", "--quick", "--compare", str(fifo), "--out", str(tmp_path))
    assert result.returncode == 2 and "not a regular file" in result.stderr
    result = cli("bench", "--quick", "--json", str(fifo), "--out", str(tmp_path))
    assert result.returncode == 2 and "not a regular file" in result.stderr
    assert fifo.is_fifo()


def test_an_output_folder_in_proc_is_refused_before_any_work(cli):
    result = cli("solve", "6", "--format", "svg", "--out", "/proc")
    assert result.returncode == 2 and "not writable" in result.stderr
    assert len(result.stderr.splitlines()) == 1


class Renumbering:
    """A pool (imap_unordered, and its bound map) that shifts the numbers of its results."""

    def __init__(self, shift):
        self.shift = shift

    def map(self, func, items):
        return list(map(func, items))

    def imap_unordered(self, func, items):
        for position, answer in map(func, items):
            yield position + self.shift, answer


def test_a_pool_that_renumbers_its_results_is_refused(core):
    from nqueens._engine.workers.engines import Pool, engine_for

    assert type(engine_for(Renumbering(0).map)) is Pool
    assert count(12, workers=Renumbering(0).map, depth=1) == A000170[12]  # honest: exact
    with pytest.raises(ExecutorError, match="not a numbered result"):
        count(12, workers=Renumbering(10**6).map, depth=1)
    with pytest.raises(ExecutorError, match=r"other subproblems|twice|without a result"):
        count(12, workers=Renumbering(1).map, depth=1)


def test_the_symmetric_counts_are_worked_out_once_per_call(native_core, monkeypatch):
    from nqueens import _select

    calls = []
    real = _select.bitsolver.count_symmetric
    monkeypatch.setattr(
        _select.bitsolver, "count_symmetric", lambda n, **kw: calls.append(n) or real(n, **kw)
    )
    assert count(12, workers=map, unique=True) == A002562[12]
    assert calls == [12]  # the check of the total's, and then Burnside's count, alike


# answers that hold: the last ways to a wrong total, a lost answer or a traceback


class WrongThenTooLongToPrint(HalvingOneUnit):
    """A map-like that halves one unit's counts (plausible, so journalled unchecked
    with recount=0) and gives the last unit of each call a count of 5,000 digits."""

    def __call__(self, func, items):
        found = super().__call__(func, items)
        last = found[-1]
        found[-1] = last._replace(counts=(10**5000,) * len(last.counts))
        return found


def test_a_count_too_long_to_print_is_refused_and_forgets_the_unchecked_rows(native_core, tmp_path):
    journal = tmp_path / "count.sqlite"
    with pytest.raises(ExecutorError, match="an int of 16,610 bits"):
        count(16, workers=WrongThenTooLongToPrint(), journal=journal, recount=0, units=8)
    # the halved row went with the refused call: the resume counts it again, right
    assert count(16, workers=map, journal=journal) == A000170[16]


class Echo(tuple):
    """A subproblem echoed back by a worker whose comparison or repr raises."""

    def __eq__(self, other):
        raise RuntimeError("no comparing me")

    __hash__ = tuple.__hash__

    def __repr__(self):
        raise RuntimeError("no showing me")


class Version(str):
    """A worker's release as a str subclass."""


@pytest.mark.parametrize("change", ["echo", "version", "core"])
def test_strange_objects_in_a_result_are_refused_as_any_wrong_result(native_core, change):
    def strange(func, items):
        found = list(map(func, items))
        first = found[0]
        if change == "echo":
            found[0] = first._replace(subproblems=tuple(Echo(t) for t in first.subproblems))
        elif change == "version":
            found[0] = first._replace(version=Version(first.version))
        else:
            found[0] = first._replace(implementation=Version(first.implementation))
        return found

    with pytest.raises(ExecutorError):
        count(16, workers=strange)


# (the pool forks beside the other counts' threads: Python 3.12 on warns of it)
@pytest.mark.filterwarnings("ignore:.*multi-threaded.*fork:DeprecationWarning")
def test_concurrent_counts_on_one_new_forking_pool_are_each_exact(native_core):
    import multiprocessing

    for _ in range(3):
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            found = {}

            def one(k, pool=pool, found=found):
                found[k] = count(14 + k % 2, workers=pool)

            threads = [threading.Thread(target=one, args=(k,)) for k in range(3)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert found == {k: A000170[14 + k % 2] for k in range(3)}


def test_one_walk_shared_by_threads_hands_out_every_solution_once(native_core):
    iterator = nqueens.solutions(16, limit=100_000)
    taken: list[list[tuple[int, ...]]] = [[] for _ in range(4)]
    errors = []

    def take(mine):
        try:
            mine.extend(iterator)
        except Exception as exc:  # none expected: a lost answer must not pass silently
            errors.append(exc)

    threads = [threading.Thread(target=take, args=(mine,)) for mine in taken]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [p for mine in taken for p in mine]
    assert errors == [] and len(every) == 100_000 and len(set(every)) == 100_000
    assert sorted(every) == list(nqueens.solutions(16, limit=100_000))


@pytest.mark.parametrize("n", [2, 8, 15])
def test_a_limit_of_any_size_gives_every_solution(core, n):
    for limit in (2**63, 2**64 + 1, 10**100):
        assert len(list(nqueens.solutions(n, limit=limit))) == A000170[n]


def test_solve_takes_a_limit_of_any_size(cli):
    result = cli("solve", "8", "--limit", "9223372036854775808", "--format", "csv")
    assert result.returncode == 0 and result.stderr == ""
    assert len(result.stdout.splitlines()) == 92


def test_solve_with_any_solver_lists_in_lexicographic_order(cli):
    mine = cli("solve", "8", "--solver", "pruned_permutations", "--limit", "5", "--format", "csv")
    core = cli("solve", "8", "--limit", "5", "--format", "csv")
    assert mine.returncode == 0 and mine.stdout == core.stdout


def _closing(fd):
    return lambda: os.close(fd)


@pytest.mark.parametrize(
    "args",
    [
        ["count", "8"],
        ["solve", "6"],
        ["construct", "8"],
        ["verify", "1", "3", "0", "2"],
        ["--version"],
    ],
)
def test_a_closed_standard_output_gives_one_line_and_status_74(args):
    result = subprocess.run(
        [sys.executable, "-m", "nqueens", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_closing(1),
        timeout=120,
    )
    assert result.returncode == 74, result.stderr
    assert result.stderr.count("\n") == 1 and "cannot write the output" in result.stderr


def test_a_closed_standard_error_still_counts():
    result = subprocess.run(
        [sys.executable, "-m", "nqueens", "count", "8"],
        capture_output=True,
        text=True,
        preexec_fn=_closing(2),
        timeout=120,
    )
    assert (result.returncode, result.stdout) == (0, "92\n")


def test_a_progress_bar_without_standard_error_is_left_out(native_core, monkeypatch):
    monkeypatch.setattr(sys, "stderr", None)
    assert count(14, progress=True) == A000170[14]


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["count", "--help"], ["solve", "8"]])
def test_output_into_a_full_device_exits_74(args):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "nqueens", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert result.returncode == 74 and result.stderr.count("\n") == 1, result.stderr


def _loaded(pid, name):
    try:
        with open(f"/proc/{pid}/maps") as maps:
            return name in maps.read()
    except OSError:
        return False


@pytest.mark.native
@pytest.mark.parametrize("how", ["script", "module"])
@pytest.mark.parametrize(
    ("signum", "status", "word"), [(2, 130, "interrupted"), (15, 143, "terminated")]
)
def test_a_signal_while_the_command_imports_gives_one_line(how, signum, status, word):
    # sent as soon as the compiled core is loaded: inside the package's import
    import shutil

    script = shutil.which("nqueens", path=os.path.dirname(sys.executable))
    command = [script] if how == "script" else [sys.executable, "-m", "nqueens"]
    for _ in range(3):
        process = subprocess.Popen(
            [*command, "count", "18"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        while process.poll() is None and not _loaded(process.pid, "_bitsolver"):
            time.sleep(0.0005)
        process.send_signal(signum)
        out, err = process.communicate(timeout=120)
        assert (process.returncode, out, err) == (status, "", f"nqueens: {word}\n")


def test_counts_that_cannot_finish_are_refused_at_once(cli):
    for args in (["count", "64"], ["count", "30", "--workers", "2"], ["count", "28"]):
        result = cli(*args)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1, result.stderr
        assert "more than a year: add --anyway to start it all the same" in result.stderr
    result = cli("count", "64")
    assert "would take more than a million years" in result.stderr


def test_a_reference_solver_that_cannot_finish_is_refused_and_a_slow_one_said(cli):
    result = cli("count", "30", "--solver", "bitmask")
    assert result.returncode == 2 and "--anyway" in result.stderr
    assert result.stderr.count("\n") == 1
    result = cli("count", "8", "--solver", "permutations")
    assert (result.returncode, result.stdout, result.stderr) == (0, "92\n", "")


def test_the_api_warns_of_a_count_beyond_a_year_before_any_work(native_core):
    # (the suite's warnings are errors: the count never starts)
    with pytest.raises(nqueens.LongCountWarning, match="more than a year"):
        count(30)


def test_the_notice_is_of_the_count_that_runs_with_its_placed_queens(cli):
    solution = nqueens.construct(20)
    places = [f"{r}:{c}" for r, c in enumerate(solution[:16])]
    args = ["count", "20"] + [word for place in places for word in ("--place", place)]
    result = cli(*args)
    assert result.returncode == 0 and result.stderr == ""
    assert int(result.stdout) >= 1


def test_a_journal_in_a_read_only_folder_exits_74(cli, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = cli("count", "12", "--journal", str(folder / "j.sqlite"))
    finally:
        folder.chmod(0o700)
    assert result.returncode == 74 and "not writable" in result.stderr


def test_a_journal_of_quadrants_resumed_with_a_depth_says_so(native_core, tmp_path):
    journal = tmp_path / "j.sqlite"
    assert count(14, journal=journal) == A000170[14]
    with pytest.raises(JournalError, match="by quadrant assembly, no depth, not depth 2"):
        count(14, journal=journal, depth=2)


def test_a_journal_behind_a_loop_of_links_says_so(tmp_path):
    loop = tmp_path / "loop"
    os.symlink(loop, loop)
    with pytest.raises(JournalError, match="symbolic links") as caught:
        count(8, journal=loop)
    assert "/proc" not in str(caught.value)


def test_the_progress_bars_time_left_starts_from_the_estimate(capsys):
    from nqueens._engine.counting import _progress_bar

    bar = _progress_bar(100, 0, expected=3600.0)
    assert bar.format_dict["left"] in ("59:59", "1:00:00")  # nothing done: the estimate's
    bar.update(5)  # 5% done in an instant: the pace (nothing left) has a quarter's say
    minutes, seconds = map(int, bar.format_dict["left"].split(":"))
    assert 2500 < 60 * minutes + seconds <= 0.75 * 0.95 * 3600 + 1
    bar.close()
    plain = _progress_bar(100, 0)
    assert plain.format_dict["left"] == "?"  # no estimate, nothing done: nothing to say
    plain.close()
    assert "subproblem" in capsys.readouterr().err


def test_the_journal_file_keeps_its_format_names(tmp_path):
    # journals written by earlier releases open: the file's table and header keep the
    # names of the format (a subproblem's index is the column "task")
    import contextlib

    path = tmp_path / "count.sqlite"
    assert count(10, journal=path, depth=1) == A000170[10]
    with contextlib.closing(sqlite3.connect(path)) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(done)")]
        keys = {key for (key,) in db.execute("SELECT key FROM meta")}
    assert columns == ["task", "count", "version", "core", "verified", "checksum"]
    assert {"format", "n", "root", "depth", "tasks", "split", "unique", "version"} <= keys
