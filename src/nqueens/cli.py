"""The ``nqueens`` command line.

Usage errors exit with status 2 and one line on stderr; Ctrl-C exits with
status 130 and one line; output into a closed pipe ends quietly.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Callable, NoReturn

from . import benchmark
from ._counting import count
from ._enumerating import solutions
from ._oeis import A000170
from ._select import IMPLEMENTATION
from ._symmetry import canonical
from ._validate import check_limit, check_n, check_workers
from ._version import __version__
from .reference import INFO, SOLVERS

Placement = Sequence[int]


class UsageError(Exception):
    """A bad argument: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _format_text(placement: Placement) -> str:
    n = len(placement)
    rows = ("." * c + "Q" + "." * (n - 1 - c) for c in placement)
    return "\n".join(rows) + "\n\n"


def _format_json(placement: Placement) -> str:
    return json.dumps(list(placement)) + "\n"


def _format_csv(placement: Placement) -> str:
    return ",".join(map(str, placement)) + "\n"


FORMATS: dict[str, Callable[[Placement], str]] = {
    "text": _format_text,
    "json": _format_json,
    "csv": _format_csv,
}


def _write(lines: Iterable[str]) -> None:
    out = sys.stdout
    for line in lines:
        out.write(line)
    out.flush()


def _reference(name: str, n: int, unique: bool) -> Iterator[tuple[int, ...]]:
    found = SOLVERS[name](n)
    if unique:
        # the reference solvers know no symmetry: keep each class's smallest image
        return iter(sorted({canonical(p) for p in found}))
    return found


def _cmd_count(args: argparse.Namespace) -> int:
    if args.solver is None:
        total = count(args.n, unique=args.unique, workers=args.workers)
    else:
        total = sum(1 for _ in _reference(args.solver, args.n, args.unique))
    print(total, flush=True)
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    fmt = FORMATS[args.format]
    if args.solver is None:
        found = solutions(args.n, unique=args.unique, limit=args.limit)
    else:
        found = itertools.islice(_reference(args.solver, args.n, args.unique), args.limit)
    _write(fmt(p) for p in found)
    return 0


def _cmd_solvers(args: argparse.Namespace) -> int:
    width = max(map(len, SOLVERS))
    lines = [f"{'core':<{width}}  the compiled bitmask core, the default ({IMPLEMENTATION})\n"]
    for name, info in INFO.items():
        lines.append(f"{name:<{width}}  {info.speed}; quick up to n = {info.quick_n}\n")
    _write(lines)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    benchmark.run(args.max_n, args.budget, args.out, sys.stdout, sys.stderr)
    return 0


def _check_bench(args: argparse.Namespace) -> None:
    if not benchmark.FIRST_N <= args.max_n <= len(A000170) - 1:
        raise ValueError(
            f"--max-n must be between {benchmark.FIRST_N} and {len(A000170) - 1}, got {args.max_n}"
        )
    if not args.budget > 0:  # also refuses nan
        raise ValueError(f"--budget must be a positive number of seconds, got {args.budget}")
    benchmark.check_out_dir(args.out)


def _check(args: argparse.Namespace) -> None:
    # the API's own checks, run before any work so that they read as usage errors
    if args.command == "solvers":
        return
    if args.command == "bench":
        try:
            _check_bench(args)
        except ValueError as exc:
            raise UsageError(f"nqueens bench: {exc}") from None
        return
    if getattr(args, "solver", None) is not None and getattr(args, "workers", 1) != 1:
        raise UsageError(f"nqueens {args.command}: --workers applies to the native core only")
    try:
        check_n(args.n)
        check_limit(getattr(args, "limit", None))
        check_workers(getattr(args, "workers", 1))
    except (TypeError, ValueError) as exc:
        raise UsageError(f"nqueens {args.command}: {exc}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="nqueens",
        description="Count and list the solutions of the n-queens problem.",
    )
    parser.add_argument("--version", action="version", version=f"nqueens {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

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

    sub = commands.add_parser(
        "count", help="print the number of solutions", description="Print the number of solutions."
    )
    board(sub)
    sub.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="K",
        help="threads that search at once; -1 for one per core (default: 1)",
    )
    sub.set_defaults(run=_cmd_count)

    sub = commands.add_parser(
        "solve",
        help="print the solutions",
        description="Print the solutions, in lexicographic order.",
    )
    board(sub)
    sub.add_argument("--limit", type=int, metavar="K", help="stop after K solutions")
    sub.add_argument(
        "--format",
        choices=sorted(FORMATS),
        default="text",
        help="text: a board per solution, Q for a queen; json: one array per line; "
        "csv: one row of columns per line (default: text)",
    )
    sub.set_defaults(run=_cmd_solve)

    sub = commands.add_parser(
        "solvers",
        help="list the solvers that --solver takes",
        description="List the reference solvers, from the most naive to the bitmask, "
        "with their rough speed.",
    )
    sub.set_defaults(run=_cmd_solvers)

    sub = commands.add_parser(
        "bench",
        help="time the core against pure Python and plain C",
        description="Time the core, its pure-Python twin, every reference solver and a plain "
        "C program (where a compiler is found) for n = 4, 5, ..., dropping each once one size "
        "exceeds the budget. Prints Markdown tables of times and speed-ups, and writes a "
        f"PNG plot ({benchmark.PLOT_NAME}) where matplotlib is installed.",
    )
    sub.add_argument(
        "--max-n",
        type=int,
        default=benchmark.DEFAULT_MAX_N,
        metavar="N",
        help=f"the largest board (default: {benchmark.DEFAULT_MAX_N})",
    )
    sub.add_argument(
        "--budget",
        type=float,
        default=benchmark.DEFAULT_BUDGET,
        metavar="SECONDS",
        help="drop an implementation once one size takes longer "
        f"(default: {benchmark.DEFAULT_BUDGET})",
    )
    sub.add_argument(
        "--out", default=".", metavar="DIR", help="where to write the plot (default: .)"
    )
    sub.set_defaults(run=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        _check(args)
        status: int = args.run(args)
        return status
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nqueens: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
