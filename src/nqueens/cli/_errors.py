"""What the command line ends with: its exit statuses, and the usage error."""

from __future__ import annotations

FAILED = 1  # the work failed: refused results, no memory
USAGE = 2  # a bad argument, before any work
WRITE_FAILED = 74  # sysexits.h's EX_IOERR: the output could not be written
INTERRUPTED = 130  # 128 + SIGINT
TERMINATED = 143  # 128 + SIGTERM


class UsageError(Exception):
    """A bad argument: reported on one line, exit status USAGE."""
