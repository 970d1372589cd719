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

import gc
import os
import signal
import sys
from collections.abc import Sequence

from .. import _lasting

with _lasting.no_collection():
    from .._clusters import ClusterError
    from .._executors import ExecutorError
    from .._journal import JournalError, JournalWriteError
    from ._errors import FAILED, INTERRUPTED, TERMINATED, USAGE, WRITE_FAILED, UsageError
    from ._parser import COMMANDS, build_parser

__all__ = ["build_parser", "main"]


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be, so that it unwinds the same way."""


_signalled: list[int] = []  # SIGTERM came (a handler may turn it into Ctrl-C's unwinding)


def _terminate(signum: int, frame: object) -> None:
    _signalled.append(signum)
    raise _Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    if argv is None:  # this process runs the command and ends: what exists now lasts
        gc.freeze()  # (no collection scans it again; see _lasting)
    words = sys.argv[1:] if argv is None else argv
    # a command line that starts with a subcommand needs that one's parser alone
    parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
    if not words:  # bare `nqueens`: what it can do
        parser.print_help()
        return USAGE
    previous = signal.signal(signal.SIGTERM, _terminate)
    args = None
    try:
        args = parser.parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)  # for the reports
        try:
            prepared = args.check(args)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"nqueens {args.command}: {exc}") from None
        status: int = args.run(args, **prepared)
        sys.stdout.flush()  # a write that fails fails here, not at exit
        return status
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        if _signalled:
            print("nqueens: terminated", file=sys.stderr)
            return TERMINATED
        print("nqueens: interrupted", file=sys.stderr)
        return INTERRUPTED
    except JournalWriteError as exc:
        print(f"nqueens: {exc}", file=sys.stderr)
        return WRITE_FAILED
    except (JournalError, ClusterError) as exc:
        print(f"nqueens: {exc}", file=sys.stderr)
        return USAGE
    except ExecutorError as exc:
        print(f"nqueens: {exc}", file=sys.stderr)
        return FAILED
    except MemoryError as exc:
        print(f"nqueens: not enough memory{': ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return FAILED
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, keeping a verdict
        _discard_stdout()
        return int(getattr(args, "verdict", 0))
    except OSError as exc:
        _discard_stdout()
        where = f" {exc.filename}" if exc.filename else " the output"
        print(f"nqueens: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return WRITE_FAILED
    finally:
        signal.signal(signal.SIGTERM, previous)
        _signalled.clear()


def _discard_stdout() -> None:
    # what is left in stdout's buffer would fail again at exit: send it nowhere
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
