# Included by _bitsolver.pyx (one file per algorithm; shared names live there).
# Every solution of a board at once, gathered from the symmetric search and
# radix-sorted (Gathered).

# Every solution of a board at once, from the same symmetric search as the
# count, its last rows met from the same tables (their entries also keep
# their queens' columns): each canonical border's completions, mapped by one symmetry from
# each coset of the border's stabiliser (so each solution comes once),
# packed into 64-bit keys whose order is the lexicographic order, then
# sorted.  For unique=True a completion is kept only if no symmetry that
# fixes its border maps it lower, and its smallest image is kept.  Else only
# the keys whose first row's queen stands in the left half (the middle
# column included) are kept: the mirror image of the others', whose order
# the mirror reverses, so that they are handed out from the same keys, read
# backwards with each column c as n - 1 - c (half the keys to sort).

cdef struct _Gather:
    int n
    bint unique
    int part  # gathers the borders of every parts-th group from group part
    int parts
    uint64_t most  # the highest key kept (unique=False: first queen left of the middle)
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
            if keys[g.image[i]] <= g.most:
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
    # a group: the borders that differ only in their bottom queen, which share
    # the table of their last rows (they come in turn); parts take the groups
    # in turn, forth and back (0, 1, 1, 0, ... for two: the groups' cost
    # falls along the order, so that plain turns load part 0 most), and each
    # builds only the tables of its own
    cdef Py_ssize_t group = -1, turn
    cdef int top = -1, left = -1, right = -1
    _first_border(&it, g.n)
    while _next_border(&it) and not g.failed:
        if it.top != top or it.left != left or it.right != right:
            top, left, right = it.top, it.left, it.right
            group += 1
        turn = group % (2 * g.parts)
        if (turn if turn < g.parts else 2 * g.parts - 1 - turn) != g.part:
            continue
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


cdef void _merge_back(uint64_t *a, size_t a_size, const uint64_t *b,
                      size_t b_size) noexcept nogil:
    # b's sorted keys into a's (which has room for both), from the back: the
    # merged keys fill a from its end, never over one of a's not yet read.
    # No branch on their order: the runs of two parts interleave at random,
    # and a branch would miss often
    cdef size_t i = a_size, j = b_size, k = a_size + b_size
    cdef uint64_t x, y
    cdef bint first
    while i > 0 and j > 0:
        x = a[i - 1]
        y = b[j - 1]
        first = x > y
        a[k - 1] = x if first else y
        i -= first
        j -= 1 - first
        k -= 1
    if j > 0:  # then i == 0 and k == j: b's smallest go in front
        memcpy(a, b, j * sizeof(uint64_t))


_DIGITS = tuple(range(16))


cdef Py_ssize_t _left_of_middle(const uint64_t *keys, Py_ssize_t size, int n) noexcept:
    # how many of the sorted keys have their first queen left of the middle
    # column (for even n, all): a binary search
    cdef uint64_t middle = (<uint64_t>(n // 2)) << 4 * (n - 1)
    cdef Py_ssize_t low = 0, high = size, mid
    while low < high:
        mid = (low + high) // 2
        if keys[mid] < middle:
            low = mid + 1
        else:
            high = mid
    return low


cdef class Gathered:
    """Every solution (or one per symmetry class) of a board of 2 to
    GATHER_MAX_N, in lexicographic order, held as packed keys.

    With parts > 1 it gathers part `part` of them (a share of the borders),
    so that threads can gather the parts at once; take() merges the others
    in, and placements() hands them out once every part is held."""
    cdef int n
    cdef bint unique
    cdef int parts
    cdef uint64_t held  # the parts held, a bit each
    cdef uint64_t *keys  # sorted; unique=False: those of a first queen left of the middle
    cdef Py_ssize_t kept  # the keys
    cdef Py_ssize_t left  # the first of them, whose queen stands left of the middle column
    cdef readonly Py_ssize_t size  # kept + left for unique=False: those read mirrored
    cdef PyObject *digit[16]  # the ints 0 to 15 (of _DIGITS, which holds them)
    cdef PyObject *mirrored[16]  # column c read as n - 1 - c

    def __cinit__(self, size, bint unique, part=0, parts=1):
        cdef _Gather g
        cdef uint64_t *spare = NULL
        cdef int n = _int(size)
        cdef int k = _int(parts), i = _int(part), r
        if not 2 <= n <= _GATHER_MAX_N:
            raise ValueError(f"Gathered takes boards of 2 to {_GATHER_MAX_N}")
        if not 1 <= k <= 64 or not 0 <= i < k:
            raise ValueError(f"Gathered takes part 0 to parts - 1 of 1 to 64 parts, got {i} of {k}")
        memset(&g, 0, sizeof(g))
        g.n = n
        g.unique = unique
        g.part = i
        g.parts = k
        # unique=False: a first queen in columns 0 to (n - 1) // 2
        g.most = ((<uint64_t>((n - 1) // 2 + 1)) << 4 * (n - 1)) - 1 if not unique else <uint64_t>-1
        self.n = n
        self.unique = unique
        self.parts = k
        for r in range(16):
            self.digit[r] = <PyObject *>_DIGITS[r]
            self.mirrored[r] = <PyObject *>_DIGITS[n - 1 - r if r < n else r]
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
        self.kept = g.size
        self.left = _left_of_middle(self.keys, self.kept, n) if not unique else 0
        self.size = self.kept + self.left
        self.held = (<uint64_t>1) << i

    def __dealloc__(self):
        release(self.keys)

    def take(self, Gathered other not None):
        """Merge in the placements of other, parts of the same gathering that
        this one does not hold yet (other is left as it was)."""
        cdef uint64_t *keys
        if not (other.n == self.n and other.unique == self.unique
                and other.parts == self.parts):
            raise ValueError("take() merges parts of the same board, uniqueness and parts")
        if other.held & self.held:
            raise ValueError("take() merges parts not held yet")
        # in this one's keys, grown (a fresh buffer would take its page faults
        # too; the old keys stay if there is no room)
        keys = <uint64_t *>realloc(self.keys, (self.kept + other.kept + 1) * sizeof(uint64_t))
        if keys == NULL:
            raise MemoryError
        self.keys = keys
        # under the GIL, a short merge: no other thread's take() or placements()
        # can meet the keys half merged
        _merge_back(self.keys, self.kept, other.keys, other.kept)
        self.kept += other.kept
        self.left += other.left
        self.size = self.kept + self.left
        self.held |= other.held

    def placements(self, Py_ssize_t start, Py_ssize_t stop):
        """An iterator over placements start to stop - 1, a tuple each."""
        cdef Placements placements
        if not 0 <= start <= stop <= self.size:
            raise IndexError("placements out of range")
        _check_held(self)
        placements = Placements()
        placements.table = self
        placements.at = start
        placements.stop = stop
        return placements


cdef int _check_held(Gathered table) except -1:
    if table.held != (<uint64_t>-1 if table.parts == 64
                      else ((<uint64_t>1) << table.parts) - 1):
        raise ValueError("a part of the placements: take() the others first")
    return 0


cdef class Placements:
    """An iterator over a gathered table's placements, each tuple made as
    it is asked for (with no list or other iterator between it and the
    loop).  Placements(make, limit): make() is called at the first next()
    and returns the Gathered table, whose first `limit` placements follow
    (None: all), so that the gathering waits for the first next().
    Gathered.placements(start, stop) iterates a slice of a table at hand."""
    # every part of the table is held (checked first), so take() cannot
    # change its keys while this reads them: at < stop <= size always
    cdef Gathered table  # None until the first next() has it from make
    cdef object make
    cdef bint making
    cdef Py_ssize_t limit  # -1: all
    cdef Py_ssize_t at
    cdef Py_ssize_t stop

    def __cinit__(self, make=None, limit=None):
        if make is not None and not callable(make):
            raise TypeError(f"make must be callable, not {type(make).__name__}")
        self.make = make
        self.limit = -1
        if limit is not None:
            self.limit = _long(limit)
            if self.limit < 0:
                raise ValueError("limit must be None or an int >= 0")

    def __iter__(self):
        return self

    def __next__(self):
        cdef Gathered t = self.table
        cdef Py_ssize_t at
        if t is None:
            t = self._begin()
        at = self.at
        if at >= self.stop:
            raise StopIteration
        self.at = at + 1
        if at < t.kept:
            placement = nq_placement(t.n, t.digit, t.keys[at])
        else:  # the mirror image of a left one, read backwards
            placement = nq_placement(t.n, t.mirrored, t.keys[t.kept + t.left - 1 - at])
        # a tuple of ints can hold no cycle: the collector need not follow it
        # (CPython itself untracks such tuples when it meets them)
        PyObject_GC_UnTrack(<PyObject *>placement)
        return placement

    cdef Gathered _begin(self):
        # the table, from make() once (a generator's rules: a second thread
        # meets a ValueError while it runs; after it raised, nothing follows)
        if self.making:
            raise ValueError("Placements already gathering")
        make = self.make
        self.make = None
        if make is None:
            raise StopIteration
        self.making = True
        try:
            table = make()
        finally:
            self.making = False
        if not isinstance(table, Gathered):
            raise TypeError(f"make() must return a Gathered, not {type(table).__name__}")
        _check_held(table)
        self.stop = table.size if self.limit == -1 else min(self.limit, table.size)
        self.at = 0
        self.table = table
        return table
