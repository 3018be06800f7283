/* The floating-point environment (core/engine/fpenv.h). */
#include "fpenv.h"
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

void fpenv_flush_denormals(void)
{
#if defined(__SSE__)
    _mm_setcsr(_mm_getcsr() | 0x8040u);   /* FTZ (bit 15) and DAZ (bit 6) */
#endif
}
