"""Every implementation of `nqueens bench`, side by side for each n.

    pytest bench --benchmark-group-by=param:n --benchmark-autosave
    pytest bench --benchmark-group-by=param:n --benchmark-compare

The rows are the command's own (nqueens.benchmark.implementations(), with
its keys and its check of every count against A000170): the core with one
thread and, where it starts threads (n >= 14), with every core; the plain C
baseline (bench/baseline.c, compiled with cc -O3 at benchmark time); the
core's pure-Python twin; and each reference solver up to the largest n it
counts in about a second (its INFO.quick_n).  Besides, the core's unique
count, the iteration of solutions(), and beside it a loop over as many tuples of
itertools.permutations (the floor for tuples made in C; BENCHMARKS.md's target is
solutions(14) at 0.5x its rate or better).
"""

from __future__ import annotations

import itertools

import pytest

import nqueens
from nqueens import benchmark as command
from nqueens._oeis import A000170, A002562
from nqueens.reference import INFO, SOLVERS

CORE_SIZES = range(8, 17)
THREAD_SIZES = range(command.THREADS_MIN_N, 17)
TWIN_SIZES = range(8, 13)
SIZES = {
    "core": CORE_SIZES,
    "core-threads": THREAD_SIZES,
    "plain-c": CORE_SIZES,
    "twin": TWIN_SIZES,
    **{name: range(8, INFO[name].quick_n + 1) for name in SOLVERS},
}


def record(benchmark, n, implementation):
    benchmark.extra_info.update(n=n, count=A000170[n], implementation=implementation)


def rounds(n):
    return 3 if n >= 14 else 10


def per_second(benchmark, n):
    # solutions found per second, from the best round
    if benchmark.stats is not None:
        benchmark.extra_info["solutions_per_second"] = A000170[n] / benchmark.stats.stats.min


@pytest.mark.parametrize(("key", "n"), [(key, n) for key in command.OWN_KEYS for n in SIZES[key]])
def test_implementation(benchmark, implementations, key, n):
    impl = implementations.get(key)
    if impl is None:
        pytest.skip(f"{key} is not timed on this machine (see the bench command's log)")
    record(benchmark, n, impl.label)
    result = benchmark.pedantic(impl.count, args=(n,), rounds=rounds(n))
    assert command._check_result(result, n) is None
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


@pytest.mark.parametrize("n", [14])
def test_iterate_as_many_permutations(benchmark, n):
    record(benchmark, n, f"iterate as many itertools.permutations(range({n})) tuples in Python")

    def take() -> int:
        return sum(1 for _ in itertools.islice(itertools.permutations(range(n)), A000170[n]))

    assert benchmark.pedantic(take, rounds=3) == A000170[n]
    per_second(benchmark, n)


def test_iterate_unique_solutions(benchmark):
    n = 14
    record(benchmark, n, "iterate solutions(unique=True) in Python, lexicographic order")
    result = benchmark.pedantic(lambda: sum(1 for _ in nqueens.solutions(n, unique=True)), rounds=3)
    assert result == A002562[n]
