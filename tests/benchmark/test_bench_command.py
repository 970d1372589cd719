"""`nqueens bench` and the plain C baseline it compares against."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from nqueens import CPU, benchmark
from nqueens._oeis import A000170
from nqueens._select import IMPLEMENTATION
from nqueens.benchmark import Timing, _machine, _report as _bench_report
from nqueens.benchmark._baseline import BaselineUnavailable, build, compiler


def bench(*args, block_matplotlib=False, cwd=None):
    prelude = "sys.modules['matplotlib'] = None; " if block_matplotlib else ""
    code = "import sys; " + prelude + "from nqueens.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, "bench", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def assert_valid_png(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks = 8, []
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc
        chunks.append(kind)
        offset += 12 + length
    assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND" and b"IDAT" in chunks
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 400 and height >= 300


def check_report(stdout, sizes=range(4, 8)):
    # the solutions named for each size are the true counts
    heading = next(line for line in stdout.splitlines() if line.startswith("Time to count"))
    named = re.findall(r"n = (\d+): (\d+)", heading)
    assert [int(n) for n, _ in named] == list(sizes)
    assert all(int(count) == A000170[int(n)] for n, count in named)
    rows = [line for line in stdout.splitlines() if line.startswith("| core (")]
    assert rows, stdout
    cells = rows[0].split("|")[2:-1]
    # a median, half its range as a share of it, and the number of runs
    assert len(cells) == len(sizes)
    assert all(re.fullmatch(r" [\d.]+ (s|ms|µs|ns) ±\d+% ×\d+( †)? ", c) for c in cells), cells
    assert "Command: `nqueens bench" in stdout


def test_bench_writes_a_report_json_and_png(tmp_path):
    pytest.importorskip("matplotlib", reason="the [plot] extra is not installed")
    result = bench("--max-n", "7", "--budget", "0.5", "--runs", "3", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    check_report(result.stdout)
    assert "| pure Python: bitmask |" in result.stdout
    assert "| pure-Python twin |" in result.stdout
    assert "bench: n = 7" in result.stderr
    assert_valid_png(tmp_path / "nqueens-bench.png")
    assert (tmp_path / "nqueens-bench.md").read_text(encoding="utf-8") == result.stdout
    data = json.loads((tmp_path / "nqueens-bench.json").read_text(encoding="utf-8"))
    assert data["format"] == "nqueens-bench"
    context = data["context"]
    assert context["cores"] >= 1 and context["cpu"] and context["python"]
    assert context["core"] == IMPLEMENTATION
    assert context["command"].startswith("nqueens bench --max-n 7")
    keys = {r["key"] for r in data["results"]}
    assert {"core", "twin", "bitmask", "permutations"} <= keys
    for item in data["results"]:
        assert item["solutions"] == A000170[item["n"]]
        assert len(item["seconds"]) == 3 and item["min"] <= item["median"] <= item["max"]


def test_bench_without_matplotlib_says_so_and_still_reports(tmp_path):
    out = tmp_path / "another" / "new" / "dir"  # made, as mkdir -p
    result = bench(
        "--max-n", "6", "--only", "core", "twin", "--out", str(out), block_matplotlib=True
    )
    assert result.returncode == 0, result.stderr
    check_report(result.stdout, range(4, 7))
    assert "no plot: matplotlib is not installed" in result.stderr
    assert f"report written to {out}" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["nqueens-bench.json", "nqueens-bench.md"]


def test_only_and_skip_choose_the_rows(tmp_path):
    result = bench("--max-n", "5", "--only", "core", "twin", "bitmask", "--skip", "twin",
                   "--out", str(tmp_path), block_matplotlib=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "nqueens-bench.json").read_text(encoding="utf-8"))
    assert {r["key"] for r in data["results"]} == {"core", "bitmask"}
    assert data["settings"]["implementations"] == ["core", "bitmask"]


STUDENT = """
def count(n):
    def place(row, cols, left, right):
        if row == n:
            return 1
        return sum(place(row + 1, cols | {c}, left | {row - c}, right | {row + c})
                   for c in range(n)
                   if c not in cols and row - c not in left and row + c not in right)
    return place(0, frozenset(), frozenset(), frozenset())

def wrong(n):
    return n

def broken(n):
    raise RuntimeError("not written yet")
"""


def test_your_solver_races_and_wrong_ones_are_dropped_untimed(tmp_path):
    (tmp_path / "student.py").write_text(STUDENT)
    out = tmp_path / "out"
    out.mkdir()
    result = bench(
        "--max-n", "6", "--only", "core", "student:count", "student:wrong", "student:broken",
        "--against", "student:count", "--against", "student:wrong",
        "--against", "student:broken", "--out", str(out),
        cwd=tmp_path, block_matplotlib=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "| yours: student:count |" in result.stdout
    assert "student:wrong dropped, not timed: count(4) = 4, not 2" in result.stderr
    assert "student:broken dropped, not timed: count(4) raised RuntimeError" in result.stderr
    assert "Dropped: `student:wrong`" in result.stdout
    data = json.loads((out / "nqueens-bench.json").read_text(encoding="utf-8"))
    assert {r["key"] for r in data["results"]} == {"core", "student:count"}
    assert [d["key"] for d in data["dropped"]] == ["student:wrong", "student:broken"]


def test_a_solver_from_a_file_path(tmp_path):
    (tmp_path / "student.py").write_text(STUDENT)
    result = bench("--max-n", "5", "--only", "core", f"{tmp_path}/student.py:count",
                   "--against", f"{tmp_path}/student.py:count", "--out", str(tmp_path),
                   block_matplotlib=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"| yours: {tmp_path}/student.py:count |" in result.stdout


def test_a_solver_wrong_beyond_the_first_check_is_dropped_where_it_goes_wrong(tmp_path):
    (tmp_path / "late.py").write_text(
        "from nqueens import count as right\n\ndef count(n):\n    return right(n) + (n == 9)\n"
    )
    result = bench("--max-n", "10", "--only", "late:count", "--against", "late:count",
                   "--out", str(tmp_path), cwd=tmp_path, block_matplotlib=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "late:count dropped at n = 9: count(9) = 353, not 352" in result.stderr
    data = json.loads((tmp_path / "nqueens-bench.json").read_text(encoding="utf-8"))
    assert [r["n"] for r in data["results"]] == [4, 5, 6, 7, 8]


def test_compare_two_saved_runs_and_a_run_against_a_saved_one(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    for folder in (first, second):
        result = bench("--max-n", "6", "--only", "core", "twin", "--out", str(folder),
                       block_matplotlib=True)  # fmt: skip
        assert result.returncode == 0, result.stderr
    old, new = first / "nqueens-bench.json", second / "nqueens-bench.json"
    result = bench("--compare", str(old), str(new))
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| core |")]
    assert [row.split("|")[2].strip() for row in rows] == ["4", "5", "6"]
    olds = {(r["key"], r["n"]): r["median"] for r in json.loads(old.read_text())["results"]}
    news = {(r["key"], r["n"]): r["median"] for r in json.loads(new.read_text())["results"]}
    for row in rows:
        n = int(row.split("|")[2])
        ratio = float(row.split("|")[5].strip().rstrip("x †"))
        assert ratio == pytest.approx(news["core", n] / olds["core", n], rel=0.01)
    result = bench("--max-n", "5", "--only", "core", "--compare", str(old), "--out",
                   str(second), block_matplotlib=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"Against {old}:" in result.stdout
    assert "| twin |" not in result.stdout.split(f"Against {old}:")[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--budget", "-1"], "--budget must be a positive number"),
        (["--budget", "nan"], "--budget must be a positive number"),
        (["--budget", "soon"], "invalid float value"),
        (["--max-n", "3"], "--max-n must be between 4 and"),
        (["--max-n", "99"], "--max-n must be between 4 and"),
        (["--runs", "0"], "--runs must be between 1 and"),
        (["--out", "/dev/null/dir"], "'/dev/null' is not a directory"),
        (["--out", "/dev/null"], "is not a directory"),
        (["--json", "/nonexistent/dir/x.json"], "--json '/nonexistent/dir' is not a directory"),
        (["--only", "core", "fastest"], "--only: no implementation 'fastest'"),
        (["--skip", "C"], "--skip: no implementation 'C'"),
        (["--against", "nomodule"], "--against takes MODULE:FUNCTION"),
        (["--against", "no_such_module_here:count"], "cannot import no_such_module_here"),
        (["--against", "nqueens:missing"], "module nqueens has no missing"),
        (["--against", "nqueens:__version__"], "__version__ is not callable"),
        (["--against", "/nonexistent/x.py:count"], "no file /nonexistent/x.py"),
        (["--compare", "/nonexistent.json"], "cannot read /nonexistent.json"),
        (["--compare", "a", "b", "c"], "--compare takes OLD.json, or OLD.json NEW.json"),
    ],
)
def test_bad_bench_arguments_exit_2_before_timing(args, message):
    result = bench(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr


def test_a_file_that_is_not_a_report_is_refused(tmp_path):
    for text, message in [
        ("{", "is not JSON"),
        ('{"format": "other"}', "is not a report of nqueens bench"),
        ('{"format": "nqueens-bench", "format_version": 99}', "format version 99"),
        ('{"format": "nqueens-bench", "format_version": 1, "results": [{}]}', "malformed"),
    ]:
        path = tmp_path / "r.json"
        path.write_text(text)
        result = bench("--compare", str(path))
        assert result.returncode == 2 and message in result.stderr, (text, result.stderr)
    path.write_text("{}")
    result = bench("--compare", str(path), str(path), "--only", "core")
    assert result.returncode == 2


def test_unwritable_out_dir_is_refused(tmp_path, monkeypatch, capsys):
    # root may write anywhere, so making the probe file is made to fail
    from nqueens import cli

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", refused)
    assert cli.main(["bench", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"nqueens bench: --out {str(tmp_path)!r} is not writable"]


def timing(key, n, *samples, kind="core"):
    return Timing(key, key, kind, n, A000170[n], 1, samples)


def test_warnings_name_a_busy_machine_unsteady_figures_and_useless_threads():
    facts = {"cores": 2, "busy_before": 1.5}
    timings = [
        timing("core", 16, 0.6, 0.61, 0.62),
        timing("core-threads", 16, 0.7, 0.7, 1.0, kind="threads"),
    ]
    found = benchmark.warnings_for(timings, facts)
    assert len(found) == 3
    assert "busy before the run (1.5 of its 2 cores at work)" in found[0]
    assert found[1].startswith("1 of 2 figures spread over 1.3x")
    assert "at n = 16 the core on 2 threads was not faster than on one" in found[2]
    calm = [timing("core", 16, 0.6, 0.61, 0.62), timing("core-threads", 16, 0.31, 0.32, 0.33)]
    assert benchmark.warnings_for(calm, {"cores": 2, "busy_before": 0.2}) == []


def test_statistics_of_a_figure():
    t = timing("core", 8, 3.0, 1.0, 2.0, 10.0)
    assert (t.median, t.low, t.high, t.wide) == (2.5, 1.0, 10.0, True)
    assert not timing("core", 8, 1.0, 1.3).wide
    assert _bench_report.cell(timing("core", 8, 0.001, 0.0011, 0.0012)) == "1.1 ms ±9% ×3"


def test_headlines_give_the_ratios_the_readme_quotes():
    timings = [
        timing("core", 12, 0.001, 0.001, 0.001),
        timing("bitmask", 12, 0.3, 0.3, 0.3, kind="bitmask"),
        timing("core", 16, 0.6, 0.6, 0.6),
        timing("core-threads", 16, 0.3, 0.3, 0.3, kind="threads"),
        timing("plain-c", 16, 3.0, 3.0, 3.0, kind="c"),
    ]
    lines = _bench_report.headlines(timings)
    assert "n = 12: the core is **300x faster than the pure-Python bitmask solver**" in lines[0]
    assert "n = 16: the core is **0.2x the time of plain C" in lines[1]
    assert "n = 16: the core is **2x faster on every core than on one**" in lines[2]


def test_the_context_says_where_the_figures_come_from():
    facts = _machine.context(["nqueens", "bench", "--quick"])
    assert facts["command"] == "nqueens bench --quick"
    assert facts["cpu"] and facts["cpu"] != "cpu"
    assert facts["core"] == IMPLEMENTATION and facts["variant"] == CPU
    if IMPLEMENTATION == "cython":
        assert facts["compiler"].split()[0] in ("gcc", "clang", "msvc")
        assert "-O3" in facts["cflags"] or "/O2" in facts["cflags"]
    text = _machine.facts_text(facts)
    assert facts["cpu"] in text and facts["python"] in text
    assert (f"its {CPU} variant" in text) == (IMPLEMENTATION == "cython")


def test_plain_c_baseline_builds_and_counts_right(tmp_path):
    if compiler() is None:
        pytest.skip("no C compiler on PATH: the baseline cannot be built here")
    count = build(str(tmp_path))
    assert [count(n) for n in range(13)] == list(A000170[:13])


def test_baseline_without_a_compiler_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CC", raising=False)
    with pytest.raises(BaselineUnavailable, match="no C compiler"):
        build(str(tmp_path))


HOWTO = Path(__file__).resolve().parents[2] / "docs" / "howto" / "benchmark.md"


@pytest.mark.skipif(not HOWTO.exists(), reason="docs/ is not beside the tests")
def test_the_how_tos_student_solver_races(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", HOWTO.read_text(encoding="utf-8"), re.S)
    student = next(block for block in blocks if "def count(n):" in block)
    assert len(student.strip().splitlines()) <= 16  # a short solver, as ruff formats it
    (tmp_path / "student.py").write_text(student)
    result = bench("--max-n", "7", "--only", "core", "student:count",
                   "--against", "student:count", "--out", str(tmp_path), cwd=tmp_path,
                   block_matplotlib=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "| yours: student:count |" in result.stdout


def test_ctrl_c_keeps_what_was_measured(tmp_path):
    # a solver that interrupts the run at n = 9 (after its first check), as Ctrl-C would
    (tmp_path / "stop.py").write_text(
        "import nqueens\n\ndef count(n):\n    if n == 9:\n"
        "        raise KeyboardInterrupt\n    return nqueens.count(n)\n"
    )
    result = bench("--max-n", "9", "--only", "core", "stop:count", "--against", "stop:count",
                   "--out", str(tmp_path), cwd=tmp_path, block_matplotlib=True)  # fmt: skip
    assert result.returncode == 130
    assert "interrupted while timing stop:count at n = 9" in result.stderr
    assert result.stderr.splitlines()[-1] == "nqueens: interrupted"
    data = json.loads((tmp_path / "nqueens-bench.json").read_text(encoding="utf-8"))
    assert [(r["key"], r["n"]) for r in data["results"] if r["n"] >= 8] == [
        ("core", 8),
        ("stop:count", 8),
        ("core", 9),
    ]
    assert data["dropped"][0]["reason"].startswith("the run was interrupted")


def test_bench_writes_into_a_folder_of_its_own_by_default(tmp_path):
    result = bench("--max-n", "5", "--budget", "0.05", "--only", "core", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [p.name for p in tmp_path.iterdir()] == [benchmark.OUT_DIR]
    written = {p.name for p in (tmp_path / benchmark.OUT_DIR).iterdir()}
    assert {benchmark.MARKDOWN_NAME, benchmark.JSON_NAME} <= written
    # a run refused before it starts makes no folder
    assert bench("--max-n", "99", cwd=tmp_path / benchmark.OUT_DIR).returncode == 2
    assert not (tmp_path / benchmark.OUT_DIR / benchmark.OUT_DIR).exists()


STRANGE = """
class Index:
    def __index__(self):
        raise RuntimeError("no index here")

class Loud(Exception):
    def __str__(self):
        raise RuntimeError("no message either")

def huge(n):
    return 10**5000

def no_index(n):
    return Index()

def loud(n):
    raise Loud()
"""


def test_solvers_that_return_anything_are_dropped_in_one_line(tmp_path):
    (tmp_path / "strange.py").write_text(STRANGE)
    names = [f"strange:{name}" for name in ("huge", "no_index", "loud")]
    args = ["--max-n", "5", "--only", "core", *names, "--out", str(tmp_path)]
    for name in names:
        args += ["--against", name]
    result = bench(*args, cwd=tmp_path, block_matplotlib=True)
    assert result.returncode == 0, result.stderr
    assert "strange:huge dropped, not timed: count(4) = an int of 16,610 bits" in result.stderr
    assert "strange:no_index dropped, not timed: count(4) returned <" in result.stderr
    assert "strange:loud dropped, not timed: count(4) raised Loud: (it cannot be" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("path", ["", "somewhere/", "."])
def test_a_json_path_that_names_no_file_is_refused_before_any_timing(tmp_path, path):
    result = bench("--max-n", "12", "--json", path, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "--json" in result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing timed, nothing written
