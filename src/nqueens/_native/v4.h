/* The v4 kernels (AVX-512 with VPOPCNTDQ, and GFNI: a group of 512 stored masks is
 * one register, counted by one vpopcntq), each compiled for that level alone
 * (NQ_TARGET_V4); dispatch.h includes them where the compiler can build them and
 * chooses them where the processor runs them. */
#ifndef NQUEENS_V4_H
#define NQUEENS_V4_H

#include "common.h"
#include "v3.h"

/* whether this processor and its operating system run v4 (every level does in the
 * tests' emulated build) */
static int nq_runs_v4(void)
{
#if defined(NQ_EMULATE)
    return 1;
#else
    return nq_runs_v3() && __builtin_cpu_supports("avx512f")
           && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")
           && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd")
           && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("gfni");
#endif
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

#endif
