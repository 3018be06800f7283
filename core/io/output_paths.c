/* The files held open by live outputs (core/io/output_paths.h). */
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "h5_util.h"
#include "output_paths.h"

static char **held;
static size_t nheld;

/* The canonical form of path: the realpath of its folder and its file name;
 * path itself where the folder does not exist (then no live file can be there). */
static char *canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    const char *base = slash ? slash + 1 : path;
    if (!realpath(dir, real)) return strdup(path);
    size_t n = strlen(real) + strlen(base) + 2;
    char *c = malloc(n);
    if (c) snprintf(c, n, "%s/%s", strcmp(real, "/") ? real : "", base);
    return c;
}

int output_path_hold(const char *path)
{
    char *c = canonical(path), **grown = c ? realloc(held, (nheld + 1) * sizeof *held) : NULL;
    if (!grown) { free(c); return -1; }
    held = grown;
    held[nheld++] = c;
    return 0;
}

void output_path_release(const char *path)
{
    char *c = canonical(path);
    if (!c) return;
    for (size_t q = 0; q < nheld; q++)
        if (!strcmp(held[q], c)) {
            free(held[q]);
            held[q] = held[--nheld];
            break;
        }
    free(c);
}

int output_path_held(const char *path, const char *writer, char *err, size_t errlen)
{
    char *c = canonical(path);
    int found = 0;
    for (size_t q = 0; c && q < nheld && !found; q++) found = !strcmp(held[q], c);
    free(c);
    if (found)
        snprintf(err, errlen, "%s '%s' is an output file a simulation is still writing; writing it would replace "
                 "every frame written so far: choose another path, or close that output first "
                 "(sim:close_output() or sim:close())", writer, path);
    return found;
}

int output_path_ready(const char *path, const char *sidecar, int overwrite, const char *writer, char *err,
                      size_t errlen)
{
    if (output_path_held(path, writer, err, errlen)) return -1;
    if (sidecar && output_path_held(sidecar, writer, err, errlen)) return -1;
    struct stat st;
    if (!overwrite && stat(path, &st) == 0) {
        snprintf(err, errlen, "%s '%s' exists; pass overwrite = true to replace it", writer, path);
        return -1;
    }
    if (!overwrite && sidecar && stat(sidecar, &st) == 0) {
        snprintf(err, errlen, "%s '%s' would replace the existing '%s' beside it; pass overwrite = true to replace "
                 "both", writer, path, sidecar);
        return -1;
    }
    if (h5_make_parent_dirs(path) != 0) {
        snprintf(err, errlen, "cannot create the folder of %s '%s': %s", writer, path, strerror(errno));
        return -1;
    }
    return 0;
}

void output_sidecar(const char *path, char *out, size_t len)
{
    snprintf(out, len > 4 ? len - 4 : len, "%s", path);
    char *dot = strrchr(out, '.');
    if (dot && !strchr(dot, '/')) strcpy(dot, ".xmf");
    else strcat(out, ".xmf");
}
