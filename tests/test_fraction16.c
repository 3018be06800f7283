/* 16-bit fractions of [0, 1] (core/engine/fraction16.h), which precision
 * "fp32g" stores some gates as on the GPU and rounds them to on the CPU:
 * the codes of the ends and of ties, the clamp, NaN, and over every code that
 * coding its value gives the code back and that the value is the code's
 * nearest float to k / 65535, so that rounding twice changes nothing (a step
 * that holds a state stores it again). */
#include <math.h>
#include "check.h"
#include "fraction16.h"

int main(void)
{
    CHECK(fraction16_code(0.0f) == 0 && fraction16_code(1.0f) == 65535, "0 and 1 are the end codes");
    CHECK(fraction16_value(0) == 0.0f && fraction16_value(65535) == 1.0f, "the end codes are exactly 0 and 1");
    CHECK(fraction16_code(-0.2f) == 0 && fraction16_code(1.5f) == 65535, "values outside [0, 1] are clamped");
    CHECK(fraction16_code(0.5f / 65535.0f * 0.999f) == 0, "under half a step from 0 rounds to 0");
    CHECK(fraction16_code(0.6f / 65535.0f) == 1, "over half a step rounds up");
    /* ties: a float x whose product x * 65535 is k + 1/2 exactly, searched
     * about (k + 1/2) / 65535; it codes to the even neighbour */
    for (unsigned k = 2; k <= 3; k++) {
        float x = (float)((k + 0.5) / 65535.0), tie = -1;
        for (int i = 0; i < 64 && tie < 0; i++, x = nextafterf(x, 1.0f))
            if (x * 65535.0f == k + 0.5f) tie = x;
        x = (float)((k + 0.5) / 65535.0);
        for (int i = 0; i < 64 && tie < 0; i++, x = nextafterf(x, 0.0f))
            if (x * 65535.0f == k + 0.5f) tie = x;
        CHECK(tie >= 0 && fraction16_code(tie) == (k + 1) / 2 * 2, "the tie at %u.5 codes to the even %u", k,
              (k + 1) / 2 * 2);
    }
    CHECK(fraction16_round(0.25f) == fraction16_value(16384), "0.25 to the nearest k / 65535: k = 16384 (16383.75)");
    CHECK(isnan(fraction16_round(NAN)), "NaN stays NaN when rounded (the CPU's finite test follows)");
    CHECK(fraction16_code(NAN) == 0, "NaN codes as 0 (the GPU tests for finite values before storing)");
    int bad_code = -1, bad_value = -1;
    for (unsigned k = 0; k <= 65535; k++) {
        const float x = fraction16_value(k);
        if (bad_code < 0 && fraction16_code(x) != k) bad_code = (int)k;
        if (bad_value < 0 && fabs((double)x - k / 65535.0) > 0x1p-24 * (k / 65535.0)) bad_value = (int)k;
    }
    CHECK(bad_code < 0, "every code's value codes back to it (first failure: %d)", bad_code);
    CHECK(bad_value < 0, "every value is within a float's rounding of k / 65535 (first failure: %d)", bad_value);
    float y[3] = {0.25f, 0.25f, 0.25f};
    round_states_to_fraction(y, 3, 0x5ull);
    CHECK(y[0] == fraction16_value(16384) && y[1] == 0.25f && y[2] == y[0], "only the masked states are rounded");
    return check_summary();
}
