/* The one loop of the quadrant core written in C: counting disjoint pairs
 * with bit-sliced tables (see _quadrants.pyx).  It is in C only so that it
 * can be compiled twice, for any x86-64 and for AVX2 with the popcount
 * instruction, the second chosen at run time where the processor has it
 * (GCC and Clang on x86-64); elsewhere it is plain C.
 *
 * tables: per group, `chunks` chunks of 32 entries of NQ_GROUP words.
 * Entry v of chunk c is the AND of the words of bit positions 5c + i for
 * each bit i of v (all ones for v = 0); a word's bit says that a stored mask
 * does NOT hold that position.  For each item: AND its chunks' entries and
 * count the bits left, the stored masks that share no bit with it.
 * nq_direct: the same count, one pair at a time (for few stored masks). */
#ifndef NQUEENS_MATCH_H
#define NQUEENS_MATCH_H

#include <stddef.h>
#include <stdint.h>

#define NQ_GROUP 8 /* words per group: 512 stored masks */
#define NQ_CHUNK 5 /* bit positions per table lookup */

static inline int nq_popcount_plain(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

#define NQ_MATCH_BODY(POPCOUNT)                                                   \
    uint64_t total = 0;                                                           \
    const size_t stride = (size_t)chunks * 32 * NQ_GROUP;                         \
    for (size_t g = 0; g < groups; g++) {                                         \
        const uint64_t *t = tables + g * stride;                                  \
        for (size_t i = 0; i < count; i++) {                                      \
            uint64_t item = items[i];                                             \
            uint64_t acc[NQ_GROUP];                                               \
            const uint64_t *e = t + (item & 31) * NQ_GROUP;                       \
            for (int k = 0; k < NQ_GROUP; k++)                                    \
                acc[k] = e[k];                                                    \
            for (int c = 1; c < chunks; c++) {                                    \
                item >>= NQ_CHUNK;                                                \
                e = t + ((size_t)c * 32 + (item & 31)) * NQ_GROUP;                \
                for (int k = 0; k < NQ_GROUP; k++)                                \
                    acc[k] &= e[k];                                               \
            }                                                                     \
            for (int k = 0; k < NQ_GROUP; k++)                                    \
                total += (uint64_t)POPCOUNT(acc[k]);                              \
        }                                                                         \
    }                                                                             \
    return total;

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

static uint64_t nq_direct_plain(const uint64_t *stored, size_t size, const uint64_t *items,
                                size_t count)
{
    NQ_DIRECT_BODY
}

static uint64_t nq_match_plain(const uint64_t *tables, size_t groups, int chunks,
                               const uint64_t *items, size_t count)
{
    NQ_MATCH_BODY(nq_popcount_plain)
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
__attribute__((target("avx2,popcnt"))) static uint64_t
nq_match_avx2(const uint64_t *tables, size_t groups, int chunks, const uint64_t *items,
              size_t count)
{
    NQ_MATCH_BODY(__builtin_popcountll)
}

__attribute__((target("avx2,popcnt"))) static uint64_t
nq_direct_avx2(const uint64_t *stored, size_t size, const uint64_t *items, size_t count)
{
    NQ_DIRECT_BODY
}

static int nq_has_avx2(void)
{
    static int known = -1; /* threads may both set it: to the same value */
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    }
    return known;
}

static uint64_t nq_match(const uint64_t *tables, size_t groups, int chunks,
                         const uint64_t *items, size_t count)
{
    if (nq_has_avx2())
        return nq_match_avx2(tables, groups, chunks, items, count);
    return nq_match_plain(tables, groups, chunks, items, count);
}

static uint64_t nq_direct(const uint64_t *stored, size_t size, const uint64_t *items,
                          size_t count)
{
    if (nq_has_avx2())
        return nq_direct_avx2(stored, size, items, count);
    return nq_direct_plain(stored, size, items, count);
}
#else
#define nq_match nq_match_plain
#define nq_direct nq_direct_plain
#endif

#endif
