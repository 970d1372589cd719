"""Counting by quadrant assembly: the crosses, the jobs and the subproblems.

The quadrant core (``_quadrants.pyx``, twin ``_quadrants_py.py``) counts the
solutions of one job for a range of its row sets.  A job is what a cross
leaves free: for odd n, the queens of the middle row and column, one cross
per orbit of the 8 symmetries of the square, weighted by the orbit's size;
for even n, one job with no cross.  For odd n, the cross in the centre is a
job of its own; the others make one job up to n = 15, whose row sets count
them all from the same east half-boards, and up to n = 17 a job for each
row of the middle column's queen.
Each job's row sets (the k-subsets of its free rows, k its free east
columns) are ranked in colex order, and a subproblem is a range of ranks: a pure
function of a few ints, like a subproblem.

>>> [c.weight for c in crosses(7)]
[1, 8, 8, 8]
>>> sum(c.weight for c in crosses(17)) == 1 + 16 * 16 - 2 * 16
True
>>> [(j.weight, bin(j.crosses)) for j in jobs(7)]
[(1, '0b0'), (8, '0b11001000')]
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from .. import _select
from .._validate import as_int, check_n
from .threads import WAIT_SLICE, Done, wait_for

# The largest n whose crosses are counted in groups (jobs()): a group lists its east
# half-boards once for all its crosses; beyond, they are so many that their pairs go
# in buckets, sorted again for each cross of a group, and a job a cross is faster
GROUPED_MAX_N = 17
# The largest n whose crosses off the centre are all one job (jobs()): their east
# half-boards listed once a row set, for every cross; beyond, the east lists grow
# longer than the crosses that share them repay
SHARED_MAX_N = 15
# Tables up to this n (quadrants of side 8) are built in the calling thread, even
# the main one: they take milliseconds, less than a helper thread's start and wake-up
# add to the small counts that use them
BUILT_HERE_MAX_N = 17


class Cross(NamedTuple):
    """The queens placed before the quadrants (odd n), one orbit's representative."""

    weight: int  # the orbit's size
    queens: tuple[tuple[int, int], ...]  # (row, col): none, the centre, or two
    symmetric: bool  # the even board's symmetries hold within it


class Job(NamedTuple):
    """What a cross leaves to the quadrants (masks), and its weight; the core
    takes it as its own Job, checked once when made."""

    weight: int
    rows: int  # free rows of the board
    west: int  # free columns of the west half, local (bit c: column c)
    east: int  # free columns of the east half, local (bit c: column off + c)
    holes1: int  # the diagonals the cross holds: r + c
    holes2: int  # and r - c + n - 1
    symmetric: bool
    crosses: int = 0  # odd n: bit c * h + a, the cross of queens (c, h) and (h, a) (jobs())


class RowSets(NamedTuple):
    """The row sets ranked first..end-1 of job `job`."""

    job: int
    first: int
    end: int


class _QuadrantFields(NamedTuple):
    n: int
    cross: int  # the job: a cross, or crosses counted together (jobs())
    first: int
    end: int


class QuadrantTask(_QuadrantFields):
    """The row sets ranked first..end-1 of job `cross` of an n board (its
    crosses, see jobs()), for the quadrant method; counts `weight` times (the
    orbit of each of its crosses).

    Picklable and checked whenever made, unpickled included; count it with
    count_subproblem().

    >>> QuadrantTask(8, 0, 0, 70).weight
    1
    >>> QuadrantTask(8, 1, 0, 70)
    Traceback (most recent call last):
    ...
    ValueError: cross must be 0 to 0 for n = 8, got 1
    """

    __slots__ = ()

    def __new__(cls, n: Any, cross: Any, first: Any, end: Any) -> QuadrantTask:
        return super().__new__(cls, *_checked(n, cross, first, end))

    @classmethod
    def _make(cls, iterable: Any) -> QuadrantTask:  # type: ignore[override]
        return cls(*iterable)

    def _replace(self, **changes: Any) -> QuadrantTask:
        return type(self)(**{**self._asdict(), **changes})

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # every pickle protocol, 0 and 1 included, makes it through __new__
        return (type(self), tuple(self))

    @property
    def weight(self) -> int:
        """How many times its count counts: the orbit of its crosses under the symmetries."""
        return jobs_of(self.n)[self.cross].weight


def _checked(n: Any, cross: Any, first: Any, end: Any) -> tuple[int, int, int, int]:
    # plain ints of an n checked before: the same checks, in a few comparisons (a
    # worker checks every subproblem it is sent, 4,420 at n = 18, twice)
    sizes = _checked_sizes.get((_select.quadrants, n)) if type(n) is int else None
    if (
        sizes is not None
        and type(cross) is int
        and type(first) is int
        and type(end) is int
        and 0 <= cross < len(sizes)
        and 0 <= first <= end <= sizes[cross]
    ):
        return n, cross, first, end
    n = check_n(n)
    quadrants = _select.quadrants
    if not quadrants.MIN_N <= n <= quadrants.MAX_N:
        raise ValueError(
            f"the quadrant method takes n from {quadrants.MIN_N} to {quadrants.MAX_N}, got {n}"
        )
    cross, first, end = as_int(cross, "cross"), as_int(first, "first"), as_int(end, "end")
    sizes = _sizes(n)
    if not 0 <= cross < len(sizes):
        raise ValueError(f"cross must be 0 to {len(sizes) - 1} for n = {n}, got {cross}")
    size = sizes[cross]
    if not 0 <= first <= end <= size:
        raise ValueError(f"first and end must be 0 <= first <= end <= {size}, got {first}, {end}")
    _checked_sizes[quadrants, n] = sizes
    return n, cross, first, end


# each n's job sizes, once a subproblem of it has passed the checks with that core
_checked_sizes: dict[tuple[Any, int], tuple[int, ...]] = {}


class Checked(tuple):  # type: ignore[type-arg]
    """Subproblems that have passed their checks (made by checked_subproblems() only)."""

    __slots__ = ()


def checked_subproblems(n: int, triples: Sequence[int]) -> Checked:
    """The QuadrantTasks of n given as flat (cross, first, end) triples, each checked
    as QuadrantTask() checks it (a worker unpickles thousands, made once)."""
    if len(triples) % 3:
        raise ValueError(
            f"quadrant subproblems come as (cross, first, end) triples, got {len(triples)}"
        )
    make = tuple.__new__
    each = iter(triples)
    return Checked(
        make(QuadrantTask, _checked(n, *subproblem)) for subproblem in zip(each, each, each)
    )


def _images(n: int, r: int, c: int) -> list[tuple[int, int]]:
    m = n - 1
    return [(r, c), (c, m - r), (m - r, m - c), (m - c, r),
            (r, m - c), (m - c, m - r), (m - r, c), (c, r)]  # fmt: skip


def crosses(n: int) -> list[Cross]:
    """One cross per orbit, with the orbit's size."""
    if n % 2 == 0:
        return [Cross(1, (), True)]
    h = n // 2
    found = [Cross(1, ((h, h),), True)]  # the centre: the board's symmetries remain
    for a in range(n):  # the middle row's queen at (h, a)
        for b in range(n):  # the middle column's at (b, h)
            if a == h or b == h or abs(a - h) == abs(b - h):
                continue
            images = set()
            for (r1, c1), (r2, c2) in zip(_images(n, h, a), _images(n, b, h)):
                # one image lies on the middle row, the other on the middle column
                images.add((c1, r2) if r1 == h else (c2, r1))
            if (a, b) == min(images):
                # counted as the image whose middle column's queen is nearest the top
                # edge (north) and whose middle row's queen is west: of the 8 images,
                # the one the core counts fastest
                c, r = min(images, key=lambda image: (image[1], image[0]))
                found.append(Cross(len(images), ((h, c), (r, h)), False))
    return found


def job(n: int, cross: Cross) -> Job:
    h = n // 2
    off = n - h
    rows = (1 << n) - 1
    west = east = (1 << h) - 1
    holes1 = holes2 = 0
    for r, c in cross.queens:
        rows &= ~(1 << r)
        if c < h:
            west &= ~(1 << c)
        elif c >= off:
            east &= ~(1 << (c - off))
        holes1 |= 1 << (r + c)
        holes2 |= 1 << (r - c + n - 1)
    if n % 2:
        rows &= ~(1 << h)  # the middle row's queen is placed
    return Job(cross.weight, rows, west, east, holes1, holes2, cross.symmetric)


def jobs(n: int) -> list[Job]:
    """The jobs of n: for even n and the centre cross, a job each.  The other
    crosses, each as its image across the main diagonal (the middle row's
    queen at column a < c, the middle column's at row c < h), weigh 8 each:
    up to SHARED_MAX_N one job counts them all (every row set a split of the
    rows but the middle one, each cross in the row sets that leave its row c
    to the west); up to GROUPED_MAX_N a job counts those of one c (placed, its
    row not free); beyond, a job each (as crosses() gives them)."""
    found = crosses(n)
    if n % 2 == 0 or n > GROUPED_MAX_N:
        return [job(n, cross) for cross in found]
    h = n // 2
    groups: dict[int, int] = {}  # the middle column queen's row -> its crosses
    for cross in found[1:]:  # transposed: (h, c) to (c, h), (a, h) to (h, a)
        (_, c), (a, _) = cross.queens
        if cross.weight != 8:  # never: a cross off the centre has 8 images
            raise AssertionError(f"a cross of {cross.weight} images in a job of 8")
        groups[c] = groups.get(c, 0) | 1 << (c * h + a)
    centre = job(n, found[0])
    if n <= SHARED_MAX_N:
        free = ((1 << n) - 1) & ~(1 << h)
        every = sum(groups.values())
        return [centre, Job(8, free, (1 << h) - 1, (1 << h) - 1, 0, 0, False, every)]
    return [centre] + [
        job(n, Cross(8, ((c, h),), False))._replace(crosses=bits)
        for c, bits in sorted(groups.items())
    ]


@functools.lru_cache(maxsize=8)
def jobs_of(n: int) -> tuple[Job, ...]:
    """jobs(n), made once (a count's plan, never a count), for every subproblem that asks."""
    return tuple(jobs(n))


@functools.lru_cache(maxsize=8)
def _sizes(n: int) -> tuple[int, ...]:
    # each job's number of row sets: every subproblem checked asks for its job's
    return tuple(row_sets(j) for j in jobs_of(n))


def row_sets(j: Job) -> int:
    """How many row sets the job has."""
    return math.comb(bin(j.rows).count("1"), bin(j.east).count("1"))


def subproblems(n: int, size: int) -> list[RowSets]:
    """The jobs' row sets cut into about `size` subproblems of similar size."""
    found = []
    sizes = [row_sets(j) for j in jobs_of(n)]
    step = max(1, sum(sizes) // max(1, size))
    for index, size in enumerate(sizes):
        for first in range(0, size, step):
            found.append(RowSets(index, first, min(size, first + step)))
    return found


def split(n: int, size: int) -> list[QuadrantTask]:
    """count(n) as about `size` QuadrantTasks (never fewer than the crosses)."""
    check_n(n)
    # right by construction: made without their checks (a split of n = 20 makes 184,756)
    return [tuple.__new__(QuadrantTask, (n, *t)) for t in subproblems(n, size)]


def build(n: int, seconds: float | None = None) -> Any:
    """A new quadrant table for n.  From the main thread (or with a time limit) a
    table beyond BUILT_HERE_MAX_N is built on a helper thread while this one waits
    in short slices, so that Ctrl-C stops the build at once (the core polls a stop
    flag); MemoryError where it does not fit, TimeoutError after `seconds` (None:
    no limit)."""
    if seconds is None and (
        n <= BUILT_HERE_MAX_N or threading.current_thread() is not threading.main_thread()
    ):
        return _select.quadrants.Quarter(n)
    return Building(n).result(seconds)


class Building:
    """A quadrant table for n, built on a helper thread from now on (the core drops
    the GIL): this thread may do other work meanwhile, then take it with result().
    Whoever starts one ends it: result(), or cancel() (which stops the build)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.stop = bytearray(1)
        self.built: list[Any] = []
        self.ended = Done()
        self.helper = threading.Thread(target=self._work, name="nqueens-table", daemon=True)
        self.helper.start()

    def _work(self) -> None:
        try:
            self.built.append(_select.quadrants.Quarter(self.n, self.stop))
        except BaseException as exc:  # handed to the caller of result()
            self.built.append(exc)
        finally:
            self.ended.set()

    def result(self, seconds: float | None = None) -> Any:
        """The table, waited for in short slices (Ctrl-C stops the build at once);
        MemoryError where it does not fit, TimeoutError after `seconds` (None: no
        limit)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        try:
            while not self.ended.wait(WAIT_SLICE):
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError(f"the quadrant table of n = {self.n} takes over {seconds} s")
        except BaseException:
            self.cancel()
            raise
        # ended: joined at once, so that no thread of ours is left for a process pool
        # that forks right after (count() builds the table before such a pool's first subproblem)
        self.helper.join()
        if isinstance(self.built[0], BaseException):
            raise self.built[0]
        return self.built[0]

    def cancel(self) -> None:
        """Stop the build and wait for its thread (within moments; a second Ctrl-C
        waits too)."""
        self.stop[0] = 1
        wait_for([self.ended])
        self.helper.join()


# the process's table for the subproblems it is handed (an executor's worker counts
# many): one at a time, the last n asked for, shared read-only by every thread
_process_quarter: tuple[Any, Any] | None = None
_process_lock = threading.Lock()
_scratch = threading.local()  # each thread's Scratch


def process_quarter(n: int) -> Any:
    """The process's quadrant table for n, built on first use and kept (one table,
    the last n asked for) for the next subproblems: a table of placements, never a count."""
    global _process_quarter
    with _process_lock:
        held = _process_quarter
        if held is not None and held[0] is _select.quadrants and held[1].n == n:
            return held[1]
        _process_quarter = None  # the old table goes before the new one is built
        quarter = build(n)
        _process_quarter = (_select.quadrants, quarter)
        return quarter


@contextlib.contextmanager
def lent(quarter: Any) -> Iterator[None]:
    """The process's table is `quarter` while the block runs: a process pool that
    forks its processes meanwhile hands it to them (read, never written: the pages
    stay shared), where each would build its own.  Dropped after, unless replaced."""
    global _process_quarter
    with _process_lock:
        _process_quarter = (_select.quadrants, quarter)
    try:
        yield
    finally:
        with _process_lock:
            if _process_quarter is not None and _process_quarter[1] is quarter:
                _process_quarter = None


def count_run(
    run: Sequence[QuadrantTask],
    stop: bytearray,
    quarter: Any = None,
    per_thread: threading.local | None = None,
) -> list[int]:
    """The weighted counts of some quadrant subproblems, with `quarter` (of their n) and
    each thread's working memory in `per_thread` (count() passes its own, dropped with
    it), or, for None, the process's kept table of each n in turn."""
    home = _scratch if per_thread is None else per_thread
    found: list[int] = []
    first = 0
    while first < len(run):
        n = run[first].n
        end = first
        while end < len(run) and run[end].n == n:
            end += 1
        table = quarter if quarter is not None and quarter.n == n else process_quarter(n)
        ranges = [
            RowSets(subproblem.cross, subproblem.first, subproblem.end)
            for subproblem in run[first:end]
        ]
        found.extend(count_subproblems(table, jobs_of(n), ranges, stop, home))
        first = end
    return found


def count_subproblems(
    quarter: Any,
    all_jobs: Sequence[Job],
    run: Sequence[RowSets],
    stop: bytearray,
    per_thread: threading.local,
) -> list[int]:
    """The weighted counts of some subproblems, in the calling thread (the core drops the
    GIL), with this thread's working memory for this quarter, kept in `per_thread`
    (the compiled core keeps a job's north placements there as it meets them, the
    same for the subproblems of a unit as for one long subproblem)."""
    core = _select.quadrants
    scratch = getattr(per_thread, "scratch", None)
    if scratch is None or scratch.quarter is not quarter:
        scratch = per_thread.scratch = core.Scratch(quarter)
    found = []
    made: dict[int, Any] = {}  # the core's checked form of each job, made once
    for t in run:
        j = all_jobs[t.job]
        if t.job not in made:
            made[t.job] = core.Job(
                quarter.n, j.rows, j.west, j.east, j.holes1, j.holes2, j.symmetric, j.crosses
            )
        value = core.count_rows(quarter, made[t.job], t.first, t.end, stop, scratch)
        found.append(j.weight * value)
    return found
