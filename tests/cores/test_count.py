from __future__ import annotations

import pytest

import nqueens
from nqueens._oeis import A000170, A002562


@pytest.mark.parametrize("n", range(13))
def test_count_matches_oeis(core, n):
    assert nqueens.count(n) == A000170[n]


@pytest.mark.parametrize("n", range(13, 17))
def test_count_matches_oeis_large(native_core, n):
    assert nqueens.count(n) == A000170[n]


@pytest.mark.parametrize("n", range(11))
def test_unique_matches_oeis(core, n):
    assert nqueens.count(n, unique=True) == A002562[n]


@pytest.mark.parametrize("n", range(11, 15))
def test_unique_matches_oeis_large(native_core, n):
    assert nqueens.count(n, unique=True) == A002562[n]


@pytest.mark.parametrize("n", range(9))
def test_count_matches_brute_force(core, brute, canonical, n):
    found = brute(n)
    assert nqueens.count(n) == len(found)
    assert nqueens.count(n, unique=True) == len({canonical(p) for p in found})


@pytest.mark.parametrize("workers", [1, 2, 3, 8, -1])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6, 9, 10])
def test_workers_do_not_change_the_answer(core, n, workers):
    assert nqueens.count(n, workers=workers) == A000170[n]
    assert nqueens.count(n, unique=True, workers=workers) == A002562[n]


@pytest.mark.parametrize("workers", [2, -1])
def test_workers_on_a_large_board(native_core, workers):
    assert nqueens.count(15, workers=workers) == A000170[15]
    assert nqueens.count(14, unique=True, workers=workers) == A002562[14]


def test_core_counts_completions_of_placed_queens(core, brute):
    # queens at (0, 1) and (5, 4) of a 6 board, and at rows 0 and 1 of an 8 board
    for n, rows, cols in [(6, (0, 5), (1, 4)), (8, (0, 1), (2, 4)), (8, (3,), (3,)), (5, (), ())]:
        expected = sum(1 for p in brute(n) if all(p[r] == c for r, c in zip(rows, cols)))
        assert core.count_preset(n, rows, cols, bytearray(1)) == expected
    # queens that attack each other have no completion
    assert core.count_preset(8, (0, 1), (0, 1), bytearray(1)) == 0


@pytest.mark.parametrize("n", range(4, 10))
def test_table_of_the_last_rows_meets_the_search_at_any_depth(core, brute, border_queens, n):
    # upper = k matches the last k searched rows from a table (0: none): the
    # counts agree with the brute force for every k, presets or not
    presets = [((), ()), ((0,), (1,)), ((0, n - 1), (1, n - 2)), ((0, 2), (0, 1))]
    presets += [border_queens(n, *border) for _, *border in core.constellations(n)[:8]]
    for rows, cols in presets:
        expected = sum(1 for p in brute(n) if all(p[r] == c for r, c in zip(rows, cols)))
        for upper in range(n + 2):
            assert core.count_preset(n, rows, cols, bytearray(1), upper) == expected


def test_table_gives_the_same_counts_as_the_search_on_big_boards(native_core, border_queens):
    # n = 15 and 16 meet in the middle by default (half the levels, up to 7)
    for n in (15, 16):
        for _, *border in native_core.constellations(n)[::400]:
            rows, cols = border_queens(n, *border)
            searched = native_core.count_preset(n, rows, cols, bytearray(1), 0)
            for upper in (-1, 3, 6, 9):
                assert native_core.count_preset(n, rows, cols, bytearray(1), upper) == searched


@pytest.mark.parametrize("upper", [2, 3, 4])
def test_a_kept_table_serves_the_next_borders_alike_at_the_top(core, border_queens, upper):
    # one Tables object across borders in the core's order (consecutive ones
    # share a table) and in a shuffled order (the table is rebuilt): the
    # counts are those of the plain search
    stop = bytearray(1)
    for n in range(6, 11):
        borders = [border_queens(n, *b) for _, *b in core.constellations(n)]
        for order in (borders, borders[::3] + borders[1::3] + borders[2::3]):
            tables = core.Tables()
            for rows, cols in order:
                kept = core.count_preset(n, rows, cols, stop, upper, tables)
                assert kept == core.count_preset(n, rows, cols, stop, 0)


def test_count_each_is_count_preset_task_by_task(core):
    # count_each counts a run of subproblems in one call, keeping tables between them
    for n in (10, 12) if core.__name__.endswith("_bitsolver_py") else (12, 14, 15):
        subproblems = nqueens.subproblems(n, depth=1)[:300]
        found = core.count_each(subproblems, bytearray(1), core.Tables())
        assert found == [core.count_preset(n, t.rows, t.cols, bytearray(1)) for t in subproblems]
    assert core.count_each([], bytearray(1), core.Tables()) == []


def test_constellations_stand_for_every_border(core, brute, canonical):
    # each canonical border, weighted by its orbit, covers the solutions once
    for n in range(4, 9):
        found = core.constellations(n)
        assert sum(w for w, *_ in found) <= n**4
        total = 0
        for weight, top, bottom, left, right in found:
            matching = [
                p
                for p in brute(n)
                if (p[0], p[-1], p.index(0), p.index(n - 1)) == (top, bottom, left, right)
            ]
            total += weight * len(matching)
        assert total == len(brute(n))


def test_core_stops_when_asked(core):
    # with the stop flag up the search gives up at once (the total is discarded)
    assert core.count_solutions(16, bytearray(b"\x01")) < A000170[16]
    assert core.count_preset(20, (0,), (3,), bytearray(b"\x01")) == 0


@pytest.mark.parametrize("n", [1.0, "8", None, True, 8.5, [8]])
def test_n_must_be_an_int(n):
    with pytest.raises(TypeError, match="n must be an int"):
        nqueens.count(n)


@pytest.mark.parametrize("n", [-1, nqueens.MAX_N + 1, 10**6])
def test_n_must_be_on_the_board_range(n):
    with pytest.raises(ValueError, match=rf"between 0 and {nqueens.MAX_N}, got"):
        nqueens.count(n)


@pytest.mark.parametrize("workers", [0, -2, -100])
def test_workers_must_be_positive_or_minus_one(workers):
    with pytest.raises(ValueError, match="workers must be 1 to 1024 threads, -1"):
        nqueens.count(8, workers=workers)


@pytest.mark.parametrize("workers", [1.5, "2", None, True])
def test_workers_must_be_an_int(workers):
    with pytest.raises(TypeError, match="workers must be an int"):
        nqueens.count(8, workers=workers)


def test_unique_must_be_a_bool():
    with pytest.raises(TypeError, match="unique must be a bool"):
        nqueens.count(8, unique=1)


def test_max_n_is_at_least_32():
    assert nqueens.MAX_N >= 32
