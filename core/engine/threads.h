/* How many OpenMP threads a CPU loop of the engine gets. A loop of little
 * work runs on one thread: with several, each step ends at a barrier, and
 * on a machine with other work a thread that waits there spins through the
 * time slice of a partner that was descheduled (the quickstart, 14,400
 * cells: 16.4 s with 2 threads against 9.6 s with one while another build
 * ran on the 2-core machine, 2026-11-25). */
#ifndef CARDIAC_THREADS_H
#define CARDIAC_THREADS_H

/* Cell-state updates a thread must get before a loop is split. */
#define CPU_WORK_PER_THREAD 131072.0

/* Threads for a loop of `work` cell-state updates (cells x states, or the
 * loop's own measure): work / CPU_WORK_PER_THREAD, at least 1, at most
 * omp_get_max_threads(). */
int cpu_loop_threads(double work);

#endif
