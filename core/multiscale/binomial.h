/* Exact binomial sampling for the channel counts of the stochastic calcium
 * model (core/multiscale/dyads.h): k ~ B(n, p) for n up to a few hundred, by inversion
 * of the distribution function, one 32-bit random word per draw.
 *
 * The thesis' scheme (Altanaite 2017, section 2.5) walks the distribution
 * function upwards, F(k) = sum P(i), and stops at the first F(k) >= u. We walk
 * the survival function downwards instead, G(k) = P(X > k) = G(k-1) - P(k),
 * and stop at the first G(k) <= w, w = 1 - u: the same inversion, but
 * G(0) = 1 - (1-p)^n, the probability that anything happens at all, is
 * computed to full relative accuracy even when it is 1e-8 (a resting RyR in
 * one 0.05 ms step), where 1 - (1-p)^n in floating point would lose it.
 * Every operation is a +, -, * or / of doubles: no exp or pow, so gcc and
 * nvcc (with contraction off) return the same k for the same word, and the
 * CPU and GPU backends draw identical channel counts.
 *
 * Resolution: w takes the 2^32 values (x + 1/2) / 2^32, so an outcome of
 * probability q is drawn with probability q to within 2^-32 (2.3e-10): a
 * relative bias below 1e-4 for the rarest events the model needs (tested in
 * tests/test_binomial.c against the exact distribution). */
#ifndef CARDIAC_BINOMIAL_H
#define CARDIAC_BINOMIAL_H
#include <stdint.h>
#include "qualifiers.h"

/* (1 - p)^n in *none and 1 - (1 - p)^n as the result, each to full relative
 * accuracy, by one binary exponentiation: a_m = 1 - (1-p)^m obeys
 * a_2m = a_m (2 - a_m) and a_m+1 = a_m + p (1 - a_m), which keep the small
 * quantity itself when (1-p)^n is close to 1; (1-p)^n itself is the product of
 * squares, accurate when it is small. */
CARDIAC_HD double binomial_tail0(int n, double p, double *none)
{
    double a = 0, sq = p;   /* sq = 1 - (1-p)^(2^j) */
    double f = 1, fsq = 1 - p;   /* f = (1-p)^m, fsq = (1-p)^(2^j) */
    for (; n > 0; n >>= 1) {
        if (n & 1) { a = a + sq - a * sq; f *= fsq; }   /* 1 - (1-a)(1-sq) */
        sq = sq * (2 - sq);
        fsq *= fsq;
    }
    *none = f;
    return a;
}

/* 1 - (1 - p)^n: the probability that any of n channels moves. */
CARDIAC_HD double binomial_any(int n, double p)
{
    double f;
    return binomial_tail0(n, p, &f);
}

/* Word x as the uniform w in (0, 1) that binomial_draw and binomial_none
 * compare: (x + 1/2) / 2^32, exact in double. */
CARDIAC_HD double binomial_w(uint32_t x) { return ((double)x + 0.5) * (1.0 / 4294967296.0); }

/* k ~ B(n, p) from one uniform word x; p is clipped to [0, 1]. */
CARDIAC_HD int binomial_draw(int n, double p, uint32_t x)
{
    if (n <= 0 || !(p > 0)) return 0;   /* also p = NaN */
    if (p >= 1) return n;
    const int flip = p > 0.5;           /* sample the smaller tail, n - B(n, 1-p) */
    const double q = flip ? 1 - p : p;
    const double w = binomial_w(x);
    /* Nothing moves when w is above n q, which bounds P(X > 0) = 1 - (1-q)^n
     * from above (Bernoulli's inequality) with room for the rounding of its
     * computation below (a few ulps against the factor's 1e-7): the common
     * case of channels at rest, decided without the tail's exponentiation,
     * and with the k the full computation gives. */
    if (w >= (double)n * q * 1.0000001) return flip ? n : 0;
    double F0;
    double G = binomial_tail0(n, q, &F0);   /* P(X > 0); F0 = P(X = 0) */
    int k = 0;
    if (w < G) {
        const double r = q / (1 - q);
        double P = n * q * (F0 / (1 - q));   /* P(X = 1) = n q (1-q)^(n-1) */
        for (k = 1; k < n; k++) {
            G -= P;                       /* P(X > k) */
            if (w >= G) break;
            P *= r * (double)(n - k) / (double)(k + 1);
        }
    }
    return flip ? n - k : k;
}

/* Whether k ~ B(m, p / s) drawn from word x by binomial_draw is surely 0,
 * decided without the division p / s (a double division is some 15 dependent
 * instructions on the GPU; a resting RyR's splits made five a step). True only
 * where binomial_draw(m, p / s, x) returns 0: its quotient q = p / s is then at
 * most 1/2 (2 p <= s, exact, and rounding keeps q <= 1/2), so the draw is not
 * flipped, and w s >= 1.0000002 m p, each side rounded once or twice (relative
 * errors of 2^-53), gives w >= 1.0000001 m q with those roundings too: the
 * draw's own test that nothing moves. p NaN gives false. */
CARDIAC_HD int binomial_none(int m, double p, double s, uint32_t x)
{
    return 2 * p <= s && binomial_w(x) * s >= (double)m * p * 1.0000002;
}

/* Counts leaving one state along two exclusive transitions of one-step
 * probabilities p1 and p2 (p1 + p2 <= 1): k1 ~ B(n, p1), then
 * k2 ~ B(n - k1, p2 / (1 - p1)) (thesis eq. 2.24). The second draw's
 * quotient is formed only where its count can be nonzero: with none left
 * (a resting RyR's O1, C2 and C3 hold none) or where binomial_none holds,
 * binomial_draw would return 0 from any quotient. */
CARDIAC_HD void binomial_split(int n, double p1, double p2, uint32_t x1, uint32_t x2, int *k1, int *k2)
{
    *k1 = binomial_draw(n, p1, x1);
    const int m = n - *k1;
    *k2 = p1 < 1 && m > 0 && !binomial_none(m, p2, 1 - p1, x2) ? binomial_draw(m, p2 / (1 - p1), x2) : 0;
}

#endif
