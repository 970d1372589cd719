"""The quadrant core against its twin, function by function, and both against oracles."""

from __future__ import annotations

import array
import concurrent.futures
import functools
import itertools
import pickle
import random
import sqlite3
import sys

import pytest
from hypothesis import given, strategies as st

import nqueens
from nqueens import _quadrants_py
from nqueens._engine import assembly as _assembly, counting as _counting
from nqueens._oeis import A000170, A002562

try:
    from nqueens import _quadrants
except ImportError:  # pragma: no cover - conftest fails loudly without --no-native
    _quadrants = None  # type: ignore[assignment]

_CORES = [
    pytest.param("cython", marks=pytest.mark.native),
    pytest.param("python", marks=pytest.mark.twin),
]


@pytest.fixture(params=_CORES)
def quadrants(request, monkeypatch):
    module = _quadrants if request.param == "cython" else _quadrants_py
    monkeypatch.setattr("nqueens._select.quadrants", module)
    return module


def core_job(module, n, j):
    """The core's form of an _assembly job."""
    return module.Job(n, j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, j.crosses)


def count_by_quadrants(module, n):
    quarter = module.Quarter(n)
    stop = bytearray(1)
    total = 0
    for j in _assembly.jobs(n):
        job = core_job(module, n, j)
        total += j.weight * module.count_rows(quarter, job, 0, job.row_sets, stop)
    return total


def brute_quarter(h):
    # every placement of non-attacking queens on an h x h board, at most one a row
    # and a column: by trying every partial map of rows to columns
    found = {}
    for k in range(h + 1):
        for rows in itertools.combinations(range(h), k):
            for cols in itertools.permutations(range(h), k):
                queens = list(zip(rows, cols))
                if any(abs(r1 - r2) == abs(c1 - c2) for (r1, c1), (r2, c2)
                       in itertools.combinations(queens, 2)):  # fmt: skip
                    continue
                key = (sum(1 << r for r in rows), sum(1 << c for c in cols))
                d1 = sum(1 << (r + c) for r, c in queens)
                d2 = sum(1 << (r - c + h - 1) for r, c in queens)
                found.setdefault(key, []).append((d1, d2))
    return found


@pytest.mark.parametrize("n", [4, 6, 8, 10, 11])
def test_the_quarter_table_holds_every_partial_placement(quadrants, n):
    quarter = quadrants.Quarter(n)
    h = n // 2
    expected = brute_quarter(h)
    assert quarter.size == sum(map(len, expected.values()))
    for rows, cols in itertools.product(range(1 << h), repeat=2):
        assert sorted(quarter.placements(rows, cols)) == sorted(expected.get((rows, cols), []))


@pytest.mark.native
@pytest.mark.parametrize("n", range(4, 14))
def test_core_and_twin_list_the_same_half_boards(n):
    rng = random.Random(n)
    core_quarter, twin_quarter = _quadrants.Quarter(n), _quadrants_py.Quarter(n)
    for j in _assembly.jobs(n):
        positions = [r for r in range(n) if j.rows >> r & 1]
        k = bin(j.east).count("1")
        for _ in range(6):
            east_rows = sum(1 << r for r in rng.sample(positions, k))
            for east, rows, cols in ((True, east_rows, j.east),
                                     (False, j.rows ^ east_rows, j.west)):  # fmt: skip
                for mode, plain_class in itertools.product(_quadrants.Mode, range(3)):
                    assert _quadrants_py.Mode(mode) == mode
                    args = (east, rows, cols, j.holes1, j.holes2, mode, plain_class)
                    got = _quadrants.packed_halves(core_quarter, *args)
                    want = _quadrants_py.packed_halves(twin_quarter, *args)
                    assert sorted(got[0]) == sorted(want[0])
                    assert [sorted(x) for x in got[1]] == [sorted(x) for x in want[1]]


@pytest.mark.native
@given(st.data())
def test_core_and_twin_list_the_same_half_boards_for_any_rows_and_columns(data):
    # rows and columns of sizes that cannot make a half-board too (none): the core
    # lists a south quadrant's placements only for column sets as large as its rows,
    # and must find none, never stale or unset ones, for the others
    n = data.draw(st.integers(4, 13))
    h = n // 2
    core_quarter, twin_quarter = _quarters(n)
    for _ in range(4):
        rows = data.draw(st.integers(0, (1 << n) - 1)) & ~((n % 2) << h)
        args = (
            data.draw(st.booleans()),
            rows,
            data.draw(st.integers(0, (1 << h) - 1)),
            sum(1 << d for d in data.draw(st.sets(st.integers(0, 2 * n - 2), max_size=3))),
            sum(1 << d for d in data.draw(st.sets(st.integers(0, 2 * n - 2), max_size=3))),
            data.draw(st.sampled_from(list(_quadrants.Mode))),
            data.draw(st.integers(0, 2)),
        )
        got = _quadrants.packed_halves(core_quarter, *args)
        want = _quadrants_py.packed_halves(twin_quarter, *args)
        assert sorted(got[0]) == sorted(want[0])
        assert [sorted(x) for x in got[1]] == [sorted(x) for x in want[1]]


@functools.cache
def _quarters(n: int) -> tuple[object, object]:
    # each n's tables, core and twin, made once for the examples above
    return _quadrants.Quarter(n), _quadrants_py.Quarter(n)


@pytest.mark.native
@given(
    st.lists(st.integers(0, (1 << 34) - 1), max_size=1200),
    st.lists(st.integers(0, (1 << 34) - 1), max_size=40),
    st.integers(0, 3),
)
def test_sliced_pair_counting_matches_the_pairs_one_by_one(stored, items, sparse):
    # sparse masks, so that many pairs are disjoint; sizes across the groups of 512
    stored = [s & (s >> sparse) & (s >> 2 * sparse) for s in stored]
    items = [i & (i >> sparse) for i in items] + [0]
    expected = sum(1 for s in stored for i in items if not s & i)
    assert _quadrants.count_pairs(stored, items, 34) == expected
    assert _quadrants_py.count_pairs(stored, items, 34) == expected


@pytest.mark.native
def test_pair_counting_by_slices_and_buckets_with_many_items():
    # from 4,096 stored masks the core sorts both sides into buckets by cut bits
    rng = random.Random(5)
    mask = lambda: rng.getrandbits(30) & rng.getrandbits(30) & rng.getrandbits(30)  # noqa: E731
    for size in (127, 128, 511, 512, 513, 575, 576, 1100, 2047, 2048, 5000, 17000):
        stored = [mask() for _ in range(size)]
        items = [mask() for _ in range(150)] + [0]
        expected = sum(1 for s in stored for i in items if not s & i)
        assert _quadrants.count_pairs(stored, items, 30) == expected


@pytest.mark.native
@pytest.mark.parametrize("period", [1, 2, 9, 10, 11])
def test_pair_counting_in_buckets_is_exact_whatever_the_sample_shows(period):
    # the cut bits are chosen from a sample of each side (every step-th mask):
    # masks whose bits change with the index, in step with the sample or not,
    # mislead the choice, never the count
    rng = random.Random(period)
    stored = [
        (0x3FF << 20 if i % period == 0 else 0x3FF) & rng.getrandbits(30) for i in range(6000)
    ]
    items = [(0x3FF if i % period == 0 else 0x3FF << 10) & rng.getrandbits(30) for i in range(700)]
    expected = sum(1 for s in stored for i in items if not s & i)
    assert _quadrants.count_pairs(stored, items, 30) == expected


@pytest.mark.native
@pytest.mark.parametrize("n", range(4, 12))
def test_core_and_twin_count_every_task_alike(n):
    core_quarter, twin_quarter = _quadrants.Quarter(n), _quadrants_py.Quarter(n)
    stop = bytearray(1)
    for j in _assembly.jobs(n):
        core_job_, twin_job = core_job(_quadrants, n, j), core_job(_quadrants_py, n, j)
        size = core_job_.row_sets
        assert size == twin_job.row_sets == _assembly.row_sets(j)
        cuts = sorted({0, size, size // 3, size // 2})
        for first, end in zip(cuts, cuts[1:]):
            assert _quadrants.count_rows(
                core_quarter, core_job_, first, end, stop
            ) == _quadrants_py.count_rows(twin_quarter, twin_job, first, end, stop)


@pytest.mark.native
@pytest.mark.parametrize("n", [14, 15, 16, 17])
def test_a_scratch_that_keeps_a_jobs_north_placements_counts_as_one_that_does_not(n):
    # from 1024 row sets in one call the core keeps the job's north placements in
    # the Scratch for the calls after it; short calls on a fresh Scratch each place
    # them row set by row set: every job, and a Scratch moved from job to job, agree
    quarter = _quadrants.Quarter(n)
    stop = bytearray(1)
    kept = _quadrants.Scratch(quarter)
    jobs = [core_job(_quadrants, n, j) for j in _assembly.jobs(n)]
    assert max(job.row_sets for job in jobs) >= 1024  # the memo is made
    for job in jobs[:6]:
        size = job.row_sets
        whole = _quadrants.count_rows(quarter, job, 0, size, stop, kept)
        again = _quadrants.count_rows(quarter, job, 0, min(size, 300), stop, kept)
        step = 511
        parts = sum(
            _quadrants.count_rows(quarter, job, a, min(size, a + step), stop)
            for a in range(0, size, step)
        )
        assert whole == parts
        assert again == _quadrants.count_rows(quarter, job, 0, min(size, 300), stop)
        # short calls that say how many they are (a unit's subproblems) make it too
        told = _quadrants.Scratch(quarter)
        planned = sum(
            _quadrants.count_rows(quarter, job, a, min(size, a + 7), stop, told, size)
            for a in range(0, size, 7)
        )
        assert planned == whole


def test_planned_is_checked_alike_and_changes_no_count(quadrants):
    quarter = quadrants.Quarter(8)
    job = core_job(quadrants, 8, _assembly.jobs(8)[0])
    for planned in (0, 1, 10**6, 2**64 - 1):
        assert quadrants.count_rows(quarter, job, 0, 70, bytearray(1), None, planned) == 92
    with pytest.raises(OverflowError):
        quadrants.count_rows(quarter, job, 0, 70, bytearray(1), None, -1)
    with pytest.raises(TypeError):
        quadrants.count_rows(quarter, job, 0, 70, bytearray(1), None, 2.5)


@pytest.mark.parametrize("n", range(4, 12))
def test_both_cores_count_every_board_exactly(quadrants, n):
    assert count_by_quadrants(quadrants, n) == A000170[n]


@pytest.mark.native
@pytest.mark.parametrize("n", range(12, 17))
def test_the_core_counts_larger_boards_exactly(n):
    assert count_by_quadrants(_quadrants, n) == A000170[n]


@pytest.mark.parametrize("n", range(4, 16))
def test_the_crosses_are_one_per_orbit(n):
    found = _assembly.crosses(n)
    if n % 2 == 0:
        assert found == [_assembly.Cross(1, (), True)]
        return
    h = n // 2
    every = [(a, b) for a in range(n) for b in range(n)
             if a != h and b != h and abs(a - h) != abs(b - h)]  # fmt: skip
    assert sum(c.weight for c in found) == 1 + len(every)
    assert found[0].queens == ((h, h),) and found[0].symmetric
    assert all(c.weight == 8 and not c.symmetric for c in found[1:])
    for cross in found[1:]:  # each counted as the image crosses() says
        (middle_row, c), (r, middle_column) = cross.queens
        assert middle_row == middle_column == h and r < c < h


def held_crosses(n, j):
    """A job's crosses as (c, a): the middle column's queen at (c, h), the middle row's
    at (h, a)."""
    return [divmod(x, n // 2) for x in range(64) if j.crosses >> x & 1]


def by_rows(n):
    """The crosses off the centre in a job for each row c of the middle column's
    queen (placed: its row not free), as jobs() makes them from 17 to GROUPED_MAX_N."""
    h, groups = n // 2, {}
    for j in _assembly.jobs(n)[1:]:
        for c, a in held_crosses(n, j):
            groups[c] = groups.get(c, 0) | 1 << (c * h + a)
    return [_assembly.job(n, _assembly.Cross(8, ((c, h),), False))._replace(crosses=bits)
            for c, bits in sorted(groups.items())]  # fmt: skip


@pytest.mark.parametrize("n", [5, 7, 9, 11, 13, 15, 17, 19, 21])
def test_the_jobs_hold_each_cross_once(n):
    # the crosses off the centre, each as its image across the main diagonal: one
    # job up to SHARED_MAX_N, a job for each row of the middle column's queen up to
    # GROUPED_MAX_N; beyond, a job each
    found, crosses = _assembly.jobs(n), _assembly.crosses(n)
    h = n // 2
    assert found[0] == _assembly.job(n, crosses[0]) and found[0].crosses == 0
    if n > _assembly.GROUPED_MAX_N:
        assert found == [_assembly.job(n, cross) for cross in crosses]
        return
    if n <= _assembly.SHARED_MAX_N:
        (shared,) = found[1:]
        free, half = ((1 << n) - 1) & ~(1 << h), (1 << h) - 1
        assert shared == _assembly.Job(8, free, half, half, 0, 0, False, shared.crosses)
    else:
        assert found[1:] == by_rows(n)
    held = [cross for j in found[1:] for cross in held_crosses(n, j)]
    assert all(0 < c < h and a < c for c, a in held)
    assert sorted(held) == sorted((c, a) for cross in crosses[1:]
                                  for (_, c), (a, _) in [cross.queens])  # fmt: skip


def count_crosses_alone(module, n, j):
    """A job's crosses counted one by one, each a job of its own, both queens placed."""
    quarter, stop = module.Quarter(n), bytearray(1)
    h, total = n // 2, 0
    for c, a in held_crosses(n, j):
        job = core_job(module, n, _assembly.job(n, _assembly.Cross(8, ((h, a), (c, h)), False)))
        total += module.count_rows(quarter, job, 0, job.row_sets, stop)
    return total


def count_in_parts(module, n, j):
    """A job's count in three calls, in ranges of its row sets."""
    quarter, stop = module.Quarter(n), bytearray(1)
    job = core_job(module, n, j)
    cuts = sorted({0, job.row_sets // 3, job.row_sets})
    return sum(module.count_rows(quarter, job, a, b, stop) for a, b in zip(cuts, cuts[1:]))


@pytest.mark.parametrize("n", [5, 7, 9, 11])
def test_a_job_of_crosses_counts_as_its_crosses_one_by_one(quadrants, n):
    # both forms: every cross off the centre at once (each row set counting those
    # whose row c it leaves free), and those of one row c (its queen placed)
    (shared,) = _assembly.jobs(n)[1:]
    assert count_in_parts(quadrants, n, shared) == count_crosses_alone(quadrants, n, shared)
    grouped = by_rows(n)
    assert len(grouped) == n // 2 - 1
    for j in grouped:
        assert count_in_parts(quadrants, n, j) == count_crosses_alone(quadrants, n, j)
    assert sum(count_in_parts(quadrants, n, j) for j in grouped) == count_in_parts(
        quadrants, n, shared
    )


@pytest.mark.native
@pytest.mark.parametrize("n", [13, 15, 17])
def test_the_core_counts_a_job_of_crosses_as_its_crosses(n):
    quarter, stop = _quadrants.Quarter(n), bytearray(1)
    grouped = by_rows(n)
    jobs = [grouped[0], grouped[-1]] if n == 17 else _assembly.jobs(n)[1:] + grouped[:2]
    for j in jobs:  # (at 17 the fewest and most crosses)
        job = core_job(_quadrants, n, j)
        together = _quadrants.count_rows(quarter, job, 0, job.row_sets, stop)
        assert together == count_crosses_alone(_quadrants, n, j)


@pytest.mark.native
@pytest.mark.parametrize("workers", [1, 2, 3])
@pytest.mark.parametrize("n", [14, 15, 16])
def test_count_takes_the_quadrant_core_and_is_exact(n, workers, monkeypatch):
    calls = []
    real = _counting._Count._by_quadrants
    monkeypatch.setattr(_counting._Count, "_by_quadrants", lambda *a: calls.append(a) or real(*a))
    assert nqueens.count(n, workers=workers) == A000170[n]
    assert nqueens.count(n, workers=workers, unique=True) == A002562[n]
    assert len(calls) == 2


@pytest.mark.native
@pytest.mark.slow
@pytest.mark.parametrize("n", [17, 18])
def test_seventeen_and_eighteen_by_quadrants(n):
    assert nqueens.count(n, workers=-1) == A000170[n]
    assert nqueens.count(n, unique=True, workers=-1) == A002562[n]


def test_bad_arguments_are_refused_alike(quadrants):
    with pytest.raises(ValueError):
        quadrants.Quarter(3)
    with pytest.raises(ValueError):
        quadrants.Quarter(quadrants.MAX_N + 1)
    with pytest.raises(TypeError):
        quadrants.Quarter(8.5)
    with pytest.raises(ValueError, match="stop must hold"):
        quadrants.Quarter(8, bytearray(0))
    with pytest.raises(ValueError, match="middle row"):  # n = 9's row 4 holds no quadrant
        quadrants.packed_halves(quadrants.Quarter(9), True, 1 << 4, 1, 0, 0, 0, 1)
    quarter = quadrants.Quarter(8)
    with pytest.raises(ValueError):
        quarter.placements(16, 0)
    j = _assembly.jobs(8)[0]
    fields = (j.rows, j.west, j.east, 0, 0, True)
    job = quadrants.Job(8, *fields)
    attributes = ("rows", "west", "east", "holes1", "holes2", "symmetric")
    assert tuple(getattr(job, name) for name in attributes) == fields  # as it was given
    assert quadrants.count_rows(quarter, job, 0, 70, bytearray(1)) == 92
    for bad in ((1 << 8, *fields[1:]), (j.rows, 1 << 4, *fields[2:]), (j.rows, 7, *fields[2:])):
        with pytest.raises(ValueError):
            quadrants.Job(8, *bad)
    for bad_n in (3, quadrants.MAX_N + 1):
        with pytest.raises(ValueError):
            quadrants.Job(bad_n, *fields)
    # crosses: an odd board, a job without symmetry, the middle row not free;
    # each c north of the middle row, off the edge, its a a free west column, a != c;
    # every c free (as many free rows as columns), or one c not free, its
    # diagonals held (one free row fewer)
    h = 4
    (shared,) = _assembly.jobs(9)[1:]
    every = (shared.rows, shared.west, shared.east, 0, 0, False, shared.crosses)
    assert quadrants.Job(9, *every).crosses == shared.crosses == 0b0111_0011_0001_0000
    one = by_rows(9)[-1]  # c = 3: a = 0, 1, 2
    alone = (one.rows, one.west, one.east, one.holes1, one.holes2, False, one.crosses)
    assert quadrants.Job(9, *alone).crosses == 0b111 << 3 * h
    assert quadrants.Job(9, *alone).row_sets == 35 and quadrants.Job(9, *every).row_sets == 70
    two_rows = one.crosses | 0b11 << 2 * h
    for bad in (
        (*every[:5], True, shared.crosses),  # symmetric
        (shared.rows | 1 << h, *every[1:]),  # the middle row free
        (*every[:6], 1 << 0),  # c = 0: the top edge
        (*every[:6], 1 << (h * h)),  # c = h
        (*every[:6], 1 << (h + 1)),  # a = c = 1
        (shared.rows, shared.west & ~1, shared.east | 1, *every[3:]),  # a = 0 not free
        (one.rows, *every[1:]),  # row 3 not free, the others free
        (one.rows, one.west, one.east, 0, one.holes2, False, one.crosses),  # held: its d1 not
        (one.rows, one.west, one.east, one.holes1, 0, False, one.crosses),  # nor its d2
        # rows 2 and 3 not free
        (one.rows & ~4, one.west, one.east, one.holes1 | 64, one.holes2 | 64, False, two_rows),
        (one.rows & ~1, *alone[1:]),  # a free row fewer than the columns
        (shared.rows & ~1, *every[1:]),  # (every c free) one free row fewer
    ):
        with pytest.raises(ValueError, match="cross"):
            quadrants.Job(9, *bad)
    with pytest.raises(ValueError, match="cross"):
        quadrants.Job(8, *fields[:5], False, 1 << 5)  # an even board
    with pytest.raises(OverflowError):
        quadrants.Job(8, -1, *fields[1:])
    with pytest.raises(ValueError, match="n = 10"):  # a job of another n
        quadrants.count_rows(quadrants.Quarter(10), job, 0, 1, bytearray(1))
    for first, end in ((0, 71), (5, 4)):
        with pytest.raises(ValueError):
            quadrants.count_rows(quarter, job, first, end, bytearray(1))
    with pytest.raises(ValueError):
        quadrants.count_rows(quarter, job, 0, 70, bytearray(0))
    with pytest.raises((ValueError, TypeError)):
        quadrants.count_rows(quarter, job, 0, 70, None)
    with pytest.raises(ValueError):
        quadrants.packed_halves(quarter, True, 1 << 8, 0, 0, 0, 0, 1)
    with pytest.raises(ValueError):  # no such mode
        quadrants.packed_halves(quarter, True, 1, 1, 0, 0, 3, 1)
    with pytest.raises(ValueError):
        quadrants.count_pairs([1], [2], 61)


def test_a_raised_stop_flag_ends_the_count_at_once(quadrants):
    quarter = quadrants.Quarter(10)
    j = _assembly.jobs(10)[0]
    job = core_job(quadrants, 10, j)
    stopped = bytearray(b"\x01")
    assert quadrants.count_rows(quarter, job, 0, job.row_sets, stopped) == 0


# quadrant subproblems: the split, executors and the journal


@pytest.mark.native
def test_subproblems_are_quadrant_tasks_where_count_goes_by_quadrants():
    for n in (12, 13, 14, 15):
        subproblems = nqueens.subproblems(n)
        assert all(isinstance(t, nqueens.QuadrantTask) for t in subproblems)
        assert sum(map(nqueens.count_subproblem, subproblems)) == A000170[n]
        row_sets = sum(_assembly.row_sets(j) for j in _assembly.jobs(n))
        assert len(set(subproblems)) == len(subproblems) >= min(4000, row_sets)
    assert all(isinstance(t, nqueens.Subproblem) for t in nqueens.subproblems(11))
    assert all(isinstance(t, nqueens.Subproblem) for t in nqueens.subproblems(14, depth=1))


def test_quadrant_tasks_are_checked_and_pickle(quadrants):
    subproblem = nqueens.QuadrantTask(9, 1, 5, 20)
    assert pickle.loads(pickle.dumps(subproblem)) == subproblem and subproblem.weight == 8
    assert nqueens.QuadrantTask(9, 1, 0, 0).weight == 8
    for bad, error in (
        ((9, 2, 0, 1), ValueError),  # n = 9 has 2 jobs
        ((9, -1, 0, 1), ValueError),
        ((9, 1, 5, 4), ValueError),
        ((9, 1, 0, 10**6), ValueError),
        ((3, 0, 0, 1), ValueError),
        ((9, 1.0, 0, 1), TypeError),
        ((True, 0, 0, 1), TypeError),
        # an n whose subproblems have passed the checks is checked in a few comparisons
        ((9, 1, -1, 4), ValueError),
        ((9, 1, 0, True), TypeError),
        ((9, 1, 2.0, 4), TypeError),
        ((9.0, 3, 0, 1), TypeError),
    ):
        with pytest.raises(error):
            nqueens.QuadrantTask(*bad)
    # made without the checks (as _replace or tuple.__new__ would): checked when counted
    forged = tuple.__new__(nqueens.QuadrantTask, (9, 99, 0, 1))
    with pytest.raises(ValueError):
        nqueens.count_subproblem(forged)


def test_a_unit_of_quadrant_tasks_travels_packed_and_is_checked_where_it_lands(
    quadrants, monkeypatch
):
    from nqueens._engine.workers import messages
    from nqueens._engine.workers.messages import Unit, count_unit

    subproblems = _assembly.split(11, 40)
    unit = Unit(tuple(range(len(subproblems))), tuple(subproblems))
    data = pickle.dumps(unit)
    assert len(data) < len(pickle.dumps((unit.indices, unit.subproblems)))  # packed
    loaded = pickle.loads(data)
    assert loaded == unit and type(loaded.subproblems) is _assembly.Checked
    assert all(type(subproblem) is nqueens.QuadrantTask for subproblem in loaded.subproblems)
    counted = count_unit(loaded)
    assert counted.counts == count_unit(unit).counts and sum(counted.counts) == A000170[11]
    # tampered on the way: refused as the subproblems themselves refuse it
    rebuild, (indices, n, packed) = unit.__reduce__()
    assert rebuild(indices, n, packed) == unit
    for position, value in ((0, 99), (3, -1), (5, 10**6), (len(subproblems) * 3 - 2, 10**6)):
        triples = array.array("i", packed)
        triples[position] = value
        with pytest.raises(ValueError):
            rebuild(indices, n, triples.tobytes())
    with pytest.raises(ValueError):
        rebuild(indices, 3, packed)
    with pytest.raises(TypeError):
        rebuild(indices, 11.0, packed)
    with pytest.raises(ValueError):
        rebuild(indices, n, packed[:-4])  # not whole triples
    # other units pickle as they are
    border = Unit((0,), (nqueens.Subproblem(8, 1, (0,), (0,)),))
    assert type(pickle.loads(pickle.dumps(border)).subproblems) is tuple
    mixed = Unit((0, 1), (subproblems[0], _assembly.split(12, 40)[0]))
    assert pickle.loads(pickle.dumps(mixed)) == mixed
    # little-endian bytes, whatever the machine: a big-endian one swaps them both ways
    little = array.array("i", packed)
    if sys.byteorder == "big":
        little.byteswap()
    assert list(little) == [v for subproblem in subproblems for v in subproblem[1:]]
    monkeypatch.setattr(messages, "_BIG_ENDIAN", not messages._BIG_ENDIAN)
    rebuild, (indices, n, swapped) = unit.__reduce__()
    assert swapped != packed and rebuild(indices, n, swapped) == unit


@pytest.mark.parametrize("n", [8, 9, 10, 11])
def test_quadrant_tasks_add_up_on_both_cores(quadrants, n):
    subproblems = _assembly.split(n, 50)
    assert sum(map(nqueens.count_subproblem, subproblems)) == A000170[n]


class _StopAfter:
    """A map-like that runs its first `calls` calls and then raises KeyboardInterrupt."""

    def __init__(self, calls):
        self.calls = calls
        self.sent = 0

    def __call__(self, func, units):
        if self.calls == 0:
            raise KeyboardInterrupt
        self.calls -= 1
        self.sent += sum(len(unit.subproblems) for unit in units)
        return map(func, units)


@pytest.mark.native
def test_a_quadrant_split_journal_resumes_exactly(tmp_path):
    path = tmp_path / "count.sqlite"
    first = _StopAfter(3)
    with pytest.raises(KeyboardInterrupt):
        nqueens.count(15, workers=first, journal=path, recount=0)
    with sqlite3.connect(path) as db:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        done = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    db.close()
    # one call ahead: the third call's units went out, its results were never read
    assert meta["depth"] == "-1" and 0 < done < first.sent < int(meta["tasks"])
    again = _StopAfter(10**6)
    assert nqueens.count(15, workers=again, journal=path, recount=0) == A000170[15]
    assert again.sent == int(meta["tasks"]) - done  # only what was left
    # threads resume the same split; a complete journal answers the unique count at once
    assert nqueens.count(15, workers=2, journal=path, unique=True) == A002562[15]
    with pytest.raises(nqueens.JournalError):
        nqueens.count(15, workers=2, journal=path, depth=1)


@pytest.mark.native
def test_quadrant_tasks_on_an_executor(tmp_path):
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        assert nqueens.count(14, workers=pool.map) == A000170[14]
        assert nqueens.count(14, workers=pool.map, unique=True) == A002562[14]
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        assert nqueens.count(12, workers=pool.map, progress=False) == A000170[12]


def test_a_scratch_serves_one_quarter(quadrants):
    first, other = quadrants.Quarter(8), quadrants.Quarter(8)
    args = (core_job(quadrants, 8, _assembly.jobs(8)[0]), 0, 70, bytearray(1))
    scratch = quadrants.Scratch(first)
    assert quadrants.count_rows(first, *args, scratch) == 92
    assert quadrants.count_rows(first, *args, scratch) == 92  # kept work, same answer
    with pytest.raises(ValueError):
        quadrants.count_rows(other, *args, scratch)


@pytest.mark.native
def test_without_memory_for_the_table_count_goes_row_by_row(monkeypatch):
    def no_memory(n, stop=None):
        raise MemoryError("no memory for the quadrant table")

    monkeypatch.setattr(_quadrants, "Quarter", no_memory)
    monkeypatch.setattr("nqueens._select.quadrants", _quadrants)
    with pytest.warns(RuntimeWarning, match="counting row by row"):
        assert nqueens.count(14) == A000170[14]


def test_entry_points_refuse_what_lies_off_their_arrays_alike(quadrants):
    quarter = quadrants.Quarter(8)
    args = (core_job(quadrants, 8, _assembly.jobs(8)[0]), 0, 70, bytearray(1))
    for call in (
        lambda: quadrants.count_rows(None, *args),
        lambda: quadrants.count_rows(quarter, (255, 15, 15, 0, 0, True), 0, 70, bytearray(1)),
        lambda: quadrants.Scratch(None),
        lambda: quadrants.packed_halves(None, True, 0, 0, 0, 0, 0, 1),
        lambda: quadrants.count_rows(quarter, *args, "scratch"),
    ):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError):
        quadrants.count_pairs([1 << 12], [1], 12)
    with pytest.raises(ValueError):
        quadrants.count_pairs([1], [1 << 12], 12)
    with pytest.raises(OverflowError):
        quadrants.count_pairs([-1], [1], 12)
    # many stored masks of few bits: no more cut positions than bits
    assert quadrants.count_pairs([0, 1] * 2500, [1, 0], 1) == 2500 + 5000
