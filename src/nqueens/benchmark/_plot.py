"""The picture of ``nqueens bench``: three panels, each line labelled at its end.

Top left, time against n (log scale) for the core, plain C, the pure-Python
bitmask solver, the twin and any solver of yours, in strong colours; top
right, how many times faster the core is than each of them (and its threads
than one thread); below, the
classic pure-Python solvers in muted colours, with the core and the bitmask
solver in grey for scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._output import write_atomically
from ._timings import BITMASK, CORE, PLAIN_C, REFERENCE, THREADS, TWIN, YOURS, Timing

# strong and distinct (Okabe-Ito), by kind of implementation
_COLOURS = {
    CORE: "#0072B2",
    THREADS: "#56B4E9",
    PLAIN_C: "#D55E00",
    BITMASK: "#009E73",
    TWIN: "#CC79A7",
    YOURS: "#000000",
}
_MUTED = ["#8c6d31", "#6b6ecf", "#b5cf6b", "#bd9e39", "#ad494a", "#7b4173", "#637939",
          "#843c39", "#5254a3", "#9c9ede", "#e7969c"]  # fmt: skip
_GREY = "#9a9a9a"


def _series(timings: Sequence[Timing], key: str) -> tuple[list[int], list[float]]:
    points = [(t.n, t.median) for t in timings if t.key == key]
    return [n for n, _ in points], [s for _, s in points]


def _label_ends(axes: Any, ends: Sequence[tuple[float, float, str, str]], log: bool) -> None:
    # the labels in one column right of the lines' ends, each joined to its end by a
    # thin line, moved apart (within the panel) where they would overlap
    if not ends:
        return
    low, high = (math.log10(v) if log else v for v in axes.get_ylim())
    gap = 0.06 * (high - low)
    ends = sorted(ends, key=lambda end: end[1])
    spots = [math.log10(y) if log else y for _, y, _, _ in ends]
    for i in range(1, len(spots)):
        spots[i] = max(spots[i], spots[i - 1] + gap)
    overflow = spots[-1] - (high - gap / 2)
    if overflow > 0:
        spots = [spot - overflow for spot in spots]
        for i in range(len(spots) - 2, -1, -1):
            spots[i] = min(spots[i], spots[i + 1] - gap)
    column = max(x for x, _, _, _ in ends) + 0.6
    for (x, y, text, colour), spot in zip(ends, spots):
        axes.annotate(
            text,
            xy=(x, y),
            xytext=(column, 10**spot if log else spot),
            textcoords="data",
            color=colour,
            fontsize=8.5,
            va="center",
            arrowprops={"arrowstyle": "-", "color": colour, "lw": 0.6, "alpha": 0.7},
        )


def plot(timings: Sequence[Timing], path: str, title: str) -> None:
    """Write the three-panel PNG of timings to path (whole or not at all)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = list(dict.fromkeys(t.key for t in timings))
    kind = {t.key: t.kind for t in timings}
    label = {t.key: t.label for t in timings}
    sizes = sorted({t.n for t in timings})
    right = (sizes[-1] if sizes else 4) + 4.5  # room for the labels

    figure = plt.figure(figsize=(10, 10), dpi=100)
    grid = figure.add_gridspec(2, 2, height_ratios=[1, 1])
    times = figure.add_subplot(grid[0, 0])
    ratios = figure.add_subplot(grid[0, 1])
    classic = figure.add_subplot(grid[1, :])

    ends = []
    for key in keys:
        if kind[key] == REFERENCE:
            continue
        xs, ys = _series(timings, key)
        times.plot(xs, ys, "-o", color=_COLOURS[kind[key]], lw=2, markersize=3.5)
        ends.append((xs[-1], ys[-1], label[key], _COLOURS[kind[key]]))
    times.set_yscale("log")
    times.set_xlim(sizes[0] - 0.5 if sizes else 3.5, right)
    _label_ends(times, ends, log=True)
    times.set_title("seconds to count all solutions (median)", fontsize=10)

    core = next((key for key in keys if kind[key] == CORE), None)
    ends = []
    if core is not None:
        mine = dict(zip(*_series(timings, core)))
        for key in keys:
            if kind[key] in (CORE, REFERENCE):
                continue
            xs, ys = _series(timings, key)
            if kind[key] == THREADS:  # the threads' gain over one thread
                pairs = [(n, mine[n] / s) for n, s in zip(xs, ys) if n in mine]
                text = label[key].split(", ")[-1].rstrip(")") + " over 1"
            else:
                pairs = [(n, s / mine[n]) for n, s in zip(xs, ys) if n in mine]
                text = f"over {label[key]}"
            if not pairs:
                continue
            colour = _COLOURS[kind[key]]
            ratios.plot(*zip(*pairs), "-o", color=colour, lw=2, markersize=3.5)
            ends.append((pairs[-1][0], pairs[-1][1], text, colour))
        ratios.axhline(1, color=_GREY, lw=0.8)
    ratios.set_yscale("log")
    ratios.set_xlim(sizes[0] - 0.5 if sizes else 3.5, right)
    _label_ends(ratios, ends, log=True)
    ratios.set_title(
        "times faster the core is on one thread (its threads: than on one)", fontsize=10
    )

    ends = []
    muted = iter(_MUTED * 2)
    for key in keys:
        xs, ys = _series(timings, key)
        if kind[key] == REFERENCE:
            colour = next(muted)
            classic.plot(xs, ys, "-", color=colour, lw=1.3, marker=".", markersize=4)
        elif kind[key] in (CORE, BITMASK):
            colour = _GREY
            classic.plot(xs, ys, "--", color=colour, lw=1.2)
        else:
            continue
        ends.append((xs[-1], ys[-1], label[key].replace("pure Python: ", ""), colour))
    classic.set_yscale("log")
    classic.set_xlim(sizes[0] - 0.5 if sizes else 3.5, right)
    _label_ends(classic, ends, log=True)
    classic.set_title(
        "the classic pure-Python solvers (core and bitmask solver dashed, for scale)",
        fontsize=10,
    )

    for axes in (times, ratios, classic):
        axes.set_xlabel("n (board side)")
        axes.grid(True, which="major", alpha=0.35)
        axes.set_xticks([n for n in sizes if n % 2 == 0])
    figure.suptitle(title, fontsize=12)
    figure.tight_layout()
    write_atomically(path, lambda temporary: figure.savefig(temporary, format="png"))
    plt.close(figure)
