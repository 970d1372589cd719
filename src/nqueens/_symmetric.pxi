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


def count_symmetric(n):
    """(P, R): the solutions kept by the half turn, and by the quarter turn."""
    cdef _Pairs s
    memset(&s, 0, sizeof(s))
    s.n = _board(n)
    with nogil:
        _pair_rows(&s, 0)
    return s.half_turn, s.quarter_turn
