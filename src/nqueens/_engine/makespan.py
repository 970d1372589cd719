"""How long a count would take on a cluster: a simulation of its makespan.

count(n, workers=client) on K workers cuts the split into the units that
``unit_count`` gives (each a like sample of the whole; at odd n, of blocks of
a cross's runs, which the simulation does not model: it draws every unit from
the same sample), and a Dask scheduler hands them out.  The simulation takes
the work W (seconds of one core), a sample of the seconds of one item of it (a
row set of the quadrant method or a subproblem), and:

- a unit's time is the sum of its items' times, drawn from the sample (up to
  _DRAWN items; beyond, by the normal law of such a sum), scaled with the other
  units' so that together they make the work W (a random total would let one
  worker finish before W), plus ENGINE_COST,
  what Dask costs a unit (a no-op mapped over many items on a LocalCluster);
- the scheduler hands out at most one unit every SCHEDULER_COST seconds (Dask's
  own guidance: about 1 ms of scheduler time a subproblem);
- each worker starts once it has built its table;
- list scheduling: each unit goes to the worker that is free first.

The workers are assumed as fast as one core of this machine, each with one
thread, and the network free: a plan, not a measurement (BENCHMARKS.md compares
it with the counts measured here).
"""

from __future__ import annotations

import heapq
import math
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .workers.engines import UNIT_COST
from .workers.plan import unit_count

if TYPE_CHECKING:
    import random

ENGINE_COST = 0.0037
"""Seconds a unit costs Dask: the time of a no-op mapped over many items by a LocalCluster."""
SCHEDULER_COST = 0.001
"""Seconds of the scheduler's own time a unit (Dask's guidance): one unit handed out at a time."""
# units of up to this many items are drawn item by item from the sample
_DRAWN = 16


def simulate(
    work: float,
    population: int,
    times: Sequence[float],
    built: float,
    workers: int,
    rng: random.Random,
    subproblems: int | None = None,
) -> tuple[int, float]:
    """(units, makespan in seconds) of a count of `work` seconds of one core, made of
    `population` items like the sample `times`, on `workers` workers that each start
    after `built` seconds; `subproblems`, the subproblems of the split (default: the
    population), caps the units.

    100 s of work on 4 workers: sqrt(100 * 4 / (2 * 0.01)) = 142 units, in whole rounds
    of 4, and a quarter of the work each, plus what its 36 units cost:

    >>> import random
    >>> units, makespan = simulate(100.0, 1000, [0.1], 0.0, 4, random.Random(1))
    >>> units, round(makespan, 1)
    (144, 25.1)
    """
    if population <= 0 or work <= 0 or not times:
        return 0, 0.0
    units = max(
        1,
        min(
            population if subproblems is None else subproblems, unit_count(work, workers, UNIT_COST)
        ),
    )
    mean = work / population  # the sample's mean, scaled to the work (W may come from elsewhere)
    scale = mean / statistics.fmean(times) if statistics.fmean(times) > 0 else 0.0
    spread = statistics.pstdev(times) * scale
    drawn = []
    for k in range(units):
        size = population // units + (1 if k < population % units else 0)
        if size <= _DRAWN:
            drawn.append(sum(rng.choice(times) for _ in range(size)) * scale)
        else:
            drawn.append(max(0.0, rng.gauss(size * mean, spread * math.sqrt(size))))
    # the draws spread the work over the units; its total is the work's own
    total = math.fsum(drawn)
    shares = [took * work / total for took in drawn] if total > 0 else drawn
    free = [built] * min(workers, units)
    heapq.heapify(free)
    end = 0.0
    for k, took in enumerate(shares):
        start = max(heapq.heappop(free), k * SCHEDULER_COST)
        finish = start + took + ENGINE_COST
        end = max(end, finish)
        heapq.heappush(free, finish)
    return units, end
