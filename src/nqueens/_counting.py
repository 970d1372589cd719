"""count(): the number of solutions, split into tasks for several threads."""

from __future__ import annotations

from typing import Callable, NamedTuple

from . import _select
from ._parallel import run_tasks
from ._validate import check_n, check_workers

# The twin and the extension walk this many squares between looks at the
# stop flag while counting with an enumerator.
_NODES_PER_STEP = 1 << 20
# Cut the search into at least this many tasks per thread, so that the
# threads finish together however uneven the tasks are.
_TASKS_PER_WORKER = 64
# Boards up to this side are counted in the calling thread, whatever workers
# says: they take milliseconds, less than starting a thread costs.
_INLINE_MAX_N = 12


class _Task(NamedTuple):
    """Rows 0..row-1 placed, leaving these masks, counted `weight` times."""

    row: int
    cols: int
    ld: int
    rd: int
    weight: int
    prefix: tuple[int, ...]


def _first_row(n: int, unique: bool) -> list[_Task]:
    # A queen in the left half of row 0 stands for its mirror image too.
    # Canonical placements (for unique) never start right of the middle.
    full = (1 << n) - 1
    tasks = []
    for c in range((n + 1) // 2):
        bit = 1 << c
        weight = 1 if unique or 2 * c + 1 == n else 2
        tasks.append(_Task(1, bit, (bit << 1) & full, bit >> 1, weight, (c,)))
    return tasks


def _extend(n: int, task: _Task) -> list[_Task]:
    full = (1 << n) - 1
    free = full & ~(task.cols | task.ld | task.rd)
    children = []
    while free:
        bit = free & -free
        free ^= bit
        children.append(
            _Task(
                task.row + 1,
                task.cols | bit,
                ((task.ld | bit) << 1) & full,
                (task.rd | bit) >> 1,
                task.weight,
                (*task.prefix, bit.bit_length() - 1),
            )
        )
    return children


def _split(n: int, unique: bool, min_tasks: int) -> list[_Task]:
    """Partial placements, in lexicographic order, that cover the search once."""
    tasks = _first_row(n, unique)
    # stop deepening well before the leaves: deeper tasks are all overhead
    while 0 < len(tasks) < min_tasks and tasks[0].row < n - 4:
        tasks = [child for task in tasks for child in _extend(n, task)]
    return tasks


def _count_task(n: int, unique: bool) -> Callable[[_Task, bytearray], int]:
    core = _select.core

    def completions(task: _Task, stop: bytearray) -> int:
        if unique:
            walk = core.Enumerator(n, task.prefix, True)
            found = 0
            while not walk.done and not stop[0]:
                found += walk.count(_NODES_PER_STEP)
            return found
        completed: int = core.count_completions(n, task.row, task.cols, task.ld, task.rd, stop)
        return task.weight * completed

    return completions


def count(n: int, *, unique: bool = False, workers: int = 1) -> int:
    """Return the number of ways to place n non-attacking queens on an n x n board.

    ``unique=True`` counts the solutions up to rotation and reflection
    instead (each symmetry class once).  ``workers`` is the number of threads
    that search disjoint parts of the board at once, or -1 for one per core;
    the answer never depends on it.  The search runs in the compiled core
    without the GIL, and Ctrl-C interrupts it within a fraction of a second.

    Raises TypeError if n or workers is not an int, ValueError if n is
    outside 0..MAX_N or workers is neither positive nor -1.

    >>> count(8)
    92
    >>> count(8, unique=True)
    12
    >>> count(10, workers=2)
    724
    """
    n = check_n(n)
    threads = check_workers(workers)
    if not isinstance(unique, bool):
        raise TypeError(f"unique must be a bool, not {type(unique).__name__}")
    if n == 0:
        return 1  # the empty board: one (empty) placement, one class
    core = _select.core
    if n <= _INLINE_MAX_N and not unique:
        # over in milliseconds: threads would cost more than they save
        return int(core.count_solutions(n, bytearray(1)))
    if threads == 1 and not unique:
        return run_tasks(lambda _, stop: int(core.count_solutions(n, stop)), [None], 1)[0]
    min_tasks = 1 if threads == 1 else threads * _TASKS_PER_WORKER
    tasks = _split(n, unique, min_tasks)
    return sum(run_tasks(_count_task(n, unique), tasks, threads))
