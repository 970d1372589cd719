"""Pure-Python twin of ``_quadrants.pyx``: the same names and the same algorithm.

Quadrant assembly.  Cut the board into four quadrants of side h (for odd n,
around a middle row and a middle column whose two queens are placed first:
a "cross").  Every row's queen lies in the west or the east half, so a
solution is fixed by the set E of rows whose queen is east, and for each E
by an east half-board (queens in the rows of E, the east columns) and a west
one (the other rows, the west columns).  Rows and columns of the two halves
never meet: a pair of half-boards is a solution exactly when their
diagonals are disjoint.  So for each E: list the east half-boards, each as a
mask of the diagonals it holds where the halves overlap, list the west
ones, and count the disjoint pairs.  A half-board is itself a north and a
south quadrant placement whose columns add up to the half's, read from a
table of every partial placement of the h x h quadrant, by row set and
column set.

Symmetry.  For odd n, the crosses are taken one per orbit under the 8
symmetries of the square, each counted as many times as its orbit is long.
For even n, and the cross with one queen in the centre, the flip top to
bottom turns E into its reverse: only E <= reverse(E) is counted, twice when
they differ.  Reflecting the board in one long diagonal keeps a queen on it
in place and moves the queen on the other long diagonal, if any, from the
east half to the west or back.  Over all solutions (so over every E, which
the reflections change), the solutions with k queens on the long diagonals,
all of them west, stand for 2 ** k solutions each; east half-boards with a
queen on a long diagonal are never stored.  (The flip keeps such queens in
their half, so the two reductions agree.)  Solutions with no such queen:
the half turn maps E to reverse(complement(E)), so of each such pair of row
sets one counts them twice and the other not at all.

Counting the disjoint pairs (count_pairs, here one pair at a time: the
spec).  The core cuts the stored (east) masks in blocks of 64; per block and
per bit position, a word of the block's masks that do not hold that bit.  A
west mask is disjoint from every stored mask whose word bit survives the AND
of its set bits' words: one AND per set bit and a popcount count 64 pairs.
The core ANDs precomputed combinations of 5 bit positions at once, in groups
of 8 blocks; with many stored masks it first sorts both sides into buckets
by the few bit positions that both hold most often, and matches only the
buckets that share none of them.  Few masks are matched one pair at a time.

The crosses and jobs are made in ``_engine/assembly.py``, for both cores.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterator, Sequence
from typing import Any

MIN_N = 4
MAX_N = 23
FAST = False  # slower than the row-by-row twin: count() never picks it
CPU_LEVELS = ("baseline", "v3", "v4")  # the core's variants of the pair counting
_CLASSES = 3


class Mode(enum.IntEnum):
    # which of a side's half-boards _halves lists, and where
    ALL = 0  # every one, into items[0] (a job without symmetry)
    OFF_LONG = 1  # east of a symmetric job: none on a long diagonal, into stored
    BY_CLASS = 2  # west of a symmetric job: into items by weight class


def cpu_levels() -> tuple[str, ...]:
    """The variants of the pair counting this processor runs, from CPU_LEVELS:
    baseline (any x86-64, or any other processor), v3 (AVX2 and popcount),
    v4 (AVX-512 with VPOPCNTDQ and GFNI)."""
    return ("baseline",)  # the twin counts one pair at a time, on anything


def cpu() -> str:
    """The variant of the pair counting that runs (the best, unless use_cpu chose)."""
    return "baseline"


def use_cpu(name: str) -> None:
    """Run the variant `name` of the pair counting from now on, in every thread
    (every variant counts exactly the same; for tests and benchmarks)."""
    if name not in CPU_LEVELS:
        raise ValueError(f"the variants are {', '.join(CPU_LEVELS)}, not {name!r}")
    if name not in cpu_levels():
        raise ValueError(f"this processor does not run {name}: it runs {', '.join(cpu_levels())}")


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


_POLL_ROWS = 3  # the table's build polls its stop flag in the first rows


class Quarter:
    """The table of every partial placement on an h x h quadrant (h = n // 2).

    A nonzero first byte of `stop` ends the build early with a RuntimeError.
    Read-only once built: threads may share it.
    """

    def __init__(self, n: Any, stop: Any = None) -> None:
        n = operator.index(n)
        if not MIN_N <= n <= MAX_N:
            raise ValueError(f"n must be between {MIN_N} and {MAX_N}, got {n}")
        if stop is not None and len(memoryview(stop)) < 1:
            raise ValueError("stop must hold at least one byte")
        self.n = n
        self.h = n // 2
        # key (rows << h) | cols -> [(d1, d2)]: d1 bit r + c, d2 bit r - c + h - 1
        self.table: dict[int, list[tuple[int, int]]] = {}
        self._stop = bytes(1) if stop is None else stop
        self._stopped = False
        self._walk(0, 0, 0, 0, 0)
        self._stop = bytes(1)
        if self._stopped:
            raise RuntimeError("stopped: the quadrant table was not built")

    def _walk(self, row: int, rows: int, cols: int, d1: int, d2: int) -> None:
        h = self.h
        if row < _POLL_ROWS:
            self._stopped = self._stopped or bool(self._stop[0])
            if self._stopped:
                return
        if row == h:
            self.table.setdefault((rows << h) | cols, []).append((d1, d2))
            return
        self._walk(row + 1, rows, cols, d1, d2)  # the row stays empty
        for c in range(h):
            b1, b2 = 1 << (row + c), 1 << (row - c + h - 1)
            if not (cols >> c) & 1 and not d1 & b1 and not d2 & b2:
                self._walk(row + 1, rows | 1 << row, cols | 1 << c, d1 | b1, d2 | b2)

    @property
    def size(self) -> int:
        """How many placements the table holds."""
        return sum(len(v) for v in self.table.values())

    def placements(self, rows: Any, cols: Any) -> list[tuple[int, int]]:
        """The (d1, d2) masks of the placements with these row and column sets."""
        rows, cols = operator.index(rows), operator.index(cols)
        if rows >> self.h or cols >> self.h or rows < 0 or cols < 0:
            raise ValueError(f"rows and cols must be masks of {self.h} bits")
        return list(self.table.get((rows << self.h) | cols, []))


class _Geo:
    def __init__(self, n: int) -> None:
        self.n = n
        self.h = h = n // 2
        self.off = off = n - h  # first row of the south quadrants, column of the east
        # west columns 0..h-1, east off..n-1: d1 = r + c overlaps on [off, n + h - 2],
        # d2 = r - c + n - 1 on [n - h, 2n - 2 - off]
        self.lo1, self.lo2 = off, n - h
        self.width = n + h - 1 - off
        self.full = (1 << self.width) - 1

    def pack(self, d1: int, d2: int) -> int:
        """The diagonals where the halves overlap, in one word."""
        return ((d1 >> self.lo1) & self.full) | (((d2 >> self.lo2) & self.full) << self.width)


def _quadrant(
    quarter: Quarter, g: _Geo, rows: int, cols: int, south: bool, east: bool, holes1: int,
    holes2: int, mode: Mode,
) -> tuple[list[tuple[int, int, int]], int]:  # fmt: skip
    # a quadrant's placements as the board's (d1, d2, packed), clear of the holes;
    # OFF_LONG: those off the long diagonals only; BY_CLASS: those first (how
    # many: the second value), then the others
    r0 = g.off if south else 0
    c0 = g.off if east else 0
    s1, s2 = r0 + c0, r0 - c0 + g.n - g.h
    long_bit = 1 << (g.n - 1)
    found: list[tuple[int, int, int]] = []
    plain = 0
    for on_long in range(2 if mode == Mode.BY_CLASS else 1):
        for e1, e2 in quarter.table.get((rows << quarter.h) | cols, []):
            d1, d2 = e1 << s1, e2 << s2
            if d1 & holes1 or d2 & holes2:
                continue
            if mode != Mode.ALL and bool((d1 | d2) & long_bit) != bool(on_long):
                continue
            found.append((d1, d2, g.pack(d1, d2)))
        if on_long == 0:
            plain = len(found)
    return found, plain


def _halves(
    quarter: Quarter, g: _Geo, east: bool, rows: int, cols: int, holes1: int, holes2: int,
    mode: Mode, plain_class: int,
) -> tuple[list[int], list[list[int]]]:  # fmt: skip
    # every half-board with queens in `rows` (the board's) and `cols` (local),
    # packed, as `mode` says; BY_CLASS: weight class 2 ** (queens on long
    # diagonals), plain_class for those with none (0: dropped).  A west
    # half-board can hold the main diagonal in its north quadrant only, the
    # other in its south one.
    north_rows = rows & ((1 << g.h) - 1)
    south_rows = rows >> g.off
    stored: list[int] = []
    items: list[list[int]] = [[] for _ in range(_CLASSES)]
    sub = cols
    while True:
        if _popcount(sub) == _popcount(north_rows):
            south, plain_b = _quadrant(
                quarter, g, south_rows, cols ^ sub, True, east, holes1, holes2, mode
            )
            north, plain_a = _quadrant(
                quarter, g, north_rows, sub, False, east, holes1, holes2, mode
            )
            if not south:
                north = []
            for i, (a1, a2, pa) in enumerate(north):
                for j, (b1, b2, pb) in enumerate(south):
                    if a1 & b1 or a2 & b2:
                        continue
                    if mode != Mode.BY_CLASS:
                        (items[0] if mode == Mode.ALL else stored).append(pa | pb)
                        continue
                    on_long = (i >= plain_a) + (j >= plain_b)
                    if on_long:
                        items[on_long].append(pa | pb)
                    elif plain_class:
                        items[plain_class - 1].append(pa | pb)
        if sub == 0:
            break
        sub = (sub - 1) & cols
    return stored, items


def packed_halves(
    quarter: Quarter, east: Any, rows: Any, cols: Any, holes1: Any, holes2: Any, mode: Any,
    plain_class: Any,
) -> tuple[list[int], list[list[int]]]:  # fmt: skip
    """The packed half-boards as _halves lists them: (stored, [items by class])."""
    _check_quarter(quarter)
    n, h = quarter.n, quarter.h
    rows, cols = operator.index(rows), operator.index(cols)
    side_mode, plain_class = Mode(mode), operator.index(plain_class)
    if rows >> n or cols >> h or rows < 0 or cols < 0 or not 0 <= plain_class <= 2:
        raise ValueError("rows, cols or plain_class out of range")
    if rows & (1 << h) and n % 2:
        raise ValueError("the middle row holds no quadrant queen")
    g = _Geo(n)
    return _halves(quarter, g, bool(east), rows, cols, operator.index(holes1),
                   operator.index(holes2), side_mode, plain_class)  # fmt: skip


def count_pairs(stored: Sequence[int], items: Sequence[int], bits: Any, tables: str = "any") -> int:
    """How many (stored, item) pairs share no bit, as count_rows finds them
    (one by one, bit-sliced, or in buckets by cut bits, by their numbers).
    ``tables``: "any" (as count_rows chooses), "wide" or "narrow": the kind of
    bit-sliced tables, wherever the masks are sliced (the tests of each)."""
    bits = operator.index(bits)
    if not 1 <= bits <= 60:
        raise ValueError("bits must be between 1 and 60")
    if tables not in ("any", "wide", "narrow"):
        raise ValueError(f"tables must be 'any', 'wide' or 'narrow', not {tables!r}")
    stored, items = [_mask(s, bits) for s in stored], [_mask(i, bits) for i in items]
    return sum(1 for i in items for s in stored if not s & i)


def _mask(value: Any, bits: int) -> int:
    # what the core's conversion to a 64-bit unsigned int, then its check, accept
    mask = _uint64(value)
    if mask >> bits:
        raise ValueError(f"the masks must hold {bits} bits, got {value}")
    return mask


def _reverse(n: int, rows: int) -> int:
    return sum(1 << (n - 1 - r) for r in _bits(rows))


def _count_crosses(quarter: Quarter, g: _Geo, job: Job, east_rows: int) -> int:
    # a row set of a job of crosses, all counted from the same east half-boards,
    # listed without the crosses' queens' holes.  The middle row's queen at (h, a)
    # holds d1 = h + a and d2 = n - 1 + h - a, the middle column's at (c, h),
    # 0 < c < h, d1 = d2 = c + h; a west half-board of the cross never holds them,
    # and they are bits of the packed masks wherever an east half-board can hold
    # them: the cross's pairs are those of the east half-boards with its west
    # ones, these bits set.  A cross whose row c holds an east queen has none here
    _, items = _halves(quarter, g, True, east_rows, job.east, job.holes1, job.holes2,
                       Mode.ALL, 1)  # fmt: skip
    stored = items[0]
    total = 0
    for x in _bits(job.crosses) if stored else ():
        c, a = divmod(x, g.h)
        if east_rows >> c & 1:
            continue
        d1, d2 = 1 << (g.h + a) | 1 << (g.h + c), 1 << (g.n - 1 + g.h - a) | 1 << (g.h + c)
        west_rows, west = job.rows & ~east_rows & ~(1 << c), job.west & ~(1 << a)
        _, items = _halves(quarter, g, False, west_rows, west, job.holes1 | d1, job.holes2 | d2,
                           Mode.ALL, 1)  # fmt: skip
        queen = g.pack(d1, d2)
        total += count_pairs(stored, [item | queen for item in items[0]], 2 * g.width)
    return total


def _count_rows(quarter: Quarter, g: _Geo, job: Job, east_rows: int) -> int:
    # the weighted count of one row set (0 for one that another row set counts)
    if job.crosses:
        return _count_crosses(quarter, g, job, east_rows)
    rows, symmetric = job.rows, job.symmetric
    prime = plain_class = 1
    if symmetric:
        flipped = _reverse(g.n, east_rows)
        if east_rows > flipped:
            return 0
        prime = 1 if east_rows == flipped else 2
        # the half turn's image, up to the flip top to bottom
        other = min(rows ^ east_rows, _reverse(g.n, rows ^ east_rows))
        plain_class = 1 if other == east_rows else (2 if east_rows < other else 0)
    mode = Mode.OFF_LONG if symmetric else Mode.ALL
    stored, items = _halves(quarter, g, True, east_rows, job.east, job.holes1, job.holes2,
                            mode, plain_class)  # fmt: skip
    if not symmetric:
        stored = items[0]
    if not stored:
        return 0
    mode = Mode.BY_CLASS if symmetric else Mode.ALL
    _, items = _halves(quarter, g, False, rows ^ east_rows, job.west, job.holes1, job.holes2,
                       mode, plain_class)  # fmt: skip
    bits = 2 * g.width
    return prime * sum((1 << c) * count_pairs(stored, items[c], bits) for c in range(_CLASSES))


def _choose(m: int, k: int) -> int:
    if k < 0 or k > m:
        return 0
    r = 1
    for i in range(k):
        r = r * (m - i) // (i + 1)
    return r


def _unrank(rank: int, m: int, k: int) -> int:
    # the rank-th k-subset of m positions in colex order, as a mask of positions
    mask = 0
    c = m
    for i in range(k, 0, -1):
        c -= 1
        while _choose(c, i) > rank:
            c -= 1
        mask |= 1 << c
        rank -= _choose(c, i)
    return mask


def _uint64(value: Any) -> int:
    # what the core's conversion to a 64-bit unsigned int accepts
    number: int = operator.index(value)
    if number < 0 or number >> 64:
        raise OverflowError("value out of range for a 64-bit unsigned int")
    return number


class Job:
    """What a cross leaves to the quadrants of an n board, checked once here:
    the free rows (board rows), the free west and east columns (local, bit c:
    column c of the half), the diagonals the cross holds (r + c and
    r - c + n - 1), and whether the even board's symmetries hold within it.

    ``crosses`` (odd n): the crosses counted together, bit c * h + a for
    the middle column's queen at (c, h) and the middle row's at (h, a), with
    0 < c < h, a a free west column, a != c; the middle row is not free.
    Either every c is a free row (a row set holding row c in the east skips
    its crosses; the free columns are as many as the free rows), or all share
    one c that is not free, whose diagonals c + h the holes hold (its queen
    placed: the free columns are one more than the free rows).  Each row set
    counts the crosses it leaves room for.

    >>> Job(8, 0xFF, 0xF, 0xF, 0, 0, True).row_sets
    70
    >>> Job(7, 0b1110101, 0b111, 0b111, 1 << 4, 1 << 4, False, 0b1 << 3).row_sets
    10
    >>> Job(7, 0b1110111, 0b111, 0b111, 0, 0, False, 0b1 << 3 | 0b11 << 6).row_sets
    20
    """

    def __init__(
        self, n: Any, rows: Any, west: Any, east: Any, holes1: Any, holes2: Any,
        symmetric: Any, crosses: Any = 0,
    ) -> None:  # fmt: skip
        n = operator.index(n)
        if not MIN_N <= n <= MAX_N:
            raise ValueError(f"n must be between {MIN_N} and {MAX_N}, got {n}")
        rows, west, east = _uint64(rows), _uint64(west), _uint64(east)
        crosses = _uint64(crosses)
        if rows >> n or west >> (n // 2) or east >> (n // 2):
            raise ValueError("rows must be a mask of the board's rows, west and east of h columns")
        self.n = n
        self.rows, self.west, self.east = rows, west, east
        self.holes1, self.holes2 = _uint64(holes1), _uint64(holes2)
        self.symmetric = bool(symmetric)
        self.crosses = crosses
        h = n // 2
        if crosses and (n % 2 == 0 or self.symmetric or rows >> h & 1):
            raise ValueError(
                "crosses are of an odd board whose middle row is not free, in a job without "
                "its symmetries"
            )
        cross_rows, held = set(), 0
        for x in _bits(crosses):
            c, a = divmod(x, h)
            if not 0 < c < h or not west >> a & 1 or a == c:
                raise ValueError(
                    f"the cross of bit {x} is not one: its middle column queen's row must be "
                    "north of the middle, off the edge, its middle row queen's column a free "
                    "west one, apart"
                )
            cross_rows.add(c)
            held += not rows >> c & 1
        if held and (
            held != _popcount(crosses)
            or len(cross_rows) != 1
            or not self.holes1 >> (h + min(cross_rows)) & 1
            or not self.holes2 >> (h + min(cross_rows)) & 1
        ):
            raise ValueError(
                "crosses whose middle column queen's row is not free share it, its diagonals held"
            )
        self._positions = list(_bits(rows))  # the free rows, in order
        self._k = _popcount(east)  # each row set has k rows
        if _popcount(west) + self._k - (1 if held else 0) != len(self._positions):
            raise ValueError(
                "the free rows must be as many as the free columns (one fewer, with crosses "
                "whose row is not free)"
            )

    @property
    def row_sets(self) -> int:
        """How many row sets it has: the k-subsets of the free rows, k its free east columns."""
        return _choose(len(self._positions), self._k)


def _check_quarter(quarter: Any) -> None:
    # what the core's typed argument refuses
    if not isinstance(quarter, Quarter):
        raise TypeError(f"quarter must be a Quarter, not {type(quarter).__name__}")


class Scratch:
    """One thread's working memory for count_rows on one Quarter, kept from
    call to call (the compiled core's lists grow to what the largest row set
    needs; the twin keeps nothing in it).  One thread's at a time: a second
    thread is refused (RuntimeError) while one counts with it."""

    def __init__(self, quarter: Quarter) -> None:
        _check_quarter(quarter)
        self.quarter = quarter
        self.busy = False


def count_rows(
    quarter: Quarter,
    job: Job,
    first: Any,
    end: Any,
    stop: Any,
    scratch: Scratch | None = None,
    planned: Any = 0,
) -> int:
    """The weighted count of the row sets ranked first..end-1 (colex order) of
    `job` (of the quarter's n); `scratch`, this thread's Scratch of this
    quarter, or None for a new one (one in use by another thread is refused
    with a RuntimeError).  `planned`: how many row sets of this job the caller
    means to count with this scratch in calls like this one (a unit's subproblems): a
    core may keep work for them in the scratch (it counts the same either way)."""
    # (the compiled core keeps the job's north placements where they are many;
    # the twin keeps nothing)
    _check_quarter(quarter)
    if not isinstance(job, Job):
        raise TypeError(f"job must be a Job, not {type(job).__name__}")
    lo, hi = _uint64(first), _uint64(end)
    _uint64(planned)
    if stop is None or len(memoryview(stop)) < 1:
        raise ValueError("stop must hold at least one byte")
    if job.n != quarter.n:
        raise ValueError(f"the job is of n = {job.n}, the quarter of n = {quarter.n}")
    if hi > job.row_sets or lo > hi:
        raise ValueError(f"the row sets run from 0 to {job.row_sets}, not {lo}..{hi}")
    if scratch is not None and not isinstance(scratch, Scratch):
        raise TypeError(f"scratch must be a Scratch, not {type(scratch).__name__}")
    if scratch is not None and scratch.quarter is not quarter:
        raise ValueError("scratch belongs to another Quarter")
    if scratch is None:
        scratch = Scratch(quarter)
    if scratch.busy:
        raise RuntimeError("this Scratch is in use by another thread")
    scratch.busy = True
    try:
        return _count_range(quarter, job, lo, hi, stop)
    finally:
        scratch.busy = False


def _count_range(quarter: Quarter, job: Job, lo: int, hi: int, stop: Any) -> int:
    positions, k = job._positions, job._k
    g = _Geo(quarter.n)
    total = 0
    chosen = _unrank(lo, len(positions), k) if lo < hi else 0
    for _ in range(lo, hi):
        if stop[0]:
            break
        east_rows = sum(1 << positions[p] for p in _bits(chosen))
        total += _count_rows(quarter, g, job, east_rows)
        if chosen:  # the next k-subset (Gosper)
            low = chosen & -chosen
            ripple = chosen + low
            chosen = (((ripple ^ chosen) >> 2) // low) | ripple
    return total
