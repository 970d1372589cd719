"""The reference solvers against the brute force, the OEIS table, the core and each other."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, strategies as st

import nqueens
from nqueens._oeis import A000170
from nqueens._placements.symmetry import canonical, images
from nqueens.reference import INFO, SOLVERS

TECHNIQUES = [
    "permutations",
    "column_check",
    "iterative",
    "pruned_permutations",
    "candidates",
    "breadth_first",
    "board_2d",
    "board_1d",
    "diagonal_flags",
    "attack_table",
    "bitmask",
]
UNORDERED = {"pruned_permutations"}


def test_registry_holds_every_technique_from_naive_to_bitmask():
    assert list(SOLVERS) == TECHNIQUES
    assert list(INFO) == TECHNIQUES


@pytest.mark.parametrize("name", TECHNIQUES)
def test_docstring_names_technique_cost_article_and_order(name):
    doc = inspect.getdoc(SOLVERS[name])
    assert doc and "Article 00" in doc and ("Cost" in doc or "Memory" in doc)
    assert ("not lexicographic" in doc) == (name in UNORDERED)
    assert "lexicographic" in doc


@pytest.mark.parametrize("n", range(9))
@pytest.mark.parametrize("name", TECHNIQUES)
def test_solver_yields_the_brute_force_list(brute, name, n):
    found = list(SOLVERS[name](n))
    if name in UNORDERED:
        found.sort()
    assert found == brute(n)
    assert all(type(p) is tuple for p in found)


@pytest.mark.parametrize("name", TECHNIQUES)
def test_solver_counts_match_oeis_up_to_its_quick_size(name):
    n = INFO[name].quick_n
    assert sum(1 for _ in SOLVERS[name](n)) == A000170[n]


@pytest.mark.parametrize("name", TECHNIQUES)
@pytest.mark.parametrize(
    ("n", "error", "message"),
    [
        ("8", TypeError, "n must be an int, not str"),
        (8.0, TypeError, "n must be an int, not float"),
        (True, TypeError, "n must be an int, not bool"),
        (None, TypeError, "n must be an int, not NoneType"),
        (-1, ValueError, "n must be between 0 and"),
        (nqueens.MAX_N + 1, ValueError, "n must be between 0 and"),
    ],
)
def test_bad_n_is_rejected_at_the_call_as_the_api_does(name, n, error, message):
    with pytest.raises(error, match=message) as raised:
        SOLVERS[name](n)  # no next(): the check comes at the call
    with pytest.raises(error) as from_api:
        nqueens.count(n)
    assert str(raised.value) == str(from_api.value)


@given(
    n=st.integers(0, 8),
    first=st.sampled_from([*TECHNIQUES, "core"]),
    second=st.sampled_from(TECHNIQUES),
)
def test_any_two_solvers_agree(n, first, second):
    def run(name):
        found = nqueens.solutions(n) if name == "core" else SOLVERS[name](n)
        return sorted(found)

    assert run(first) == run(second)


def test_canonical_is_the_smallest_of_eight_distinct_images():
    # the 8 images of an asymmetric 8-queens solution are distinct solutions
    placement = (0, 4, 7, 5, 2, 6, 1, 3)
    found = images(placement)
    assert len(set(found)) == 8
    assert all(nqueens.is_solution(p) for p in found)
    assert canonical(placement) == min(found)
    assert all(canonical(p) == canonical(placement) for p in found)


@pytest.mark.parametrize("name", ["permutations", "breadth_first", "bitmask"])
def test_cli_count_and_solve_with_a_solver(name, cli):
    assert cli("count", "8", "--solver", name).stdout == "92\n"
    assert cli("count", "8", "--solver", name, "--unique").stdout == "12\n"
    result = cli("solve", "6", "--solver", name, "--format", "csv", "--limit", "2")
    assert result.stdout.splitlines() == ["1,3,5,0,2,4", "2,5,1,4,0,3"]


def test_cli_lists_the_solvers(cli):
    result = cli("solvers")
    assert result.returncode == 0
    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == ["core", *TECHNIQUES]
    for name in names:  # each one it lists is a --solver
        done = cli("count", "8", "--solver", name)
        assert done.returncode == 0 and done.stdout == "92\n", (name, done.stderr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["count", "8", "--solver", "astar"], "no solver 'astar' (choose from core, "),
        (["count", "8", "--solver", "bitmask", "--workers", "2"], "native core only"),
        (["solve", "-3", "--solver", "bitmask"], "n must be between 0 and"),
    ],
)
def test_cli_rejects_bad_solver_use(args, message, cli):
    result = cli(*args)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr
