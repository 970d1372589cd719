# cython: language_level=3, boundscheck=False, wraparound=False
# cython: cdivision=True, initializedcheck=False, embedsignature=True
#
# The native core: row-by-row backtracking on bitmasks.
#
# Bit c of a mask stands for column c of the row about to be filled.  Three
# masks describe what the queens already placed attack there: `cols`, the
# occupied columns; `ld`, the diagonals that run down and to the right (each
# is one column further right in the next row, so the mask shifts left); and
# `rd`, the diagonals running down and to the left (shifting right).  The
# free squares are `full & ~(cols | ld | rd)`, and `free & -free` takes the
# lowest one, so columns are tried in increasing order and solutions come
# out in lexicographic order.  Bits shifted past either edge of the 64-bit
# word lie off the board and are lost harmlessly.
#
# This file takes checked C integers only: validation, defaults and
# documentation live in the Python layer (nqueens._api), once.

from libc.stdint cimport uint64_t
from libc.string cimport memset

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

cdef enum:
    _MAX_N = 64
    # Below this many empty rows a subtree is small enough to finish before
    # looking at the stop flag again.
    _POLL_ROWS = 10

MAX_N = _MAX_N


cdef inline uint64_t _full_mask(int n) noexcept nogil:
    return 0 if n == 0 else (<uint64_t>~0ULL) >> (64 - n)


cdef uint64_t _completions(uint64_t avail, uint64_t ld,
                           uint64_t rd) noexcept nogil:
    # avail: the columns still empty (one per row left), so the board mask
    # and the row count need not be passed down.
    cdef uint64_t free = avail & ~(ld | rd), bit, total = 0
    if avail & (avail - 1) == 0:
        # one row is left: it holds its queen or the branch fails
        return free != 0
    while free:
        bit = free & (0 - free)
        free ^= bit
        total += _completions(avail ^ bit, (ld | bit) << 1, (rd | bit) >> 1)
    return total


cdef uint64_t _completions_polled(uint64_t avail, uint64_t ld, uint64_t rd,
                                  int rows_left,
                                  volatile unsigned char *stop) noexcept nogil:
    # The same search, looking at the stop flag on each node of the upper
    # rows: below them a subtree is small enough to finish first.
    cdef uint64_t free = avail & ~(ld | rd), bit, total = 0
    if rows_left < _POLL_ROWS:
        return 1 if rows_left == 0 else _completions(avail, ld, rd)
    while free and not stop[0]:
        bit = free & (0 - free)
        free ^= bit
        total += _completions_polled(avail ^ bit, (ld | bit) << 1,
                                     (rd | bit) >> 1, rows_left - 1, stop)
    return total


def count_completions(int n, int row, uint64_t cols, uint64_t ld, uint64_t rd,
                      unsigned char[::1] stop):
    """Completions of rows row..n-1, given the masks the placed rows leave."""
    cdef uint64_t total, avail = _full_mask(n) & ~cols
    cdef volatile unsigned char *flag = &stop[0]
    with nogil:
        total = _completions_polled(avail, ld, rd, n - row, flag)
    return total


def count_solutions(int n, unsigned char[::1] stop):
    """All solutions of an n board, with the mirror symmetry of row 0."""
    cdef uint64_t full = _full_mask(n), bit, total = 0
    cdef volatile unsigned char *flag = &stop[0]
    cdef int c
    if n == 0:
        return 1
    with nogil:
        # a queen in the left half of row 0 stands for itself and its mirror
        for c in range(n // 2):
            bit = (<uint64_t>1) << c
            total += 2 * _completions_polled(full ^ bit, bit << 1, bit >> 1,
                                             n - 1, flag)
        if n % 2:
            bit = (<uint64_t>1) << (n // 2)
            total += _completions_polled(full ^ bit, bit << 1, bit >> 1,
                                         n - 1, flag)
    return total


cdef struct _Pairs:
    # a search over placements invariant under the half turn: the queen at
    # (r, c) brings its image (n-1-r, n-1-c), so rows are placed in pairs
    int n
    int column[_MAX_N]
    unsigned char used[_MAX_N]
    unsigned char down[2 * _MAX_N]
    unsigned char up[2 * _MAX_N]
    uint64_t half_turn
    uint64_t quarter_turn


cdef inline bint _free(_Pairs *s, int r, int c) noexcept nogil:
    return not (s.used[c] or s.down[r - c + s.n - 1] or s.up[r + c])


cdef inline void _mark(_Pairs *s, int r, int c, unsigned char on) noexcept nogil:
    s.used[c] = on
    s.down[r - c + s.n - 1] = on
    s.up[r + c] = on
    s.column[r] = c


cdef void _pair_rows(_Pairs *s, int r) noexcept nogil:
    cdef int n = s.n, c, r2 = n - 1 - r, i
    if r > r2 or (r == r2 and _free(s, r, r)):
        # complete (the middle row of an odd board takes the centre)
        s.half_turn += 1
        if r == r2:
            s.column[r] = r
        for i in range(n):
            # invariant under the quarter turn: (i, c) -> (c, n-1-i)
            if s.column[s.column[i]] != n - 1 - i:
                return
        s.quarter_turn += 1
        return
    if r == r2:
        return
    for c in range(n):
        if not _free(s, r, c):
            continue
        _mark(s, r, c, 1)
        if _free(s, r2, n - 1 - c):
            _mark(s, r2, n - 1 - c, 1)
            _pair_rows(s, r + 1)
            _mark(s, r2, n - 1 - c, 0)
        _mark(s, r, c, 0)


def count_symmetric(int n):
    """(P, R): the solutions kept by the half turn, and by the quarter turn."""
    cdef _Pairs s
    memset(&s, 0, sizeof(s))
    s.n = n
    with nogil:
        _pair_rows(&s, 0)
    return s.half_turn, s.quarter_turn


cdef bint _image_precedes(const unsigned char *p, const unsigned char *src,
                          int n, bint flip_rows, bint flip_cols) noexcept nogil:
    # Whether the image of p read from src (p or its inverse), with rows
    # and/or columns reversed, comes lexicographically before p itself.
    cdef int i, q
    for i in range(n):
        q = src[n - 1 - i] if flip_rows else src[i]
        if flip_cols:
            q = n - 1 - q
        if q != p[i]:
            return q < p[i]
    return False


cdef bint _is_canonical(const unsigned char *p, int n) noexcept nogil:
    # The 8 images of a placement are p and its inverse (the transpose),
    # each with or without its rows and its columns reversed.
    cdef unsigned char inv[_MAX_N]
    cdef int i
    for i in range(n):
        inv[p[i]] = i
    return not (_image_precedes(p, p, n, False, True)
                or _image_precedes(p, p, n, True, False)
                or _image_precedes(p, p, n, True, True)
                or _image_precedes(p, inv, n, False, False)
                or _image_precedes(p, inv, n, False, True)
                or _image_precedes(p, inv, n, True, False)
                or _image_precedes(p, inv, n, True, True))


cdef class Enumerator:
    """Resumable depth-first walk over the solutions that extend a prefix.

    The search stack lives in the object, so a walk can stop after a given
    number of solutions or nodes and carry on later from the same place.
    """
    cdef int n, row, start
    cdef bint unique
    cdef readonly bint done
    cdef uint64_t full
    cdef uint64_t cols[_MAX_N + 1]
    cdef uint64_t ld[_MAX_N + 1]
    cdef uint64_t rd[_MAX_N + 1]
    cdef uint64_t free[_MAX_N + 1]
    cdef unsigned char placement[_MAX_N]

    def __init__(self, int n, prefix, bint unique):
        cdef int r, c
        cdef uint64_t bit
        self.n = n
        self.unique = unique
        self.full = _full_mask(n)
        self.cols[0] = self.ld[0] = self.rd[0] = 0
        self.done = False
        r = 0
        for c in prefix:
            bit = (<uint64_t>1) << c
            if (self.cols[r] | self.ld[r] | self.rd[r]) & bit:
                self.done = True
            self.placement[r] = c
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = (self.ld[r] | bit) << 1
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            r += 1
        self.start = self.row = r
        if r < n:
            self._open_row()
            if unique and r == 0:
                # a canonical placement is no greater than its mirror image
                self.free[0] &= _full_mask((n + 1) // 2)

    cdef inline void _open_row(self) noexcept nogil:
        cdef int r = self.row
        self.free[r] = self.full & ~(self.cols[r] | self.ld[r] | self.rd[r])

    cdef int _walk(self, unsigned char *out, int max_count,
                   long long max_nodes) noexcept nogil:
        # Advance to the next max_count solutions (written to out, n bytes
        # each) or by max_nodes squares, whichever ends first; return how
        # many solutions were found.
        cdef int found = 0, r, n = self.n
        cdef uint64_t f, bit
        while found < max_count and max_nodes > 0 and not self.done:
            r = self.row
            if r == n:
                if not self.unique or _is_canonical(self.placement, n):
                    for r in range(n):
                        out[found * n + r] = self.placement[r]
                    found += 1
                self._retreat()
                continue
            f = self.free[r]
            if f == 0:
                self._retreat()
                continue
            max_nodes -= 1
            bit = f & (0 - f)
            self.free[r] = f ^ bit
            self.placement[r] = __builtin_ctzll(bit)
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = (self.ld[r] | bit) << 1
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            self.row = r + 1
            if r + 1 < n:
                self._open_row()
        return found

    cdef inline void _retreat(self) noexcept nogil:
        self.row -= 1
        if self.row < self.start:
            self.done = True

    def fill(self, unsigned char[::1] out, int max_count, long long max_nodes):
        """Write up to max_count placements into out; return how many."""
        cdef int found
        cdef unsigned char *buf = &out[0]
        with nogil:
            found = self._walk(buf, max_count, max_nodes)
        return found
