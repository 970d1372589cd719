"""construct, random_solution, conflicts, render and to_svg, through the API and the CLI."""

from __future__ import annotations

import array
import itertools
import json
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, strategies as st

import nqueens
from nqueens import Conflict, conflicts, construct, random_solution, render, to_svg

EIGHT = (0, 4, 7, 5, 2, 6, 1, 3)


def pairs_by_brute_force(placement):
    found = []
    for a, b in itertools.combinations(range(len(placement)), 2):
        ca, cb = placement[a], placement[b]
        if ca == cb:
            found.append((a, b, "column"))
        if a - ca == b - cb:
            found.append((a, b, "diagonal"))
        if a + ca == b + cb:
            found.append((a, b, "anti-diagonal"))
    return found


def is_valid(placement):
    return sorted(placement) == list(range(len(placement))) and not pairs_by_brute_force(placement)


# construct


@pytest.mark.parametrize("n", [1, *range(4, 2001)])
def test_construct_is_valid(n):
    placement = construct(n)
    assert len(placement) == n and nqueens.is_solution(placement)


def test_construct_small_boards_by_brute_force():
    for n in [1, *range(4, 40)]:
        assert is_valid(construct(n))


@pytest.mark.parametrize("n", [10**6, 10**6 + 2, 10**6 + 3, 3 * 10**5 + 1])
def test_construct_huge_boards(n):
    # every residue mod 6 matters: 10**6 % 6 == 4, +2 -> 0, +3 -> 1, 300001 % 6 == 1
    placement = construct(n)
    assert len(placement) == n and nqueens.is_solution(placement)


@pytest.mark.slow
def test_construct_ten_million():
    placement = construct(10**7)
    assert len(placement) == 10**7 and nqueens.is_solution(placement)


@pytest.mark.parametrize("n", [2, 3])
def test_construct_refuses_boards_without_solutions(n):
    with pytest.raises(ValueError, match=f"the {n}-queens problem has no solution"):
        construct(n)


@pytest.mark.parametrize(("n", "error"), [(-1, ValueError), (4.0, TypeError), ("8", TypeError)])
def test_construct_checks_n(n, error):
    with pytest.raises(error):
        construct(n)


# random_solution


@pytest.mark.parametrize("n", [1, 4, 5, 6, 8, 10, 11, 12, 13, 20, 57, 200, 1000])
def test_random_solution_is_valid(n):
    for seed in range(3):
        assert is_valid(random_solution(n, seed=seed))


def test_random_solution_large():
    placement = random_solution(100_000, seed=7)
    assert len(placement) == 100_000 and nqueens.is_solution(placement)


@pytest.mark.parametrize("n", [8, 30, 1000])
def test_random_solution_is_reproducible_and_varied(n):
    assert random_solution(n, seed=42) == random_solution(n, seed=42)
    assert len({random_solution(n, seed=s) for s in range(10)}) >= 5
    if n >= 30:  # seed None draws afresh; at this size a repeat is all but impossible
        assert random_solution(n) != random_solution(n)


@pytest.mark.parametrize("n", [2, 3])
def test_random_solution_refuses_boards_without_solutions(n):
    with pytest.raises(ValueError, match="no solution"):
        random_solution(n)


def test_random_solution_checks_seed():
    with pytest.raises(TypeError, match="seed must be an int"):
        random_solution(8, seed="abc")


# conflicts


@given(
    st.integers(0, 12).flatmap(
        lambda n: st.lists(st.integers(0, max(n - 1, 0)), min_size=n, max_size=n)
    )
)
def test_conflicts_match_a_brute_force_pair_check(placement):
    found = conflicts(placement)
    assert [tuple(c) for c in found] == pairs_by_brute_force(placement)
    assert nqueens.is_solution(placement) == (found == [])


def test_conflicts_name_rows_and_kind():
    assert conflicts((0, 1, 3, 3)) == [
        Conflict(0, 1, "diagonal"),
        Conflict(0, 3, "diagonal"),
        Conflict(1, 3, "diagonal"),
        Conflict(2, 3, "column"),
    ]
    assert conflicts([3, 2, 1, 0]) == [
        Conflict(a, b, "anti-diagonal") for a, b in itertools.combinations(range(4), 2)
    ]
    assert conflicts(EIGHT) == []


def test_conflicts_accept_any_sequence_of_ints():
    assert conflicts(array.array("i", [1, 3, 0, 2])) == []
    assert conflicts(range(3)) == [
        Conflict(0, 1, "diagonal"),
        Conflict(0, 2, "diagonal"),
        Conflict(1, 2, "diagonal"),
    ]


def test_conflicts_reject_bad_entries():
    with pytest.raises(TypeError, match=r"placement\[1\] must be an int, not float"):
        conflicts([0, 1.5])
    with pytest.raises(ValueError, match=r"placement\[2\] = 7 is off the board"):
        conflicts([0, 1, 7])


# render


GOLDEN_4 = {
    "queens": ".Q..\n...Q\nQ...\n..Q.\n",
    "binary": "0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n",
    "stars": "0 * 0 0\n0 0 0 *\n* 0 0 0\n0 0 * 0\n",
    "numbered": "0 1 0 0\n0 0 0 2\n3 0 0 0\n0 0 4 0\n",
    "unicode": "□♛□■\n■□■♛\n♛■□■\n■□♛□\n",
}

GOLDEN_8 = {
    "queens": "Q.......\n....Q...\n.......Q\n.....Q..\n..Q.....\n......Q.\n.Q......\n...Q....\n",
    "binary": (
        "1 0 0 0 0 0 0 0\n0 0 0 0 1 0 0 0\n0 0 0 0 0 0 0 1\n0 0 0 0 0 1 0 0\n"
        "0 0 1 0 0 0 0 0\n0 0 0 0 0 0 1 0\n0 1 0 0 0 0 0 0\n0 0 0 1 0 0 0 0\n"
    ),
    "stars": (
        "* 0 0 0 0 0 0 0\n0 0 0 0 * 0 0 0\n0 0 0 0 0 0 0 *\n0 0 0 0 0 * 0 0\n"
        "0 0 * 0 0 0 0 0\n0 0 0 0 0 0 * 0\n0 * 0 0 0 0 0 0\n0 0 0 * 0 0 0 0\n"
    ),
    "numbered": (
        "1 0 0 0 0 0 0 0\n0 0 0 0 2 0 0 0\n0 0 0 0 0 0 0 3\n0 0 0 0 0 4 0 0\n"
        "0 0 5 0 0 0 0 0\n0 0 0 0 0 0 6 0\n0 7 0 0 0 0 0 0\n0 0 0 8 0 0 0 0\n"
    ),
    "unicode": ("♛■□■□■□■\n■□■□♛□■□\n□■□■□■□♛\n■□■□■♛■□\n□■♛■□■□■\n■□■□■□♛□\n□♛□■□■□■\n■□■♛■□■□\n"),
}


@pytest.mark.parametrize("style", sorted(GOLDEN_4))
def test_render_golden(style):
    assert render((1, 3, 0, 2), style=style) == GOLDEN_4[style]
    assert render(EIGHT, style=style) == GOLDEN_8[style]


def test_render_default_style_and_errors():
    assert render((1, 3, 0, 2)) == GOLDEN_4["queens"]
    assert render(()) == ""
    with pytest.raises(ValueError, match="style must be one of"):
        render((0,), style="fancy")
    with pytest.raises(ValueError, match="off the board"):
        render((0, 2))


# to_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("placement", [(0,), (1, 3, 0, 2), EIGHT, construct(100), construct(1500)])
def test_svg_parses_with_one_queen_per_row(placement):
    root = ET.fromstring(to_svg(placement))
    assert root.tag == f"{SVG}svg"
    queens = [use for use in root.iter(f"{SVG}use") if use.get("href") == "#queen"]
    assert len(queens) == len(placement)
    # drawn in board units: each queen at the integers of its row and column
    assert root.get("viewBox") == f"0 0 {len(placement)} {len(placement)}"
    rows = sorted(int(q.get("y")) for q in queens)
    assert rows == list(range(len(placement)))
    columns = {int(q.get("y")): int(q.get("x")) for q in queens}
    assert tuple(columns[r] for r in range(len(placement))) == tuple(placement)


def test_svg_size_and_limits():
    root = ET.fromstring(to_svg(EIGHT, size=123))
    assert root.get("width") == "123" and root.get("height") == "123"
    with pytest.raises(ValueError, match="size must be 16 to 65536 pixels"):
        to_svg(EIGHT, size=5)
    with pytest.raises(ValueError, match="size must be 16 to 65536 pixels"):
        to_svg(EIGHT, size=10**400)
    with pytest.raises(ValueError, match=f"up to {nqueens.SVG_MAX_N} columns"):
        to_svg(construct(nqueens.SVG_MAX_N + 1))


# the command line


def test_cli_construct_formats(cli):
    assert cli("construct", "8").stdout == render(construct(8))
    result = cli("construct", "10", "--format", "json", "--one-based")
    assert json.loads(result.stdout) == [c + 1 for c in construct(10)]
    assert (
        cli("construct", "6", "--format", "csv").stdout == ",".join(map(str, construct(6))) + "\n"
    )
    root = ET.fromstring(cli("construct", "12", "--format", "svg").stdout)
    assert ET.fromstring(cli("solve", "6", "--format", "svg", "--limit", "1").stdout) is not None
    assert len(list(root.iter(f"{SVG}use"))) == 12
    assert cli("construct", "5", "--style", "stars").stdout == render(construct(5), "stars")


def test_cli_random_is_reproducible(cli):
    first = cli("random", "40", "--seed", "3", "--format", "csv")
    again = cli("random", "40", "--seed", "3", "--format", "csv")
    assert first.returncode == 0 and first.stdout == again.stdout
    placement = tuple(map(int, first.stdout.split(",")))
    assert placement == random_solution(40, seed=3)


@pytest.mark.parametrize(
    ("args", "status", "out"),
    [
        (["1", "3", "0", "2"], 0, "valid\n"),
        (["--one-based", "2", "4", "1", "3"], 0, "valid\n"),
        (
            ["0", "1", "3", "3"],
            1,
            "invalid: 4 attacking pairs\nrows 0 and 1: same diagonal\nrows 0 and 3: same diagonal\n"
            "rows 1 and 3: same diagonal\nrows 2 and 3: same column\n",
        ),
        (["--one-based", "1", "1"], 1, "invalid: 1 attacking pair\nrows 1 and 2: same column\n"),
    ],
)
def test_cli_verify(args, status, out, cli):
    result = cli("verify", *args)
    assert (result.returncode, result.stdout, result.stderr) == (status, out, "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verify", "0", "x"], "row 1: the column is 'x', not an integer"),
        (["verify", "0", "2.5"], "not an integer"),
        (["verify", "0", "5"], "row 1 has column 5, off a 2x2 board"),
        (["verify", "--one-based", "0", "1"], "row 1 has column 0, off a 2x2 board (columns 1..2)"),
        (["construct", "3"], "the 3-queens problem has no solution"),
        (["construct", "-4"], "n must be between 0 and 10,000,000"),
        (["random", "2"], "no solution"),
        (["random", "8", "--seed", "x"], "invalid int value"),
        (["construct", "5000", "--format", "svg"], "--format svg draws boards up to"),
        (["solve", "6", "--out", "."], "--out goes with --format svg"),
        (["solve", "6", "--format", "svg"], "give --out DIR (or --limit 1)"),
        (["solve", "6", "--format", "svg", "--out", "/dev/null/x"], "cannot be made"),
        (["solve", "6", "--format", "svg", "--out", "/dev/null"], "is not a directory"),
        (["solve", "6", "--format", "svg", "--out", "/proc/new"], "leads into /proc"),
        (["solve", "6", "--style", "fancy"], "invalid choice"),
    ],
)
def test_cli_placement_usage_errors(args, message, cli):
    result = cli(*args)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr


def test_cli_solve_svg_writes_one_file_per_board(tmp_path, cli):
    out = tmp_path / "a" / "new" / "dir"  # made, with its parents, as mkdir -p
    result = cli("solve", "6", "--format", "svg", "--out", str(out))
    assert result.returncode == 0 and result.stdout == ""
    assert result.stderr == f"nqueens: wrote 4 SVG files to {out}\n"
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"nqueens-6-{i:06d}.svg" for i in range(1, 5)]
    for path, placement in zip(files, nqueens.solutions(6)):
        root = ET.parse(path).getroot()
        queens = list(root.iter(f"{SVG}use"))
        assert len(queens) == 6
        assert to_svg(placement) == path.read_text()


def test_cli_solve_styles_and_one_based(cli):
    result = cli("solve", "4", "--style", "binary", "--limit", "1")
    assert result.stdout == GOLDEN_4["binary"]
    result = cli("solve", "4", "--format", "csv", "--one-based")
    assert result.stdout.splitlines() == ["2,4,1,3", "3,1,4,2"]
