/* The hot loops of the quadrant core, written in C (see _quadrants.pyx):
 * placing a quadrant's table entries on the board, joining north and south
 * quadrants into half-boards, and counting disjoint pairs with bit-sliced
 * tables.  They are in C so that each can be compiled once per processor
 * level and the best one chosen at run time
 * (GCC and Clang on x86-64, as numpy and simdjson do): "baseline" (any
 * x86-64, and the only one elsewhere), "v3" (x86-64-v3: AVX2 and the
 * popcount instruction) and "v4" (AVX-512 with VPOPCNTDQ, and GFNI: a group of 512
 * stored masks is one register, counted by one vpopcntq).
 *
 * tables: per group, `chunks` chunks of 32 entries of NQ_GROUP words (the
 * _quadrants core starts them on a cache line).  Entry v of chunk c is the
 * AND of the words of bit positions 5c + i for each bit i of v (all ones for
 * v = 0); a word's bit says that a stored mask does NOT hold that position.
 * For each item: AND its chunks' entries and count the bits left, the stored
 * masks that share no bit with it.  With `half`, the last group holds at most
 * 256 masks, in words 0..3 of its entries (words 4..7 are neither built nor
 * read: half the work; on v4, sliced and matched by v3's kernels, the full
 * groups before it by v4's).  nq_direct: the same count, one pair at a time (for few
 * stored masks).  nq_empty: how many items are 0 (those alone meet the masks
 * that pad a last group).
 *
 * nq_place: a quadrant's table entries (d1 | d2 << 32, its own diagonals)
 * shifted onto the board, those clear of the holes (and, for on_long 0 or
 * 1, those off or on a long diagonal) written to op as one word each: the
 * packed mask (the diagonals where the halves overlap, bits 0 .. jat - 1)
 * and above it the diagonals where the north and south quadrants of a half
 * overlap (jbits of d1, then jbits of d2), so that a north and a south
 * placement of a half attack each other exactly when their words share a
 * bit; returns how many.  nq_join: for one north placement a, the half-boards
 * (a | b) & mask of the south placements b it does not attack (mask: the
 * packed bits); nq_join_rows: the same for several north placements, while
 * room lasts (v3 and v4 hold a south list of up to 8 in registers for all of
 * them); nq_join_spans,
 * the one the core calls: nq_join_rows for a batch of (north, south) spans,
 * inlined, so that the many short joins of a row set cost one call; with
 * `swap`, the south placements of each span take the north ones' part (the
 * same half-boards, in another order).  nq_spans: a batch of spans to join,
 * the north placements of the i-th column subset north_span[i], the south
 * ones south_span[cols ^ subsets[i]] (each first | end << 32, end excluded),
 * written as pairs at at[2k], at[2k + 1] where both hold placements; returns
 * how many, and sums[0..2] the sums of their products and of the rounds of 8
 * each needs with the north ones outer, and with the south ones (v4: eight
 * subsets at a time).
 * They may write past what they keep: nq_place never past `count` + 7 words
 * from where it starts, nq_join_spans never past the sum of its spans' products
 * and NQ_JOIN_SLACK words more (v3 stores four lanes whole, v4 eight), nq_spans
 * never past 2 * many + 16 words.
 *
 * nq_levels(): the levels this processor and its operating system run, a bit
 * each (NQ_BASELINE, NQ_V3, NQ_V4); nq_use(level) picks one of them (0 when
 * it is not among them); nq_level() says which runs.  The first call of any
 * picks the best; a thread that races another sets the same value.  Built with
 * -DNQ_EMULATE (the tests' build, see _emulate.h), every level runs on any
 * processor, its intrinsics portable C. */
#ifndef NQUEENS_MATCH_H
#define NQUEENS_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "_bits.h"

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

enum { NQ_BASELINE = 0, NQ_V3 = 1, NQ_V4 = 2 };

typedef struct {
    int s1, s2;         /* the shifts that put a quadrant's diagonals on the board */
    int lo1, lo2, bits; /* the overlap of the halves: d1 from lo1, d2 from lo2, bits each */
    int jlo1, jlo2, jbits, jat; /* the overlap of a half's quadrants, put at bit jat */
    uint64_t holes1, holes2, long_bit, full, jfull;
} nq_frame;

/* the plain matching counts the bits of a word's bytes (a few shifts, ANDs and
 * adds) and adds them up in byte counters */
static inline uint64_t nq_byte_counts_plain(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    return (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
}

static inline uint64_t nq_sum_bytes_plain(uint64_t x)
{
    /* the eight bytes (each up to 255) added up */
    x = (x & 0x00FF00FF00FF00FFULL) + ((x >> 8) & 0x00FF00FF00FF00FFULL);
    return (x * 0x0001000100010001ULL) >> 48;
}

/* a carry-save adder: the bits of a + b + c as *h (twos) and *l (ones) */
static inline void nq_csa_plain(uint64_t *h, uint64_t *l, uint64_t a, uint64_t b, uint64_t c)
{
    const uint64_t u = a ^ b;
    *h = (a & b) | (u & c);
    *l = u ^ c;
}

/* one group, `words` of its words (NQ_GROUP, or half of them for a half group):
 * inlined with `words` a constant, its loops unrolled.  Only the total of the
 * bits left matters, not an item's own: an item's words go through carry-save
 * adders (Harley and Seal) into ones, twos, fours (and, for 8 words, one word of
 * eights), and only that last word's bits are counted, in byte counters (at most
 * 8 an item: 31 items before they are summed into the total); the others are
 * counted once at the end */
static NQ_INLINE uint64_t nq_match_group_plain(const uint64_t *t, int chunks,
                                               const uint64_t *items, size_t count,
                                               const int words)
{
    uint64_t top = 0, ones = 0, twos = 0, fours = 0;
    for (size_t i = 0; i < count;) {
        const size_t stop = count - i > 31 ? i + 31 : count;
        uint64_t bytes = 0;
        for (; i < stop; i++) {
            uint64_t item = items[i];
            uint64_t acc[NQ_GROUP];
            const uint64_t *e = t + (item & 31) * NQ_GROUP;
            for (int k = 0; k < words; k++)
                acc[k] = e[k];
            for (int c = 1; c < chunks; c++) {
                item >>= NQ_CHUNK;
                e = t + ((size_t)c * 32 + (item & 31)) * NQ_GROUP;
                for (int k = 0; k < words; k++)
                    acc[k] &= e[k];
            }
            uint64_t t1, t2, f1, last;
            nq_csa_plain(&t1, &ones, ones, acc[0], acc[1]);
            nq_csa_plain(&t2, &ones, ones, acc[2], acc[3]);
            if (words == NQ_GROUP) {
                uint64_t t3, t4, f2;
                nq_csa_plain(&f1, &twos, twos, t1, t2);
                nq_csa_plain(&t3, &ones, ones, acc[4], acc[5]);
                nq_csa_plain(&t4, &ones, ones, acc[6], acc[7]);
                nq_csa_plain(&f2, &twos, twos, t3, t4);
                nq_csa_plain(&last, &fours, fours, f1, f2); /* eights */
            } else {
                nq_csa_plain(&last, &twos, twos, t1, t2); /* fours */
            }
            bytes += nq_byte_counts_plain(last);
        }
        top += nq_sum_bytes_plain(bytes);
    }
    const uint64_t rest = 4 * nq_sum_bytes_plain(nq_byte_counts_plain(fours))
                          + 2 * nq_sum_bytes_plain(nq_byte_counts_plain(twos))
                          + nq_sum_bytes_plain(nq_byte_counts_plain(ones));
    return (words == NQ_GROUP ? 8 : 4) * top + rest;
}

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

/* the plain slicing of one group (or half group: `words` 4): word kk of its
 * entries holds masks 64 kk .. 64 kk + 63, and the words' eight (or four) 64 x 64
 * bit matrices are transposed side by side, a word of each in every step (loops
 * over kk that the compiler turns into vector code where it can: SSE2, NEON) */
static inline void nq_slice_group_plain(const uint64_t *stored, size_t left, int bits,
                                        uint64_t *base, const int words)
{
    const int chunks = (bits + NQ_CHUNK - 1) / NQ_CHUNK;
    uint64_t a[64][NQ_GROUP]; /* a[r][kk]: row r of word kk's matrix */
    for (int kk = 0; kk < words; kk++)
        for (int r = 0; r < 64; r++) {
            const size_t at = (size_t)(kk * 64 + r);
            a[r][kk] = at < left ? stored[at] : ~(uint64_t)0;
        }
    /* bit c of a[r][kk] becomes bit r of a[c][kk] (for bits <= 32: a[0..31] only) */
    uint64_t m = 0xFFFFFFFF00000000ULL;
    int j = 32, rows = 64;
    if (bits <= 32) {
        for (int k = 0; k < 32; k++)
            for (int kk = 0; kk < words; kk++)
                a[k][kk] = (a[k][kk] & 0xFFFFFFFFULL) | (a[k + 32][kk] << 32);
        NQ_HALF(j, m, rows);
    }
    for (; j; j >>= 1, m ^= m >> j) {
        const uint64_t keep = m >> j;
        for (int k = 0; k < rows; k = ((k | j) + 1) & ~j)
            for (int kk = 0; kk < words; kk++) {
                const uint64_t t = ((a[k][kk] >> j) ^ a[k | j][kk]) & keep;
                a[k][kk] ^= t << j;
                a[k | j][kk] ^= t;
            }
    }
    for (int c = 0; c < chunks; c++) {
        uint64_t *entry = base + (size_t)c * 32 * NQ_GROUP;
        for (int kk = 0; kk < words; kk++)
            entry[kk] = ~(uint64_t)0;
        for (int v = 1; v < 32; v++) {
            const uint64_t *from = entry + (v & (v - 1)) * NQ_GROUP;
            const int b = c * NQ_CHUNK + nq_ctz64((unsigned)v);
            for (int kk = 0; kk < words; kk++)
                entry[v * NQ_GROUP + kk] = from[kk] & (b < bits ? ~a[b][kk] : ~(uint64_t)0);
        }
    }
}

#define NQ_SLICE_ARGS                                                             \
    const uint64_t *stored, size_t size, int bits, uint64_t *tables, size_t groups, int half

static size_t nq_place_plain(const uint64_t *entry, size_t count, const nq_frame *f,
                             int on_long, uint64_t *op)
{
    NQ_PLACE_BODY
}

static size_t nq_join_plain(uint64_t *dest, uint64_t a, const uint64_t *b, size_t width,
                            uint64_t mask)
{
    NQ_JOIN_BODY
}

static NQ_INLINE size_t nq_join_rows_plain(NQ_JOIN_ROWS_ARGS)
{
    NQ_JOIN_ROWS_BODY(nq_join_plain)
}

static size_t nq_join_spans_plain(NQ_JOIN_SPANS_ARGS)
{
    NQ_JOIN_SPANS_BODY(nq_join_rows_plain)
}

#define NQ_SPANS_ARGS                                                             \
    uint64_t *at, const uint32_t *subsets, size_t many, uint32_t cols,            \
        const uint64_t *south_span, const uint64_t *north_span, uint64_t *sums

static size_t nq_spans_plain(NQ_SPANS_ARGS)
{
    size_t count = 0;
    uint64_t need = 0, north_rounds = 0, south_rounds = 0;
    for (size_t i = 0; i < many; i++) {
        const uint64_t north = north_span[i], south = south_span[cols ^ subsets[i]];
        const uint64_t na = (north >> 32) - (north & 0xFFFFFFFFu);
        const uint64_t nb = (south >> 32) - (south & 0xFFFFFFFFu);
        /* written whether or not it is kept (no branch to mispredict) */
        at[2 * count] = north;
        at[2 * count + 1] = south;
        count += (na != 0) & (nb != 0);
        need += na * nb;
        north_rounds += na * ((nb + 7) >> 3);
        south_rounds += nb * ((na + 7) >> 3);
    }
    sums[0] = need;
    sums[1] = north_rounds;
    sums[2] = south_rounds;
    return count;
}

static void nq_slice_plain(NQ_SLICE_ARGS)
{
    const size_t stride = (size_t)((bits + NQ_CHUNK - 1) / NQ_CHUNK) * 32 * NQ_GROUP;
    for (size_t g = 0; g < groups; g++) {
        const size_t at = g * 64 * NQ_GROUP;
        const size_t left = at < size ? size - at : 0;
        const uint64_t *from = stored + (left ? at : 0);
        /* (the words as a constant: their loops unrolled) */
        if (half && g + 1 == groups) /* words 4..7 neither built nor read */
            nq_slice_group_plain(from, left, bits, tables + g * stride, NQ_GROUP / 2);
        else
            nq_slice_group_plain(from, left, bits, tables + g * stride, NQ_GROUP);
    }
}

static uint64_t nq_direct_plain(const uint64_t *stored, size_t size, const uint64_t *items,
                                size_t count)
{
    NQ_DIRECT_BODY
}

static size_t nq_empty_plain(const uint64_t *items, size_t count)
{
    NQ_EMPTY_BODY
}

static uint64_t nq_match_plain(const uint64_t *tables, size_t groups, int chunks,
                               const uint64_t *items, size_t count, int half)
{
    const size_t stride = (size_t)chunks * 32 * NQ_GROUP;
    const size_t whole = half && groups ? groups - 1 : groups;
    uint64_t total = 0;
    for (size_t g = 0; g < whole; g++)
        total += nq_match_group_plain(tables + g * stride, chunks, items, count, NQ_GROUP);
    if (whole < groups)
        total += nq_match_group_plain(tables + whole * stride, chunks, items, count,
                                      NQ_GROUP / 2);
    return total;
}

/* The wide tables: as nq_slice's, but NQ_WIDE bit positions a chunk, 128 entries
 * of a group's 8 words each (16 times the table, a third fewer lookups an item),
 * for groups that many items meet (nq_slice_wide, nq_match_wide; the plain ones
 * serve a build without v4, where nq_wide() says they are never chosen) */
static void nq_slice_wide_plain(const uint64_t *stored, size_t size, int bits,
                                uint64_t *tables, size_t groups)
{
    const int chunks = (bits + NQ_WIDE - 1) / NQ_WIDE;
    const size_t stride = (size_t)chunks * NQ_WIDE_ENTRIES * NQ_GROUP;
    for (size_t g = 0; g < groups; g++) {
        uint64_t holds[64][NQ_GROUP]; /* bit c of word kk: mask 64 kk + c holds bit b */
        for (int b = 0; b < bits; b++)
            for (int kk = 0; kk < NQ_GROUP; kk++) {
                uint64_t w = 0;
                for (int r = 0; r < 64; r++) {
                    const size_t at = g * 64 * NQ_GROUP + (size_t)kk * 64 + (size_t)r;
                    const uint64_t mask = at < size ? stored[at] : ~(uint64_t)0;
                    w |= ((mask >> b) & 1) << r;
                }
                holds[b][kk] = w;
            }
        for (int c = 0; c < chunks; c++) {
            uint64_t *entry = tables + g * stride + (size_t)c * NQ_WIDE_ENTRIES * NQ_GROUP;
            for (int kk = 0; kk < NQ_GROUP; kk++)
                entry[kk] = ~(uint64_t)0;
            for (int v = 1; v < NQ_WIDE_ENTRIES; v++) {
                const uint64_t *from = entry + (v & (v - 1)) * NQ_GROUP;
                const int b = c * NQ_WIDE + nq_ctz64((unsigned)v);
                for (int kk = 0; kk < NQ_GROUP; kk++)
                    entry[v * NQ_GROUP + kk] = from[kk] & (b < bits ? ~holds[b][kk] : ~(uint64_t)0);
            }
        }
    }
}

static uint64_t nq_match_wide_plain(const uint64_t *tables, size_t groups, int chunks,
                                    const uint64_t *items, size_t count)
{
    const size_t stride = (size_t)chunks * NQ_WIDE_ENTRIES * NQ_GROUP;
    uint64_t total = 0;
    for (size_t g = 0; g < groups; g++)
        for (size_t i = 0; i < count; i++) {
            uint64_t a = items[i];
            for (int kk = 0; kk < NQ_GROUP; kk++) {
                uint64_t w = ~(uint64_t)0, x = a;
                for (int c = 0; c < chunks; c++, x >>= NQ_WIDE)
                    w &= tables[g * stride
                                + ((size_t)c * NQ_WIDE_ENTRIES + (x & (NQ_WIDE_ENTRIES - 1))) * NQ_GROUP
                                + kk];
                total += nq_sum_bytes_plain(nq_byte_counts_plain(w));
            }
        }
    return total;
}

#if defined(NQ_EMULATE)
/* the tests' build (-DNQ_EMULATE): every level's kernels from portable intrinsics,
 * and every level said to run (see _emulate.h) */
#define NQ_DISPATCH 1
#include "_emulate.h"
#define NQ_TARGET_V3
#define NQ_TARGET_V4
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define NQ_DISPATCH 1
#include <immintrin.h>

#define NQ_TARGET_V3 __attribute__((target("avx2,bmi,bmi2,lzcnt,popcnt")))
#define NQ_TARGET_V4                                                                  \
    __attribute__((target("avx2,bmi,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,"     \
                          "avx512dq,avx512cd,avx512vpopcntdq,gfni")))
#else
#define NQ_DISPATCH 0
#endif

#if NQ_DISPATCH

/* v3 keeps four lanes at once, as v4 keeps eight: the lanes kept are packed to the
 * front of a register by a permutation from this table (entry m: the 64-bit lanes
 * of the bits of m, in order, as pairs of 32-bit indices) and the register stored
 * whole: up to 3 words past the products of a join (NQ_JOIN_SLACK) */
#define NQ_PACK4(a, b, c, d) {2 * (a), 2 * (a) + 1, 2 * (b), 2 * (b) + 1, 2 * (c), 2 * (c) + 1, 2 * (d), 2 * (d) + 1}
static const int32_t nq_pack_v3[16][8] __attribute__((aligned(32))) = {
    NQ_PACK4(0, 0, 0, 0), NQ_PACK4(0, 0, 0, 0), NQ_PACK4(1, 0, 0, 0), NQ_PACK4(0, 1, 0, 0),
    NQ_PACK4(2, 0, 0, 0), NQ_PACK4(0, 2, 0, 0), NQ_PACK4(1, 2, 0, 0), NQ_PACK4(0, 1, 2, 0),
    NQ_PACK4(3, 0, 0, 0), NQ_PACK4(0, 3, 0, 0), NQ_PACK4(1, 3, 0, 0), NQ_PACK4(0, 1, 3, 0),
    NQ_PACK4(2, 3, 0, 0), NQ_PACK4(0, 2, 3, 0), NQ_PACK4(1, 2, 3, 0), NQ_PACK4(0, 1, 2, 3),
};
#undef NQ_PACK4

/* the first `left` lanes (up to 4) all ones, the rest zero */
NQ_TARGET_V3 static inline __m256i nq_lanes_v3(size_t left)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(left < 4 ? left : 4)),
                              _mm256_setr_epi64x(0, 1, 2, 3));
}

/* the lanes of `joined` whose `hit` is zero (of those in `lanes`, a bit each),
 * stored at dest, packed; returns how many */
NQ_TARGET_V3 static inline size_t nq_keep_v3(uint64_t *dest, __m256i hit, __m256i joined,
                                             int lanes)
{
    const int keep = _mm256_movemask_pd(
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(hit, _mm256_setzero_si256()))) & lanes;
    _mm256_storeu_si256((void *)dest,
                        _mm256_permutevar8x32_epi32(
                            joined, _mm256_load_si256((const void *)nq_pack_v3[keep])));
    return (size_t)__builtin_popcount((unsigned)keep);
}

/* the popcount of each byte (nibbles looked up), for the v3 matching below */
NQ_TARGET_V3 static inline __m256i nq_byte_counts_v3(__m256i x)
{
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i bits = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                          0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    return _mm256_add_epi8(
        _mm256_shuffle_epi8(bits, _mm256_and_si256(x, nibble)),
        _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble)));
}

/* a carry-save adder: the bits of a + b + c as h (twos) and l (ones) */
NQ_TARGET_V3 static inline void nq_csa_v3(__m256i *h, __m256i *l, __m256i a, __m256i b,
                                          __m256i c)
{
    const __m256i u = _mm256_xor_si256(a, b);
    *h = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(u, c));
    *l = _mm256_xor_si256(u, c);
}

/* one item's registers for nq_match_groups_v3: `pair` groups' entries (two
 * registers each, or the first alone in a half group: whole 0) ANDed over the
 * item's chunks, into v[0 .. pair * (1 + whole) - 1].  The chunks as byte
 * offsets: entry v of a chunk starts 64 v bytes in, so the item shifted by 6
 * holds them (an item of up to 58 bits: chunks <= 11), each cut out by one
 * shift and one AND, the chunk's own start added in the load's address */
NQ_TARGET_V3 static NQ_INLINE void nq_item_v3(__m256i *v, const uint64_t *t, size_t next,
                                              int chunks, uint64_t item, const int pair,
                                              const int whole)
{
    const int step = whole ? 2 : 1;
    const uint64_t a = item << 6;
    const char *e = (const char *)t + (a & (31 << 6));
    for (int k = 0; k < pair; k++) {
        v[step * k] = _mm256_load_si256((const void *)(e + k * next));
        if (whole)
            v[step * k + 1] = _mm256_load_si256((const void *)(e + k * next + 32));
    }
    for (int c = 1; c < chunks; c++) {
        e = (const char *)t + (size_t)c * 32 * 64 + ((a >> (NQ_CHUNK * c)) & (31 << 6));
        for (int k = 0; k < pair; k++) {
            v[step * k] = _mm256_and_si256(v[step * k],
                                           _mm256_load_si256((const void *)(e + k * next)));
            if (whole)
                v[step * k + 1] = _mm256_and_si256(
                    v[step * k + 1], _mm256_load_si256((const void *)(e + k * next + 32)));
        }
    }
}

/* nq_match_v3 for one number of chunks, `pair` groups at a time (1 or 2): a
 * group's entry is two registers (one in a half group).  Only the total of the
 * bits left matters, not an item's own: every four registers (of one item, or
 * two, or four) go through carry-save adders (Harley and Seal) into ones, twos
 * and one register of fours, and only that one's bits are counted, in byte
 * counters (at most 8 each a round: 31 rounds before they are summed into 64-bit
 * lanes); ones and twos are counted once at the end, the items left over by the
 * rounds one register at a time.  The item's chunks are cut out once for both
 * groups of a pair (two groups' tables fit the first level cache).  Inlined with
 * `chunks`, `pair` and `whole` constants, its loops unrolled */
NQ_TARGET_V3 static NQ_INLINE __m256i nq_match_groups_v3(const uint64_t *t, size_t stride,
                                                         int chunks, const uint64_t *items,
                                                         size_t count, const int pair,
                                                         const int whole)
{
    const __m256i zero = _mm256_setzero_si256();
    const size_t next = stride * sizeof(uint64_t); /* the second group's table, in bytes */
    const int regs = pair * (whole ? 2 : 1);       /* an item's: 1, 2 or 4 */
    const size_t per = (size_t)(4 / regs);         /* items a round */
    const size_t rounds = count / per;
    __m256i fours = zero, ones = zero, twos = zero;
    size_t i = 0;
    for (size_t r = 0; r < rounds;) {
        const size_t stop = rounds - r > 31 ? r + 31 : rounds;
        __m256i bytes = zero;
        for (; r < stop; r++, i += per) {
            __m256i v[4], ta, tb, f;
            for (size_t j = 0; j < per; j++)
                nq_item_v3(v + j * (size_t)regs, t, next, chunks, items[i + j], pair, whole);
            nq_csa_v3(&ta, &ones, ones, v[0], v[1]);
            nq_csa_v3(&tb, &ones, ones, v[2], v[3]);
            nq_csa_v3(&f, &twos, twos, ta, tb);
            bytes = _mm256_add_epi8(bytes, nq_byte_counts_v3(f));
        }
        fours = _mm256_add_epi64(fours, _mm256_sad_epu8(bytes, zero));
    }
    __m256i rest = zero; /* up to 3 items' registers: at most 3 * 8 a byte */
    for (; i < count; i++) {
        __m256i v[4];
        nq_item_v3(v, t, next, chunks, items[i], pair, whole);
        for (int k = 0; k < regs; k++)
            rest = _mm256_add_epi8(rest, nq_byte_counts_v3(v[k]));
    }
    return _mm256_add_epi64(
        _mm256_add_epi64(_mm256_slli_epi64(fours, 2), _mm256_sad_epu8(rest, zero)),
        _mm256_add_epi64(_mm256_slli_epi64(_mm256_sad_epu8(nq_byte_counts_v3(twos), zero), 1),
                         _mm256_sad_epu8(nq_byte_counts_v3(ones), zero)));
}

NQ_TARGET_V3 static NQ_INLINE uint64_t nq_match_chunks_v3(const uint64_t *tables,
                                                          size_t groups, int chunks,
                                                          const uint64_t *items, size_t count,
                                                          int half)
{
    const size_t stride = (size_t)chunks * 32 * NQ_GROUP;
    const size_t whole = half ? groups - 1 : groups; /* (groups >= 1 where half) */
    __m256i sum = _mm256_setzero_si256();
    size_t g = 0;
    for (; g + 2 <= whole; g += 2)
        sum = _mm256_add_epi64(sum, nq_match_groups_v3(tables + g * stride, stride, chunks,
                                                       items, count, 2, 1));
    if (g < whole)
        sum = _mm256_add_epi64(sum, nq_match_groups_v3(tables + g * stride, stride, chunks,
                                                       items, count, 1, 1));
    if (half)
        sum = _mm256_add_epi64(sum, nq_match_groups_v3(tables + whole * stride, stride, chunks,
                                                       items, count, 1, 0));
    const __m128i two = _mm_add_epi64(_mm256_castsi256_si128(sum),
                                      _mm256_extracti128_si256(sum, 1));
    return (uint64_t)_mm_cvtsi128_si64(two) + (uint64_t)_mm_extract_epi64(two, 1);
}

NQ_TARGET_V3 static uint64_t nq_match_v3(const uint64_t *tables, size_t groups, int chunks,
                                         const uint64_t *items, size_t count, int half)
{
    half = half && groups; /* (no group: no half group) */
    if (chunks > 11) /* (more than nq_match_chunks_v3 takes: none in the core) */
        return nq_match_plain(tables, groups, chunks, items, count, half);
    switch (chunks) { /* the masks of n = 12 to 23 */
    case 5:
        return nq_match_chunks_v3(tables, groups, 5, items, count, half);
    case 6:
        return nq_match_chunks_v3(tables, groups, 6, items, count, half);
    case 7:
        return nq_match_chunks_v3(tables, groups, 7, items, count, half);
    case 8:
        return nq_match_chunks_v3(tables, groups, 8, items, count, half);
    default:
        return nq_match_chunks_v3(tables, groups, chunks, items, count, half);
    }
}

NQ_TARGET_V3 static uint64_t nq_direct_v3(const uint64_t *stored, size_t size,
                                          const uint64_t *items, size_t count)
{
    /* 16 stored masks held in four registers, each item broadcast and tested
     * against them: a lane whose AND is zero subtracts -1 from its lane of four
     * counters, summed once.  The lanes past the last stored mask hold every
     * bit: they meet the empty items only, taken off at the end */
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi64x(-1);
    __m256i c0 = zero, c1 = zero, c2 = zero, c3 = zero;
    for (size_t j = 0; j < size; j += 16) {
        __m256i block[4];
        for (int r = 0; r < 4; r++) {
            const size_t at = j + 4 * (size_t)r;
            const size_t left = at < size ? size - at : 0;
            if (left >= 4) {
                block[r] = _mm256_loadu_si256((const void *)(stored + at));
            } else {
                const __m256i lanes = nq_lanes_v3(left);
                block[r] = _mm256_or_si256(
                    _mm256_maskload_epi64((const long long *)(stored + (left ? at : 0)), lanes),
                    _mm256_andnot_si256(lanes, ones));
            }
        }
        for (size_t i = 0; i < count; i++) {
            const __m256i item = _mm256_set1_epi64x((long long)items[i]);
            c0 = _mm256_sub_epi64(c0, _mm256_cmpeq_epi64(_mm256_and_si256(block[0], item), zero));
            c1 = _mm256_sub_epi64(c1, _mm256_cmpeq_epi64(_mm256_and_si256(block[1], item), zero));
            c2 = _mm256_sub_epi64(c2, _mm256_cmpeq_epi64(_mm256_and_si256(block[2], item), zero));
            c3 = _mm256_sub_epi64(c3, _mm256_cmpeq_epi64(_mm256_and_si256(block[3], item), zero));
        }
    }
    const __m256i sum = _mm256_add_epi64(_mm256_add_epi64(c0, c1), _mm256_add_epi64(c2, c3));
    const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sum),
                                       _mm256_extracti128_si256(sum, 1));
    uint64_t total = (uint64_t)_mm_cvtsi128_si64(half) + (uint64_t)_mm_extract_epi64(half, 1);
    const size_t padding = (16 - size % 16) % 16;
    if (padding) {
        size_t empty = 0;
        for (size_t i = 0; i < count; i++)
            empty += items[i] == 0;
        total -= (uint64_t)(empty * padding);
    }
    return total;
}

NQ_TARGET_V3 static size_t nq_empty_v3(const uint64_t *items, size_t count)
{
    NQ_EMPTY_BODY
}

/* v3 places four entries at once and keeps them as its join does: the lanes kept
 * packed by a permutation and the registers stored whole (a store at k <= i in
 * the round of entry i: up to 3 words past `count`) */
NQ_TARGET_V3 static size_t nq_place_v3(const uint64_t *entry, size_t count,
                                       const nq_frame *f, int on_long, uint64_t *op)
{
    const __m128i s1 = _mm_cvtsi32_si128(f->s1), s2 = _mm_cvtsi32_si128(f->s2);
    const __m128i lo1 = _mm_cvtsi32_si128(f->lo1), lo2 = _mm_cvtsi32_si128(f->lo2);
    const __m128i bits = _mm_cvtsi32_si128(f->bits);
    const __m128i jlo1 = _mm_cvtsi32_si128(f->jlo1), jlo2 = _mm_cvtsi32_si128(f->jlo2);
    const __m128i jat1 = _mm_cvtsi32_si128(f->jat);
    const __m128i jat2 = _mm_cvtsi32_si128(f->jat + f->jbits);
    const __m256i low = _mm256_set1_epi64x(0xFFFFFFFFLL);
    const __m256i full = _mm256_set1_epi64x((long long)f->full);
    const __m256i jfull = _mm256_set1_epi64x((long long)f->jfull);
    const __m256i h1 = _mm256_set1_epi64x((long long)f->holes1);
    const __m256i h2 = _mm256_set1_epi64x((long long)f->holes2);
    const __m256i lb = _mm256_set1_epi64x((long long)f->long_bit);
    const __m256i zero = _mm256_setzero_si256();
    size_t k = 0;
    for (size_t i = 0; i < count; i += 4) {
        const size_t left = count - i;
        const __m256i lanes = nq_lanes_v3(left);
        const __m256i e = _mm256_maskload_epi64((const long long *)(entry + i), lanes);
        const __m256i d1 = _mm256_sll_epi64(_mm256_and_si256(e, low), s1);
        const __m256i d2 = _mm256_sll_epi64(_mm256_srli_epi64(e, 32), s2);
        const __m256i p = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_and_si256(_mm256_srl_epi64(d1, lo1), full),
                _mm256_sll_epi64(_mm256_and_si256(_mm256_srl_epi64(d2, lo2), full), bits)),
            _mm256_or_si256(
                _mm256_sll_epi64(_mm256_and_si256(_mm256_srl_epi64(d1, jlo1), jfull), jat1),
                _mm256_sll_epi64(_mm256_and_si256(_mm256_srl_epi64(d2, jlo2), jfull), jat2)));
        const __m256i hit = _mm256_or_si256(_mm256_and_si256(d1, h1), _mm256_and_si256(d2, h2));
        int keep = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(hit, zero)))
                   & (left >= 4 ? 15 : (1 << left) - 1);
        if (on_long >= 0) {
            const int off = _mm256_movemask_pd(_mm256_castsi256_pd(
                _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_or_si256(d1, d2), lb), zero)));
            keep &= on_long ? ~off : off;
        }
        const __m256i order = _mm256_load_si256((const void *)nq_pack_v3[keep]);
        _mm256_storeu_si256((void *)(op + k), _mm256_permutevar8x32_epi32(p, order));
        k += (size_t)__builtin_popcount((unsigned)keep);
    }
    return k;
}

NQ_TARGET_V3 static size_t nq_join_v3(uint64_t *dest, uint64_t a, const uint64_t *b,
                                      size_t width, uint64_t mask)
{
    const __m256i x = _mm256_set1_epi64x((long long)a);
    const __m256i m = _mm256_set1_epi64x((long long)mask);
    size_t k = 0, j = 0;
    for (; j + 4 <= width; j += 4) {
        const __m256i y = _mm256_loadu_si256((const void *)(b + j));
        k += nq_keep_v3(dest + k, _mm256_and_si256(x, y),
                        _mm256_and_si256(_mm256_or_si256(x, y), m), 15);
    }
    if (j < width) {
        const __m256i y = _mm256_maskload_epi64((const long long *)(b + j),
                                                nq_lanes_v3(width - j));
        k += nq_keep_v3(dest + k, _mm256_and_si256(x, y),
                        _mm256_and_si256(_mm256_or_si256(x, y), m), (1 << (width - j)) - 1);
    }
    return k;
}

NQ_TARGET_V3 static NQ_INLINE size_t nq_join_rows_v3(NQ_JOIN_ROWS_ARGS)
{
    if (width > 8) {
        NQ_JOIN_ROWS_BODY(nq_join_v3)
    }
    const __m256i m = _mm256_set1_epi64x((long long)mask);
    if (width > 4) {
        /* a south list of 5 to 8: in two registers for every north placement
         * (no loop over the list, whose length varies from span to span) */
        const int keep_upper = (1 << (width - 4)) - 1;
        const __m256i s = _mm256_loadu_si256((const void *)b);
        const __m256i t = _mm256_maskload_epi64((const long long *)(b + 4),
                                                nq_lanes_v3(width - 4));
        size_t written = 0, i = 0;
        for (; i < na && room - written >= width; i++) {
            const __m256i x = _mm256_set1_epi64x((long long)a[i]);
            written += nq_keep_v3(dest + written, _mm256_and_si256(x, s),
                                  _mm256_and_si256(_mm256_or_si256(x, s), m), 15);
            written += nq_keep_v3(dest + written, _mm256_and_si256(x, t),
                                  _mm256_and_si256(_mm256_or_si256(x, t), m), keep_upper);
        }
        *used = i;
        return written;
    }
    /* a south list of at most 4 (most of them): held in registers for every
     * north placement, one round each */
    const int keep = (1 << width) - 1;
    const __m256i s = _mm256_maskload_epi64((const long long *)b, nq_lanes_v3(width));
    size_t written = 0, i = 0;
    for (; i < na && room - written >= width; i++) {
        const __m256i x = _mm256_set1_epi64x((long long)a[i]);
        written += nq_keep_v3(dest + written, _mm256_and_si256(x, s),
                              _mm256_and_si256(_mm256_or_si256(x, s), m), keep);
    }
    *used = i;
    return written;
}


NQ_TARGET_V3 static size_t nq_join_spans_v3(NQ_JOIN_SPANS_ARGS)
{
    NQ_JOIN_SPANS_BODY(nq_join_rows_v3)
}

/* four byte planes of a block for nq_slice_group_v3: from a[j], the words of rows
 * 2j and 2j + 1 interleaved, word p of each of the 8 rows into c[p] */
NQ_TARGET_V3 static inline void nq_planes_v3(__m256i *c, const __m256i *a)
{
    const __m256i b0 = _mm256_unpacklo_epi32(a[0], a[1]), b1 = _mm256_unpackhi_epi32(a[0], a[1]);
    const __m256i b2 = _mm256_unpacklo_epi32(a[2], a[3]), b3 = _mm256_unpackhi_epi32(a[2], a[3]);
    c[0] = _mm256_unpacklo_epi64(b0, b2);
    c[1] = _mm256_unpackhi_epi64(b0, b2);
    c[2] = _mm256_unpacklo_epi64(b1, b3);
    c[3] = _mm256_unpackhi_epi64(b1, b3);
}

/* one group's tables for v3: its masks from `stored` (`left` of them there,
 * the rest holding every bit), in blocks of 32: sixteen, or eight for a half
 * group (halves 1), whose entries' words 4..7 are left unwritten (never read).
 * A block's slice of bit b (32 bits of the group's 512) says which of its masks
 * do not hold b.  The block's masks, inverted, are transposed into byte planes
 * (plane p: byte p of each of the 32 masks, one register: a byte shuffle, then
 * three rounds of unpacking), and a plane gives the slices of its 8 bits by
 * movemask (the top bit of each byte), shifted between them */
NQ_TARGET_V3 static NQ_INLINE void nq_slice_group_v3(const uint64_t *stored, size_t left,
                                                     int bits, uint64_t *base,
                                                     const int halves, const int planes)
{
    const int chunks = (bits + NQ_CHUNK - 1) / NQ_CHUNK;
    const __m256i ones = _mm256_set1_epi64x(-1);
    /* the two masks of a 128-bit lane, their bytes interleaved: word p holds byte p of both */
    const __m256i pairs = _mm256_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15,
                                           0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
    uint32_t slices[64][16] __attribute__((aligned(32)));
    for (int k = 0; k < 8 * halves; k++) {
        const size_t at = (size_t)k * 32;
        uint64_t part[32];
        const uint64_t *from = stored + at;
        if (at + 32 > left) { /* the tail: masks past the last hold every bit */
            for (size_t i = 0; i < 32; i++)
                part[i] = at + i < left ? stored[at + i] : ~(uint64_t)0;
            from = part;
        }
        __m256i r[8], a[4], c[8];
        for (int j = 0; j < 8; j++)
            r[j] = _mm256_shuffle_epi8(
                _mm256_xor_si256(_mm256_loadu_si256((const void *)(from + 4 * j)), ones), pairs);
        /* words 0..3 of every row (planes 0..3), then 4..7 where the masks reach them */
        for (int j = 0; j < 4; j++)
            a[j] = _mm256_unpacklo_epi16(r[2 * j], r[2 * j + 1]);
        nq_planes_v3(c, a);
        if (planes > 4) {
            for (int j = 0; j < 4; j++)
                a[j] = _mm256_unpackhi_epi16(r[2 * j], r[2 * j + 1]);
            nq_planes_v3(c + 4, a);
        }
        /* every bit of a plane (those past `bits` are never read) */
        for (int p = 0; p < planes; p++) {
            slices[8 * p + 7][k] = (uint32_t)_mm256_movemask_epi8(c[p]);
            slices[8 * p + 6][k] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c[p], 1));
            slices[8 * p + 5][k] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c[p], 2));
            slices[8 * p + 4][k] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c[p], 3));
            slices[8 * p + 3][k] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c[p], 4));
            slices[8 * p + 2][k] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c[p], 5));
            slices[8 * p + 1][k] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c[p], 6));
            slices[8 * p][k] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c[p], 7));
        }
    }
    for (int c = 0; c < chunks; c++) {
        uint64_t *entry = base + (size_t)c * 32 * NQ_GROUP;
        __m256i slice[NQ_CHUNK][2];
        for (int i = 0; i < NQ_CHUNK; i++) {
            const int b = c * NQ_CHUNK + i;
            for (int h = 0; h < halves; h++)
                slice[i][h] = b < bits ? _mm256_load_si256((const void *)&slices[b][8 * h])
                                       : ones;
        }
        /* each half's 32 entries in registers (each the AND of one before it and
         * a slice; unrolled, at most five are live at once), stored as they are
         * made */
        for (int h = 0; h < halves; h++) {
            __m256i e[32];
            e[0] = ones;
            _mm256_store_si256((void *)(entry + 4 * h), ones);
#if defined(__clang__)
#pragma unroll
#elif defined(__GNUC__)
#pragma GCC unroll 32
#endif
            for (int v = 1; v < 32; v++) {
                e[v] = _mm256_and_si256(e[v & (v - 1)], slice[nq_ctz64((unsigned)v)][h]);
                _mm256_store_si256((void *)(entry + v * NQ_GROUP + 4 * h), e[v]);
            }
        }
    }
}

/* v3 slices by byte planes (above: fewer instructions a group than transposing, as
 * v4 does below); a last half group (half: at most 256 masks) in blocks 0..7 */
NQ_TARGET_V3 static void nq_slice_v3(NQ_SLICE_ARGS)
{
    const int chunks = (bits + NQ_CHUNK - 1) / NQ_CHUNK;
    const size_t stride = (size_t)chunks * 32 * NQ_GROUP;
    for (size_t g = 0; g < groups; g++) {
        const size_t at = g * 64 * NQ_GROUP;
        const size_t left = at < size ? size - at : 0;
        const uint64_t *from = stored + (left ? at : 0);
        const int halves = half && g + 1 == groups ? 1 : 2;
        /* (the planes and halves as constants: their loops unrolled) */
        if (bits <= 32) {
            if (halves == 1)
                nq_slice_group_v3(from, left, bits, tables + g * stride, 1, 4);
            else
                nq_slice_group_v3(from, left, bits, tables + g * stride, 2, 4);
        } else {
            nq_slice_group_v3(from, left, bits, tables + g * stride, halves, (bits + 7) / 8);
        }
    }
}

/* the bytes of eight registers' 64 words transposed: out[p] holds byte p of
 * every word (within each 128-bit lane, words 2L and 2L + 1 of in[0..7]), for
 * p < planes (at most 8) */
NQ_TARGET_V4 static NQ_INLINE void nq_bytes_v4(__m512i *out, const __m512i *in, int planes)
{
    __m512i b8[8], b16[8], b32[8];
    for (int k = 0; k < 4; k++) {
        b8[k] = _mm512_unpacklo_epi8(in[2 * k], in[2 * k + 1]);
        b8[k + 4] = _mm512_unpackhi_epi8(in[2 * k], in[2 * k + 1]);
    }
    for (int h = 0; h < 8; h += 4) { /* words 2L (h 0) and 2L + 1 (h 4) */
        b16[h] = _mm512_unpacklo_epi16(b8[h], b8[h + 1]);
        b16[h + 1] = _mm512_unpackhi_epi16(b8[h], b8[h + 1]);
        b16[h + 2] = _mm512_unpacklo_epi16(b8[h + 2], b8[h + 3]);
        b16[h + 3] = _mm512_unpackhi_epi16(b8[h + 2], b8[h + 3]);
        b32[h] = _mm512_unpacklo_epi32(b16[h], b16[h + 2]);     /* planes 0, 1 */
        b32[h + 1] = _mm512_unpackhi_epi32(b16[h], b16[h + 2]); /* 2, 3 */
        b32[h + 2] = _mm512_unpacklo_epi32(b16[h + 1], b16[h + 3]); /* 4, 5 */
        b32[h + 3] = _mm512_unpackhi_epi32(b16[h + 1], b16[h + 3]); /* 6, 7 */
    }
    for (int p = 0; p < planes; p++)
        out[p] = p & 1 ? _mm512_unpackhi_epi64(b32[p / 2], b32[p / 2 + 4])
                       : _mm512_unpacklo_epi64(b32[p / 2], b32[p / 2 + 4]);
}

/* v4 slices a group's 512 masks eight registers at a time (which mask a table
 * bit stands for does not change a count): their bytes by unpacking, their
 * bits by gf2p8affine (GFNI), and the entries built a register at a time.
 * nq_slices_v4: a[b], bit b of group g's masks (b < bits; a padding mask holds
 * every bit) */
NQ_TARGET_V4 static NQ_INLINE void nq_slices_v4(const uint64_t *stored, size_t size, int bits,
                                                size_t g, __m512i *a)
{
    const __m512i ones = _mm512_set1_epi64(-1);
    const __m512i unit = _mm512_set1_epi64(0x8040201008040201LL);
    for (int j = 0; j < 64; j++) {
        const size_t at = g * 64 * NQ_GROUP + (size_t)j * 8;
        const size_t left = at < size ? size - at : 0;
        const __mmask8 lanes = left >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << left) - 1);
        a[j] = _mm512_mask_loadu_epi64(ones, lanes, (const void *)(stored + (left ? at : 0)));
    }
    /* bit c of every mask into slice a[c]: within each set of eight
     * registers (64 masks) byte p of every mask into plane p (four rounds
     * of unpacking), each plane's 8 x 8 bit blocks transposed by gf2p8affine,
     * then byte q of every block of a plane into one register (the same
     * unpacking): slice 8p + q.  A slice's bit for a mask is at the same
     * place in every slice */
    const int planes = (bits + 7) / 8;
    __m512i t[8][8];
    for (int u = 0; u < 8; u++) {
        __m512i plane[8];
        nq_bytes_v4(plane, a + 8 * u, planes);
        for (int p = 0; p < planes; p++)
            t[p][u] = _mm512_gf2p8affine_epi64_epi8(unit, plane[p], 0);
    }
    for (int p = 0; p < planes; p++) {
        __m512i slice8[8];
        nq_bytes_v4(slice8, t[p], bits - 8 * p < 8 ? bits - 8 * p : 8);
        for (int q = 0; q < 8 && 8 * p + q < bits; q++)
            a[8 * p + q] = slice8[q];
    }
}

/* a chunk's slices, bits first .. first + count - 1 of the masks ("holds none"; past
 * `bits`, every mask), and its entries 0..15 (each the AND of one before it and a
 * slice: the products of its first four slices), in registers */
NQ_TARGET_V4 static NQ_INLINE void nq_chunk_v4(const __m512i *a, int bits, int first, int count,
                                               __m512i *slice, __m512i *e)
{
    const __m512i ones = _mm512_set1_epi64(-1);
    for (int i = 0; i < count; i++) {
        const int b = first + i;
        slice[i] = b < bits ? _mm512_xor_si512(a[b], ones) : ones;
    }
    e[0] = ones;
#if defined(__clang__)
#pragma unroll
#elif defined(__GNUC__)
#pragma GCC unroll 16
#endif
    for (int v = 1; v < 16; v++)
        e[v] = _mm512_and_si512(e[v & (v - 1)], slice[nq_ctz64((unsigned)v)]);
}

NQ_TARGET_V4 static void nq_slice_v4(NQ_SLICE_ARGS)
{
    (void)half; /* (0: nq_slice takes a half group to v3's slicing) */
    const int chunks = (bits + NQ_CHUNK - 1) / NQ_CHUNK;
    const size_t stride = (size_t)chunks * 32 * NQ_GROUP;
    __m512i a[64];
    for (size_t g = 0; g < groups; g++) {
        nq_slices_v4(stored, size, bits, g, a);
        uint64_t *base = tables + g * stride;
        for (int c = 0; c < chunks; c++) {
            uint64_t *entry = base + (size_t)c * 32 * NQ_GROUP;
            /* entries 0..15 in registers, stored with entries 16..31, their ANDs with
             * the last slice (NQ_CHUNK is 5: checked where it is defined) */
            __m512i slice[NQ_CHUNK], e[16];
            nq_chunk_v4(a, bits, c * NQ_CHUNK, NQ_CHUNK, slice, e);
#if defined(__clang__)
#pragma unroll
#elif defined(__GNUC__)
#pragma GCC unroll 16
#endif
            for (int v = 0; v < 16; v++) {
                _mm512_store_si512((void *)(entry + v * NQ_GROUP), e[v]);
                _mm512_store_si512((void *)(entry + (v + 16) * NQ_GROUP),
                                   _mm512_and_si512(e[v], slice[4]));
            }
        }
    }
}

/* the wide tables (NQ_WIDE 7): a chunk's entries 0..15 (its first four slices)
 * and 8 products of its last three held in registers, their 128 ANDs stored */
NQ_TARGET_V4 static void nq_slice_wide_v4(const uint64_t *stored, size_t size, int bits,
                                          uint64_t *tables, size_t groups)
{
    const int chunks = (bits + NQ_WIDE - 1) / NQ_WIDE;
    const size_t stride = (size_t)chunks * NQ_WIDE_ENTRIES * NQ_GROUP;
    const __m512i ones = _mm512_set1_epi64(-1);
    __m512i a[64];
    for (size_t g = 0; g < groups; g++) {
        nq_slices_v4(stored, size, bits, g, a);
        for (int c = 0; c < chunks; c++) {
            uint64_t *entry = tables + g * stride + (size_t)c * NQ_WIDE_ENTRIES * NQ_GROUP;
            __m512i slice[NQ_WIDE], e[16], f[NQ_WIDE_ENTRIES / 16];
            nq_chunk_v4(a, bits, c * NQ_WIDE, NQ_WIDE, slice, e);
            f[0] = ones;
#if defined(__clang__)
#pragma unroll
#elif defined(__GNUC__)
#pragma GCC unroll 8
#endif
            for (int u = 1; u < NQ_WIDE_ENTRIES / 16; u++)
                f[u] = _mm512_and_si512(f[u & (u - 1)], slice[4 + nq_ctz64((unsigned)u)]);
            for (int u = 0; u < NQ_WIDE_ENTRIES / 16; u++) {
#if defined(__clang__)
#pragma unroll
#elif defined(__GNUC__)
#pragma GCC unroll 16
#endif
                for (int v = 0; v < 16; v++)
                    _mm512_store_si512((void *)(entry + (16 * u + v) * NQ_GROUP),
                                       _mm512_and_si512(e[v], f[u]));
            }
        }
    }
}

/* the matching of nq_match_v4 (lookups of NQ_CHUNK bits) and of nq_match_wide_v4
 * (NQ_WIDE bits): one group's entry is one register, the item's chunks ANDed, one
 * vpopcntq, the counts summed lane by lane and reduced once; two items at a time */
NQ_TARGET_V4 static NQ_INLINE uint64_t nq_match_loop_v4(const uint64_t *tables, size_t groups,
                                                        int chunks, const uint64_t *items,
                                                        size_t count, const int shift)
{
    const size_t entries = (size_t)1 << shift;
    const uint64_t low = entries - 1;
    const size_t stride = (size_t)chunks * entries * NQ_GROUP;
    __m512i sum = _mm512_setzero_si512();
    for (size_t g = 0; g < groups; g++) {
        const uint64_t *t = tables + g * stride;
        size_t i = 0;
        for (; i + 2 <= count; i += 2) {
            uint64_t a = items[i], b = items[i + 1];
            __m512i x = _mm512_load_si512((const void *)(t + (a & low) * NQ_GROUP));
            __m512i y = _mm512_load_si512((const void *)(t + (b & low) * NQ_GROUP));
            for (int c = 1; c < chunks; c++) {
                const uint64_t *base = t + (size_t)c * entries * NQ_GROUP;
                a >>= shift;
                b >>= shift;
                x = _mm512_and_si512(x, _mm512_load_si512((const void *)(base + (a & low) * NQ_GROUP)));
                y = _mm512_and_si512(y, _mm512_load_si512((const void *)(base + (b & low) * NQ_GROUP)));
            }
            sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(x));
            sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(y));
        }
        if (i < count) {
            uint64_t a = items[i];
            __m512i x = _mm512_load_si512((const void *)(t + (a & low) * NQ_GROUP));
            for (int c = 1; c < chunks; c++) {
                a >>= shift;
                x = _mm512_and_si512(
                    x, _mm512_load_si512((const void *)(t + ((size_t)c * entries + (a & low)) * NQ_GROUP)));
            }
            sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(x));
        }
    }
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}

/* items against many groups (their tables over the first level cache): the items in
 * blocks, each item's lookups found once (the offsets of its entries, in words, from a
 * group's tables) and read in every group in turn, where the loop below finds them
 * again in each group; it pays from three groups on */
#define NQ_WIDE_BLOCK 256
#define NQ_WIDE_ROUND(CHUNKS)                                                             \
    for (size_t i = 0; i < n; i++) {                                                      \
        const uint16_t *o = off[i];                                                       \
        __m512i x = _mm512_load_si512((const void *)(t + o[0]));                          \
        for (int c = 1; c < (CHUNKS); c++)                                                \
            x = _mm512_and_si512(x, _mm512_load_si512((const void *)(t + o[c])));         \
        sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(x));                              \
    }

NQ_TARGET_V4 static uint64_t nq_match_wide_blocks_v4(const uint64_t *tables, size_t groups,
                                                     int chunks, const uint64_t *items,
                                                     size_t count)
{
    const size_t stride = (size_t)chunks * NQ_WIDE_ENTRIES * NQ_GROUP;
    __m512i sum = _mm512_setzero_si512();
    uint16_t off[NQ_WIDE_BLOCK][8];
    for (size_t first = 0; first < count; first += NQ_WIDE_BLOCK) {
        const size_t n = count - first < NQ_WIDE_BLOCK ? count - first : NQ_WIDE_BLOCK;
        for (size_t i = 0; i < n; i++) {
            uint64_t a = items[first + i];
            for (int c = 0; c < chunks; c++, a >>= NQ_WIDE)
                off[i][c] = (uint16_t)(((size_t)c * NQ_WIDE_ENTRIES + (a & (NQ_WIDE_ENTRIES - 1)))
                                       * NQ_GROUP);
        }
        for (size_t g = 0; g < groups; g++) {
            const uint64_t *t = tables + g * stride;
            switch (chunks) { /* unrolled where the chunks are known */
            case 5:
                NQ_WIDE_ROUND(5)
                break;
            case 6:
                NQ_WIDE_ROUND(6)
                break;
            default:
                NQ_WIDE_ROUND(chunks)
                break;
            }
        }
    }
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}

NQ_TARGET_V4 static uint64_t nq_match_wide_v4(const uint64_t *tables, size_t groups,
                                              int chunks, const uint64_t *items, size_t count)
{
    /* fewer groups than three: the loop of nq_match_v4 on the wide tables; more: by blocks */
    if (groups >= 3 && chunks <= 8)
        return nq_match_wide_blocks_v4(tables, groups, chunks, items, count);
    return nq_match_loop_v4(tables, groups, chunks, items, count, NQ_WIDE);
}

/* v4 keeps eight lanes at once: the lanes kept are compressed in a register
 * and stored whole, 8 words (a compressing store to memory is slow on some AMD
 * cores; a store masked to the lanes kept put the mask's count on the path from
 * one round to the next: count(17) 0.95x the time without it) */
NQ_TARGET_V4 static size_t nq_place_v4(const uint64_t *entry, size_t count,
                                       const nq_frame *f, int on_long, uint64_t *op)
{
    const __m128i s1 = _mm_cvtsi32_si128(f->s1), s2 = _mm_cvtsi32_si128(f->s2);
    const __m128i lo1 = _mm_cvtsi32_si128(f->lo1), lo2 = _mm_cvtsi32_si128(f->lo2);
    const __m128i bits = _mm_cvtsi32_si128(f->bits);
    const __m128i jlo1 = _mm_cvtsi32_si128(f->jlo1), jlo2 = _mm_cvtsi32_si128(f->jlo2);
    const __m128i jat1 = _mm_cvtsi32_si128(f->jat);
    const __m128i jat2 = _mm_cvtsi32_si128(f->jat + f->jbits);
    const __m512i low = _mm512_set1_epi64(0xFFFFFFFFLL), full = _mm512_set1_epi64((long long)f->full);
    const __m512i jfull = _mm512_set1_epi64((long long)f->jfull);
    const __m512i h1 = _mm512_set1_epi64((long long)f->holes1);
    const __m512i h2 = _mm512_set1_epi64((long long)f->holes2);
    const __m512i lb = _mm512_set1_epi64((long long)f->long_bit);
    size_t k = 0;
    for (size_t i = 0; i < count; i += 8) {
        const __mmask8 lanes = count - i >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (count - i)) - 1);
        const __m512i e = _mm512_maskz_loadu_epi64(lanes, (const void *)(entry + i));
        const __m512i d1 = _mm512_sll_epi64(_mm512_and_si512(e, low), s1);
        const __m512i d2 = _mm512_sll_epi64(_mm512_srli_epi64(e, 32), s2);
        const __m512i p = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_and_si512(_mm512_srl_epi64(d1, lo1), full),
                _mm512_sll_epi64(_mm512_and_si512(_mm512_srl_epi64(d2, lo2), full), bits)),
            _mm512_or_si512(
                _mm512_sll_epi64(_mm512_and_si512(_mm512_srl_epi64(d1, jlo1), jfull), jat1),
                _mm512_sll_epi64(_mm512_and_si512(_mm512_srl_epi64(d2, jlo2), jfull), jat2)));
        const __m512i hit = _mm512_or_si512(_mm512_and_si512(d1, h1), _mm512_and_si512(d2, h2));
        __mmask8 keep = _mm512_mask_testn_epi64_mask(lanes, hit, hit);
        if (on_long >= 0) {
            const __mmask8 on = _mm512_test_epi64_mask(_mm512_or_si512(d1, d2), lb);
            keep &= on_long ? on : (__mmask8)~on;
        }
        _mm512_storeu_si512((void *)(op + k), _mm512_maskz_compress_epi64(keep, p));
        k += (size_t)__builtin_popcount(keep);
    }
    return k;
}

NQ_TARGET_V4 static size_t nq_join_v4(uint64_t *dest, uint64_t a, const uint64_t *b,
                                      size_t width, uint64_t mask)
{
    const __m512i x = _mm512_set1_epi64((long long)a);
    const __m512i m = _mm512_set1_epi64((long long)mask);
    size_t k = 0;
    for (size_t j = 0; j < width; j += 8) {
        const __mmask8 lanes = width - j >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (width - j)) - 1);
        const __m512i y = _mm512_maskz_loadu_epi64(lanes, (const void *)(b + j));
        const __mmask8 keep = _mm512_mask_testn_epi64_mask(lanes, x, y);
        _mm512_storeu_si512((void *)(dest + k),
                            _mm512_maskz_compress_epi64(keep, _mm512_and_si512(_mm512_or_si512(x, y), m)));
        k += (size_t)__builtin_popcount(keep);
    }
    return k;
}

NQ_TARGET_V4 static NQ_INLINE size_t nq_join_rows_v4(NQ_JOIN_ROWS_ARGS)
{
    if (width > 8) {
        NQ_JOIN_ROWS_BODY(nq_join_v4)
    }
    /* a south list of at most 8 (most of them): held in a register for every
     * north placement, one round each */
    const __mmask8 lanes = (__mmask8)((1u << width) - 1);
    const __m512i s = _mm512_maskz_loadu_epi64(lanes, (const void *)b);
    const __m512i m = _mm512_set1_epi64((long long)mask);
    size_t written = 0, i = 0;
    for (; i < na && room - written >= width; i++) {
        const __m512i x = _mm512_set1_epi64((long long)a[i]);
        const __mmask8 keep = _mm512_mask_testn_epi64_mask(lanes, x, s);
        const __m512i joined = _mm512_and_si512(_mm512_or_si512(x, s), m);
        /* stored whole (8 words, up to 7 past what it keeps: NQ_JOIN_SLACK) */
        _mm512_storeu_si512((void *)(dest + written), _mm512_maskz_compress_epi64(keep, joined));
        written += (size_t)__builtin_popcount(keep);
    }
    *used = i;
    return written;
}


NQ_TARGET_V4 static size_t nq_join_spans_v4(NQ_JOIN_SPANS_ARGS)
{
    NQ_JOIN_SPANS_BODY(nq_join_rows_v4)
}

NQ_TARGET_V4 static size_t nq_spans_v4(NQ_SPANS_ARGS)
{
    /* eight subsets a round: their south spans gathered, the pairs of those kept
     * packed to the front of two registers, interleaved and stored whole */
    const __m512i low = _mm512_set1_epi64(0xFFFFFFFFLL), seven = _mm512_set1_epi64(7);
    const __m512i columns = _mm512_set1_epi64((long long)cols);
    const __m512i front = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    const __m512i back = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    __m512i need = _mm512_setzero_si512(), north_rounds = need, south_rounds = need;
    size_t count = 0;
    for (size_t i = 0; i < many; i += 8) {
        const __mmask8 lanes = many - i >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (many - i)) - 1);
        /* a lane past `many` reads south_span[cols] and no north span: none kept */
        const __m512i sub = _mm512_cvtepu32_epi64(_mm256_maskz_loadu_epi32(lanes, subsets + i));
        const __m512i south = _mm512_i64gather_epi64(_mm512_xor_si512(sub, columns),
                                                     (const void *)south_span, 8);
        const __m512i north = _mm512_maskz_loadu_epi64(lanes, (const void *)(north_span + i));
        const __m512i na = _mm512_sub_epi64(_mm512_srli_epi64(north, 32), _mm512_and_si512(north, low));
        const __m512i nb = _mm512_sub_epi64(_mm512_srli_epi64(south, 32), _mm512_and_si512(south, low));
        const __mmask8 keep = (__mmask8)(_mm512_test_epi64_mask(na, na) & _mm512_test_epi64_mask(nb, nb));
        need = _mm512_add_epi64(need, _mm512_mullo_epi64(na, nb));
        north_rounds = _mm512_add_epi64(
            north_rounds, _mm512_mullo_epi64(na, _mm512_srli_epi64(_mm512_add_epi64(nb, seven), 3)));
        south_rounds = _mm512_add_epi64(
            south_rounds, _mm512_mullo_epi64(nb, _mm512_srli_epi64(_mm512_add_epi64(na, seven), 3)));
        const __m512i n = _mm512_maskz_compress_epi64(keep, north);
        const __m512i s = _mm512_maskz_compress_epi64(keep, south);
        _mm512_storeu_si512((void *)(at + 2 * count), _mm512_permutex2var_epi64(n, front, s));
        _mm512_storeu_si512((void *)(at + 2 * count + 8), _mm512_permutex2var_epi64(n, back, s));
        count += (size_t)__builtin_popcount(keep);
    }
    sums[0] = (uint64_t)_mm512_reduce_add_epi64(need);
    sums[1] = (uint64_t)_mm512_reduce_add_epi64(north_rounds);
    sums[2] = (uint64_t)_mm512_reduce_add_epi64(south_rounds);
    return count;
}

NQ_TARGET_V4 static uint64_t nq_match_v4(const uint64_t *tables, size_t groups, int chunks,
                                         const uint64_t *items, size_t count)
{
    return nq_match_loop_v4(tables, groups, chunks, items, count, NQ_CHUNK);
}

NQ_TARGET_V4 static size_t nq_empty_v4(const uint64_t *items, size_t count)
{
    const __m512i zero = _mm512_setzero_si512();
    size_t empty = 0;
    for (size_t i = 0; i < count; i += 8) {
        const __mmask8 lanes = count - i >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << (count - i)) - 1);
        const __m512i x = _mm512_maskz_loadu_epi64(lanes, (const void *)(items + i));
        empty += (size_t)__builtin_popcount(_mm512_mask_cmpeq_epi64_mask(lanes, x, zero));
    }
    return empty;
}

NQ_TARGET_V4 static uint64_t nq_direct_v4(const uint64_t *stored, size_t size,
                                          const uint64_t *items, size_t count)
{
    /* 32 stored masks held in four registers (the last ones masked off), each
     * item broadcast and tested against them: each lane whose AND is zero adds
     * one to its lane of four counters (no mask leaves the vector unit), which
     * are summed once */
    const __m512i one = _mm512_set1_epi64(1);
    __m512i c0 = _mm512_setzero_si512(), c1 = c0, c2 = c0, c3 = c0;
    for (size_t j = 0; j < size; j += 32) {
        __mmask8 lanes[4];
        __m512i block[4];
        for (int r = 0; r < 4; r++) {
            const size_t at = j + 8 * (size_t)r;
            const size_t left = at < size ? size - at : 0;
            lanes[r] = left >= 8 ? (__mmask8)0xFF : (__mmask8)((1u << left) - 1);
            block[r] = _mm512_maskz_loadu_epi64(lanes[r], (const void *)(stored + (left ? at : 0)));
        }
        for (size_t i = 0; i < count; i++) {
            const __m512i item = _mm512_set1_epi64((long long)items[i]);
            c0 = _mm512_mask_add_epi64(c0, _mm512_mask_testn_epi64_mask(lanes[0], block[0], item), c0, one);
            c1 = _mm512_mask_add_epi64(c1, _mm512_mask_testn_epi64_mask(lanes[1], block[1], item), c1, one);
            c2 = _mm512_mask_add_epi64(c2, _mm512_mask_testn_epi64_mask(lanes[2], block[2], item), c2, one);
            c3 = _mm512_mask_add_epi64(c3, _mm512_mask_testn_epi64_mask(lanes[3], block[3], item), c3, one);
        }
    }
    return (uint64_t)_mm512_reduce_add_epi64(
        _mm512_add_epi64(_mm512_add_epi64(c0, c1), _mm512_add_epi64(c2, c3)));
}

static int nq_detect(void)
{
    int levels = 1 << NQ_BASELINE;
#if defined(NQ_EMULATE)
    levels |= 1 << NQ_V3 | 1 << NQ_V4;
#else
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
        && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt")) {
        levels |= 1 << NQ_V3;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
            && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")
            && __builtin_cpu_supports("avx512cd")
            && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("gfni"))
            levels |= 1 << NQ_V4;
    }
#endif
    return levels;
}
#else
static int nq_detect(void)
{
    return 1 << NQ_BASELINE;
}
#endif

static int nq_known_levels = -1;
static int nq_current = -1;

static int nq_levels(void)
{
    if (nq_known_levels < 0)
        nq_known_levels = nq_detect();
    return nq_known_levels;
}

static int nq_level(void)
{
    if (nq_current < 0) {
        int levels = nq_levels();
        nq_current = levels & (1 << NQ_V4) ? NQ_V4 : levels & (1 << NQ_V3) ? NQ_V3 : NQ_BASELINE;
    }
    return nq_current;
}

static int nq_use(int level)
{
    if (level < NQ_BASELINE || level > NQ_V4 || !(nq_levels() & (1 << level)))
        return 0;
    nq_current = level;
    return 1;
}

static size_t nq_place(const uint64_t *entry, size_t count, const nq_frame *f, int on_long,
                       uint64_t *op)
{
#if NQ_DISPATCH
    switch (nq_level()) {
    case NQ_V4:
        return nq_place_v4(entry, count, f, on_long, op);
    case NQ_V3:
        return nq_place_v3(entry, count, f, on_long, op);
    default:
        break;
    }
#endif
    return nq_place_plain(entry, count, f, on_long, op);
}

/* on v4 a last half group (half 1) is sliced and matched by v3's kernels and the
 * full groups before it by v4's (a v4 kernel of its own for the half group, a
 * 256-bit register and vpopcntq, matched slower than v3's at n = 16) */
static void nq_slice(NQ_SLICE_ARGS)
{
#if NQ_DISPATCH
    switch (nq_level()) {
    case NQ_V4:
        if (!half || !groups) { /* (no group: no half group) */
            nq_slice_v4(stored, size, bits, tables, groups, 0);
            return;
        }
        nq_slice_v4(stored, size, bits, tables, groups - 1, 0);
        {
            const size_t at = (groups - 1) * 64 * NQ_GROUP;
            const size_t left = size > at ? size - at : 0; /* (none: all padding) */
            const size_t stride = (size_t)((bits + NQ_CHUNK - 1) / NQ_CHUNK) * 32 * NQ_GROUP;
            nq_slice_v3(stored + (left ? at : 0), left, bits, tables + (groups - 1) * stride,
                        1, 1);
        }
        return;
    case NQ_V3:
        nq_slice_v3(stored, size, bits, tables, groups, half);
        return;
    default:
        break;
    }
#endif
    nq_slice_plain(stored, size, bits, tables, groups, half);
}

static size_t nq_join_spans(NQ_JOIN_SPANS_ARGS)
{
#if NQ_DISPATCH
    switch (nq_level()) {
    case NQ_V4:
        return nq_join_spans_v4(dest, a, b, spans, count, swap, mask);
    case NQ_V3:
        return nq_join_spans_v3(dest, a, b, spans, count, swap, mask);
    default:
        break;
    }
#endif
    return nq_join_spans_plain(dest, a, b, spans, count, swap, mask);
}

static size_t nq_spans(NQ_SPANS_ARGS)
{
#if NQ_DISPATCH
    if (nq_level() == NQ_V4)
        return nq_spans_v4(at, subsets, many, cols, south_span, north_span, sums);
#endif
    return nq_spans_plain(at, subsets, many, cols, south_span, north_span, sums);
}

static uint64_t nq_match(const uint64_t *tables, size_t groups, int chunks,
                         const uint64_t *items, size_t count, int half)
{
#if NQ_DISPATCH
    switch (nq_level()) {
    case NQ_V4:
        if (!half || !groups)
            return nq_match_v4(tables, groups, chunks, items, count);
        {
            const size_t stride = (size_t)chunks * 32 * NQ_GROUP;
            return nq_match_v4(tables, groups - 1, chunks, items, count)
                   + nq_match_v3(tables + (groups - 1) * stride, 1, chunks, items, count, 1);
        }
    case NQ_V3:
        return nq_match_v3(tables, groups, chunks, items, count, half);
    default:
        break;
    }
#endif
    return nq_match_plain(tables, groups, chunks, items, count, half);
}

/* whether the wide tables serve here: on v4 only (elsewhere their bigger tables
 * cost more than the lookups they save) */
static int nq_wide(void)
{
#if NQ_DISPATCH
    return nq_level() == NQ_V4;
#else
    return 0;
#endif
}

static void nq_slice_wide(const uint64_t *stored, size_t size, int bits, uint64_t *tables,
                          size_t groups)
{
#if NQ_DISPATCH
    if (nq_level() == NQ_V4) {
        nq_slice_wide_v4(stored, size, bits, tables, groups);
        return;
    }
#endif
    nq_slice_wide_plain(stored, size, bits, tables, groups);
}

static uint64_t nq_match_wide(const uint64_t *tables, size_t groups, int chunks,
                              const uint64_t *items, size_t count)
{
#if NQ_DISPATCH
    if (nq_level() == NQ_V4)
        return nq_match_wide_v4(tables, groups, chunks, items, count);
#endif
    return nq_match_wide_plain(tables, groups, chunks, items, count);
}

static size_t nq_empty(const uint64_t *items, size_t count)
{
#if NQ_DISPATCH
    switch (nq_level()) {
    case NQ_V4:
        return nq_empty_v4(items, count);
    case NQ_V3:
        return nq_empty_v3(items, count);
    default:
        break;
    }
#endif
    return nq_empty_plain(items, count);
}

static uint64_t nq_direct(const uint64_t *stored, size_t size, const uint64_t *items,
                          size_t count)
{
#if NQ_DISPATCH
    switch (nq_level()) {
    case NQ_V4:
        return nq_direct_v4(stored, size, items, count);
    case NQ_V3:
        return nq_direct_v3(stored, size, items, count);
    default:
        break;
    }
#endif
    return nq_direct_plain(stored, size, items, count);
}

#endif
