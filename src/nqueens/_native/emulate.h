/* For the tests only (NQ_EMULATE, see dispatch.h): the intrinsics of the v3 and v4
 * kernels from SIMDe's portable versions (the simde-py package's headers), so that
 * a processor without AVX2 or AVX-512 runs those kernels' code, lane by lane.  It
 * checks their logic, not the processor's instructions nor the compiler's use of
 * them.  Where SIMDe 0.8.2 lacks an intrinsic, or its portable one touches memory
 * that the instruction leaves alone (a masked load reads, and a masked store writes,
 * only the lanes of its mask: the kernels rely on it at the ends of their arrays),
 * it is defined here, lane by lane. */
#ifndef NQUEENS_EMULATE_H
#define NQUEENS_EMULATE_H

#include <stdint.h>
#include <string.h>

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include <simde/x86/gfni.h>

typedef simde__mmask8 __mmask8;

static inline __m512i nq_emu_mask_loadu(__m512i src, __mmask8 k, const void *p)
{
    int64_t v[8];
    _mm512_storeu_si512((void *)v, src);
    for (int i = 0; i < 8; i++)
        if (k >> i & 1)
            memcpy(&v[i], (const char *)p + 8 * i, 8);
    return _mm512_loadu_si512((const void *)v);
}

static inline void nq_emu_mask_storeu(void *p, __mmask8 k, __m512i a)
{
    int64_t v[8];
    _mm512_storeu_si512((void *)v, a);
    for (int i = 0; i < 8; i++)
        if (k >> i & 1)
            memcpy((char *)p + 8 * i, &v[i], 8);
}

static inline __m256i nq_emu_maskz_loadu_epi32(__mmask8 k, const void *p)
{
    int32_t v[8] = {0};
    for (int i = 0; i < 8; i++)
        if (k >> i & 1)
            memcpy(&v[i], (const char *)p + 4 * i, 4);
    return _mm256_loadu_si256((const void *)v);
}

static inline __m512i nq_emu_cvtepu32_epi64(__m256i a)
{
    uint32_t v[8];
    int64_t wide[8];
    _mm256_storeu_si256((void *)v, a);
    for (int i = 0; i < 8; i++)
        wide[i] = (int64_t)v[i];
    return _mm512_loadu_si512((const void *)wide);
}

static inline __mmask8 nq_emu_mask_testn(__mmask8 k, __m512i a, __m512i b)
{
    return (__mmask8)(k & _mm512_testn_epi64_mask(a, b));
}

static inline int64_t nq_emu_reduce_add(__m512i a)
{
    int64_t v[8], sum = 0;
    _mm512_storeu_si512((void *)v, a);
    for (int i = 0; i < 8; i++)
        sum += v[i];
    return sum;
}

#undef _mm512_mask_loadu_epi64
#undef _mm512_maskz_loadu_epi64
#undef _mm512_mask_storeu_epi64
#define _mm512_mask_loadu_epi64(src, k, p) nq_emu_mask_loadu((src), (k), (p))
#define _mm512_maskz_loadu_epi64(k, p) nq_emu_mask_loadu(_mm512_setzero_si512(), (k), (p))
#define _mm512_mask_storeu_epi64(p, k, a) nq_emu_mask_storeu((p), (k), (a))
#define _mm512_mask_testn_epi64_mask(k, a, b) nq_emu_mask_testn((k), (a), (b))
#undef _mm512_cvtepu32_epi64
#define _mm512_cvtepu32_epi64(a) nq_emu_cvtepu32_epi64(a)
#undef _mm256_maskz_loadu_epi32
#define _mm256_maskz_loadu_epi32(k, p) nq_emu_maskz_loadu_epi32((k), (p))
#define _mm512_reduce_add_epi64(a) nq_emu_reduce_add(a)

#endif
