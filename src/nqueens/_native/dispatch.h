/* The hot loops of the quadrant core (_quadrants.pyx), written in C: placing a
 * quadrant's table entries on the board, joining north and south quadrants into
 * half-boards, and counting disjoint pairs with bit-sliced tables.  Each is
 * compiled once per processor level, in a file of its own (plain.h, v3.h, v4.h),
 * and the best level this processor runs is chosen at run time, as numpy and
 * simdjson do (GCC and Clang on x86-64; elsewhere the baseline alone).
 *
 * nq_table holds one row per level, from the slowest to the best: its name (as
 * nqueens.CPU says it), whether the processor runs it, the cost model the core
 * chooses its matching by, and its kernels.  Adding a level is a kernel file with
 * its nq_runs_ function, one row, and the tests (which run every level, emulated
 * where the processor lacks it).
 *
 * tables: per group, `chunks` chunks of 32 entries of NQ_GROUP words (the
 * quadrant core starts them on a cache line).  Entry v of chunk c is the
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
 *
 * nq_levels(): the levels this processor and its operating system run, a bit per
 * row; nq_use(level) picks one of them (0 when it is not among them); nq_level()
 * says which runs.  The first call of any picks the best; a thread that races
 * another sets the same value.  Built with -DNQ_EMULATE (the tests' build, see
 * emulate.h), every level runs on any processor, its intrinsics portable C. */
#ifndef NQUEENS_DISPATCH_H
#define NQUEENS_DISPATCH_H

#include "common.h"
#include "plain.h"

#if defined(NQ_EMULATE)
/* the tests' build (-DNQ_EMULATE): every level's kernels from portable intrinsics,
 * and every level said to run (see emulate.h) */
#define NQ_DISPATCH 1
#include "emulate.h"
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
#include "v3.h"
#include "v4.h"

/* v4 slices and matches a last half group (half 1) by v3's kernels and the full
 * groups before it by its own (a v4 kernel of its own for the half group, a 256-bit
 * register and vpopcntq, matched slower than v3's at n = 16); its cost model below
 * charges a half group as a whole one */
static void nq_slice_v4_halves(NQ_SLICE_ARGS)
{
    if (!half || !groups) { /* (no group: no half group) */
        nq_slice_v4(stored, size, bits, tables, groups, 0);
        return;
    }
    nq_slice_v4(stored, size, bits, tables, groups - 1, 0);
    const size_t at = (groups - 1) * 64 * NQ_GROUP;
    const size_t left = size > at ? size - at : 0; /* (none: all padding) */
    const size_t stride = (size_t)((bits + NQ_CHUNK - 1) / NQ_CHUNK) * 32 * NQ_GROUP;
    nq_slice_v3(stored + (left ? at : 0), left, bits, tables + (groups - 1) * stride, 1, 1);
}

static uint64_t nq_match_v4_halves(const uint64_t *tables, size_t groups, int chunks,
                                   const uint64_t *items, size_t count, int half)
{
    if (!half || !groups)
        return nq_match_v4(tables, groups, chunks, items, count);
    const size_t stride = (size_t)chunks * 32 * NQ_GROUP;
    return nq_match_v4(tables, groups - 1, chunks, items, count)
           + nq_match_v3(tables + (groups - 1) * stride, 1, chunks, items, count, 1);
}
#endif

/* The cost model by which the core chooses, for each set of stored masks, between
 * matching the items one by one and slicing the masks into tables (_quadrants.pyx,
 * _slicing_pays).  One by one, an item costs 100 per 32 stored masks, counted per
 * block of `block` masks started; sliced, a group costs `build` to slice and
 * `match` an item, a half group half that where `half` is 1.  Fitted per level to
 * the measured crossovers. */
typedef struct {
    unsigned match, build, block, half;
} nq_costs;

typedef struct {
    const char *name;
    int (*runs)(void);
    nq_costs costs;
    int wide; /* whether the wide tables serve (elsewhere their bigger tables cost more
                 than the lookups they save) */
    size_t (*place)(const uint64_t *entry, size_t count, const nq_frame *f, int on_long,
                    uint64_t *op);
    void (*slice)(NQ_SLICE_ARGS);
    size_t (*join_spans)(NQ_JOIN_SPANS_ARGS);
    size_t (*spans)(NQ_SPANS_ARGS);
    uint64_t (*match)(const uint64_t *tables, size_t groups, int chunks, const uint64_t *items,
                      size_t count, int half);
    void (*slice_wide)(const uint64_t *stored, size_t size, int bits, uint64_t *tables,
                       size_t groups);
    uint64_t (*match_wide)(const uint64_t *tables, size_t groups, int chunks,
                           const uint64_t *items, size_t count);
    size_t (*empty)(const uint64_t *items, size_t count);
    uint64_t (*direct)(const uint64_t *stored, size_t size, const uint64_t *items,
                       size_t count);
} nq_kernels;

#if !NQ_DISPATCH
static int nq_runs_never(void)
{
    return 0;
}

/* a level this build cannot compile: named, never run */
#define NQ_ABSENT(NAME)                                                                 \
    {NAME, nq_runs_never, {133, 17000, 1, 1}, 0, nq_place_plain, nq_slice_plain,          \
     nq_join_spans_plain, nq_spans_plain, nq_match_plain, nq_slice_wide_plain,            \
     nq_match_wide_plain, nq_empty_plain, nq_direct_plain}
#endif

static const nq_kernels nq_table[] = {
    {"baseline", nq_runs_plain, {133, 17000, 1, 1}, 0, nq_place_plain, nq_slice_plain,
     nq_join_spans_plain, nq_spans_plain, nq_match_plain, nq_slice_wide_plain,
     nq_match_wide_plain, nq_empty_plain, nq_direct_plain},
#if NQ_DISPATCH
    /* v3 slices by byte planes; it has no spans nor wide kernels of its own */
    {"v3", nq_runs_v3, {220, 17500, 1, 1}, 0, nq_place_v3, nq_slice_v3, nq_join_spans_v3,
     nq_spans_plain, nq_match_v3, nq_slice_wide_plain, nq_match_wide_plain, nq_empty_v3,
     nq_direct_v3},
    /* v4 matches one by one a block of 32 stored masks at a time */
    {"v4", nq_runs_v4, {153, 27200, 32, 0}, 1, nq_place_v4, nq_slice_v4_halves,
     nq_join_spans_v4, nq_spans_v4, nq_match_v4_halves, nq_slice_wide_v4, nq_match_wide_v4,
     nq_empty_v4, nq_direct_v4},
#else
    NQ_ABSENT("v3"),
    NQ_ABSENT("v4"),
#endif
};

enum { NQ_LEVELS = sizeof nq_table / sizeof nq_table[0] };

static int nq_known_levels = -1;
static const nq_kernels *nq_now = NULL;

static int nq_levels(void)
{
    if (nq_known_levels < 0) {
        int levels = 0;
        for (int i = 0; i < NQ_LEVELS; i++)
            levels |= (nq_table[i].runs() ? 1 : 0) << i;
        nq_known_levels = levels;
    }
    return nq_known_levels;
}

static const nq_kernels *nq_kernels_now(void)
{
    if (nq_now == NULL) {
        const int levels = nq_levels();
        int best = 0;
        for (int i = 0; i < NQ_LEVELS; i++)
            if (levels >> i & 1)
                best = i;
        nq_now = &nq_table[best];
    }
    return nq_now;
}

static int nq_level(void)
{
    return (int)(nq_kernels_now() - nq_table);
}

static int nq_use(int level)
{
    if (level < 0 || level >= NQ_LEVELS || !(nq_levels() >> level & 1))
        return 0;
    nq_now = &nq_table[level];
    return 1;
}

static int nq_level_count(void)
{
    return NQ_LEVELS;
}

static const char *nq_level_name(int level)
{
    return level >= 0 && level < NQ_LEVELS ? nq_table[level].name : "";
}

static const nq_costs *nq_cost_model(void)
{
    return &nq_kernels_now()->costs;
}

static int nq_wide(void)
{
    return nq_kernels_now()->wide;
}

static size_t nq_place(const uint64_t *entry, size_t count, const nq_frame *f, int on_long,
                       uint64_t *op)
{
    return nq_kernels_now()->place(entry, count, f, on_long, op);
}

static void nq_slice(NQ_SLICE_ARGS)
{
    nq_kernels_now()->slice(stored, size, bits, tables, groups, half);
}

static size_t nq_join_spans(NQ_JOIN_SPANS_ARGS)
{
    return nq_kernels_now()->join_spans(dest, a, b, spans, count, swap, mask);
}

static size_t nq_spans(NQ_SPANS_ARGS)
{
    return nq_kernels_now()->spans(at, subsets, many, cols, south_span, north_span, sums);
}

static uint64_t nq_match(const uint64_t *tables, size_t groups, int chunks,
                         const uint64_t *items, size_t count, int half)
{
    return nq_kernels_now()->match(tables, groups, chunks, items, count, half);
}

static void nq_slice_wide(const uint64_t *stored, size_t size, int bits, uint64_t *tables,
                          size_t groups)
{
    nq_kernels_now()->slice_wide(stored, size, bits, tables, groups);
}

static uint64_t nq_match_wide(const uint64_t *tables, size_t groups, int chunks,
                              const uint64_t *items, size_t count)
{
    return nq_kernels_now()->match_wide(tables, groups, chunks, items, count);
}

static size_t nq_empty(const uint64_t *items, size_t count)
{
    return nq_kernels_now()->empty(items, count);
}

static uint64_t nq_direct(const uint64_t *stored, size_t size, const uint64_t *items,
                          size_t count)
{
    return nq_kernels_now()->direct(stored, size, items, count);
}

#endif
