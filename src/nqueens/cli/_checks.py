"""The checks: one per subcommand, run before any work so that a bad argument reads as a
usage error.  Each returns what its command needs beyond the arguments (the placed
queens, a placement, the benchmark's options); none changes the arguments."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any

from .. import _bench_defaults as settings
from .._engine.clusters import ClusterError, check_dask, check_mpi
from .._engine.counting import check_recount, check_units
from .._engine.journal import check_path
from .._engine.subproblems import check_border_split, check_depth, quadrants_apply, wants_split
from .._output import check_out_dir, check_out_file
from .._placements.completion import check_completion_n, check_placed
from .._placements.render import SVG_MAX_N
from .._validate import as_int, check_limit, check_n, check_workers

Prepared = dict[str, Any]


def count(args: argparse.Namespace) -> Prepared:
    _native_only(args)
    placed = _placed(args)
    n = check_n(args.n)
    check_workers(args.workers)
    _check_cluster(args)
    check_recount(args.recount)
    if args.units is not None:
        if args.dask is None and not args.mpi:
            raise ValueError("--units applies to --dask and --mpi")
        check_units(args.units, None)
    workers = "a cluster" if args.dask or args.mpi else args.workers
    if (
        placed is None
        and not quadrants_apply(n)
        and wants_split(args.journal, bool(args.progress), args.depth, workers)
    ):
        check_border_split(n)
    if args.depth is not None:
        check_depth(n, args.depth)
    if args.journal is not None:  # before the estimate that a long count starts with
        check_path(args.journal)
    return {"placed": placed}


def solve(args: argparse.Namespace) -> Prepared:
    _native_only(args)
    if args.place:
        check_completion_n(args.n)
    placed = _placed(args)
    if placed is None:
        check_n(args.n)
    check_limit(args.limit)
    _check_output(args)
    if args.format == "svg" and args.out is None and args.limit != 1:
        # several SVG documents one after another are no valid file
        raise ValueError("--format svg writes one file per board: give --out DIR (or --limit 1)")
    return {"placed": placed}


def estimate(args: argparse.Namespace) -> Prepared:
    from .._engine.estimate import check_budget, check_cluster

    check_n(args.n)
    check_workers(args.workers)
    check_cluster(args.cluster, args.workers, "--")
    try:
        check_budget(args.budget)
    except ValueError as exc:
        raise ValueError(f"--{exc}") from None
    return {}


def construct(args: argparse.Namespace) -> Prepared:
    # construct and random
    from .._placements.construct import check_solvable

    check_solvable(args.n)
    if args.seed is not None:
        as_int(args.seed, "seed")
    _check_output(args)
    return {}


def nothing(args: argparse.Namespace) -> Prepared:
    return {}


def verify(args: argparse.Namespace) -> Prepared:
    from .._placements.checking import columns_of

    shift = 1 if args.one_based else 0
    words = args.columns
    if not words or words == ["-"]:
        # from standard input: the columns separated by spaces, commas or
        # brackets, as solve's text of csv or json gives them
        if sys.stdin is None or sys.stdin.isatty():
            raise ValueError("no placement: give the columns, or pipe them in")
        words = [w for w in re.split(r"[\s,\[\]]+", sys.stdin.read()) if w]
        if not words:
            raise ValueError("no placement: standard input holds no columns")
    elif "-" in words:
        raise ValueError("'-' (read standard input) cannot go with columns")
    placement = []
    for row, word in enumerate(words):
        try:
            placement.append(int(word) - shift)
        except ValueError:
            raise ValueError(f"row {row + shift}: the column is {word!r}, not an integer") from None
    try:
        columns_of(placement)
    except ValueError:
        n = len(placement)
        bad = next(r for r, c in enumerate(placement) if not 0 <= c < n)
        raise ValueError(
            f"row {bad + shift} has column {placement[bad] + shift}, off a {n}x{n} board "
            f"(columns {shift}..{n - 1 + shift})"
        ) from None
    return {"placement": placement}


def bench(args: argparse.Namespace) -> Prepared:
    # every argument checked, the files to compare read and the solvers to race
    # imported, before anything is timed
    from .. import benchmark
    from .._oeis import A000170

    quick = args.quick
    max_n = args.max_n if args.max_n is not None else None
    budget, runs = args.budget, args.runs
    if max_n is None:
        max_n = benchmark.QUICK_MAX_N if quick else benchmark.DEFAULT_MAX_N
    if budget is None:
        budget = benchmark.QUICK_BUDGET if quick else benchmark.DEFAULT_BUDGET
    if runs is None:
        runs = benchmark.MIN_RUNS if quick else benchmark.DEFAULT_RUNS
    if not benchmark.FIRST_N <= max_n <= len(A000170) - 1:
        raise ValueError(
            f"--max-n must be between {benchmark.FIRST_N} and {len(A000170) - 1}, got {max_n}"
        )
    if not budget > 0:  # also refuses nan
        raise ValueError(f"--budget must be a positive number of seconds, got {budget}")
    if not 1 <= runs <= benchmark.MAX_RUNS:
        raise ValueError(f"--runs must be between 1 and {benchmark.MAX_RUNS}, got {runs}")
    if args.compare is not None and len(args.compare) > 2:
        raise ValueError("--compare takes OLD.json, or OLD.json NEW.json")
    compare = args.compare or []
    for path in compare:
        if os.path.exists(path) and not os.path.isfile(path):  # a FIFO would block the read
            raise ValueError(f"--compare {path!r} is not a regular file")
        benchmark.check_report(path)
    if len(compare) == 2:
        extra = [o for o in ("only", "skip", "against", "json") if getattr(args, o)]
        if extra or quick or args.out is not None:
            raise ValueError("--compare OLD.json NEW.json times nothing: it takes no other option")
    if args.json is not None:
        check_out_file(args.json, "--json")
    yours = [benchmark.load_against(spec) for spec in args.against or []]
    known = [*benchmark.OWN_KEYS, *(impl.key for impl in yours)]
    benchmark.check_names(args.only, known, "--only")
    benchmark.check_names(args.skip, known, "--skip")
    out = settings.OUT_DIR if args.out is None else args.out
    if len(compare) < 2:  # last: a folder is made only for a run that will start
        check_out_dir(out, create=True)
    options = benchmark.Options(
        max_n=max_n,
        budget=budget,
        runs=runs,
        out_dir=out,
        json_path=args.json,
        compare=compare,
        only=args.only,
        skip=args.skip,
        against=yours,
        argv=["nqueens", *args.argv],
    )
    return {"options": options}


def _native_only(args: argparse.Namespace) -> None:
    if args.solver is None:
        return
    if getattr(args, "workers", 1) != 1:
        raise ValueError("--workers applies to the native core only")
    if getattr(args, "journal", None) is not None or getattr(args, "depth", None) is not None:
        raise ValueError("--journal and --depth apply to the native core only")


def _check_output(args: argparse.Namespace) -> None:
    if args.format == "svg" and args.n > SVG_MAX_N:
        raise ValueError(f"--format svg draws boards up to {SVG_MAX_N} columns, got {args.n}")
    if getattr(args, "out", None) is not None:
        if args.format != "svg":
            raise ValueError("--out goes with --format svg")
        check_out_dir(args.out, create=True)


def _placed(args: argparse.Namespace) -> dict[int, int] | None:
    # --place R:C ..., shifted by --one-based, checked as the API checks them
    if not args.place:
        return None
    if args.solver is not None:
        raise ValueError("--place applies to the native core only")
    if args.unique:
        raise ValueError("--unique cannot go with --place: symmetries move placed queens")
    shift = 1 if args.one_based else 0
    squares = []
    for word in args.place:
        match = re.fullmatch(r"\s*(-?\d+)\s*[:,]\s*(-?\d+)\s*", word)
        if match is None:
            raise ValueError(f"--place takes ROW:COLUMN, got {word!r}")
        squares.append((int(match.group(1)) - shift, int(match.group(2)) - shift))
    size = as_int(args.n, "n")
    try:
        rows, cols = check_placed(size, squares)
    except ValueError as exc:
        raise ValueError(one_based(str(exc), shift)) from None
    return dict(zip(rows, cols))


def _check_cluster(args: argparse.Namespace) -> None:
    # --dask or --mpi: the extra importable (MPI: launched with workers), and
    # nothing that would contradict it
    if args.dask is None and not args.mpi:
        return
    option = "--dask" if args.dask is not None else "--mpi"
    if args.dask is not None and args.mpi:
        raise ValueError("--dask and --mpi cannot go together")
    if args.solver is not None:
        raise ValueError(f"{option} applies to the native core only")
    if args.workers != 1:
        raise ValueError(f"{option} takes the cluster's workers: --workers cannot go with it")
    if args.dask is not None and not args.dask.strip():
        raise ValueError("--dask takes a scheduler's address (host:port) or 'local'")
    try:
        check_dask() if args.dask is not None else check_mpi()
    except ClusterError as exc:
        raise ValueError(str(exc)) from None


def one_based(message: str, shift: int) -> str:
    """The squares of a message as the user numbered them."""
    if not shift:
        return message
    return re.sub(r"\((-?\d+), (-?\d+)\)", lambda m: f"({int(m[1]) + 1}, {int(m[2]) + 1})", message)
