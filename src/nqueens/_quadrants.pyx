# cython: language_level=3, boundscheck=False, wraparound=False
# cython: cdivision=True, initializedcheck=False, embedsignature=True
#
# The quadrant core: the board is cut into four quadrants of side h; for
# odd n a middle row and a middle column hold two queens placed first (a
# "cross", one per orbit of the square's symmetries).  A solution is fixed
# by the set E of rows whose queen lies in the east half, and for each E by
# an east and a west half-board that share no diagonal.  For each E the core
# lists the east half-boards as masks of the diagonals both halves can
# hold, lists the west ones, and counts the disjoint pairs.  A half-board is
# a north and a south quadrant placement read from a table of every partial
# placement of the h x h quadrant, keyed by its row set and column set:
# local diagonal masks, d1 = row + col and d2 = row - col + h - 1, which a
# shift turns into the board's.  A placed quadrant is one word: its packed
# mask, and above it the diagonals that the north and south quadrants of its
# half both reach, so that two placements join exactly when their words share
# no bit (one AND), and the half-board is their OR, the packed bits kept.
# For each side of a row set, the joins take as the outer list the quadrant
# (north or south) that needs fewer rounds of 8.  The pure-Python twin,
# _quadrants_py.py, explains the symmetries and is the readable specification.
#
# Disjoint pairs are counted bit-sliced: the stored masks in groups of 512,
# and per group, for every 5 bit positions and each of their 32 subsets,
# the 512 bits of "holds none of these" (_native/dispatch.h).  An item ANDs one entry
# per 5 of its bits and counts what is left.  Many stored masks are first
# sorted, with the items, into buckets by the few bit positions both sides
# hold most often; only buckets that share none of them are matched.  Where
# slicing would cost more than it saves (few items, few stored masks), pairs
# are matched one by one: a cost model per processor level decides.  Each
# thread keeps its lists in a Scratch from call to call.
#
# As in _bitsolver.pyx, each entry point refuses what would index outside
# its arrays before any loop; the loops check nothing.

from cpython.number cimport PyNumber_Index
from libc.stdint cimport uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport calloc, free as release, malloc, realloc
from libc.string cimport memset

cdef extern from "_native/bits.h":
    int nq_ctz64(unsigned long long) nogil

cdef extern from "_native/dispatch.h":
    enum:
        NQ_GROUP
        NQ_CHUNK
        NQ_WIDE
        NQ_JOIN_SLACK
    uint64_t nq_match(const uint64_t *tables, size_t groups, int chunks,
                      const uint64_t *items, size_t count, int half) nogil
    uint64_t nq_direct(const uint64_t *stored, size_t size, const uint64_t *items,
                       size_t count) nogil
    size_t nq_empty(const uint64_t *items, size_t count) nogil
    void nq_slice(const uint64_t *stored, size_t size, int bits, uint64_t *tables,
                  size_t groups, int half) nogil
    int nq_wide() nogil
    void nq_slice_wide(const uint64_t *stored, size_t size, int bits, uint64_t *tables,
                       size_t groups) nogil
    uint64_t nq_match_wide(const uint64_t *tables, size_t groups, int chunks,
                           const uint64_t *items, size_t count) nogil
    ctypedef struct nq_frame:
        int s1, s2, lo1, lo2, bits, jlo1, jlo2, jbits, jat
        uint64_t holes1, holes2, long_bit, full, jfull
    size_t nq_place(const uint64_t *entry, size_t count, const nq_frame *f, int on_long,
                    uint64_t *op) nogil
    size_t nq_join_spans(uint64_t *dest, const uint64_t *a, const uint64_t *b,
                         const uint64_t *spans, size_t count, int swap, uint64_t mask) nogil
    size_t nq_spans(uint64_t *at, const uint32_t *subsets, size_t many, uint32_t cols,
                    const uint64_t *south_span, const uint64_t *north_span,
                    uint64_t *sums) nogil
    ctypedef struct nq_costs:
        unsigned match, build, block, half
    const nq_costs *nq_cost_model() nogil
    int nq_levels() nogil
    int nq_level() nogil
    int nq_use(int level) nogil
    int nq_level_count() nogil
    const char *nq_level_name(int level) nogil

MIN_N = 4
MAX_N = 23  # a quadrant of side 11: its table keys take 2 x 11 bits
FAST = True  # count() prefers this core where it applies
# the variants of the pair counting, by index: the rows of the kernels' table
CPU_LEVELS = tuple(nq_level_name(i).decode() for i in range(nq_level_count()))


cdef enum:
    _GROUP_BITS = 512  # stored masks per group: NQ_GROUP words of 64
    _MOST_CUTS = 5  # bit positions that sort the masks into buckets (below; _bucket looks up 5)
    _BUCKET = 512  # stored masks per bucket, at least, where there are cuts
    _CUT_FROM = 4096  # stored masks from which they are cut into buckets
    _HELD_SAMPLE = 128  # masks of each side sampled to choose the cut bits
    _CLASSES = 3  # west half-boards counted 1, 2 or 4 times
    _POLL_ROWS = 3  # the table's build polls its stop flag in the first rows it walks
    _SLACK = 8  # words past the placements that nq_place may write (7: _native/dispatch.h)
    _MAX_H = 11  # MAX_N // 2
    _MAX_CROSSES = 64  # crosses a job counts together: one per bit of a word (Job)
    _WIDE_FROM = 2048  # items a group meets from which its tables are wide (below)
    _MEMO_MAX_H = 9  # quadrants up to this side keep a job's north placements (below):
    # the time saved against the memory a thread keeps, tens of MB at h = 9 and
    # hundreds at h = 10


cpdef enum Mode:
    # which of a side's half-boards _halves lists, and where
    ALL = 0  # every one, into items[0] (a job without symmetry)
    OFF_LONG = 1  # east of a symmetric job: none on a long diagonal, into stored
    BY_CLASS = 2  # west of a symmetric job: into items by weight class


cdef struct _Table:
    int h
    uint32_t *start  # entries of key (rows << h) | cols: start[key]..start[key + 1]
    uint64_t *entry  # d1 | d2 << 32, the quadrant's own diagonals
    uint32_t most  # the longest list of one key
    const volatile unsigned char *stop  # polled while the table is built
    bint stopped


cdef inline void _leaf(_Table *t, uint32_t key, uint32_t d1, uint32_t d2,
                       bint fill) noexcept nogil:
    if fill:
        t.entry[t.start[key]] = d1 | (<uint64_t>d2 << 32)
    t.start[key] += 1


cdef void _walk(_Table *t, int row, uint32_t rows, uint32_t cols, uint32_t d1,
                uint32_t d2, bint fill) noexcept nogil:
    # from the last row up: the placements below a node of depth d then share
    # the top d bits of their keys, (rows << h) | cols, and stay in one part of
    # the table; row 0, the last, makes its placements here (no call each)
    cdef int h = t.h
    cdef uint32_t free, b1, b2
    cdef int c
    if row >= h - _POLL_ROWS:
        if t.stop[0]:
            t.stopped = True
        if t.stopped:
            return
    # the columns free of queens and of the d1 diagonals (bit row + c)
    free = ((<uint32_t>1 << h) - 1) & ~cols & ~(d1 >> row)
    if row == 0:
        _leaf(t, (rows << h) | cols, d1, d2, fill)  # the row stays empty
        rows = (rows | 1) << h
        while free:
            c = nq_ctz64(free)
            free &= free - 1
            b2 = <uint32_t>1 << (h - 1 - c)
            if not d2 & b2:
                _leaf(t, rows | cols | (<uint32_t>1 << c), d1 | (<uint32_t>1 << c), d2 | b2,
                      fill)
        return
    _walk(t, row - 1, rows, cols, d1, d2, fill)  # the row stays empty
    while free:
        c = nq_ctz64(free)
        free &= free - 1
        b1 = <uint32_t>1 << (row + c)
        b2 = <uint32_t>1 << (row - c + h - 1)
        if not d2 & b2:
            _walk(t, row - 1, rows | (<uint32_t>1 << row), cols | (<uint32_t>1 << c),
                  d1 | b1, d2 | b2, fill)


cdef bint _build(_Table *t, int h) noexcept nogil:
    cdef size_t keys = (<size_t>1) << (2 * h)
    cdef size_t k
    cdef uint32_t total = 0, size
    t.h = h
    t.most = 0
    t.start = <uint32_t *>calloc(keys + 1, sizeof(uint32_t))
    if t.start == NULL:
        return False
    _walk(t, h - 1, 0, 0, 0, 0, False)  # count each key's placements
    if t.stopped:
        return False
    for k in range(keys):
        size = t.start[k]
        t.start[k] = total
        total += size
        if size > t.most:
            t.most = size
    t.start[keys] = total
    t.entry = <uint64_t *>malloc((total + 1) * sizeof(uint64_t))
    if t.entry == NULL:
        return False
    _walk(t, h - 1, 0, 0, 0, 0, True)  # each start[key] ends at the next key's start
    if t.stopped:
        return False
    for k in range(keys, 0, -1):
        t.start[k] = t.start[k - 1]
    t.start[0] = 0
    return True


cdef unsigned char _NEVER = 0


cdef class Quarter:
    """The table of every partial placement on an h x h quadrant (h = n // 2).

    A nonzero first byte of `stop` ends the build early with a RuntimeError.
    Read-only once built: threads may share it.
    """

    cdef _Table t
    cdef readonly int n

    def __cinit__(self, n, const unsigned char[::1] stop=None):
        cdef bint ok
        cdef int h
        n = PyNumber_Index(n)
        if not MIN_N <= n <= MAX_N:
            raise ValueError(f"n must be between {MIN_N} and {MAX_N}, got {n}")
        if stop is not None and stop.shape[0] < 1:
            raise ValueError("stop must hold at least one byte")
        self.n = n
        self.t.start = NULL
        self.t.entry = NULL
        self.t.stopped = False
        self.t.stop = &_NEVER
        if stop is not None:
            self.t.stop = <const volatile unsigned char *>&stop[0]
        h = n // 2
        with nogil:
            ok = _build(&self.t, h)
        self.t.stop = &_NEVER  # the buffer may go away
        if self.t.stopped:
            raise RuntimeError("stopped: the quadrant table was not built")
        if not ok:
            raise MemoryError("no memory for the quadrant table")

    def __dealloc__(self):
        release(self.t.start)
        release(self.t.entry)

    @property
    def size(self):
        """How many placements the table holds."""
        return self.t.start[(<size_t>1) << (2 * self.t.h)]

    def placements(self, rows, cols):
        """The (d1, d2) masks of the placements with these row and column sets."""
        cdef uint64_t r = PyNumber_Index(rows), c = PyNumber_Index(cols)
        cdef int h = self.t.h
        if r >> h or c >> h:
            raise ValueError(f"rows and cols must be masks of {h} bits")
        cdef uint32_t key = <uint32_t>((r << h) | c)
        return [(self.t.entry[i] & 0xFFFFFFFF, self.t.entry[i] >> 32)
                for i in range(self.t.start[key], self.t.start[key + 1])]


cdef struct _Geo:
    int n, h, off  # off: the first row of the south quadrants, column of the east
    int lo1, lo2, width  # the overlap: d1 from lo1, d2 from lo2, width bits each
    uint64_t full


cdef void _geometry(_Geo *g, int n) noexcept nogil:
    g.n = n
    g.h = n // 2
    g.off = n - g.h
    g.lo1 = g.off
    g.lo2 = n - g.h
    g.width = n + g.h - 1 - g.off
    g.full = ((<uint64_t>1) << g.width) - 1


cdef struct _Buf:
    uint64_t *data
    size_t size, room


cdef bint _push(_Buf *b, uint64_t value) noexcept nogil:
    cdef size_t room
    cdef uint64_t *grown
    if b.size == b.room:
        room = b.room * 2 if b.room else 1024
        grown = <uint64_t *>realloc(b.data, room * sizeof(uint64_t))
        if grown == NULL:
            return False
        b.data = grown
        b.room = room
    b.data[b.size] = value
    b.size += 1
    return True


cdef bint _reserve(_Buf *b, size_t room) noexcept nogil:
    cdef uint64_t *grown
    if b.room < room:
        grown = <uint64_t *>realloc(b.data, room * sizeof(uint64_t))
        if grown == NULL:
            return False
        b.data = grown
        b.room = room
    return True


cdef inline bint _grow(_Buf *b, size_t room) noexcept nogil:
    # room for `room` words, at least doubling when it grows (for buffers
    # that grow in many small steps)
    return b.room >= room or _reserve(b, room if room > 2 * b.room else 2 * b.room)


cdef struct _Keys:
    unsigned char *data
    size_t room


cdef struct _Lines:
    # a buffer whose data starts on a cache line (the bit-sliced tables: a group's
    # entry of 64 bytes is then one line, however the heap lays it out)
    void *raw
    uint64_t *data
    size_t room


cdef bint _reserve_lines(_Lines *b, size_t room) noexcept nogil:
    # room for `room` words, the old contents dropped
    if b.room < room:
        release(b.raw)
        b.raw = malloc(room * sizeof(uint64_t) + 64)
        if b.raw == NULL:
            b.data = NULL
            b.room = 0
            return False
        b.data = <uint64_t *>((<uintptr_t>b.raw + 63) & ~(<uintptr_t>63))
        b.room = room
    return True


cdef struct _South:
    _Buf words  # the placements as nq_place writes them (_native/dispatch.h)
    uint64_t *span  # the placements of column set c: first | end << 32 (end excluded),
    size_t *plain  # those off the long diagonals first, up to plain[c]; set for the
    # column sets as large as the rows (filled[0..many - 1]), 0 (none) for the others
    uint32_t *filled
    size_t many
    uint32_t rows
    Mode mode
    bint valid


cdef struct _Memo:
    # one side's north quadrant placements for the job at hand, kept as they are
    # needed again (a row set's north rows change from one row set to the next,
    # and the same keys come back thousands of times): ready[r] is 1 once a row
    # set with north rows r has placed its own, 2 once those of every key (r, c)
    # it may ask for are kept: those of its i-th column subset (in the order of
    # the side's spread) are span[offset[r] + i] (first | end << 32, end
    # excluded), those off the long diagonals first, up to plain[offset[r] + i];
    # `size` placements in all, `keys` subsets.  (Kept only from the second use,
    # so that a few row sets from random places, as the pace of estimate() counts,
    # cost what they would without it.  The spans are found by the subset's rank, at
    # most C(2h, h) of them a side, not by (r << h) | c, whose 2 ** 2h words a side
    # would outgrow the second level cache.)
    _Buf words
    uint64_t *span
    uint32_t *plain
    uint32_t *offset
    unsigned char *ready
    size_t size, keys
    Mode mode


cdef struct _Side:
    # what _halves reads of one side: the subsets of its free columns, by size
    # (spread[size_from[k]] on: those of size k), its south placements and its memo
    const uint32_t *spread
    const uint32_t *size_from
    _South *south
    _Memo *memo


cdef struct _Work:
    _Side sides[2]  # west, east: their own (below), or a cross's west (_count_crosses)
    uint32_t *spread[2]  # west, east: the subsets of the free columns, by size (below)
    uint32_t size_from[2][34]  # those of size k: spread[side][size_from[side][k]] on
    # a job of crosses: the west's spread without each middle row queen's column a,
    # and each cross's south and north placements (its sides[0] while it is counted)
    uint32_t *spreads  # a's at spreads + (a << h)
    uint32_t sizes_from[_MAX_H][34]
    _South west_south[_MAX_CROSSES]  # by the cross's rank in the job
    _Memo west_memo[_MAX_CROSSES]
    _Buf north  # a row set's north placements, where the memo keeps none
    uint64_t *spans  # _halves' joins by class (_Spans), room for 5 x 2 ** h of them
    _Memo memo[2]  # west, east
    bint memo_on  # the job's north placements are kept (h <= _MEMO_MAX_H)
    _South south[2]  # west, east
    _Buf stored
    _Buf items[3]  # _CLASSES
    _Lines tables
    _Buf sorted_stored  # stored and items in buckets by their cut bits
    _Buf sorted_items[3]
    _Keys keys  # the bucket of each mask being sorted
    int wide_policy  # the tables' kind (_slice): 0 as it pays, 1 wide, 2 never wide


cdef void _release_work(_Work *w) noexcept nogil:
    cdef int i
    release(w.north.data)
    for i in range(2):
        release(w.memo[i].words.data)
        release(w.memo[i].span)
        release(w.memo[i].plain)
        release(w.memo[i].offset)
        release(w.memo[i].ready)
    release(w.spans)
    release(w.spreads)
    for i in range(_MAX_CROSSES):
        release(w.west_memo[i].words.data)
        release(w.west_memo[i].span)
        release(w.west_memo[i].plain)
        release(w.west_memo[i].offset)
        release(w.west_memo[i].ready)
        release(w.west_south[i].words.data)
        release(w.west_south[i].span)
        release(w.west_south[i].plain)
        release(w.west_south[i].filled)
    for i in range(2):
        release(w.spread[i])
        release(w.south[i].words.data)
        release(w.south[i].span)
        release(w.south[i].plain)
        release(w.south[i].filled)
    release(w.stored.data)
    release(w.tables.raw)
    release(w.sorted_stored.data)
    release(w.keys.data)
    for i in range(_CLASSES):
        release(w.items[i].data)
        release(w.sorted_items[i].data)
    memset(w, 0, sizeof(_Work))


cdef size_t _quadrant(const _Table *t, const _Geo *g, uint32_t rows, uint32_t cols,
                      bint south, bint east, uint64_t holes1, uint64_t holes2,
                      Mode mode, _Buf *words, size_t at, size_t *plain) noexcept nogil:
    # the placements of one quadrant with these local rows and columns, clear of
    # the holes, each as one word (nq_place): the packed mask, and above it the
    # diagonals it may share with the other quadrant of its half; OFF_LONG: those
    # off the long diagonals only; BY_CLASS: first those (plain[0] of them), then
    # the others
    cdef int r0 = g.off if south else 0
    cdef int c0 = g.off if east else 0
    cdef uint32_t key = (rows << t.h) | cols
    cdef const uint64_t *entry = t.entry + t.start[key]
    cdef size_t count = t.start[key + 1] - t.start[key]
    cdef size_t k = at
    cdef int on_long
    cdef nq_frame f
    f.s1 = r0 + c0
    f.s2 = r0 - c0 + g.n - g.h
    f.lo1 = g.lo1
    f.lo2 = g.lo2
    f.bits = g.width
    # the diagonals both quadrants of the half reach: d1 = r + c from off + c0,
    # d2 = r - c + n - 1 from off - c0 - h + n, 2h - 1 - off of each
    f.jlo1 = g.off + c0
    f.jlo2 = g.off - c0 - g.h + g.n
    f.jbits = 2 * g.h - 1 - g.off
    f.jat = 2 * g.width
    f.jfull = ((<uint64_t>1) << f.jbits) - 1
    f.holes1 = holes1
    f.holes2 = holes2
    f.long_bit = (<uint64_t>1) << (g.n - 1)
    f.full = g.full
    if mode == ALL:
        k += nq_place(entry, count, &f, -1, words.data + k)
        plain[0] = k
        return k - at
    for on_long in range(2 if mode == BY_CLASS else 1):
        k += nq_place(entry, count, &f, on_long, words.data + k)
        if on_long == 0:
            plain[0] = k
    return k - at


cdef bint _fill_south(const _Table *t, const _Geo *g, const _Work *w, _South *c, bint east,
                      uint32_t rows, uint64_t holes1, uint64_t holes2,
                      Mode mode) noexcept nogil:
    # the south quadrant's placements in `rows` for every subset of the side's
    # columns as large as `rows` (those that can complete a half-board: the side's
    # spread lists them), kept while the south rows stay the same
    cdef uint32_t sub, key
    cdef size_t size = 0, plain = 0, i, first
    cdef const _Side *sd = &w.sides[1 if east else 0]
    cdef int k = _popcount32(rows)
    cdef const uint32_t *subsets = sd.spread + sd.size_from[k]
    cdef size_t many = sd.size_from[k + 1] - sd.size_from[k]
    if c.valid and c.rows == rows and c.mode == mode:
        return True
    c.valid = False  # until it is whole again
    for i in range(c.many):  # the last rows' column sets: none again
        c.span[c.filled[i]] = 0
        c.plain[c.filled[i]] = 0
    c.many = 0
    for i in range(many):
        key = (rows << t.h) | subsets[i]
        size += t.start[key + 1] - t.start[key]
    if not _reserve(&c.words, size + _SLACK):  # and the words nq_place may write past
        return False
    size = 0
    for i in range(many):
        sub = subsets[i]
        first = size
        size += _quadrant(t, g, rows, sub, True, east, holes1, holes2, mode, &c.words, size,
                          &plain)
        c.plain[sub] = plain
        c.span[sub] = first | (<uint64_t>size << 32)
        c.filled[i] = sub
    c.many = many
    c.rows = rows
    c.mode = mode
    c.valid = True
    return True


cdef struct _Spans:
    # joins of north and south placements batched for one nq_join_spans call
    uint64_t *at  # 2 words a join: the north placements', the south ones', each as
    # first | end << 32 (end excluded)
    size_t count
    uint64_t need  # the most they write: the sum of their products
    # the joins' rounds with the north placements outer (the south ones held in
    # registers, 8 a round) and the other way round
    uint64_t north_rounds, south_rounds


# where each class's batch starts in _Work.spans, in units of 2 ** h joins: a
# column subset adds at most one join to classes 0 and 2, three to class 1
cdef size_t[3] _SPANS_FROM = [0, 1, 4]


cdef inline void _span(_Spans *b, size_t a_first, size_t a_end, size_t first,
                       size_t end) noexcept nogil:
    if a_end > a_first and end > first:
        b.at[2 * b.count] = a_first | (<uint64_t>a_end << 32)
        b.at[2 * b.count + 1] = first | (<uint64_t>end << 32)
        b.count += 1
        b.need += (a_end - a_first) * (end - first)
        b.north_rounds += (a_end - a_first) * ((end - first + 7) >> 3)
        b.south_rounds += (end - first) * ((a_end - a_first + 7) >> 3)


cdef bint _memo_reset(const _Table *t, _Work *w, const _Job *job) noexcept nogil:
    # both sides' memos emptied for a new job, in the modes _count_rows asks for
    # (east: OFF_LONG or ALL, west: BY_CLASS or ALL); False: no memory
    cdef int side
    cdef Mode mode
    for side in range(2):
        if side:
            mode = OFF_LONG if job.symmetric else ALL
        else:
            mode = BY_CLASS if job.symmetric else ALL
        if not _memo_clear(t, &w.memo[side], mode):
            return False
    return True


cdef bint _memo_clear(const _Table *t, _Memo *m, Mode mode) noexcept nogil:
    # a memo emptied for a new job; False: no memory
    # at most C(2h, h) keys: a north row set of k rows asks for the k-subsets of
    # at most h columns
    cdef size_t keys = <size_t>_choose(2 * t.h, t.h)
    m.mode = mode
    if m.span == NULL:  # (each made once, kept with the Scratch)
        m.span = <uint64_t *>malloc(keys * sizeof(uint64_t))
    if m.plain == NULL:
        m.plain = <uint32_t *>malloc(keys * sizeof(uint32_t))
    if m.ready == NULL:
        m.ready = <unsigned char *>malloc((<size_t>1) << t.h)
    if m.offset == NULL:
        m.offset = <uint32_t *>malloc(((<size_t>1) << t.h) * sizeof(uint32_t))
    if m.span == NULL or m.plain == NULL or m.ready == NULL or m.offset == NULL:
        return False
    memset(m.ready, 0, (<size_t>1) << t.h)
    m.size = 0
    m.keys = 0
    return True


cdef bint _memo_fill(const _Table *t, const _Geo *g, _Memo *m, bint east,
                     uint32_t north_rows, const uint32_t *subsets, size_t many,
                     uint64_t holes1, uint64_t holes2) noexcept nogil:
    # the north placements of north_rows with each of these column subsets (all
    # those of its size), appended to the memo; False: no memory
    cdef size_t i, size = m.size, room, plain, first
    cdef uint32_t key
    cdef size_t at = m.keys
    m.offset[north_rows] = <uint32_t>at
    for i in range(many):
        key = (north_rows << t.h) | subsets[i]
        room = size + t.start[key + 1] - t.start[key] + _SLACK
        if not _grow(&m.words, room):
            return False
        first = size
        plain = size
        size += _quadrant(t, g, north_rows, subsets[i], False, east, holes1, holes2,
                          m.mode, &m.words, size, &plain)
        m.plain[at + i] = <uint32_t>plain
        m.span[at + i] = first | (<uint64_t>size << 32)
    m.size = size
    m.keys = at + many
    m.ready[north_rows] = 2
    return True


cdef bint _halves(const _Table *t, const _Geo *g, _Work *w, bint east, uint32_t rows,
                  uint32_t cols, uint64_t holes1, uint64_t holes2, Mode mode,
                  int plain_class) noexcept nogil:
    # every half-board with queens in `rows` (the board's) and `cols` (local),
    # packed, as `mode` says; BY_CLASS: weight class 2 ** (queens on long
    # diagonals), plain_class for those with none (0: dropped).
    # A west half-board can hold the main diagonal in its north quadrant only,
    # the other in its south one.
    cdef int h = g.h
    cdef uint32_t north_rows = rows & ((<uint32_t>1 << h) - 1)
    cdef uint32_t south_rows = rows >> g.off
    cdef int k = _popcount32(north_rows)
    cdef const _Side *sd = &w.sides[1 if east else 0]
    cdef const uint32_t *subsets = sd.spread + sd.size_from[k]
    cdef size_t many = sd.size_from[k + 1] - sd.size_from[k], i
    cdef uint32_t sub, key
    cdef size_t na, nb, plain_a, plain_b, first, a_first = 0, size
    cdef size_t north_at = 0  # without the memo: where the next north placements go
    cdef _Spans batch[3]  # the joins, by weight class (BY_CLASS) or all in batch[0]
    cdef _Buf *out
    cdef int cls
    cdef _South *c = sd.south
    cdef _Memo *memo = NULL  # the job's north placements, where they are kept
    cdef const uint64_t *north  # the north placements' words, from index 0
    cdef const uint64_t *south
    if w.memo_on and sd.memo.mode == mode:
        if sd.memo.ready[north_rows] == 0:  # its first use: placed as without it
            sd.memo.ready[north_rows] = 1
        else:
            memo = sd.memo
            if memo.ready[north_rows] == 1 and not _memo_fill(t, g, memo, east, north_rows,
                                                              subsets, many, holes1, holes2):
                return False
            north = memo.words.data
    if memo == NULL:
        north = w.north.data
    if not _fill_south(t, g, w, c, east, south_rows, holes1, holes2, mode):
        return False
    south = c.words.data
    for cls in range(_CLASSES):
        batch[cls].at = w.spans + 2 * _SPANS_FROM[cls] * ((<size_t>1) << h)
        batch[cls].count = 0
        batch[cls].need = 0
        batch[cls].north_rounds = 0
        batch[cls].south_rounds = 0
    if memo != NULL and mode != BY_CLASS:  # the common case, in a loop of its own
        _memo_spans(&batch[0], subsets, many, cols, c.span,
                    memo.span + memo.offset[north_rows])
        many = 0
    for i in range(many):  # the subsets of the columns as large as north_rows
        sub = subsets[i]
        first = <uint32_t>c.span[cols ^ sub]
        nb = c.span[cols ^ sub] >> 32
        plain_b = c.plain[cols ^ sub]
        if memo != NULL:
            a_first = <uint32_t>memo.span[memo.offset[north_rows] + i]
            na = memo.span[memo.offset[north_rows] + i] >> 32 if nb > first else a_first
            plain_a = memo.plain[memo.offset[north_rows] + i]
        else:
            # appended after the row set's earlier ones, which batched joins still read
            a_first = na = plain_a = north_at
            if nb > first:
                key = (north_rows << h) | sub
                size = north_at + t.start[key + 1] - t.start[key] + _SLACK
                if not _grow(&w.north, size):
                    return False
                na += _quadrant(t, g, north_rows, sub, False, east, holes1, holes2, mode,
                                &w.north, north_at, &plain_a)
                north_at = na
                north = w.north.data
        if mode != BY_CLASS:
            _span(&batch[0], a_first, na, first, nb)
        else:  # the class: how many of the two quadrants hold a long diagonal
            if plain_class:
                _span(&batch[plain_class - 1], a_first, plain_a, first, plain_b)
            _span(&batch[1], a_first, plain_a, plain_b, nb)
            _span(&batch[1], plain_a, na, first, plain_b)
            _span(&batch[2], plain_a, na, plain_b, nb)
    for cls in range(_CLASSES):
        if batch[cls].count:
            out = &w.items[cls] if mode == BY_CLASS else (
                &w.items[0] if mode == ALL else &w.stored)
            if not _grow(out, out.size + batch[cls].need + NQ_JOIN_SLACK):
                return False
            # each placement of the outer list takes a round, the other list held
            # in registers (8 a round): the outer one is the side of fewer rounds
            out.size += nq_join_spans(out.data + out.size, north, south, batch[cls].at,
                                      batch[cls].count,
                                      batch[cls].south_rounds < batch[cls].north_rounds,
                                      ((<uint64_t>1) << (2 * g.width)) - 1)
    return True


cdef void _memo_spans(_Spans *b, const uint32_t *subsets, size_t many, uint32_t cols,
                      const uint64_t *south_span, const uint64_t *north_span) noexcept nogil:
    # _halves' joins for one batch, the north placements from the memo: the same
    # spans as its general loop, in one kernel (v4: eight subsets at a time; room
    # for 2 * many + 16 words: 2 ** h joins and more, _Work.spans)
    cdef uint64_t sums[3]
    b.count = nq_spans(b.at, subsets, many, cols, south_span, north_span, sums)
    b.need = sums[0]
    b.north_rounds = sums[1]
    b.south_rounds = sums[2]


cdef inline int _popcount32(uint32_t x) noexcept nogil:
    cdef int k = 0
    while x:
        x &= x - 1
        k += 1
    return k


cdef inline bint _half_group(size_t left) noexcept nogil:
    # whether a last part group of `left` masks is sliced as a half group (its
    # masks in words 0..3 of its entries, the others never built nor read): at
    # most 256 of them (on v4 by v3's kernels)
    return 0 < left <= _GROUP_BITS // 2


cdef inline bint _slicing_pays(size_t stored, size_t items) noexcept nogil:
    # whether `items` meet `stored` at less cost bit-sliced (groups of 512, the
    # last one padded, or half a group where it holds at most 256) than one by
    # one, by the cost model of the level that runs (_native/dispatch.h)
    cdef const nq_costs *cost = nq_cost_model()
    cdef uint64_t masks = (stored + cost.block - 1) // cost.block * cost.block
    cdef size_t left = stored % _GROUP_BITS
    cdef uint64_t halves = 2 * (stored // _GROUP_BITS) + (
        0 if left == 0 else (1 if _half_group(left) and cost.half else 2))
    return items * 100 * masks * 2 > 32 * halves * (cost.build + items * <uint64_t>cost.match)


cdef bint _slice(const _Buf *stored, int bits, size_t items, _Lines *tables,
                 size_t *groups, bint *half, bint *wide, int policy) noexcept nogil:
    # the bit-sliced tables of the stored masks, in full groups of 512, and a last
    # part group padded (half a group where it holds at most 256: *half) where
    # that costs less than matching its masks one by one.  Wide tables (*wide,
    # NQ_WIDE bit positions a lookup, no half group) on v4 where each group meets
    # at least _WIDE_FROM items, enough to pay for tables 16 times as big (policy
    # 1: always, 2: never, for the tests of every variant)
    cdef int chunks
    cdef size_t full = stored.size // _GROUP_BITS
    cdef size_t left = stored.size - full * _GROUP_BITS
    cdef size_t count = full + (1 if left and _slicing_pays(left, items) else 0)
    groups[0] = count
    wide[0] = policy == 1 or (policy == 0 and items >= _WIDE_FROM and nq_wide())
    half[0] = count > full and _half_group(left) and not wide[0]
    if wide[0]:
        chunks = (bits + NQ_WIDE - 1) // NQ_WIDE
        if not _reserve_lines(tables, count * <size_t>chunks * 128 * NQ_GROUP):
            return False
        nq_slice_wide(stored.data, stored.size, bits, tables.data, count)
        return True
    chunks = (bits + NQ_CHUNK - 1) // NQ_CHUNK
    if not _reserve_lines(tables, count * <size_t>chunks * 32 * NQ_GROUP):
        return False
    nq_slice(stored.data, stored.size, bits, tables.data, count, half[0])
    return True


cdef uint64_t _pairs(const _Buf *stored, const _Lines *tables, size_t groups, bint half,
                     bint wide, int bits, const _Buf *items) noexcept nogil:
    # how many (stored, item) pairs share no bit
    cdef int chunks = (bits + NQ_CHUNK - 1) // NQ_CHUNK
    cdef uint64_t total
    if wide:
        total = nq_match_wide(tables.data, groups, (bits + NQ_WIDE - 1) // NQ_WIDE,
                              items.data, items.size)
    else:
        total = nq_match(tables.data, groups, chunks, items.data, items.size, half)
    cdef size_t first = groups * _GROUP_BITS - (_GROUP_BITS // 2 if half else 0)
    if first > stored.size:  # the padding meets the empty items only
        total -= nq_empty(items.data, items.size) * (first - stored.size)
        first = stored.size
    return total + nq_direct(stored.data + first, stored.size - first, items.data,
                             items.size)


cdef uint32_t _reverse(int n, uint32_t rows) noexcept nogil:
    cdef uint32_t out = 0
    cdef int r
    while rows:
        r = nq_ctz64(rows)
        rows &= rows - 1
        out |= <uint32_t>1 << (n - 1 - r)
    return out


cdef struct _Job:
    uint32_t rows, west, east
    uint64_t holes1, holes2
    bint symmetric
    uint64_t crosses  # bit c * h + a: the cross of queens (c, h) and (h, a) (Job)
    uint32_t cross_rows  # the rows c of the crosses


cdef void _or_all(uint64_t *items, size_t count, uint64_t bits) noexcept nogil:
    cdef size_t i
    for i in range(count):
        items[i] |= bits


cdef int _count_crosses(const _Table *t, const _Geo *g, const _Job *job, uint32_t east_rows,
                        _Work *w, uint64_t *out) noexcept nogil:
    # a row set of a job of crosses, all counted from the same east half-boards,
    # listed without the crosses' queens' holes.  The middle row's queen at
    # (h, a) holds d1 = h + a and d2 = n - 1 + h - a, the middle column's at
    # (c, h), 0 < c < h, d1 = d2 = c + h; a west half-board of the cross never
    # holds them, and they are bits of the packed masks wherever an east
    # half-board can hold them: the cross's pairs are those of the east
    # half-boards with its west ones, these bits set.  So the west half-boards
    # of every cross whose row c is not an east row, so marked, are counted
    # against the east ones at once.  -1: out of memory
    cdef uint64_t crosses, queen, d1, d2
    cdef uint32_t todo = job.cross_rows & ~east_rows
    cdef int a, c, x, cls
    cdef int rank = 0  # the cross's rank in the job: its west's south and memo
    cdef bint ok = True
    cdef size_t first
    cdef _Buf spare
    cdef _Side own = w.sides[0]
    out[0] = 0
    for cls in range(_CLASSES):
        w.items[cls].size = 0
    if not _halves(t, g, w, True, east_rows, job.east, job.holes1, job.holes2, ALL, 1):
        return -1
    spare = w.stored  # ALL wrote into items[0]: those are the stored ones
    w.stored = w.items[0]
    w.items[0] = spare
    w.items[0].size = 0
    if w.stored.size == 0:
        return 0
    crosses = job.crosses
    while crosses and ok:
        x = nq_ctz64(crosses)
        crosses &= crosses - 1
        c = x // g.h
        if not (todo >> c) & 1:  # row c holds an east queen: not this cross's row set
            rank += 1
            continue
        a = x - c * g.h
        d1 = ((<uint64_t>1) << (g.h + a)) | ((<uint64_t>1) << (g.h + c))
        d2 = ((<uint64_t>1) << (g.n - 1 + g.h - a)) | ((<uint64_t>1) << (g.h + c))
        # the west without column a and row c, its own south and north placements
        w.sides[0].spread = w.spreads + ((<size_t>a) << g.h)
        w.sides[0].size_from = w.sizes_from[a]
        w.sides[0].south = &w.west_south[rank]
        w.sides[0].memo = &w.west_memo[rank]
        rank += 1
        first = w.items[0].size
        ok = _halves(t, g, w, False, job.rows & ~east_rows & ~(<uint32_t>1 << c),
                     job.west & ~(<uint32_t>1 << a), job.holes1 | d1, job.holes2 | d2, ALL, 1)
        queen = _pack(g, d1, d2)
        if ok:
            _or_all(w.items[0].data + first, w.items[0].size - first, queen)
    w.sides[0] = own
    if not ok or (w.items[0].size and not _weighted_pairs(w, 2 * g.width, out)):
        return -1
    return 0


cdef inline uint64_t _pack(const _Geo *g, uint64_t d1, uint64_t d2) noexcept nogil:
    # the board's diagonals where the halves overlap, packed as nq_place packs them
    return ((d1 >> g.lo1) & g.full) | (((d2 >> g.lo2) & g.full) << g.width)


cdef int _count_rows(const _Table *t, const _Geo *g, const _Job *job, uint32_t east_rows,
                     _Work *w, uint64_t *out) noexcept nogil:
    # the weighted count of one row set into out; -1 when out of memory
    cdef uint32_t flipped, other
    cdef int prime = 1, plain_class = 1, cls
    cdef int bits = 2 * g.width
    cdef uint64_t total = 0
    cdef _Buf spare
    if job.crosses:
        return _count_crosses(t, g, job, east_rows, w, out)
    out[0] = 0
    if job.symmetric:
        flipped = _reverse(g.n, east_rows)
        if east_rows > flipped:
            return 0
        prime = 1 if east_rows == flipped else 2
        other = job.rows ^ east_rows
        flipped = _reverse(g.n, other)
        if flipped < other:
            other = flipped
        plain_class = 1 if other == east_rows else (2 if east_rows < other else 0)
    w.stored.size = 0
    for cls in range(_CLASSES):
        w.items[cls].size = 0
    if not _halves(t, g, w, True, east_rows, job.east, job.holes1, job.holes2,
                   OFF_LONG if job.symmetric else ALL, plain_class):
        return -1
    if not job.symmetric:  # ALL wrote into items[0]: those are the stored ones
        spare = w.stored
        w.stored = w.items[0]
        w.items[0] = spare
    if w.stored.size == 0:
        return 0
    if not _halves(t, g, w, False, job.rows ^ east_rows, job.west, job.holes1,
                   job.holes2, BY_CLASS if job.symmetric else ALL, plain_class):
        return -1
    if not _weighted_pairs(w, bits, &total):
        return -1
    out[0] = prime * total
    return 0


cdef bint _weighted_pairs(_Work *w, int bits, uint64_t *out) noexcept nogil:
    # the disjoint pairs of stored and items, weighted 1, 2, 4 by the items' class
    cdef size_t groups
    cdef size_t items = w.items[0].size + w.items[1].size + w.items[2].size
    cdef int cls
    cdef uint64_t total = 0
    cdef bint half = False, wide = False
    if w.stored.size >= _CUT_FROM:
        return _cut_pairs(w, bits, out)
    if not _slicing_pays(w.stored.size, items):
        groups = 0
    elif not _slice(&w.stored, bits, items, &w.tables, &groups, &half, &wide, w.wide_policy):
        return False
    for cls in range(_CLASSES):
        if w.items[cls].size:
            total += (<uint64_t>1 << cls) * _pairs(&w.stored, &w.tables, groups, half, wide, bits,
                                                   &w.items[cls])
    out[0] = total
    return True


ctypedef struct _Cuts:
    # a mask's bucket as the OR of one lookup per byte: _MOST_CUTS lookups, unused
    # ones of a table of zeros (a loop over the cut bits took a load and two shifts
    # by a variable count a bit, most of the sort)
    int shift[_MOST_CUTS]
    unsigned char table[_MOST_CUTS][256]


cdef void _cuts(const int *cut, int k, _Cuts *c) noexcept nogil:
    # the tables of cut bits cut[0..k-1]: the bucket's bit i is the mask's bit cut[i]
    cdef int i, j, v, m = 0
    memset(c, 0, sizeof(_Cuts))
    for i in range(k):
        j = 0
        while j < m and c.shift[j] != cut[i] & ~7:
            j += 1
        if j == m:
            c.shift[j] = cut[i] & ~7
            m += 1
        for v in range(256):
            if (v >> (cut[i] & 7)) & 1:
                c.table[j][v] |= <unsigned char>(1 << i)


cdef inline uint32_t _bucket(uint64_t x, const _Cuts *c) noexcept nogil:
    return (c.table[0][(x >> c.shift[0]) & 255] | c.table[1][(x >> c.shift[1]) & 255]
            | c.table[2][(x >> c.shift[2]) & 255] | c.table[3][(x >> c.shift[3]) & 255]
            | c.table[4][(x >> c.shift[4]) & 255])


cdef bint _sort_buckets(const _Buf *src, _Buf *dest, const _Cuts *cuts, int k,
                        size_t *start, _Keys *keys) noexcept nogil:
    # src's masks into dest by bucket (counting sort); bucket b is start[b]..start[b + 1].
    # Each mask's bucket is found once; the counts go to four tallies in turn, and
    # the masks are placed by four cursors in turn (each bucket's part of dest
    # split four ways, a tally's masks each), so that a run of masks in one bucket
    # does not wait on one counter
    cdef size_t i, buckets = (<size_t>1) << k, b, end
    cdef size_t tally[4][(1 << _MOST_CUTS)]
    cdef size_t at[4][(1 << _MOST_CUTS)]
    cdef unsigned char *key
    cdef unsigned char *grown
    if not _reserve(dest, src.size + 1):
        return False
    if keys.room < src.size:
        grown = <unsigned char *>realloc(keys.data, src.size)
        if grown == NULL:
            return False
        keys.data = grown
        keys.room = src.size
    key = keys.data
    memset(tally, 0, sizeof(tally))
    for i in range(src.size):
        key[i] = <unsigned char>_bucket(src.data[i], cuts)
        tally[i & 3][key[i]] += 1
    start[0] = 0
    for b in range(buckets):
        at[0][b] = start[b]
        at[1][b] = at[0][b] + tally[0][b]
        at[2][b] = at[1][b] + tally[1][b]
        at[3][b] = at[2][b] + tally[2][b]
        start[b + 1] = at[3][b] + tally[3][b]
    end = src.size - src.size % 4
    for i in range(0, end, 4):
        dest.data[at[0][key[i]]] = src.data[i]
        at[0][key[i]] += 1
        dest.data[at[1][key[i + 1]]] = src.data[i + 1]
        at[1][key[i + 1]] += 1
        dest.data[at[2][key[i + 2]]] = src.data[i + 2]
        at[2][key[i + 2]] += 1
        dest.data[at[3][key[i + 3]]] = src.data[i + 3]
        at[3][key[i + 3]] += 1
    for i in range(end, src.size):  # (mask i was tallied in tally i & 3)
        dest.data[at[i & 3][key[i]]] = src.data[i]
        at[i & 3][key[i]] += 1
    dest.size = src.size
    return True


cdef void _held(const _Buf *masks, size_t step, uint64_t *held) noexcept nogil:
    # held[b] += how many of every step-th mask hold bit b
    cdef size_t j = 0
    cdef uint64_t x
    while j < masks.size:
        x = masks.data[j]
        while x:
            held[nq_ctz64(x)] += 1
            x &= x - 1
        j += step


cdef bint _cut_pairs(_Work *w, int bits, uint64_t *out) noexcept nogil:
    # The weighted disjoint pairs, with the masks sorted into buckets by k bit
    # positions: a stored bucket meets only the item buckets that share none of
    # its cut bits.  The positions cut are those most often held on both sides
    # (each prunes about the product of its shares of the pairs).
    cdef uint64_t held_stored[64]
    cdef uint64_t held_items[64]
    cdef uint64_t score, best
    cdef int cut[_MOST_CUTS]
    cdef _Cuts cuts
    cdef size_t starts[_CLASSES + 1][(1 << _MOST_CUTS) + 1]
    cdef int k = 0, b, i, cls, pick
    cdef size_t groups, reach, step
    cdef size_t most = w.stored.size // _BUCKET
    cdef uint32_t bs, bi, buckets
    cdef uint64_t total = 0, chosen = 0
    cdef bint half, wide = False
    cdef _Buf view, items_view
    while most > 1 and k < _MOST_CUTS and k < bits:
        most >>= 1
        k += 1
    for b in range(64):
        held_stored[b] = 0
        held_items[b] = 0
    # the shares from a sample of each side, every step-th mask, at most about
    # _HELD_SAMPLE of them (counting every bit of every mask took a third of
    # count(19); a sample of 512 still took 5% on v3, 128 cuts as well); any cut
    # counts exactly, the shares only choose a good one
    _held(&w.stored, w.stored.size // _HELD_SAMPLE + 1, held_stored)
    step = (w.items[0].size + w.items[1].size + w.items[2].size) // _HELD_SAMPLE + 1
    for cls in range(_CLASSES):
        _held(&w.items[cls], step, held_items)
    for i in range(k):
        best = 0
        pick = -1
        for b in range(bits):
            score = held_stored[b] * held_items[b]
            if not (chosen >> b) & 1 and score >= best:
                best = score
                pick = b
        cut[i] = pick
        chosen |= (<uint64_t>1) << pick
    buckets = (<uint32_t>1) << k
    _cuts(cut, k, &cuts)
    if not _sort_buckets(&w.stored, &w.sorted_stored, &cuts, k, starts[_CLASSES], &w.keys):
        return False
    for cls in range(_CLASSES):
        if not _sort_buckets(&w.items[cls], &w.sorted_items[cls], &cuts, k, starts[cls],
                             &w.keys):
            return False
    for bs in range(buckets):
        view.data = w.sorted_stored.data + starts[_CLASSES][bs]
        view.size = starts[_CLASSES][bs + 1] - starts[_CLASSES][bs]
        if view.size == 0:
            continue
        reach = 0
        for bi in range(buckets):
            if not bs & bi:
                for cls in range(_CLASSES):
                    reach += starts[cls][bi + 1] - starts[cls][bi]
        half = wide = False
        if not _slicing_pays(view.size, reach):
            groups = 0
        elif not _slice(&view, bits, reach, &w.tables, &groups, &half, &wide, w.wide_policy):
            return False
        for bi in range(buckets):
            if bs & bi:
                continue
            for cls in range(_CLASSES):
                items_view.data = w.sorted_items[cls].data + starts[cls][bi]
                items_view.size = starts[cls][bi + 1] - starts[cls][bi]
                if items_view.size:
                    total += (<uint64_t>1 << cls) * _pairs(&view, &w.tables, groups, half, wide,
                                                           bits, &items_view)
    out[0] = total
    return True


cdef void _spread_columns(_Work *w, int side, uint32_t cols) noexcept nogil:
    _spread_into(w.spread[side], w.size_from[side], cols)


cdef void _spread_into(uint32_t *spread, uint32_t *at, uint32_t cols) noexcept nogil:
    # spread: every subset of `cols`, by size (at[k] to at[k + 1] - 1: those of k
    # columns), each size in increasing order (as Gosper's hack would list them),
    # so that _halves reads them in turn
    cdef int m = _popcount32(cols), k
    cdef uint32_t c, sub
    for k in range(34):
        at[k] = 0
    for c in range((<uint32_t>1) << m):  # how many of each size, then where each size starts
        at[_popcount32(c) + 1] += 1
    for k in range(m + 1):
        at[k + 1] += at[k]
    for k in range(m + 2, 34):  # sizes beyond m: none (they start and end at the last)
        at[k] = at[m + 1]
    sub = 0
    while True:  # the subsets of cols in increasing order, each after those of its size
        spread[at[_popcount32(sub)]] = sub
        at[_popcount32(sub)] += 1
        if sub == cols:
            break
        sub = (sub - cols) & cols
    for k in range(m, 0, -1):  # each start moved on to its size's end: back
        at[k] = at[k - 1]
    at[0] = 0


cdef bint _prepare_work(const _Table *t, _Work *w) noexcept nogil:
    memset(w, 0, sizeof(_Work))
    cdef size_t most = t.most + _SLACK
    cdef size_t subsets = (<size_t>1) << t.h
    cdef int i
    w.spans = <uint64_t *>malloc(2 * 5 * subsets * sizeof(uint64_t))
    if w.spans == NULL:
        return False
    for i in range(2):
        w.spread[i] = <uint32_t *>malloc(subsets * sizeof(uint32_t))
        if w.spread[i] == NULL:
            return False
        w.sides[i].spread = w.spread[i]
        w.sides[i].size_from = w.size_from[i]
        w.sides[i].south = &w.south[i]
        w.sides[i].memo = &w.memo[i]
        # (no column set holds placements until one is filled: a caller of
        # packed_halves may ask for column sets of another size than the rows)
        w.south[i].span = <uint64_t *>calloc(subsets, sizeof(uint64_t))
        w.south[i].plain = <size_t *>calloc(subsets, sizeof(size_t))
        w.south[i].filled = <uint32_t *>malloc(subsets * sizeof(uint32_t))
        if w.south[i].span == NULL or w.south[i].plain == NULL or w.south[i].filled == NULL:
            return False
    return _reserve(&w.north, most)


cdef bint _prepare_crosses(const _Table *t, _Work *w, uint32_t west,
                           uint64_t crosses) noexcept nogil:
    # a new job's west without each middle row queen's column (_count_crosses):
    # the spreads made, each cross's south and north placements none yet (after
    # _memo_reset: memo_on set); False: no memory
    cdef size_t subsets = (<size_t>1) << t.h
    cdef int a, rank
    cdef uint32_t columns = 0
    cdef _South *c
    for rank in range(_MAX_CROSSES):
        w.west_south[rank].valid = False
    if crosses == 0:
        return True
    if w.spreads == NULL:
        w.spreads = <uint32_t *>malloc(t.h * subsets * sizeof(uint32_t))
        if w.spreads == NULL:
            return False
    rank = 0
    while crosses:
        a = nq_ctz64(crosses) % t.h
        crosses &= crosses - 1
        columns |= <uint32_t>1 << a
        c = &w.west_south[rank]
        if c.span == NULL:
            c.span = <uint64_t *>calloc(subsets, sizeof(uint64_t))
        if c.plain == NULL:
            c.plain = <size_t *>calloc(subsets, sizeof(size_t))
        if c.filled == NULL:
            c.filled = <uint32_t *>malloc(subsets * sizeof(uint32_t))
        if c.span == NULL or c.plain == NULL or c.filled == NULL:
            return False
        if w.memo_on and not _memo_clear(t, &w.west_memo[rank], ALL):
            return False
        rank += 1
    while columns:
        a = nq_ctz64(columns)
        columns &= columns - 1
        _spread_into(w.spreads + (<size_t>a << t.h), w.sizes_from[a], west & ~(<uint32_t>1 << a))
    return True


cdef uint64_t _choose(int m, int k) noexcept nogil:
    cdef uint64_t r = 1
    cdef int i
    if k < 0 or k > m:
        return 0
    for i in range(k):
        r = r * (m - i) // (i + 1)
    return r


cdef uint32_t _unrank(uint64_t rank, int m, int k) noexcept nogil:
    # the rank-th k-subset of m positions in colex order, as a mask of positions
    cdef uint32_t mask = 0
    cdef int c = m
    cdef int i
    for i in range(k, 0, -1):
        c -= 1
        while _choose(c, i) > rank:
            c -= 1
        mask |= <uint32_t>1 << c
        rank -= _choose(c, i)
    return mask


cdef uint32_t _spread(uint32_t chosen, const int *positions) noexcept nogil:
    cdef uint32_t out = 0
    cdef int p
    while chosen:
        p = nq_ctz64(chosen)
        chosen &= chosen - 1
        out |= <uint32_t>1 << positions[p]
    return out


def cpu_levels():
    """The variants of the pair counting this processor runs, from CPU_LEVELS:
    baseline (any x86-64, or any other processor), v3 (AVX2 and popcount),
    v4 (AVX-512 with VPOPCNTDQ and GFNI)."""
    cdef int levels = nq_levels()
    return tuple(name for i, name in enumerate(CPU_LEVELS) if levels >> i & 1)


def cpu():
    """The variant of the pair counting that runs (the best, unless use_cpu chose)."""
    return CPU_LEVELS[nq_level()]


def use_cpu(name):
    """Run the variant `name` of the pair counting from now on, in every thread
    (every variant counts exactly the same; for tests and benchmarks)."""
    if name not in CPU_LEVELS:
        raise ValueError(f"the variants are {', '.join(CPU_LEVELS)}, not {name!r}")
    if not nq_use(CPU_LEVELS.index(name)):
        raise ValueError(f"this processor does not run {name}: it runs "
                         f"{', '.join(cpu_levels())}")


cdef class Job:
    """What a cross leaves to the quadrants of an n board, checked once here:
    the free rows (board rows), the free west and east columns (local, bit c:
    column c of the half), the diagonals the cross holds (r + c and
    r - c + n - 1), and whether the even board's symmetries hold within it.

    ``crosses`` (odd n): the crosses counted together, bit c * h + a for
    the middle column's queen at (c, h) and the middle row's at (h, a), with
    0 < c < h, a a free west column, a != c; the middle row is not free.
    Either every c is a free row (a row set holding row c in the east skips
    its crosses; the free columns are as many as the free rows), or all share
    one c that is not free, whose diagonals c + h the holes hold (its queen
    placed: the free columns are one more than the free rows).  Each row set
    counts the crosses it leaves room for.

    >>> Job(8, 0xFF, 0xF, 0xF, 0, 0, True).row_sets
    70
    >>> Job(7, 0b1110101, 0b111, 0b111, 1 << 4, 1 << 4, False, 0b1 << 3).row_sets
    10
    >>> Job(7, 0b1110111, 0b111, 0b111, 0, 0, False, 0b1 << 3 | 0b11 << 6).row_sets
    20
    """

    cdef _Job job
    cdef readonly int n
    cdef int m  # free rows
    cdef int k  # free east columns: each row set has k rows
    cdef int positions[32]  # the free rows, in order

    def __cinit__(self, n, rows, west, east, holes1, holes2, symmetric, crosses=0):
        cdef uint64_t r, cw, ce
        cdef int i, h, c, a, held = 0, many = 0
        n = PyNumber_Index(n)
        if not MIN_N <= n <= MAX_N:
            raise ValueError(f"n must be between {MIN_N} and {MAX_N}, got {n}")
        r = PyNumber_Index(rows)
        cw = PyNumber_Index(west)
        ce = PyNumber_Index(east)
        if r >> n or cw >> (n // 2) or ce >> (n // 2):
            raise ValueError("rows must be a mask of the board's rows, west and east of h columns")
        self.n = n
        self.job.rows = <uint32_t>r
        self.job.west = <uint32_t>cw
        self.job.east = <uint32_t>ce
        self.job.holes1 = PyNumber_Index(holes1)
        self.job.holes2 = PyNumber_Index(holes2)
        self.job.symmetric = bool(symmetric)
        self.job.crosses = PyNumber_Index(crosses)
        self.job.cross_rows = 0
        h = n // 2
        if self.job.crosses and (n % 2 == 0 or self.job.symmetric or (r >> h) & 1):
            raise ValueError("crosses are of an odd board whose middle row is not free, in a "
                             "job without its symmetries")
        for i in range(64):
            if (self.job.crosses >> i) & 1:
                c = i // h
                a = i - c * h
                if not 0 < c < h or not (cw >> a) & 1 or a == c:
                    raise ValueError(f"the cross of bit {i} is not one: its middle column "
                                     "queen's row must be north of the middle, off the edge, "
                                     "its middle row queen's column a free west one, apart")
                self.job.cross_rows |= <uint32_t>1 << c
                held += 0 if (r >> c) & 1 else 1
                many += 1
        if held and (held != many or _popcount32(self.job.cross_rows) != 1
                     or not (self.job.holes1 >> (h + nq_ctz64(self.job.cross_rows))) & 1
                     or not (self.job.holes2 >> (h + nq_ctz64(self.job.cross_rows))) & 1):
            raise ValueError("crosses whose middle column queen's row is not free share it, "
                             "its diagonals held")
        self.m = 0
        for i in range(n):
            if (r >> i) & 1:
                self.positions[self.m] = i
                self.m += 1
        self.k = _popcount32(self.job.east)
        if _popcount32(self.job.west) + self.k - (1 if held else 0) != self.m:
            raise ValueError("the free rows must be as many as the free columns (one fewer, "
                             "with crosses whose row is not free)")

    @property
    def rows(self):
        return self.job.rows

    @property
    def west(self):
        return self.job.west

    @property
    def east(self):
        return self.job.east

    @property
    def holes1(self):
        return self.job.holes1

    @property
    def holes2(self):
        return self.job.holes2

    @property
    def symmetric(self):
        return bool(self.job.symmetric)

    @property
    def crosses(self):
        return self.job.crosses

    @property
    def row_sets(self):
        """How many row sets it has: the k-subsets of the free rows, k its free east columns."""
        return _choose(self.m, self.k)


cdef class Scratch:
    """One thread's working memory for count_rows on one Quarter, kept from
    call to call (the compiled core's lists grow to what the largest row set
    needs; the twin keeps nothing in it).  One thread's at a time: a second
    thread is refused (RuntimeError) while one counts with it."""

    cdef _Work w
    cdef readonly Quarter quarter
    cdef _Job last  # the job whose south quadrants the work holds
    cdef bint has_last
    cdef bint busy  # a count_rows is using it (set and cleared under the GIL)

    def __cinit__(self, Quarter quarter not None):
        self.quarter = quarter
        self.has_last = False
        self.busy = False
        if not _prepare_work(&quarter.t, &self.w):
            _release_work(&self.w)
            raise MemoryError("no memory for the half-boards")

    def __dealloc__(self):
        _release_work(&self.w)


cdef bint _same_job(const _Job *a, const _Job *b) noexcept nogil:
    return (a.rows == b.rows and a.west == b.west and a.east == b.east
            and a.holes1 == b.holes1 and a.holes2 == b.holes2
            and a.symmetric == b.symmetric and a.crosses == b.crosses)


def count_rows(Quarter quarter not None, Job job not None, first, end,
               const unsigned char[::1] stop, Scratch scratch=None, planned=0):
    """The weighted count of the row sets ranked first..end-1 (colex order) of
    `job` (of the quarter's n); `scratch`, this thread's Scratch of this
    quarter, or None for a new one (one in use by another thread is refused
    with a RuntimeError).  `planned`: how many row sets of this job the caller
    means to count with this scratch in calls like this one (a unit's subproblems): a
    core may keep work for them in the scratch (it counts the same either way)."""
    cdef _Geo g
    cdef _Work *w
    cdef int n = quarter.n
    cdef uint64_t lo = PyNumber_Index(first), hi = PyNumber_Index(end)
    cdef uint64_t _plan = PyNumber_Index(planned)  # (checked as the twin checks it)
    cdef int m = job.m, k = job.k
    cdef uint64_t total = 0, one, rank
    cdef uint32_t chosen, low, ripple
    cdef int failed = 0
    cdef bint repeat
    if stop is None or stop.shape[0] < 1:
        raise ValueError("stop must hold at least one byte")
    if job.n != n:
        raise ValueError(f"the job is of n = {job.n}, the quarter of n = {n}")
    if hi > _choose(m, k) or lo > hi:
        raise ValueError(f"the row sets run from 0 to {_choose(m, k)}, not {lo}..{hi}")
    if scratch is None:
        scratch = Scratch(quarter)
    elif scratch.quarter is not quarter:
        raise ValueError("scratch belongs to another Quarter")
    if scratch.busy:
        raise RuntimeError("this Scratch is in use by another thread")
    _geometry(&g, n)
    w = &scratch.w
    scratch.busy = True  # nothing below raises: it is cleared after the loop
    with nogil:
        repeat = scratch.has_last and _same_job(&scratch.last, &job.job)
        if not repeat:
            w.south[0].valid = False  # another job's south quadrants
            w.south[1].valid = False
            _spread_columns(w, 0, job.job.west)
            _spread_columns(w, 1, job.job.east)
            # the job's north placements are kept as they are first needed (they
            # cost no more than placing them once), up to h = _MEMO_MAX_H
            w.memo_on = g.h <= _MEMO_MAX_H
            if w.memo_on and not _memo_reset(&quarter.t, w, &job.job):
                failed = 1
                hi = lo  # nothing counted: the MemoryError below
            if not _prepare_crosses(&quarter.t, w, job.job.west, job.job.crosses):
                failed = 1
                hi = lo
            scratch.last = job.job
            scratch.has_last = not failed
        if lo < hi:
            chosen = _unrank(lo, m, k)
            rank = lo
            while rank < hi and not stop[0]:
                if _count_rows(&quarter.t, &g, &job.job, _spread(chosen, job.positions), w,
                               &one):
                    failed = 1
                    break
                total += one
                rank += 1
                if chosen:  # the next k-subset (Gosper)
                    low = chosen & (~chosen + 1)
                    ripple = chosen + low
                    chosen = ((ripple ^ chosen) >> (2 + nq_ctz64(low))) | ripple
    scratch.busy = False
    if failed:
        scratch.has_last = False
        raise MemoryError("no memory for the half-boards")
    return total


def packed_halves(Quarter quarter not None, bint east, rows, cols, holes1, holes2, int mode,
                  int plain_class):
    """The packed half-boards as _halves lists them: (stored, [items by class])."""
    cdef _Geo g
    cdef _Work w
    cdef int n = quarter.n
    cdef int h = n // 2
    cdef uint64_t r = PyNumber_Index(rows), c = PyNumber_Index(cols)
    cdef uint64_t hl1 = PyNumber_Index(holes1), hl2 = PyNumber_Index(holes2)
    if not 0 <= mode <= 2:  # ALL, OFF_LONG, BY_CLASS
        raise ValueError(f"{mode} is not a valid Mode")
    cdef Mode side_mode = <Mode>mode
    if r >> n or c >> h or not 0 <= plain_class <= 2:
        raise ValueError("rows, cols or plain_class out of range")
    if r & (1 << h) and n % 2:
        raise ValueError("the middle row holds no quadrant queen")
    _geometry(&g, n)
    if not _prepare_work(&quarter.t, &w):
        _release_work(&w)
        raise MemoryError
    try:
        _spread_columns(&w, 1 if east else 0, <uint32_t>c)
        if not _halves(&quarter.t, &g, &w, east, <uint32_t>r, <uint32_t>c, hl1, hl2,
                       side_mode, plain_class):
            raise MemoryError
        return ([w.stored.data[i] for i in range(w.stored.size)],
                [[w.items[k].data[i] for i in range(w.items[k].size)]
                 for k in range(_CLASSES)])
    finally:
        _release_work(&w)


def count_pairs(stored, items, int bits, tables="any"):
    """How many (stored, item) pairs share no bit, as count_rows finds them
    (one by one, bit-sliced, or in buckets by cut bits, by their numbers).
    ``tables``: "any" (as count_rows chooses), "wide" or "narrow": the kind of
    bit-sliced tables, wherever the masks are sliced (the tests of each)."""
    cdef _Work w
    cdef uint64_t total = 0
    cdef uint64_t mask
    if not 1 <= bits <= 60:
        raise ValueError("bits must be between 1 and 60")
    if tables not in ("any", "wide", "narrow"):
        raise ValueError(f"tables must be 'any', 'wide' or 'narrow', not {tables!r}")
    memset(&w, 0, sizeof(_Work))
    w.wide_policy = ("any", "wide", "narrow").index(tables)
    try:
        for value in stored:
            mask = PyNumber_Index(value)
            if mask >> bits:
                raise ValueError(f"the masks must hold {bits} bits, got {value}")
            if not _push(&w.stored, mask):
                raise MemoryError
        for value in items:
            mask = PyNumber_Index(value)
            if mask >> bits:
                raise ValueError(f"the masks must hold {bits} bits, got {value}")
            if not _push(&w.items[0], mask):
                raise MemoryError
        if not _weighted_pairs(&w, bits, &total):
            raise MemoryError
        return total
    finally:
        _release_work(&w)
