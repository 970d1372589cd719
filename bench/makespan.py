"""Plan past one machine: the makespan of count(n) on K workers, simulated from units timed here.

    python bench/makespan.py [--budget SECONDS] [--seed S] [N ...]

For each n (default 20 and 22) it builds the quadrant table (timed), then counts
random subproblems of count(n)'s split one at a time for about --budget seconds, timing
each: the mean times the number of subproblems estimates the whole work W (seconds of
one core of this machine), and the times themselves are the distribution a unit's subproblems
are drawn from.  n = 24 is beyond the quadrant core (it goes by borders): its
row is an extrapolation, W(24) = W(22) * (W(22) / W(20)), with n = 22's subproblems'
distribution scaled to it; say so wherever it is quoted.

The simulation (nqueens._engine.makespan.simulate, which `nqueens estimate N --cluster K`
runs too), per n and K (16, 256, 4096 workers):
- the units are what count() makes by default: unit_count(W, K, cost) of them,
  each a deal of about T / units subproblems across the split, so a unit's time is
  the sum of that many draws from the sample (exact up to 16 draws, by the
  normal law above), the units' times scaled together to make W, plus
  ENGINE_COST (Dask's measured cost of a unit here);
- the scheduler hands out one unit every SCHEDULER_COST seconds at most (Dask's
  own guidance: about 1 ms of scheduler time a subproblem), and each worker starts
  after building its table;
- list scheduling: each unit goes to the worker that is free first.
It prints the makespan, the efficiency W / (K * makespan) and the engine's
overhead (units * ENGINE_COST / W) as a Markdown table.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

from nqueens._engine import assembly as _assembly, subproblems as _subproblems
from nqueens._engine.makespan import ENGINE_COST, simulate

WORKERS = (16, 256, 4096)


def sample(n: int, budget: float, rng: random.Random) -> tuple[float, int, list[float]]:
    """(table build seconds, number of subproblems, times of random subproblems counted here)."""
    started = time.perf_counter()
    quarter = _assembly.build(n)
    built = time.perf_counter() - started
    subproblems = _assembly.split(n, _subproblems.quadrant_split_size(n))
    times: list[float] = []
    stop = bytearray(1)
    deadline = time.perf_counter() + budget
    while time.perf_counter() < deadline or len(times) < 30:
        subproblem = subproblems[rng.randrange(len(subproblems))]
        begun = time.perf_counter()
        _subproblems.count_run([subproblem], stop, quarter)
        times.append(time.perf_counter() - begun)
    return built, len(subproblems), times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="*", type=int, default=[20, 22])
    parser.add_argument("--budget", type=float, default=20.0, help="seconds of sampling per n")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    measured = {}
    for n in args.n:
        built, subproblems, times = sample(n, args.budget, rng)
        work = statistics.fmean(times) * subproblems
        error = statistics.stdev(times) / math.sqrt(len(times)) * subproblems
        measured[n] = (built, subproblems, times, work)
        print(
            f"n = {n}: table {built:.2f} s, {subproblems:,} subproblems, {len(times):,} timed: "
            f"W = {work:,.0f} s +- {error:,.0f} (one core of this machine)",
            file=sys.stderr,
        )
    if 20 in measured and 22 in measured:
        built, subproblems, times, work = measured[22]
        growth = work / measured[20][3]
        measured[24] = (built * 4, subproblems, [t * growth for t in times], work * growth)
    print("| n | W (core-s) | workers | units | makespan | efficiency | engine overhead |")
    print("|---|---|---|---|---|---|---|")
    for n, (built, subproblems, times, work) in sorted(measured.items()):
        for workers in WORKERS:
            units, makespan = simulate(work, subproblems, times, built, workers, rng)
            mark = " (extrapolated)" if n == 24 else ""
            print(
                f"| {n}{mark} | {work:,.0f} | {workers:,} | {units:,} | {makespan:,.1f} s | "
                f"{work / (workers * makespan):.3f} | {units * ENGINE_COST / work:.2%} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
