/* The baseline kernels, in plain C: any x86-64, and the only ones elsewhere (the
 * loops over a group's words are written so that the compiler vectorizes them:
 * SSE2, NEON). */
#ifndef NQUEENS_PLAIN_H
#define NQUEENS_PLAIN_H

#include "common.h"

/* whether the baseline runs: always */
static int nq_runs_plain(void)
{
    return 1;
}

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

#endif
