/*
 * out_file.c - output files that appear whole or not at all: written under a temporary
 * name in the target's directory and renamed when complete (include/stream/pmu_tmpfiles.h), so
 * that a failed run never leaves a truncated file nor destroys the one that was there.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream/pmu_tmpfiles.h"
#include "stream_internal.h"

static char *copy_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* A new temporary file beside the target (include/stream/pmu_tmpfiles.h). */
static FILE *create_tmp(const char *path, char **tmp_out)
{
    char *dir = copy_str(path), *base = copy_str(path);
    int fd = dir && base ? pmu_tmpfile_make(dirname(dir), basename(base), tmp_out)
                         : (errno = ENOMEM, -1);
    free(dir);
    free(base);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int saved = errno;
        close(fd);
        pmu_tmpfile_drop(*tmp_out);
        free(*tmp_out);
        *tmp_out = NULL;
        errno = saved;
    }
    return f;
}

int out_file_open(out_file *o, const char *path, pmu_err *err)
{
    memset(o, 0, sizeof *o);
    o->path = copy_str(path);
    if (!o->path)
        return stream_errf(err, PMU_E_NOMEM, NULL, "out of memory");
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        o->f = fopen(path, "wb"); /* a device or a pipe: nothing to replace */
    else if (pmu_tmpfiles_holds(path))
        o->f = fopen(path, "wb"); /* a temporary file already, its maker renames it */
    else
        o->f = create_tmp(path, &o->tmp);
    if (!o->f) {
        char *shown = stream_escaped_name(path);
        stream_errf(err, PMU_E_IO, shown ? shown : "output", "cannot create: %s", strerror(errno));
        free(shown);
        free(o->path);
        o->path = NULL;
        return -1;
    }
    o->own = 1;
    return 0;
}

int out_file_close(out_file *o, int commit, pmu_err *err)
{
    int rc = 0, saved = 0;
    if (fflush(o->f) != 0)
        rc = -1, saved = errno;
    if (o->own && fclose(o->f) != 0 && !rc)
        rc = -1, saved = errno;
    if (!rc && commit && o->tmp && pmu_tmpfile_commit(o->tmp, pmu_tmpfile_new_mode(), o->path) != 0)
        rc = -1, saved = errno;
    if (o->tmp && (rc || !commit))
        pmu_tmpfile_drop(o->tmp);
    if (rc && commit) {
        char *shown = stream_escaped_name(o->path);
        stream_errf(err, PMU_E_IO, shown ? shown : "output", "write error: %s", strerror(saved));
        free(shown);
    }
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
    o->f = NULL;
    return rc;
}
