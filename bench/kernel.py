"""How close the pair counting comes to the processor's limit.

    python bench/kernel.py [--seed S] [--ghz F] [N ...]      (default: 18 22)

For each n it builds the quadrant table, takes the half-boards of random row sets of
the (first) job as count() lists them, and counts the disjoint pairs of a block of the
east half-boards (at most 4,095, so that every pair is tested: from 4,096 on the core
sorts them into buckets first, which prunes pairs) with the west ones, on
each processor level this machine runs and with each kind of table. It prints the
pairs tested a second, and the same per clock cycle (at --ghz, default: the clock measured
by a chain of dependent additions) beside the bound of the loads: the matching
reads one 512-bit table entry per chunk of an item for each group of 512 stored
masks, so a core that loads one 512-bit word a cycle (AMD Zen 3 and Zen 4; two on
Intel's cores with AVX-512) tests at most 512 / chunks pairs a cycle, whatever its
AND and popcount throughput (which is higher). The time of converting the masks
from Python is measured apart (one stored mask) and taken off.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from nqueens import _select
from nqueens._engine import assembly

CHUNK, WIDE = 5, 7  # bits per table lookup: the narrow and the wide tables (common.h)
MOST_STORED = 4095  # below the core's _CUT_FROM: every pair is tested


CLOCK_C = r"""
#include <stdint.h>
#include <stdio.h>
#include <time.h>
/* a chain of dependent additions: one a cycle on any x86-64 core of this century */
int main(void)
{
    uint64_t x = 1, steps = 2000000000ull;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (uint64_t i = 0; i < steps; i++)
        __asm__ volatile("add $1, %0" : "+r"(x));
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%f\n", steps / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9) / 1e9 + 0 * x);
    return 0;
}
"""


def clock_ghz() -> float:
    """The core's clock while it runs, measured: a chain of dependent additions (one
    a cycle), compiled with the C compiler found; 0 where none is."""
    import os
    import subprocess
    import tempfile

    from nqueens.benchmark._baseline import compiler

    cc = compiler()
    if cc is None:
        return 0.0
    with tempfile.TemporaryDirectory() as folder:
        source, program = os.path.join(folder, "clock.c"), os.path.join(folder, "clock")
        with open(source, "w", encoding="ascii") as file:
            file.write(CLOCK_C)
        subprocess.run([cc, "-O1", "-o", program, source], check=True)
        runs = [subprocess.run([program], capture_output=True, text=True) for _ in range(2)]
    return max(float(run.stdout) for run in runs)


def half_boards(n: int, rng: random.Random) -> tuple[list[int], list[int], int]:
    """East and west half-boards of random row sets of n's first job (the stored
    masks and the items), and the masks' width in bits."""
    quarter = assembly.build(n)
    job = assembly.jobs(n)[0]
    positions = [r for r in range(n) if job.rows >> r & 1]
    k = bin(job.east).count("1")
    stored: list[int] = []
    items: list[int] = []
    while len(stored) < MOST_STORED or len(items) < 20 * MOST_STORED:
        east_rows = sum(1 << r for r in rng.sample(positions, k))
        # as count_rows lists them: the east half-boards stored, the west ones the
        # items (each listed as items, by class)
        _, east = _select.quadrants.packed_halves(
            quarter, True, east_rows, job.east, job.holes1, job.holes2, 0, 0
        )
        _, west = _select.quadrants.packed_halves(
            quarter, False, job.rows ^ east_rows, job.west, job.holes1, job.holes2, 0, 0
        )
        stored += [mask for masks in east for mask in masks]
        items += [mask for masks in west for mask in masks]
    bits = max(mask.bit_length() for mask in stored + items)
    return stored[:MOST_STORED], items[: 40 * MOST_STORED], bits


def seconds(stored: list[int], items: list[int], bits: int, tables: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        _select.quadrants.count_pairs(stored, items, bits, tables)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="*", default=[18, 22])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ghz", type=float, default=0.0)
    args = parser.parse_args()
    ghz = args.ghz or clock_ghz()
    quadrants = _select.quadrants
    print(f"the clock taken: {ghz:.2f} GHz; levels: {', '.join(quadrants.cpu_levels())}")
    print(
        "| n | bits | stored | items | level | tables | pairs a second | a cycle | bound | share |"
    )
    print("|---:|---:|---:|---:|---|---|---:|---:|---:|---:|")
    for n in args.n:
        stored, items, bits = half_boards(n, random.Random(args.seed))
        base = seconds(stored[:1], items, bits, "narrow", args.runs)
        pairs = len(stored) * len(items)
        for level in quadrants.cpu_levels():
            quadrants.use_cpu(level)
            for tables, width in (("narrow", CHUNK), ("wide", WIDE)):
                took = seconds(stored, items, bits, tables, args.runs) - base
                rate = pairs / took
                per_cycle = rate / (ghz * 1e9) if ghz else float("nan")
                bound = 512 / -(-bits // width)
                print(
                    f"| {n} | {bits} | {len(stored):,} | {len(items):,} | {level} | {tables} "
                    f"| {rate:.3g} | {per_cycle:.1f} | {bound:.0f} | {per_cycle / bound:.0%} |"
                )
        quadrants.use_cpu(quadrants.cpu_levels()[-1])


if __name__ == "__main__":
    main()
