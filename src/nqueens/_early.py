"""Ctrl-C and SIGTERM while the command line starts.

The ``nqueens`` command imports the package before its main() takes over the
signals; a signal that lands meanwhile would print a traceback.  When this
process is that command, guard() ends it at once with one line and the status
main() gives (130 or 143): nothing has started yet that needs undoing.  A
program that imports nqueens keeps its own handlers.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

_STATUS: dict[int, tuple[int, str]] = {
    signal.SIGINT: (130, "interrupted"),
    signal.SIGTERM: (143, "terminated"),
}


def _end(signum: int, frame: Any) -> None:
    status, word = _STATUS[signum]
    os.write(2, f"nqueens: {word}\n".encode())
    os._exit(status)


def _is_command() -> bool:
    # the console script (its name) or `python -m nqueens`: the interpreter's own argv
    # (3.10 on), or, before, the "-m" that argv holds while runpy imports the package
    # of the module it runs
    script = os.path.basename(sys.argv[0]) if sys.argv else ""
    if script in ("nqueens", "nqueens.exe"):
        return True
    words = getattr(sys, "orig_argv", None)
    if words is None:
        return script == "-m"
    return any(a == "-m" and b == "nqueens" for a, b in zip(words, words[1:]))


def guard() -> None:
    """In the nqueens command, end the process quietly on Ctrl-C or SIGTERM until
    main() sets its own handlers (only where the default handlers stand)."""
    if not _is_command():
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _end)
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _end)
    except ValueError:  # imported first by a thread other than the main one
        pass
