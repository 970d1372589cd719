"""`nqueens bench` and the plain C baseline it compares against."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import zlib

import pytest

from nqueens._baseline import BaselineUnavailable, build, compiler
from nqueens._oeis import A000170


def bench(*args, block_matplotlib=False):
    prelude = "sys.modules['matplotlib'] = None; " if block_matplotlib else ""
    code = "import sys; " + prelude + "from nqueens.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, "bench", *args], capture_output=True, text=True, timeout=300
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


def check_table(stdout):
    # the solutions named for each size are the true counts
    sizes = re.findall(r"n = (\d+): (\d+)", stdout.splitlines()[0])
    assert [int(n) for n, _ in sizes] == list(range(4, 8))
    assert all(int(count) == A000170[int(n)] for n, count in sizes)
    rows = [line for line in stdout.splitlines() if line.startswith("| core")]
    assert rows, stdout
    times = rows[0].split("|")[2:-1]
    assert len(times) == 4 and all(re.fullmatch(r" [\d.]+ (s|ms|µs|ns) ", t) for t in times)
    assert "| reference: bitmask |" in stdout
    assert "| pure-Python twin |" in stdout


def test_bench_prints_tables_and_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib", reason="the [plot] extra is not installed")
    result = bench("--max-n", "7", "--budget", "0.5", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    check_table(result.stdout)
    assert "bench: n = 7" in result.stderr
    assert_valid_png(tmp_path / "nqueens-bench.png")


def test_bench_without_matplotlib_says_so_and_still_prints(tmp_path):
    result = bench("--max-n", "7", "--budget", "0.5", "--out", str(tmp_path), block_matplotlib=True)
    assert result.returncode == 0, result.stderr
    check_table(result.stdout)
    assert "no plot: matplotlib is not installed" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--budget", "-1"], "--budget must be a positive number"),
        (["--budget", "nan"], "--budget must be a positive number"),
        (["--budget", "soon"], "invalid float value"),
        (["--max-n", "3"], "--max-n must be between 4 and"),
        (["--max-n", "99"], "--max-n must be between 4 and"),
        (["--out", "/nonexistent/dir"], "is not a directory"),
    ],
)
def test_bad_bench_arguments_exit_2_before_timing(args, message):
    result = bench(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr


def test_unwritable_out_dir_is_refused(tmp_path, monkeypatch, capsys):
    # root may write anywhere, so the permission check itself is made to say no
    from nqueens import cli

    monkeypatch.setattr("os.access", lambda path, mode: False)
    assert cli.main(["bench", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"nqueens bench: --out {str(tmp_path)!r} is not writable"]


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
