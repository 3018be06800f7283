/* The no-flux boundary rule of the diffusion stencil, shared by the CPU sweep
 * and every GPU kernel (instantiated by core/engine/instances.h; no include guard).
 *
 * An axis's share of the diffusion term at a cell with value v0, from its
 * neighbours at -1, +1 (and -2, +2 in fourth order) and flags saying whether
 * each is tissue inside the box. A missing neighbour takes the value of its mirror image across the
 * boundary face (ghost(+1) = v0, ghost(+2) = value at -1; docs/numerics.md),
 * which keeps the sum of V over the tissue constant under pure diffusion.
 * Values whose flag is 0 are never used, so callers may pass anything there. */

/* Second order: the axis's share before the centre, M1 + P1 (the sum over
 * the axes then subtracts 2 sum_a coef_a v0 once: docs/numerics.md,
 * "Rounding of the diffusion term"), a missing neighbour taking v0. */
CARDIAC_HD real R(stencil_pair_rule)(real v0, real m1, real p1, int im1, int ip1)
{
    return (im1 ? m1 : v0) + (ip1 ? p1 : v0);
}

/* Fourth order: the axis's second difference. */
CARDIAC_HD real R(stencil_axis_rule)(real v0, real m1, real p1, real m2, real p2, int im1, int ip1, int im2, int ip2)
{
    real P1 = ip1 ? p1 : v0;
    real M1 = im1 ? m1 : v0;
    real P2 = ip1 ? (ip2 ? p2 : P1) : M1;
    real M2 = im1 ? (im2 ? m2 : M1) : P1;
    return (-P2 + (real)16 * P1 - (real)30 * v0 + (real)16 * M1 - M2) * ((real)1 / (real)12);
}

/* Fourth order, interior (all four neighbours are tissue). */
CARDIAC_HD real R(stencil_axis_interior)(real v0, real m1, real p1, real m2, real p2)
{
    return (-p2 + (real)16 * p1 - (real)30 * v0 + (real)16 * m1 - m2) * ((real)1 / (real)12);
}
