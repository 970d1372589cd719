/* The one compiler builtin the core uses, behind a portable name.
 * nq_ctz64(x): the index of the lowest set bit of x (x != 0). */
#ifndef NQUEENS_BITS_H
#define NQUEENS_BITS_H

#if defined(_MSC_VER)
#include <intrin.h>
static __inline int nq_ctz64(unsigned long long x)
{
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
}
#elif defined(__GNUC__) || defined(__clang__)
static inline int nq_ctz64(unsigned long long x)
{
    return __builtin_ctzll(x);
}
#else
static inline int nq_ctz64(unsigned long long x)
{
    int index = 0;
    while (!(x & 1)) {
        x >>= 1;
        index++;
    }
    return index;
}
#endif

#endif
