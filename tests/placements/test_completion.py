"""The completion problem: counting and listing the solutions that keep placed queens."""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, strategies as st

import nqueens
from nqueens import count, solutions
from nqueens._oeis import A000170
from nqueens.reference import bitmask_completions


def attacking(squares):
    return any(
        r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)
        for (r1, c1), (r2, c2) in itertools.combinations(squares, 2)
    )


def placements(n, most):
    """Every set of up to `most` queens in distinct rows: (squares, attacking?)."""
    for k in range(most + 1):
        for rows in itertools.combinations(range(n), k):
            for cols in itertools.product(range(n), repeat=k):
                squares = tuple(zip(rows, cols))
                yield squares, attacking(squares)


def check_every_placement(n, most, brute):
    found = brute(n)
    # the solutions with a queen on each square (their indices into found), so that those with
    # every queen of a placement are a few set intersections, not a filter of all solutions
    having = {
        (r, c): {i for i, p in enumerate(found) if p[r] == c} for r in range(n) for c in range(n)
    }
    every = set(range(len(found)))
    for squares, bad in placements(n, most):
        if bad:
            with pytest.raises(ValueError, match="attack each other"):
                count(n, placed=squares)
            continue
        expected = [found[i] for i in sorted(every.intersection(*(having[s] for s in squares)))]
        assert count(n, placed=dict(squares)) == len(expected), squares
        assert list(solutions(n, placed=squares)) == expected, squares


@pytest.mark.parametrize("n", range(8))
def test_every_placement_of_up_to_3_queens_against_a_brute_force(core, brute, n):
    check_every_placement(n, 3, brute)


@pytest.mark.slow
@pytest.mark.parametrize("n", [8, 9])
def test_every_placement_of_up_to_3_queens_on_larger_boards(core, brute, n):
    check_every_placement(n, 3, brute)


@pytest.mark.parametrize("n", [8, 9])
def test_every_placement_of_up_to_2_queens_on_larger_boards(core, brute, n):
    check_every_placement(n, 2, brute)


@st.composite
def instances(draw):
    n = draw(st.integers(4, 11))
    rows = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=min(n, 5)))
    placed = {}
    for r in rows:
        c = draw(st.integers(0, n - 1))
        if not attacking([*placed.items(), (r, c)]):
            placed[r] = c
    return n, placed


@pytest.mark.native
@given(instances(), st.sampled_from([1, 2, map]))
def test_random_placements_against_the_reference(instance, workers):
    n, placed = instance
    expected = list(bitmask_completions(n, placed))
    assert count(n, placed=placed, workers=workers) == len(expected)
    assert list(solutions(n, placed=placed)) == expected
    assert list(solutions(n, placed=placed, limit=2)) == expected[:2]


@pytest.mark.parametrize("n", range(1, 12))
def test_row_0_columns_add_up_to_the_count(core, n):
    assert sum(count(n, placed={0: c}) for c in range(n)) == A000170[n]


@pytest.mark.parametrize("n", [12, 13, 14])
def test_row_0_columns_add_up_on_larger_boards(native_core, n):
    assert sum(count(n, placed={0: c}, workers=2) for c in range(n)) == A000170[n]


def test_completions_go_to_executors_and_the_journal(core, tmp_path):
    placed = {0: 3, 5: 9}
    expected = sum(1 for _ in bitmask_completions(12, placed))
    assert count(12, placed=placed, workers=map) == expected
    path = tmp_path / "c.sqlite"
    assert count(12, placed=placed, journal=path, workers=2) == expected
    assert count(12, placed=placed, journal=path) == expected  # from the journal
    with pytest.raises(nqueens.JournalError, match="journals another count"):
        count(12, placed={0: 4}, journal=path)


@pytest.mark.parametrize(
    ("placed", "error", "message"),
    [
        (
            {0: 0, 1: 1},
            ValueError,
            r"placed queens at \(0, 0\) and \(1, 1\) attack each other: "
            "same diagonal",
        ),
        ([(0, 2), (3, 2)], ValueError, r"\(0, 2\) and \(3, 2\) attack each other: same column"),
        ([(1, 2), (2, 1)], ValueError, "same anti-diagonal"),
        ([(0, 1), (0, 5)], ValueError, r"\(0, 1\) and \(0, 5\) share row 0"),
        ({8: 0}, ValueError, r"placed queen at \(8, 0\) is off the 8 x 8 board"),
        ({0: -1}, ValueError, "off the 8 x 8 board"),
        ([(0, 1, 2)], TypeError, "pairs"),
        ("0:1", TypeError, "mapping row -> column"),
        (5, TypeError, "mapping row -> column"),
        ({0: 1.5}, TypeError, "a placed column must be an int"),
    ],
)
def test_bad_placements_are_refused_before_any_work(core, placed, error, message):
    with pytest.raises(error, match=message):
        count(8, placed=placed)
    with pytest.raises(error, match=message):
        solutions(8, placed=placed)


def test_unique_cannot_go_with_placed_queens():
    with pytest.raises(ValueError, match="unique=True cannot go with placed queens"):
        count(8, unique=True, placed={0: 0})
    with pytest.raises(ValueError, match="unique=True cannot go with placed queens"):
        solutions(8, unique=True, placed={0: 0})


def test_big_boards_complete_in_python():
    placement = nqueens.construct(300)
    placed = {r: placement[r] for r in range(290)}  # the last ten rows to fill
    found = list(solutions(300, placed=placed))
    assert placement in found and found == sorted(found)
    assert all(nqueens.is_solution(p) and p[:290] == placement[:290] for p in found)
    with pytest.raises(ValueError, match="between 0 and 1000 with placed queens"):
        solutions(1001, placed={})
    with pytest.raises(ValueError, match="between 0 and 64"):
        count(65, placed={})


def test_a_hard_instance_stops_on_ctrl_c():
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens", "solve", "200", "--place", "0:0", "--limit", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(1.5)
        assert process.poll() is None  # still searching: lexicographic order is costly
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.communicate()
    assert (process.returncode, out, err) == (130, "", "nqueens: interrupted\n")


# the command line


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "nqueens", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_count_and_solve_with_placed_queens():
    expected = sum(1 for _ in bitmask_completions(10, {0: 3, 4: 9}))
    assert run("count", "10", "--place", "0:3", "--place", "4:9").stdout == f"{expected}\n"
    one_based = run("count", "10", "--place", "1:4", "--place", "5:10", "--one-based")
    assert one_based.stdout == f"{expected}\n"
    result = run("solve", "8", "--place", "0:7", "--place", "7:3", "--format", "csv")
    rows = [tuple(map(int, line.split(","))) for line in result.stdout.splitlines()]
    assert rows == list(bitmask_completions(8, {0: 7, 7: 3}))
    result = run("solve", "8", "--place", "1:8", "--place", "8:4", "--one-based", "--format", "csv")
    assert result.stdout.splitlines()[0] == "8,3,1,6,2,5,7,4"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["count", "8", "--place", "0:0", "--place", "1:1"], "(0, 0) and (1, 1) attack each other"),
        (
            ["count", "8", "--place", "1:1", "--place", "2:2", "--one-based"],
            "(1, 1) and (2, 2) attack each other",
        ),
        (["count", "8", "--place", "9:0"], "(9, 0) is off the 8 x 8 board"),
        (["solve", "8", "--place", "x"], "--place takes ROW:COLUMN, got 'x'"),
        (["count", "8", "--place", "0:0", "--unique"], "--unique cannot go with --place"),
        (["count", "8", "--place", "0:0", "--solver", "bitmask"], "native core only"),
    ],
)
def test_cli_bad_squares_exit_2_with_one_line(args, message):
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr
