"""The ``nqueens`` command line.

Usage errors exit with status 2 and one line on stderr, before any work, and
so does a count estimated at more than a year (``--anyway`` starts it);
Ctrl-C exits with status 130 and SIGTERM with 143, each with one line, from
the package's first line on; output into a closed pipe ends quietly
(``verify`` keeps its verdict's status); output or a journal that cannot be
written (a closed standard output, a full disk, a read-only folder, a
directory in the way) exits with status 74 and one line; workers whose
results are refused (nqueens.ExecutorError), or too little memory, exit
with status 1 and one line.  ``verify`` exits with 0 for a solution and 1
for a placement with attacks.  Files are written whole or not at all.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import io
import os
import signal
import sys
from collections.abc import Sequence

from .. import _lasting

with _lasting.no_collection():
    from .._engine.clusters import ClusterError
    from .._engine.journal import JournalError, JournalWriteError
    from .._engine.workers.messages import ExecutorError
    from ._errors import FAILED, INTERRUPTED, TERMINATED, USAGE, WRITE_FAILED, UsageError
    from ._parser import COMMANDS, build_parser

__all__ = ["build_parser", "main"]


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be, so that it unwinds the same way."""


_whole_process = False  # main() runs the process's command (argv None), not a caller's
_signalled: list[int] = []  # SIGTERM came (a handler may turn it into Ctrl-C's unwinding)


def _terminate(signum: int, frame: object) -> None:
    _signalled.append(signum)
    raise _Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (with argv None, the process's
    own command line: the process then ends with that status)."""
    status = _main(argv)
    if argv is None and status not in (INTERRUPTED, TERMINATED) and "mpi4py" not in sys.modules:
        # Everything the command opened is closed by now: the process ends here, not
        # after the interpreter's teardown (a Dask cluster's takes a fifth of a
        # second), during which a signal would find Python's handlers gone and end
        # it without a word.  (Under MPI the teardown ends MPI itself, and after a
        # signal it closes what the interrupted command could not: kept.)
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(status)
    return status


def _main(argv: Sequence[str] | None) -> int:
    previous = {
        signal.SIGINT: signal.getsignal(signal.SIGINT),
        signal.SIGTERM: signal.signal(signal.SIGTERM, _terminate),
    }
    if previous[signal.SIGINT] is not signal.SIG_IGN:  # (ignored: left so, as by nohup)
        signal.signal(signal.SIGINT, signal.default_int_handler)
    args = None
    global _whole_process
    _whole_process = argv is None
    try:
        if argv is None:  # this process runs the command and ends: what exists now lasts
            gc.freeze()  # (no collection scans it again; see _lasting)
        _standard_streams()
        words = sys.argv[1:] if argv is None else argv
        # a command line that starts with a subcommand needs that one's parser alone
        parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
        if not words:  # bare `nqueens`: what it can do
            parser.print_help()
            sys.stdout.flush()
            return USAGE
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version, or a usage error argparse printed
            sys.stdout.flush()  # (into a full disk: an error here, not a silent exit)
            return exc.code if isinstance(exc.code, int) else USAGE
        args.argv = list(sys.argv[1:] if argv is None else argv)  # for the reports
        try:
            prepared = args.check(args)
        except JournalError:
            raise  # its own status (74 where it cannot be written) and line, below
        except (TypeError, ValueError) as exc:
            raise UsageError(f"nqueens {args.command}: {exc}") from None
        status: int = args.run(args, **prepared)
        sys.stdout.flush()  # a write that fails fails here, not at exit
        return status
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        _quiet_exit()
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
        _quiet_exit()
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
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _signalled.clear()


class _ClosedStream(io.TextIOBase):
    """Standard output that the caller closed: each write fails as writing to a closed
    descriptor does (the command then exits with WRITE_FAILED, or 0 if it wrote nothing)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _standard_streams() -> None:
    # A stream the caller closed (`>&-`, `2>&-`) is None in Python: its descriptor is
    # held with /dev/null, so that no file this process opens takes it and receives
    # what was meant for that stream; output then fails with one line, and messages
    # go nowhere
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        with contextlib.suppress(OSError):
            os.fstat(fd)  # open after all (a stream set to None by the caller): kept
            continue
        null = os.open(os.devnull, os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        if name == "stdout":
            sys.stdout = _ClosedStream()
        else:
            sys.stderr = open(fd, "w", closefd=False)  # noqa: SIM115 (lives with the process)


def _quiet_exit() -> None:
    # after the one line that says how the command ended, what the interpreter's exit
    # finds unfinished (a cluster half started, a stream of results whose client has
    # closed) is not reported again as a traceback; (a process of its own only: a
    # caller of main() keeps its hook)
    if _whole_process:
        sys.unraisablehook = lambda unraisable: None


def _discard_stdout() -> None:
    # what is left in stdout's buffer would fail again at exit: send it nowhere
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):  # no descriptor (closed, or replaced)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
