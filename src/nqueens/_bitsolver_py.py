"""Pure-Python twin of ``_bitsolver.pyx``: the same names and the same algorithm.

It is the fallback where the extension is missing and the readable
specification of the native core; see the .pyx for how the masks work.
Arguments are already checked by ``nqueens._api``.
"""

from __future__ import annotations

from collections.abc import Iterable

MAX_N = 64
_POLL_ROWS = 10


def _full_mask(n: int) -> int:
    return (1 << n) - 1


def _completions(avail: int, ld: int, rd: int) -> int:
    free = avail & ~(ld | rd)
    if avail & (avail - 1) == 0:
        return 1 if free else 0
    total = 0
    while free:
        bit = free & -free
        free ^= bit
        total += _completions(avail ^ bit, (ld | bit) << 1, (rd | bit) >> 1)
    return total


def _completions_polled(avail: int, ld: int, rd: int, rows_left: int, stop: bytearray) -> int:
    if rows_left < _POLL_ROWS:
        return 1 if rows_left == 0 else _completions(avail, ld, rd)
    free = avail & ~(ld | rd)
    total = 0
    while free and not stop[0]:
        bit = free & -free
        free ^= bit
        total += _completions_polled(
            avail ^ bit, (ld | bit) << 1, (rd | bit) >> 1, rows_left - 1, stop
        )
    return total


def count_completions(n: int, row: int, cols: int, ld: int, rd: int, stop: bytearray) -> int:
    """Completions of rows row..n-1, given the masks the placed rows leave."""
    avail = _full_mask(n) & ~cols
    return _completions_polled(avail, ld, rd, n - row, stop)


def count_solutions(n: int, stop: bytearray) -> int:
    """All solutions of an n board, with the mirror symmetry of row 0."""
    if n == 0:
        return 1
    full = _full_mask(n)
    total = 0
    for c in range(n // 2):
        bit = 1 << c
        total += 2 * _completions_polled(full ^ bit, bit << 1, bit >> 1, n - 1, stop)
    if n % 2:
        bit = 1 << (n // 2)
        total += _completions_polled(full ^ bit, bit << 1, bit >> 1, n - 1, stop)
    return total


def count_symmetric(n: int) -> tuple[int, int]:
    """(P, R): the solutions invariant under the half turn, and under the quarter turn."""
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
        if r == r2:
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

    def __init__(self, n: int, prefix: Iterable[int], unique: bool) -> None:
        self.n = n
        self.unique = unique
        self.full = _full_mask(n)
        self.cols = [0] * (n + 1)
        self.ld = [0] * (n + 1)
        self.rd = [0] * (n + 1)
        self.free = [0] * (n + 1)
        self.placement = [0] * n
        self.done = False
        r = 0
        for c in prefix:
            bit = 1 << c
            if (self.cols[r] | self.ld[r] | self.rd[r]) & bit:
                self.done = True
            self.placement[r] = c
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = ((self.ld[r] | bit) << 1) & self.full
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            r += 1
        self.start = self.row = r
        if r < n:
            self._open_row()
            if unique and r == 0:
                self.free[0] &= _full_mask((n + 1) // 2)

    def _open_row(self) -> None:
        r = self.row
        self.free[r] = self.full & ~(self.cols[r] | self.ld[r] | self.rd[r])

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
            bit = f & -f
            self.free[r] = f ^ bit
            self.placement[r] = bit.bit_length() - 1
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = ((self.ld[r] | bit) << 1) & self.full
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            self.row = r + 1
            if r + 1 < n:
                self._open_row()
        return found

    def _retreat(self) -> None:
        self.row -= 1
        if self.row < self.start:
            self.done = True

    def fill(self, out: bytearray, max_count: int, max_nodes: int) -> int:
        """Write up to max_count placements into out; return how many."""
        return self._walk(out, max_count, max_nodes)
