/* The counter-based generator of core/multiscale/rng.h: Random123's known answers for
 * Philox4x32-10, then the properties stochastic models rely on: uniform
 * draws in (0, 1) with the right mean, variance and histogram, and no
 * correlation between neighbouring cells or consecutive steps. */
#include <math.h>
#include <stdio.h>
#include "check.h"
#include "rng.h"

static void known_answers(void)
{
    /* Random123 tests/kat_vectors: counter, key, result */
    static const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
         0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0,
         0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}};
    for (int t = 0; t < 3; t++) {
        rng_block c = {{kat[t][0], kat[t][1], kat[t][2], kat[t][3]}};
        rng_block r = rng_philox4x32_10(c, kat[t][4], kat[t][5]);
        int ok = 1;
        for (int q = 0; q < 4; q++) ok &= r.v[q] == kat[t][6 + q];
        CHECK(ok, "Philox4x32-10 known-answer vector %d", t + 1);
    }
}

static void uniform_statistics(void)
{
    enum { N = 1 << 20, BINS = 64 };
    double sum = 0, sum2 = 0, lag_cell = 0, lag_step = 0;
    long hist[BINS] = {0};
    float lo = 1, hi = 0;
    for (uint64_t c = 0; c < N; c++) {
        /* a cell of a 1024^3 grid, at a step beyond 2^32 */
        const uint64_t cell = c * 1031 + (1ull << 30), step = (1ull << 33) + 7;
        float u = rng_uniform_f32(rng_draw(12345, 0, cell, step).v[0]);
        float un = rng_uniform_f32(rng_draw(12345, 0, cell + 1, step).v[0]);
        float us = rng_uniform_f32(rng_draw(12345, 0, cell, step + 1).v[0]);
        sum += u; sum2 += u * u;
        lag_cell += (u - 0.5) * (un - 0.5);
        lag_step += (u - 0.5) * (us - 0.5);
        hist[(int)(u * BINS)]++;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
    }
    const double mean = sum / N, var = sum2 / N - mean * mean;
    printf("  %d draws: mean %.5f, variance %.5f, range [%.3g, %.9g], lag-1 r cell %.2e step %.2e\n", N, mean, var,
           lo, hi, lag_cell / N * 12, lag_step / N * 12);
    /* standard errors: mean 0.29/sqrt(N) = 2.8e-4; variance 0.075/sqrt(N) = 7e-5 */
    CHECK(fabs(mean - 0.5) < 1.5e-3, "uniform mean %.5f (0.5)", mean);
    CHECK(fabs(var - 1.0 / 12) < 4e-4, "uniform variance %.5f (1/12 = 0.08333)", var);
    CHECK(lo > 0 && hi < 1, "draws inside (0, 1): [%.3g, %.9g]", lo, hi);
    double chi2 = 0, e = (double)N / BINS;
    for (int b = 0; b < BINS; b++) chi2 += (hist[b] - e) * (hist[b] - e) / e;
    /* 63 degrees of freedom: the 0.999 quantile is 103 */
    CHECK(chi2 < 103, "histogram chi^2 = %.1f over %d bins (< 103)", chi2, BINS);
    /* correlation coefficients; standard error 1/sqrt(N) = 1e-3 */
    CHECK(fabs(lag_cell / N * 12) < 5e-3, "neighbouring cells uncorrelated (r = %.2e)", lag_cell / N * 12);
    CHECK(fabs(lag_step / N * 12) < 5e-3, "consecutive steps uncorrelated (r = %.2e)", lag_step / N * 12);
    rng_block a = rng_draw(1, 0, 42, 7), b = rng_draw(1, 1, 42, 7), d = rng_draw(2, 0, 42, 7);
    CHECK(a.v[0] != b.v[0] && a.v[0] != d.v[0], "streams and seeds give different draws");
}

int main(void)
{
    known_answers();
    uniform_statistics();
    return check_summary();
}
