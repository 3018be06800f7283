/* Rounding to IEEE half (core/engine/half_round.h), which precision "fp32h"
 * applies on the CPU where the GPU stores half: values at the edges of the
 * format (ties to even, the subnormal steps, the overflow threshold, NaN)
 * from their definitions, and, where the compiler has _Float16, agreement with
 * its conversion over a sample of every binade a gate can take and beyond. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "half_round.h"

static float from_bits(uint32_t b) { float x; memcpy(&x, &b, sizeof x); return x; }

int main(void)
{
    const float u = 0x1p-10f;   /* half's step between 1 and 2 */
    CHECK(half_round(1.0f) == 1.0f, "1 is a half value");
    CHECK(half_round(1.0f + u / 2) == 1.0f, "1 + half a step: a tie, to the even 1");
    CHECK(half_round(1.0f + 1.5f * u) == 1.0f + 2 * u, "1 + 1.5 steps: a tie, to the even 1 + 2 steps");
    CHECK(half_round(1.0f + 0.51f * u) == 1.0f + u, "just above half a step rounds up");
    CHECK(half_round(0.3f) == 0.300048828125f, "0.3 to 11 significant bits: 1229 x 2^-12");
    CHECK(half_round(65504.0f) == 65504.0f, "the largest half value");
    CHECK(half_round(65519.0f) == 65504.0f, "below the overflow threshold: the largest value");
    CHECK(isinf(half_round(65520.0f)) && half_round(-65520.0f) < 0, "from 65520 on: infinite, signed");
    CHECK(half_round(0x1p-24f) == 0x1p-24f, "the smallest subnormal");
    CHECK(half_round(0x1p-25f) == 0.0f, "half of it: a tie, to the even 0");
    CHECK(half_round(3 * 0x1p-25f) == 0x1p-23f, "1.5 subnormal steps: a tie, to the even 2 steps");
    CHECK(half_round(0x1p-14f - 0x1p-26f) == 0x1p-14f, "just below the smallest normal rounds up to it");
    CHECK(half_round(-0.3f) == -0.300048828125f, "sign kept");
    CHECK(isnan(half_round(NAN)), "NaN stays NaN");
    float y[3] = {0.3f, 0.3f, 0.3f};
    round_states_to_half(y, 3, 0x5);
    CHECK(y[0] == 0.300048828125f && y[1] == 0.3f && y[2] == 0.300048828125f, "only the states in the mask");
#ifdef __FLT16_MAX__
    /* every 61st float from 2^-30 to 2^17, against the compiler's conversion */
    long differ = 0, n = 0;
    for (uint32_t b = 0x30800000u; b < 0x48000000u; b += 61, n++) {
        const float x = from_bits(b), r = (float)(_Float16)x;
        if (half_round(x) != r && !(isinf(r) && isinf(half_round(x)))) differ++;
    }
    CHECK(differ == 0, "%ld of %ld floats round unlike _Float16", differ, n);
    printf("  %ld floats from 2^-30 to 2^17 rounded as _Float16 rounds them\n", n);
#else
    printf("  no _Float16 in this compiler: the sampled comparison is skipped\n");
    (void)from_bits;
#endif
    return check_summary();
}
