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
# word lie off the board and are lost harmlessly.  The counting search keeps
# `avail`, the empty columns, instead of `cols`: the last row is then the one
# with a single column left, and no board mask is needed.
#
# Counting uses the 8 symmetries of the square.  Every solution has one queen
# on each border (top and bottom rows, left and right columns); only borders
# that are the smallest of their 8 images are searched, each weighted by how
# many distinct images it has.  With those queens placed, the search fills
# the other rows; what the placed queens attack in each row is a
# precomputed mask (`blocked`), since some of them lie below.  The search
# runs bottom up; a diagonal mask shifts the same way whichever way it goes.
# Its last levels are not searched but matched from a table of their
# placements (meeting in the middle, below).
#
# Validation, defaults and documentation live in the Python layer, once.
# Each entry point below still refuses, before any loop, what would index
# outside its arrays (a board side, queens off the board, a short buffer),
# so that no call from Python can crash the interpreter; the search loops
# themselves check nothing.  The entry points index Python objects with
# bounds checks on (boundscheck=False would also drop them for tuples).

cimport cython
from cpython.list cimport PyList_New
from cpython.number cimport PyNumber_Index
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free as release, realloc
from libc.string cimport memcmp, memcpy, memset

cdef extern from "_bits.h":
    # the lowest set bit's index: a GCC/Clang builtin, or MSVC's intrinsic
    int nq_ctz64(unsigned long long) nogil
    # the compiler that built this module, and the flags setup.py gave it
    const char *NQ_COMPILER
    const char *NQ_CFLAGS

cdef extern from "Python.h":
    # the raw C macros, so that Cython adds no reference counting of its own
    ctypedef struct PyObject
    PyObject *_tuple_new "PyTuple_New"(Py_ssize_t)
    void _tuple_set "PyTuple_SET_ITEM"(PyObject *, Py_ssize_t, PyObject *)
    void _list_set "PyList_SET_ITEM"(object, Py_ssize_t, PyObject *)
    void _incref "Py_INCREF"(PyObject *)
    void PyObject_GC_UnTrack(void *)

cdef enum:
    _MAX_N = 64
    # Below this many empty rows a subtree is small enough to finish before
    # looking at the stop flag again.
    _POLL_ROWS = 10
    # The enumerator finishes the last rows by recursion; 5 rows hold at
    # most 5! = 120 solutions
    _TAIL_ROWS = 5
    _TAIL_MOST = 120
    # Gathered placements are packed 4 bits a column, first row highest
    _GATHER_MAX_N = 15
    # bits sorted per pass: the counts of one pass fit the first-level cache
    _RADIX_BITS = 11
    # the meeting in the middle: how many levels come from the table at the
    # most, from how many levels on, and for at most how many columns (2**20
    # buckets)
    _UPPER_MOST = 9
    _MITM_MIN_LEVELS = 9
    _MITM_MAX_COLUMNS = 20
    _TABLE_MOST = 1 << 22  # entries (32 MiB)
    _NO_QUEEN = 255

MAX_N = _MAX_N
GATHER_MAX_N = _GATHER_MAX_N
COMPILER = NQ_COMPILER.decode("ascii", "replace")
CFLAGS = NQ_CFLAGS.decode("ascii", "replace")


cdef inline int _int(value) except? -1:
    # an int argument, refusing what is not one (Cython would truncate 8.5)
    return PyNumber_Index(value)


cdef inline long long _long(value) except? -1:
    return PyNumber_Index(value)


cdef int _check_board(int n) except -1:
    if not 0 <= n <= _MAX_N:
        raise ValueError(f"n must be between 0 and {_MAX_N}, got {n}")
    return 0


cdef object _buffer(value):
    # a memoryview argument may be None in Cython: refuse it here
    if value is None:
        raise TypeError("a writable bytes-like object is required, not None")
    return value


cdef int _board(value) except -1:
    cdef int n = _int(value)
    _check_board(n)
    return n


cdef int _check_stop(const unsigned char[::1] stop) except -1:
    if stop.shape[0] < 1:
        raise ValueError("stop must hold at least one byte")
    return 0


@cython.boundscheck(True)
@cython.wraparound(True)
cdef int _load_queens(int n, rows, cols, int *r, int *c) except -1:
    # rows and cols into r and c (room for _MAX_N each); the number of
    # queens, or an error if they do not fit the board
    cdef Py_ssize_t k = len(rows), i
    _check_board(n)
    if len(cols) != k:
        raise ValueError(f"rows and cols differ in length ({k} and {len(cols)})")
    if k > n:
        raise ValueError(f"{k} queens do not fit in the {n} rows of the board")
    for i in range(k):
        r[i] = _int(rows[i])
        c[i] = _int(cols[i])
        if not (0 <= r[i] < n and 0 <= c[i] < n):
            raise ValueError(f"square ({r[i]}, {c[i]}) is off the {n} x {n} board")
    return <int>k


cdef inline uint64_t _full_mask(int n) noexcept nogil:
    return 0 if n == 0 else (<uint64_t>~0ULL) >> (64 - n)


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
    uint64_t *entry
    unsigned int *start
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
    u.entry = u.listed = NULL
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
    if listed != NULL:
        u.listed = listed
    bucket = <unsigned int *>realloc(u.bucket, room * sizeof(unsigned int))
    if bucket != NULL:
        u.bucket = bucket
    if listed == NULL or bucket == NULL or room == u.room:
        u.failed = True
        return False
    u.room = room
    return True


cdef inline uint64_t _seen(uint64_t bit, int d) noexcept nogil:
    # what a queen d rows above the table's first row attacks in it, packed
    # as an entry (n <= 24: both halves stay below 32 bits)
    return bit >> d | bit << (d + 32)


cdef void _list_upper(_Upper *u, int i, uint64_t cols, unsigned int bucket,
                      uint64_t ld, uint64_t rd, uint64_t seen) noexcept nogil:
    # every placement of the table's levels i, i+1, ... below the queens so
    # far: cols, in bucket numbering too, ld and rd as in the search, and
    # seen, what they attack in the first row
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
            u.size += 1
        return
    while free:
        bit = free & (0 - free)
        free ^= bit
        _list_upper(u, i + 1, cols | bit, bucket | u.rank[nq_ctz64(bit)],
                    (ld | bit) << s, (rd | bit) >> s, seen | _seen(bit, d))


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
    _list_upper(u, 0, 0, 0, 0, 0, 0)
    if u.failed:
        _release_upper(u)
        return False
    if u.entry_room < u.size + 1:
        release(u.entry)
        u.entry = <uint64_t *>realloc(NULL, (u.size + 1) * sizeof(uint64_t))
        if u.entry == NULL:
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
def count_each(tasks, const unsigned char[::1] stop not None, Tables tables not None):
    """[count_preset(n, rows, cols, stop, -1, tables) for (n, _, rows, cols)
    in tasks], in one call without the GIL."""
    cdef Py_ssize_t count = len(tasks), t, at = 0
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
            size[t] = min(len(tasks[t][2]), _MAX_N)
            at += size[t]
        queens = <int *>calloc(2 * at + 1, sizeof(int))
        if queens == NULL:
            raise MemoryError
        at = 0
        for t in range(count):
            # each task read once more, checked, and copied into the room
            # that the first pass made for it
            task = tasks[t]
            n[t] = _int(task[0])
            k = _load_queens(n[t], task[2], task[3], r, c)
            if k != size[t]:
                raise ValueError("a task changed while it was read")
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


# Every solution of a board at once, from the same symmetric search as the
# count: each canonical border's completions, mapped by one symmetry from
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


cdef void _gather(_Gather *g, const _Level *lv, const int *row,
                  int levels_left, uint64_t avail, uint64_t ld,
                  uint64_t rd) noexcept nogil:
    # the counting search, writing each queen into g.p; levels_left >= 2
    cdef uint64_t free = avail & ~(ld | rd | lv.blocked), bit, last
    cdef uint64_t s = lv.shift
    while free:
        bit = free & (0 - free)
        free ^= bit
        g.p[row[0]] = nq_ctz64(bit)
        if levels_left > 2:
            _gather(g, lv + 1, row + 1, levels_left - 1, avail ^ bit,
                    (ld | bit) << s, (rd | bit) >> s)
            continue
        # the last level: its one column holds a queen or the branch fails
        last = avail ^ bit
        if last & ~(((ld | bit) << s) | ((rd | bit) >> s) | lv[1].blocked):
            g.p[row[1]] = nq_ctz64(last)
            _gathered(g)


cdef void _radix_sort(uint64_t *keys, uint64_t *spare, size_t size,
                      int bits) noexcept nogil:
    # least significant _RADIX_BITS first; the result ends in keys
    cdef size_t count[1 << _RADIX_BITS]
    cdef size_t i, at, c
    cdef int shift = 0, d
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
    cdef int m = g.n - 1, i, j
    cdef uint64_t keys[8]
    cdef _Borders it
    cdef _Preset b
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
            _gather(g, b.level, b.row, b.levels, b.avail, 0, 0)


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
                _radix_sort(g.keys, spare, g.size, 4 * n)
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
        cdef uint64_t key
        cdef list found
        cdef PyObject *placement
        cdef PyObject *digit[16]
        if not 0 <= start <= stop <= self.size:
            raise IndexError("placements out of range")
        found = PyList_New(size)
        for r in range(16):
            digit[r] = <PyObject *>_DIGITS[r]
        for i in range(size):
            key = self.keys[start + i]
            placement = _tuple_new(n)
            if placement == NULL:
                raise MemoryError
            for r in range(n - 1, -1, -1):
                _incref(digit[key & 15])
                _tuple_set(placement, r, digit[key & 15])
                key >>= 4
            # a tuple of ints can hold no cycle: the collector need not
            # follow it (CPython itself untracks such tuples when it meets them)
            PyObject_GC_UnTrack(placement)
            _list_set(found, i, placement)
        return found


_DIGITS = tuple(range(16))


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
