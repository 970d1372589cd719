"""Shared pieces of the benchmark suite: the bench command's implementations."""

from __future__ import annotations

import sys

import pytest

from nqueens import benchmark


@pytest.fixture(scope="session")
def implementations() -> dict[str, benchmark.Implementation]:
    """What `nqueens bench` times, by key; plain C compiled with `cc -O3` on the spot
    (missing where no compiler is found: its tests then skip and say why)."""
    return {impl.key: impl for impl in benchmark.implementations(sys.stderr)}
