"""A process pool against two threads: count(n) in whole processes, paired, medians.

    python bench/pools.py [--rounds R] [--kept] [--multiprocessing] [--map]
                          [--verify SHARE] [N [METHOD ...]]

Each round runs, in processes of their own, `count(n, workers=2)` and then
`count(n, workers=pool)` for a `ProcessPoolExecutor(2)` on each start method
(default: n = 18, every method this system has; --multiprocessing: a
`multiprocessing.Pool(2)`, passed itself), the order turned each round;
each process prints the seconds of the timed count alone.  A new pool each count
by default (its processes' start is part of its time, as in a script that makes
one); --kept times a second count on a pool that has counted once (its
processes up, their tables kept); --map passes the pool's bound map, as
`workers=pool.map`; --verify SHARE times each method's pool a second time
in the same rounds, with `verify=SHARE` (the default checks nothing twice on
a new "fork" pool: --verify 0.02 gives the checks' cost).  It prints, for
each pool, the median time and the median and quartiles of the ratio threads
/ pool of each round (1.0: as fast as two threads), in Markdown.  Compare
ratios from one run only: the machines are shared and noisy.  #24's aim: a
new "fork" pool at least 0.95x at n = 18 (BENCHMARKS.md has the figures).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import subprocess
import sys

THREADS = """
import time, nqueens
nqueens.count(12, workers=1)
if __name__ == "__main__":
    started = time.perf_counter()
    nqueens.count({n}, workers=2)
    print(time.perf_counter() - started)
"""

POOL = """
import multiprocessing, time, nqueens
from concurrent.futures import ProcessPoolExecutor
nqueens.count(12, workers=1)
if __name__ == "__main__":
    started = time.perf_counter()
    with {make} as pool:
        if {kept}:
            nqueens.count({n}, workers=pool{how})
            started = time.perf_counter()
        nqueens.count({n}, workers=pool{how})
        print(time.perf_counter() - started)
"""


def seconds(code: str) -> float:
    """The seconds a new process prints, running `code`."""
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=18)
    parser.add_argument("methods", nargs="*", help="start methods (default: every one here)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--kept", action="store_true", help="time a pool's second count")
    parser.add_argument(
        "--multiprocessing", action="store_true", help="a multiprocessing.Pool, not an executor"
    )
    parser.add_argument("--map", action="store_true", help="workers=pool.map, not the pool")
    parser.add_argument(
        "--verify", type=float, metavar="SHARE", help="each pool again with verify=SHARE"
    )
    args = parser.parse_args(argv)
    methods = args.methods or multiprocessing.get_all_start_methods()
    codes = {"threads": THREADS.format(n=args.n)}
    for method in methods:
        context = f"multiprocessing.get_context({method!r})"
        make = (
            f"{context}.Pool(2)"
            if args.multiprocessing
            else f"ProcessPoolExecutor(2, mp_context={context})"
        )
        how = ".map" if args.map else ""
        codes[method] = POOL.format(n=args.n, make=make, kept=args.kept, how=how)
        if args.verify is not None:
            how += f", verify={args.verify!r}"
            codes[f"{method}, verify={args.verify}"] = POOL.format(
                n=args.n, make=make, kept=args.kept, how=how
            )
    times: dict[str, list[float]] = {name: [] for name in codes}
    for round_ in range(args.rounds):
        order = list(codes) if round_ % 2 else list(codes)[::-1]
        for name in order:
            times[name].append(seconds(codes[name]))
    pool = "a kept pool's second count" if args.kept else "a new pool each count"
    pool += ", multiprocessing.Pool(2)" if args.multiprocessing else ", ProcessPoolExecutor(2)"
    print(
        f"n = {args.n}, {pool}, {args.rounds} rounds; two threads: "
        f"{statistics.median(times['threads']):.3f} s\n"
    )
    print("| start method | pool (median) | threads / pool | quartiles |")
    print("|---|---:|---:|---:|")
    for method in list(codes)[1:]:
        ratios = sorted(t / p for t, p in zip(times["threads"], times[method]))
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        print(
            f"| {method} | {statistics.median(times[method]):.3f} s | "
            f"{statistics.median(ratios):.3f}x | {quartiles[0]:.3f}-{quartiles[2]:.3f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
