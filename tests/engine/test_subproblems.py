"""The split: subproblems that add up to count(n), small, picklable, grouped by the
table they share."""

from __future__ import annotations

import pickle

import pytest

import nqueens
from nqueens import Subproblem, count_subproblem
from nqueens._oeis import A000170, A002562

# the split


@pytest.mark.parametrize("n", range(12))
def test_split_counts_add_up(core, n):
    for depth in range(min(n, 3) + 1):
        subproblems = nqueens.subproblems(n, depth=depth)
        assert sum(count_subproblem(t) for t in subproblems) == A000170[n]
    assert nqueens.count(n, workers=map) == A000170[n]
    assert nqueens.count(n, unique=True, workers=map) == A002562[n]


@pytest.mark.parametrize("n", range(12, 15))
def test_split_counts_add_up_on_larger_boards(native_core, n):
    assert sum(map(count_subproblem, nqueens.subproblems(n))) == A000170[n]
    assert nqueens.count(n, workers=map, depth=1) == A000170[n]
    assert nqueens.count(n, unique=True, workers=map) == A002562[n]


def test_symmetric_counts_match_a_brute_force(core, brute):
    # P: solutions the half turn keeps; R: those the quarter turn keeps
    for n in range(9):
        found = brute(n)
        half = sum(1 for p in found if tuple(n - 1 - c for c in reversed(p)) == p)
        quarter = 0
        for p in found:
            turned = [0] * n
            for r, c in enumerate(p):
                turned[c] = n - 1 - r
            quarter += tuple(turned) == p
        assert core.count_symmetric(n) == (half, quarter)


def test_tasks_are_small_picklable_values():
    subproblem = nqueens.subproblems(10, depth=2)[3]
    assert isinstance(subproblem, Subproblem)
    assert type(subproblem.n) is type(subproblem.weight) is int
    assert len(subproblem.rows) == len(subproblem.cols) >= 4
    assert all(type(v) is int for v in (*subproblem.rows, *subproblem.cols))
    assert pickle.loads(pickle.dumps(subproblem)) == subproblem
    assert pickle.loads(pickle.dumps(count_subproblem)) is count_subproblem


def test_tasks_that_can_share_a_table_come_together():
    # subproblems that differ only in the queen of the last row are neighbours, and
    # each run of them is handed to one thread whole
    from nqueens._engine.subproblems import runs, sharing_order

    for n, depth in [(12, 0), (12, 1), (16, 0), (16, 1)]:
        subproblems = nqueens.subproblems(n, depth=depth)
        keys = [repr(sharing_order(t)[0]) for t in subproblems]
        starts = runs(subproblems)
        assert starts[0] == 0 and starts == sorted(set(starts))
        assert len(set(keys)) == len(starts)  # each key in one run only
        assert all(keys[i] != keys[i - 1] for i in starts[1:])


def test_task_count_grows_with_n():
    sizes = [len(nqueens.subproblems(n)) for n in (8, 12, 16, 20)]
    assert sizes == sorted(sizes)
    # a thousand workers get at least 100 subproblems each from n = 20 on
    assert len(nqueens.subproblems(20)) >= 100_000
    assert len(nqueens.subproblems(22)) >= 100_000


def test_bad_split_arguments():
    with pytest.raises(ValueError, match="depth must be between 0 and n"):
        nqueens.subproblems(8, depth=-1)
    with pytest.raises(ValueError, match="depth must be between 0 and n"):
        nqueens.subproblems(8, depth=9)
    with pytest.raises(TypeError, match="depth must be an int"):
        nqueens.subproblems(8, depth=1.5)
    with pytest.raises(TypeError, match="workers must be an int"):
        nqueens.count(8, workers="map")
