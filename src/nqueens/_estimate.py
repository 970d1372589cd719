"""How long a count will take, from a sample of its own work, before it starts.

The count is cut into runs of subproblems that share the core's tables (the
same cut count() makes); runs picked at random are counted for a fraction
of a second, and the total is the number of runs times their mean time,
over the threads.  A run still unfinished when the time is up counts as
that long, so for a board too large to sample the figure is a lower bound.
"""

from __future__ import annotations

import random
import threading
import time
from typing import NamedTuple

from ._counting import _TASKS_PER_WORKER, _count_run, _runs, _split
from ._validate import available_cores


class Duration(NamedTuple):
    seconds: float
    at_least: bool  # the sample ran out of time: the count takes at least this long


def sampled_duration(n: int, threads: int, budget: float = 0.5) -> Duration:
    """The expected wall time of count(n, workers=threads), sampled for about budget
    seconds (one thread)."""
    _, tasks = _split(n, None, threads * _TASKS_PER_WORKER)
    starts = _runs(tasks)
    runs = list(zip(starts, [*starts[1:], len(tasks)]))
    order = random.Random(n).sample(range(len(runs)), len(runs))
    stop = bytearray(1)
    timer = threading.Timer(budget, stop.__setitem__, (0, 1))
    timer.start()
    spent = []
    try:
        for i in order:
            first, end = runs[i]
            began = time.perf_counter()
            _count_run(tasks[first:end], stop)
            spent.append(time.perf_counter() - began)
            if stop[0]:
                break
    finally:
        timer.cancel()
    # a cut run is a lower bound on its time; with few whole runs, so is the figure
    at_least = bool(stop[0]) and len(spent) < min(4, len(runs))
    mean = sum(spent) / len(spent)
    return Duration(mean * len(runs) / max(1, min(threads, available_cores())), at_least)


def describe(seconds: float) -> str:
    """A duration in the largest unit that keeps it readable."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds:.0f} seconds"
