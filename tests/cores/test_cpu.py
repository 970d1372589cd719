"""The quadrant core's variants by processor level: each one the processor runs counts
exactly what the twin and the oracles do; NQUEENS_CPU forces one; the baseline is
portable (no AVX register outside the v3 and v4 functions)."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys

import pytest

import nqueens
from nqueens import _quadrants_py
from nqueens._engine import assembly as _assembly
from nqueens._oeis import A000170, A002562

try:
    from nqueens import _quadrants
except ImportError:  # pragma: no cover - conftest fails loudly without --no-native
    _quadrants = None  # type: ignore[assignment]

pytestmark = pytest.mark.native

LEVELS = _quadrants.cpu_levels() if _quadrants is not None else ()
# fmt: off
PAIR_SIZES = (0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 127, 128, 255, 256, 257, 511, 512, 513, 768,
              769, 1030, 4100)
# fmt: on


@pytest.fixture(params=LEVELS)
def level(request):
    before = _quadrants.cpu()
    _quadrants.use_cpu(request.param)
    yield request.param
    _quadrants.use_cpu(before)


def test_the_best_level_runs_by_default_and_is_named():
    assert "baseline" in LEVELS and set(LEVELS) <= set(_quadrants.CPU_LEVELS)
    if os.environ.get("NQUEENS_CPU"):
        pytest.skip("NQUEENS_CPU chose the level of this run")
    assert nqueens.CPU == _quadrants.cpu() == LEVELS[-1]


def test_every_level_counts_every_board_exactly(level):
    for n in range(4, 16):
        quarter = _quadrants.Quarter(n)
        scratch = _quadrants.Scratch(quarter)
        total = 0
        for j in _assembly.jobs(n):
            job = _quadrants.Job(
                n, j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, j.crosses
            )
            total += j.weight * _quadrants.count_rows(
                quarter, job, 0, job.row_sets, bytearray(1), scratch
            )
        assert total == A000170[n], (level, n)
    assert nqueens.count(15, unique=True) == A002562[15]
    assert nqueens.count(16) == A000170[16]


def test_every_level_lists_the_twins_half_boards(level):
    rng = random.Random(7)
    for n in (9, 10, 12, 13):
        core_quarter, twin_quarter = _quadrants.Quarter(n), _quadrants_py.Quarter(n)
        for j in _assembly.jobs(n)[:4]:
            positions = [r for r in range(n) if j.rows >> r & 1]
            k = bin(j.east).count("1")
            east_rows = sum(1 << r for r in rng.sample(positions, k))
            for east, rows, cols in ((True, east_rows, j.east),
                                     (False, j.rows ^ east_rows, j.west)):  # fmt: skip
                for mode in _quadrants.Mode:
                    args = (east, rows, cols, j.holes1, j.holes2, mode, 2)
                    got = _quadrants.packed_halves(core_quarter, *args)
                    want = _quadrants_py.packed_halves(twin_quarter, *args)
                    assert sorted(got[0]) == sorted(want[0]), (level, n, mode)
                    assert [sorted(x) for x in got[1]] == [sorted(x) for x in want[1]]


@pytest.mark.parametrize("bits", [30, 34, 40, 60])
def test_every_level_counts_disjoint_pairs_as_one_by_one(level, bits):
    # sizes on both sides of every cut: 8 lanes, blocks of 32, groups of 512, half
    # groups (a last one of at most 256), slicing and buckets; masks of up to 4 bytes
    # (the core's, up to n = 17) and of more (v3 slices 4 byte planes or up to 8); 6, 7,
    # 8 and 12 chunks of 5 bits (v3 has its own loop for each of 5 to 8 chunks)
    rng = random.Random(11 + bits)
    for size in PAIR_SIZES:
        for count in (1, 2, 3, 95, 96, 97):
            stored = [rng.getrandbits(bits) & rng.getrandbits(bits) for _ in range(size)]
            items = [rng.getrandbits(bits) & rng.getrandbits(bits) for _ in range(count)]
            items[0] = 0  # an empty item meets every stored mask, the padding too
            expected = sum(1 for s in stored for i in items if not s & i)
            for tables in ("any", "narrow", "wide"):  # wide: 7 bits a lookup, no half group
                got = _quadrants.count_pairs(stored, items, bits, tables)
                assert got == expected, (level, size, count, tables)


def test_every_level_counts_the_pairs_of_many_items_alike(level):
    # from 2,048 items a group meets, v4 slices the stored masks into wide tables
    rng = random.Random(7)
    stored = [rng.getrandbits(34) & rng.getrandbits(34) for _ in range(700)]
    items = [rng.getrandbits(34) & rng.getrandbits(34) & rng.getrandbits(34) for _ in range(2100)]
    expected = sum(1 for s in stored for i in items if not s & i)
    assert _quadrants.count_pairs(stored, items, 34) == expected


def test_levels_are_refused_by_name_and_by_processor():
    with pytest.raises(ValueError, match="the variants are"):
        _quadrants.use_cpu("avx9000")
    with pytest.raises(ValueError, match="does not run v4"):
        _quadrants_py.use_cpu("v4")  # the twin runs the baseline only
    missing = [name for name in _quadrants.CPU_LEVELS if name not in LEVELS]
    for name in missing:
        with pytest.raises(ValueError, match=f"does not run {name}"):
            _quadrants.use_cpu(name)


def run_with(value, code):
    env = {**os.environ, "NQUEENS_CPU": value}
    env.pop("NQUEENS_PUREPYTHON", None)
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, env=env
    )


@pytest.mark.parametrize("name", LEVELS)
def test_nqueens_cpu_forces_a_level(name):
    done = run_with(name, "import nqueens; print(nqueens.CPU, nqueens.count(13))")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.split() == [name, str(A000170[13])]


def test_nqueens_cpu_unknown_or_missing_warns_once_and_runs_the_best():
    for value in ("avx9000", *[n for n in _quadrants.CPU_LEVELS if n not in LEVELS]):
        done = run_with(value, "import nqueens; print(nqueens.CPU, nqueens.count(12))")
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [LEVELS[-1], str(A000170[12])]
        assert done.stderr.count("RuntimeWarning") == 1 and f"NQUEENS_CPU={value}" in done.stderr


def test_the_baseline_code_uses_no_avx_register():
    # a wheel built here must run on any x86-64: outside the functions compiled for v3
    # and v4 (chosen at run time), no instruction may name a ymm or zmm register
    if sys.platform != "linux" or os.uname().machine != "x86_64" or not shutil.which("objdump"):
        pytest.skip("needs objdump on x86-64 Linux")
    found = {}
    for module in (_quadrants, nqueens._select.bitsolver):
        listing = subprocess.run(
            ["objdump", "-d", "--no-show-raw-insn", module.__file__],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        function = None
        for line in listing.splitlines():
            head = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
            if head:
                function = head.group(1)
            elif re.search(r"%[yz]mm\d", line) and not re.search(r"_v[34]\b", function or ""):
                found.setdefault(function, line.strip())
    assert found == {}
    assert re.search(r"nq_match_v4", subprocess.run(
        ["objdump", "-t", _quadrants.__file__], capture_output=True, text=True, check=True
    ).stdout)  # fmt: skip
