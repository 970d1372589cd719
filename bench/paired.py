"""Time two commands side by side, as whole processes, in pairs: the way nqueens is measured
against another counter.

    python bench/paired.py [--pairs K] [--warmup K] -- COMMAND_A -- COMMAND_B

Each pair runs A then B, or B then A (alternating, so that neither always runs on a cache
or a clock the other warmed); a drift of the machine's speed then moves both sides of a pair
alike. It prints the median of each command's times and the median of the pairs' ratios
A / B (below 1: A takes that share of B's time), with their range. For example, against the
quadrant-assembly program of EvgenyKluev/N-Queens-Count-Sol, compiled for n = 18 with
``g++ -std=c++20 -O3 -march=native`` into ``./kluev18`` (its board size is a constant of its
source, and its argument the number of threads):

    python bench/paired.py --pairs 9 -- nqueens count 18 -- ./kluev18 1

Time nothing else on the machine meanwhile: the two commands share its cores.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import time


def seconds(command: list[str]) -> float:
    """The wall-clock time of one run of `command`, its output discarded; a failed run
    stops the measurement."""
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def measure(first: list[str], second: list[str], pairs: int, warmup: int = 1) -> dict[str, float]:
    """Run both commands `warmup` times untimed, then `pairs` pairs in alternating order;
    the medians of each side and of the pairs' ratios first / second, with the ratios'
    range."""
    for _ in range(warmup):
        seconds(first)
        seconds(second)
    a_times, b_times, ratios = [], [], []
    for pair in range(pairs):
        if pair % 2:
            b, a = seconds(second), seconds(first)
        else:
            a, b = seconds(first), seconds(second)
        a_times.append(a)
        b_times.append(b)
        ratios.append(a / b)
    return {
        "first": statistics.median(a_times),
        "second": statistics.median(b_times),
        "ratio": statistics.median(ratios),
        "low": min(ratios),
        "high": max(ratios),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args.count("--") != 2:
        print(
            "usage: paired.py [--pairs K] [--warmup K] -- COMMAND_A -- COMMAND_B", file=sys.stderr
        )
        return 2
    split = args.index("--")
    rest = args[split + 1 :]
    parser = argparse.ArgumentParser(prog="paired.py", description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=9, help="timed pairs (default: 9)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs of each (default: 1)")
    options = parser.parse_args(args[:split])
    if options.pairs < 1 or options.warmup < 0:
        parser.error("--pairs must be at least 1 and --warmup at least 0")
    first, second = rest[: rest.index("--")], rest[rest.index("--") + 1 :]
    if not first or not second:
        parser.error("give two commands, each after --")
    result = measure(first, second, options.pairs, options.warmup)
    print(f"A: {shlex.join(first)}\n   median {result['first']:.3f} s")
    print(f"B: {shlex.join(second)}\n   median {result['second']:.3f} s")
    print(
        f"A / B: {result['ratio']:.3f}x (pairs: {result['low']:.3f}x to {result['high']:.3f}x, "
        f"{options.pairs} pairs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
