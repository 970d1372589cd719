"""The reports of ``nqueens bench``: Markdown for people, JSON for programs, and the
comparison of two runs.

A figure is the median of its runs, written with half its min-max range as a
share of the median and the number of runs: ``595 ms ±2% ×5``.

>>> t = Timing("core", "core", "core", 8, 92, 100, (1.0e-5, 1.2e-5, 1.1e-5))
>>> cell(t)
'11 µs ±9% ×3'
>>> old, new = t, t._replace(samples=(2.0e-5, 2.2e-5, 2.4e-5))
>>> print(compare([old], [new]).splitlines()[-1])
| core | 8 | 11 µs ±9% ×3 | 22 µs ±9% ×3 | 2x |
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, Callable

from .._oeis import A000170
from ._machine import facts_text
from ._timings import BITMASK, CORE, KINDS, PLAIN_C, THREADS, TWIN, WIDE_SPREAD, Dropped, Timing

FORMAT = "nqueens-bench"
FORMAT_VERSION = 1


def format_seconds(seconds: float) -> str:
    """Seconds with a unit a person reads at once.

    >>> format_seconds(0.000123), format_seconds(2.5), format_seconds(3e-8)
    ('123 µs', '2.5 s', '30 ns')
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def spread(t: Timing) -> str:
    """Half the min-max range, as a share of the median."""
    return f"±{(t.high - t.low) / 2 / t.median:.0%}"


def cell(t: Timing) -> str:
    mark = " †" if t.wide else ""
    return f"{format_seconds(t.median)} {spread(t)} ×{len(t.samples)}{mark}"


def ratio(slow: Timing, fast: Timing) -> str:
    """How many times faster fast is than slow (medians), marked if either is unsteady."""
    mark = " †" if slow.wide or fast.wide else ""
    return f"{slow.median / fast.median:.3g}x{mark}"


def headlines(timings: Sequence[Timing]) -> list[str]:
    """The core against the pure-Python bitmask, the twin and plain C, and its
    threads against one thread, each at the largest n both reached."""
    by = {(t.key, t.n): t for t in timings}
    kinds = {t.kind: t.key for t in timings}
    core = kinds.get(CORE)
    lines: list[str] = []
    if core is None:
        return lines
    for kind, what in (
        (BITMASK, "faster than the pure-Python bitmask solver"),
        (TWIN, "faster than its own pure-Python twin"),
        (PLAIN_C, "the time of plain C (cc -O3, the mirror-symmetric bitmask search)"),
        (THREADS, "faster on every core than on one"),
    ):
        other = kinds.get(kind)
        shared = [n for (key, n) in by if key == other and (core, n) in by]
        if other is None or not shared:
            continue
        n = max(shared)
        mine, theirs = by[core, n], by[other, n]
        # plain C: the core's share of its time; threads: their gain over the core's one
        # thread; the pure-Python solvers: how many times faster the core is
        if kind in (PLAIN_C, THREADS):
            figure = f"{mine.median / theirs.median:.3g}x {what}"
        else:
            figure = f"{theirs.median / mine.median:.3g}x {what}"
        mark = " †" if mine.wide or theirs.wide else ""
        lines.append(
            f"- n = {n}: the core is **{figure}**{mark} "
            f"({cell(by[core, n])} against {cell(by[other, n])})"
        )
    return lines


def markdown(
    facts: dict[str, Any],
    timings: Sequence[Timing],
    dropped: Sequence[Dropped],
    warnings: Sequence[str],
) -> str:
    """The whole report: context, warnings, headline ratios, the two tables."""
    lines = ["# nqueens bench", "", facts_text(facts), ""]
    for warning in warnings:
        lines.append(f"**Warning**: {warning}.")
        lines.append("")
    for drop in dropped:
        lines.append(f"Dropped: `{drop.key}`: {drop.reason}.")
        lines.append("")
    top = headlines(timings)
    if top:
        lines += ["Headline ratios (medians):", "", *top, ""]
    lines.append(tables(timings))
    return "\n".join(lines)


def tables(timings: Sequence[Timing]) -> str:
    """Two Markdown tables, an implementation a row and a size a column: the times,
    and each time divided by the one-thread core's (how many times faster the core is)."""
    # the rows in a fixed order of kinds (the core, its threads, plain C, ...), each
    # kind's rows in the order they were timed
    rank = {kind: i for i, kind in enumerate(KINDS)}
    labels = sorted(
        dict.fromkeys(t.label for t in timings),
        key=lambda label: rank.get(next(t.kind for t in timings if t.label == label), 99),
    )
    sizes = sorted({t.n for t in timings})
    by = {(t.label, t.n): t for t in timings}
    core = next((t.label for t in timings if t.kind == CORE), None)

    def grid(title: str, fill: Callable[[str, int], str]) -> list[str]:
        lines = [title, "", "| implementation | " + " | ".join(f"n = {n}" for n in sizes) + " |"]
        lines.append("|---|" + "---:|" * len(sizes))
        for label in labels:
            cells = [fill(label, n) if (label, n) in by else "-" for n in sizes]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        return lines

    lines = grid(
        "Time to count all solutions: the median of the runs, ± half their range as a share of "
        f"it, × the number of runs; † where the slowest run took over {WIDE_SPREAD}x the fastest "
        "(" + ", ".join(f"n = {n}: {A000170[n]}" for n in sizes) + " solutions):",
        lambda label, n: cell(by[label, n]),
    )
    if core is not None:
        lines.append("")
        lines += grid(
            f"Each median over the {core}'s (above 1: the core is that many times faster):",
            lambda label, n: ratio(by[label, n], by[core, n]) if (core, n) in by else "-",
        )
    return "\n".join(lines) + "\n"


def to_json(
    facts: dict[str, Any],
    settings: dict[str, Any],
    timings: Sequence[Timing],
    dropped: Sequence[Dropped],
    warnings: Sequence[str],
) -> str:
    """The run as JSON: every run's seconds, so that another program can redo the
    statistics."""
    return (
        json.dumps(
            {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "context": facts,
                "settings": settings,
                "results": [
                    {
                        "key": t.key,
                        "implementation": t.label,
                        "kind": t.kind,
                        "n": t.n,
                        "solutions": t.solutions,
                        "loops": t.loops,
                        "seconds": list(t.samples),
                        "median": t.median,
                        "min": t.low,
                        "max": t.high,
                    }
                    for t in timings
                ],
                "dropped": [drop._asdict() for drop in dropped],
                "warnings": list(warnings),
            },
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )


def load(path: str) -> tuple[dict[str, Any], list[Timing]]:
    """A saved run's context and timings; ValueError (one line) if the file is not one."""
    try:
        with open(path, encoding="utf-8") as source:
            data = json.load(source)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'{path} is not a report of nqueens bench (no "format": "{FORMAT}")')
    if data.get("format_version") != FORMAT_VERSION:
        raise ValueError(
            f"{path} has format version {data.get('format_version')!r}; "
            f"this nqueens reads version {FORMAT_VERSION}"
        )
    timings = []
    try:
        for item in data["results"]:
            samples = tuple(float(s) for s in item["seconds"])
            n = item["n"]
            if (
                type(n) is not int
                or not 0 <= n < len(A000170)
                or not samples
                or not all(math.isfinite(s) and s > 0 for s in samples)
            ):
                raise ValueError
            timings.append(
                Timing(
                    str(item["key"]),
                    str(item["implementation"]),
                    str(item["kind"]),
                    n,
                    int(item["solutions"]),
                    int(item["loops"]),
                    samples,
                )
            )
        facts = dict(data["context"])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{path}: a result or the context is malformed") from None
    return facts, timings


def compare(old: Sequence[Timing], new: Sequence[Timing]) -> str:
    """A Markdown table: per implementation and n measured in both runs, both figures and
    the ratio new/old (below 1: faster now); † where either run's spread is wide."""
    before = {(t.key, t.n): t for t in old}
    lines = [
        "| implementation | n | old | new | new/old |",
        "|---|---:|---:|---:|---:|",
    ]
    for t in new:
        was = before.get((t.key, t.n))
        if was is not None:
            lines.append(
                f"| {t.key} | {t.n} | {cell(was)} | {cell(t)} | {t.median / was.median:.3g}x"
                f"{' †' if t.wide or was.wide else ''} |"
            )
    return "\n".join(lines) + "\n"
