"""count(): the number of solutions, on threads or any map-like executor, with a journal.

The search is cut into subproblems: every safe placement of the first few
rows, with the queen of row 0 in the left half of the board (the right half
mirrors it, so those count twice; the middle column of an odd board once).
Each subproblem is a few ints and its count is a pure function of them, so
the tasks can go to threads, processes or other machines alike.

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Union

from . import _select
from ._journal import Journal
from ._parallel import run_tasks
from ._validate import as_int, check_n, check_workers

# Cut the search into at least this many tasks per thread, so that the
# threads finish together however uneven the tasks are.
_TASKS_PER_WORKER = 64
# Boards up to this side are counted in the calling thread, whatever workers
# says: they take milliseconds, less than starting a thread costs.
_INLINE_MAX_N = 12
# Results handed to a map-like executor per call: each call's results are
# journalled before the next starts, and the progress bar moves per call.
_BATCHES = 64

MapLike = Callable[[Callable[["Subproblem"], int], Sequence["Subproblem"]], Iterable[int]]
Workers = Union[int, MapLike]


class Subproblem(NamedTuple):
    """Rows 0..row-1 of an n board placed, leaving these masks; it counts `weight` times.

    cols has bit c set for each occupied column c; ld and rd mark the
    squares of row `row` that the placed queens attack along the two
    diagonal directions.  Picklable, and small: send it anywhere.
    """

    n: int
    row: int
    cols: int
    ld: int
    rd: int
    weight: int


def _children(task: Subproblem) -> Iterator[Subproblem]:
    full = (1 << task.n) - 1
    free = full & ~(task.cols | task.ld | task.rd)
    while free:
        bit = free & -free
        free ^= bit
        yield task._replace(
            row=task.row + 1,
            cols=task.cols | bit,
            ld=((task.ld | bit) << 1) & full,
            rd=(task.rd | bit) >> 1,
        )


def auto_depth(n: int, min_tasks: int = 1) -> int:
    """The rows a split pre-places by default: enough for min_tasks tasks, and for
    thousands of workers at n >= 20 (about 10**5 tasks), never near the leaves."""
    target = max(min_tasks, 10 ** min(5, max(0, n - 15)))
    depth, width = 1, max(1, n // 2)
    while width < target and depth < n - 4:
        depth += 1
        width *= max(1, n - 2 * depth)  # a rough guess of the branching
    return min(depth, max(n, 1))


def subproblems(n: int, *, depth: int | None = None) -> list[Subproblem]:
    """Cut count(n) into independent tasks: their weighted counts add up to count(n).

    Each task is the placement of the first ``depth`` rows (chosen from n
    when None: enough tasks to keep thousands of workers busy at n >= 20),
    given as masks, with the queen of row 0 in the left half of the board
    and a weight of 2 for the mirror image (1 for the middle column).
    Count one with count_subproblem(), anywhere: both are picklable.

    >>> tasks = subproblems(8, depth=2)
    >>> len(tasks), sum(count_subproblem(t) for t in tasks)
    (24, 92)
    """
    n = check_n(n)
    depth = auto_depth(n) if depth is None else as_int(depth, "depth")
    if not 1 <= depth <= max(n, 1):
        raise ValueError(f"depth must be between 1 and n ({max(n, 1)}), got {depth}")
    if n == 0:
        return [Subproblem(0, 0, 0, 0, 0, 1)]
    full = (1 << n) - 1
    tasks = []
    for c in range((n + 1) // 2):
        bit = 1 << c
        weight = 1 if 2 * c + 1 == n else 2
        tasks.append(Subproblem(n, 1, bit, (bit << 1) & full, bit >> 1, weight))
    for _ in range(depth - 1):
        tasks = [child for task in tasks for child in _children(task)]
    return tasks


def count_subproblem(task: Subproblem) -> int:
    """The weighted number of solutions that complete one subproblem.

    >>> count_subproblem(subproblems(6, depth=1)[1])  # row 0 in column 1, and its mirror
    2
    """
    return _count(task, bytearray(1))


def _count(task: Subproblem, stop: bytearray) -> int:
    n, row, cols, ld, rd, weight = task
    return weight * int(_select.core.count_completions(n, row, cols, ld, rd, stop))


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
) -> int:
    """Return the number of ways to place n non-attacking queens on an n x n board.

    ``unique=True`` counts the solutions up to rotation and reflection
    instead (each symmetry class once).  ``workers`` is the number of
    threads that search disjoint parts of the board at once (-1: one per
    core), or any map-like callable, ``workers(func, tasks) -> results`` as
    in SciPy, which spreads the subproblems over processes or machines:
    ``multiprocessing.Pool().map``, ``concurrent.futures`` executors' map,
    ``dask.distributed.Client.get_executor().map``,
    ``mpi4py.futures.MPIPoolExecutor().map``.  The answer never depends on it.

    ``journal`` names a SQLite file that records each finished subproblem as
    it finishes; the same call after any interruption (Ctrl-C, a kill)
    recomputes only the unfinished ones.  ``progress=True`` shows a progress
    bar of subproblems on stderr.  ``depth`` sets the rows each subproblem
    pre-places (see subproblems()).  The search runs in the compiled core
    without the GIL, and Ctrl-C interrupts it within a fraction of a second.

    Raises TypeError for arguments of the wrong type, ValueError if n is
    outside 0..MAX_N or workers is neither positive, -1 nor callable, and
    nqueens.JournalError (a ValueError) for a journal of another count or a
    file that is not a journal.

    >>> count(8)
    92
    >>> count(8, unique=True)
    12
    >>> count(13, workers=2)
    73712
    """
    n = check_n(n)
    pool: Workers = check_workers(workers)
    for name, flag in (("unique", unique), ("progress", progress)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, not {type(flag).__name__}")
    if depth is not None:
        depth = as_int(depth, "depth")
    total = _total(n, pool, journal, progress, depth, unique)
    return _burnside(n, total) if unique else total


def _total(
    n: int, pool: Workers, journal: Any, progress: bool, depth: int | None, unique: bool
) -> int:
    core = _select.core
    split_wanted = journal is not None or progress or depth is not None or callable(pool)
    if not split_wanted:
        if n <= _INLINE_MAX_N:
            # over in milliseconds: threads would cost more than they save
            return int(core.count_solutions(n, bytearray(1)))
        if pool == 1:
            results = run_tasks(lambda _, stop: int(core.count_solutions(n, stop)), [None], 1)
            return sum(value for _, value in results)
    threads = pool if isinstance(pool, int) else 1
    if depth is None:
        depth = auto_depth(n, threads * _TASKS_PER_WORKER if isinstance(pool, int) else 1)
    tasks = subproblems(n, depth=depth)
    book = Journal(journal, n, depth, tasks, unique) if journal is not None else None
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
        if bar is not None:
            bar.close()
    finally:
        if book is not None:
            book.close()
    return sum(done.values())


def _results(
    pool: Workers, tasks: Sequence[Subproblem], pending: list[int]
) -> Iterator[tuple[int, int]]:
    """(task index, weighted count) for each pending task, as they finish."""
    if isinstance(pool, int):
        for k, value in run_tasks(_count, [tasks[i] for i in pending], pool):
            yield pending[k], value
        return
    size = max(1, -(-len(pending) // _BATCHES))
    for start in range(0, len(pending), size):
        batch = pending[start : start + size]
        for index, value in zip(batch, pool(count_subproblem, [tasks[i] for i in batch])):
            yield index, int(value)


def _progress_bar(total: int, initial: int) -> Any:
    from tqdm import tqdm

    return tqdm(
        total=total, initial=initial, unit="task", desc="nqueens", file=sys.stderr, smoothing=0.05
    )
