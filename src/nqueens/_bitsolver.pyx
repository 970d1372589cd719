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
from cpython.number cimport PyNumber_Index
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free as release, realloc
from libc.string cimport memcmp, memcpy, memset

cdef extern from "_native/bits.h":
    # the lowest set bit's index: a GCC/Clang builtin, or MSVC's intrinsic
    int nq_ctz64(unsigned long long) nogil
    # the compiler that built this module, and the flags setup.py gave it
    const char *NQ_COMPILER
    const char *NQ_CFLAGS

cdef extern from *:
    """
    /* a gathered placement as a tuple of n (2 to 15) digits, key's first row in
     * its highest 4 bits, in one call (under the Limited API, PyTuple_SetItem
     * would be a call a digit) */
    static PyObject *nq_placement(int n, PyObject *const *digit, unsigned long long key)
    {
        /* row r's digit; in each case below n is a constant, and so is each
         * shift: no chain of shifts from row to row */
    #define NQ_D(r) digit[(key >> (4 * (n - 1 - (r)))) & 15]
        switch (n) {
        case 2: return PyTuple_Pack(2, NQ_D(0), NQ_D(1));
        case 3: return PyTuple_Pack(3, NQ_D(0), NQ_D(1), NQ_D(2));
        case 4: return PyTuple_Pack(4, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3));
        case 5: return PyTuple_Pack(5, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4));
        case 6: return PyTuple_Pack(6, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5));
        case 7: return PyTuple_Pack(7, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                    NQ_D(6));
        case 8: return PyTuple_Pack(8, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                    NQ_D(6), NQ_D(7));
        case 9: return PyTuple_Pack(9, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                    NQ_D(6), NQ_D(7), NQ_D(8));
        case 10: return PyTuple_Pack(10, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                     NQ_D(6), NQ_D(7), NQ_D(8), NQ_D(9));
        case 11: return PyTuple_Pack(11, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                     NQ_D(6), NQ_D(7), NQ_D(8), NQ_D(9), NQ_D(10));
        case 12: return PyTuple_Pack(12, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                     NQ_D(6), NQ_D(7), NQ_D(8), NQ_D(9), NQ_D(10), NQ_D(11));
        case 13: return PyTuple_Pack(13, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                     NQ_D(6), NQ_D(7), NQ_D(8), NQ_D(9), NQ_D(10), NQ_D(11),
                                     NQ_D(12));
        case 14: return PyTuple_Pack(14, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                     NQ_D(6), NQ_D(7), NQ_D(8), NQ_D(9), NQ_D(10), NQ_D(11),
                                     NQ_D(12), NQ_D(13));
        case 15: return PyTuple_Pack(15, NQ_D(0), NQ_D(1), NQ_D(2), NQ_D(3), NQ_D(4), NQ_D(5),
                                     NQ_D(6), NQ_D(7), NQ_D(8), NQ_D(9), NQ_D(10), NQ_D(11),
                                     NQ_D(12), NQ_D(13), NQ_D(14));
        default: PyErr_SetString(PyExc_ValueError, "a gathered placement has 2 to 15 rows");
                 return NULL;
        }
    #undef NQ_D
    }
    """
    ctypedef struct PyObject
    void PyObject_GC_UnTrack(void *)
    # a new reference, which Cython owns (NULL raises)
    object nq_placement(int n, PyObject *const *digit, unsigned long long key)

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


# The algorithms, one file each, in this order (an include is textual).
include "_native/preset.pxi"
include "_native/borders.pxi"
include "_native/symmetric.pxi"
include "_native/gather.pxi"
include "_native/enumerate.pxi"
