/* Stimulus timing: a pulse of duration n*dt acts on exactly n steps, trains
 * start where they should, explicit time lists (S1-S2) likewise. */
#include "check.h"
#include "stimulus.h"

static long count_active(const stimulus *s, double dt, double T, long *first)
{
    long n = 0;
    *first = -1;
    for (long k = 0; k * dt < T; k++)
        if (stimulus_active(s, k * dt, dt)) { if (*first < 0) *first = k; n++; }
    return n;
}

int main(void)
{
    long first;
    stimulus s = {0};
    s.duration = 2.0; s.start = 0; s.count = 1;
    CHECK(count_active(&s, 0.05, 100, &first) == 40 && first == 0, "2 ms at dt 0.05: 40 steps from step 0");
    s.start = 10; s.duration = 1.0; s.count = 3; s.period = 100;
    long n = count_active(&s, 0.05, 1000, &first);
    CHECK(n == 60 && first == 200, "3 x 1 ms every 100 ms from 10 ms: %ld steps, first %ld", n, first);
    CHECK(stimulus_active(&s, 210.0, 0.05) && !stimulus_active(&s, 211.0, 0.05) && !stimulus_active(&s, 310.0, 0.05),
          "train: second pulse on at 210 ms, off at 211, no fourth pulse at 310");
    CHECK(stimulus_end(&s) == 211.0, "end of the train at 211 ms");
    double dt = 0.1 / 3;
    s.start = 0; s.count = 1; s.duration = 1.0;
    CHECK(count_active(&s, dt, 50, &first) == 30, "1 ms at dt = 1/30 ms: 30 steps");
    double times[2] = {0, 250.5};
    stimulus s2 = {0};
    s2.duration = 0.5; s2.times = times; s2.ntimes = 2;
    n = count_active(&s2, 0.05, 400, &first);
    CHECK(n == 20 && first == 0, "S1-S2 at 0 and 250.5 ms, 0.5 ms each: %ld steps", n);
    CHECK(stimulus_active(&s2, 250.5, 0.05) && !stimulus_active(&s2, 251.0, 0.05) && !stimulus_active(&s2, 250.45, 0.05),
          "S2 window [250.5, 251)");
    return check_summary();
}
