"""The parser: one function per subcommand, each attaching its check and its command."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn

from .. import _bench_defaults as settings
from .._engine.clusters import MPI_LAUNCH
from .._engine.workers.plan import RECOUNT_DEFAULT
from .._placements.render import STYLES
from .._version import DISTRIBUTION, __version__
from . import _checks as checks, _commands as run
from ._errors import UsageError

FORMATS = ("text", "json", "jsonl", "csv", "svg")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")

    def _print_message(self, message: str, file: Any = None) -> None:
        # the help and the version written, or an error (argparse's own passes over
        # an OSError: into a full disk, --help would exit 0 having written nothing)
        if message:
            (file or sys.stderr).write(message)


class _Formatter(argparse.HelpFormatter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # the width as argparse finds it, without importing shutil (and with it bz2,
        # lzma and zlib, which every command would load, as argparse makes a formatter
        # for each argument added)
        if len(args) < 4 and kwargs.get("width") is None:
            kwargs["width"] = _columns() - 2
        super().__init__(*args, **kwargs)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        # the examples keep their lines; every other text is wrapped as usual
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size() gives it: $COLUMNS, else
    the terminal of standard output, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


EXAMPLES = {
    "count": ["nqueens count 16", "nqueens count 14 --unique", "nqueens count 20 --workers 2 "
              "--journal n20.sqlite", "nqueens count 8 --place 0:0"],
    "estimate": [
        "nqueens estimate 22",
        "nqueens estimate 20 --workers 2 --budget 3",
        "nqueens estimate 22 --cluster 256",
    ],
    "solve": ["nqueens solve 6", "nqueens solve 8 --unique --format csv",
              "nqueens solve 8 --limit 1 --style unicode",
              "nqueens solve 6 --format svg --out boards"],
    "construct": ["nqueens construct 12", "nqueens construct 1000000 --format csv"],
    "random": ["nqueens random 20 --seed 1"],
    "verify": ["nqueens verify 1 3 0 2", "nqueens verify --one-based 2 4 1 3",
               "nqueens solve 8 --format csv --limit 1 | tr , ' ' | nqueens verify -"],
    "solvers": ["nqueens solvers", "nqueens count 10 --solver column_check"],
    "bench": ["nqueens bench --quick", "nqueens bench --max-n 14 --only core twin --out results",
              "nqueens bench --compare results/nqueens-bench.json"],
}  # fmt: skip
"""Each subcommand's examples, as its help shows them (each one is tested to parse)."""


SHELLS = ("bash", "zsh", "tcsh")


class _Completion(argparse.Action):
    """--print-completion SHELL: the shell's completion script for the whole command
    line, made by shtab from this parser (the [completion] extra)."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option: Any = None
    ) -> None:
        try:
            import shtab
        except ImportError:
            raise UsageError(
                f"{parser.prog}: --print-completion needs the [completion] extra: "
                f"pip install '{DISTRIBUTION}[completion]'"
            ) from None
        print(shtab.complete(parser, shell=values), end="")
        parser.exit(0)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of the whole command line; `only`: with that subcommand alone (what
    main() builds for a command line that names one first: building all eight took
    about 14 ms of a cold start under cProfile, most of a quick command's own time)."""
    parser = _Parser(
        prog="nqueens",
        formatter_class=_Formatter,
        description="Count, list, construct and check solutions of the n-queens problem.",
    )
    parser.add_argument("--version", action="version", version=f"nqueens {__version__}")
    parser.add_argument(
        "--print-completion",
        choices=SHELLS,
        action=_Completion,
        metavar="SHELL",
        help="print the completion script for SHELL (bash, zsh or tcsh) and exit; e.g. "
        "nqueens --print-completion bash > ~/.local/share/bash-completion/completions/nqueens "
        "(needs the [completion] extra)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, add in COMMANDS.items():
        if only is None or name == only:
            add(commands)
    return parser


def command(
    commands: Any, name: str, summary: str, description: str | None = None
) -> argparse.ArgumentParser:
    examples = "".join(f"\n  {line}" for line in EXAMPLES.get(name, []))
    sub: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description or summary,
        epilog=f"examples:{examples}" if examples else None,
        formatter_class=_Formatter,
    )
    return sub


def _solver(name: str) -> str | None:
    # a name that `nqueens solvers` lists: core (None: the default) or a reference solver
    if name == "core":
        return None
    # imported in the function: a count with the core starts without it
    from ..reference import SOLVERS

    if name not in SOLVERS:
        raise argparse.ArgumentTypeError(
            f"no solver {name!r} (choose from core, {', '.join(SOLVERS)})"
        )
    return name


def _board(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("n", metavar="N", type=int, help="the side of the board (0..64)")
    sub.add_argument(
        "--unique", action="store_true", help="one per class of rotations and reflections"
    )
    sub.add_argument(
        "--solver",
        type=_solver,
        metavar="NAME",
        help="a pure-Python reference solver instead of the core, or core, the default "
        "(see: nqueens solvers)",
    )
    sub.add_argument(
        "--place",
        action="append",
        metavar="R:C",
        help="a queen already on the board, at row R and column C (repeatable): only the "
        "solutions that keep them (the completion problem; some instances are hard)",
    )


def _add_output(sub: argparse.ArgumentParser, out: bool = False, place: bool = False) -> None:
    sub.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: a board per solution; json: one JSON document (solve: an array of "
        "arrays); jsonl: one array per line; csv: one row of columns per line; svg: a drawn "
        "chessboard (default: text)",
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
        help="number columns from 1 in json and csv"
        + (", and rows and columns of --place" if place else ""),
    )
    if out:
        sub.add_argument(
            "--out",
            metavar="DIR",
            help="with --format svg: write one SVG file per board into DIR (made if missing)",
        )


def _count(commands: Any) -> None:
    sub = command(commands, "count", "print the number of solutions")
    _board(sub)
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
        "for one worker process per core of this machine (needs the [dask] extra)",
    )
    sub.add_argument(
        "--mpi",
        action="store_true",
        help=f"count on the MPI processes of this launch: {MPI_LAUNCH} (needs the [mpi] extra)",
    )
    sub.add_argument(
        "--journal",
        metavar="FILE",
        help="record each finished subproblem in this SQLite file; run the same command again "
        "after an interruption to resume",
    )
    sub.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: on when stderr is a terminal and N >= "
        f"{run.PROGRESS_FROM_N})",
    )
    sub.add_argument(
        "--depth",
        type=int,
        metavar="D",
        help="split by the border queens, each subproblem placing D more rows below them "
        "(default: ranges of quadrant row sets where the quadrant core counts, else D from N)",
    )
    sub.add_argument(
        "--recount",
        type=float,
        default=RECOUNT_DEFAULT,
        metavar="SHARE",
        help="with --dask or --mpi: the share of subproblems counted twice and compared, at least "
        "4 of them, some in this process (1: every one twice; 0: none; default: "
        f"{RECOUNT_DEFAULT})",
    )
    sub.add_argument(
        "--units",
        type=int,
        metavar="K",
        help="with --dask or --mpi: cut the work into K units (default: about a second of "
        "work each, at least 16 per worker; more balance the workers better, each costs "
        "the cluster a few ms)",
    )
    sub.add_argument(
        "--one-based", action="store_true", help="rows and columns of --place count from 1"
    )
    sub.add_argument(
        "--anyway",
        action="store_true",
        help="start a count even where it is estimated to take more than a year (refused "
        "without this)",
    )
    sub.set_defaults(check=checks.count, run=run.count)


def _estimate(commands: Any) -> None:
    sub = command(
        commands,
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
    sub.add_argument(
        "--cluster",
        type=int,
        metavar="K",
        help="the time on K cluster workers instead, each as fast as one core of this "
        "machine, by a simulation of count's units on Dask (a plan: the network taken as free)",
    )
    sub.set_defaults(check=checks.estimate, run=run.estimate)


def _solve(commands: Any) -> None:
    sub = command(
        commands,
        "solve",
        "print the solutions",
        "Print the solutions, in lexicographic order. On large boards that order is costly: "
        "the first solution of N = 30 takes under a second, of N = 34 half a minute, and "
        "about ten times as long every two rows beyond. For one solution of "
        "any size at once, use 'nqueens construct N' or 'nqueens random N'.",
    )
    _board(sub)
    sub.add_argument("--limit", type=int, metavar="K", help="stop after K solutions")
    _add_output(sub, out=True, place=True)
    sub.set_defaults(check=checks.solve, run=run.solve)


def _construct(commands: Any) -> None:
    sub = command(
        commands,
        "construct",
        "print one solution for any n, made by formula",
        "Print one solution, made in O(n) by the classic explicit construction: "
        "instant for millions of rows. N = 2 and 3 have none.",
    )
    sub.add_argument("n", metavar="N", type=int, help="the side of the board (1 or >= 4)")
    sub.set_defaults(check=checks.construct, run=run.construct, seed=None)
    _add_output(sub)


def _random(commands: Any) -> None:
    sub = command(
        commands,
        "random",
        "print a random solution",
        "Print a random solution, found by min-conflicts local search (listed and picked "
        "for N <= 10). The same seed gives the same solution.",
    )
    sub.add_argument("n", metavar="N", type=int, help="the side of the board (1 or >= 4)")
    sub.add_argument("--seed", type=int, metavar="S", help="make the choice reproducible")
    sub.set_defaults(check=checks.construct, run=run.random)
    _add_output(sub)


def _verify(commands: Any) -> None:
    sub = command(
        commands,
        "verify",
        "check a placement and list its attacking pairs",
        "Check a placement given as one column per row (0-based unless --one-based). "
        "Exit 0 and print 'valid' for a solution; exit 1 and print the attacking pairs if not.",
    )
    sub.add_argument("columns", metavar="COLUMN", nargs="*", help="the column of each row's queen")
    sub.add_argument("--one-based", action="store_true", help="rows and columns count from 1")
    sub.set_defaults(check=checks.verify, run=run.verify)


def _solvers(commands: Any) -> None:
    sub = command(
        commands,
        "solvers",
        "list the solvers that --solver takes",
        "List the reference solvers, from the most naive to the bitmask, with their rough speed.",
    )
    sub.set_defaults(check=checks.nothing, run=run.solvers)


def _bench(commands: Any) -> None:
    sub = command(
        commands,
        "bench",
        "time the core against pure Python, plain C and your own solver",
        "Time the core (one thread, and every core from n = 14, where it starts threads), "
        "a plain C program (where a compiler is found), the core's pure-Python twin, every "
        "reference solver and any solver of yours, for n = 4, 5, ..., dropping each once one "
        "size exceeds the budget. Each figure is the median of several runs, with its spread; "
        "every count is checked against OEIS A000170. Prints a Markdown report (the machine, "
        "warnings, headline ratios, a table of times and one of speed-ups) and writes it, "
        f"with a JSON file of every run, to --out as {settings.MARKDOWN_NAME} and "
        f"{settings.JSON_NAME}, with a plot ({settings.PLOT_NAME}) where matplotlib is "
        "installed. The defaults reproduce the published figures (BENCHMARKS.md) in a few "
        "minutes; --quick takes under a minute.",
    )
    sub.add_argument(
        "--max-n",
        type=int,
        metavar="N",
        help=f"the largest board (default: {settings.DEFAULT_MAX_N}; --quick: "
        f"{settings.QUICK_MAX_N})",
    )
    sub.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="drop an implementation once one size takes longer "
        f"(default: {settings.DEFAULT_BUDGET}; --quick: {settings.QUICK_BUDGET})",
    )
    sub.add_argument(
        "--runs",
        type=int,
        metavar="K",
        help=f"runs per figure (default: {settings.DEFAULT_RUNS}, {settings.MIN_RUNS} where a "
        f"run takes over {settings.SLOW_RUN:g} s; --quick: {settings.MIN_RUNS})",
    )
    sub.add_argument(
        "--quick", action="store_true", help="a short run, under a minute (smaller n and budget)"
    )
    sub.add_argument(
        "--out",
        metavar="DIR",
        help=f"where to write {settings.MARKDOWN_NAME}, {settings.JSON_NAME} and "
        f"{settings.PLOT_NAME} (default: {settings.OUT_DIR}; made if missing)",
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
        "importable from the current folder or a path to a .py file; it is checked against "
        "OEIS A000170 for n = 4..8 first, and dropped, never timed, if it is wrong or raises",
    )
    sub.set_defaults(check=checks.bench, run=run.bench)


COMMANDS = {
    "count": _count,
    "estimate": _estimate,
    "solve": _solve,
    "construct": _construct,
    "random": _random,
    "verify": _verify,
    "solvers": _solvers,
    "bench": _bench,
}
"""Each subcommand's name and the function that adds it, in the order the help lists them."""
