/* exp(x) in double on the GPU, the body of cardiac_exp (out of line for ORd,
 * core/engine/qualifiers.h): the CUDA library's algorithm (CUDA 13's exp,
 * read from its machine code), operation for operation, so every result is
 * the library's to the bit (tests/gpu_exp.cu compares them), with its
 * constants in constant memory. The library's copy, called out of line, set
 * eleven of its 64-bit constants with two immediate moves each (22 of its 48
 * instructions, a fifth of ORd's fp64 step); here each is one load from the
 * constant bank (docs/gpu-notebook.md, item 34).
 *
 * x = n ln2 + r with n = rint(x / ln2) (added to 1.5 2^52, so that n is the
 * low word), ln2 in two parts; e^r by its degree-11 polynomial; n added to
 * the exponent. Beyond |x| ~ 708.4 (the high word's magnitude read as a float
 * against the library's threshold), overflow to inf, underflow to 0, and in
 * between the scaling in two steps so that subnormal results round once. */
#ifndef CARDIAC_EXP_F64_CU_H
#define CARDIAC_EXP_F64_CU_H

static __constant__ double cardiac_exp_k[15] = {
    0x1.71547652b82fep+0,    /* 1 / ln2 */
    0x1.8p+52,               /* 1.5 2^52: adding it rounds to an integer, the low word */
    0x1.62e42fefa39efp-1,    /* ln2, high part */
    0x1.abc9e3b39803fp-56,   /* ln2, low part */
    0x1.ade1569ce2bdfp-26, 0x1.28af3fca213eap-22, 0x1.71dee62401315p-19, 0x1.a01997c89eb71p-16,
    0x1.a01a014761f65p-13, 0x1.6c16c1852b7afp-10, 0x1.1111111122322p-7, 0x1.55555555502a1p-5,
    0x1.5555555555511p-3, 0x1.000000000000bp-1, 1.0,
};

static __device__ __forceinline__ double cardiac_exp_f64_device(double x)
{
    const double *k = cardiac_exp_k;
    const double t = fma(x, k[0], k[1]);
    const int n = __double2loint(t);
    const double nn = t - k[1];
    double r = fma(nn, -k[2], x);
    r = fma(nn, -k[3], r);
    double p = fma(r, k[4], k[5]);
    p = fma(r, p, k[6]);
    p = fma(r, p, k[7]);
    p = fma(r, p, k[8]);
    p = fma(r, p, k[9]);
    p = fma(r, p, k[10]);
    p = fma(r, p, k[11]);
    p = fma(r, p, k[12]);
    p = fma(r, p, k[13]);
    p = fma(r, p, k[14]);
    p = fma(r, p, k[14]);
    const int hx = __double2hiint(x);
    if (!(fabsf(__int_as_float(hx)) < 4.1917929649353027344f)) {   /* also NaN */
        double big = x >= 0 || x != x ? x + __longlong_as_double(0x7ff0000000000000ll) : 0.0;
        if (fabsf(__int_as_float(hx)) < 4.2275390625f) {
            const int i = (n + (int)((unsigned)n >> 31)) >> 1, j = n - i;
            const double a = __hiloint2double(__double2hiint(p) + i * 0x100000, __double2loint(p));
            big = a * __hiloint2double((j << 20) + 0x3ff00000, 0);
        }
        return big;
    }
    return __hiloint2double(__double2hiint(p) + n * 0x100000, __double2loint(p));
}

#endif
