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
they differ.  Reflecting in a diagonal moves a queen on the other long
diagonal from one half to the other and keeps the rest, so the solutions
with queens on the long diagonals are counted as those with all such queens
west, 2 for each (east half-boards with a queen on a long diagonal are never
stored).  Those with none: the half turn maps E to reverse(complement(E)),
so of each such pair of row sets one counts them twice and the other not at
all.

Counting the disjoint pairs: the stored (east) masks are cut in blocks of
64; per block and per bit position, a word of the block's masks that do not
hold that bit.  A west mask is disjoint from every stored mask whose word
bit survives the AND of its set bits' words: one AND per set bit and a
popcount count 64 pairs.  The core ANDs precomputed combinations of 5 bit
positions at once, in groups of 8 blocks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

MIN_N = 4
MAX_N = 32


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def quarter_table(h: int) -> dict[int, list[tuple[int, int]]]:
    """Every placement of 0..h queens on an h x h board, none attacking, at
    most one per row and column: key (rows << h) | cols -> [(d1, d2)], with
    d1 bit r + c and d2 bit r - c + h - 1 for each queen."""
    table: dict[int, list[tuple[int, int]]] = {}

    def place(row: int, rows: int, cols: int, d1: int, d2: int) -> None:
        if row == h:
            table.setdefault((rows << h) | cols, []).append((d1, d2))
            return
        place(row + 1, rows, cols, d1, d2)  # this row stays empty
        for c in range(h):
            b1, b2 = 1 << (row + c), 1 << (row - c + h - 1)
            if not (cols >> c) & 1 and not d1 & b1 and not d2 & b2:
                place(row + 1, rows | 1 << row, cols | 1 << c, d1 | b1, d2 | b2)

    place(0, 0, 0, 0, 0)
    return table


class Cross(NamedTuple):
    """The queens of the middle row and column (odd n), as one orbit's representative."""

    weight: int
    queens: tuple[tuple[int, int], ...]  # (row, col): none, the centre, or two
    symmetric: bool  # whether the even-board symmetries hold within it


def _images(n: int, r: int, c: int) -> list[tuple[int, int]]:
    m = n - 1
    return [(r, c), (c, m - r), (m - r, m - c), (m - c, r),
            (r, m - c), (m - c, m - r), (m - r, c), (c, r)]  # fmt: skip


def crosses(n: int) -> list[Cross]:
    """One cross per orbit, with the orbit's length."""
    if n % 2 == 0:
        return [Cross(1, (), True)]
    h = n // 2
    found = [Cross(1, ((h, h),), True)]
    for a in range(n):  # the middle row's queen is at (h, a)
        for b in range(n):  # the middle column's queen at (b, h)
            if a == h or b == h or abs(a - h) == abs(b - h):
                continue
            images = set()
            for (r1, c1), (r2, c2) in zip(_images(n, h, a), _images(n, b, h)):
                # one image lies on the middle row and the other on the middle column
                image = (c1, r2) if r1 == h else (c2, r1)
                images.add(image)
            if (a, b) == min(images):
                found.append(Cross(len(images), ((h, a), (b, h)), False))
    return found


class Geometry(NamedTuple):
    n: int
    h: int
    off: int  # first row of the south quadrants, first column of the east ones
    lo1: int  # the diagonals both halves can hold: d1 from lo1, d2 from lo2,
    lo2: int  # width of each
    width: int


def geometry(n: int) -> Geometry:
    h = n // 2
    off = n - h
    # west columns 0..h-1, east off..n-1: d1 = r + c overlaps on [off, n + h - 2],
    # d2 = r - c + n - 1 on [n - h, 2n - 2 - off]
    return Geometry(n, h, off, off, n - h, n + h - 1 - off)


def _shifts(g: Geometry, south: bool, east: bool) -> tuple[int, int]:
    # a quadrant's local diagonal masks, shifted to the board's
    r0 = g.off if south else 0
    c0 = g.off if east else 0
    return r0 + c0, r0 - c0 + g.n - g.h


def half_boards(
    g: Geometry, table: dict[int, list[tuple[int, int]]], east: bool, rows: int, cols: int,
    holes1: int, holes2: int,
) -> list[tuple[int, int]]:  # fmt: skip
    """(d1, d2) of the board for each half-board with queens in `rows` (of the
    board) and `cols` (local to the half), clear of the holes."""
    h = g.h
    north_rows = rows & ((1 << h) - 1)
    south_rows = rows >> g.off
    k = _popcount(north_rows)
    n1, n2 = _shifts(g, False, east)
    s1, s2 = _shifts(g, True, east)
    found = []
    sub = cols
    while True:
        if _popcount(sub) == k:
            north = table.get((north_rows << h) | sub, [])
            south = table.get((south_rows << h) | (cols ^ sub), [])
            north = [(a << n1, b << n2) for a, b in north]
            north = [(a, b) for a, b in north if not (a & holes1 or b & holes2)]
            south = [(a << s1, b << s2) for a, b in south]
            south = [(a, b) for a, b in south if not (a & holes1 or b & holes2)]
            for a1, a2 in north:
                for b1, b2 in south:
                    if not (a1 & b1 or a2 & b2):
                        found.append((a1 | b1, a2 | b2))
        if sub == 0:
            break
        sub = (sub - 1) & cols
    return found


def pack(g: Geometry, d1: int, d2: int) -> int:
    """The diagonals where the halves overlap, in one word."""
    full = (1 << g.width) - 1
    return ((d1 >> g.lo1) & full) | (((d2 >> g.lo2) & full) << g.width)


def _reverse(n: int, rows: int) -> int:
    return sum(1 << (n - 1 - r) for r in _bits(rows))


def count_pairs(stored: Sequence[int], items: Sequence[int]) -> int:
    """How many (stored, item) pairs share no bit."""
    return sum(1 for s in stored for i in items if not s & i)


class Job(NamedTuple):
    """What a row set needs from its cross: the free rows and columns, the holes."""

    rows: int  # free rows of the board
    west: int  # free west columns (local)
    east: int  # free east columns (local)
    holes1: int
    holes2: int
    symmetric: bool


def job(n: int, cross: Cross) -> Job:
    g = geometry(n)
    rows = (1 << n) - 1
    west = east = (1 << g.h) - 1
    holes1 = holes2 = 0
    for r, c in cross.queens:
        rows &= ~(1 << r)
        if c < g.h:
            west &= ~(1 << c)
        elif c >= g.off:
            east &= ~(1 << (c - g.off))
        holes1 |= 1 << (r + c)
        holes2 |= 1 << (r - c + n - 1)
    if n % 2:
        rows &= ~(1 << g.h)  # the middle row's queen is placed (or it is the centre)
    return Job(rows, west, east, holes1, holes2, cross.symmetric)


def count_rows(n: int, table: dict[int, list[tuple[int, int]]], j: Job, east_rows: int) -> int:
    """The solutions of one cross whose east queens lie in `east_rows`, weighted
    for the symmetry (0 for a row set that another counts)."""
    g = geometry(n)
    west_rows = j.rows ^ east_rows
    prime = q = 1
    if j.symmetric:
        flipped = _reverse(n, east_rows)
        if east_rows > flipped:
            return 0
        prime = 1 if east_rows == flipped else 2
        other = j.rows ^ east_rows  # the half turn's image, up to the flip
        other = min(other, _reverse(n, other))
        q = 1 if other == east_rows else (2 if east_rows < other else 0)
    east = half_boards(g, table, True, east_rows, j.east, j.holes1, j.holes2)
    west = half_boards(g, table, False, west_rows, j.west, j.holes1, j.holes2)
    long1 = long2 = 1 << (n - 1)  # the long diagonals: d1 = n - 1 and d2 = n - 1
    if j.symmetric:
        east = [(a, b) for a, b in east if not (a & long1 or b & long2)]
    stored = [pack(g, a, b) for a, b in east]
    total = 0
    for weight in (1, 2, 4):
        items = []
        for a, b in west:
            on_long = bool(a & long1) + bool(b & long2) if j.symmetric else 0
            w = (1 << on_long) if on_long else q
            if w == weight:
                items.append(pack(g, a, b))
        total += weight * count_pairs(stored, items)
    return prime * total


def row_sets(rows: int, k: int) -> Iterator[int]:
    """The k-subsets of rows, in increasing order."""
    bits = list(_bits(rows))
    if k > len(bits):
        return
    from itertools import combinations

    for chosen in combinations(bits, k):
        yield sum(1 << b for b in chosen)


def count(n: int) -> int:
    if n < MIN_N:
        raise ValueError(f"n must be at least {MIN_N}")
    table = quarter_table(n // 2)
    total = 0
    for cross in crosses(n):
        j = job(n, cross)
        k = _popcount(j.east)
        sub = sum(count_rows(n, table, j, e) for e in row_sets(j.rows, k))
        total += cross.weight * sub
    return total
