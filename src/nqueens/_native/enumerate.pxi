# Included by _bitsolver.pyx (one file per algorithm; shared names live there).
# The resumable walk over the solutions in lexicographic order (Enumerator).

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
    cdef bint unique, ready, busy
    cdef readonly bint done
    cdef uint64_t full
    cdef uint64_t cols[_MAX_N + 1]
    cdef uint64_t ld[_MAX_N + 1]
    cdef uint64_t rd[_MAX_N + 1]
    cdef uint64_t free[_MAX_N + 1]
    # the columns each row may take: all, but for a unique walk's bounds
    cdef uint64_t allowed[_MAX_N + 1]
    cdef unsigned char placement[_MAX_N]

    @cython.boundscheck(True)
    @cython.wraparound(True)
    def __init__(self, size, prefix, bint unique, rows=(), cols=()):
        # rows, cols: queens placed anywhere, which every solution keeps
        cdef int r, c, n, k, i
        cdef int qr[_MAX_N]
        cdef int qc[_MAX_N]
        cdef uint64_t bit
        if self.busy:
            raise RuntimeError("this Enumerator is in use by another thread")
        self.ready = False
        n = _board(size)
        k = _load_queens(n, rows, cols, qr, qc)
        if unique and k:
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
        for r in range(n + 1):
            self.allowed[r] = self.full
        for i in range(k):
            # a placed queen's row takes its column only; the other rows lose
            # the squares it attacks
            bit = (<uint64_t>1) << qc[i]
            for r in range(n):
                if r == qr[i]:
                    self.allowed[r] &= bit
                else:
                    self.allowed[r] &= ~(bit | _attacked(n, r, qr[i], qc[i]))
        self.cols[0] = self.ld[0] = self.rd[0] = 0
        self.done = False
        r = 0
        for c in prefix:
            bit = (<uint64_t>1) << c
            if (self.cols[r] | self.ld[r] | self.rd[r]) & bit or not self.allowed[r] & bit:
                self.done = True
            self.placement[r] = c
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = (self.ld[r] | bit) << 1
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            r += 1
        self.start = self.row = r
        if unique:
            # a canonical placement is no greater than its mirror image
            self.allowed[0] = _full_mask((n + 1) // 2)
            if r > 0:
                self._bound(self.placement[0])
        if r < n:
            self._open_row()
        self.ready = True

    cdef void _bound(self, int d) noexcept nogil:
        # A canonical placement's queen in row 0, in column d, is no further
        # from a corner than the other border queens (else an image would
        # start lower): columns 0 and n-1 stay empty in the first and last d
        # rows, and the last row's queen lies in columns d to n-1-d.
        cdef int r, n = self.n
        cdef uint64_t edges = 1 | (<uint64_t>1) << (n - 1)
        if n < 2:
            return
        for r in range(1, n):
            self.allowed[r] = self.full
            if r < d or r > n - 1 - d:
                self.allowed[r] &= ~edges
        self.allowed[n - 1] &= _full_mask(n - d) & ~_full_mask(d)

    cdef inline void _open_row(self) noexcept nogil:
        cdef int r = self.row
        self.free[r] = self.allowed[r] & ~(
            self.cols[r] | self.ld[r] | self.rd[r])

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
            if n - r <= _TAIL_ROWS and max_count - found >= _TAIL_MOST:
                # the last rows go by plain recursion, much faster than
                # this loop; they hold _TAIL_MOST solutions at the most
                found = self._tail(r, f, self.cols[r], self.ld[r], self.rd[r],
                                   out, found)
                self.free[r] = 0
                continue
            bit = f & (0 - f)
            self.free[r] = f ^ bit
            self.placement[r] = nq_ctz64(bit)
            if r == 0 and self.unique:
                self._bound(self.placement[0])
            self.cols[r + 1] = self.cols[r] | bit
            self.ld[r + 1] = (self.ld[r] | bit) << 1
            self.rd[r + 1] = (self.rd[r] | bit) >> 1
            self.row = r + 1
            if r + 1 < n:
                self._open_row()
        return found

    cdef int _tail(self, int r, uint64_t free, uint64_t cols, uint64_t ld,
                   uint64_t rd, unsigned char *out, int found) noexcept nogil:
        # Every solution below row r, from its free squares on, in order
        cdef uint64_t bit, f
        cdef int i, n = self.n
        while free:
            bit = free & (0 - free)
            free ^= bit
            self.placement[r] = nq_ctz64(bit)
            if r + 1 == n:
                if not self.unique or _is_canonical(self.placement, n):
                    for i in range(n):
                        out[found * n + i] = self.placement[i]
                    found += 1
                continue
            f = self.allowed[r + 1] & ~(cols | bit | ((ld | bit) << 1)
                                        | ((rd | bit) >> 1))
            if f:
                found = self._tail(r + 1, f, cols | bit, (ld | bit) << 1,
                                   (rd | bit) >> 1, out, found)
        return found

    cdef inline void _retreat(self) noexcept nogil:
        self.row -= 1
        if self.row < self.start:
            self.done = True

    def fill(self, out, max_count, max_nodes):
        """Write up to max_count placements into out; return how many."""
        return self._fill(_buffer(out), _int(max_count), _long(max_nodes))

    cdef object _fill(self, unsigned char[::1] out, int max_count, long long max_nodes):
        cdef int found
        cdef unsigned char *buf = NULL
        if not self.ready:
            raise ValueError("the walk was not set up: call Enumerator(n, prefix, unique)")
        if max_count < 0 or out.shape[0] < <Py_ssize_t>max_count * self.n:
            raise ValueError(f"out holds {out.shape[0]} bytes, too few for {max_count} placements")
        if out.shape[0] > 0:
            buf = &out[0]
        if self.busy:
            raise RuntimeError("this Enumerator is in use by another thread")
        self.busy = True
        try:
            with nogil:
                found = self._walk(buf, max_count, max_nodes)
        finally:
            self.busy = False
        return found
