/* The one compiler builtin the core uses, behind a portable name.
 * nq_ctz64(x): the index of the lowest set bit of x (x != 0).
 * NQ_COMPILER and NQ_CFLAGS: which compiler built the core, with what flags
 * (setup.py defines NQ_CFLAGS), for the reports of `nqueens bench`. */
#ifndef NQUEENS_BITS_H
#define NQUEENS_BITS_H

#define NQ_STRING_(x) #x
#define NQ_STRING(x) NQ_STRING_(x)
#if defined(__clang__)
#define NQ_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define NQ_COMPILER "gcc " __VERSION__
#elif defined(_MSC_VER)
#define NQ_COMPILER "msvc " NQ_STRING(_MSC_FULL_VER)
#else
#define NQ_COMPILER "an unknown C compiler"
#endif
#ifndef NQ_CFLAGS
#define NQ_CFLAGS ""
#endif

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
