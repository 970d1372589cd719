"""``nqueens bench``: time the core against pure Python and plain C, as a table and a plot.

Every implementation counts the solutions for n = 4, 5, ... in turn and is
dropped once one size takes longer than the budget, or the next one is
predicted to; so the whole run takes about twice the budget per
implementation.  Each figure is the best of as many runs as fit in a short
slice of time, and every count is checked against OEIS A000170.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Iterator, Sequence
from typing import Callable, NamedTuple, TextIO

from . import _bitsolver_py
from ._baseline import BaselineUnavailable, build_temporary
from ._counting import count
from ._oeis import A000170
from ._output import write_atomically
from ._select import IMPLEMENTATION
from ._validate import available_cores
from ._version import DISTRIBUTION, __version__
from .reference import SOLVERS

FIRST_N = 4
DEFAULT_MAX_N = 16
DEFAULT_BUDGET = 1.0
PLOT_NAME = "nqueens-bench.png"
_REPEAT_SLICE = 0.05  # seconds of repeats for the best-of timing of fast cases


class Implementation(NamedTuple):
    label: str
    count: Callable[[int], int]


class Timing(NamedTuple):
    n: int
    label: str
    seconds: float
    solutions: int


def implementations(log: TextIO) -> list[Implementation]:
    """What is timed: the core (one thread, every core), plain C, pure Python."""
    threads = available_cores()
    found = [
        Implementation(f"core ({IMPLEMENTATION}, 1 thread)", count),
        Implementation(
            f"core ({IMPLEMENTATION}, {threads} threads)", lambda n: count(n, workers=-1)
        ),
    ]
    try:
        found.append(Implementation("plain C (cc -O3)", build_temporary()))
    except BaselineUnavailable as exc:
        print(f"bench: plain C skipped: {exc}", file=log)
    found.append(
        Implementation(
            "pure-Python twin", lambda n: int(_bitsolver_py.count_solutions(n, bytearray(1)))
        )
    )
    for name, solver in SOLVERS.items():
        found.append(Implementation(f"reference: {name}", _counter(solver)))
    return found


def _counter(solver: Callable[[int], Iterator[tuple[int, ...]]]) -> Callable[[int], int]:
    return lambda n: sum(1 for _ in solver(n))


def _best_time(run: Callable[[int], int], n: int) -> tuple[float, int]:
    best = float("inf")
    spent = 0.0
    while spent < _REPEAT_SLICE:
        start = time.perf_counter()
        result = run(n)
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        spent += elapsed
    return best, result


def measure(
    impls: Sequence[Implementation], max_n: int, budget: float, log: TextIO
) -> list[Timing]:
    """Time each implementation for n = FIRST_N..max_n within the budget."""
    timings: list[Timing] = []
    last: dict[str, float] = {}
    active = list(impls)
    for n in range(FIRST_N, max_n + 1):
        for impl in list(active):
            seconds, result = _best_time(impl.count, n)
            if result != A000170[n]:
                raise AssertionError(f"{impl.label} counted {result} for n = {n}")
            timings.append(Timing(n, impl.label, seconds, result))
            growth = max(seconds / last[impl.label], 2.0) if impl.label in last else 8.0
            last[impl.label] = seconds
            if seconds > budget or seconds * growth > budget:
                active.remove(impl)
        done = [t for t in timings if t.n == n]
        slowest = max(done, key=lambda t: t.seconds)
        print(
            f"bench: n = {n}: {len(done)} timed, slowest {slowest.label} "
            f"{format_seconds(slowest.seconds)}",
            file=log,
            flush=True,
        )
        if not active:
            break
    return timings


def format_seconds(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def table(timings: Sequence[Timing]) -> str:
    """Two Markdown tables, an implementation a row and a size a column: the times,
    and each time divided by the one-thread core's (how many times faster the core is)."""
    labels = list(dict.fromkeys(t.label for t in timings))
    sizes = sorted({t.n for t in timings})
    by = {(t.label, t.n): t.seconds for t in timings}
    core = labels[0]

    def grid(title: str, cell: Callable[[str, int], str]) -> list[str]:
        lines = [title, "", "| implementation | " + " | ".join(f"n = {n}" for n in sizes) + " |"]
        lines.append("|---|" + "---:|" * len(sizes))
        for label in labels:
            cells = [cell(label, n) if (label, n) in by else "-" for n in sizes]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        return lines

    lines = grid(
        "Time to count all solutions (best of repeated runs; "
        + ", ".join(f"n = {n}: {A000170[n]}" for n in sizes)
        + " solutions):",
        lambda label, n: format_seconds(by[label, n]),
    )
    lines.append("")
    lines += grid(
        f"Each time over the {core}'s (above 1: the core is that many times faster):",
        lambda label, n: f"{by[label, n] / by[core, n]:.3g}x" if (core, n) in by else "-",
    )
    return "\n".join(lines) + "\n"


def plot(timings: Sequence[Timing], path: str) -> None:
    """Write a PNG of time against n, log scale, one labelled line per implementation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(10, 6.5), dpi=100)
    palette = plt.get_cmap("tab20")
    axes.set_prop_cycle(color=[palette(i) for i in range(20)])
    for label in dict.fromkeys(t.label for t in timings):
        points = [(t.n, t.seconds) for t in timings if t.label == label]
        style = "-" if label.startswith(("core", "plain")) else "--"
        axes.plot(*zip(*points), style, marker="o", markersize=3, label=label)
    axes.set_yscale("log")
    axes.set_xlabel("n (board side)")
    axes.set_ylabel("seconds to count all solutions (log scale)")
    axes.set_title(f"nqueens {__version__}: counting time by implementation")
    axes.grid(True, which="major", alpha=0.4)
    axes.legend(fontsize=8, loc="upper left")
    figure.tight_layout()
    # whole or not at all, and never through a link planted at the name
    write_atomically(path, lambda temporary: figure.savefig(temporary, format="png"))
    plt.close(figure)


def machine() -> str:
    """One line on where the figures come from."""
    return (
        f"{platform.machine()}, {available_cores()} cores, {platform.processor() or 'cpu'}; "
        f"Python {platform.python_version()}; nqueens {__version__} ({IMPLEMENTATION} core)"
    )


def run(max_n: int, budget: float, out_dir: str, stdout: TextIO, log: TextIO) -> None:
    """The whole command: measure, print the tables, write the plot where possible."""
    print(f"bench: {machine()}", file=log)
    timings = measure(implementations(log), max_n, budget, log)
    stdout.write(table(timings))
    stdout.flush()
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(
            f"bench: no plot: matplotlib is not installed (pip install '{DISTRIBUTION}[plot]')",
            file=log,
        )
        return
    path = os.path.join(out_dir, PLOT_NAME)
    plot(timings, path)
    print(f"bench: plot written to {path}", file=log)


def check_out_dir(out_dir: str) -> None:
    """Raise ValueError unless out_dir is a writable directory."""
    if not os.path.isdir(out_dir):
        raise ValueError(f"--out {out_dir!r} is not a directory")
    if not os.access(out_dir, os.W_OK | os.X_OK):
        raise ValueError(f"--out {out_dir!r} is not writable")
