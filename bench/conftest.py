"""Shared pieces of the benchmark suite: the plain C baseline, built on the spot."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from nqueens._baseline import BaselineUnavailable, build


@pytest.fixture(scope="session")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], int]:
    """count(n) of bench/baseline.c compiled with `cc -O3`, called through ctypes."""
    try:
        return build(str(tmp_path_factory.mktemp("baseline")))
    except BaselineUnavailable as exc:
        pytest.skip(f"the plain C baseline is not timed: {exc}")
