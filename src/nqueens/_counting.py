"""count(): the number of solutions, on threads or any map-like executor, with a journal.

The search is cut into subproblems by its border: every solution has one
queen in each of the top and bottom rows and the left and right columns.
The core lists the borders that are the smallest of their 8 images under
rotation and reflection (the canonical constellations) with the size of
their orbit; each stands for that many, so about an eighth of the search
is done.  A subproblem is a set of placed queens (a border, and for finer
tasks the next rows below the top) and a weight; its count is a pure
function of a few ints, so it can go to threads, processes or other
machines alike.

The number of symmetry classes (unique=True) follows from the total by
Burnside's lemma: of the 8 symmetries of the square only the identity, the
half turn and the two quarter turns can leave a solution of n >= 2 in place,
so unique = (total + P + 2R) / 8, where P counts the solutions that the half
turn leaves in place and R those that a quarter turn does.  P and R come
from a small search over the rows in mirrored pairs.
"""

from __future__ import annotations

import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Union

from . import _assembly, _select
from ._assembly import QuadrantTask
from ._completion import check_placed
from ._journal import Journal, JournalError
from ._parallel import run_tasks
from ._validate import as_int, check_bool, check_n, check_workers

# Cut the search into at least this many tasks per thread, so that the
# threads finish together however uneven the tasks are.
_TASKS_PER_WORKER = 64
# Boards up to this side are counted in the calling thread, whatever workers
# says: they take milliseconds, less than starting a thread costs (n = 14 took
# 40 ms on two threads against 22 ms on one, measured paired by nqueens bench)
_INLINE_MAX_N = 14
# From this side on a plain count goes by quadrant assembly (_assembly.py),
# the faster method there, but for the sides in _ROWS_FASTER (measured in one
# run, best of 50, of 5 from n = 13: n = 12 0.81 ms against 1.05 ms row by row, n = 13 5.8 ms
# against 4.7 ms, n = 14 9.6 ms against 20 ms, n = 16 0.18 s against 0.55 s)
QUADRANTS_MIN_N = 12
_ROWS_FASTER = frozenset({13})
# A journal records a split by quadrant assembly as this depth
_QUADRANT_DEPTH = -1
# Results handed to a map-like executor per call: each call's results are
# journalled before the next starts, and the progress bar moves per call.
_BATCHES = 64
MAX_TASKS = 10**6
"""The most subproblems a split may make: about 300 bytes each in memory."""

Placed = Union[Mapping[int, int], Iterable[tuple[int, int]]]
AnyTask = Union["Subproblem", QuadrantTask]
MapLike = Callable[[Callable[[Any], Any], Sequence[Any]], Iterable[Any]]
Workers = Union[int, MapLike]


class ExecutorError(RuntimeError):
    """A map-like ``workers`` gave back results that do not match the work it was given."""


class _Fields(NamedTuple):
    n: int
    weight: int
    rows: tuple[int, ...]
    cols: tuple[int, ...]


class Subproblem(_Fields):
    """Queens placed at (rows[i], cols[i]) on an n board; the task counts `weight` times.

    Picklable, and small: send it anywhere, count it with count_subproblem().
    The fields are checked whenever one is made, unpickled included: n an int
    from 0 to MAX_N, weight a positive int, rows and cols ints on the board,
    as many of each, and no row twice.

    >>> Subproblem(8, 1, rows=[0, 7], cols=[3, 4])
    Subproblem(n=8, weight=1, rows=(0, 7), cols=(3, 4))
    >>> Subproblem(8, 1, rows=(0, 8), cols=(3, 4))
    Traceback (most recent call last):
    ...
    ValueError: rows must lie on the board (0 to 7), got 8
    """

    __slots__ = ()

    def __new__(cls, n: Any, weight: Any, rows: Any, cols: Any) -> Subproblem:
        return super().__new__(cls, *_checked_fields(n, weight, rows, cols))


def _ints(values: Any, name: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a sequence of ints, not {type(values).__name__}")
    return tuple(as_int(value, f"{name}[{i}]") for i, value in enumerate(values))


def _checked_fields(
    n: Any, weight: Any, rows: Any, cols: Any
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    n = check_n(n)
    weight = as_int(weight, "weight")
    if weight < 1:
        raise ValueError(f"weight must be a positive int, got {weight}")
    rows, cols = _ints(rows, "rows"), _ints(cols, "cols")
    if len(rows) != len(cols):
        raise ValueError(f"rows and cols must be as long (one of each per queen): {rows}, {cols}")
    for name, values in (("rows", rows), ("cols", cols)):
        for value in values:
            if not 0 <= value < n:
                raise ValueError(f"{name} must lie on the board (0 to {n - 1}), got {value}")
    if len(set(rows)) != len(rows):
        twice = next(r for r in rows if rows.count(r) > 1)
        raise ValueError(f"rows must differ: row {twice} holds two queens")
    return n, weight, rows, cols


def _free_columns(task: _Fields, row: int) -> Iterator[int]:
    # the squares of a row that no placed queen attacks
    n = task.n
    free = (1 << n) - 1
    for r, c in zip(task.rows, task.cols):
        d = row - r
        for attacked in (c, c + d, c - d):
            if 0 <= attacked < n:
                free &= ~(1 << attacked)
    while free:
        bit = free & -free
        free ^= bit
        yield bit.bit_length() - 1


def _children(task: Subproblem) -> list[Subproblem]:
    # the task split by the queen of its first empty row
    row = next(r for r in range(task.n) if r not in task.rows)
    return [
        task._replace(rows=(*task.rows, row), cols=(*task.cols, c))
        for c in _free_columns(task, row)
    ]


def _constellation_tasks(n: int) -> list[Subproblem]:
    if n <= 1:
        return [Subproblem(n, 1, (), ())]
    tasks = []
    for weight, top, bottom, left, right in _select.core.constellations(n):
        rows, cols = [0, n - 1], [top, bottom]
        if 0 < left < n - 1:
            rows.append(left)
            cols.append(0)
        if 0 < right < n - 1:
            rows.append(right)
            cols.append(n - 1)
        tasks.append(Subproblem(n, weight, tuple(rows), tuple(cols)))
    return tasks


def _deepen(tasks: list[Subproblem]) -> list[Subproblem]:
    deeper = []
    for task in tasks:
        if len(task.rows) < task.n:
            deeper.extend(_children(task))
        else:  # every row placed already: the task is a whole solution
            deeper.append(task)
    return deeper


def _roots(n: int, root: Subproblem | None) -> list[Subproblem]:
    # what a split starts from: the canonical borders, or the placed queens
    return _constellation_tasks(n) if root is None else [root]


def _split(
    n: int, depth: int | None, min_tasks: int, root: Subproblem | None = None
) -> tuple[int, list[Subproblem]]:
    """(depth, tasks): the canonical borders with `depth` more rows placed below the top;
    when depth is None, the fewest rows that make min_tasks tasks, and about 10**5 for
    n >= 20 (a hundred each for a thousand workers), never near the leaves.  Tasks
    that differ only in the queen of the last row come together (see _sharing_order)."""
    tasks = _roots(n, root)
    if depth is None:
        target = max(min_tasks, 10 ** min(5, max(0, n - 15)))
        depth = 0
        while len(tasks) < target and len(tasks) > 0 and len(tasks[0].rows) < n - 8:
            tasks = _deepen(tasks)
            depth += 1
    else:
        for _ in range(depth):
            tasks = _deepen(tasks)
    tasks.sort(key=_sharing_order)
    return depth, tasks


def _runs(tasks: Sequence[AnyTask]) -> list[int]:
    # where each run of tasks that can share the core's table begins: a
    # thread takes a run at a time (a quadrant task is a run of row sets)
    if tasks and isinstance(tasks[0], QuadrantTask):
        return list(range(len(tasks)))
    keys = [_sharing_order(task)[0] for task in tasks if isinstance(task, Subproblem)]
    return [i for i in range(len(tasks)) if i == 0 or keys[i] != keys[i - 1]]


def _sharing_order(task: Subproblem) -> tuple[list[tuple[int, int]], list[int]]:
    # The core counts a task's last rows from a table that depends on every
    # placed queen but the one of the last row, and keeps it for the next
    # task (per thread): tasks in this order share their tables.
    last = task.n - 1
    queens = sorted(zip(task.rows, task.cols))
    return [q for q in queens if q[0] != last], [c for r, c in queens if r == last]


def check_depth(n: int, depth: object, root: Subproblem | None = None) -> int | None:
    """depth as an int, or None; refused if the split (of the whole board, or of
    root) would pass MAX_TASKS tasks (counted, not built)."""
    if depth is None:
        return None
    value = as_int(depth, "depth")
    if not 0 <= value <= n:
        raise ValueError(f"depth must be between 0 and n ({n}), got {value}")
    tasks = _count_tasks(n, value, MAX_TASKS, root)
    if tasks > MAX_TASKS:
        raise ValueError(
            f"depth {value} would cut the n = {n} board into more than {MAX_TASKS:,} tasks: "
            "choose a smaller depth (or leave it to the default)"
        )
    return value


def _count_tasks(n: int, depth: int, cap: int, root: Subproblem | None = None) -> int:
    """The number of tasks of the split at depth, or cap + 1 once it passes cap:
    a walk over the queens of the next rows on bitmasks, building no task."""
    total = 0
    full = (1 << n) - 1
    for task in _roots(n, root):
        cols = d1 = d2 = placed = 0
        for r, c in zip(task.rows, task.cols):
            cols |= 1 << c
            d1 |= 1 << (c - r + n - 1)  # the columns it attacks in row r' are d1 >> (n-1-r')
            d2 |= 1 << (r + c)  # and d2 >> r'
            placed |= 1 << r
        stack = [(0, depth, cols, d1, d2, placed)]
        while stack:
            row, left, cols, d1, d2, placed = stack.pop()
            while row < n and placed >> row & 1:
                row += 1
            if left == 0 or row >= n:
                total += 1
                if total > cap:
                    return total
                continue
            free = full & ~(cols | d1 >> (n - 1 - row) | d2 >> row)
            while free:
                bit = free & -free
                free ^= bit
                c = bit.bit_length() - 1
                stack.append(
                    (
                        row + 1,
                        left - 1,
                        cols | bit,
                        d1 | 1 << (c - row + n - 1),
                        d2 | 1 << (row + c),
                        placed | 1 << row,
                    )
                )
    return total


def subproblems(n: int, *, depth: int | None = None) -> list[AnyTask]:
    """Cut count(n) into independent tasks: their weighted counts add up to count(n).

    Where count(n) goes by quadrant assembly (the compiled core, n = 12 and
    14 to 23) and depth is None, the tasks are QuadrantTasks: ranges of the
    row sets of one cross, about 4,096 of them up to n = 18, 10**4 at 19 and
    10**5 from 20 on.  Otherwise each task places the border queens (those of
    the top and bottom rows and of the left and right columns) in one of
    their canonical forms under the 8 symmetries, weighted by how many forms
    it stands for, and then the queens of ``depth`` more rows below the top,
    for finer tasks; with depth None, the depth is chosen from n.  Count one
    with count_subproblem(), anywhere: both kinds are picklable.

    >>> tasks = subproblems(8, depth=0)
    >>> len(tasks), sum(count_subproblem(t) for t in tasks)
    (78, 92)
    """
    n = check_n(n)
    depth = check_depth(n, depth)
    if depth is None and _quadrants_apply(n):
        return list(_assembly.split(n, _quadrant_pieces(n)))
    return list(_split(n, depth, 1)[1])


def _quadrant_pieces(n: int) -> int:
    # how many tasks a split by quadrants makes: a function of n alone, so that a
    # journal resumes it with any workers
    return int(max(4096, 10 ** min(5, n - 15)))


def count_subproblem(task: AnyTask) -> int:
    """The weighted number of solutions that complete one subproblem.

    ``task`` is a Subproblem, or a plain tuple (n, weight, rows, cols), checked
    like one, or a QuadrantTask.  Placed queens that attack each other have no
    completion: 0.

    >>> count_subproblem(Subproblem(6, 1, rows=(0,), cols=(1,)))  # row 0's queen in column 1
    1
    >>> count_subproblem((8, 2, (0,), (0,)))  # twice the 4 solutions with a queen at (0, 0)
    8
    """
    return _count_run([_as_task(task)], bytearray(1))[0]


def _as_task(task: Any) -> AnyTask:
    if isinstance(task, QuadrantTask):
        return QuadrantTask(*task)  # checked again, as a Subproblem is
    return _as_subproblem(task)


def _as_subproblem(task: Any) -> Subproblem:
    # a Subproblem made by _replace() or tuple.__new__ skipped the checks: check again
    if not isinstance(task, tuple) or len(task) != 4:
        raise TypeError(
            f"task must be a Subproblem or a tuple (n, weight, rows, cols), "
            f"not {type(task).__name__}"
            + (f" of length {len(task)}" if isinstance(task, tuple) else "")
        )
    return Subproblem(*task)


def _count_run(tasks: Sequence[AnyTask], stop: bytearray) -> list[int]:
    """The weighted counts of neighbouring tasks, in one call to the core."""
    if tasks and isinstance(tasks[0], QuadrantTask):
        return _assembly.count_run(tasks, stop)  # type: ignore[arg-type]
    core = _select.core
    # each thread keeps the core's last table for its next tasks
    kept = getattr(_kept, "tables", None)
    if kept is None or kept[0] is not core:
        kept = _kept.tables = (core, core.Tables())
    found = core.count_each(tasks, stop, kept[1])
    return [task.weight * int(count) for task, count in zip(tasks, found)]


_kept = threading.local()


def _burnside(n: int, total: int) -> int:
    if n <= 1:
        return 1
    half_turn, quarter_turn = _select.core.count_symmetric(n)
    classes, rest = divmod(total + int(half_turn) + 2 * int(quarter_turn), 8)
    if rest:  # cannot happen for a right total: refuse to answer rather than round
        raise ArithmeticError(f"inconsistent counts for n = {n}: Burnside's sum is not whole")
    return classes


def count(
    n: int,
    *,
    unique: bool = False,
    workers: Workers = 1,
    journal: str | os.PathLike[str] | None = None,
    progress: bool = False,
    depth: int | None = None,
    placed: Placed | None = None,
) -> int:
    """Return the number of ways to place n non-attacking queens on an n x n board.

    ``unique=True`` counts the solutions up to rotation and reflection
    instead (each symmetry class once).  ``placed`` counts instead the
    solutions that keep queens already on the board (the completion
    problem): a mapping row -> column or an iterable of (row, column) pairs,
    0-based; queens off the board, two in a row or attacking each other are
    refused with a ValueError naming them, and unique=True cannot go with
    it.  Completions split into tasks and go to threads, executors and the
    journal like a plain count.  ``workers`` is the number of
    threads that search disjoint parts of the board at once (-1: one per
    core), or any map-like callable, ``workers(func, tasks) -> results`` as
    in SciPy, which spreads the subproblems over processes or machines:
    ``multiprocessing.Pool().map``, ``concurrent.futures`` executors' map,
    ``dask.distributed.Client.get_executor().map``,
    ``mpi4py.futures.MPIPoolExecutor().map``.  The answer never depends on it.

    A map-like is called as ``workers(func, units)``: each unit is a run of
    subproblems that can share the core's tables, and each result carries
    the indices of its tasks, so results may come back in any order; a
    result that is missing, repeated, foreign or not a possible count raises
    nqueens.ExecutorError (a RuntimeError) and is never journalled.

    ``journal`` names a SQLite file that records each finished subproblem as
    it finishes; the same call after any interruption (Ctrl-C, a kill)
    recomputes only the unfinished ones, with the split the journal
    recorded, whatever ``workers`` is now.  The journal is checked before
    any work: a new file in a folder that exists, or a journal of this n; it
    is held by one count at a time (another is refused as in use).
    ``progress=True`` shows a progress bar of subproblems on stderr.
    ``depth`` sets how many rows each subproblem places below its border
    queens (see subproblems()).  The
    search runs in the compiled core without the GIL, and Ctrl-C interrupts
    it within a fraction of a second.

    Raises TypeError for arguments of the wrong type, ValueError if n is
    outside 0..MAX_N or workers is neither positive, -1 nor callable, and
    nqueens.JournalError (a ValueError) for a journal of another count, a
    file that is not a journal or cannot be written, or one in use.

    >>> count(8)
    92
    >>> count(8, unique=True)
    12
    >>> count(13, workers=2)
    73712
    >>> count(8, placed={0: 0})  # the solutions with a queen in the top left corner
    4
    >>> count(8, placed=[(0, 0), (1, 1)])
    Traceback (most recent call last):
    ...
    ValueError: placed queens at (0, 0) and (1, 1) attack each other: same diagonal
    """
    n = check_n(n)
    pool: Workers = check_workers(workers)
    unique = check_bool(unique, "unique")
    progress = check_bool(progress, "progress")
    root = None
    if placed is not None:
        if unique:
            raise ValueError(
                "unique=True cannot go with placed queens: the symmetries of the board do not "
                "keep them in place"
            )
        root = Subproblem(n, 1, *check_placed(n, placed))
    depth = check_depth(n, depth, root)
    if journal is None:
        total = _total(n, pool, None, progress, depth, unique, root)
    else:
        # opened (checked, locked, made writable) before any work
        book = Journal(journal, n)
        try:
            total = _total(n, pool, book, progress, depth, unique, root)
        finally:
            book.close()
    return _burnside(n, total) if unique else total


def _total(
    n: int,
    pool: Workers,
    book: Journal | None,
    progress: bool,
    depth: int | None,
    unique: bool,
    root: Subproblem | None,
) -> int:
    core = _select.core
    split_wanted = book is not None or progress or depth is not None or callable(pool)
    # placed queens are one subproblem, split like the board even for one
    # thread: the core's tables of the finer tasks make them faster (with
    # {0: 3} on n = 16, 0.46 s whole, 0.38 s in about 64 tasks)
    if not split_wanted and root is None:
        if _quadrants_apply(n):
            try:
                return _by_quadrants(n, pool)
            except MemoryError:  # the table, or a row set's lists: go row by row
                warnings.warn(
                    f"nqueens: not enough memory for the quadrant method at n = {n}; "
                    "counting row by row instead (slower)",
                    RuntimeWarning,
                    stacklevel=3,
                )
        if n <= _INLINE_MAX_N:
            # over in milliseconds: threads would cost more than they save
            return int(core.count_solutions(n, bytearray(1)))
        if pool == 1:
            results = run_tasks(lambda _, stop: [int(core.count_solutions(n, stop))], [None], 1)
            return sum(value for _, value in results)
    min_tasks = pool * _TASKS_PER_WORKER if isinstance(pool, int) else 1
    by_quadrants = root is None and depth is None and _quadrants_apply(n)
    if book is not None and book.depth is not None:
        # a resumed count keeps the split it started with, whatever its workers
        if depth is not None and depth != book.depth:
            raise JournalError(
                f"{book.path} journals another count (depth {book.depth}, not {depth}): "
                "use another file, or the same n and depth"
            )
        depth = book.depth
        by_quadrants = depth == _QUADRANT_DEPTH
    tasks: Sequence[AnyTask]
    if by_quadrants:
        depth, tasks = _QUADRANT_DEPTH, _assembly.split(n, _quadrant_pieces(n))
    else:
        depth, tasks = _split(n, depth, min_tasks, root)
    if isinstance(pool, int) and book is None and not progress:
        # nothing to record per task: each thread sums its own
        starts = _runs(tasks)
        count_run: Callable[[Sequence[Any], bytearray], list[int]] = _count_run
        results = run_tasks(count_run, tasks, pool, False, starts)
        return sum(value for _, value in results)
    if book is not None:
        book.bind(depth, tasks, unique)
    bar = None
    try:
        done = book.finished() if book is not None else {}
        pending = [i for i in range(len(tasks)) if i not in done]
        bar = _progress_bar(len(tasks), len(done)) if progress else None
        for index, value in _results(pool, tasks, pending):
            done[index] = value
            if book is not None:
                book.record(index, value)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return sum(done.values())


def _quadrants_apply(n: int) -> bool:
    """Whether count(n) goes by quadrant assembly: the compiled core only (its
    twin is slower than the row-by-row twin), for the sides it is faster on."""
    quadrants = _select.quadrants
    return (
        bool(quadrants.FAST) and QUADRANTS_MIN_N <= n <= quadrants.MAX_N and n not in _ROWS_FASTER
    )


def _by_quadrants(n: int, pool: Workers) -> int:
    """count(n) by quadrant assembly, on `pool` threads (an int)."""
    assert isinstance(pool, int)
    quarter = _select.quadrants.Quarter(n)  # every call builds its own table
    jobs = _assembly.jobs(n)
    kept = threading.local()  # each thread's working memory, for this call only
    if n <= _INLINE_MAX_N:
        return sum(_assembly.count_tasks(quarter, jobs, _assembly.tasks(n, 1), bytearray(1), kept))
    # one thread takes each job whole (its tables carry over from row set to row set)
    tasks = _assembly.tasks(n, 1 if pool == 1 else pool * _TASKS_PER_WORKER)

    def run(chunk: Sequence[_assembly.Task], stop: bytearray) -> list[int]:
        return _assembly.count_tasks(quarter, jobs, chunk, stop, kept)

    return sum(value for _, value in run_tasks(run, tasks, pool, False))


def _results(
    pool: Workers, tasks: Sequence[AnyTask], pending: list[int]
) -> Iterator[tuple[int, int]]:
    """(task index, weighted count) for each pending task, as they finish."""
    if isinstance(pool, int):
        todo = [tasks[i] for i in pending]
        for k, value in run_tasks(_count_run, todo, pool, starts=_runs(todo)):
            yield pending[k], value
        return

    def send(call: list[tuple[int, ...]]) -> tuple[dict[int, AnyTask], Any]:
        units = [_Unit(indices, tuple(tasks[i] for i in indices)) for indices in call]
        return {i: tasks[i] for indices in call for i in indices}, pool(_count_unit, units)

    # one call ahead: an executor's map submits its units when called, so the
    # workers start on the next call's units while this one's last finish,
    # instead of idling at each call's end
    current = None
    for call in _calls(tasks, pending):
        upcoming = send(call)
        if current is not None:
            yield from _verified(pool, *current)
        current = upcoming
    if current is not None:
        yield from _verified(pool, *current)


class _Unit(NamedTuple):
    """What a map-like workers hands to one call of its function: tasks that
    can share the core's table, with their indices, so that every result
    comes back with the identity of its task."""

    indices: tuple[int, ...]
    tasks: tuple[AnyTask, ...]


def _count_unit(unit: _Unit) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(indices, weighted counts) of a unit: the function that map-like workers run."""
    indices, tasks = unit
    checked = [_as_task(task) for task in tasks]
    return tuple(indices), tuple(_count_run(checked, bytearray(1)))


def _calls(tasks: Sequence[AnyTask], pending: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """The pending tasks in _BATCHES calls of units: runs of tasks that share a table
    (many small units, so that a call keeps a large cluster busy)."""
    todo = [tasks[i] for i in pending]
    starts = _runs(todo)
    units = [tuple(pending[a:b]) for a, b in zip(starts, [*starts[1:], len(todo)])]
    size = max(1, -(-len(pending) // _BATCHES))
    call: list[tuple[int, ...]] = []
    held = 0
    for unit in units:
        call.append(unit)
        held += len(unit)
        if held >= size:
            yield call
            call, held = [], 0
    if call:
        yield call


def _verified(pool: Any, sent: dict[int, AnyTask], results: Any) -> Iterator[tuple[int, int]]:
    """(index, count) of each result of one call of a map-like, refusing any
    result that is not one of the tasks sent, a second one for the same task,
    a count that cannot be right, and any task left without a result.  Order
    does not matter."""
    name = _describe(pool)
    try:
        results = iter(results)
    except TypeError:
        raise ExecutorError(
            f"workers {name} returned {type(results).__name__}, not an iterable of results"
        ) from None
    seen: set[int] = set()
    for result in results:
        if not (isinstance(result, tuple) and len(result) == 2):
            raise ExecutorError(
                f"workers {name} returned {_short(result)}, which is not a result of the function "
                "it was given: call it on every item, as map(func, items) does"
            )
        indices, counts = result
        if not isinstance(indices, tuple) or not isinstance(counts, tuple):
            raise ExecutorError(f"workers {name} returned a malformed result: {_short(result)}")
        if len(indices) != len(counts):
            raise ExecutorError(f"workers {name} returned a malformed result: {_short(result)}")
        for index, value in zip(indices, counts):
            if type(index) is not int or index not in sent:
                raise ExecutorError(f"workers {name} returned a result for a task it was not given")
            if index in seen:
                raise ExecutorError(f"workers {name} returned the result of task {index} twice")
            if type(value) is not int or value < 0 or value % sent[index].weight:
                raise ExecutorError(
                    f"workers {name} returned {value!r} for task {index}, which cannot be its count"
                )
            seen.add(index)
            yield index, value
    if len(seen) != len(sent):
        raise ExecutorError(
            f"workers {name} returned the results of {len(seen)} of the {len(sent)} tasks "
            "it was given: it dropped some"
        )


def _describe(pool: Any) -> str:
    return _short(getattr(pool, "__qualname__", None) or pool)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _progress_bar(total: int, initial: int) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total, initial=initial, unit="task", desc="nqueens", file=sys.stderr, smoothing=0.05
    )
