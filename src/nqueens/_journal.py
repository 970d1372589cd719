"""A SQLite journal of finished subproblems, so that a count survives any interruption.

Each finished task's count is committed as it arrives (write-ahead log, so
a kill -9 loses nothing that was committed).  The journal records what it
belongs to: n, the split (depth, number of tasks and a digest of the task
list), whether unique was asked and the package version.  A resumed count
takes the recorded split, whatever its workers; opening a journal for
another n or split is refused, and a file that is not an nqueens journal is
reported and never written to.

The journal is opened before any work: its path is checked (a regular file,
or a new name in a directory that exists), it is locked for this count
alone (another count on the same file, in this process or another, is
refused as "in use"), and it is made writable or refused.  Its tables and
header are created in one transaction, so a kill at any moment leaves no
journal, an empty one (taken as new) or a whole one.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
import stat
import threading
from collections.abc import Sequence
from typing import Any

from ._version import __version__

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: threads are still kept apart
    fcntl = None  # type: ignore[assignment]

_MAGIC = "nqueens-journal-1"

# The files this process has open as journals, by (device, inode): a second
# count on one of them is refused before it opens the file at all (closing
# any descriptor of a file drops the POSIX locks that SQLite holds on it).
# Other processes are kept out by flock(), which SQLite's own POSIX locks
# leave alone (a POSIX lock of ours would be dropped by SQLite's first read
# of a new file).  A process pool forked during the count shares the locked
# descriptor, so close() unlocks it explicitly rather than by closing it.
_in_use: set[tuple[int, int]] = set()
_in_use_lock = threading.Lock()


class JournalError(ValueError):
    """The journal file cannot be used for this count; the message says why."""


def split_digest(tasks: Sequence[tuple[Any, ...]]) -> str:
    """A short fingerprint of a task list: two splits match only if it matches."""
    digest = hashlib.sha256()
    for task in tasks:
        digest.update(repr(tuple(task)).encode())
    return digest.hexdigest()[:32]


def check_path(path: object) -> str:
    """The journal's path as a str, or TypeError / JournalError before any work."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"journal must be a path (str or os.PathLike), not {type(path).__name__}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"journal must be a str path, not {type(name).__name__}")
    if name in ("", ":memory:") or name.startswith("file:"):
        raise JournalError(f"journal {name!r} would keep nothing: name a file")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(name))
        if not os.path.isdir(folder):
            raise JournalError(f"{name}: the folder {folder} does not exist") from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise JournalError(f"{name}: the folder {folder} is not writable") from None
        return name
    except OSError as exc:
        raise JournalError(f"{name}: {exc.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise JournalError(f"{name} is a directory, not a journal file")
    if not stat.S_ISREG(info.st_mode):
        raise JournalError(f"{name} is not a regular file (a device, pipe or socket)")
    return name


class Journal:
    """The finished tasks of one count, kept in a SQLite file, held by this count alone.

    Opening checks the file and reads its header; bind() then creates the
    header for a new journal, or checks it against the split of this count.
    """

    def __init__(self, path: str | os.PathLike[str], n: int) -> None:
        self.path = check_path(path)
        self.n = n
        self._key: tuple[int, int] | None = None
        self._fd = -1
        self._db: sqlite3.Connection | None = None
        try:
            self._lock()
            self._open()
        except BaseException:
            self.close()
            raise

    def _lock(self) -> None:
        with _in_use_lock:
            try:
                info = os.stat(self.path)
            except FileNotFoundError:
                pass
            else:
                if (info.st_dev, info.st_ino) in _in_use:
                    raise JournalError(f"{self.path} is in use by another count in this process")
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise JournalError(f"{self.path} cannot be written: {exc.strerror}") from None
            info = os.fstat(self._fd)
            if not stat.S_ISREG(info.st_mode):
                raise JournalError(f"{self.path} is not a regular file")
            if fcntl is not None:
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as exc:
                    if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise JournalError(
                            f"{self.path} cannot be locked: {exc.strerror}"
                        ) from None
                    raise JournalError(
                        f"{self.path} is in use by another count (another process)"
                    ) from None
            self._key = (info.st_dev, info.st_ino)
            _in_use.add(self._key)

    def _open(self) -> None:
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path} is not an nqueens journal ({exc})") from None
        self.meta: dict[str, str] | None = None
        if tables:
            try:
                self.meta = dict(self._db.execute("SELECT key, value FROM meta"))
            except sqlite3.DatabaseError:
                raise JournalError(f"{self.path} is not an nqueens journal") from None
            if self.meta.get("format") != _MAGIC or "done" not in tables:
                raise JournalError(f"{self.path} is not an nqueens journal")
            if self.meta.get("n") != str(self.n):
                raise JournalError(
                    f"{self.path} journals another count (n {self.meta.get('n')}, not {self.n}): "
                    "use another file"
                )
        # make sure it can be written now, before any work: the log mode
        # (which creates the -wal file beside it) and a write lock
        try:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"{self.path} cannot be written (journal mode {mode})")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path} cannot be written ({exc})") from None

    @property
    def depth(self) -> int | None:
        """The depth of the split this journal recorded, or None for a new journal."""
        if self.meta is None:
            return None
        try:
            return int(self.meta["depth"])
        except (KeyError, ValueError):
            raise JournalError(f"{self.path} is not an nqueens journal (no depth)") from None

    def bind(self, depth: int, tasks: Sequence[tuple[Any, ...]], unique: bool) -> None:
        """Create the header of a new journal, in one transaction, or check that
        an existing one records this split."""
        expected = {
            "format": _MAGIC,
            "n": str(self.n),
            "depth": str(depth),
            "tasks": str(len(tasks)),
            "split": split_digest(tasks),
        }
        if self.meta is None:
            meta = {**expected, "unique": str(unique), "version": __version__}
            try:
                self._sql("BEGIN IMMEDIATE")
                self._sql("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                self._sql("CREATE TABLE done (task INTEGER PRIMARY KEY, count TEXT NOT NULL)")
                self._db_or_fail().executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
                self._sql("COMMIT")
            except sqlite3.Error as exc:
                raise JournalError(f"{self.path} cannot be written ({exc})") from None
            self.meta = meta
            return
        for key in ("n", "depth", "tasks", "split"):
            if self.meta.get(key) != expected[key]:
                raise JournalError(
                    f"{self.path} journals another count ({key} {self.meta.get(key)}, "
                    f"not {expected[key]}): use another file, or the same n and depth"
                )

    def _db_or_fail(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(f"{self.path} is closed")
        return self._db

    def _sql(self, statement: str, *args: Any) -> sqlite3.Cursor:
        return self._db_or_fail().execute(statement, *args)

    def finished(self) -> dict[int, int]:
        """task index -> its count, for every task already done."""
        try:
            rows = self._sql("SELECT task, count FROM done").fetchall()
            return {int(task): int(count) for task, count in rows}
        except (sqlite3.Error, ValueError) as exc:
            raise JournalError(f"{self.path} cannot be read ({exc})") from None

    def record(self, task: int, count: int) -> None:
        """Commit one finished task (counts are stored as text: they may pass 2**63)."""
        try:
            self._sql("INSERT OR REPLACE INTO done VALUES (?, ?)", (task, str(count)))
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path} cannot be written ({exc})") from None

    def close(self) -> None:
        """Close the database, then give the file up to other counts."""
        if self._db is not None:
            self._db.close()
            self._db = None
        with _in_use_lock:
            if self._fd >= 0:
                if fcntl is not None and self._key is not None:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
                os.close(self._fd)
                self._fd = -1
            if self._key is not None:
                _in_use.discard(self._key)
                self._key = None
