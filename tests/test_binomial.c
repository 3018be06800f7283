/* The binomial sampler of core/multiscale/binomial.h against the exact binomial
 * distribution: chi-square goodness of fit over the channel counts the
 * calcium model draws (n = 15 L-type channels, n = 100 RyRs) at small,
 * middling and large p; the rate of rare events (a resting RyR: n p = 1e-4
 * per draw) against n p; and the two-way split of a state (thesis eq. 2.24)
 * against the multinomial means. Draws come from the model's own generator
 * (core/multiscale/rng.h) with fixed seeds, so the test gives the same numbers every run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "binomial.h"
#include "check.h"
#include "rng.h"

/* exact P(X = k) for X ~ B(n, p), in long double */
static long double pmf(int n, double p, int k)
{
    long double lc = lgammal(n + 1.0L) - lgammal(k + 1.0L) - lgammal(n - k + 1.0L);
    return expl(lc + k * logl((long double)p) + (n - k) * log1pl(-(long double)p));
}

/* The 0.999 quantile of chi-square with df degrees of freedom (Wilson-Hilferty). */
static double chi2_crit(int df)
{
    const double z = 3.090, a = 2.0 / (9.0 * df);
    return df * pow(1 - a + z * sqrt(a), 3);
}

static uint32_t word(uint32_t seed, uint64_t i)
{
    return rng_draw(seed, 7, i >> 2, 0).v[i & 3];
}

/* Chi-square over bins of expected count >= 5 (tails pooled). */
static void goodness_of_fit(int n, double p, long N, uint32_t seed)
{
    long *hist = calloc((size_t)n + 1, sizeof *hist);
    double sum = 0;
    for (long i = 0; i < N; i += 4) {
        rng_block b = rng_draw(seed, 3, (uint64_t)i, 0);
        for (int q = 0; q < 4; q++) {
            int k = binomial_draw(n, p, b.v[q]);
            hist[k]++;
            sum += k;
        }
    }
    double chi2 = 0, obs = 0, exp_ = 0;
    int df = -1;
    for (int k = 0; k <= n; k++) {
        obs += hist[k];
        exp_ += (double)(N * pmf(n, p, k));
        /* close a bin once it expects 5, or at the end */
        double rest = 0;
        for (int j = k + 1; j <= n; j++) rest += (double)(N * pmf(n, p, j));
        if ((exp_ >= 5 && rest >= 5) || k == n) {
            chi2 += (obs - exp_) * (obs - exp_) / exp_;
            df++;
            obs = exp_ = 0;
        }
    }
    const double mean = sum / N, sd = sqrt(n * p * (1 - p) / N);
    char what[96];
    snprintf(what, sizeof what, "B(%d, %g): mean of %ld draws", n, p, N);
    CHECK_NEAR(mean, n * p, 4.5 * sd + 1e-12, what);
    if (df >= 1) {
        const double crit = chi2_crit(df);
        printf("  B(%d, %g): chi^2 = %.1f over %d degrees of freedom (0.999 quantile %.1f)\n", n, p, chi2, df, crit);
        CHECK(chi2 < crit, "B(%d, %g): chi^2 %.1f >= %.1f (df %d)", n, p, chi2, crit, df);
    }
    free(hist);
}

/* Rare events: the resting RyR opening (k dt = 1e-6, 100 channels) must occur
 * at rate n p, although 1 - (1-p)^n is far below double's epsilon of 1. */
static void rare_events(void)
{
    const int n = 100;
    const double p = 1e-6;
    const long N = 20000000;
    long events = 0, channels = 0;
    for (long i = 0; i < N; i++) {
        int k = binomial_draw(n, p, word(11, (uint64_t)i));
        events += k > 0;
        channels += k;
    }
    const double expect = N * binomial_any(n, p), sd = sqrt(expect);
    CHECK_NEAR((double)events, expect, 4.5 * sd, "rare events: draws with k > 0 in 2e7 (n p = 1e-4)");
    CHECK_NEAR((double)channels, N * n * p, 4.5 * sqrt(N * n * p), "rare events: channels that moved");
    CHECK_NEAR(binomial_any(n, p), -expm1(n * log1p(-p)), 1e-18, "1 - (1-p)^n without cancellation");
    CHECK_NEAR(binomial_any(100, 0.5), 1 - pow(0.5, 100), 1e-15, "1 - (1-p)^n at p = 1/2");
}

/* Two exclusive transitions out of one state: E[k1] = n p1, E[k2] = n p2. */
static void split_means(void)
{
    const int n = 100;
    const double p1 = 0.15, p2 = 0.02;
    const long N = 1000000;
    double s1 = 0, s2 = 0, s12 = 0;
    for (long i = 0; i < N; i++) {
        rng_block b = rng_draw(5, 9, (uint64_t)i, 0);
        int k1, k2;
        binomial_split(n, p1, p2, b.v[0], b.v[1], &k1, &k2);
        s1 += k1; s2 += k2; s12 += (double)k1 * k2;
    }
    s1 /= N; s2 /= N; s12 /= N;
    CHECK_NEAR(s1, n * p1, 4.5 * sqrt(n * p1 * (1 - p1) / N), "split: mean of the first count");
    CHECK_NEAR(s2, n * p2, 4.5 * sqrt(n * p2 * (1 - p2) / N), "split: mean of the second count");
    /* multinomial covariance -n p1 p2 */
    CHECK_NEAR(s12 - s1 * s2, -n * p1 * p2, 0.02, "split: covariance -n p1 p2");
}

static void edge_cases(void)
{
    CHECK(binomial_draw(100, 0, 0) == 0 && binomial_draw(100, 0, 0xffffffffu) == 0, "p = 0 gives 0");
    CHECK(binomial_draw(100, 1, 0) == 100 && binomial_draw(100, 1.5, 7) == 100, "p >= 1 gives n");
    CHECK(binomial_draw(0, 0.5, 123) == 0, "n = 0 gives 0");
    CHECK(binomial_draw(15, NAN, 123) == 0, "p = NaN gives 0");
    int lo = 100, hi = 0;
    for (uint32_t x = 0; x < 64; x++) {
        /* small words invert the far tail of the survival function: large k */
        int a = binomial_draw(100, 0.5, 0xffffffffu - x), b = binomial_draw(100, 0.5, x);
        if (a < lo) lo = a;
        if (b > hi) hi = b;
    }
    CHECK(lo >= 0 && hi <= 100 && lo < 30 && hi > 70, "extreme words stay in [0, n] and reach the tails (%d, %d)", lo, hi);
}

/* The inversion without binomial_draw's shortcut (no tail computed where
 * w >= n q): every draw must give the k it gives, so the shortcut changes
 * no channel count of any run. */
static int draw_in_full(int n, double p, uint32_t x)
{
    if (n <= 0 || !(p > 0)) return 0;
    if (p >= 1) return n;
    const int flip = p > 0.5;
    const double q = flip ? 1 - p : p;
    const double w = ((double)x + 0.5) * (1.0 / 4294967296.0);
    double F0;
    double G = binomial_tail0(n, q, &F0);
    int k = 0;
    if (w < G) {
        const double r = q / (1 - q);
        double P = n * q * (F0 / (1 - q));
        for (k = 1; k < n; k++) {
            G -= P;
            if (w >= G) break;
            P *= r * (double)(n - k) / (double)(k + 1);
        }
    }
    return flip ? n - k : k;
}

static void shortcut_exact(void)
{
    static const int ns[] = {1, 2, 3, 15, 49, 100, 300};
    long tried = 0, differ = 0, shortcut = 0;
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (double lp = -14; lp <= 0; lp += 0.05) {
            const double p = pow(10, lp) * (lp > -0.31 ? 0.99 : 1);
            for (int side = 0; side < 2; side++) {
                const double pp = side ? 1 - p : p, q = pp > 0.5 ? 1 - pp : pp;
                /* the words about w = n q and about P(X > 0), where the shortcut's bound is closest, and spread ones */
                double F0, G = binomial_tail0(ns[a], q, &F0);
                const double edges[2] = {ns[a] * q, G};
                for (int e = 0; e < 2; e++) {
                    const double x0 = edges[e] * 4294967296.0 - 0.5;
                    if (x0 < 0 || x0 > 4294967295.0) continue;
                    for (int d = -3; d <= 3; d++) {
                        const double xd = floor(x0) + d;
                        if (xd < 0 || xd > 4294967295.0) continue;
                        const uint32_t x = (uint32_t)xd;
                        tried++;
                        differ += binomial_draw(ns[a], pp, x) != draw_in_full(ns[a], pp, x);
                        shortcut += ((double)x + 0.5) * (1.0 / 4294967296.0) >= ns[a] * q * 1.0000001;
                    }
                }
                for (uint32_t i = 0; i < 200; i++) {
                    const uint32_t x = word(11, (uint64_t)i + 200u * (uint64_t)tried);
                    tried++;
                    differ += binomial_draw(ns[a], pp, x) != draw_in_full(ns[a], pp, x);
                }
            }
        }
    CHECK(differ == 0, "the shortcut changes no draw: %ld of %ld differ", differ, tried);
    CHECK(shortcut > 1000, "the edge words include shortcut ones (%ld)", shortcut);
}

/* binomial_split as it was, the quotient always formed; and the shortcut's
 * test with a chosen factor, to show that the words below can tell a
 * test too loose (factor 1 - 1e-6) from binomial_none's. */
static void split_in_full(int n, double p1, double p2, uint32_t x1, uint32_t x2, int *k1, int *k2)
{
    *k1 = binomial_draw(n, p1, x1);
    *k2 = p1 < 1 ? binomial_draw(n - *k1, p2 / (1 - p1), x2) : 0;
}

static int none_with(int m, double p, double s, uint32_t x, double factor)
{
    return 2 * p <= s && binomial_w(x) * s >= (double)m * p * factor;
}

/* The split's shortcut (binomial_none) changes no count: for the channel
 * counts the model splits, first-step probabilities from 0 to near 1 and
 * second ones about the shortcut's edge w = m p2 / (1 - p1) and about
 * p2 / (1 - p1) = 1/2, the words next to those edges and spread ones. */
static void split_exact(void)
{
    static const int ns[] = {0, 1, 2, 15, 100};
    static const double p1s[] = {0, 1e-7, 1e-3, 0.02, 0.3, 0.5, 0.9};
    long tried = 0, differ = 0, taken = 0, loose = 0;
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof p1s / sizeof p1s[0]; b++)
            for (double lp = -12; lp <= -0.01; lp += 0.07) {
                const double p1 = p1s[b], s = 1 - p1;
                const double p2s[3] = {pow(10, lp) * s, 0.5 * s * (1 + 1e-15 * lp), 0.5 * s};
                for (int c = 0; c < 3; c++) {
                    const double p2 = p2s[c];
                    for (int m = 1; m <= ns[a]; m = m < 3 ? m + 1 : m * 5) {
                        const double x0 = (double)m * p2 / s * 4294967296.0 - 0.5;
                        for (int d = -40; d <= 40; d++) {
                            const double xd = floor(x0) + d * (d > 3 || d < -3 ? 1e3 : 1);
                            if (xd < 0 || xd > 4294967295.0) continue;
                            const uint32_t x2 = (uint32_t)xd;
                            /* the first draw's word: none moves (k1 = 0, m = n), or spread */
                            const uint32_t x1 = d & 1 ? 0xffffffffu : word(5, (uint64_t)tried);
                            int k1, k2, r1, r2;
                            binomial_split(ns[a], p1, p2, x1, x2, &k1, &k2);
                            split_in_full(ns[a], p1, p2, x1, x2, &r1, &r2);
                            tried++;
                            differ += k1 != r1 || k2 != r2;
                            const int left = ns[a] - r1;
                            taken += left > 0 && binomial_none(left, p2, s, x2);
                            loose += left > 0 && none_with(left, p2, s, x2, 1 - 1e-6) && r2 != 0;
                        }
                    }
                }
            }
    int k1, k2;
    binomial_split(15, 0.1, NAN, 0xffffffffu, 7, &k1, &k2);
    differ += k1 != 0 || k2 != 0;
    printf("  split shortcut: %ld tried, %ld taken, %ld loose\n", tried, taken, loose);
    CHECK(differ == 0, "the split's shortcut changes no count: %ld of %ld differ", differ, tried);
    CHECK(taken > 10000, "the shortcut is taken by many of the words tried (%ld of %ld)", taken, tried);
    CHECK(loose > 100, "a test looser by 1e-6 would change counts on these words (%ld)", loose);
}

int main(void)
{
    shortcut_exact();
    split_exact();
    goodness_of_fit(15, 0.3, 1000000, 1);      /* L-type channels during the plateau */
    goodness_of_fit(15, 0.002, 1000000, 2);    /* L-type channels near rest */
    goodness_of_fit(100, 0.5, 1000000, 3);
    goodness_of_fit(100, 0.97, 1000000, 4);    /* p > 1/2: the mirrored tail */
    goodness_of_fit(100, 0.025, 1000000, 5);   /* RyR closing, 0.5/ms x 0.05 ms */
    goodness_of_fit(100, 0.0003, 4000000, 6);
    goodness_of_fit(3, 0.5, 400000, 7);
    rare_events();
    split_means();
    edge_cases();
    return check_summary();
}
