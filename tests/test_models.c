/* Single-cell physics of the built-in models against values derived from
 * their equations (docs/models.md, "Reference values"), plus agreement of the
 * production forward-Euler step with an independent RK4 integration. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "model.h"
#include "instances.h"

/* Runs one cell from y0 for T ms; returns max V and the time V stays above thr
 * after first crossing it (the action potential duration at that level). */
static void run_cell_prec(const model_inst *m, const float *y0, double T, double dt, float stim, double stim_dur,
                          double thr, double *vmax, double *apd, float *yend, int fp64)
{
    const model_def *d = m->def;
    double y[MODEL_MAX_STATE];
    for (int v = 0; v < d->nstate; v++) y[v] = y0[v];
    double up = y[d->vindex] >= thr ? 0 : -1, down = -1;   /* a start above thr counts from t = 0 */
    *vmax = -1e30;
    long n = (long)(T / dt + 0.5);
    for (long s = 0; s < n; s++) {
        double t = s * dt;
        double prev = y[d->vindex];
        model_step_cell(m, y, 0.0, t < stim_dur - 1e-9 ? stim : 0.0, dt, fp64);
        double v = y[d->vindex];
        if (v > *vmax) *vmax = v;
        if (up < 0 && prev < thr && v >= thr) up = t + dt * (thr - prev) / (v - prev);
        if (up >= 0 && down < 0 && prev >= thr && v < thr) down = t + dt * (prev - thr) / (prev - v);
    }
    *apd = up >= 0 && down >= 0 ? down - up : -1;
    if (yend) for (int v = 0; v < d->nstate; v++) yend[v] = (float)y[v];
}

/* The same in single precision, the production default. */
static void run_cell(const model_inst *m, const float *y0, double T, double dt, float stim, double stim_dur,
                     double thr, double *vmax, double *apd, float *yend)
{
    run_cell_prec(m, y0, T, dt, stim, stim_dur, thr, vmax, apd, yend, 0);
}

/* ---- Karma ---------------------------------------------------------------- */

static double karma_g(double U, double uh) { return U / (1 + exp(2 * (U - uh))); }  /* (1 - tanh)/2 * U */

static double bisect(double (*f)(double, const double *), const double *p, double a, double b)
{
    for (int i = 0; i < 200; i++) {
        double m = 0.5 * (a + b);
        if ((f(a, p) < 0) == (f(m, p) < 0)) a = m; else b = m;
    }
    return 0.5 * (a + b);
}
/* -U + gamma U^2 / (1 + e^{2(U-uh)}), the U-nullcline at v = 0 */
static double karma_rhs0(double U, const double *p) { return -U + p[0] * U * karma_g(U, p[1]); }

/* Karma in each parameter set: the set's time constant tau_e scales every
 * time of the cell (the reaction is (-U + F(U, v)) / tau_e), not its levels. */
static void test_karma(void)
{
    const model_def *d = model_find("karma");
    for (int q = -1; q < d->npresets; q++) {
        model_inst m;
        model_init(&m, d);
        if (q >= 0) model_apply_preset(&m, &d->presets[q]);
        printf("Karma, %s\n", q < 0 ? "defaults" : d->presets[q].name);
        const double gamma = m.p[KARMA_GAMMA], uh = m.p[KARMA_UH], eps = m.p[KARMA_EPS];
        const double vstar = m.p[KARMA_VSTAR], M = m.p[KARMA_XM], tau = m.p[KARMA_TAUE];
        double par[2] = {gamma, uh};
        double Uth = bisect(karma_rhs0, par, 0.05, 1.5);   /* unstable middle root: threshold */
        double Up = bisect(karma_rhs0, par, 2.0, 6.0);     /* upper root: plateau at v = 0 */
        double vmax, apd;
        float rest[2] = {0, 0}, end[2];
        run_cell(&m, rest, 1000, 0.05, 0, 0, 1.0, &vmax, &apd, end);
        CHECK_NEAR(vmax, 0.0, 1e-6, "rest state stays at U = 0 for 1 s");
        float below[2] = {(float)(0.95 * Uth), 0}, above[2] = {(float)(1.05 * Uth), 0};
        run_cell(&m, below, 200 * tau, 0.01, 0, 0, 1.0, &vmax, &apd, end);
        CHECK(vmax < Uth, "U0 = 0.95 x threshold (%.4f) must decay, reached %.4f", Uth, vmax);
        run_cell(&m, above, 200 * tau, 0.01, 0, 0, 1.0, &vmax, &apd, end);
        CHECK(vmax > 3.0, "U0 = 1.05 x threshold must fire, reached %.4f", vmax);
        printf("  derived threshold U_th = %.5f, plateau U_p = %.5f\n", Uth, Up);
        /* a supra-threshold start without stimulus: the peak is the plateau root, less
         * what v has grown during the upstroke */
        float start[2] = {1.5f, 0};
        run_cell(&m, start, 600 * tau, 0.01, 0, 0, 1.0, &vmax, &apd, end);
        CHECK_NEAR(vmax, Up, 0.02 * Up, "peak U vs derived plateau root (2%)");
        /* APD: v = 1 - e^{-eps t / tau_e} while U > 1; the excited state vanishes
         * when (v/vstar)^M = gamma - 1/max_U g(U), so t_c = -tau_e ln(1 - v_c)/eps */
        double gmax = 0;
        for (double U = 0; U < 8; U += 1e-4) gmax = fmax(gmax, karma_g(U, uh));
        double vc = vstar * pow(gamma - 1 / gmax, 1 / M);
        double tc = -tau * log(1 - vc) / eps;
        printf("  derived v_c = %.5f, t_c = %.3f ms (tau_e = %g ms)\n", vc, tc, tau);
        CHECK_NEAR(apd, tc, 0.05 * tc, "APD (U > 1) vs derived t_c (5%)");
        CHECK_NEAR(end[KARMA_U], 0.0, 1e-3, "back to rest after the action potential");
    }
}

/* Independent references: classical RK4 of a model's equations written out
 * again in a test. From state y (n values, y[0] the potential), returns the
 * time y[0] stays above thr after first reaching it (0 if it starts above),
 * and in *peak the largest y[0] until then. */
typedef void (*rhs_fn)(const double *p, const double *y, double *f);

static double rk4_apd(rhs_fn rhs, const double *p, double *y, int n, double T, double h, double thr, double *peak)
{
    double k1[8], k2[8], k3[8], k4[8], t[8], up = y[0] >= thr ? 0 : -1, down = -1, top = y[0];
    for (long s = 0; s * h < T && down < 0; s++) {
        const double prev = y[0];
        rhs(p, y, k1);
        for (int q = 0; q < n; q++) t[q] = y[q] + 0.5 * h * k1[q];
        rhs(p, t, k2);
        for (int q = 0; q < n; q++) t[q] = y[q] + 0.5 * h * k2[q];
        rhs(p, t, k3);
        for (int q = 0; q < n; q++) t[q] = y[q] + h * k3[q];
        rhs(p, t, k4);
        for (int q = 0; q < n; q++) y[q] += h / 6 * (k1[q] + 2 * k2[q] + 2 * k3[q] + k4[q]);
        top = fmax(top, y[0]);
        if (up < 0 && prev < thr && y[0] >= thr) up = s * h + h * (thr - prev) / (y[0] - prev);
        if (up >= 0 && prev >= thr && y[0] < thr) down = s * h + h * (prev - thr) / (prev - y[0]);
    }
    if (peak) *peak = top;
    return down - up;
}

/* ---- Aliev-Panfilov ------------------------------------------------------------ */

/* independent double-precision right-hand side in model units (u, w) */
static void ap_rhs(const double *p, const double *y, double *f)
{
    double u = y[0], w = y[1], k = p[AP_K];
    f[0] = -k * u * (u - p[AP_A]) * (u - 1) - u * w;
    f[1] = (p[AP_EPS0] + p[AP_MU1] * w / (u + p[AP_MU2])) * (-w - k * u * (u - p[AP_B] - 1));
}

static void test_aliev_panfilov(void)
{
    printf("Aliev-Panfilov 1996\n");
    model_inst m;
    model_init(&m, model_find("aliev_panfilov"));
    const double *p = m.p;
    double vmax, apd;
    float end[2];
    float rest[2] = {p[AP_VREST], 0};
    run_cell(&m, rest, 500, 0.05, 0, 0, -70, &vmax, &apd, end);
    CHECK_NEAR(vmax, p[AP_VREST], 1e-4, "rest state stays at V = vm_rest");
    /* with w = 0 the threshold is exactly u = a */
    float below[2] = {p[AP_VREST] + p[AP_VNORM] * 0.9f * p[AP_A], 0};
    float above[2] = {p[AP_VREST] + p[AP_VNORM] * 1.1f * p[AP_A], 0};
    run_cell(&m, below, 100, 0.01, 0, 0, -70, &vmax, &apd, end);
    CHECK(vmax < below[0] + 1e-3, "u0 = 0.9 a must decay (max V %.3f mV)", vmax);
    run_cell(&m, above, 100, 0.01, 0, 0, -70, &vmax, &apd, end);
    CHECK(vmax > 0, "u0 = 1.1 a must fire (max V %.3f mV)", vmax);
    /* peak: the upper root u = 1 of the u-nullcline at w = 0 */
    float start[2] = {p[AP_VREST] + p[AP_VNORM] * 0.3f, 0};
    run_cell(&m, start, 200, 0.01, 0, 0, -70, &vmax, &apd, end);
    CHECK_NEAR(vmax, p[AP_VREST] + p[AP_VNORM], 0.01 * p[AP_VNORM], "peak V vs u = 1 (1% of vm_norm)");
    /* APD at u = 0.1 (V = -70 mV): forward Euler at dt = 0.05 vs RK4 at h = 1e-3 */
    double y0[2] = {0.3, 0};
    double ref = rk4_apd(ap_rhs, p, y0, 2, 200, 1e-3, 0.1, NULL) * p[AP_TNORM];
    run_cell(&m, start, 200, 0.05, 0, 0, -70, &vmax, &apd, end);
    printf("  RK4 reference APD at -70 mV: %.4f ms\n", ref);
    CHECK_NEAR(apd, ref, 0.01 * ref, "APD, forward Euler dt = 0.05 vs RK4 (1%)");
    run_cell(&m, start, 200, 0.005, 0, 0, -70, &vmax, &apd, end);
    CHECK_NEAR(apd, ref, 0.002 * ref, "APD, forward Euler dt = 0.005 vs RK4 (0.2%)");
}

/* ---- Mitchell-Schaeffer ------------------------------------------------- */

static void ms_rhs(const double *p, const double *y, double *f)
{
    f[0] = y[1] * y[0] * y[0] * (1 - y[0]) / p[MS_TAU_IN] - y[0] / p[MS_TAU_OUT];
    f[1] = y[0] < p[MS_VGATE] ? (1 - y[1]) / p[MS_TAU_OPEN] : -y[1] / p[MS_TAU_CLOSE];
}

static void test_mitchell_schaeffer(void)
{
    printf("Mitchell-Schaeffer 2003\n");
    model_inst m;
    model_init(&m, model_find("mitchell_schaeffer"));
    const double *p = m.p;
    double vmax, apd;
    float end[2], rest[2] = {0, 1};
    run_cell(&m, rest, 500, 0.05, 0, 0, 0.5, &vmax, &apd, end);
    CHECK(vmax == 0 && end[1] == 1, "rest state (v, h) = (0, 1) stays");
    /* with h = 1 (it stays 1 below v_gate) J_in + J_out = 0 at v (1 - v) = tau_in / tau_out:
     * the lower root is the threshold, the upper one the excited state */
    const double disc = sqrt(1 - 4 * p[MS_TAU_IN] / p[MS_TAU_OUT]);
    const double vth = (1 - disc) / 2, vup = (1 + disc) / 2;
    printf("  threshold %.4f, excited state %.4f (roots of v (1 - v) = tau_in / tau_out)\n", vth, vup);
    float below[2] = {(float)(0.9 * vth), 1}, above[2] = {(float)(1.1 * vth), 1};
    run_cell(&m, below, 100, 0.01, 0, 0, 0.5, &vmax, &apd, end);
    CHECK(vmax <= below[0] && end[0] < 0.01f, "v0 = 0.9 threshold decays (v at 100 ms %.4f)", end[0]);
    run_cell(&m, above, 100, 0.01, 0, 0, 0.5, &vmax, &apd, end);
    CHECK(vmax > 0.9, "v0 = 1.1 threshold fires (max v %.4f)", vmax);
    /* the peak sits just under the excited state: h closes slowly (tau_close) during the upstroke */
    float start[2] = {0.3f, 1};
    run_cell(&m, start, 600, 0.01, 0, 0, p[MS_VGATE], &vmax, &apd, end);
    CHECK_NEAR(vmax, vup, 0.01, "peak v vs the excited state at h = 1");
    /* APD at v_gate: the production step (Euler for v, exact Rush-Larsen for h) vs RK4 */
    double y0[2] = {0.3, 1};
    double ref = rk4_apd(ms_rhs, p, y0, 2, 600, 1e-3, p[MS_VGATE], NULL);
    printf("  RK4 reference APD at v_gate: %.3f ms (leading-order estimate tau_close ln(tau_out / 4 tau_in) "
           "= %.1f ms)\n", ref, p[MS_TAU_CLOSE] * log(p[MS_TAU_OUT] / (4 * p[MS_TAU_IN])));
    run_cell(&m, start, 600, 0.05, 0, 0, p[MS_VGATE], &vmax, &apd, end);
    CHECK_NEAR(apd, ref, 0.01 * ref, "APD, dt = 0.05 vs RK4 (1%)");
    run_cell(&m, start, 600, 0.005, 0, 0, p[MS_VGATE], &vmax, &apd, end);
    CHECK_NEAR(apd, ref, 0.002 * ref, "APD, dt = 0.005 vs RK4 (0.2%)");
}

/* ---- Bueno-Orovio-Cherry-Fenton ------------------------------------------ */

/* The paper's equations written out again, with tanh (the model header uses
 * the equivalent logistic form): the reference for an RK4 integration. */
static void bo_rhs(const double *p, const double *y, double *f)
{
    const double u = y[0], v = y[1], w = y[2], s = y[3];
    const double Hv = u > p[BO_THV], Hw = u > p[BO_THW], Hvm = u > p[BO_THVM], Ho = u > p[BO_THO];
    const double tvm = (1 - Hvm) * p[BO_TV1M] + Hvm * p[BO_TV2M];
    const double twm = p[BO_TW1M] + (p[BO_TW2M] - p[BO_TW1M]) * (1 + tanh(p[BO_KWM] * (u - p[BO_UWM]))) / 2;
    const double tso = p[BO_TSO1] + (p[BO_TSO2] - p[BO_TSO1]) * (1 + tanh(p[BO_KSO] * (u - p[BO_USO]))) / 2;
    const double ts = (1 - Hw) * p[BO_TS1] + Hw * p[BO_TS2], to = (1 - Ho) * p[BO_TO1] + Ho * p[BO_TO2];
    const double vinf = u < p[BO_THVM] ? 1 : 0, winf = (1 - Ho) * (1 - u / p[BO_TWINF]) + Ho * p[BO_WINFS];
    const double jfi = -v * Hv * (u - p[BO_THV]) * (p[BO_UU] - u) / p[BO_TFI];
    const double jso = (u - p[BO_UO]) * (1 - Hw) / to + Hw / tso, jsi = -Hw * w * s / p[BO_TSI];
    f[0] = -(jfi + jso + jsi);
    f[1] = (1 - Hv) * (vinf - v) / tvm - Hv * v / p[BO_TVP];
    f[2] = (1 - Hw) * (winf - w) / twm - Hw * w / p[BO_TWP];
    f[3] = ((1 + tanh(p[BO_KS] * (u - p[BO_US]))) / 2 - s) / ts;
}

static void test_bueno_orovio(void)
{
    printf("Bueno-Orovio-Cherry-Fenton 2008 (epicardial)\n");
    model_inst m;
    model_init(&m, model_find("bueno_orovio"));
    const double *p = m.p;
    double umax, apd;
    float end[4], rest[4] = {0, 1, 1, 0};
    run_cell(&m, rest, 500, 0.01, 0, 0, 0.5, &umax, &apd, end);
    /* the paper's initial state: u, v, w stay; s relaxes to its resting target (J_si is off below theta_w) */
    const double s_rest = (1 + tanh(-p[BO_KS] * p[BO_US])) / 2;
    CHECK(umax == 0 && end[1] == 1 && end[2] == 1 && fabs(end[3] - s_rest) < 1e-6,
          "rest: u, v, w stay at (0, 1, 1), s goes to %.4f (%.4f)", end[3], s_rest);
    /* from rest gates, J_fi switches on at theta_v: the excitation threshold */
    float below[4] = {(float)(0.95 * p[BO_THV]), 1, 1, 0}, above[4] = {(float)(1.05 * p[BO_THV]), 1, 1, 0};
    run_cell(&m, below, 100, 0.01, 0, 0, 0.5, &umax, &apd, end);
    CHECK(umax <= below[0] && end[0] < 0.01f, "u0 = 0.95 theta_v decays (u at 100 ms %.4f)", end[0]);
    run_cell(&m, above, 100, 0.01, 0, 0, 0.5, &umax, &apd, end);
    CHECK(umax > 1.2, "u0 = 1.05 theta_v fires (max u %.4f)", umax);
    /* peak and APD at u = theta_v from u0 = 0.5: production step vs RK4 of the paper's equations */
    double rpeak, y0[4] = {0.5, 1, 1, 0};
    const double rapd = rk4_apd(bo_rhs, p, y0, 4, 600, 1e-4, p[BO_THV], &rpeak);
    printf("  RK4 reference: peak u %.4f (V = %.1f mV), APD at u = theta_v %.2f ms\n", rpeak, 85.7 * rpeak - 84, rapd);
    float start[4] = {0.5f, 1, 1, 0};
    run_cell(&m, start, 600, 0.01, 0, 0, p[BO_THV], &umax, &apd, end);
    CHECK_NEAR(umax, rpeak, 0.01 * rpeak, "peak u, dt = 0.01 vs RK4 (1%)");
    CHECK_NEAR(apd, rapd, 0.01 * rapd, "APD, dt = 0.01 vs RK4 (1%)");
    run_cell(&m, start, 600, 0.001, 0, 0, p[BO_THV], &umax, &apd, end);
    CHECK_NEAR(apd, rapd, 0.002 * rapd, "APD, dt = 0.001 vs RK4 (0.2%)");
    CHECK_NEAR(model_rate_bound(&m), 12.52, 0.05, "dt-limit rate bound at the defaults (1/ms)");
}

/* ---- Fenton-Karma ----------------------------------------------------------- */

/* The paper's equations (Fenton & Karma 1998, eqs. 3-7) written out again,
 * with tanh and tau_d = C_m / g_fi (C_m = 1): the reference for RK4. */
static void fk_rhs(const double *p, const double *y, double *f)
{
    const double u = y[0], v = y[1], w = y[2];
    const double Hc = u >= p[FK_UC], Hv = u >= p[FK_UV], tau_d = 1 / p[FK_GFI];
    const double jfi = -v * Hc * (1 - u) * (u - p[FK_UC]) / tau_d;
    const double jso = u * (1 - Hc) / p[FK_TO] + Hc / p[FK_TR];
    const double jsi = -w * (1 + tanh(p[FK_K] * (u - p[FK_UCSI]))) / (2 * p[FK_TSI]);
    const double tvm = Hv * p[FK_TV1M] + (1 - Hv) * p[FK_TV2M];
    f[0] = -(jfi + jso + jsi);
    f[1] = (1 - Hc) * (1 - v) / tvm - Hc * v / p[FK_TVP];
    f[2] = (1 - Hc) * (1 - w) / p[FK_TWM] - Hc * w / p[FK_TWP];
}

static void test_fenton_karma(void)
{
    const model_def *d = model_find("fenton_karma");
    for (int q = 0; q < d->npresets; q++) {
        model_inst m;
        model_init(&m, d);
        model_apply_preset(&m, &d->presets[q]);
        printf("Fenton-Karma 1998, %s set\n", d->presets[q].name);
        const double *p = m.p;
        double umax, apd;
        float end[3], rest[3] = {0, 1, 1};
        run_cell(&m, rest, 500, 0.01, 0, 0, 0.5, &umax, &apd, end);
        /* J_si's sigmoid is e^{-2 k u_csi} (4e-8), not 0, at u = 0: u settles at tau_o times that */
        CHECK(umax < 1e-6 && end[1] == 1 && end[2] == 1, "rest (0, 1, 1) stays (max u %.1e)", umax);
        /* J_fi switches on at u_c: the excitation threshold */
        float below[3] = {(float)(0.9 * p[FK_UC]), 1, 1}, above[3] = {(float)(1.1 * p[FK_UC]), 1, 1};
        run_cell(&m, below, 100, 0.01, 0, 0, 0.5, &umax, &apd, end);
        CHECK(umax <= below[0] && end[0] < 0.01f, "u0 = 0.9 u_c decays (u at 100 ms %.4f)", end[0]);
        run_cell(&m, above, 100, 0.01, 0, 0, 0.5, &umax, &apd, end);
        CHECK(umax > 0.8, "u0 = 1.1 u_c fires (max u %.4f)", umax);
        /* APD at u = u_c from u0 = 0.3: production step vs RK4 of the paper's equations */
        double rpeak, y0[3] = {0.3, 1, 1};
        const double rapd = rk4_apd(fk_rhs, p, y0, 3, 1000, 1e-4, p[FK_UC], &rpeak);
        printf("  RK4 reference: peak u %.4f, APD at u = u_c %.2f ms\n", rpeak, rapd);
        float start[3] = {0.3f, 1, 1};
        run_cell(&m, start, 1000, 0.01, 0, 0, p[FK_UC], &umax, &apd, end);
        CHECK_NEAR(umax, rpeak, 0.01 * rpeak, "peak u, dt = 0.01 vs RK4 (1%)");
        CHECK_NEAR(apd, rapd, 0.01 * rapd, "APD, dt = 0.01 vs RK4 (1%)");
        /* fp64: in fp32, 10^6 small plateau increments of u round off by more than 0.2% */
        run_cell_prec(&m, start, 1000, 0.001, 0, 0, p[FK_UC], &umax, &apd, end, 1);
        CHECK_NEAR(apd, rapd, 2e-4 * rapd, "APD, dt = 0.001 in fp64 vs RK4 (0.02%)");
    }
}

static void test_rush_larsen(void)
{
    printf("Rush-Larsen\n");
    /* exact for dy/dt = (y_inf - y)/tau with constant y_inf, tau, whatever dt */
    float y = 1.0f;
    const float yinf = 0.2f, tau = 0.5f, dt = 2.0f;
    for (int s = 0; s < 5; s++) y = rush_larsen_f32(y, yinf, tau, dt);
    CHECK_NEAR(y, yinf + (1 - yinf) * exp(-10.0 / 0.5), 1e-7, "5 steps of dt = 4 tau vs exact");
    y = 1.0f;
    for (int s = 0; s < 10; s++) y = rush_larsen_f32(y, yinf, tau, 0.05f);
    CHECK_NEAR(y, yinf + (1 - yinf) * exp(-0.5 / 0.5), 1e-6, "10 steps of dt = tau/10 vs exact");
}

int main(void)
{
    test_karma();
    test_aliev_panfilov();
    test_mitchell_schaeffer();
    test_bueno_orovio();
    test_fenton_karma();
    test_rush_larsen();
    return check_summary();
}
