"""Every implementation, side by side for each n.

    pytest bench --benchmark-group-by=param:n --benchmark-autosave
    pytest bench --benchmark-group-by=param:n --benchmark-compare

Rows: the core with one thread and with every core, the plain C baseline
(bench/baseline.c, compiled with cc -O3 at benchmark time), the core's
pure-Python twin, and each reference solver up to the largest n it counts in
about a second (its INFO.quick_n).
"""

from __future__ import annotations

import pytest

import nqueens
from nqueens import _bitsolver_py
from nqueens._oeis import A000170, A002562
from nqueens.reference import INFO, SOLVERS

CORE_SIZES = range(8, 17)
TWIN_SIZES = range(8, 13)


def record(benchmark, n, implementation):
    benchmark.extra_info.update(n=n, count=A000170[n], implementation=implementation)


def rounds(n):
    return 3 if n >= 14 else 10


def per_second(benchmark, n):
    # solutions found per second, from the best round
    if benchmark.stats is not None:
        benchmark.extra_info["solutions_per_second"] = A000170[n] / benchmark.stats.stats.min


@pytest.mark.parametrize("workers", [1, -1], ids=["1-thread", "all-cores"])
@pytest.mark.parametrize("n", CORE_SIZES)
def test_core(benchmark, n, workers):
    record(benchmark, n, f"core ({nqueens.IMPLEMENTATION}), workers={workers}")
    result = benchmark.pedantic(
        nqueens.count, args=(n,), kwargs={"workers": workers}, rounds=rounds(n)
    )
    assert result == A000170[n]
    per_second(benchmark, n)


@pytest.mark.parametrize("n", CORE_SIZES)
def test_core_unique(benchmark, n):
    record(benchmark, n, f"core ({nqueens.IMPLEMENTATION}), unique=True")
    result = benchmark.pedantic(nqueens.count, args=(n,), kwargs={"unique": True}, rounds=rounds(n))
    assert result == A002562[n]


@pytest.mark.parametrize("n", [12, 14])
def test_iterate_solutions(benchmark, n):
    record(benchmark, n, "iterate solutions() in Python, lexicographic order")
    result = benchmark.pedantic(lambda: sum(1 for _ in nqueens.solutions(n)), rounds=3)
    assert result == A000170[n]
    per_second(benchmark, n)


def test_iterate_unique_solutions(benchmark):
    n = 14
    record(benchmark, n, "iterate solutions(unique=True) in Python, lexicographic order")
    result = benchmark.pedantic(lambda: sum(1 for _ in nqueens.solutions(n, unique=True)), rounds=3)
    assert result == A002562[n]


@pytest.mark.parametrize("n", CORE_SIZES)
def test_plain_c(benchmark, baseline, n):
    record(benchmark, n, "plain C, cc -O3")
    result = benchmark.pedantic(baseline, args=(n,), rounds=rounds(n))
    assert result == A000170[n]
    per_second(benchmark, n)


@pytest.mark.parametrize("n", TWIN_SIZES)
def test_pure_python_twin(benchmark, n):
    record(benchmark, n, "pure-Python twin (NQUEENS_PUREPYTHON mode)")
    result = benchmark.pedantic(_bitsolver_py.count_solutions, args=(n, bytearray(1)), rounds=3)
    assert result == A000170[n]
    per_second(benchmark, n)


@pytest.mark.parametrize(
    ("name", "n"),
    [(name, n) for name in SOLVERS for n in range(8, INFO[name].quick_n + 1)],
)
def test_reference(benchmark, name, n):
    record(benchmark, n, f"reference: {name}")
    result = benchmark.pedantic(lambda: sum(1 for _ in SOLVERS[name](n)), rounds=3)
    assert result == A000170[n]
    per_second(benchmark, n)
