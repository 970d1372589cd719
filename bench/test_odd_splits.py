"""bench/odd_splits.c, the estimate of three ways of cutting an odd board (BENCHMARKS.md):
each cut, paired one half-board at a time, counts every solution once."""

from __future__ import annotations

import pathlib
import re
import subprocess

import pytest

from nqueens._oeis import A000170
from nqueens.benchmark._baseline import compiler

SOURCE = pathlib.Path(__file__).with_name("odd_splits.c")


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    cc = compiler()
    if cc is None:
        pytest.skip("no C compiler ($CC, cc, gcc or clang) on PATH")
    binary = tmp_path_factory.mktemp("odd") / "odd_splits"
    subprocess.run([cc, "-O2", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def run(program: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("scheme", ["cross", "middle", "rect"])
@pytest.mark.parametrize("n", [5, 7, 9, 11, 13])
def test_every_solution_once(program: pathlib.Path, n: int, scheme: str) -> None:
    result = run(program, str(n), scheme, "check")
    assert result.returncode == 0, result.stderr
    fields = dict(re.findall(r"(\w+)=(\d+)", result.stdout))
    assert int(fields["solutions"]) == A000170[n]
    # a half-board is a join product that fits
    for side in ("east", "west"):
        assert int(fields[f"joins_{side}"]) >= int(fields[f"kept_{side}"]) > 0


@pytest.mark.parametrize("args", [[], ["8", "cross"], ["23", "middle"], ["9", "rows"]])
def test_refuses_what_it_does_not_estimate(program: pathlib.Path, args: list[str]) -> None:
    result = run(program, *args)
    assert result.returncode == 2
    assert result.stderr.startswith("usage:")
