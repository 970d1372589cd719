# Included by _bitsolver.pyx (one file per algorithm; shared names live there).
# Counting the completions of placed queens: the search of the middle rows,
# and the table of the last rows it meets (count_preset, count_each, Tables).

cdef struct _Level:
    # one row still empty: the squares the placed queens attack in it (their
    # columns are out of avail already) and the rows to the next level
    uint64_t blocked
    uint64_t shift


cdef struct _Preset:
    # The rows still empty once some queens are placed, searched bottom up
    int levels
    uint64_t avail
    _Level level[_MAX_N]
    # the row of each level
    int row[_MAX_N]


cdef bint _apart(const int *rows, const int *cols, int k) noexcept nogil:
    # whether no two of the queens share a row, column or diagonal
    cdef int i, j, d
    for i in range(k):
        for j in range(i):
            d = rows[i] - rows[j]
            if (d == 0 or cols[i] == cols[j] or d == cols[i] - cols[j]
                    or d == cols[j] - cols[i]):
                return False
    return True


cdef inline uint64_t _attacked(int n, int r, int row, int col) noexcept nogil:
    # the squares of row r on the diagonals of a queen at (row, col)
    cdef int d = r - row
    cdef uint64_t mask = 0
    if 0 <= col + d < n:
        mask |= (<uint64_t>1) << (col + d)
    if 0 <= col - d < n:
        mask |= (<uint64_t>1) << (col - d)
    return mask


cdef bint _prepare(_Preset *b, int n, const int *rows, const int *cols,
                   int k) noexcept nogil:
    # False if two placed queens share a row, column or diagonal
    cdef int i, r, level = 0, last = 0
    cdef uint64_t used_rows = 0, mask
    if not _apart(rows, cols, k):
        return False
    b.avail = _full_mask(n)
    for i in range(k):
        used_rows |= (<uint64_t>1) << rows[i]
        b.avail &= ~((<uint64_t>1) << cols[i])
    # Bottom up: the canonical borders keep their queens near the top-left
    # corner, and a search that ends there, where the rows are most
    # crowded, visits about 40% fewer squares than one that starts there.
    for r in range(n - 1, -1, -1):
        if used_rows >> r & 1:
            continue
        mask = 0
        for i in range(k):
            mask |= _attacked(n, r, rows[i], cols[i])
        b.level[level].blocked = mask
        b.row[level] = r
        b.level[level].shift = 0  # the last level's, read but not used
        if level > 0:
            b.level[level - 1].shift = last - r
        last = r
        level += 1
    b.levels = level
    return True


# The last levels meet the others in the middle.  Their placements are
# listed in a table, grouped by the columns they take, each packed as the
# diagonals it attacks in the first (lowest) of those rows: the ones
# running like ld in the low 32 bits, like rd in the high 32.  The search of
# the other levels stops at that row: with its empty columns and its ld and
# rd masks it counts the entries that take exactly those columns and share
# no diagonal, a branch-free scan instead of a subtree.
#
# A table depends only on its rows and on the placed queens it must avoid.
# The queen of the last row is left out: like a searched queen, it is
# matched through the key (its diagonals, `seed`), and its column is never
# in a looked up set.  So one table serves all the borders that differ only
# at the bottom, and the borders come in an order that keeps those
# together: 384 tables for the 3206 borders of n = 16.

cdef uint64_t _LOW32 = 0xFFFFFFFF


cdef struct _Upper:
    # what the table is for: n, its first (lowest) row, and the placed queen
    # of each row but the last (_NO_QUEEN if none); its rows are the empty
    # ones from the first up.  Built, or found too big
    bint built
    bint too_big
    int n
    int first_row
    unsigned char placed[_MAX_N]
    # the table: its levels (blocked by those placed queens), the columns
    # its queens may take, and the entries of bucket i, start[i] to
    # start[i+1]-1
    int rows
    uint64_t allowed
    _Level level[_MAX_N]
    int distance[_MAX_N]  # from the first row
    int row_of[_MAX_N]  # the board's row of each level
    uint64_t *entry
    unsigned int *start
    # for Gathered: each entry's queens too, the column of level i in bits 4i..4i+3
    bint with_columns
    uint64_t *entry_columns
    uint64_t *listed_columns
    unsigned int squeeze[3][256]  # columns to bucket, a byte at a time
    unsigned int rank[64]  # one column's bit in a bucket number
    # while the table is listed: each entry with its bucket
    uint64_t *listed
    unsigned int *bucket
    size_t size
    size_t room
    bint failed
    # the room of entry and start, kept with the buffers from table to table
    # (a fresh allocation of megabytes per table costs its page faults again,
    # and more where MALLOC_TRIM_THRESHOLD_ is set, as Dask's workers set it)
    size_t entry_room
    size_t start_room
    # for the search at hand: the level met from the table, and what the
    # last row's placed queen attacks in its first row, packed as a key
    const _Level *boundary
    uint64_t seed


cdef void _release_upper(_Upper *u) noexcept nogil:
    release(u.entry)
    release(u.start)
    release(u.listed)
    release(u.bucket)
    release(u.entry_columns)
    release(u.listed_columns)
    u.entry = u.listed = u.entry_columns = u.listed_columns = NULL
    u.start = u.bucket = NULL
    u.room = u.entry_room = u.start_room = 0
    u.built = u.too_big = False


cdef inline unsigned int _bucket(const _Upper *u, uint64_t columns) noexcept nogil:
    return (u.squeeze[0][columns & 255] | u.squeeze[1][columns >> 8 & 255]
            | u.squeeze[2][columns >> 16 & 255])


cdef bint _grow_upper(_Upper *u) noexcept nogil:
    # more room for entries, up to _TABLE_MOST: a bigger table would take
    # long to list, in memory the search does not make up for
    cdef size_t room = min(2 * u.room + 4096, <size_t>_TABLE_MOST)
    cdef uint64_t *listed = <uint64_t *>realloc(u.listed,
                                                room * sizeof(uint64_t))
    cdef unsigned int *bucket
    cdef uint64_t *columns = NULL
    if listed != NULL:
        u.listed = listed
    bucket = <unsigned int *>realloc(u.bucket, room * sizeof(unsigned int))
    if bucket != NULL:
        u.bucket = bucket
    if u.with_columns:
        columns = <uint64_t *>realloc(u.listed_columns, room * sizeof(uint64_t))
        if columns != NULL:
            u.listed_columns = columns
    if (listed == NULL or bucket == NULL or (u.with_columns and columns == NULL)
            or room == u.room):
        u.failed = True
        return False
    u.room = room
    return True


cdef inline uint64_t _seen(uint64_t bit, int d) noexcept nogil:
    # what a queen d rows above the table's first row attacks in it, packed
    # as an entry (n <= 24: both halves stay below 32 bits)
    return bit >> d | bit << (d + 32)


cdef void _list_upper(_Upper *u, int i, uint64_t cols, unsigned int bucket,
                      uint64_t ld, uint64_t rd, uint64_t seen,
                      uint64_t columns) noexcept nogil:
    # every placement of the table's levels i, i+1, ... below the queens so
    # far: cols, in bucket numbering too, ld and rd as in the search, seen,
    # what they attack in the first row, and their columns (with_columns)
    cdef const _Level *lv = &u.level[i]
    cdef uint64_t free = u.allowed & ~(cols | ld | rd | lv.blocked), bit
    cdef uint64_t s = lv.shift
    cdef int d = u.distance[i]
    if i + 1 == u.rows:
        # the last level: an entry for each free square
        while free:
            bit = free & (0 - free)
            free ^= bit
            if u.size == u.room and not _grow_upper(u):
                return
            u.listed[u.size] = seen | _seen(bit, d)
            u.bucket[u.size] = bucket | u.rank[nq_ctz64(bit)]
            if u.with_columns:
                u.listed_columns[u.size] = columns | (<uint64_t>nq_ctz64(bit)) << (4 * i)
            u.size += 1
        return
    while free:
        bit = free & (0 - free)
        free ^= bit
        _list_upper(u, i + 1, cols | bit, bucket | u.rank[nq_ctz64(bit)],
                    (ld | bit) << s, (rd | bit) >> s, seen | _seen(bit, d),
                    columns | (<uint64_t>nq_ctz64(bit)) << (4 * i))


cdef bint _build_upper(_Upper *u) noexcept nogil:
    # The table for u's rows and placed queens; False if it does not fit
    cdef int i, j, r, at = 0
    cdef unsigned int buckets, k
    cdef size_t e
    cdef uint64_t mask
    u.allowed = _full_mask(u.n)
    for r in range(u.n - 1):
        if u.placed[r] != _NO_QUEEN:
            u.allowed &= ~((<uint64_t>1) << u.placed[r])
    if _popcount(u.allowed) > _MITM_MAX_COLUMNS:
        return False
    # its levels: the empty rows from the first up
    i = 0
    for r in range(u.first_row, -1, -1):
        if r < u.n - 1 and u.placed[r] != _NO_QUEEN:
            continue
        mask = 0
        for j in range(u.n - 1):
            if u.placed[j] != _NO_QUEEN:
                mask |= _attacked(u.n, r, j, u.placed[j])
        u.distance[i] = u.first_row - r
        u.row_of[i] = r
        u.level[i].blocked = mask
        u.level[i].shift = 0
        if i > 0:
            u.level[i - 1].shift = u.distance[i] - u.distance[i - 1]
        i += 1
    u.rows = i
    # the allowed columns, renumbered 0, 1, 2, ... in the buckets
    memset(u.squeeze, 0, sizeof(u.squeeze))
    for i in range(24):
        if u.allowed >> i & 1:
            u.rank[i] = (<unsigned int>1) << at
            for j in range(256):
                if j >> (i & 7) & 1:
                    u.squeeze[i >> 3][j] |= (<unsigned int>1) << at
            at += 1
    buckets = (<unsigned int>1) << at
    u.size = 0
    u.failed = False
    u.built = False
    # the buffers of the last table are reused where they are big enough
    if u.start_room < buckets + 1:
        release(u.start)
        u.start = <unsigned int *>calloc(buckets + 1, sizeof(unsigned int))
        if u.start == NULL:
            u.start_room = 0
            return False
        u.start_room = buckets + 1
    else:
        memset(u.start, 0, (buckets + 1) * sizeof(unsigned int))
    _list_upper(u, 0, 0, 0, 0, 0, 0, 0)
    if u.failed:
        _release_upper(u)
        return False
    if u.entry_room < u.size + 1:
        release(u.entry)
        release(u.entry_columns)
        u.entry_columns = NULL
        u.entry = <uint64_t *>realloc(NULL, (u.size + 1) * sizeof(uint64_t))
        if u.with_columns and u.entry != NULL:
            u.entry_columns = <uint64_t *>realloc(NULL, (u.size + 1) * sizeof(uint64_t))
        if u.entry == NULL or (u.with_columns and u.entry_columns == NULL):
            _release_upper(u)
            return False
        u.entry_room = u.size + 1
    # counting sort by bucket
    for e in range(u.size):
        u.start[u.bucket[e] + 1] += 1
    for k in range(buckets):
        u.start[k + 1] += u.start[k]
    for e in range(u.size):
        k = u.bucket[e]
        u.entry[u.start[k]] = u.listed[e]
        if u.with_columns:
            u.entry_columns[u.start[k]] = u.listed_columns[e]
        u.start[k] += 1
    for k in range(buckets, 0, -1):
        u.start[k] = u.start[k - 1]
    u.start[0] = 0
    u.built = True
    return True


cdef bint _meet(_Upper *u, const _Preset *b, int n, const int *rows,
                const int *cols, int k, int count) noexcept nogil:
    # Get u ready to meet the search of b at its last `count` levels: reuse
    # the table if it is for the same rows and placed queens, else build it.
    # False if there is no table to meet (too big, or out of memory).
    cdef int first = b.levels - count, i, d
    cdef int first_row = b.row[first]
    cdef uint64_t bit
    cdef unsigned char placed[_MAX_N]
    if n > 24:
        return False
    memset(placed, _NO_QUEEN, n - 1)
    u.seed = 0
    for i in range(k):
        if rows[i] < n - 1:
            placed[rows[i]] = cols[i]
        else:
            bit = (<uint64_t>1) << cols[i]
            d = n - 1 - first_row
            u.seed |= (bit << d & _LOW32) | (bit >> d) << 32
    if not ((u.built or u.too_big) and u.n == n and u.first_row == first_row
            and memcmp(u.placed, placed, n - 1) == 0):
        u.built = u.too_big = False  # a new table, in the old one's buffers
        u.n = n
        u.first_row = first_row
        memcpy(u.placed, placed, n - 1)
        u.too_big = not _build_upper(u)
    if u.too_big:
        return False
    u.boundary = &b.level[first]
    return True


cdef uint64_t _matches(const _Upper *u, uint64_t avail, uint64_t ld,
                       uint64_t rd) noexcept nogil:
    # the table entries on exactly the columns of avail, clear of ld and rd
    # and of the last row's queen
    cdef unsigned int k = _bucket(u, avail), i
    cdef uint64_t key = (ld & _LOW32) | rd << 32 | u.seed, total = 0
    for i in range(u.start[k], u.start[k + 1]):
        total += (u.entry[i] & key) == 0
    return total


cdef uint64_t _search(const _Level *lv, uint64_t avail, uint64_t ld,
                      uint64_t rd, const _Upper *u) noexcept nogil:
    # ld and rd carry the searched queens only: the placed ones are in
    # blocked.  avail holds one column per level left.
    cdef uint64_t free = avail & ~(ld | rd | lv.blocked), bit, total = 0
    cdef uint64_t s
    if lv == u.boundary:
        return _matches(u, avail, ld, rd)
    if avail & (avail - 1) == 0:
        # the last level: it holds its queen or the branch fails
        return free != 0
    s = lv.shift
    while free:
        bit = free & (0 - free)
        free ^= bit
        total += _search(lv + 1, avail ^ bit, (ld | bit) << s, (rd | bit) >> s,
                         u)
    return total


cdef uint64_t _search_polled(const _Level *lv, int levels_left, uint64_t avail,
                             uint64_t ld, uint64_t rd, const _Upper *u,
                             volatile unsigned char *stop) noexcept nogil:
    # The same search, looking at the stop flag on each node of the upper
    # levels: below them a subtree is small enough to finish first.
    cdef uint64_t free, bit, total = 0
    cdef uint64_t s
    if levels_left < _POLL_ROWS:
        return _search(lv, avail, ld, rd, u)
    free = avail & ~(ld | rd | lv.blocked)
    s = lv.shift
    while free and not stop[0]:
        bit = free & (0 - free)
        free ^= bit
        total += _search_polled(lv + 1, levels_left - 1, avail ^ bit,
                                (ld | bit) << s, (rd | bit) >> s, u, stop)
    return total


cdef int _upper_rows(const _Preset *b) noexcept nogil:
    # One more than half the levels, up to _UPPER_MOST, from
    # _MITM_MIN_LEVELS levels on: the fastest here from n = 13 to 18 (one
    # level more or less costs 10% to 30% at n = 16 and 17; smaller boards
    # build tables for too little)
    if b.levels < _MITM_MIN_LEVELS:
        return 0
    return min(b.levels // 2 + 1, _UPPER_MOST)


cdef uint64_t _count_preset(int n, const int *rows, const int *cols, int k,
                            int upper, _Upper *u,
                            volatile unsigned char *stop) noexcept nogil:
    # upper: how many levels come from a table (-1: _upper_rows' choice);
    # u: the table to reuse or replace
    cdef _Preset b
    if not _prepare(&b, n, rows, cols, k):
        return 0
    if b.levels == 0:
        return 1
    if upper < 0:
        upper = _upper_rows(&b)
    # the table is met below the levels that poll the stop flag
    upper = min(upper, b.levels, _POLL_ROWS - 1)
    if upper == 0 or stop[0] or not _meet(u, &b, n, rows, cols, k, upper):
        u.boundary = NULL
    return _search_polled(b.level, b.levels, b.avail, 0, 0, u, stop)


cdef int _popcount(uint64_t x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef class Tables:
    """The table of the last rows that count_preset built last, kept for the
    next call that needs the same one.  One thread's at a time: a second
    thread is refused (RuntimeError) while one counts with it."""
    cdef _Upper u
    cdef bint busy

    def __cinit__(self):
        memset(&self.u, 0, sizeof(_Upper))
        self.busy = False

    def __dealloc__(self):
        _release_upper(&self.u)


cdef int _take(Tables tables) except -1:
    # checked and set under the GIL: two threads never share the table
    if tables.busy:
        raise RuntimeError("these Tables are in use by another thread")
    tables.busy = True
    return 0


def count_preset(n, rows, cols, stop, upper=-1, tables=None):
    """Solutions that extend the queens placed at (rows[i], cols[i]).

    upper: how many of the last rows to match from a table (-1: the core's
    choice); tables: where to keep that table for the next call.
    """
    return _count_preset_entry(_board(n), rows, cols, _buffer(stop), _int(upper), tables)


cdef object _count_preset_entry(int n, rows, cols, const unsigned char[::1] stop,
                                int upper, Tables tables):
    cdef int r[_MAX_N]
    cdef int c[_MAX_N]
    cdef int k
    cdef uint64_t total
    cdef volatile unsigned char *flag
    cdef _Upper own
    cdef _Upper *u = &own
    k = _load_queens(n, rows, cols, r, c)
    _check_stop(stop)
    flag = <volatile unsigned char *>&stop[0]
    if tables is None:
        memset(&own, 0, sizeof(_Upper))
    else:
        _take(tables)
        u = &tables.u
    try:
        with nogil:
            total = _count_preset(n, r, c, k, upper, u, flag)
            if tables is None:
                _release_upper(&own)
    finally:
        if tables is not None:
            tables.busy = False
    return total


@cython.boundscheck(True)
@cython.wraparound(True)
def count_each(subproblems, const unsigned char[::1] stop not None, Tables tables not None):
    """[count_preset(n, rows, cols, stop, -1, tables) for (n, _, rows, cols)
    in subproblems], in one call without the GIL."""
    cdef Py_ssize_t count = len(subproblems), t, at = 0
    cdef int k
    cdef int r[_MAX_N]
    cdef int c[_MAX_N]
    cdef int *n = NULL
    cdef int *size = NULL
    cdef int *queens = NULL
    cdef uint64_t *found = NULL
    cdef volatile unsigned char *flag
    _check_stop(stop)
    flag = <volatile unsigned char *>&stop[0]
    _take(tables)
    try:
        n = <int *>calloc(count + 1, sizeof(int))
        size = <int *>calloc(count + 1, sizeof(int))
        found = <uint64_t *>calloc(count + 1, sizeof(uint64_t))
        if n == NULL or size == NULL or found == NULL:
            raise MemoryError
        for t in range(count):
            size[t] = min(len(subproblems[t][2]), _MAX_N)
            at += size[t]
        queens = <int *>calloc(2 * at + 1, sizeof(int))
        if queens == NULL:
            raise MemoryError
        at = 0
        for t in range(count):
            # each subproblem read once more, checked, and copied into the room
            # that the first pass made for it
            subproblem = subproblems[t]
            n[t] = _int(subproblem[0])
            k = _load_queens(n[t], subproblem[2], subproblem[3], r, c)
            if k != size[t]:
                raise ValueError("a subproblem changed while it was read")
            memcpy(&queens[at], r, k * sizeof(int))
            memcpy(&queens[at + k], c, k * sizeof(int))
            at += 2 * k
        with nogil:
            at = 0
            for t in range(count):
                k = size[t]
                if flag[0]:
                    break
                found[t] = _count_preset(n[t], &queens[at], &queens[at + k], k,
                                         -1, &tables.u, flag)
                at += 2 * k
        return [found[t] for t in range(count)]
    finally:
        tables.busy = False
        release(n)
        release(size)
        release(queens)
        release(found)
