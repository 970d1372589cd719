"""The commands: each takes the parsed arguments and what its check prepared, and
returns the exit status."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Callable

from .._engine import counting as _counting
from .._engine.clusters import dask_client, mpi_pool
from .._engine.counting import LongCountWarning, Workers
from .._engine.subproblems import BORDERS_MAX_N
from .._output import write_atomically
from .._placements.render import render_lines, to_svg
from .._select import IMPLEMENTATION
from .._validate import check_limit, check_workers
from ._errors import UsageError

# The modules that count does not need are imported by the commands that do:
# a count's whole time, the start of the process included, is what users compare.

Placement = Sequence[int]
PROGRESS_FROM_N = 16
"""From this n on, count shows a progress bar when stderr is a terminal."""
# from this n on, count says how long it will take when no bar is shown: counts of a
# minute or more, and an estimate of a second is little beside them
_ESTIMATE_FROM_N = 20
# the cluster that a count on --dask or --mpi is refused beyond: more workers than any
# such cluster has
_LARGE_CLUSTER = 10_000
# the attacking pairs that verify lists before it only counts the rest
_PAIRS_SHOWN = 20


def _write(chunks: Iterable[str]) -> None:
    out = sys.stdout
    for chunk in chunks:
        out.write(chunk)
    out.flush()


def _formatter(args: argparse.Namespace) -> Callable[[Placement], Iterable[str]]:
    # how one placement is printed, in pieces; --one-based shifts the
    # numbers, not the boards; a text board goes a row at a time, so that a
    # board of a million rows needs memory for one row, not for n**2 squares
    shift = 1 if args.one_based else 0
    if args.format in ("json", "jsonl"):
        import json  # here: a count starts without it

        return lambda p: (json.dumps([c + shift for c in p]) + "\n",)
    if args.format == "csv":
        return lambda p: (",".join(str(c + shift) for c in p) + "\n",)
    if args.format == "svg":
        return lambda p: (to_svg(p),)
    style = args.style
    return lambda p: (line + "\n" for line in render_lines(p, style))


def _emit(args: argparse.Namespace, found: Iterable[Placement], many: bool = True) -> int:
    """Print (or write to files) each placement; return how many there were.  With
    --format json, the placements of a command that lists `many` are one JSON array
    of arrays (jsonl: an array per line)."""
    shown = 0
    if args.format == "svg" and getattr(args, "out", None):
        for shown, placement in enumerate(found, 1):
            path = os.path.join(args.out, f"nqueens-{len(placement)}-{shown:06d}.svg")
            write_atomically(path, to_svg(placement))
        files = "1 SVG file" if shown == 1 else f"{shown} SVG files"
        sys.stderr.write(f"nqueens: wrote {files} to {args.out}\n")
        return shown
    fmt = _formatter(args)
    as_list = args.format == "json" and many
    text = args.format not in ("json", "jsonl", "csv", "svg")

    def pieces() -> Iterator[str]:
        nonlocal shown
        for placement in found:
            shown += 1
            if as_list:  # the line's array, after "[" or the previous one's comma
                yield ("[\n" if shown == 1 else ",\n") + "".join(fmt(placement)).rstrip("\n")
            else:
                if text and shown > 1:
                    yield "\n"  # a blank line between two boards, none after the last
                yield from fmt(placement)
        if as_list:
            yield "\n]\n" if shown else "[]\n"

    _write(pieces())
    return shown


def _reference(name: str, n: int, unique: bool, ordered: bool = True) -> Iterator[tuple[int, ...]]:
    # the solutions; `ordered`: in lexicographic order, as solve promises, whatever
    # order the solver finds them in
    from .._placements.symmetry import canonical
    from ..reference import INFO, SOLVERS

    found = SOLVERS[name](n)
    if unique:
        # the reference solvers know no symmetry: keep each class's smallest image
        return iter(sorted({canonical(p) for p in found}))
    return found if INFO[name].lexicographic or not ordered else iter(sorted(found))


def count(args: argparse.Namespace, placed: dict[int, int] | None) -> int:
    if args.solver is None:
        progress = args.progress
        if progress is None:  # a bar when someone watches a count that takes a while
            progress = sys.stderr.isatty() and PROGRESS_FROM_N <= args.n <= BORDERS_MAX_N
        _before_count(args, placed, progress)
        executor: contextlib.AbstractContextManager[Workers] = contextlib.nullcontext(args.workers)
        if args.dask is not None:
            executor = dask_client(args.dask)
        elif args.mpi:
            executor = mpi_pool()
        with executor as workers, warnings.catch_warnings():
            # said already, on one line: the API's warning of a count beyond a year
            warnings.filterwarnings("ignore", category=LongCountWarning)
            total = _counting.count(
                args.n,
                unique=args.unique,
                workers=workers,
                journal=args.journal,
                progress=progress,
                depth=args.depth,
                placed=placed,
                recount=args.recount,
                units=args.units,
            )
    else:
        _before_reference(args)
        total = sum(1 for _ in _reference(args.solver, args.n, args.unique, ordered=False))
    print(total, flush=True)
    return 0


def _before_count(args: argparse.Namespace, placed: dict[int, int] | None, bar: bool) -> None:
    # a count that may take longer than a year is refused unless --anyway; one of more
    # than a minute says how long first, when no bar shows its progress
    threads = check_workers(args.workers)
    cluster = bool(args.dask or args.mpi)
    if not isinstance(threads, int):
        return
    if not _counting.may_outlast(args.n) and (bar or cluster or args.n < _ESTIMATE_FROM_N):
        return
    from .._engine import (
        estimate as _estimate,
    )  # (here: a count that needs no estimate starts without it)

    if cluster:  # a cluster of unknown size: refused only if beyond even a large one
        took = _estimate.before_count(args.n, args.unique, 1, placed)
        took = _estimate.spread_over(took, _LARGE_CLUSTER)
        on = f"even on a cluster of {_LARGE_CLUSTER:,} workers as fast as this machine's cores"
    else:
        took = _estimate.before_count(args.n, args.unique, threads, placed)
        on = f"on {threads} thread{'s' if threads > 1 else ''}"
    if _estimate.too_long(took) and not args.anyway:
        raise UsageError(
            f"nqueens count: N = {args.n} would take {took.duration()} {on} (nqueens "
            "estimate says why), more than a year: add --anyway to start it all the same"
        )
    if not bar and not cluster and max(took.seconds, took.seconds_high) >= 60:
        print(
            f"nqueens: counting N = {args.n} will take {took.duration()} {on} "
            "(estimated by nqueens estimate; --progress shows a bar)",
            file=sys.stderr,
            flush=True,
        )


def _before_reference(args: argparse.Namespace) -> None:
    # the same for a reference solver: its time grows at least as fast from n to n + 1
    # as on the largest board it finishes in a fraction of a second
    from .._engine.estimate import LONGEST, duration_text
    from ..reference import least_seconds

    shortest = least_seconds(args.solver, args.n)
    if shortest > LONGEST and not args.anyway:
        raise UsageError(
            f"nqueens count: --solver {args.solver} would take at least "
            f"{duration_text(shortest)} at N = {args.n}, more than a year: add --anyway to "
            "start it all the same, or leave out --solver for the compiled core"
        )
    if shortest >= 60:
        print(
            f"nqueens: counting N = {args.n} with --solver {args.solver} will take at least "
            f"{duration_text(shortest)}",
            file=sys.stderr,
            flush=True,
        )


def estimate(args: argparse.Namespace) -> int:
    from .._engine import estimate as _estimate

    found = _estimate.estimate(
        args.n,
        unique=args.unique,
        workers=args.workers,
        budget=args.budget,
        seed=args.seed,
        cluster=args.cluster,
    )
    print(found)
    return 0


def solve(args: argparse.Namespace, placed: dict[int, int] | None) -> int:
    from .._placements.solutions import solutions

    limit = check_limit(args.limit)  # (one that no listing reaches: none)
    if args.solver is None:
        found: Iterable[Placement] = solutions(
            args.n, unique=args.unique, limit=limit, placed=placed
        )
    else:
        found = itertools.islice(_reference(args.solver, args.n, args.unique), limit)
    if _emit(args, found) == 0 and limit != 0:
        print(f"nqueens solve: no solutions for N = {args.n}", file=sys.stderr)
    return 0


def construct(args: argparse.Namespace) -> int:
    from .._placements import construct as _construct

    _emit(args, [_construct.construct(args.n)], many=False)
    return 0


def random(args: argparse.Namespace) -> int:
    from .._placements.random_solution import random_solution

    _emit(args, [random_solution(args.n, seed=args.seed)], many=False)
    return 0


def verify(args: argparse.Namespace, placement: list[int]) -> int:
    # the verdict stands even if the reader goes away before it is printed
    from .._placements.checking import attacking_pairs, conflicts

    shift = 1 if args.one_based else 0
    total = attacking_pairs(placement)
    args.verdict = 1 if total else 0
    if not total:
        print("valid")
        return 0
    print(f"invalid: {total} attacking pair{'s' if total > 1 else ''}")
    for pair in conflicts(placement, limit=_PAIRS_SHOWN):
        print(f"rows {pair.row1 + shift} and {pair.row2 + shift}: same {pair.kind}")
    if total > _PAIRS_SHOWN:
        print(f"... and {total - _PAIRS_SHOWN} more")
    return 1


def solvers(args: argparse.Namespace) -> int:
    from ..reference import INFO, SOLVERS

    width = max(map(len, SOLVERS))
    lines = [
        f"{'core':<{width}}  the compiled cores, the default ({IMPLEMENTATION}): quadrant "
        "assembly for counts from n = 12, the bitmask search otherwise\n"
    ]
    for name, info in INFO.items():
        lines.append(f"{name:<{width}}  {info.speed}; quick up to n = {info.quick_n}\n")
    _write(lines)
    return 0


def bench(args: argparse.Namespace, options: Any) -> int:
    from .. import benchmark  # the timing stack, for this command alone

    benchmark.run(options, sys.stdout, sys.stderr)
    return 0
