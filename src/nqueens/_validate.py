"""Argument checks shared by the public API, the reference solvers and the CLI."""

from __future__ import annotations

import operator
import os
from typing import Any, Callable

MAX_N = 64
"""The largest board side accepted: one bit per column of a 64-bit word."""


def as_int(value: object, name: str) -> int:
    """value as an int (bool refused), or TypeError naming the argument."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None


def check_bool(value: object, name: str) -> bool:
    """Return value if it is a bool, or raise TypeError naming the argument."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    return value


def check_n(n: object) -> int:
    """Return n as an int, or raise TypeError / ValueError naming the limit."""
    value = as_int(n, "n")
    if not 0 <= value <= MAX_N:
        raise ValueError(f"n must be between 0 and {MAX_N} (nqueens.MAX_N), got {value}")
    return value


def check_limit(limit: object) -> int | None:
    """Return limit (None or an int >= 0), or raise."""
    if limit is None:
        return None
    value = as_int(limit, "limit")
    if value < 0:
        raise ValueError(f"limit must be None or an int >= 0, got {value}")
    return value


def check_workers(workers: object) -> int | Callable[..., Any]:
    """Return the threads that workers asks for (-1: every core), or workers itself
    if it is a map-like callable."""
    if callable(workers):
        return workers
    value = as_int(workers, "workers")
    if value == -1:
        return available_cores()
    if value < 1:
        raise ValueError(
            f"workers must be a positive int, -1 (all cores) or a map-like callable, got {value}"
        )
    return value


def available_cores() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
