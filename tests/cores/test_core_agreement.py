"""The extension and its pure-Python twin, function by function; symmetry class counts."""

from __future__ import annotations

import itertools

import pytest

import nqueens
from nqueens import _bitsolver_py as twin
from nqueens._oeis import A000170, A002562


@pytest.fixture
def native(native_core):
    return native_core


@pytest.mark.parametrize("n", range(12))
def test_twin_and_extension_agree_on_every_function(native, n):
    stop = bytearray(1)
    assert native.count_solutions(n, stop) == twin.count_solutions(n, stop)
    assert native.count_symmetric(n) == twin.count_symmetric(n)
    if n >= 2:
        assert native.constellations(n) == twin.constellations(n)
        for unique in (False, True):
            fast_table, slow_table = native.Gathered(n, unique), twin.Gathered(n, unique)
            assert fast_table.size == slow_table.size
            size = fast_table.size
            assert list(fast_table.placements(0, size)) == list(slow_table.placements(0, size))
    for rows, cols in [((), ()), ((0,), (n // 2,)), ((0, n - 1), (1, n - 2)), ((1, 2), (0, 2))]:
        if n and all(r < n and c < n for r, c in zip(rows, cols)):
            assert native.count_preset(n, rows, cols, stop) == twin.count_preset(
                n, rows, cols, stop
            )
    for unique in (False, True):
        fast, slow = native.Enumerator(n, (), unique), twin.Enumerator(n, (), unique)
        out_fast, out_slow = bytearray(n * 7), bytearray(n * 7)
        while not (fast.done and slow.done):
            # small chunks and node budgets, so that the walks stop and resume often
            got = fast.fill(out_fast, 7, 50), slow.fill(out_slow, 7, 50)
            assert got[0] == got[1]
            assert out_fast[: got[0] * n] == out_slow[: got[1] * n]
            assert fast.done == slow.done


def test_twin_and_extension_agree_where_the_table_is_used(native, border_queens):
    # from 11 levels on the core meets a table of the last rows by default
    stop = bytearray(1)
    for n in (14, 15):
        for _, *border in native.constellations(n)[::300]:
            rows, cols = border_queens(n, *border)
            assert native.count_preset(n, rows, cols, stop) == twin.count_preset(
                n, rows, cols, stop
            )


@pytest.mark.parametrize("n", [2, 4, 5, 8, 9, 12, 13])
@pytest.mark.parametrize("unique", [False, True])
@pytest.mark.parametrize("parts", [2, 3, 7])
def test_gathered_parts_taken_in_any_order_equal_the_whole(native, n, unique, parts):
    # each part a share of the borders' groups; unique=False keeps only the keys
    # of a first queen left of the middle and reads the rest mirrored (the twin
    # keeps every key): the sizes, the order and every slice must agree
    whole = twin.Gathered(n, unique)
    expected = list(whole.placements(0, whole.size))
    for module in (native, twin):
        pieces = [module.Gathered(n, unique, part, parts) for part in range(parts)]
        assert sum(piece.size for piece in pieces) == len(expected)
        table = pieces[-1]
        for piece in reversed(pieces[:-1]):
            with pytest.raises(ValueError):
                list(table.placements(0, 0))
            table.take(piece)
        assert table.size == len(expected)
        assert list(table.placements(0, table.size)) == expected
        middle = table.size // 2
        assert list(table.placements(middle, table.size)) + list(table.placements(0, middle)) == (
            expected[middle:] + expected[:middle]
        )


@pytest.mark.parametrize("n", [12, 13])
@pytest.mark.parametrize("unique", [False, True])
def test_gathered_boards_whose_last_rows_come_from_tables_equal_the_walk(native, n, unique):
    # from n = 12 some borders leave 9 rows or more and Gathered meets the last of
    # them from a table (as the count does); the lazy walk is a search of its own
    gathered = native.Gathered(n, unique)
    walker = native.Enumerator(n, (), unique, (), ())
    buffer = bytearray(n * 4096)
    walked = []
    while not walker.done:
        found = walker.fill(buffer, 4096, 1 << 30)
        walked.extend(tuple(buffer[i * n : (i + 1) * n]) for i in range(found))
    assert list(gathered.placements(0, gathered.size)) == walked
    assert len(walked) == (A002562 if unique else A000170)[n]


@pytest.mark.parametrize("n", range(17))
def test_the_symmetric_counts_on_bitmasks_equal_those_on_arrays(native, n):
    # boards up to 32 take the bitmasks, larger ones the arrays: both must agree
    assert native.count_symmetric(n) == native.count_symmetric(n, arrays=True)


def test_the_symmetric_search_stops_on_its_flag_in_both_cores(native):
    import threading
    import time

    for core, big in ((native, 27), (twin, 22)):
        # a flag left clear changes nothing; one raised at the start finds nothing
        assert core.count_symmetric(12, stop=bytearray(1)) == core.count_symmetric(12)
        assert core.count_symmetric(12, stop=bytearray(b"\x01")) == (0, 0)
        for arrays in (False, True):
            stop = bytearray(1)
            timer = threading.Timer(0.1, stop.__setitem__, (0, 1))
            began = time.perf_counter()
            timer.start()
            core.count_symmetric(big, arrays, stop)  # seconds to minutes whole
            assert time.perf_counter() - began < 2  # within moments of the flag
        with pytest.raises(ValueError, match="at least one byte"):
            core.count_symmetric(8, stop=bytearray(0))
        with pytest.raises(TypeError):
            core.count_symmetric(8, stop=5)


@pytest.mark.parametrize("n", range(2, 16))
def test_symmetry_classes_are_whole(native, n):
    # Burnside: C2 = R/2 classes of 2 solutions (quarter-turn symmetric),
    # C4 = (P - R)/4 of 4 (half-turn only), C8 = (T - P)/8 of 8
    total = nqueens.count(n)
    half_turn, quarter_turn = native.count_symmetric(n)
    c2, rest2 = divmod(quarter_turn, 2)
    c4, rest4 = divmod(half_turn - quarter_turn, 4)
    c8, rest8 = divmod(total - half_turn, 8)
    assert rest2 == rest4 == rest8 == 0
    assert 8 * c8 + 4 * c4 + 2 * c2 == total == A000170[n]
    assert c8 + c4 + c2 == nqueens.count(n, unique=True) == A002562[n]


def test_unique_representatives_equal_the_canonicalised_full_list(native, canonical):
    for n in range(11):
        full = {canonical(p) for p in nqueens.solutions(n)}
        assert list(nqueens.solutions(n, unique=True)) == sorted(full)


@pytest.mark.slow
def test_seventeen(native):
    assert nqueens.count(17, workers=-1) == A000170[17]
    assert nqueens.count(17, unique=True, workers=-1) == A002562[17]


def test_workers_one_to_eight_agree(native):
    results = {nqueens.count(14, workers=k) for k in range(1, 9)}
    assert results == {A000170[14]}
    assert {nqueens.count(13, workers=k, unique=True) for k in range(1, 9)} == {A002562[13]}


def test_every_task_list_covers_the_search_once(native):
    for n, depth in itertools.product(range(4, 12), range(3)):
        subproblems = nqueens.subproblems(n, depth=depth)
        assert sum(map(nqueens.count_subproblem, subproblems)) == A000170[n]
        assert len(set(subproblems)) == len(subproblems)


@pytest.mark.parametrize("n", [0, 1, 4, 6, 8, 9, 10])
def test_enumeration_resumes_anywhere(core, brute, canonical, n):
    # chunks of every size around the recursive tail's reserve (120), node
    # budgets small enough to stop mid-row: the walk still gives each solution once, in order
    sizes = itertools.cycle([1, 7, 119, 120, 121, 500, 3])
    budgets = itertools.cycle([1, 5, 40, 1000, 2])
    for unique in (False, True):
        walk = core.Enumerator(n, (), unique)
        found = []
        while not walk.done:
            size = next(sizes)
            out = bytearray(max(n, 1) * size)
            got = walk.fill(out, size, next(budgets))
            found += [tuple(out[i * n : (i + 1) * n]) for i in range(got)]
        expected = brute(n)
        if unique:
            expected = sorted({canonical(p) for p in expected})
        assert found == expected
