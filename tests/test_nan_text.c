/* Messages say "NaN" where printf's %g wrote "-nan" or "nan" (core/engine/
 * nan_text.h, applied to every error the shell raises and every backend
 * failure); words that merely contain the letters stay as they are. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "nan_text.h"

static void expect(const char *in, const char *want)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", in);
    nan_text(buf);
    CHECK(!strcmp(buf, want), "'%s' became '%s', expected '%s'", in, buf, want);
}

int main(void)
{
    char printed[64];
    snprintf(printed, sizeof printed, "got %g and %g", -(double)NAN, (double)NAN);
    nan_text(printed);
    CHECK(!strcmp(printed, "got NaN and NaN"), "printf's NaNs of both signs: '%s'", printed);
    expect("D = -nan mm^2/ms", "D = NaN mm^2/ms");
    expect("nan", "NaN");
    expect("(-nan, nan)", "(NaN, NaN)");
    expect("a banana, nanoseconds, finance", "a banana, nanoseconds, finance");
    expect("already NaN", "already NaN");
    return check_summary();
}
