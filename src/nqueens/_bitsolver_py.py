"""Pure-Python twin of ``_bitsolver.pyx``: the same names and the same algorithm.

It is the fallback where the extension is missing and the readable
specification of the native core; see the .pyx for how the masks work.
Arguments are checked by the Python layer; like the .pyx, each entry point
still refuses what lies outside its arrays, with the same exceptions, and
takes ints as C ints (an OverflowError past 32 bits).
"""

from __future__ import annotations

import heapq
import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

MAX_N = 64
COMPILER = "none (pure Python)"
CFLAGS = ""
_POLL_ROWS = 10
_TAIL_ROWS = 5
_TAIL_MOST = 120
GATHER_MAX_N = 15
_UPPER_MOST = 9
_MITM_MIN_LEVELS = 9
_MITM_MAX_COLUMNS = 20
_NO_QUEEN = 255
_TABLE_MOST = 1 << 22
_LOW32 = 0xFFFFFFFF


def _full_mask(n: int) -> int:
    return (1 << n) - 1


def _int(value: Any, bits: int = 32) -> int:
    # what Cython's conversion to a C int of that many bits accepts
    value = operator.index(value)
    if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
        raise OverflowError("value too large to convert to int")
    return int(value)


def _long(value: Any) -> int:
    return _int(value, 64)


def _check_board(n: int) -> None:
    if not 0 <= n <= MAX_N:
        raise ValueError(f"n must be between 0 and {MAX_N}, got {n}")


def _buffer(value: Any) -> memoryview:
    # what a Cython unsigned char[::1] argument accepts
    if value is None:
        raise TypeError("a writable bytes-like object is required, not None")
    view = memoryview(value)
    if view.readonly:
        raise BufferError("Object is not writable.")
    if not view.c_contiguous:
        raise BufferError("memoryview: underlying buffer is not C-contiguous")
    if view.format != "B" or view.ndim != 1:
        raise ValueError(f"Buffer dtype mismatch, expected 'unsigned char' but got {view.format!r}")
    return view


def _stop_buffer(value: Any) -> memoryview:
    # what a Cython const unsigned char[::1] argument accepts: read-only too
    if value is None:
        raise TypeError("a writable bytes-like object is required, not None")
    view = memoryview(value)
    if not view.c_contiguous:
        raise BufferError("memoryview: underlying buffer is not C-contiguous")
    return view


def _check_stop(stop: Any) -> None:
    if len(_stop_buffer(stop)) < 1:
        raise ValueError("stop must hold at least one byte")


class _InUse:
    """Marks a Tables or an Enumerator as in use by a thread: a second is refused,
    as the .pyx's flag (checked and set under the GIL) refuses it."""

    def __init__(self, owner: Any, what: str) -> None:
        self.owner, self.what = owner, what

    def __enter__(self) -> None:
        if getattr(self.owner, "_busy", False):
            raise RuntimeError(f"{self.what} in use by another thread")
        self.owner._busy = True

    def __exit__(self, *exc: object) -> None:
        self.owner._busy = False


def _board(value: Any) -> int:
    n = _int(value)
    _check_board(n)
    return n


def _load_queens(n: int, rows: Any, cols: Any) -> tuple[list[int], list[int]]:
    # rows and cols as lists, or an error if they do not fit the board
    k = len(rows)
    _check_board(n)
    if len(cols) != k:
        raise ValueError(f"rows and cols differ in length ({k} and {len(cols)})")
    if k > n:
        raise ValueError(f"{k} queens do not fit in the {n} rows of the board")
    r, c = [], []
    for i in range(k):
        r.append(_int(rows[i]))
        c.append(_int(cols[i]))
        if not (0 <= r[i] < n and 0 <= c[i] < n):
            raise ValueError(f"square ({r[i]}, {c[i]}) is off the {n} x {n} board")
    return r, c


class _Preset:
    """The rows still empty once some queens are placed, searched bottom up:
    per level, the squares the placed queens attack in that row (their
    columns are out of avail already) and the rows to the next level."""

    def __init__(self) -> None:
        self.levels = 0
        self.avail = 0
        self.blocked: list[int] = []
        self.shift: list[int] = []
        self.row: list[int] = []


def _apart(rows: Sequence[int], cols: Sequence[int], k: int) -> bool:
    for i in range(k):
        for j in range(i):
            d = rows[i] - rows[j]
            if d == 0 or cols[i] == cols[j] or d == cols[i] - cols[j] or d == cols[j] - cols[i]:
                return False
    return True


def _attacked(n: int, r: int, row: int, col: int) -> int:
    # the squares of row r on the diagonals of a queen at (row, col)
    d = r - row
    return sum(1 << c for c in {col + d, col - d} if 0 <= c < n)


def _prepare(n: int, rows: Sequence[int], cols: Sequence[int], k: int) -> _Preset | None:
    # None if two placed queens share a row, column or diagonal
    if not _apart(rows, cols, k):
        return None
    b = _Preset()
    used_rows = 0
    b.avail = _full_mask(n)
    for i in range(k):
        used_rows |= 1 << rows[i]
        b.avail &= ~(1 << cols[i])
    last = 0
    for r in range(n - 1, -1, -1):  # bottom up, as the .pyx explains
        if used_rows >> r & 1:
            continue
        mask = 0
        for i in range(k):
            mask |= _attacked(n, r, rows[i], cols[i])
        b.blocked.append(mask)
        b.row.append(r)
        if b.levels > 0:
            b.shift.append(last - r)
        last = r
        b.levels += 1
    b.shift.append(0)
    return b


class _Upper:
    """The table of the last levels' placements, grouped by the columns they
    take, each packed as what it attacks in the first of those rows, and
    what it is for (see the .pyx)."""

    def __init__(self) -> None:
        self.key: tuple[int, int, tuple[int, ...]] | None = None
        self.table: dict[int, list[int]] = {}
        self.boundary = -1  # the level met from the table; -1: none
        self.seed = 0
        self.size = 0
        self.too_big = False


class _TooBig(Exception):
    """A table would have more than _TABLE_MOST entries."""


class Tables:
    """The table of the last rows that count_preset built last, kept for the
    next call that needs the same one.  One thread's at a time: a second
    thread is refused (RuntimeError) while one counts with it."""

    def __init__(self) -> None:
        self.upper = _Upper()


def _list_upper(
    u: _Upper,
    levels: list[tuple[int, int, int]],
    i: int,
    allowed: int,
    cols: int,
    ld: int,
    rd: int,
    seen: int,
) -> None:
    blocked, shift, d = levels[i]
    free = allowed & ~(cols | ld | rd | blocked)
    while free:
        bit = free & -free
        free ^= bit
        entry = seen | bit >> d | bit << (d + 32)
        if i + 1 == len(levels):
            u.size += 1
            if u.size > _TABLE_MOST:
                raise _TooBig
            u.table.setdefault(cols | bit, []).append(entry)
        else:
            _list_upper(
                u,
                levels,
                i + 1,
                allowed,
                cols | bit,
                (ld | bit) << shift,
                (rd | bit) >> shift,
                entry,
            )


def _build_upper(u: _Upper, n: int, first_row: int, placed: tuple[int, ...]) -> None:
    # placed: the queen of each row but the last (_NO_QUEEN if none); the
    # table's rows are the empty ones from first_row up
    allowed = _full_mask(n)
    for c in placed:
        if c != _NO_QUEEN:
            allowed &= ~(1 << c)
    rows = [r for r in range(first_row, -1, -1) if r == n - 1 or placed[r] == _NO_QUEEN]
    levels = []
    for i, r in enumerate(rows):
        mask = 0
        for j, c in enumerate(placed):
            if c != _NO_QUEEN:
                mask |= _attacked(n, r, j, c)
        shift = r - rows[i + 1] if i + 1 < len(rows) else 0
        levels.append((mask, shift, first_row - r))
    u.table = {}
    u.size = 0
    _list_upper(u, levels, 0, allowed, 0, 0, 0, 0)


def _meet(
    u: _Upper, b: _Preset, n: int, rows: Sequence[int], cols: Sequence[int], count: int
) -> bool:
    if n > 24:
        return False
    first = b.levels - count
    first_row = b.row[first]
    placed = [_NO_QUEEN] * (n - 1)
    u.seed = 0
    for r, c in zip(rows, cols):
        if r < n - 1:
            placed[r] = c
        else:
            d = n - 1 - first_row
            u.seed |= ((1 << c) << d & _LOW32) | ((1 << c) >> d) << 32
    key = (n, first_row, tuple(placed))
    if u.key != key:
        u.key = key
        u.table = {}
        taken = {c for c in placed if c != _NO_QUEEN}
        u.too_big = n - len(taken) > _MITM_MAX_COLUMNS  # more columns than the .pyx numbers
        if not u.too_big:
            try:
                _build_upper(u, n, first_row, tuple(placed))
            except _TooBig:
                u.table = {}
                u.too_big = True
    if u.too_big:
        return False
    u.boundary = first
    return True


def _matches(u: _Upper, avail: int, ld: int, rd: int) -> int:
    key = (ld & _LOW32) | rd << 32 | u.seed
    return sum(1 for entry in u.table.get(avail, ()) if not entry & key)


def _search(b: _Preset, level: int, avail: int, ld: int, rd: int, u: _Upper) -> int:
    if level == u.boundary:
        return _matches(u, avail, ld, rd)
    free = avail & ~(ld | rd | b.blocked[level])
    if avail & (avail - 1) == 0:
        return 1 if free else 0
    s = b.shift[level]
    total = 0
    while free:
        bit = free & -free
        free ^= bit
        total += _search(b, level + 1, avail ^ bit, (ld | bit) << s, (rd | bit) >> s, u)
    return total


def _search_polled(
    b: _Preset, level: int, avail: int, ld: int, rd: int, u: _Upper, stop: bytearray
) -> int:
    if b.levels - level < _POLL_ROWS:
        return _search(b, level, avail, ld, rd, u)
    free = avail & ~(ld | rd | b.blocked[level])
    s = b.shift[level]
    total = 0
    while free and not stop[0]:
        bit = free & -free
        free ^= bit
        total += _search_polled(
            b, level + 1, avail ^ bit, (ld | bit) << s, (rd | bit) >> s, u, stop
        )
    return total


def _upper_rows(b: _Preset) -> int:
    if b.levels < _MITM_MIN_LEVELS:
        return 0
    return min(b.levels // 2 + 1, _UPPER_MOST)


def _count_preset(
    n: int,
    rows: Sequence[int],
    cols: Sequence[int],
    k: int,
    upper: int,
    u: _Upper,
    stop: bytearray,
) -> int:
    b = _prepare(n, rows, cols, k)
    if b is None:
        return 0
    if b.levels == 0:
        return 1
    if upper < 0:
        upper = _upper_rows(b)
    upper = min(upper, b.levels, _POLL_ROWS - 1)
    if upper == 0 or stop[0] or not _meet(u, b, n, rows[:k], cols[:k], upper):
        u.boundary = -1
    return _search_polled(b, 0, b.avail, 0, 0, u, stop)


def count_preset(
    n: int,
    rows: Sequence[int],
    cols: Sequence[int],
    stop: bytearray,
    upper: int = -1,
    tables: Tables | None = None,
) -> int:
    """Solutions that extend the queens placed at (rows[i], cols[i]).

    upper: how many of the last rows to match from a table (-1: the core's
    choice); tables: where to keep that table for the next call.
    """
    # the checks in the .pyx's order
    n = _board(n)
    _stop_buffer(stop)
    upper = _int(upper)
    if tables is not None and not isinstance(tables, Tables):
        raise TypeError(f"tables must be Tables or None, not {type(tables).__name__}")
    rows, cols = _load_queens(n, rows, cols)
    _check_stop(stop)
    if tables is None:
        return _count_preset(n, rows, cols, len(rows), upper, _Upper(), stop)
    with _InUse(tables, _TABLES_IN_USE):
        return _count_preset(n, rows, cols, len(rows), upper, tables.upper, stop)


def count_each(
    subproblems: Sequence[tuple[int, int, Sequence[int], Sequence[int]]],
    stop: bytearray,
    tables: Tables,
) -> list[int]:
    """[count_preset(n, rows, cols, stop, -1, tables) for (n, _, rows, cols)
    in subproblems], in one call without the GIL."""
    _stop_buffer(stop)
    if not isinstance(tables, Tables):
        raise TypeError(f"tables must be Tables, not {type(tables).__name__}")
    count = len(subproblems)
    _check_stop(stop)
    for t in range(count):
        len(subproblems[t][2])  # the .pyx sizes its buffer first
    checked = []
    for t in range(count):
        subproblem = subproblems[t]
        n = _int(subproblem[0])
        checked.append((n, *_load_queens(n, subproblem[2], subproblem[3])))
    found = [0] * len(subproblems)
    with _InUse(tables, _TABLES_IN_USE):
        for t, (n, rows, cols) in enumerate(checked):
            if stop[0]:
                break
            found[t] = _count_preset(n, rows, cols, len(rows), -1, tables.upper, stop)
    return found


_TABLES_IN_USE = "these Tables are"


def _image_key(n: int, rows: Sequence[int], cols: Sequence[int], k: int, symmetry: int) -> int:
    m = n - 1
    v = []
    for i in range(k):
        r, c = rows[i], cols[i]
        if symmetry & 1:
            c = m - c
        if symmetry & 2:
            r = m - r
        if symmetry & 4:
            r, c = c, r
        v.append(r * MAX_N + c)
    key = 0
    for value in sorted(v):
        key = key << 13 | value
    return key


def _border(
    n: int, top: int, bottom: int, left: int, right: int, rows: list[int], cols: list[int]
) -> int:
    m = n - 1
    if (
        (top == 0) != (left == 0)
        or (top == m) != (right == 0)
        or (bottom == 0) != (left == m)
        or (bottom == m) != (right == m)
    ):
        return 0
    rows[:2] = [0, m]
    cols[:2] = [top, bottom]
    k = 2
    if 0 < left < m:
        rows[k], cols[k] = left, 0
        k += 1
    if 0 < right < m:
        rows[k], cols[k] = right, m
        k += 1
    return k


def _orbit(n: int, rows: Sequence[int], cols: Sequence[int], k: int) -> int:
    keys = [_image_key(n, rows, cols, k, s) for s in range(8)]
    if min(keys) < keys[0]:
        return 0
    return len(set(keys))


def _attack(n: int, top: int, bottom: int) -> bool:
    return top == bottom or abs(top - bottom) == n - 1


def _constellation(
    n: int, top: int, bottom: int, left: int, right: int, rows: list[int], cols: list[int]
) -> tuple[int, int]:
    # (weight, k): the weight of a canonical, consistent border (0 for any
    # other), and its k queens in rows and cols
    k = _border(n, top, bottom, left, right, rows, cols)
    if k == 0 or not _apart(rows, cols, k):
        return 0, k
    return _orbit(n, rows, cols, k), k


class _Border(NamedTuple):
    weight: int
    top: int
    bottom: int
    left: int
    right: int
    rows: list[int]
    cols: list[int]
    k: int


def _borders(n: int) -> Iterator[_Border]:
    # the canonical borders, (top, left, right, bottom) in increasing order;
    # the .pyx explains the ranges
    for top in range((n + 1) // 2):
        others = range(top, n - top)
        for left in others:
            for right in others:
                for bottom in others:
                    if _attack(n, top, bottom):
                        continue
                    rows, cols = [0] * 4, [0] * 4
                    weight, k = _constellation(n, top, bottom, left, right, rows, cols)
                    if weight:
                        yield _Border(weight, top, bottom, left, right, rows, cols, k)


def constellations(n: int) -> list[tuple[int, int, int, int, int]]:
    """[(weight, top, bottom, left, right)] for every canonical border of n >= 2."""
    n = _board(n)
    return [(b.weight, b.top, b.bottom, b.left, b.right) for b in _borders(n)]


def count_solutions(n: int, stop: bytearray) -> int:
    """All solutions of an n board: each canonical border times its orbit."""
    n = _board(n)
    _check_stop(stop)
    if n <= 1:
        return 1
    total = 0
    u = _Upper()
    for b in _borders(n):
        if stop[0]:
            break
        total += b.weight * _count_preset(n, b.rows, b.cols, b.k, -1, u, stop)
    return total


# the first pairs of rows of count_symmetric look at the stop flag
_POLLED_PAIRS = 5


def count_symmetric(n: int, arrays: bool = False, stop: Any = None) -> tuple[int, int]:
    """(P, R): the solutions kept by the half turn, and by the quarter turn
    (arrays=True: by the search on arrays that boards past 32 take, for tests).
    A nonzero stop[0] ends the search within moments, its counts partial."""
    n = _board(n)  # the twin has the one search, on arrays
    flag: bytearray | memoryview = bytearray(1)
    if stop is not None:
        flag = _stop_buffer(stop)  # checked once, as the .pyx checks it
        if len(flag) < 1:
            raise ValueError("stop must hold at least one byte")
    column = [0] * n
    used = [False] * n
    down = [False] * (2 * n)
    up = [False] * (2 * n)
    found = [0, 0]

    def free(r: int, c: int) -> bool:
        return not (used[c] or down[r - c + n - 1] or up[r + c])

    def mark(r: int, c: int, on: bool) -> None:
        used[c] = down[r - c + n - 1] = up[r + c] = on
        column[r] = c

    def pair_rows(r: int) -> None:
        r2 = n - 1 - r
        if r > r2 or (r == r2 and free(r, r)):
            found[0] += 1
            if r == r2:
                column[r] = r
            if all(column[column[i]] == n - 1 - i for i in range(n)):
                found[1] += 1
            return
        if r == r2 or (r < _POLLED_PAIRS and flag[0]):
            return
        for c in range(n):
            if not free(r, c):
                continue
            mark(r, c, True)
            if free(r2, n - 1 - c):
                mark(r2, n - 1 - c, True)
                pair_rows(r + 1)
                mark(r2, n - 1 - c, False)
            mark(r, c, False)

    pair_rows(0)
    return found[0], found[1]


def _placement_keys(p: Sequence[int], n: int) -> list[int]:
    # p's 8 images, numbered as in _image_key, packed 4 bits a row, row 0 highest
    m = n - 1
    same = rows_reflected = transposed = turned = top = 0
    for r in range(n):
        c = p[r]
        same |= c << 4 * (m - r)
        rows_reflected |= c << 4 * r
        transposed |= r << 4 * (m - c)
        turned |= r << 4 * c
        top = top << 4 | m
    return [
        same,
        top - same,
        rows_reflected,
        top - rows_reflected,
        transposed,
        turned,
        top - transposed,
        top - turned,
    ]


class _Gather:
    def __init__(self, n: int, unique: bool, part: int = 0, parts: int = 1) -> None:
        self.n = n
        self.unique = unique
        self.part, self.parts = part, parts
        self.image: list[int] = []
        self.fix: list[int] = []
        self.p = [0] * n
        self.keys: list[int] = []


def _gathered(g: _Gather) -> None:
    keys = _placement_keys(g.p, g.n)
    if not g.unique:
        g.keys.extend(keys[i] for i in g.image)
        return
    if any(keys[i] < keys[0] for i in g.fix):
        return  # its class is kept through that image
    g.keys.append(min(keys))


def _gather(g: _Gather, b: _Preset, level: int, avail: int, ld: int, rd: int) -> None:
    free = avail & ~(ld | rd | b.blocked[level])
    s = b.shift[level]
    while free:
        bit = free & -free
        free ^= bit
        g.p[b.row[level]] = bit.bit_length() - 1
        if b.levels - level > 2:
            _gather(g, b, level + 1, avail ^ bit, (ld | bit) << s, (rd | bit) >> s)
            continue
        last = avail ^ bit
        if last & ~(((ld | bit) << s) | ((rd | bit) >> s) | b.blocked[level + 1]):
            g.p[b.row[level + 1]] = last.bit_length() - 1
            _gathered(g)


def _gather_all(g: _Gather) -> None:
    m = g.n - 1
    # a group: borders that differ only in their bottom queen (they come in turn
    # and share the table of their last rows); parts take the groups in turn,
    # forth and back (0, 1, 1, 0, ... for two)
    groups = itertools.groupby(_borders(g.n), lambda b: (b.top, b.left, b.right))
    turns = [*range(g.parts), *reversed(range(g.parts))]
    mine = (group for i, (_, group) in enumerate(groups) if turns[i % len(turns)] == g.part)
    for border in itertools.chain.from_iterable(mine):
        keys = [_image_key(g.n, border.rows, border.cols, border.k, i) for i in range(8)]
        g.fix = [i for i in range(8) if keys[i] == keys[0]]
        g.image = [i for i in range(8) if keys[i] not in keys[:i]]
        b = _prepare(g.n, border.rows, border.cols, border.k)
        assert b is not None
        g.p[0], g.p[m], g.p[border.left], g.p[border.right] = border.top, border.bottom, 0, m
        if b.levels == 0:
            _gathered(g)
        elif b.levels == 1:
            if b.avail & ~b.blocked[0]:
                g.p[b.row[0]] = b.avail.bit_length() - 1
                _gathered(g)
        else:
            _gather(g, b, 0, b.avail, 0, 0)


class Gathered:
    """Every solution (or one per symmetry class) of a board of 2 to
    GATHER_MAX_N, in lexicographic order, held as packed keys.

    With parts > 1 it gathers part `part` of them (a share of the borders),
    so that threads can gather the parts at once; take() merges the others
    in, and placements() hands them out once every part is held."""

    def __init__(self, n: int, unique: bool, part: int = 0, parts: int = 1) -> None:
        n = _int(n)
        unique = bool(unique)
        k, i = _int(parts), _int(part)
        if not 2 <= n <= GATHER_MAX_N:
            raise ValueError(f"Gathered takes boards of 2 to {GATHER_MAX_N}")
        if not (1 <= k <= 64 and 0 <= i < k):
            raise ValueError(f"Gathered takes part 0 to parts - 1 of 1 to 64 parts, got {i} of {k}")
        g = _Gather(n, unique, i, k)
        _gather_all(g)
        # the .pyx sorts by radix; any sort gives the same order
        self._keys = sorted(g.keys)
        self._n, self._unique, self._parts, self._held = n, unique, k, 1 << i
        self.size = len(self._keys)

    def take(self, other: Gathered) -> None:
        """Merge in the placements of other, parts of the same gathering that
        this one does not hold yet (other is left as it was)."""
        if not isinstance(other, Gathered):
            raise TypeError(f"take() merges a Gathered, not {type(other).__name__}")
        if (other._n, other._unique, other._parts) != (self._n, self._unique, self._parts):
            raise ValueError("take() merges parts of the same board, uniqueness and parts")
        if other._held & self._held:
            raise ValueError("take() merges parts not held yet")
        self._keys = list(heapq.merge(self._keys, other._keys))
        self._held |= other._held
        self.size = len(self._keys)

    def placements(self, start: int, stop: int) -> Iterator[tuple[int, ...]]:
        """An iterator over placements start to stop - 1, a tuple each."""
        start, stop = _long(start), _long(stop)
        if not 0 <= start <= stop <= self.size:
            raise IndexError("placements out of range")
        if self._held != (1 << self._parts) - 1:
            raise ValueError("a part of the placements: take() the others first")
        n = self._n
        return (
            tuple(key >> 4 * (n - 1 - r) & 15 for r in range(n)) for key in self._keys[start:stop]
        )


class Placements:
    """An iterator over a gathered table's placements, each tuple made as
    it is asked for (with no list or other iterator between it and the
    loop).  Placements(make, limit): make() is called at the first next()
    and returns the Gathered table, whose first `limit` placements follow
    (None: all), so that the gathering waits for the first next().
    Gathered.placements(start, stop) iterates a slice of a table at hand."""

    def __init__(self, make: Callable[[], Gathered] | None = None, limit: int | None = None):
        if make is not None and not callable(make):
            raise TypeError(f"make must be callable, not {type(make).__name__}")
        if limit is not None:
            limit = _long(limit)
            if limit < 0:
                raise ValueError("limit must be None or an int >= 0")
        self._placements = self._gathered(make, limit)

    @staticmethod
    def _gathered(
        make: Callable[[], Gathered] | None, limit: int | None
    ) -> Iterator[tuple[int, ...]]:
        if make is None:
            return
        table = make()
        if not isinstance(table, Gathered):
            raise TypeError(f"make() must return a Gathered, not {type(table).__name__}")
        yield from table.placements(0, table.size if limit is None else min(limit, table.size))

    def __iter__(self) -> Placements:
        return self

    def __next__(self) -> tuple[int, ...]:
        return next(self._placements)


def _image_precedes(p: list[int], src: list[int], n: int, flip_rows: bool, flip_cols: bool) -> bool:
    for i in range(n):
        q = src[n - 1 - i] if flip_rows else src[i]
        if flip_cols:
            q = n - 1 - q
        if q != p[i]:
            return q < p[i]
    return False


def _is_canonical(p: list[int], n: int) -> bool:
    inv = [0] * n
    for i in range(n):
        inv[p[i]] = i
    return not (
        _image_precedes(p, p, n, False, True)
        or _image_precedes(p, p, n, True, False)
        or _image_precedes(p, p, n, True, True)
        or _image_precedes(p, inv, n, False, False)
        or _image_precedes(p, inv, n, False, True)
        or _image_precedes(p, inv, n, True, False)
        or _image_precedes(p, inv, n, True, True)
    )


class Enumerator:
    """Resumable depth-first walk over the solutions that extend a prefix.

    The search stack lives in the object, so a walk can stop after a given
    number of solutions or nodes and carry on later from the same place.
    """

    def __init__(
        self,
        n: int,
        prefix: Iterable[int],
        unique: bool,
        rows: Sequence[int] = (),
        cols: Sequence[int] = (),
    ) -> None:
        if getattr(self, "_busy", False):
            raise RuntimeError("this Enumerator is in use by another thread")
        self.ready = False
        unique = bool(unique)
        n = _board(n)
        queen_rows, queen_cols = _load_queens(n, rows, cols)
        if unique and queen_rows:
            raise ValueError("a unique walk takes no placed queens")
        prefix = tuple([_int(c) for c in prefix])
        if len(prefix) > n:
            raise ValueError(f"a prefix of {len(prefix)} rows does not fit a board of {n}")
        for c in prefix:
            if not 0 <= c < n:
                raise ValueError(f"column {c} is off the board of {n}")
        self.n = n
        self.unique = unique
        self.full = _full_mask(n)
        self.cols = [0] * (n + 1)
        self.ld = [0] * (n + 1)
        self.rd = [0] * (n + 1)
        self.free = [0] * (n + 1)
        self.allowed = [self.full] * (n + 1)
        for qr, qc in zip(queen_rows, queen_cols):
            bit = 1 << qc
            for r in range(n):
                if r == qr:
                    self.allowed[r] &= bit
                else:
                    self.allowed[r] &= ~(bit | _attacked(n, r, qr, qc))
        self.placement = [0] * n
        self.done = False
        r = 0
        for c in prefix:
            bit = 1 << c
            if (self.cols[r] | self.ld[r] | self.rd[r]) & bit or not self.allowed[r] & bit:
                self.done = True
            self.placement[r] = c
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = ((self.ld[r] | bit) << 1) & self.full
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            r += 1
        self.start = self.row = r
        if unique:
            self.allowed[0] = _full_mask((n + 1) // 2)
            if r > 0:
                self._bound(self.placement[0])
        if r < n:
            self._open_row()
        self.ready = True

    def _bound(self, d: int) -> None:
        # the .pyx explains these bounds of a canonical placement
        n = self.n
        if n < 2:
            return
        edges = 1 | 1 << (n - 1)
        for r in range(1, n):
            self.allowed[r] = self.full
            if r < d or r > n - 1 - d:
                self.allowed[r] &= ~edges
        self.allowed[n - 1] &= _full_mask(n - d) & ~_full_mask(d)

    def _open_row(self) -> None:
        r = self.row
        self.free[r] = self.allowed[r] & ~(self.cols[r] | self.ld[r] | self.rd[r])

    def _walk(self, out: bytearray, max_count: int, max_nodes: int) -> int:
        found = 0
        n = self.n
        while found < max_count and max_nodes > 0 and not self.done:
            r = self.row
            if r == n:
                if not self.unique or _is_canonical(self.placement, n):
                    out[found * n : found * n + n] = bytes(self.placement)
                    found += 1
                self._retreat()
                continue
            f = self.free[r]
            if f == 0:
                self._retreat()
                continue
            max_nodes -= 1
            if n - r <= _TAIL_ROWS and max_count - found >= _TAIL_MOST:
                found = self._tail(r, f, self.cols[r], self.ld[r], self.rd[r], out, found)
                self.free[r] = 0
                continue
            bit = f & -f
            self.free[r] = f ^ bit
            self.placement[r] = bit.bit_length() - 1
            if r == 0 and self.unique:
                self._bound(self.placement[0])
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = ((self.ld[r] | bit) << 1) & self.full
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            self.row = r + 1
            if r + 1 < n:
                self._open_row()
        return found

    def _tail(
        self, r: int, free: int, cols: int, ld: int, rd: int, out: bytearray, found: int
    ) -> int:
        n = self.n
        while free:
            bit = free & -free
            free ^= bit
            self.placement[r] = bit.bit_length() - 1
            if r + 1 == n:
                if not self.unique or _is_canonical(self.placement, n):
                    out[found * n : found * n + n] = bytes(self.placement)
                    found += 1
                continue
            f = self.allowed[r + 1] & ~(cols | bit | ((ld | bit) << 1) | ((rd | bit) >> 1))
            if f:
                found = self._tail(
                    r + 1, f, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, out, found
                )
        return found

    def _retreat(self) -> None:
        self.row -= 1
        if self.row < self.start:
            self.done = True

    def fill(self, out: bytearray, max_count: int, max_nodes: int) -> int:
        """Write up to max_count placements into out; return how many."""
        view = _buffer(out)  # in the .pyx's order
        max_count, max_nodes = _int(max_count), _long(max_nodes)
        if not getattr(self, "ready", False):
            raise ValueError("the walk was not set up: call Enumerator(n, prefix, unique)")
        if max_count < 0 or len(view) < max_count * self.n:
            raise ValueError(f"out holds {len(view)} bytes, too few for {max_count} placements")
        with _InUse(self, "this Enumerator is"):
            return self._walk(out, max_count, max_nodes)
