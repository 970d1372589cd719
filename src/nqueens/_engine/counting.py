"""count(): the number of solutions, on threads or any map-like executor, with a journal.

The subproblems are made in ``subproblems.py`` (borders) and ``assembly.py``
(quadrants); map-like workers are driven and checked by ``workers.py``.

The number of symmetry classes (unique=True) follows from the total by
Burnside's lemma: of the 8 symmetries of the square only the identity, the
half turn and the two quarter turns can leave a solution of n >= 2 in place,
so unique = (total + P + 2R) / 8, where P counts the solutions that the half
turn leaves in place and R those that a quarter turn does.  P and R come
from a small search over the rows in mirrored pairs.  The same sum is a
check of any total that was not counted here alone (by map-like workers, or
read from a journal): it must be a multiple of 8, and the total even (no
solution of n >= 2 is its own mirror image).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

from .. import _select, _version
from .._placements.completion import check_placed
from .._validate import as_int, check_bool, check_n, check_workers, short_repr
from . import assembly as _assembly
from .journal import Journal, JournalError, Row
from .subproblems import (
    QUADRANT_DEPTH,
    AnySubproblem,
    Subproblem,
    as_subproblem,
    check_border_split,
    check_depth,
    count_run,
    quadrant_split_size,
    quadrants_apply,
    runs,
    split,
    subproblem_bound,
    wants_split,
)
from .threads import Done, run_subproblems, wait_for
from .workers.checks import results
from .workers.engines import claimed_fork, forks_at_submit
from .workers.messages import BrokenWorkers, ExecutorError, Finished, Unit
from .workers.plan import RECOUNT_DEFAULT

if TYPE_CHECKING:
    import random

# Cut the search into at least this many subproblems per thread, so that the
# threads finish together however uneven the subproblems are.
SUBPROBLEMS_PER_WORKER = 64
# Boards up to this side are counted in the calling thread, whatever workers
# says: they take milliseconds, less than starting a thread costs (BENCHMARKS.md)
INLINE_MAX_N = 14
# With one thread asked for, boards up to this side are counted by quadrants in the
# calling thread too: a helper thread costs more than it gives to such a short count,
# which ends well within a second, Ctrl-C honoured then
ONE_THREAD_INLINE_MAX_N = 16
# rows of a journal counted again, here, before a resume trusts it: those
# another release or core recorded (at most this many)
_RESUME_CHECKS = 8

Placed = Union[Mapping[int, int], Iterable[tuple[int, int]]]
MapLike = Callable[[Callable[[Any], Any], Sequence[Any]], Iterable[Any]]
# an int (threads), a map-like, or an engine: an executor, a Dask Client
Workers = Union[int, MapLike, Any]

__all__ = ["BrokenWorkers", "ExecutorError", "count"]


def _rng() -> random.Random:
    # the sampling of executor checks; random is imported by counts on executors only
    import random

    return random.Random()


def burnside(n: int, total: int, symmetric: _Symmetric | None = None) -> int:
    if n <= 1:
        return 1
    # (the check of the total worked them out already, where it ran)
    found = symmetric.get() if symmetric is not None else _select.bitsolver.count_symmetric(n)
    half_turn, quarter_turn = found
    classes, rest = divmod(total + int(half_turn) + 2 * int(quarter_turn), 8)
    if rest:  # cannot happen for a right total: refuse to answer rather than round
        raise ArithmeticError(f"inconsistent counts for n = {n}: Burnside's sum is not whole")
    return classes


class _Symmetric:
    """count_symmetric(n), worked out on a helper thread while the workers count
    (the core drops the GIL): 0.5 s at n = 22, 8 s at 25, for the check of the
    total.  The thread starts at start() (get() starts it too): count() calls it
    once the workers have sent a result, so that no thread of ours is running
    when a process pool forks its processes at the first submit (a fork beside
    a running thread may deadlock the child; Python 3.12 warns of it).  For a
    pool that forks, it is started sooner, beside the table's build, and
    settle()d before the fork: joined if it has ended, else stopped and
    started again after.  close() stops it, for a count that ends another way."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._fresh()

    def _fresh(self) -> None:
        self.found: list[Any] = []
        self.stop = bytearray(1)
        self.ended = Done()
        self.helper = threading.Thread(
            target=self._work, args=(self.n,), name="nqueens-symmetric", daemon=True
        )

    def start(self) -> None:
        """Start the search, unless it has started."""
        if self.helper.ident is None and not self.ended.is_set():
            self.helper.start()

    def _work(self, n: int) -> None:
        try:
            self.found.append(_select.bitsolver.count_symmetric(n, stop=self.stop))
        except BaseException as exc:  # handed to the caller of get()
            self.found.append(exc)
        finally:
            self.ended.set()

    def settle(self) -> None:
        """Before a process pool forks (no thread of ours may run then): a search
        that has ended is joined; one still running is stopped, its partial
        counts dropped, and made ready to start again."""
        if self.helper.ident is None:
            return
        if not self.ended.is_set():
            self.stop[0] = 1
            pressed = wait_for([self.ended])
            self.helper.join()
            if pressed is not None:
                raise pressed
            self._fresh()
            return
        self.helper.join()

    def get(self) -> tuple[int, int]:
        self.start()
        while not self.ended.wait(0.05):  # in slices: Ctrl-C is not held up
            pass
        if isinstance(self.found[0], BaseException):
            raise self.found[0]
        return self.found[0]  # type: ignore[no-any-return]

    def close(self) -> None:
        """Stop the search if it still runs, and wait for it (within moments):
        nothing of a count outlives it."""
        self.stop[0] = 1
        if self.helper.ident is None:  # never started: nothing to wait for
            self.found.append(RuntimeError("the check of the total was closed unstarted"))
            self.ended.set()
            return
        pressed = wait_for([self.ended])
        if pressed is not None:
            raise pressed


def _check_total(n: int, total: int, source: str, symmetric: _Symmetric) -> None:
    """Refuse a total of the whole board that no right count gives: odd (for n >= 2
    every solution has a distinct mirror image), or whose Burnside sum is not a
    multiple of 8."""
    if n <= 1:
        return
    half_turn, quarter_turn = symmetric.get()
    if total % 2 or (total + int(half_turn) + 2 * int(quarter_turn)) % 8:
        raise ExecutorError(
            f"the counts {source} add up to {total:,}, which cannot be the number of solutions "
            f"of n = {n} (it breaks the symmetries every count keeps): some count is wrong; "
            "count again with recount=1.0 (--recount 1) to find it"
        )


def count(
    n: int,
    *,
    unique: bool = False,
    workers: Workers = 1,
    journal: str | os.PathLike[str] | None = None,
    progress: bool = False,
    depth: int | None = None,
    placed: Placed | None = None,
    recount: float | None = None,
    units: int | None = None,
) -> int:
    """Return the number of ways to place n non-attacking queens on an n x n board.

    The search runs in the compiled core, on threads or spread over other processes or
    machines; the answer never depends on where it runs, and every result from another
    process is checked before it is kept.  With a journal, an interrupted count resumes.

    Parameters
    ----------
    n
        The board's side, 0 to MAX_N.
    unique
        Count each class of solutions under rotation and reflection once.
    workers
        Threads (-1: one per core), or a Dask ``Client``, a ``concurrent.futures``
        executor, a pool with ``imap_unordered`` or any ``map``-like callable.
    journal
        A SQLite file recording each finished subproblem, for the same call to resume.
    progress
        Show a progress bar, with the time left, on stderr.
    depth
        Rows placed below the border queens in each subproblem (see subproblems()).
    placed
        Queens already on the board, {row: column} or (row, column) pairs, 0-based.
    recount
        The share of subproblems that workers beyond threads count twice (0.02).
    units
        How many units the work is cut into for such workers (default: from the work).

    Returns
    -------
    int
        The number of solutions, of classes, or of completions of ``placed``.

    Raises
    ------
    TypeError, ValueError
        An argument of the wrong type or out of range; placed queens that attack.
    JournalError
        A journal of another count, in use, damaged or not writable.
    ExecutorError
        Results that no right count gives; BrokenWorkers if the workers stopped.

    Examples
    --------
    >>> count(8), count(8, unique=True), count(13, workers=2)
    (92, 12, 73712)
    >>> count(12, workers=map, recount=1.0)  # every subproblem counted twice
    14200
    >>> count(8, placed={0: 0})  # a queen in the top left corner
    4
    """
    n = check_n(n)
    workers = check_workers(workers)
    unique = check_bool(unique, "unique")
    progress = check_bool(progress, "progress")
    recount = check_recount(recount)
    units = check_units(units, workers)
    root = None
    if placed is not None:
        if unique:
            raise ValueError(
                "unique=True cannot go with placed queens: the symmetries of the board do not "
                "keep them in place"
            )
        root = Subproblem(n, 1, *check_placed(n, placed))
    depth = check_depth(n, depth, root)
    if root is None and not quadrants_apply(n) and wants_split(journal, progress, depth, workers):
        check_border_split(n)
    counting = _Count(n, workers, progress, depth, unique, root, recount, units)
    # the journal is opened (checked, locked, made writable) before any work, the
    # estimate of a long count included
    book = None if journal is None else Journal(journal, n)
    try:
        if isinstance(workers, int) and _estimated_first(n, progress):
            from . import estimate as _estimate

            expected = _estimate.before_count(n, unique, workers, placed)
            counting.expected = expected.seconds
            if _estimate.too_long(expected):
                warnings.warn(
                    f"nqueens: count({n}) will take {expected.duration()} on {workers} "
                    f"thread{'s' if workers > 1 else ''}, more than a year "
                    "(nqueens.estimate says why)",
                    LongCountWarning,
                    stacklevel=2,
                )
        total = counting.total(book)
    finally:
        if book is not None:
            book.close()
    return burnside(n, total, counting.symmetric) if unique else total


def may_outlast(n: int) -> bool:
    """Whether a count of n could take more than a year (then worth an estimate first):
    the compiled quadrant core counts every board up to n = 23 in days; row by row from
    n = 24 on, or in pure Python from n = 20, a count may take longer."""
    return n >= (24 if _select.IMPLEMENTATION == "cython" else 20)


def _estimated_first(n: int, progress: bool) -> bool:
    # a count that may outlast a year is estimated first, to say so; so is one whose
    # progress bar says how long is left (a count of a minute or more)
    return may_outlast(n) or (progress and n >= PROGRESS_ESTIMATE_FROM_N)


PROGRESS_ESTIMATE_FROM_N = 20


def check_recount(recount: object) -> float | None:
    """recount as a float from 0 to 1 (None: the default), or TypeError / ValueError."""
    if recount is None:
        return None
    if isinstance(recount, bool) or not isinstance(recount, (int, float)):
        raise TypeError(f"recount must be a number from 0 to 1, not {type(recount).__name__}")
    if not 0 <= recount <= 1:  # also refuses nan
        raise ValueError(
            f"recount must be from 0 to 1 (the share of subproblems counted twice), got {recount}"
        )
    return float(recount)


def check_units(units: object, workers: object) -> int | None:
    """units as a positive int, or None; refused with threads (an int workers), which
    take the subproblems one run at a time."""
    if units is None:
        return None
    value = as_int(units, "units")
    if value < 1:
        raise ValueError(
            f"units must be a positive int (how many units to cut the work into), got {value}"
        )
    if isinstance(workers, int):
        raise ValueError(
            "units applies to workers that are a map-like, an executor or a Dask Client, "
            "not to threads"
        )
    return value


def root_key(root: Subproblem | None) -> str:
    """The placed queens as a journal records them ('' for none)."""
    return "" if root is None else " ".join(f"{r}:{c}" for r, c in zip(root.rows, root.cols))


class _Count:
    """One call of count(): the method, the table it counts with, and the work."""

    def __init__(
        self,
        n: int,
        workers: Workers,
        progress: bool,
        depth: int | None,
        unique: bool,
        root: Subproblem | None,
        recount: float | None,
        units: int | None = None,
    ) -> None:
        self.n, self.workers, self.progress, self.depth = n, workers, progress, depth
        self.unique, self.root, self.recount, self.units = unique, root, recount, units
        self.quarter: Any = None  # this call's own quadrant table, shared by its threads
        self.per_thread = threading.local()  # each thread's working memory, for this call only
        self.symmetric: _Symmetric | None = None  # the check of a total's, where it runs
        self.building: _assembly.Building | None = None  # the table, while it builds
        self.expected: float | None = None  # estimated seconds, for the progress bar

    def _table(self, required: bool) -> bool:
        """Build this call's quadrant table; False (with a warning) where it finds no
        memory and the rows can do instead, MemoryError where they cannot."""
        if self.quarter is not None:
            return True
        try:
            self.quarter = _assembly.build(self.n)
        except MemoryError:
            if required:
                raise MemoryError(
                    f"not enough memory for the quadrant table of n = {self.n}, which this "
                    "journal's split needs: free some memory, or start a new journal"
                ) from None
            self._row_by_row(stacklevel=5)
            return False
        return True

    def _row_by_row(self, stacklevel: int) -> None:
        warnings.warn(
            f"nqueens: not enough memory for the quadrant method at n = {self.n}; "
            "counting row by row instead (slower)",
            RuntimeWarning,
            stacklevel=stacklevel,
        )

    def _here(self) -> bool:
        """Build this call's table for the checks of a map-like's results; False, with
        a warning, where it finds no memory (the workers build their own)."""
        building, self.building = self.building, None
        try:
            if self.quarter is None:
                self.quarter = building.result() if building else _assembly.build(self.n)
        except MemoryError:
            warnings.warn(
                "nqueens: not enough memory in this process for the quadrant table of "
                f"n = {self.n}; "
                "the workers' results are checked through the workers only",
                RuntimeWarning,
                stacklevel=5,
            )
            return False
        return True

    def count_run(self, subproblems: Sequence[AnySubproblem], stop: bytearray) -> list[int]:
        return count_run(subproblems, stop, self.quarter, self.per_thread)

    def local(self, unit: Unit) -> list[int]:
        """A unit's counts, here: the checks of a map-like's results."""
        checked = [as_subproblem(subproblem) for subproblem in unit.subproblems]
        return self.count_run(checked, bytearray(1))

    def total(self, book: Journal | None) -> int:
        n, workers, root = self.n, self.workers, self.root
        depth = self.depth
        split_wanted = wants_split(book, self.progress, depth, workers)
        quadrants = root is None and depth is None and quadrants_apply(n)
        recorded = book.depth if book is not None else None
        if recorded is not None:
            # a resumed count keeps the split it started with, whatever its workers
            assert book is not None
            if book.root != root_key(root):
                raise JournalError(
                    f"{book.path} journals another count (placed queens "
                    f"{book.root or 'none'}, not {root_key(root) or 'none'}): use another file"
                )
            if depth is not None and depth != recorded:
                kept = (
                    "by quadrant assembly, no depth"
                    if recorded == QUADRANT_DEPTH
                    else f"depth {recorded}"
                )
                raise JournalError(
                    f"{book.path} journals another count ({kept}, not depth {depth}): "
                    "use another file, or the same n and depth"
                )
            quadrants = recorded == QUADRANT_DEPTH
            depth = None if quadrants else recorded
        if quadrants and not (not isinstance(workers, int) and recorded is None):
            # the table is built first, so that a lack of memory shows before any work
            # (a map-like's workers build their own: this one only checks a few units)
            quadrants = self._table(required=recorded == QUADRANT_DEPTH)
        elif quadrants and forks_at_submit(workers):
            # a pool that forks at its first submit counts with this process's table
            # (_results): built from now on, while this thread splits and plans, and
            # the check of the total beside it once the split is made (_results), on
            # the cores the pool has not taken yet
            self.building = _assembly.Building(n)
            self.symmetric = _Symmetric(n) if n >= 2 else None
        try:
            return self._split_and_count(book, workers, depth, quadrants, split_wanted)
        finally:
            if self.building is not None:  # never taken: interrupted, or refused
                self.building.cancel()
                self.building = None
            if self.symmetric is not None:
                self.symmetric.close()  # ended already, unless interrupted

    def _split_and_count(
        self,
        book: Journal | None,
        workers: Workers,
        depth: int | None,
        quadrants: bool,
        split_wanted: bool,
    ) -> int:
        n, root = self.n, self.root
        core = _select.bitsolver
        if not split_wanted and root is None:
            if quadrants:
                try:
                    return self._by_quadrants()
                except MemoryError:  # a row set's lists: go row by row
                    self.quarter = None
                    self._row_by_row(stacklevel=4)
                    quadrants = False
            if n <= INLINE_MAX_N:
                # over in milliseconds: threads would cost more than they save
                return int(core.count_solutions(n, bytearray(1)))
            if workers == 1:
                results = run_subproblems(
                    lambda _, stop: [int(core.count_solutions(n, stop))], [None], 1
                )
                return sum(value for _, value in results)
        min_subproblems = workers * SUBPROBLEMS_PER_WORKER if isinstance(workers, int) else 1
        subproblems: Sequence[AnySubproblem]
        if quadrants:
            depth, subproblems = QUADRANT_DEPTH, _assembly.split(n, quadrant_split_size(n))
        else:
            depth, subproblems = split(n, depth, min_subproblems, root)
        if isinstance(workers, int) and book is None and not self.progress:
            # nothing to record per subproblem: each thread sums its own
            count_each: Callable[[Sequence[Any], bytearray], list[int]] = self.count_run
            found = run_subproblems(count_each, subproblems, workers, False, runs(subproblems))
            return sum(value for _, value in found)
        if book is not None:
            book.bind(depth, subproblems, self.unique, root_key(root))
        return self._journalled(subproblems, book)

    def _journalled(self, subproblems: Sequence[AnySubproblem], book: Journal | None) -> int:
        # each subproblem's count as it finishes, kept in the journal and the bar
        done: dict[int, Row] = {}
        if book is not None:
            done = book.finished(lambda i: subproblem_bound(subproblems[i]))
            self._check_resumed(subproblems, done, book)
        pending = [i for i in range(len(subproblems)) if i not in done]
        checked = self.root is None and (book is not None or not isinstance(self.workers, int))
        symmetric = self.symmetric  # started already, for a pool that forks
        if symmetric is None and checked and self.n >= 2:
            symmetric = _Symmetric(self.n)
        self.symmetric = symmetric
        unverified: list[int] = []  # rows of this call not verified: dropped if a check fails
        # (no bar where there is no standard error to draw it on: sys.stderr is None)
        shown = self.progress and sys.stderr is not None
        bar = _progress_bar(len(subproblems), len(done), self.expected) if shown else None
        try:
            waiting = symmetric  # to start at the first result
            for found in self._results(subproblems, pending):
                if waiting is not None:
                    waiting.start()  # the workers run: a pool has made its processes
                    waiting = None
                done[found.subproblem] = Row(
                    found.value, found.version, found.implementation, found.verified
                )
                if book is not None:
                    book.record(
                        found.subproblem,
                        found.value,
                        found.implementation,
                        found.verified,
                        found.version,
                    )
                    if not found.verified:
                        unverified.append(found.subproblem)
                if bar is not None:
                    bar.update(1)
            total = sum(row.value for row in done.values())
            if symmetric is not None:  # (n >= 2: for n <= 1 there is nothing to check)
                source = (
                    f"in {book.path}" if book is not None else f"of workers {_name(self.workers)}"
                )
                _check_total(self.n, total, source, symmetric)
        except BrokenWorkers:
            raise  # every result kept was checked: the workers stopped, nothing was wrong
        except Exception:
            # a refused result, or anything else that ends the call before its total is
            # checked: the rows of this call that no check has confirmed go
            if book is not None:
                book.forget(unverified)
            raise
        finally:
            if bar is not None:
                bar.close()
            if symmetric is not None:
                symmetric.close()
        return total

    def _results(
        self, subproblems: Sequence[AnySubproblem], pending: list[int]
    ) -> Iterator[Finished]:
        workers = self.workers
        if isinstance(workers, int):
            todo = [subproblems[i] for i in pending]
            here = _select.IMPLEMENTATION
            count_each: Callable[[Sequence[Any], bytearray], list[int]] = self.count_run
            for k, value in run_subproblems(count_each, todo, workers, starts=runs(todo)):
                yield Finished(pending[k], value, here, False, _version.__version__)
            return
        local: Callable[[Unit], list[int]] | None = self.local
        ready: Callable[[], bool] | None = None
        lend = contextlib.ExitStack()
        forked: Callable[[], Any] | None = None
        quadrant = bool(subproblems) and isinstance(subproblems[0], _assembly.QuadrantTask)
        symmetric = self.symmetric
        forking = quadrant and lend.enter_context(claimed_fork(workers))
        recount = self.recount
        if recount is None:
            # a pool that forks now counts with this process's core and table, and its
            # counts come back through memory shared with it (Forked), as threads'
            # do: nothing to count twice, unless asked
            recount = 0.0 if forking else RECOUNT_DEFAULT
        if forking:
            if symmetric is not None:  # beside the table's build, after the split
                symmetric.start()

            def forked() -> Any:
                # the table, once the units are planned: built before the pool forks
                # its processes, which then count with it (each built its own before,
                # beside this one's, on the same cores); lent, so that they keep it for
                # a later count of the same n.  Nothing of ours may run at the fork.
                built = self._here()
                if symmetric is not None:
                    symmetric.settle()
                if not built:
                    return None
                lend.enter_context(_assembly.lent(self.quarter))
                return self.quarter

            ready = lambda: self.quarter is not None  # noqa: E731
        else:
            if quadrant:
                ready = self._here  # the table, built while the first units count (False: none)
            if symmetric is not None:
                symmetric.settle()  # nothing of ours may run at a fork at the first submit
        if recount == 0 and self.units is not None:
            local = None  # nothing to check or measure here (no table, but for a fork)
        with lend:
            yield from results(
                workers, subproblems, pending, recount, local, _rng(), self.units, ready, forked
            )

    def _check_resumed(
        self, subproblems: Sequence[AnySubproblem], done: dict[int, Row], book: Journal
    ) -> None:
        """Count again here a few rows that another release or core recorded;
        a journal that disagrees is refused."""
        here = (_version.__version__, _select.IMPLEMENTATION)
        foreign = [i for i, row in done.items() if (row.version, row.implementation) != here]
        if not foreign:
            return
        if isinstance(subproblems[0], _assembly.QuadrantTask) and not self._table(True):
            return  # cannot happen: required=True raises instead
        rng = _rng()
        for index in rng.sample(foreign, min(len(foreign), _RESUME_CHECKS)):
            value = self.count_run([subproblems[index]], bytearray(1))[0]
            row = done[index]
            if value != row.value:
                raise JournalError(
                    f"{book.path} records {row.value:,} for subproblem {index}, counted by "
                    f"nqueens {row.version} ({row.implementation}), but this process counts "
                    f"{value:,}: "
                    "the journal cannot be trusted; delete it, or name another file"
                )

    def _by_quadrants(self) -> int:
        """count(n) by quadrant assembly, on `pool` threads (an int), with this
        call's table."""
        n, workers = self.n, self.workers
        assert isinstance(workers, int)
        jobs = _assembly.jobs_of(n)
        per_thread = self.per_thread
        if n <= INLINE_MAX_N or (workers == 1 and n <= ONE_THREAD_INLINE_MAX_N):
            subproblems = _assembly.subproblems(n, 1)
            return sum(
                _assembly.count_subproblems(
                    self.quarter, jobs, subproblems, bytearray(1), per_thread
                )
            )
        # one thread takes each job whole (its tables carry over from row set to row set)
        subproblems = _assembly.subproblems(
            n, 1 if workers == 1 else workers * SUBPROBLEMS_PER_WORKER
        )

        def run(chunk: Sequence[_assembly.RowSets], stop: bytearray) -> list[int]:
            return _assembly.count_subproblems(self.quarter, jobs, chunk, stop, per_thread)

        return sum(value for _, value in run_subproblems(run, subproblems, workers, False))


def _name(workers: Any) -> str:
    return short_repr(getattr(workers, "__qualname__", None) or workers)


def _progress_bar(total: int, initial: int, expected: float | None = None) -> Any:
    from tqdm import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        # without tqdm's monitor thread, which would run beside the processes that a
        # process pool forks at the first submit (a fork beside a thread may deadlock
        # the child); the bar is redrawn at each update, as with it
        monitor_interval = 0

        @property
        def format_dict(self) -> dict[str, Any]:
            # the time left: at first the estimate's, handed over to the pace of the
            # subproblems done as they add up (their costs spread widely: a few say little)
            found = super().format_dict
            done = (found["n"] - initial) / max(1, total - initial)
            elapsed = found["elapsed"]
            by_pace = elapsed / done * (1 - done) if done > 0 else None
            if expected is None:
                left = by_pace
            else:
                by_estimate = max(0.0, expected * (1 - done) - elapsed * (done == 0))
                trust = min(1.0, done / _BAR_HANDOVER)
                left = (
                    by_estimate
                    if by_pace is None
                    else (trust * by_pace + (1 - trust) * by_estimate)
                )
            found["left"] = "?" if left is None else tqdm.format_interval(left)
            return found  # type: ignore[no-any-return]

    return Bar(
        total=total,
        initial=initial,
        unit="subproblem",
        desc="nqueens",
        file=sys.stderr,
        bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{left}, {rate_fmt}]",
    )


# the share of a count's subproblems after which the progress bar's time left is the pace
# of those done alone (before, it leans on the estimate made before the count)
_BAR_HANDOVER = 0.2


class LongCountWarning(RuntimeWarning):
    """count() was asked for a count estimated to take more than a year."""
