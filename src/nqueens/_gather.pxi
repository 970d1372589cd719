# Included by _bitsolver.pyx (one file per algorithm; shared names live there).
# Every solution of a board at once, gathered from the symmetric search and
# radix-sorted (Gathered).

# Every solution of a board at once, from the same symmetric search as the
# count, its last rows met from the same tables (their entries also keep
# their queens' columns): each canonical border's completions, mapped by one symmetry from
# each coset of the border's stabiliser (so each solution comes once),
# packed into 64-bit keys whose order is the lexicographic order, then
# sorted.  For unique=True a completion is kept only if no symmetry that
# fixes its border maps it lower, and its smallest image is kept.

cdef struct _Gather:
    int n
    bint unique
    int images  # symmetries that map the border to each distinct image
    int image[8]
    int fixing  # symmetries that leave the border in place
    int fix[8]
    unsigned char p[_MAX_N]  # the placement being completed
    uint64_t *keys
    size_t size
    size_t room
    bint failed  # out of memory


cdef void _placement_keys(const unsigned char *p, int n,
                          uint64_t *keys) noexcept nogil:
    # p's images under the 8 symmetries (numbered as in _image_key), each
    # packed with its row 0 in the highest 4 bits.  Reflecting the columns
    # turns each digit d into n-1-d, a subtraction from all digits n-1.
    cdef int r, c, m = n - 1
    cdef uint64_t same = 0, rows_reflected = 0, transposed = 0, turned = 0
    cdef uint64_t top = 0
    for r in range(n):
        c = p[r]
        same |= (<uint64_t>c) << 4 * (m - r)
        rows_reflected |= (<uint64_t>c) << 4 * r
        transposed |= (<uint64_t>r) << 4 * (m - c)
        turned |= (<uint64_t>r) << 4 * c
        top = top << 4 | m
    keys[0] = same
    keys[1] = top - same
    keys[2] = rows_reflected
    keys[3] = top - rows_reflected
    keys[4] = transposed
    keys[5] = turned
    keys[6] = top - transposed
    keys[7] = top - turned


cdef void _keep(_Gather *g, uint64_t key) noexcept nogil:
    cdef size_t room
    cdef uint64_t *keys
    if g.size == g.room:
        room = 2 * g.room + 1024
        keys = <uint64_t *>realloc(g.keys, room * sizeof(uint64_t))
        if keys == NULL:
            g.failed = True
            return
        g.keys = keys
        g.room = room
    g.keys[g.size] = key
    g.size += 1


cdef void _gathered(_Gather *g) noexcept nogil:
    # g.p is a completion of the border: keep its images
    cdef int i
    cdef uint64_t keys[8]
    cdef uint64_t least
    _placement_keys(g.p, g.n, keys)
    if not g.unique:
        for i in range(g.images):
            _keep(g, keys[g.image[i]])
        return
    least = keys[0]
    for i in range(g.fixing):
        if keys[g.fix[i]] < least:
            return  # its class is kept through that image
    for i in range(1, 8):
        if keys[i] < least:
            least = keys[i]
    _keep(g, least)


cdef void _gather_matches(_Gather *g, const _Upper *u, uint64_t avail, uint64_t ld,
                          uint64_t rd) noexcept nogil:
    # the table's placements that complete the search here (as _matches counts
    # them), each written into g.p and kept
    cdef unsigned int k = _bucket(u, avail), i
    cdef uint64_t key = (ld & _LOW32) | rd << 32 | u.seed, columns
    cdef int j
    for i in range(u.start[k], u.start[k + 1]):
        if u.entry[i] & key == 0:
            columns = u.entry_columns[i]
            for j in range(u.rows):
                g.p[u.row_of[j]] = (columns >> (4 * j)) & 15
            _gathered(g)


cdef void _gather(_Gather *g, const _Level *lv, const int *row,
                  int levels_left, uint64_t avail, uint64_t ld,
                  uint64_t rd, const _Upper *u) noexcept nogil:
    # the counting search, writing each queen into g.p, its last levels met
    # from the table u as the count meets them; levels_left >= 2
    cdef uint64_t free = avail & ~(ld | rd | lv.blocked), bit, last
    cdef uint64_t s = lv.shift
    if lv == u.boundary:
        _gather_matches(g, u, avail, ld, rd)
        return
    while free:
        bit = free & (0 - free)
        free ^= bit
        g.p[row[0]] = nq_ctz64(bit)
        if levels_left > 2:
            _gather(g, lv + 1, row + 1, levels_left - 1, avail ^ bit,
                    (ld | bit) << s, (rd | bit) >> s, u)
            continue
        # the last level: its one column holds a queen or the branch fails
        last = avail ^ bit
        if last & ~(((ld | bit) << s) | ((rd | bit) >> s) | lv[1].blocked):
            g.p[row[1]] = nq_ctz64(last)
            _gathered(g)


cdef void _radix_sort(uint64_t *keys, uint64_t *spare, size_t size,
                      int shift, int bits) noexcept nogil:
    # by bits shift to bits - 1 of the keys (the lower ones order none of
    # them), least significant _RADIX_BITS first; the result ends in keys
    cdef size_t count[1 << _RADIX_BITS]
    cdef size_t i, at, c
    cdef int d
    cdef uint64_t *t
    cdef uint64_t *source = keys
    cdef uint64_t digits = (1 << _RADIX_BITS) - 1
    if size == 0:  # keys may be NULL: nothing to sort (memcpy takes no NULL)
        return
    while shift < bits:
        memset(count, 0, sizeof(count))
        for i in range(size):
            count[source[i] >> shift & digits] += 1
        at = 0
        for d in range(1 << _RADIX_BITS):
            c = count[d]
            count[d] = at
            at += c
        for i in range(size):
            c = source[i] >> shift & digits
            spare[count[c]] = source[i]
            count[c] += 1
        t = source
        source = spare
        spare = t
        shift += _RADIX_BITS
    if source != keys:
        memcpy(keys, source, size * sizeof(uint64_t))


cdef void _gather_all(_Gather *g) noexcept nogil:
    cdef int m = g.n - 1, i, j, upper
    cdef uint64_t keys[8]
    cdef _Borders it
    cdef _Preset b
    cdef _Upper u
    memset(&u, 0, sizeof(_Upper))
    u.with_columns = True
    _first_border(&it, g.n)
    while _next_border(&it) and not g.failed:
        g.images = g.fixing = 0
        for i in range(8):
            keys[i] = _image_key(g.n, it.rows, it.cols, it.k, i)
            if keys[i] == keys[0]:
                g.fix[g.fixing] = i
                g.fixing += 1
            for j in range(i):
                if keys[j] == keys[i]:
                    break
            else:
                g.image[g.images] = i
                g.images += 1
        _prepare(&b, g.n, it.rows, it.cols, it.k)
        g.p[0] = it.top
        g.p[m] = it.bottom
        g.p[it.left] = 0
        g.p[it.right] = m
        if b.levels == 0:
            _gathered(g)
        elif b.levels == 1:
            if b.avail & ~b.level[0].blocked:
                g.p[b.row[0]] = nq_ctz64(b.avail)
                _gathered(g)
        else:
            upper = min(_upper_rows(&b), b.levels)
            if upper == 0 or not _meet(&u, &b, g.n, it.rows, it.cols, it.k, upper):
                u.boundary = NULL  # searched to the end
            _gather(g, b.level, b.row, b.levels, b.avail, 0, 0, &u)
    _release_upper(&u)


cdef class Gathered:
    """Every solution (or one per symmetry class) of a board of 2 to
    GATHER_MAX_N, in lexicographic order, held as packed keys."""
    cdef int n
    cdef uint64_t *keys
    cdef readonly Py_ssize_t size

    def __cinit__(self, size, bint unique):
        cdef _Gather g
        cdef uint64_t *spare = NULL
        cdef int n = _int(size)
        if not 2 <= n <= _GATHER_MAX_N:
            raise ValueError(f"Gathered takes boards of 2 to {_GATHER_MAX_N}")
        memset(&g, 0, sizeof(g))
        g.n = n
        g.unique = unique
        self.n = n
        with nogil:
            _gather_all(&g)
            if not g.failed:
                spare = <uint64_t *>realloc(NULL, (g.size + 1) * sizeof(uint64_t))
            if spare != NULL:
                # the last row's column follows from the others': keys that
                # differ differ above its 4 bits (n = 14: 5 passes, not 6)
                _radix_sort(g.keys, spare, g.size, 4, 4 * n)
                release(spare)
            else:
                g.failed = True
        if g.failed:
            release(g.keys)
            raise MemoryError
        self.keys = g.keys
        self.size = g.size

    def __dealloc__(self):
        release(self.keys)

    def tuples(self, Py_ssize_t start, Py_ssize_t stop):
        """Placements start to stop - 1 as a list of tuples."""
        cdef Py_ssize_t i, size = stop - start
        cdef int r, n = self.n
        cdef list found
        cdef PyObject *placement
        cdef PyObject *digit[16]
        if not 0 <= start <= stop <= self.size:
            raise IndexError("placements out of range")
        found = PyList_New(size)
        for r in range(16):
            digit[r] = <PyObject *>_DIGITS[r]
        for i in range(size):
            placement = nq_placement(n, digit, self.keys[start + i])
            if placement == NULL:
                raise MemoryError
            # a tuple of ints can hold no cycle: the collector need not
            # follow it (CPython itself untracks such tuples when it meets them)
            PyObject_GC_UnTrack(placement)
            _list_set(found, i, placement)
        return found


_DIGITS = tuple(range(16))
