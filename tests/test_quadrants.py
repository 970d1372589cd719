"""The quadrant core against its twin, function by function, and both against oracles."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import nqueens
from nqueens import _assembly, _counting, _quadrants_py
from nqueens._oeis import A000170, A002562

try:
    from nqueens import _quadrants
except ImportError:  # pragma: no cover - conftest fails loudly without --no-native
    _quadrants = None  # type: ignore[assignment]

_CORES = [pytest.param("cython", marks=pytest.mark.native), "python"]


@pytest.fixture(params=_CORES)
def quadrants(request, monkeypatch):
    module = _quadrants if request.param == "cython" else _quadrants_py
    monkeypatch.setattr("nqueens._select.quadrants", module)
    return module


def count_by_quadrants(module, n):
    quarter = module.Quarter(n)
    jobs = _assembly.jobs(n)
    stop = bytearray(1)
    total = 0
    for j in jobs:
        size = module.row_sets(j.rows, bin(j.east).count("1"))
        value = module.count_rows(
            quarter, j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, 0, size, stop
        )
        total += j.weight * value
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
                for mode, q in itertools.product(range(3), range(3)):
                    args = (east, rows, cols, j.holes1, j.holes2, mode, q)
                    got = _quadrants.packed_halves(core_quarter, *args)
                    want = _quadrants_py.packed_halves(twin_quarter, *args)
                    assert sorted(got[0]) == sorted(want[0])
                    assert [sorted(x) for x in got[1]] == [sorted(x) for x in want[1]]


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
    # past 1,024 stored masks the core sorts both sides into buckets by cut bits
    rng = random.Random(5)
    mask = lambda: rng.getrandbits(30) & rng.getrandbits(30) & rng.getrandbits(30)  # noqa: E731
    for size in (127, 128, 511, 512, 513, 575, 576, 1100, 2047, 2048, 5000, 17000):
        stored = [mask() for _ in range(size)]
        items = [mask() for _ in range(150)] + [0]
        expected = sum(1 for s in stored for i in items if not s & i)
        assert _quadrants.count_pairs(stored, items, 30) == expected


@pytest.mark.native
@pytest.mark.parametrize("n", range(4, 12))
def test_core_and_twin_count_every_task_alike(n):
    core_quarter, twin_quarter = _quadrants.Quarter(n), _quadrants_py.Quarter(n)
    stop = bytearray(1)
    for j in _assembly.jobs(n):
        size = _quadrants.row_sets(j.rows, bin(j.east).count("1"))
        assert size == _quadrants_py.row_sets(j.rows, bin(j.east).count("1"))
        cuts = sorted({0, size, size // 3, size // 2})
        for first, end in zip(cuts, cuts[1:]):
            args = (j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, first, end, stop)
            assert _quadrants.count_rows(core_quarter, *args) == _quadrants_py.count_rows(
                twin_quarter, *args
            )


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


@pytest.mark.native
@pytest.mark.parametrize("workers", [1, 2, 3])
@pytest.mark.parametrize("n", [14, 15, 16])
def test_count_takes_the_quadrant_core_and_is_exact(n, workers, monkeypatch):
    calls = []
    real = _counting._by_quadrants
    monkeypatch.setattr(_counting, "_by_quadrants", lambda *a: calls.append(a) or real(*a))
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
    quarter = quadrants.Quarter(8)
    with pytest.raises(ValueError):
        quarter.placements(16, 0)
    j = _assembly.jobs(8)[0]
    good = (j.rows, j.west, j.east, 0, 0, True, 0, 70)
    assert quadrants.count_rows(quarter, *good, bytearray(1)) == 92
    for bad in ((1 << 8, *good[1:]), (j.rows, 1 << 4, *good[2:]), (*good[:6], 0, 71),
                (*good[:6], 5, 4), (j.rows, 7, *good[2:])):  # fmt: skip
        with pytest.raises(ValueError):
            quadrants.count_rows(quarter, *bad, bytearray(1))
    with pytest.raises(ValueError):
        quadrants.count_rows(quarter, *good, bytearray(0))
    with pytest.raises((ValueError, TypeError)):
        quadrants.count_rows(quarter, *good, None)
    with pytest.raises(ValueError):
        quadrants.packed_halves(quarter, True, 1 << 8, 0, 0, 0, 0, 1)
    with pytest.raises(ValueError):
        quadrants.count_pairs([1], [2], 61)


def test_a_raised_stop_flag_ends_the_count_at_once(quadrants):
    quarter = quadrants.Quarter(10)
    j = _assembly.jobs(10)[0]
    size = quadrants.row_sets(j.rows, 5)
    stopped = bytearray(b"\x01")
    args = (j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, 0, size)
    assert quadrants.count_rows(quarter, *args, stopped) == 0
