"""The ``nqueens`` command line.

Usage errors exit with status 2 and one line on stderr, before any work;
Ctrl-C exits with status 130 and SIGTERM with 143, each with one line;
output into a closed pipe ends quietly (``verify`` keeps its verdict's
status); output or a journal that cannot be written (a full disk, a
directory in the way) exits with status 74 and one line; workers whose
results are refused (nqueens.ExecutorError), or too little memory, exit
with status 1 and one line.  ``verify`` exits with 0 for a solution and 1
for a placement with attacks.  Files are written whole or not at all.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import re
import signal
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Callable, NoReturn

from . import _bench_report, benchmark
from ._checking import attacking_pairs, columns_of, conflicts
from ._clusters import MPI_LAUNCH, ClusterError, check_dask, check_mpi, dask_map, mpi_map
from ._completion import check_completion_n, check_placed
from ._construct import check_solvable, construct
from ._counting import Workers, check_verify, count
from ._enumerating import solutions
from ._estimate import check_budget, describe, estimate
from ._executors import VERIFY_DEFAULT, ExecutorError
from ._journal import JournalError, JournalWriteError
from ._oeis import A000170
from ._output import write_atomically
from ._random import random_solution
from ._render import STYLES, SVG_MAX_N, render_lines, to_svg
from ._select import IMPLEMENTATION
from ._symmetry import canonical
from ._tasks import BORDERS_MAX_N, check_border_split, check_depth, quadrants_apply
from ._validate import as_int, check_limit, check_n, check_workers
from ._version import __version__
from .reference import INFO, SOLVERS

Placement = Sequence[int]
_PROGRESS_FROM_N = 16
# from this n on, count says how long it will take when no bar is shown:
# n = 19 takes minutes on this project's machine, n = 18 under half a minute
_ESTIMATE_FROM_N = 19
_LARGEST_EVER_COUNTED = 27
FORMATS = ("text", "json", "csv", "svg")
# the attacking pairs that verify lists before it only counts the rest
_PAIRS_SHOWN = 20
# exit statuses
_FAILED = 1  # the work failed: refused results, no memory
_USAGE = 2  # a bad argument, before any work
_WRITE_FAILED = 74  # sysexits.h's EX_IOERR: the output could not be written
_INTERRUPTED = 130  # 128 + SIGINT
_TERMINATED = 143  # 128 + SIGTERM


class UsageError(Exception):
    """A bad argument: reported on one line, exit status 2."""


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be, so that it unwinds the same way."""


_signalled: list[int] = []  # SIGTERM came (a handler may turn it into Ctrl-C's unwinding)


def _terminate(signum: int, frame: object) -> None:
    _signalled.append(signum)
    raise _Terminated


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


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
    if args.format == "json":
        return lambda p: (json.dumps([c + shift for c in p]) + "\n",)
    if args.format == "csv":
        return lambda p: (",".join(str(c + shift) for c in p) + "\n",)
    if args.format == "svg":
        return lambda p: (to_svg(p),)
    style = args.style
    return lambda p: itertools.chain((line + "\n" for line in render_lines(p, style)), "\n")


def _emit(args: argparse.Namespace, found: Iterable[Placement]) -> int:
    """Print (or write to files) each placement; return how many there were."""
    shown = 0
    if args.format == "svg" and getattr(args, "out", None):
        for shown, placement in enumerate(found, 1):
            path = os.path.join(args.out, f"nqueens-{len(placement)}-{shown:06d}.svg")
            write_atomically(path, to_svg(placement))
        return shown
    fmt = _formatter(args)

    def pieces() -> Iterator[str]:
        nonlocal shown
        for placement in found:
            shown += 1
            yield from fmt(placement)

    _write(pieces())
    return shown


def _reference(name: str, n: int, unique: bool) -> Iterator[tuple[int, ...]]:
    found = SOLVERS[name](n)
    if unique:
        # the reference solvers know no symmetry: keep each class's smallest image
        return iter(sorted({canonical(p) for p in found}))
    return found


def _cmd_count(args: argparse.Namespace) -> int:
    if args.solver is None:
        progress = args.progress
        if progress is None:  # a bar when someone watches a count that takes a while
            progress = sys.stderr.isatty() and _PROGRESS_FROM_N <= args.n <= BORDERS_MAX_N
        if not progress and args.n >= _ESTIMATE_FROM_N and not (args.dask or args.mpi):
            _say_how_long(args)
        executor: contextlib.AbstractContextManager[Workers] = contextlib.nullcontext(args.workers)
        if args.dask is not None:
            executor = dask_map(args.dask)
        elif args.mpi:
            executor = mpi_map()
        with executor as workers:
            total = count(
                args.n,
                unique=args.unique,
                workers=workers,
                journal=args.journal,
                progress=progress,
                depth=args.depth,
                placed=args.placed,
                verify=args.verify,
            )
    else:
        total = sum(1 for _ in _reference(args.solver, args.n, args.unique))
    print(total, flush=True)
    return 0


def _say_how_long(args: argparse.Namespace) -> None:
    # one line before a count of more than a minute, when no bar shows progress
    threads = check_workers(args.workers)
    if not isinstance(threads, int):
        return
    if args.n > _LARGEST_EVER_COUNTED:
        print(
            f"nqueens: N = {args.n} is beyond every count ever made (the largest, N = 27, "
            "took a year of specialised hardware in 2016): this count will not finish",
            file=sys.stderr,
            flush=True,
        )
        return
    took = estimate(args.n, unique=args.unique, workers=threads, budget=0.5)
    if took.seconds >= 60:
        how = (
            "estimated from random probes and the core's pace"
            if took.paced
            else "from random probes alone, an overstatement: 'nqueens estimate "
            f"{args.n} --budget 20' measures the pace"
        )
        print(
            f"nqueens: counting N = {args.n} will take about {describe(took.seconds)} on "
            f"{threads} thread{'s' if threads > 1 else ''} here ({how}; --progress shows a bar)",
            file=sys.stderr,
            flush=True,
        )


def _cmd_estimate(args: argparse.Namespace) -> int:
    found = estimate(
        args.n, unique=args.unique, workers=args.workers, budget=args.budget, seed=args.seed
    )
    print(found)
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    if args.solver is None:
        found: Iterable[Placement] = solutions(
            args.n, unique=args.unique, limit=args.limit, placed=args.placed
        )
    else:
        found = itertools.islice(_reference(args.solver, args.n, args.unique), args.limit)
    if _emit(args, found) == 0 and args.limit != 0:
        print(f"nqueens solve: no solutions for N = {args.n}", file=sys.stderr)
    return 0


def _cmd_construct(args: argparse.Namespace) -> int:
    _emit(args, [construct(args.n)])
    return 0


def _cmd_random(args: argparse.Namespace) -> int:
    _emit(args, [random_solution(args.n, seed=args.seed)])
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    # the verdict stands even if the reader goes away before it is printed
    shift = 1 if args.one_based else 0
    total = attacking_pairs(args.placement)
    args.verdict = 1 if total else 0
    if not total:
        print("valid")
        return 0
    print(f"invalid: {total} attacking pair{'s' if total > 1 else ''}")
    for pair in conflicts(args.placement, limit=_PAIRS_SHOWN):
        print(f"rows {pair.row1 + shift} and {pair.row2 + shift}: same {pair.kind}")
    if total > _PAIRS_SHOWN:
        print(f"... and {total - _PAIRS_SHOWN} more")
    return 1


def _cmd_solvers(args: argparse.Namespace) -> int:
    width = max(map(len, SOLVERS))
    lines = [
        f"{'core':<{width}}  the compiled cores, the default ({IMPLEMENTATION}): quadrant "
        "assembly for counts from n = 12, the bitmask search otherwise\n"
    ]
    for name, info in INFO.items():
        lines.append(f"{name:<{width}}  {info.speed}; quick up to n = {info.quick_n}\n")
    _write(lines)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    benchmark.run(args.options, sys.stdout, sys.stderr)
    return 0


def _check_bench(args: argparse.Namespace) -> None:
    # every argument checked, the files to compare read and the solvers to race
    # imported, before anything is timed
    if args.quick:
        args.max_n = benchmark.QUICK_MAX_N if args.max_n is None else args.max_n
        args.budget = benchmark.QUICK_BUDGET if args.budget is None else args.budget
        args.runs = benchmark.MIN_RUNS if args.runs is None else args.runs
    max_n = benchmark.DEFAULT_MAX_N if args.max_n is None else args.max_n
    budget = benchmark.DEFAULT_BUDGET if args.budget is None else args.budget
    runs = benchmark.DEFAULT_RUNS if args.runs is None else args.runs
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
        _bench_report.load(path)
    if len(compare) == 2:
        extra = [o for o in ("only", "skip", "against", "json") if getattr(args, o)]
        if extra or args.quick or args.out is not None:
            raise ValueError("--compare OLD.json NEW.json times nothing: it takes no other option")
    if args.out is not None:
        benchmark.check_out_dir(args.out)
    if args.json is not None:
        benchmark.check_out_file(args.json, "--json")
    yours = [benchmark.load_against(spec) for spec in args.against or []]
    known = [*benchmark.OWN_KEYS, *(impl.key for impl in yours)]
    benchmark.check_names(args.only, known, "--only")
    benchmark.check_names(args.skip, known, "--skip")
    args.options = benchmark.Options(
        max_n=max_n,
        budget=budget,
        runs=runs,
        out_dir="." if args.out is None else args.out,
        json_path=args.json,
        compare=compare,
        only=args.only,
        skip=args.skip,
        against=yours,
        argv=["nqueens", *args.argv],
    )


def _check_output(args: argparse.Namespace) -> None:
    if args.format == "svg" and args.n > SVG_MAX_N:
        raise ValueError(f"--format svg draws boards up to {SVG_MAX_N} columns, got {args.n}")
    if getattr(args, "out", None) is not None:
        if args.format != "svg":
            raise ValueError("--out goes with --format svg")
        benchmark.check_out_dir(args.out)


def _check_verify(args: argparse.Namespace) -> None:
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
    args.placement = placement


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
        raise ValueError(_one_based(str(exc), shift)) from None
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


def _one_based(message: str, shift: int) -> str:
    # the squares of a message as the user numbered them
    if not shift:
        return message
    return re.sub(r"\((-?\d+), (-?\d+)\)", lambda m: f"({int(m[1]) + 1}, {int(m[2]) + 1})", message)


def _check(args: argparse.Namespace) -> None:
    # the API's own checks, run before any work so that they read as usage errors
    command = args.command
    if getattr(args, "solver", None) is not None and getattr(args, "workers", 1) != 1:
        raise UsageError(f"nqueens {command}: --workers applies to the native core only")
    try:
        if command == "bench":
            _check_bench(args)
        elif command == "verify":
            _check_verify(args)
        elif command in ("construct", "random"):
            check_solvable(args.n)
            if args.seed is not None:
                as_int(args.seed, "seed")
        elif command == "estimate":
            check_n(args.n)
            check_workers(args.workers)
            try:
                check_budget(args.budget)
            except ValueError as exc:
                raise ValueError(f"--{exc}") from None
        elif command in ("count", "solve"):
            if args.place and command == "solve":
                check_completion_n(args.n)
            args.placed = _placed(args)
            n = args.n if args.placed is not None and command == "solve" else check_n(args.n)
            if getattr(args, "solver", None) is not None and (
                getattr(args, "journal", None) is not None
                or getattr(args, "depth", None) is not None
            ):
                raise ValueError("--journal and --depth apply to the native core only")
            check_limit(getattr(args, "limit", None))
            check_workers(getattr(args, "workers", 1))
            if command == "count":
                _check_cluster(args)
                check_verify(args.verify)
                split = args.journal or args.dask or args.mpi or args.progress
                if split and args.placed is None and not quadrants_apply(n):
                    check_border_split(n)
            if getattr(args, "depth", None) is not None:
                check_depth(n, args.depth)
        if hasattr(args, "format"):
            _check_output(args)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"nqueens {command}: {exc}") from None


def _add_output(sub: argparse.ArgumentParser, out: bool = False) -> None:
    sub.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: a board per solution; json: one array per line; csv: one row of columns "
        "per line; svg: a drawn chessboard (default: text)",
    )
    sub.add_argument(
        "--style",
        choices=STYLES,
        default="queens",
        help="the look of text boards: queens (Q and .), binary (1 and 0), stars (* and 0), "
        "numbered (a queen shows its row from 1), unicode (♛ on □■) (default: queens)",
    )
    sub.add_argument(
        "--one-based",
        action="store_true",
        help="number columns from 1 in json and csv, and rows and columns of --place",
    )
    if out:
        sub.add_argument(
            "--out", metavar="DIR", help="with --format svg: write one SVG file per board here"
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="nqueens",
        description="Count, list, construct and check solutions of the n-queens problem.",
    )
    parser.add_argument("--version", action="version", version=f"nqueens {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, summary: str, description: str | None = None) -> argparse.ArgumentParser:
        return commands.add_parser(name, help=summary, description=description or summary)

    def board(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("n", metavar="N", type=int, help="the side of the board (0..64)")
        sub.add_argument(
            "--unique", action="store_true", help="one per class of rotations and reflections"
        )
        sub.add_argument(
            "--solver",
            choices=list(SOLVERS),
            metavar="NAME",
            help="a pure-Python reference solver instead of the core (see: nqueens solvers)",
        )
        sub.add_argument(
            "--place",
            action="append",
            metavar="R:C",
            help="a queen already on the board, at row R and column C (repeatable): only the "
            "solutions that keep them (the completion problem; some instances are hard)",
        )

    sub = command("count", "print the number of solutions")
    board(sub)
    sub.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="K",
        help="threads that search at once; -1 for one per core (default: 1)",
    )
    sub.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="count on a Dask cluster: its scheduler's address (tcp://host:8786), or 'local' "
        "for one worker process per core here (needs the [dask] extra)",
    )
    sub.add_argument(
        "--mpi",
        action="store_true",
        help=f"count on the MPI processes of this launch: {MPI_LAUNCH} (needs the [mpi] extra)",
    )
    sub.add_argument(
        "--journal",
        metavar="FILE",
        help="record each finished part in this SQLite file; run the same command again "
        "after an interruption to resume",
    )
    sub.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: on when stderr is a terminal and N >= "
        f"{_PROGRESS_FROM_N})",
    )
    sub.add_argument(
        "--depth",
        type=int,
        metavar="D",
        help="split by the border queens, each part placing D more rows below them "
        "(default: ranges of quadrant row sets where the quadrant core counts, else D from N)",
    )
    sub.add_argument(
        "--verify",
        type=float,
        default=VERIFY_DEFAULT,
        metavar="SHARE",
        help="with --dask or --mpi: the share of parts counted twice and compared, at least "
        "4 of them, two here (1: every part twice; 0: none; default: "
        f"{VERIFY_DEFAULT})",
    )
    sub.add_argument(
        "--one-based", action="store_true", help="rows and columns of --place count from 1"
    )
    sub.set_defaults(run=_cmd_count)

    sub = command(
        "estimate",
        "estimate the solutions and the time of a count, in about a second",
        "Estimate the number of solutions and the time count would take on this machine, "
        "from random probes of the search (Knuth's estimator, on count's own subproblems) "
        "and the core's pace on a random sample of them, in about --budget seconds. Each "
        "figure comes with one standard error.",
    )
    sub.add_argument("n", metavar="N", type=int, help="the side of the board (0..64)")
    sub.add_argument("--unique", action="store_true", help="classes of rotations and reflections")
    sub.add_argument(
        "--workers", type=int, default=1, metavar="K", help="threads of the count (default: 1)"
    )
    sub.add_argument(
        "--budget",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="time to spend probing and pacing (default: 1)",
    )
    sub.add_argument("--seed", type=int, metavar="S", help="for a repeatable estimate")
    sub.set_defaults(run=_cmd_estimate)

    sub = command(
        "solve",
        "print the solutions",
        "Print the solutions, in lexicographic order. On large boards that order is costly: "
        "the first solution of N = 40 takes seconds, and more beyond. For one solution of "
        "any size at once, use 'nqueens construct N' or 'nqueens random N'.",
    )
    board(sub)
    sub.add_argument("--limit", type=int, metavar="K", help="stop after K solutions")
    _add_output(sub, out=True)
    sub.set_defaults(run=_cmd_solve)

    sub = command(
        "construct",
        "print one solution for any n, made by formula",
        "Print one solution, made in O(n) by the classic explicit construction: "
        "instant for millions of rows. N = 2 and 3 have none.",
    )
    sub.add_argument("n", metavar="N", type=int, help="the side of the board (1 or >= 4)")
    sub.set_defaults(run=_cmd_construct, seed=None)
    _add_output(sub)

    sub = command(
        "random",
        "print a random solution",
        "Print a random solution, found by min-conflicts local search (listed and picked "
        "for N <= 10). The same seed gives the same solution.",
    )
    sub.add_argument("n", metavar="N", type=int, help="the side of the board (1 or >= 4)")
    sub.add_argument("--seed", type=int, metavar="S", help="make the choice reproducible")
    sub.set_defaults(run=_cmd_random)
    _add_output(sub)

    sub = command(
        "verify",
        "check a placement and list its attacking pairs",
        "Check a placement given as one column per row (0-based unless --one-based). "
        "Exit 0 and print 'valid' for a solution; exit 1 and print the attacking pairs if not.",
    )
    sub.add_argument("columns", metavar="COLUMN", nargs="*", help="the column of each row's queen")
    sub.add_argument("--one-based", action="store_true", help="rows and columns count from 1")
    sub.set_defaults(run=_cmd_verify)

    sub = command(
        "solvers",
        "list the solvers that --solver takes",
        "List the reference solvers, from the most naive to the bitmask, with their rough speed.",
    )
    sub.set_defaults(run=_cmd_solvers)

    sub = command(
        "bench",
        "time the core against pure Python, plain C and your own solver",
        "Time the core (one thread, and every core from n = 14, where it starts threads), "
        "a plain C program (where a compiler is found), the core's pure-Python twin, every "
        "reference solver and any solver of yours, for n = 4, 5, ..., dropping each once one "
        "size exceeds the budget. Each figure is the median of several runs, with its spread; "
        "every count is checked against OEIS A000170. Prints a Markdown report (the machine, "
        "warnings, headline ratios, a table of times and one of speed-ups) and writes it, "
        f"with a JSON file of every run, to --out as {benchmark.MARKDOWN_NAME} and "
        f"{benchmark.JSON_NAME}, with a plot ({benchmark.PLOT_NAME}) where matplotlib is "
        "installed. The defaults reproduce the README's figures in a few minutes; --quick "
        "takes under a minute.",
    )
    sub.add_argument(
        "--max-n",
        type=int,
        metavar="N",
        help=f"the largest board (default: {benchmark.DEFAULT_MAX_N}; --quick: "
        f"{benchmark.QUICK_MAX_N})",
    )
    sub.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="drop an implementation once one size takes longer "
        f"(default: {benchmark.DEFAULT_BUDGET}; --quick: {benchmark.QUICK_BUDGET})",
    )
    sub.add_argument(
        "--runs",
        type=int,
        metavar="K",
        help=f"runs per figure (default: {benchmark.DEFAULT_RUNS}, {benchmark.MIN_RUNS} where a "
        f"run takes over {benchmark.SLOW_RUN:g} s; --quick: {benchmark.MIN_RUNS})",
    )
    sub.add_argument(
        "--quick", action="store_true", help="a short run, under a minute (smaller n and budget)"
    )
    sub.add_argument(
        "--out",
        metavar="DIR",
        help=f"where to write {benchmark.MARKDOWN_NAME}, {benchmark.JSON_NAME} and "
        f"{benchmark.PLOT_NAME} (default: .)",
    )
    sub.add_argument("--json", metavar="FILE", help="also write the JSON report to FILE")
    sub.add_argument(
        "--compare",
        nargs="+",
        metavar="JSON",
        help="after the run, compare it with OLD.json (new/old per implementation and n); "
        "with OLD.json NEW.json, compare two saved runs and time nothing",
    )
    sub.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="time only these: core, core-threads, plain-c, twin, a reference solver's name "
        "(see nqueens solvers) or a MODULE:FUNCTION given to --against",
    )
    sub.add_argument("--skip", nargs="+", metavar="NAME", help="time all but these")
    sub.add_argument(
        "--against",
        action="append",
        metavar="MODULE:FUNCTION",
        help="time your own count(n) -> int too (repeatable); MODULE may be a dotted name "
        "importable from here or a path to a .py file; it is checked against OEIS A000170 for "
        "n = 4..8 first, and dropped, never timed, if it is wrong or raises",
    )
    sub.set_defaults(run=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    previous = signal.signal(signal.SIGTERM, _terminate)
    args = None
    try:
        args = parser.parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)  # for the reports
        _check(args)
        status: int = args.run(args)
        sys.stdout.flush()  # a write that fails fails here, not at exit
        return status
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return _USAGE
    except KeyboardInterrupt:
        if _signalled:
            print("nqueens: terminated", file=sys.stderr)
            return _TERMINATED
        print("nqueens: interrupted", file=sys.stderr)
        return _INTERRUPTED
    except JournalWriteError as exc:
        print(f"nqueens: {exc}", file=sys.stderr)
        return _WRITE_FAILED
    except (JournalError, ClusterError) as exc:
        print(f"nqueens: {exc}", file=sys.stderr)
        return _USAGE
    except ExecutorError as exc:
        print(f"nqueens: {exc}", file=sys.stderr)
        return _FAILED
    except MemoryError as exc:
        print(f"nqueens: not enough memory{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return _FAILED
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, keeping a verdict
        _discard_stdout()
        return int(getattr(args, "verdict", 0))
    except OSError as exc:
        _discard_stdout()
        where = f" {exc.filename}" if exc.filename else " the output"
        print(f"nqueens: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return _WRITE_FAILED
    finally:
        signal.signal(signal.SIGTERM, previous)
        _signalled.clear()


def _discard_stdout() -> None:
    # what is left in stdout's buffer would fail again at exit: send it nowhere
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
