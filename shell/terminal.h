/* Where the REPL's keys come from. Alone, rank 0's standard input is the
 * terminal or it is not. Under mpirun, standard input is a pipe from mpirun,
 * so readline cannot edit lines on it; when mpirun itself reads the
 * terminal in the foreground, rank 0 opens the terminal (/dev/tty) and takes
 * the foreground from mpirun for the session (mpirun then stops forwarding
 * keys, as it does whenever it is not in the foreground), and gives it back
 * at the end. */
#ifndef CARDIAC_TERMINAL_H
#define CARDIAC_TERMINAL_H
#include <stdio.h>

/* Rank 0: 1 when the REPL can read a terminal (standard input, or mpirun's
 * through terminal_take). Call on rank 0 only. */
int terminal_available(void);
/* Rank 0: the terminal stream readline should use (stdin, or /dev/tty taken
 * from mpirun, with stdout and stderr moved onto it where mpirun's were the
 * terminal too); NULL when there is none. */
FILE *terminal_take(void);
/* Gives the terminal back to mpirun (when it was taken). */
void terminal_release(void);

#endif
