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
    """Return value as a bool if it is one (NumPy's bools too), or raise TypeError
    naming the argument."""
    if isinstance(value, bool):
        return value
    kind = type(value)
    if kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"):
        return bool(value)
    raise TypeError(f"{name} must be a bool, not {kind.__name__}")


def check_n(n: object) -> int:
    """Return n as an int, or raise TypeError / ValueError naming the limit."""
    value = as_int(n, "n")
    if not 0 <= value <= MAX_N:
        raise ValueError(f"n must be between 0 and {MAX_N}, got {value}")
    return value


def check_limit(limit: object) -> int | None:
    """Return limit (None or an int >= 0), or raise; a limit no iteration can reach
    (above 2**62) is None, no limit.

    >>> check_limit(5), check_limit(2**63)
    (5, None)
    """
    if limit is None:
        return None
    value = as_int(limit, "limit")
    if value < 0:
        raise ValueError(f"limit must be None or an int >= 0, got {value}")
    return None if value > _UNREACHED else value


# more placements than a loop could take in centuries: a limit beyond is none
_UNREACHED = 2**62


MAX_WORKERS = 1024
"""The most threads count() accepts; it starts no more than the cores it may use."""


def is_engine(workers: object) -> bool:
    """Whether workers is an engine object count() drives itself: a concurrent.futures
    executor or anything with ``submit`` (a Dask Client), or a pool with
    ``imap_unordered`` (multiprocessing's, Ray's)."""
    return not callable(workers) and (
        callable(getattr(workers, "submit", None))
        or callable(getattr(workers, "imap_unordered", None))
    )


def check_workers(workers: object) -> int | Callable[..., Any]:
    """Return the threads to start for workers (-1: every core; never more than the
    cores, which is all that CPU-bound threads can use), or workers itself if it is
    a map-like callable or an engine (is_engine)."""
    if callable(workers) or is_engine(workers):
        return workers  # type: ignore[return-value]
    value = as_int(workers, "workers")
    if value == -1:
        return available_cores()
    if not 1 <= value <= MAX_WORKERS:
        raise ValueError(
            f"workers must be 1 to {MAX_WORKERS} threads, -1 (all cores), a map-like or an "
            f"executor, got {value}"
        )
    return min(value, available_cores())


def available_cores() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def short_repr(value: object, width: int = 80) -> str:
    """repr(value) in at most `width` characters, whatever the value: an int too long
    to print, or an object whose repr raises, is named by its type.

    >>> short_repr(list(range(100)), 20), short_repr(10**5000)
    ('[0, 1, 2, 3, 4, 5...', 'an int of 16,610 bits')
    """
    if type(value) is int and value.bit_length() > 256:
        return f"an int of {value.bit_length():,} bits"
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__} that cannot be shown"
    return text if len(text) <= width else text[: width - 3] + "..."
