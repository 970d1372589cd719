"""A SQLite journal of finished subproblems, so that a count survives any interruption.

Each finished task's count is committed as it arrives (write-ahead log, so
a kill -9 loses nothing that was committed).  The journal records what it
belongs to: n, the split (depth, number of tasks and a digest of the task
list), whether unique was asked and the package version.  Opening it for
another n or split is refused, and a file that is not an nqueens journal
is reported and never written to.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Sequence
from typing import Any

from ._version import __version__

_MAGIC = "nqueens-journal-1"


class JournalError(ValueError):
    """The journal file cannot be used for this count; the message says why."""


def split_digest(tasks: Sequence[tuple[Any, ...]]) -> str:
    """A short fingerprint of a task list: two splits match only if it matches."""
    digest = hashlib.sha256()
    for task in tasks:
        digest.update(repr(tuple(task)).encode())
    return digest.hexdigest()[:32]


class Journal:
    """The finished tasks of one count, kept in a SQLite file."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        n: int,
        depth: int,
        tasks: Sequence[tuple[Any, ...]],
        unique: bool,
    ) -> None:
        self.path = os.fspath(path)
        fresh = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
        expected = {
            "format": _MAGIC,
            "n": str(n),
            "depth": str(depth),
            "tasks": str(len(tasks)),
            "split": split_digest(tasks),
        }
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            if fresh:
                self._create(expected, unique)
            else:
                self._check(expected)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path} is not an nqueens journal ({exc})") from None

    def _create(self, expected: dict[str, str], unique: bool) -> None:
        with self._db:
            self._db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.execute("CREATE TABLE done (task INTEGER PRIMARY KEY, count TEXT NOT NULL)")
            meta = {**expected, "unique": str(unique), "version": __version__}
            self._db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())

    def _check(self, expected: dict[str, str]) -> None:
        try:
            meta = dict(self._db.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError:
            raise JournalError(f"{self.path} is not an nqueens journal") from None
        if meta.get("format") != _MAGIC:
            raise JournalError(f"{self.path} is not an nqueens journal")
        for key in ("n", "depth", "tasks", "split"):
            if meta.get(key) != expected[key]:
                raise JournalError(
                    f"{self.path} journals another count ({key} {meta.get(key)}, "
                    f"not {expected[key]}): use another file, or the same n and depth"
                )

    def finished(self) -> dict[int, int]:
        """task index -> its count, for every task already done."""
        return {task: int(count) for task, count in self._db.execute("SELECT * FROM done")}

    def record(self, task: int, count: int) -> None:
        """Commit one finished task (counts are stored as text: they may pass 2**63)."""
        self._db.execute("INSERT OR REPLACE INTO done VALUES (?, ?)", (task, str(count)))

    def close(self) -> None:
        self._db.close()
