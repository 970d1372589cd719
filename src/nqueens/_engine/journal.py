"""A SQLite journal of finished subproblems, so that a count survives any interruption.

Each finished subproblem's count is committed as it arrives (write-ahead log, so
a kill -9 loses nothing that was committed), with the release and the core
that counted it and whether it was verified (counted twice alike).  The
journal records what it belongs to: n, the placed queens, the split (depth,
number of subproblems and a digest of the subproblem list), whether unique was asked
and the package version.  A resumed count takes the recorded split,
whatever its workers; opening a journal for another count is refused, and a
file that is not an nqueens journal is reported and never written to.

Nothing in it is taken on trust: the header carries a checksum of its
fields, each row a checksum of its fields and of the header's, and the
header the number of rows and the sum of their checksums, updated in the
row's own transaction.  A row whose subproblem is not of the split, whose count
is not a plain decimal within the subproblem's bound, or whose checksum is off, a
row added or removed, or a header changed, makes the journal refused as
damaged, before anything is summed.  (The checksums catch edits and damage,
not a forger who recomputes them: they are not keyed.)

The journal is opened before any work: its path is checked (a regular file,
or a new name in a directory that exists), it is locked for this count
alone (another count on the same file, in this process or another, is
refused as "in use"), and it is made writable or refused.  Its tables and
header are created in one transaction, so a kill at any moment leaves no
journal, an empty one (taken as new) or a whole one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .._output import leads_into_proc
from .._validate import short_repr
from .._version import __version__

if TYPE_CHECKING:
    import hashlib
    import sqlite3
else:  # imported by the first journal: a count without one does not load them
    hashlib = sqlite3 = None


def _load() -> None:
    global hashlib, sqlite3
    if sqlite3 is None:
        import hashlib
        import sqlite3


try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: threads are still kept apart
    fcntl = None  # type: ignore[assignment]

_MAGIC = "nqueens-journal-2"
_OLD_MAGIC = "nqueens-journal-1"
# what the header names, in this order in its checksum.  The file keeps the names of its
# first format: "tasks" (the number of subproblems) and the column "task" (a subproblem's
# index), so that journals written by earlier releases still open
_HEADER = ("format", "n", "root", "depth", "tasks", "split", "unique", "version")
_DECIMAL = re.compile(r"[0-9]+")
_MOD = 2**64

# The files this process has open as journals, by (device, inode): a second
# count on one of them is refused before it opens the file at all (closing
# any descriptor of a file drops the POSIX locks that SQLite holds on it).
# Other processes are kept out by flock(), which SQLite's own POSIX locks
# leave alone (a POSIX lock of ours would be dropped by SQLite's first read
# of a new file).  A process pool forked during the count shares the locked
# descriptor, so close() unlocks it explicitly rather than by closing it; and
# a forked child closes its copies at once, so that a pool's orphans do not
# hold the journal of a count killed with kill -9 against its resume.
_in_use: set[tuple[int, int]] = set()
_in_use_lock = threading.Lock()
_locked: set[int] = set()  # the descriptors that hold our flock()s


def _close_inherited() -> None:
    for fd in list(_locked):
        with contextlib.suppress(OSError):
            os.close(fd)  # the parent's lock stays: it is on the shared open file
    _locked.clear()
    _in_use.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_inherited)


class JournalError(ValueError):
    """The journal file cannot be used for this count; the message says why."""


class JournalWriteError(JournalError):
    """The journal cannot be written: its folder or file is read-only, or a write
    failed during the count (a full disk, a lost file)."""


# what opening a journal for writing fails with where the file system refuses writes
_WRITE_ERRORS = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT}


class Row(NamedTuple):
    """One finished subproblem as the journal holds it."""

    value: int  # its weighted count
    version: str  # the release that counted it
    implementation: str  # the cores that counted it: "cython" or "python"
    verified: bool  # counted twice, alike


def _digest(*fields: object) -> str:
    _load()
    return hashlib.sha256("\x1f".join(map(str, fields)).encode()).hexdigest()[:16]


def split_digest(subproblems: Sequence[tuple[Any, ...]]) -> str:
    """A short fingerprint of a subproblem list: two splits match only if it matches."""
    _load()
    digest = hashlib.sha256()
    for subproblem in subproblems:
        digest.update(repr(tuple(subproblem)).encode())
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
    if leads_into_proc(name):
        raise JournalError(f"{name} is not a regular file (it leads into /proc)")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(name))
        if not os.path.isdir(folder):
            raise JournalError(f"{name}: the folder {folder} does not exist") from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise JournalWriteError(f"{name}: the folder {folder} is not writable") from None
        return name
    except OSError as exc:
        raise JournalError(f"{name}: {exc.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise JournalError(f"{name} is a directory, not a journal file")
    if not stat.S_ISREG(info.st_mode):
        raise JournalError(f"{name} is not a regular file (a device, pipe or socket)")
    return name


class Journal:
    """The finished subproblems of one count, kept in a SQLite file, held by this count alone.

    Opening checks the file and reads its header; bind() then creates the
    header for a new journal, or checks it against the split of this count.
    """

    def __init__(self, path: str | os.PathLike[str], n: int) -> None:
        _load()
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
                if exc.errno in _WRITE_ERRORS:
                    raise JournalWriteError(
                        f"{self.path} cannot be written: {exc.strerror}"
                    ) from None
                raise JournalError(f"{self.path} cannot be opened: {exc.strerror}") from None
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
            _locked.add(self._fd)

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
            if self.meta.get("format") == _OLD_MAGIC:
                raise JournalError(
                    f"{self.path} was written by an older nqueens, whose journals do not say "
                    "which release counted each part: start a new file"
                )
            if self.meta.get("format") != _MAGIC or "done" not in tables:
                raise JournalError(f"{self.path} is not an nqueens journal")
            if self.meta.get("header") != _digest(*(self.meta.get(k) for k in _HEADER)):
                raise self._damaged("its header was changed")
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
                raise JournalWriteError(f"{self.path} cannot be written (journal mode {mode})")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            raise JournalWriteError(f"{self.path} cannot be written ({exc})") from None

    def _damaged(self, what: str) -> JournalError:
        return JournalError(
            f"{self.path} has been changed or damaged ({what}): nothing of it is used; "
            "delete it, or name another file"
        )

    @property
    def depth(self) -> int | None:
        """The depth of the split this journal recorded, or None for a new journal."""
        if self.meta is None:
            return None
        try:
            return int(self.meta["depth"])
        except (KeyError, ValueError):
            raise JournalError(f"{self.path} is not an nqueens journal (no depth)") from None

    @property
    def root(self) -> str | None:
        """The placed queens this journal recorded (as root_key() writes them), or None
        for a new journal."""
        return None if self.meta is None else self.meta.get("root")

    def bind(
        self, depth: int, subproblems: Sequence[tuple[Any, ...]], unique: bool, root: str
    ) -> None:
        """Create the header of a new journal, in one transaction, or check that
        an existing one records this split of this count."""
        expected = {
            "format": _MAGIC,
            "n": str(self.n),
            "root": root,
            "depth": str(depth),
            "tasks": str(len(subproblems)),
            "split": split_digest(subproblems),
        }
        self._subproblems = len(subproblems)
        if self.meta is None:
            meta = {**expected, "unique": str(unique), "version": __version__}
            meta["header"] = _digest(*(meta[k] for k in _HEADER))
            meta["rows"], meta["sum"] = "0", "0"
            try:
                self._sql("BEGIN IMMEDIATE")
                self._sql("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                self._sql(
                    "CREATE TABLE done (task INTEGER PRIMARY KEY, count TEXT NOT NULL, "
                    "version TEXT NOT NULL, core TEXT NOT NULL, verified INTEGER NOT NULL, "
                    "checksum TEXT NOT NULL)"
                )
                self._db_or_fail().executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
                self._sql("COMMIT")
            except sqlite3.Error as exc:
                raise JournalWriteError(f"{self.path} cannot be written ({exc})") from None
            self.meta = meta
            self._rows, self._sum = 0, 0
            return
        for key in ("n", "root", "depth", "tasks", "split"):
            if self.meta.get(key) != expected[key]:
                raise JournalError(
                    f"{self.path} journals another count ({key} {self.meta.get(key) or 'none'}, "
                    f"not {expected[key] or 'none'}): use another file, or the same count"
                )

    def _db_or_fail(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(f"{self.path} is closed")
        return self._db

    def _sql(self, statement: str, *args: Any) -> sqlite3.Cursor:
        return self._db_or_fail().execute(statement, *args)

    def _check(self, subproblem: int, count: str, version: str, core: str, verified: int) -> str:
        assert self.meta is not None
        return _digest(self.meta["header"], subproblem, count, version, core, verified)

    def finished(self, bound: Callable[[int], int]) -> dict[int, Row]:
        """subproblem index -> its row, for every subproblem already done; every row checked
        (its subproblem of the split, a plain decimal count at most bound(subproblem), its
        checksum) and the rows against the header's tally, or JournalError."""
        assert self.meta is not None, "bind() first"
        try:
            rows = self._sql(
                "SELECT task, count, version, core, verified, checksum FROM done"
            ).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path} cannot be read ({exc})") from None
        found: dict[int, Row] = {}
        total = 0
        for subproblem, text, version, core, verified, checksum in rows:
            if type(subproblem) is not int or not 0 <= subproblem < self._subproblems:
                raise self._damaged(
                    f"a row for subproblem {subproblem!r}, which the split does not have"
                )
            limit = bound(subproblem)
            if (
                not isinstance(text, str)
                or len(text) > len(str(limit))
                or not _DECIMAL.fullmatch(text)
                or int(text) > limit
            ):
                raise self._damaged(
                    f"subproblem {subproblem}'s count {short_repr(text, 40)} cannot be its count"
                )
            if not (isinstance(version, str) and isinstance(core, str) and verified in (0, 1)):
                raise self._damaged(f"subproblem {subproblem}'s row is malformed")
            if checksum != self._check(subproblem, text, version, core, verified):
                raise self._damaged(f"subproblem {subproblem}'s row does not match its checksum")
            found[subproblem] = Row(int(text), version, core, bool(verified))
            total = (total + int(checksum, 16)) % _MOD
        if self.meta.get("rows") != str(len(found)) or self.meta.get("sum") != str(total):
            raise self._damaged("rows were added or removed")
        self._rows, self._sum = len(found), total
        return found

    def record(self, subproblem: int, count: int, core: str, verified: bool, version: str) -> None:
        """Commit one finished subproblem, and the header's tally, in one transaction
        (counts are stored as text: they may pass 2**63)."""
        text, flag = str(count), int(verified)
        checksum = self._check(subproblem, text, version, core, flag)
        rows, total = self._rows + 1, (self._sum + int(checksum, 16)) % _MOD
        self._write(
            [
                (
                    "INSERT INTO done VALUES (?, ?, ?, ?, ?, ?)",
                    (subproblem, text, version, core, flag, checksum),
                )
            ],
            rows,
            total,
        )

    def forget(self, subproblems: Sequence[int]) -> None:
        """Remove some rows (counts found wrong after they were committed), with the tally."""
        statements: list[tuple[str, tuple[Any, ...]]] = []
        rows, total = self._rows, self._sum
        for subproblem in subproblems:
            try:
                row = self._sql(
                    "SELECT count, version, core, verified FROM done WHERE task = ?",
                    (subproblem,),
                ).fetchone()
            except sqlite3.Error as exc:
                raise JournalWriteError(f"{self.path} cannot be read ({exc})") from None
            if row is not None:
                statements.append(("DELETE FROM done WHERE task = ?", (subproblem,)))
                rows, total = rows - 1, (total - int(self._check(subproblem, *row), 16)) % _MOD
        if statements:
            self._write(statements, rows, total)

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]], rows: int, total: int) -> None:
        # the statements and the new tally, in one transaction, or none of them
        db = self._db_or_fail()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement, values in statements:
                    db.execute(statement, values)
                db.execute("UPDATE meta SET value = ? WHERE key = 'rows'", (str(rows),))
                db.execute("UPDATE meta SET value = ? WHERE key = 'sum'", (str(total),))
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # (Ctrl-C may come just after the commit)
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise JournalWriteError(f"{self.path} cannot be written ({exc})") from None
        self._rows, self._sum = rows, total

    def close(self) -> None:
        """Close the database, then give the file up to other counts."""
        if self._db is not None:
            self._db.close()
            self._db = None
        with _in_use_lock:
            if self._fd >= 0 and (self._fd in _locked or self._key is None):
                # (not in _locked after a fork: the child closed its copy already)
                if fcntl is not None and self._key is not None:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
                _locked.discard(self._fd)
                os.close(self._fd)
            self._fd = -1
            if self._key is not None:
                _in_use.discard(self._key)
                self._key = None
