"""The native core against the plain C baseline, side by side for each n.

pytest bench --benchmark-group-by=param:n --benchmark-autosave
"""

from __future__ import annotations

import pytest

import nqueens
from nqueens._oeis import A000170

SIZES = range(8, 17)


@pytest.mark.parametrize("n", SIZES)
def test_core_one_worker(benchmark, n):
    benchmark.extra_info.update(n=n, count=A000170[n], implementation=nqueens.IMPLEMENTATION)
    result = benchmark.pedantic(nqueens.count, args=(n,), rounds=3 if n >= 15 else 10)
    assert result == A000170[n]


@pytest.mark.parametrize("n", SIZES)
def test_plain_c(benchmark, baseline, n):
    benchmark.extra_info.update(n=n, count=A000170[n], implementation="plain C, cc -O3")
    result = benchmark.pedantic(baseline, args=(n,), rounds=3 if n >= 15 else 10)
    assert result == A000170[n]
