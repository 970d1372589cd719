"""The edges a user meets: verify's verdicts, output that cannot be written, costs bounded
before work starts, long work announced, exact drawings, lenient types."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
import xml.etree.ElementTree as ET

import pytest

import nqueens
from nqueens import construct, count, random_solution, solutions, to_svg
from nqueens._placements.checking import attacking_pairs, conflicts

NQUEENS = [sys.executable, "-m", "nqueens"]


def run(*args, stdin=None, **kwargs):
    return subprocess.run(
        [*NQUEENS, *args], input=stdin, capture_output=True, text=True, timeout=300, **kwargs
    )


# verify never says "valid" wrongly


@pytest.mark.parametrize(
    ("stdin", "status", "out"),
    [
        ("0 0\n", 1, "invalid: 1 attacking pair\nrows 0 and 1: same column\n"),
        ("1 3 0 2\n", 0, "valid\n"),
        ("[1, 3, 0, 2]\n", 0, "valid\n"),  # solve --format json
        ("1,3,0,2\n", 0, "valid\n"),  # solve --format csv
    ],
)
def test_verify_reads_standard_input(stdin, status, out):
    for args in ([], ["-"]):
        result = run("verify", *args, stdin=stdin)
        assert (result.returncode, result.stdout, result.stderr) == (status, out, "")


@pytest.mark.parametrize("stdin", ["", "\n  \n", ", []"])
def test_verify_refuses_an_empty_placement(stdin):
    result = run("verify", stdin=stdin)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("nqueens verify: no placement")


def test_verify_keeps_its_verdict_when_the_reader_goes_away():
    for columns, verdict in (("0 1 2 3", 1), ("1 3 0 2", 0)):
        script = f"{sys.executable} -m nqueens verify {columns} | true; echo ${{PIPESTATUS[0]}}"
        result = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
        assert result.stdout == f"{verdict}\n" and result.stderr == ""


def test_verify_names_the_row_of_a_bad_word():
    result = run("verify", "0", "2", "5", "x")
    assert result.returncode == 2
    assert result.stderr == "nqueens verify: row 3: the column is 'x', not an integer\n"


def test_verify_of_a_huge_invalid_placement_counts_and_shows_a_few():
    result = run("verify", stdin=" ".join(["0"] * 20000))
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert lines[0] == "invalid: 199990000 attacking pairs"
    assert lines[1:3] == ["rows 0 and 1: same column", "rows 0 and 2: same column"]
    assert len(lines) == 22 and lines[-1] == "... and 199989980 more"


def test_conflicts_can_stop_early_in_memory_of_the_pairs_shown():
    placement = [0] * 20000
    tracemalloc.start()
    try:
        assert len(conflicts(placement, limit=20)) == 20
        assert attacking_pairs(placement) == 20000 * 19999 // 2
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20  # O(n): the 2*10**8 pairs would take gigabytes
    with pytest.raises(ValueError, match="limit must be None or an int >= 0"):
        conflicts(placement, limit=-1)


# writing output


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args", [["count", "8"], ["solve", "6"], ["verify", "1", "3", "0", "2"], ["construct", "9"]]
)
def test_a_full_disk_is_one_line_and_status_74(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([*NQUEENS, *args], stdout=full, stderr=subprocess.PIPE, text=True)
    assert result.returncode == 74
    assert result.stderr == "nqueens: cannot write the output: No space left on device\n"


def test_svg_files_that_cannot_be_written_are_one_line(tmp_path):
    # /proc passes root's permission checks, but takes no file: refused before any work
    result = run("solve", "6", "--format", "svg", "--out", "/proc")
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "not writable" in result.stderr
    (tmp_path / "nqueens-6-000001.svg").mkdir()  # a directory in the way
    result = run("solve", "6", "--format", "svg", "--out", str(tmp_path))
    assert result.returncode == 74 and len(result.stderr.splitlines()) == 1
    assert "nqueens-6-000001.svg" in result.stderr
    assert sorted(os.listdir(tmp_path)) == ["nqueens-6-000001.svg"]  # nothing half-written


def test_a_symlink_at_the_output_name_is_replaced_not_written_through(tmp_path):
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    out = tmp_path / "out"
    out.mkdir()
    (out / "nqueens-6-000001.svg").symlink_to(precious)
    result = run("solve", "6", "--format", "svg", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert precious.read_text() == "keep me"
    written = out / "nqueens-6-000001.svg"
    assert not written.is_symlink() and written.read_text().startswith("<svg")
    assert len(os.listdir(out)) == 4  # the 4 solutions of n = 6, no temporary left


def test_bench_plot_replaces_a_symlink_too(tmp_path):
    pytest.importorskip("matplotlib", reason="the [plot] extra is not installed")
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    (tmp_path / "nqueens-bench.png").symlink_to(precious)
    result = run("bench", "--max-n", "5", "--budget", "0.05", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert precious.read_text() == "keep me"
    png = tmp_path / "nqueens-bench.png"
    assert not png.is_symlink() and png.read_bytes().startswith(b"\x89PNG")


def test_solve_says_when_there_is_no_solution():
    result = run("solve", "2")
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr == "nqueens solve: no solutions for N = 2\n"
    assert run("solve", "6", "--limit", "0").stderr == ""


# costs bounded before work starts


def test_workers_beyond_what_can_help_are_refused_or_capped(core):
    with pytest.raises(ValueError, match="workers must be 1 to 1024 threads"):
        count(16, workers=10**6)
    with pytest.raises(ValueError, match="workers must be 1 to 1024 threads"):
        count(16, workers=10**4)
    assert count(12, workers=1000) == 14200  # as many threads as cores, no more


def test_a_split_too_fine_is_refused_before_it_is_built(core):
    for n, depth in [(20, 4), (18, 5), (16, 3)]:
        with pytest.raises(ValueError, match="more than 1,000,000 subproblems"):
            nqueens.subproblems(n, depth=depth)
        with pytest.raises(ValueError, match="more than 1,000,000 subproblems"):
            count(n, depth=depth)
    for args in (["count", "18", "--depth", "5"], ["count", "16", "--depth", "3"]):
        result = run(*args)
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
        assert "more than 1,000,000 subproblems" in result.stderr


def test_the_task_count_is_exact_where_it_is_allowed():
    from nqueens._engine.subproblems import split_size

    for n in range(4, 13):
        for depth in range(4):
            assert split_size(n, depth, 10**9) == len(nqueens.subproblems(n, depth=depth))


def test_depth_is_refused_with_a_reference_solver_whatever_its_value():
    for depth in ("0", "1"):
        result = run("count", "8", "--solver", "permutations", "--depth", depth)
        assert result.returncode == 2
        assert "--journal and --depth apply to the native core only" in result.stderr


@pytest.mark.skipif(
    "asan" in os.environ.get("LD_PRELOAD", ""),
    reason="under AddressSanitizer, shadow memory and quarantine make peak memory meaningless",
)
def test_text_boards_stream_a_row_at_a_time():
    # a fresh process whose one child is the command: its peak memory alone
    measure = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", measure, *NQUEENS, "construct", "20000"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    # the whole board as one string would be 400 MB; a row is 20 kB
    assert int(result.stdout) < 150 * 1024


def test_placement_sizes_are_bounded_with_a_value_error():
    for make in (construct, random_solution):
        with pytest.raises(ValueError, match="n must be between 0 and 10,000,000"):
            make(10**30)
        with pytest.raises(ValueError, match="n must be between 0 and 10,000,000"):
            make(-1)


# long work says so


def test_a_hopeless_count_is_refused_at_once():
    result = subprocess.run(
        [*NQUEENS, "count", "40", "--workers", "2"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("nqueens count: N = 40 would take more than a million years")
    assert result.stderr.count("\n") == 1 and "--anyway" in result.stderr


def test_a_count_of_minutes_gives_an_estimate_first():
    from nqueens._engine.estimate import duration_text as describe

    took = nqueens.estimate(20, workers=2, budget=2)
    assert took.seconds > 10  # a minute here; at least tens of seconds on any machine
    assert describe(90) == "90 seconds" and describe(3600) == "60 minutes"
    assert describe(3 * 86400) == "3 days"


def test_the_cost_of_lexicographic_order_is_documented():
    assert "construct(n)" in solutions.__doc__ and "random_solution(n)" in solutions.__doc__
    result = run("solve", "--help")
    assert "nqueens construct N" in result.stdout and "costly" in result.stdout


# exact drawings, lenient types


def test_every_queen_is_drawn_in_its_square():
    placement = construct(2000)
    root = ET.fromstring(to_svg(placement, size=1100))
    ns = "{http://www.w3.org/2000/svg}"
    queens = [u for u in root.iter(f"{ns}use") if u.get("href") == "#queen"]
    drawn = {int(u.get("y")): int(u.get("x")) for u in queens}
    assert [drawn[r] for r in range(2000)] == list(placement)


def test_numpy_bools_and_ints_are_accepted():
    numpy = pytest.importorskip("numpy")
    assert count(numpy.int64(8), unique=numpy.True_) == 12
    assert next(solutions(numpy.int32(8), unique=numpy.bool_(False))) == (0, 4, 7, 5, 2, 6, 1, 3)
    with pytest.raises(TypeError, match="unique must be a bool, not str"):
        count(8, unique="yes")
    assert nqueens.is_solution(numpy.array([1, 3, 0, 2]))
