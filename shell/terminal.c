/* The REPL's terminal (shell/terminal.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include "par.h"
#include "terminal.h"

static FILE *taken;         /* /dev/tty, when taken from mpirun */
static pid_t given_back_to; /* mpirun's process group */

/* The device number of this process's controlling terminal (0: none), from
 * /proc/self/stat's seventh field. */
static dev_t controlling_tty(void)
{
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f) return 0;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');   /* the command name may hold spaces */
    int tty = 0;
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %d", &tty) != 1) return 0;
    return (dev_t)tty;
}

/* Whether the parent's (mpirun's) descriptor fd is the terminal tty. */
static int parent_fd_is(int fd, dev_t tty)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)getppid(), fd);
    return stat(path, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == tty;
}

/* Under mpirun: mpirun reads the terminal and is in its foreground. */
static int mpirun_has_terminal(int *fd_out)
{
    if (par_size() < 2) return 0;
    const dev_t tty = controlling_tty();
    if (!tty || !parent_fd_is(0, tty)) return 0;
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
    if (fd < 0) return 0;
    if (tcgetpgrp(fd) != getpgid(getppid())) { close(fd); return 0; }
    if (fd_out) *fd_out = fd;
    else close(fd);
    return 1;
}

int terminal_available(void)
{
    return isatty(0) || mpirun_has_terminal(NULL);
}

FILE *terminal_take(void)
{
    if (isatty(0)) return stdin;
    int fd;
    if (!mpirun_has_terminal(&fd)) return NULL;
    given_back_to = tcgetpgrp(fd);
    /* a process outside the foreground may take it when it ignores SIGTTOU */
    signal(SIGTTOU, SIG_IGN);
    if (tcsetpgrp(fd, getpgrp()) != 0) { close(fd); return NULL; }
    /* Ctrl-Z would stop rank 0 alone, which mpirun's shell cannot resume */
    signal(SIGTSTP, SIG_IGN);
    const dev_t tty = controlling_tty();
    fflush(stdout);
    fflush(stderr);
    /* the answers then reach the terminal in order with the prompts, not
     * later through mpirun */
    if (parent_fd_is(1, tty)) dup2(fd, 1);
    if (parent_fd_is(2, tty)) dup2(fd, 2);
    taken = fdopen(fd, "r+");
    return taken;
}

void terminal_release(void)
{
    if (!taken) return;
    tcsetpgrp(fileno(taken), given_back_to);
    fclose(taken);
    taken = NULL;
}
