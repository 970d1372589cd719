"""The subproblems a count is cut into: both kinds, the splits, and counting them.

The search is cut into subproblems by its border: every solution has one
queen in each of the top and bottom rows and the left and right columns.
The core lists the borders that are the smallest of their 8 images under
rotation and reflection (the canonical constellations) with the size of
their orbit; each stands for that many, so about an eighth of the search
is done.  A subproblem is a set of placed queens (a border, and for finer
subproblems the next rows below the top) and a weight; its count is a pure
function of a few ints, so it can go to threads, processes or other
machines alike.  Where count() goes by quadrant assembly, a subproblem is a
QuadrantTask instead (``assembly.py``): a range of the row sets of a cross.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Union, cast

from .. import _select
from .._validate import as_int, check_n
from . import assembly as _assembly
from .assembly import QuadrantTask

MAX_SUBPROBLEMS = 10**6
"""The most subproblems a split may make: about 300 bytes each in memory."""
BORDERS_MAX_N = 56
"""The largest n whose canonical borders (the split at depth 0) fit in MAX_SUBPROBLEMS."""
# From this side on a plain count goes by quadrant assembly (assembly.py), the
# faster method there (n = 13 too, since its crosses are grouped)
QUADRANTS_MIN_N = 12
# A journal records a split by quadrant assembly as this depth
QUADRANT_DEPTH = -1
# the order of the square's symmetry group: a border or a cross stands for at
# most this many images, and so does a pair of half-boards (see subproblem_bound)
_SYMMETRIES = 8
# a run of quadrant subproblems: up to this many, neighbours in the split, go to a worker
# together: the core keeps a row set's south quadrants for the next (they change
# only every hundred or so row sets) and the job's north placements as it meets
# them, which pay over runs of thousands of row sets; longer runs balance the
# workers less finely
QUADRANT_RUN = 32

AnySubproblem = Union["Subproblem", QuadrantTask]


class Fields(NamedTuple):
    n: int
    weight: int
    rows: tuple[int, ...]
    cols: tuple[int, ...]


class Subproblem(Fields):
    """Queens placed at (rows[i], cols[i]) on an n board; the subproblem counts `weight` times.

    Picklable, and small: send it anywhere, count it with count_subproblem().
    The fields are checked whenever one is made, unpickled, ``_make()`` and
    ``_replace()`` included: n an int from 0 to MAX_N, weight a positive int,
    rows and cols ints on the board, as many of each, and no row twice.

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

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Subproblem:  # type: ignore[override]
        return cls(*iterable)

    def _replace(self, **changes: Any) -> Subproblem:
        return type(self)(**{**self._asdict(), **changes})

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # every pickle protocol, 0 and 1 included, makes it through __new__
        return (type(self), tuple(self))


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


def _unchecked(n: int, weight: int, rows: tuple[int, ...], cols: tuple[int, ...]) -> Subproblem:
    # a child of a checked subproblem, on a square its parent leaves free: right by construction
    return tuple.__new__(Subproblem, (n, weight, rows, cols))


def free_columns(subproblem: Fields, row: int) -> Iterator[int]:
    """The columns of a row that no placed queen of the subproblem attacks."""
    n = subproblem.n
    free = (1 << n) - 1
    for r, c in zip(subproblem.rows, subproblem.cols):
        d = row - r
        for attacked in (c, c + d, c - d):
            if 0 <= attacked < n:
                free &= ~(1 << attacked)
    while free:
        bit = free & -free
        free ^= bit
        yield bit.bit_length() - 1


def _children(subproblem: Subproblem) -> list[Subproblem]:
    # the subproblem split by the queen of its first empty row
    row = next(r for r in range(subproblem.n) if r not in subproblem.rows)
    return [
        _unchecked(subproblem.n, subproblem.weight, (*subproblem.rows, row), (*subproblem.cols, c))
        for c in free_columns(subproblem, row)
    ]


def _constellation_subproblems(n: int) -> list[Subproblem]:
    if n <= 1:
        return [Subproblem(n, 1, (), ())]
    subproblems = []
    for weight, top, bottom, left, right in _select.bitsolver.constellations(n):
        rows, cols = [0, n - 1], [top, bottom]
        if 0 < left < n - 1:
            rows.append(left)
            cols.append(0)
        if 0 < right < n - 1:
            rows.append(right)
            cols.append(n - 1)
        subproblems.append(Subproblem(n, weight, tuple(rows), tuple(cols)))
    return subproblems


def _deepen(subproblems: list[Subproblem]) -> list[Subproblem]:
    deeper = []
    for subproblem in subproblems:
        if len(subproblem.rows) < subproblem.n:
            deeper.extend(_children(subproblem))
        else:  # every row placed already: the subproblem is a whole solution
            deeper.append(subproblem)
    return deeper


def _roots(n: int, root: Subproblem | None) -> list[Subproblem]:
    # what a split starts from: the canonical borders, or the placed queens
    return _constellation_subproblems(n) if root is None else [root]


def split(
    n: int, depth: int | None, min_subproblems: int, root: Subproblem | None = None
) -> tuple[int, list[Subproblem]]:
    """(depth, subproblems): the canonical borders with `depth` more rows placed below the top;
    when depth is None, the fewest rows that make min_subproblems subproblems, and about 10**5 for
    n >= 20 (a hundred each for a thousand workers), never near the leaves nor past
    MAX_SUBPROBLEMS (a split of the borders alone past it is refused).  Subproblems that differ
    only in the queen of the last row come together (see sharing_order)."""
    if root is None:
        check_border_split(n)
    subproblems = _roots(n, root)
    if depth is None:
        target = max(min_subproblems, 10 ** min(5, max(0, n - 15)))
        depth = 0
        while (
            len(subproblems) < target and len(subproblems) > 0 and len(subproblems[0].rows) < n - 8
        ):
            # a row more makes at most n times as many: walk the split only if that passes
            if (
                len(subproblems) * n > MAX_SUBPROBLEMS
                and split_size(n, depth + 1, MAX_SUBPROBLEMS, root) > MAX_SUBPROBLEMS
            ):
                break
            subproblems = _deepen(subproblems)
            depth += 1
    else:
        for _ in range(depth):
            subproblems = _deepen(subproblems)
    subproblems.sort(key=sharing_order)
    return depth, subproblems


def wants_split(journal: object, progress: bool, depth: object, workers: object) -> bool:
    """Whether count() cuts the work into subproblems: a journal records them, a
    progress bar counts them, a depth makes them, and workers beyond this process
    (anything but a number of threads) are handed them."""
    return journal is not None or progress or depth is not None or not isinstance(workers, int)


def check_border_split(n: int) -> None:
    """Refuse, before any work, a split of a board whose canonical borders alone
    pass MAX_SUBPROBLEMS (n > BORDERS_MAX_N): no such count could finish anyway."""
    if n > BORDERS_MAX_N:
        raise ValueError(
            f"a split of the n = {n} board (for a journal, a progress bar, a depth or "
            f"map-like workers) would make over {MAX_SUBPROBLEMS:,} subproblems, its borders "
            "alone; a count of this size cannot finish anyway"
        )


def runs(subproblems: Sequence[AnySubproblem]) -> list[int]:
    """Where each run of subproblems that can share the core's table begins: a
    thread takes a run at a time (quadrant subproblems: up to QUADRANT_RUN that
    follow one another in the split, each a run of row sets).

    >>> runs(_assembly.split(16, 40))
    [0, 32]
    """
    if subproblems and isinstance(subproblems[0], QuadrantTask):
        starts = [0]
        since = 0  # the start of the run at hand
        for i, (last, subproblem) in enumerate(zip(subproblems, subproblems[1:]), 1):
            # (n, cross, first) against the last's (n, cross, end)
            if i - since >= QUADRANT_RUN or subproblem[:3] != (last[0], last[1], last[3]):
                starts.append(i)
                since = i
        return starts
    keys = [
        sharing_order(subproblem)[0]
        for subproblem in subproblems
        if isinstance(subproblem, Subproblem)
    ]
    return [i for i in range(len(subproblems)) if i == 0 or keys[i] != keys[i - 1]]


def sharing_order(subproblem: Subproblem) -> tuple[list[tuple[int, int]], list[int]]:
    """The core counts a subproblem's last rows from a table that depends on every
    placed queen but the one of the last row, and keeps it for the next subproblem
    (per thread): subproblems in this order share their tables."""
    last = subproblem.n - 1
    queens = sorted(zip(subproblem.rows, subproblem.cols))
    return [q for q in queens if q[0] != last], [c for r, c in queens if r == last]


def check_depth(n: int, depth: object, root: Subproblem | None = None) -> int | None:
    """depth as an int, or None; refused if the split (of the whole board, or of
    root) would pass MAX_SUBPROBLEMS subproblems (counted, not built)."""
    if depth is None:
        return None
    value = as_int(depth, "depth")
    if not 0 <= value <= n:
        raise ValueError(f"depth must be between 0 and n ({n}), got {value}")
    if root is None:
        check_border_split(n)
    if split_size(n, value, MAX_SUBPROBLEMS, root) > MAX_SUBPROBLEMS:
        raise ValueError(
            f"depth {value} would cut the n = {n} board into more than "
            f"{MAX_SUBPROBLEMS:,} subproblems: choose a smaller depth (or leave it to the default)"
        )
    return value


def split_size(n: int, depth: int, cap: int, root: Subproblem | None = None) -> int:
    """The number of subproblems of the split at depth, or a number above cap once it passes cap:
    a walk over the queens of the next rows on bitmasks, building no subproblem."""
    total = 0
    full = (1 << n) - 1
    for subproblem in _roots(n, root):
        cols = d1 = d2 = placed = 0
        for r, c in zip(subproblem.rows, subproblem.cols):
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
            if left == 1:  # each free square is a subproblem of its own
                total += bin(free).count("1")
                if total > cap:
                    return total
                continue
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


def quadrants_apply(n: int) -> bool:
    """Whether count(n) goes by quadrant assembly: the compiled core only (its
    twin is slower than the row-by-row twin), for the sides it is faster on."""
    quadrants = _select.quadrants
    return bool(quadrants.FAST) and QUADRANTS_MIN_N <= n <= quadrants.MAX_N


def quadrant_split_size(n: int) -> int:
    """How many subproblems a split by quadrants makes: a function of n alone, so that a
    journal resumes it with any workers."""
    return int(max(4096, 10 ** min(5, n - 15)))


def subproblems(n: int, *, depth: int | None = None) -> list[AnySubproblem]:
    """Cut count(n) into independent subproblems: their weighted counts add up to count(n).

    Where count(n) goes by quadrant assembly (the compiled core, n = 12 to
    23) and depth is None, the subproblems are QuadrantTasks: ranges of the row
    sets of one job (a cross, at n = 17 the crosses of one queen of the middle
    column, up to 15 every cross off the centre), about 4,096 of them up to
    n = 18, 10**4 at 19 and 10**5 from 20 on.  Otherwise each subproblem places the
    border queens (those of the top and bottom rows and of the left and right
    columns) in one of their canonical forms under the 8 symmetries, weighted
    by how many forms it stands for, and then the queens of ``depth`` more
    rows below the top, for finer subproblems; with depth None, the depth is
    chosen from n, and never makes more than MAX_SUBPROBLEMS subproblems.  Count one
    with count_subproblem(), anywhere: both kinds are picklable.

    Parameters
    ----------
    n
        The board's side.
    depth
        Rows placed below the border queens (None: from n, or quadrant subproblems).

    Returns
    -------
    list[Subproblem | QuadrantTask]
        Independent subproblems whose weighted counts add up to count(n).

    Raises
    ------
    TypeError, ValueError
        n or depth of the wrong type or out of range, or a split past MAX_SUBPROBLEMS.

    Examples
    --------
    >>> subproblems = subproblems(8, depth=0)
    >>> len(subproblems), sum(count_subproblem(t) for t in subproblems)
    (78, 92)
    """
    n = check_n(n)
    depth = check_depth(n, depth)
    if depth is None and quadrants_apply(n):
        return list(_assembly.split(n, quadrant_split_size(n)))
    return list(split(n, depth, 1)[1])


def count_subproblem(subproblem: AnySubproblem) -> int:
    """The weighted number of solutions that complete one subproblem.

    ``subproblem`` is a Subproblem, or a plain tuple (n, weight, rows, cols), checked
    like one, or a QuadrantTask.  Placed queens that attack each other have no
    completion: 0.  A process keeps the quadrant table of the last n it counted
    a QuadrantTask of, for the next ones (a table of placements, never a count).

    Parameters
    ----------
    subproblem
        A Subproblem, a tuple (n, weight, rows, cols), or a QuadrantTask.

    Returns
    -------
    int
        The subproblem's weighted number of completions.

    Raises
    ------
    TypeError, ValueError
        A subproblem that is neither kind, or whose fields are wrong.

    Examples
    --------
    >>> count_subproblem(Subproblem(6, 1, rows=(0,), cols=(1,)))  # row 0's queen in column 1
    1
    >>> count_subproblem((8, 2, (0,), (0,)))  # twice the 4 solutions with a queen at (0, 0)
    8
    """
    return count_run([as_subproblem(subproblem)], bytearray(1))[0]


def as_subproblem(subproblem: Any) -> AnySubproblem:
    """subproblem checked again as a Subproblem or a QuadrantTask (one made by
    tuple.__new__ skipped the checks)."""
    if isinstance(subproblem, QuadrantTask):
        return QuadrantTask(*subproblem)
    if not isinstance(subproblem, tuple) or len(subproblem) != 4:
        raise TypeError(
            f"subproblem must be a Subproblem or a tuple (n, weight, rows, cols), "
            f"not {type(subproblem).__name__}"
            + (f" of length {len(subproblem)}" if isinstance(subproblem, tuple) else "")
        )
    return Subproblem(*subproblem)


def subproblem_bound(subproblem: AnySubproblem) -> int:
    """The most that a subproblem's weighted count can be: a bound from the split alone,
    that any right count keeps (a worker's count above it is wrong).

    A subproblem with k queens placed completes in at most (n - k)! ways (one
    queen per free row, in distinct free columns), each counted `weight` times.
    A quadrant subproblem's row set holds at most h! placements on each half (h the
    quadrant's side), so at most (h!)**2 pairs; the quadrant method counts a
    pair for its images under the symmetries, at most 8 (taken as 8 * 8 here,
    loose on purpose), each `weight` times (the cross's orbit).
    """
    if isinstance(subproblem, QuadrantTask):
        return (subproblem.end - subproblem.first) * _row_set_bound(subproblem.n, subproblem.cross)
    return subproblem.weight * math.factorial(subproblem.n - len(subproblem.rows))


@functools.lru_cache(maxsize=64)
def _row_set_bound(n: int, cross: int) -> int:
    # subproblem_bound of one row set of the job (a cluster's results check thousands):
    # of each of its crosses
    weight = _assembly.QuadrantTask(n, cross, 0, 0).weight
    crosses = max(1, bin(_assembly.jobs_of(n)[cross].crosses).count("1"))
    return crosses * weight * _SYMMETRIES**2 * math.factorial(n // 2) ** 2


def count_run(
    subproblems: Sequence[AnySubproblem],
    stop: bytearray,
    quarter: Any = None,
    per_thread: threading.local | None = None,
) -> list[int]:
    """The weighted counts of neighbouring subproblems, in one call to the core.

    ``quarter`` and ``per_thread``: the quadrant table to count quadrant subproblems with
    and where each thread keeps its working memory (count() passes its own);
    None takes the process's (_assembly.process_quarter)."""
    if subproblems and isinstance(subproblems[0], QuadrantTask):
        return _assembly.count_run(
            cast("Sequence[QuadrantTask]", subproblems), stop, quarter, per_thread
        )
    core = _select.bitsolver
    # each thread keeps the core's last table for its next subproblems
    tables = getattr(_tables, "tables", None)
    if tables is None or tables[0] is not core:
        tables = _tables.tables = (core, core.Tables())
    found = core.count_each(cast("Sequence[Subproblem]", subproblems), stop, tables[1])
    return [subproblem.weight * int(count) for subproblem, count in zip(subproblems, found)]


_tables = threading.local()  # each thread's Tables
