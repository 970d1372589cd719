/* What the kernels of every level share: the sizes of the bit-sliced tables, the
 * frame that puts a quadrant on the board, and the bodies and argument lists that
 * each level's kernels are written from (dispatch.h says what each kernel does). */
#ifndef NQUEENS_COMMON_H
#define NQUEENS_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "bits.h"

/* the joins of one span are inlined into nq_join_spans */
#if defined(__GNUC__) || defined(__clang__)
#define NQ_INLINE inline __attribute__((always_inline))
#else
#define NQ_INLINE inline
#endif

#define NQ_GROUP 8 /* words per group: 512 stored masks */
#define NQ_JOIN_SLACK 8 /* words past a join's products that it may write */
#define NQ_CHUNK 5 /* bit positions per table lookup */
#define NQ_WIDE 7 /* bit positions per table lookup in the wide tables (below) */
#define NQ_WIDE_ENTRIES (1 << NQ_WIDE)
#if NQ_WIDE != 7
#error "nq_slice_wide_v4 builds a chunk's entries from 16 in registers and 8 products"
#endif
#if NQ_CHUNK != 5
#error "nq_slice_v4 builds a chunk's 32 entries as two halves of 16"
#endif

typedef struct {
    int s1, s2;         /* the shifts that put a quadrant's diagonals on the board */
    int lo1, lo2, bits; /* the overlap of the halves: d1 from lo1, d2 from lo2, bits each */
    int jlo1, jlo2, jbits, jat; /* the overlap of a half's quadrants, put at bit jat */
    uint64_t holes1, holes2, long_bit, full, jfull;
} nq_frame;

#define NQ_DIRECT_BODY                                                            \
    uint64_t total = 0;                                                           \
    for (size_t i = 0; i < count; i++) {                                          \
        const uint64_t item = items[i];                                           \
        uint64_t found = 0;                                                       \
        for (size_t j = 0; j < size; j++)                                         \
            found += (stored[j] & item) == 0;                                     \
        total += found;                                                           \
    }                                                                             \
    return total;

#define NQ_EMPTY_BODY                                                             \
    size_t empty = 0;                                                             \
    for (size_t i = 0; i < count; i++)                                            \
        empty += items[i] == 0;                                                   \
    return empty;

#define NQ_PLACE_BODY                                                             \
    size_t k = 0;                                                                 \
    for (size_t i = 0; i < count; i++) {                                          \
        const uint64_t d1 = (entry[i] & 0xFFFFFFFFULL) << f->s1;                  \
        const uint64_t d2 = (entry[i] >> 32) << f->s2;                            \
        op[k] = ((d1 >> f->lo1) & f->full) | (((d2 >> f->lo2) & f->full) << f->bits) \
                | (((d1 >> f->jlo1) & f->jfull) << f->jat)                        \
                | (((d2 >> f->jlo2) & f->jfull) << (f->jat + f->jbits));          \
        k += ((d1 & f->holes1) | (d2 & f->holes2)) == 0                           \
             && (on_long < 0 || (((d1 | d2) & f->long_bit) != 0) == on_long);     \
    }                                                                             \
    return k;

#define NQ_JOIN_BODY                                                              \
    size_t k = 0;                                                                 \
    for (size_t j = 0; j < width; j++) {                                          \
        dest[k] = (a | b[j]) & mask;                                              \
        k += (a & b[j]) == 0;                                                     \
    }                                                                             \
    return k;

/* nq_join for north placements a[0], a[1], ... in turn while `room` words
 * are left for one more; *used: how many were joined */
#define NQ_JOIN_ROWS_BODY(JOIN)                                                   \
    size_t written = 0, i = 0;                                                    \
    for (; i < na && room - written >= width; i++)                                \
        written += JOIN(dest + written, a[i], b, width, mask);                    \
    *used = i;                                                                    \
    return written;

#define NQ_JOIN_ROWS_ARGS                                                         \
    uint64_t *dest, size_t room, const uint64_t *a, size_t na, const uint64_t *b, \
        size_t width, uint64_t mask, size_t *used

/* nq_join_rows for each span in turn: span s joins the north placements of
 * spans[2s] with the south placements of spans[2s+1], each word a range
 * first | end << 32 (end excluded), written one after the other; dest holds
 * room for the sum of the spans' products (the most they can keep and write) */
#define NQ_JOIN_SPANS_BODY(ROWS)                                                  \
    size_t written = 0, used;                                                     \
    const uint64_t *outer_list = swap ? b : a, *inner_list = swap ? a : b;        \
    const size_t outer = swap ? 1 : 0;                                            \
    for (size_t s = 0; s < count; s++) {                                          \
        const size_t first = (size_t)(spans[2 * s + outer] & 0xFFFFFFFFu);        \
        const size_t na = (size_t)(spans[2 * s + outer] >> 32) - first;           \
        const size_t second = (size_t)(spans[2 * s + 1 - outer] & 0xFFFFFFFFu);   \
        const size_t nb = (size_t)(spans[2 * s + 1 - outer] >> 32) - second;      \
        written += ROWS(dest + written, (size_t)-1, outer_list + first, na,       \
                        inner_list + second, nb, mask, &used);                     \
    }                                                                             \
    return written;

#define NQ_JOIN_SPANS_ARGS                                                        \
    uint64_t *dest, const uint64_t *a, const uint64_t *b, const uint64_t *spans,  \
        size_t count, int swap, uint64_t mask

/* nq_slice: the tables of `groups` groups of stored masks (bits bits each),
 * the last group padded with masks that hold every bit (they meet only an
 * empty item) */
/* the transposes' first step, where the masks hold at most 32 bits: only rows
 * 0..31 of the result are read, and they need only the low halves of the
 * rows; the caller has put row k + 32's low half in row k's high half, and
 * the other steps then run on rows 0..31 */
#define NQ_HALF(j, m, rows)                                                       \
    do {                                                                          \
        (j) = 16;                                                                 \
        (m) ^= (m) >> 16;                                                         \
        (rows) = 32;                                                              \
    } while (0)

#define NQ_SLICE_ARGS                                                             \
    const uint64_t *stored, size_t size, int bits, uint64_t *tables, size_t groups, int half

#define NQ_SPANS_ARGS                                                             \
    uint64_t *at, const uint32_t *subsets, size_t many, uint32_t cols,            \
        const uint64_t *south_span, const uint64_t *north_span, uint64_t *sums

#endif
