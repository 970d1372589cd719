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
    assert nqueens.count(14, workers=workers) == A000170[14]
    assert nqueens.count(13, unique=True, workers=workers) == A002562[13]


def test_core_counts_completions_of_a_partial_placement(core, brute):
    # rows 0 and 1 hold queens in columns 1 and 3 of a 6 board
    n, prefix = 6, (1, 3)
    cols = ld = rd = 0
    for c in prefix:
        bit = 1 << c
        cols, ld, rd = cols | bit, (ld | bit) << 1, (rd | bit) >> 1
    expected = sum(1 for p in brute(n) if p[:2] == prefix)
    assert expected == 1
    assert core.count_completions(n, 2, cols, ld & 63, rd, bytearray(1)) == expected


def test_core_stops_when_asked(core):
    # with the stop flag up the search gives up at once (the total is discarded)
    assert core.count_solutions(14, bytearray(b"\x01")) < A000170[14]


@pytest.mark.parametrize("n", [1.0, "8", None, True, 8.5, [8]])
def test_n_must_be_an_int(n):
    with pytest.raises(TypeError, match="n must be an int"):
        nqueens.count(n)


@pytest.mark.parametrize("n", [-1, nqueens.MAX_N + 1, 10**6])
def test_n_must_be_on_the_board_range(n):
    with pytest.raises(ValueError, match=rf"between 0 and {nqueens.MAX_N} \(nqueens.MAX_N\)"):
        nqueens.count(n)


@pytest.mark.parametrize("workers", [0, -2, -100])
def test_workers_must_be_positive_or_minus_one(workers):
    with pytest.raises(ValueError, match="workers must be a positive int, -1"):
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
