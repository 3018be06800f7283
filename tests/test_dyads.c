/* The stochastic channels of a calcium release unit (core/multiscale/dyads.h) against
 * their deterministic limit. With the dyad's Ca2+ held fixed, the RyR counts
 * form a Markov chain whose mean obeys the master equation of the same
 * one-step transition probabilities; the mean over M independent dyads must
 * follow it within its standard error, and its distance from it must shrink
 * as 1/sqrt(M) (the thesis' "deterministic limit as the dyad count grows").
 * The L-type channels' mean open count must equal 15 times their open
 * probability. Also: a RyR clamp holds every channel in its state, and the
 * same words give the same counts (the draws are a function of the words). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "dyad_rng.h"
#include "instances.h"
#include "model.h"

static const model_def *gr;
static double p[MODEL_MAX_PARAM];

/* A cell's shared coefficients at the model's resting state, L-type gates
 * replaced by open probabilities qnp (non-phosphorylated) and qp. */
static struct dyad_cell_f64 cell_with(double qnp, double qp)
{
    struct dyad_cell_f64 c;
    dyad_cell_setup_f64(&c, gr->rest, p, 0.05);
    c.q_np[0] = c.q_np[1] = qnp;
    c.q_p[0] = c.q_p[1] = qp;
    return c;
}

/* A dyad at fixed Ca2+: cads (uM) and cajsr (mM), the rest at rest. */
static void hold(struct dyad_f64 *x, double cads, double cajsr)
{
    x->cads = cads; x->cajsr = cajsr;
    x->cass = gr->rest[ORD_CASS]; x->cacyt = gr->rest[ORD_CAI]; x->cansr = gr->rest[ORD_CANSR];
    x->nca = 0; x->camkt = 0;
}

/* The master equation's step for the chain of dyad_step with probabilities
 * po (activation), pc (closing), pd (to the refractory tier), pu (back). */
static void master_step(double m[4], double po, double pc, double pd, double pu)
{
    const double c1 = m[0], o1 = m[1], c2 = m[2], c3 = m[3];
    m[0] = c1 * (1 - po - pd) + o1 * pc + c2 * pu;
    m[1] = o1 * (1 - pc - pd) + c1 * po + c3 * pu;
    m[2] = c2 * (1 - pu - po) + c1 * pd + c3 * pc;
    m[3] = c3 * (1 - pu - pc) + o1 * pd + c2 * po;
}

/* RMS over `steps` steps of (mean open RyRs of M dyads - master equation). */
static double ryr_chain(int M, int steps, uint32_t seed, double *max_z)
{
    const double dt = 0.05, cads = 5, cajsr = 0.5;   /* k_open 1.5/ms, free CSQN 1/2 */
    const double kc = p[GR_KM_CSQN], km = p[GR_KM_RYR];
    const double kopen = p[GR_K_OPEN] * pow(cads, 4) / (pow(cads, 4) + pow(km, 4));
    const double kdown = pow(kc, 8) / (pow(cajsr, 8) + pow(kc, 8));
    const double po = kopen * dt, pc = p[GR_K_CLOSE] * dt, pd = kdown * dt, pu = (1 - kdown) * dt;
    struct dyad_cell_f64 c = cell_with(0, 0);
    static struct dyad_f64 x[10000];
    for (int d = 0; d < M; d++) {
        hold(&x[d], cads, cajsr);
        x[d].ryr[0] = GR_NRYR; x[d].ryr[1] = x[d].ryr[2] = x[d].ryr[3] = 0;
    }
    double m[4] = {GR_NRYR, 0, 0, 0}, ss = 0, last = 0;
    *max_z = 0;
    for (int n = 0; n < steps; n++) {
        double open = 0, open2 = 0;
        for (int d = 0; d < M; d++) {
            uint32_t w[10];
            struct dyad_out_f64 o;
            dyad_words(seed, d, 0, (uint64_t)n, x[d].ryr, w);
            hold(&x[d], cads, cajsr);
            dyad_step_f64(&x[d], &c, p, dt, w, DYAD_RYR_FREE, &o);
            open += x[d].ryr[DYAD_O1];
            open2 += (double)x[d].ryr[DYAD_O1] * x[d].ryr[DYAD_O1];
        }
        master_step(m, po, pc, pd, pu);
        const double mean = open / M, var = open2 / M - mean * mean;
        last = mean;
        const double z = fabs(mean - m[1]) / sqrt(var / M + 1e-12);
        if (z > *max_z) *max_z = z;
        ss += (mean - m[1]) * (mean - m[1]);
    }
    printf("  %5d dyads: mean open RyRs at the last step %.3f (master equation %.3f)\n", M, last, m[1]);
    return sqrt(ss / steps);
}

static void deterministic_limit(void)
{
    double z100, z1000, z10000;
    const double e100 = ryr_chain(100, 200, 1, &z100), e1000 = ryr_chain(1000, 200, 2, &z1000);
    const double e10000 = ryr_chain(10000, 200, 3, &z10000);
    printf("  RMS distance from the master equation: %.4f (100 dyads), %.4f (1000), %.5f (10000) open RyRs\n",
           e100, e1000, e10000);
    /* 200 steps of a chain with a ~10-step memory: the largest |z| among ~20
     * independent stretches stays under 4.5 */
    CHECK(z100 < 4.5 && z1000 < 4.5 && z10000 < 4.5, "mean open RyRs within 4.5 standard errors of the master "
          "equation at every step (max z %.2f, %.2f, %.2f)", z100, z1000, z10000);
    const double r = e100 / e10000;
    CHECK(r > 5 && r < 20, "distance shrinks as 1/sqrt(dyads): 100 -> 10000 dyads divides it by %.1f (10 expected)", r);
}

static void lcc_mean(void)
{
    const int M = 200000;
    const double qnp = 0.3, qp = 0.2;
    struct dyad_cell_f64 c = cell_with(qnp, qp);
    double sum = 0, expect = 0;
    for (int d = 0; d < M; d++) {
        struct dyad_f64 x;
        struct dyad_out_f64 o;
        uint32_t w[10];
        hold(&x, 5, 1);
        x.ryr[0] = GR_NRYR; x.ryr[1] = x.ryr[2] = x.ryr[3] = 0;
        dyad_words(9, d % 10000, (uint64_t)(d / 10000), 0, x.ryr, w);
        dyad_step_f64(&x, &c, p, 0.05, w, DYAD_RYR_FREE, &o);
        const double fp = 1 / (1 + 0.15 / o.camka);   /* the dyad's phosphorylated fraction */
        expect += GR_NLCC * ((1 - fp) * qnp + fp * qp);
        sum += o.lcc_open;
    }
    const double mean = sum / M, q = expect / M / GR_NLCC;
    CHECK_NEAR(mean, expect / M, 4.5 * sqrt(GR_NLCC * q * (1 - q) / M), "mean open L-type channels per dyad");
}

static void clamps_and_words(void)
{
    struct dyad_cell_f64 c = cell_with(0.1, 0.1);
    struct dyad_f64 a, b;
    struct dyad_out_f64 o;
    uint32_t w[10];
    hold(&a, 0.1, 1.5);
    a.ryr[0] = 60; a.ryr[1] = 10; a.ryr[2] = 25; a.ryr[3] = 5;
    b = a;
    dyad_words(4, 17, 123456789012ull, 99, a.ryr, w);
    dyad_step_f64(&a, &c, p, 0.05, w, DYAD_RYR_FREE, &o);
    dyad_step_f64(&b, &c, p, 0.05, w, DYAD_RYR_FREE, &o);
    CHECK(memcmp(a.ryr, b.ryr, sizeof a.ryr) == 0 && a.cajsr == b.cajsr, "the same words give the same dyad");
    CHECK(a.ryr[0] + a.ryr[1] + a.ryr[2] + a.ryr[3] == GR_NRYR, "RyRs are conserved (%d %d %d %d)", a.ryr[0],
          a.ryr[1], a.ryr[2], a.ryr[3]);
    dyad_step_f64(&a, &c, p, 0.05, w, DYAD_RYR_OPEN, &o);
    CHECK(a.ryr[DYAD_O1] == GR_NRYR, "clamp open: all %d RyRs in O1", GR_NRYR);
    const double before = a.cajsr;
    dyad_step_f64(&a, &c, p, 0.05, w, DYAD_RYR_OPEN, &o);
    CHECK(a.cajsr < before && o.jrel > 0, "open RyRs release: JSR %.4f -> %.4f mM", before, a.cajsr);
    dyad_step_f64(&a, &c, p, 0.05, w, DYAD_RYR_CLOSED, &o);
    CHECK(a.ryr[DYAD_C1] == GR_NRYR, "clamp closed: all RyRs in C1");
    dyad_step_f64(&a, &c, p, 0.05, w, DYAD_RYR_CLOSED, &o);
    CHECK(o.jrel == 0, "closed RyRs release nothing");
}

int main(void)
{
    gr = model_find("gaur_rudy");
    for (int q = 0; q < gr->nparam; q++) p[q] = gr->params[q].value;
    deterministic_limit();
    lcc_mean();
    clamps_and_words();
    return check_summary();
}
