/* The v3 kernels (x86-64-v3: AVX2, BMI2 and popcount), each compiled for that
 * level alone (NQ_TARGET_V3); dispatch.h includes them where the compiler can build
 * them and chooses them where the processor runs them. */
#ifndef NQUEENS_V3_H
#define NQUEENS_V3_H

#include "common.h"

/* whether this processor and its operating system run v3 (every level does in the
 * tests' emulated build) */
static int nq_runs_v3(void)
{
#if defined(NQ_EMULATE)
    return 1;
#else
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
           && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#endif
}

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

#endif
