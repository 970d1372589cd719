# Included by _bitsolver.pyx (one file per algorithm; shared names live there).
# The solutions a half turn or a quarter turn keeps, searched in mirrored
# pairs of rows (count_symmetric): Burnside's lemma needs them.

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
    volatile unsigned char *stop


cdef enum:
    # the first pairs of rows look at the stop flag; below them a subtree is
    # small enough to finish first (well under a millisecond at n = 27)
    _POLLED_PAIRS = 5


cdef inline bint _free(_Pairs *s, int r, int c) noexcept nogil:
    return not (s.used[c] or s.down[r - c + s.n - 1] or s.up[r + c])


cdef inline void _mark(_Pairs *s, int r, int c, unsigned char on) noexcept nogil:
    s.used[c] = on
    s.down[r - c + s.n - 1] = on
    s.up[r + c] = on
    s.column[r] = c


cdef inline bint _quarter_turned(const int *column, int n) noexcept nogil:
    # whether a placement kept by the half turn is kept by the quarter turn too:
    # (i, c) -> (c, n-1-i)
    cdef int i
    for i in range(n):
        if column[column[i]] != n - 1 - i:
            return False
    return True


cdef void _pair_rows(_Pairs *s, int r) noexcept nogil:
    cdef int n = s.n, c, r2 = n - 1 - r
    if r > r2 or (r == r2 and _free(s, r, r)):
        # complete (the middle row of an odd board takes the centre)
        s.half_turn += 1
        if r == r2:
            s.column[r] = r
        s.quarter_turn += _quarter_turned(s.column, n)
        return
    if r == r2 or (r < _POLLED_PAIRS and s.stop[0]):
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


cdef struct _Turns:
    # the same search on bitmasks, for n <= _BITS_MAX_N: a queen at (r, c) holds
    # column c, diagonal r + c of d1 and n - 1 - r + c of d2 (r - c mirrored,
    # so that a row's attacked columns are one shift of each)
    int n
    uint64_t full
    int column[_MAX_N]
    uint64_t half_turn
    uint64_t quarter_turn
    volatile unsigned char *stop


cdef enum:
    _BITS_MAX_N = 32  # 2n - 1 diagonals fit a word


cdef void _turn_rows(_Turns *s, int r, uint64_t cols, uint64_t d1, uint64_t d2) noexcept nogil:
    cdef int n = s.n, r2 = n - 1 - r, c, c2
    cdef uint64_t free, bit, cols1, d11, d21
    if r >= r2:
        if r == r2:  # the middle row of an odd board: its queen is the centre
            if (cols >> r) & 1 or (d1 >> (2 * r)) & 1 or (d2 >> (n - 1)) & 1:
                return
            s.column[r] = r
        s.half_turn += 1
        s.quarter_turn += _quarter_turned(s.column, n)
        return
    if r < _POLLED_PAIRS and s.stop[0]:
        return
    free = s.full & ~cols & ~(d1 >> r) & ~(d2 >> (n - 1 - r))
    while free:
        c = nq_ctz64(free)
        bit = free & (0 - free)
        free ^= bit
        cols1 = cols | bit
        d11 = d1 | (<uint64_t>1) << (r + c)
        d21 = d2 | (<uint64_t>1) << (n - 1 - r + c)
        c2 = n - 1 - c  # the image, at (r2, c2)
        if (cols1 >> c2) & 1 or (d11 >> (r2 + c2)) & 1 or (d21 >> (n - 1 - r2 + c2)) & 1:
            continue
        s.column[r] = c
        s.column[r2] = c2
        _turn_rows(s, r + 1, cols1 | (<uint64_t>1) << c2, d11 | (<uint64_t>1) << (r2 + c2),
                   d21 | (<uint64_t>1) << (n - 1 - r2 + c2))


def count_symmetric(n, arrays=False, const unsigned char[::1] stop=None):
    """(P, R): the solutions kept by the half turn, and by the quarter turn
    (arrays=True: by the search on arrays that boards past 32 take, for tests).
    A nonzero stop[0] ends the search within moments, its counts partial."""
    cdef _Pairs s
    cdef _Turns t
    cdef int size = _board(n)
    cdef unsigned char never = 0
    cdef volatile unsigned char *flag = &never
    if stop is not None:
        _check_stop(stop)
        flag = <volatile unsigned char *>&stop[0]
    if size <= _BITS_MAX_N and not arrays:
        memset(&t, 0, sizeof(t))
        t.n = size
        t.full = _full_mask(size)
        t.stop = flag
        with nogil:
            _turn_rows(&t, 0, 0, 0, 0)
        return t.half_turn, t.quarter_turn
    memset(&s, 0, sizeof(s))
    s.n = size
    s.stop = flag
    with nogil:
        _pair_rows(&s, 0)
    return s.half_turn, s.quarter_turn
