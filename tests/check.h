/* Minimal assertion helpers for the C tests: each CHECK prints on failure,
 * and check_summary() prints "N passed, M failed" and gives the exit code. */
#ifndef CARDIAC_TEST_CHECK_H
#define CARDIAC_TEST_CHECK_H
#include <math.h>
#include <stdio.h>

static int check_pass, check_fail;

#define CHECK(cond, ...) do { \
    if (cond) check_pass++; \
    else { check_fail++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

#define CHECK_NEAR(a, b, tol, what) do { double a_ = (a), b_ = (b); \
    CHECK(fabs(a_ - b_) <= (tol), "%s: %.9g vs %.9g (tolerance %g)", what, a_, b_, (double)(tol)); \
    printf("  %-52s %.6g (expected %.6g +- %g)\n", what, a_, b_, (double)(tol)); } while (0)

static int check_summary(void)
{
    printf("%d passed, %d failed\n", check_pass, check_fail);
    return check_fail ? 1 : 0;
}
#endif
