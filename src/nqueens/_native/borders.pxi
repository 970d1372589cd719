# Included by _bitsolver.pyx (one file per algorithm; shared names live there).
# The canonical borders: the queens of the top and bottom rows and the left
# and right columns, one per orbit of the square's symmetries, with its size.

cdef uint64_t _image_key(int n, const int *rows, const int *cols, int k,
                         int symmetry) noexcept nogil:
    # The squares under one of the 8 symmetries, sorted, packed in 64 bits
    cdef int v[4]
    cdef int i, j, r, c, t, m = n - 1
    cdef uint64_t key = 0
    for i in range(k):
        r = rows[i]
        c = cols[i]
        if symmetry & 1:  # reflect the columns
            c = m - c
        if symmetry & 2:  # reflect the rows
            r = m - r
        if symmetry & 4:  # transpose
            r, c = c, r
        v[i] = r * _MAX_N + c
    for i in range(1, k):
        t = v[i]
        j = i - 1
        while j >= 0 and v[j] > t:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = t
    for i in range(k):
        key = key << 13 | v[i]
    return key


cdef int _border(int n, int top, int bottom, int left, int right, int *rows,
                 int *cols) noexcept nogil:
    # The distinct queens of the border: row 0's in column top, row n-1's in
    # column bottom, column 0's in row left, column n-1's in row right (a
    # corner queen is on two borders).  0 if the corners disagree.
    cdef int m = n - 1, k = 2
    if ((top == 0) != (left == 0) or (top == m) != (right == 0)
            or (bottom == 0) != (left == m) or (bottom == m) != (right == m)):
        return 0
    rows[0] = 0
    cols[0] = top
    rows[1] = m
    cols[1] = bottom
    if 0 < left < m:
        rows[k] = left
        cols[k] = 0
        k += 1
    if 0 < right < m:
        rows[k] = right
        cols[k] = m
        k += 1
    return k


cdef int _orbit(int n, const int *rows, const int *cols, int k) noexcept nogil:
    # How many distinct images the border queens have under the 8
    # symmetries, or 0 unless they are the smallest of them (canonical).
    cdef uint64_t keys[8]
    cdef int s, t, distinct = 0
    for s in range(8):
        keys[s] = _image_key(n, rows, cols, k, s)
        if keys[s] < keys[0]:
            return 0
    for s in range(8):
        for t in range(s):
            if keys[t] == keys[s]:
                break
        else:
            distinct += 1
    return distinct


cdef inline bint _attack(int n, int top, int bottom) noexcept nogil:
    # whether the queens of the top and bottom rows attack each other
    return top == bottom or top - bottom == n - 1 or bottom - top == n - 1


cdef int _constellation(int n, int top, int bottom, int left, int right,
                        int *rows, int *cols, int *k) noexcept nogil:
    # The weight of a canonical, consistent border (0 for any other); its
    # k queens in rows and cols
    k[0] = _border(n, top, bottom, left, right, rows, cols)
    if k[0] == 0 or not _apart(rows, cols, k[0]):
        return 0
    return _orbit(n, rows, cols, k[0])


cdef struct _Borders:
    # A walk over the canonical borders of an n board, (top, left, right,
    # bottom) in increasing order, so that borders alike at the top (which
    # can share a table of the last rows) come together; each with its
    # weight and its k queens
    int n
    int top
    int bottom
    int left
    int right
    int weight
    int k
    int rows[4]
    int cols[4]


cdef void _first_border(_Borders *it, int n) noexcept nogil:
    it.n = n
    it.top = it.left = it.right = 0
    it.bottom = -1


cdef bint _next_border(_Borders *it) noexcept nogil:
    # Step to the next canonical border; False past the last.  A canonical
    # border's top queen is no further from a corner than the others (each
    # image starts with one of them), so only top <= (n-1)/2 and the others
    # in top..n-1-top are tried: a sixteenth of the n**4 candidates.
    cdef int n = it.n, last
    while True:
        last = n - 1 - it.top
        it.bottom += 1
        if it.bottom > last:
            it.bottom = it.top
            it.right += 1
        if it.right > last:
            it.right = it.top
            it.left += 1
        if it.left > last:
            it.top += 1
            it.left = it.right = it.bottom = it.top
        if 2 * it.top > n - 1:
            return False
        if _attack(n, it.top, it.bottom):
            continue
        it.weight = _constellation(n, it.top, it.bottom, it.left, it.right,
                                   it.rows, it.cols, &it.k)
        if it.weight:
            return True


def constellations(n):
    """[(weight, top, bottom, left, right)] for every canonical border of n >= 2."""
    cdef _Borders it
    found = []
    _first_border(&it, _board(n))
    while _next_border(&it):
        found.append((it.weight, it.top, it.bottom, it.left, it.right))
    return found


def count_solutions(n, stop):
    """All solutions of an n board: each canonical border times its orbit."""
    return _count_solutions(_board(n), _buffer(stop))


cdef object _count_solutions(int n, const unsigned char[::1] stop):
    cdef _Borders it
    cdef _Upper u
    cdef uint64_t total = 0
    cdef volatile unsigned char *flag
    _check_stop(stop)
    flag = <volatile unsigned char *>&stop[0]
    if n <= 1:
        return 1
    memset(&u, 0, sizeof(_Upper))
    with nogil:
        _first_border(&it, n)
        while not flag[0] and _next_border(&it):
            total += it.weight * _count_preset(
                n, it.rows, it.cols, it.k, -1, &u, flag)
        _release_upper(&u)
    return total
