/* OpenMP threads of the engine's CPU loops (core/engine/threads.h). */
#include <omp.h>
#include "threads.h"

int cpu_loop_threads(double work)
{
    const int most = omp_get_max_threads();
    const double n = work / CPU_WORK_PER_THREAD;
    return n < 1 ? 1 : n >= most ? most : (int)n;
}
