/* The floating-point environment of the process's compute threads. */
#ifndef CARDIAC_FPENV_H
#define CARDIAC_FPENV_H

/* Flush-to-zero and denormals-are-zero (x86 SSE; nothing elsewhere): results
 * below the smallest normal number (1.2e-38 in float, 2.2e-308 in double)
 * become 0, and such inputs count as 0. A model's state decays towards
 * subnormal numbers after each beat (Karma's U and v in float), and every
 * operation on them costs about a hundred cycles instead of a few: the
 * README's example ran 59.5 s instead of 30.1 s on a 2-core machine. Called
 * first in main, before any thread starts: threads inherit the setting
 * (POSIX), so the OpenMP workers and the Lua interpreter's thread have it.
 * The GPU's float kernels flush already (-use_fast_math). */
void fpenv_flush_denormals(void);

#endif
