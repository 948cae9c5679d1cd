/*
 * outfile.c - the files of one command: safe outputs and size-limited inputs
 * (include/cli/pmu_outfile.h says the rules).  The temporary files are the stream layer's
 * (include/stream/pmu_tmpfiles.h), which its writers then write in place.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli/pmu_outfile.h"
#include "stream/pmu_tmpfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INPUTS 8
#define MAX_OUTPUTS 4
#define COPY_CHUNK 65536

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

typedef struct input {
    const char *opt;
    char *path;
    file_id id;
} input;

typedef enum out_kind {
    OUT_RENAME, /* a temporary file renamed over the target */
    OUT_STREAM, /* the device or FIFO itself */
    OUT_STDOUT, /* "-" */
    OUT_COPY    /* a temporary file copied into the device, FIFO or stdout */
} out_kind;

struct pmu_outfile {
    const char *opt;
    char *target; /* as given */
    char *dest;   /* what a rename replaces: the target, a symbolic link resolved */
    char *tmp;    /* OUT_RENAME, OUT_COPY */
    char *hier;   /* tmp + ".hier": an FST writer keeps its hierarchy there until it closes */
    out_kind kind;
    mode_t mode;  /* of the renamed file */
    int has_id;   /* the target exists (or is stdout) and id names it */
    file_id id;
    file_id dir_id; /* a new file: its directory and name */
    char *base;
    int done;
};

struct pmu_files {
    input in[MAX_INPUTS];
    unsigned nin;
    pmu_outfile *out[MAX_OUTPUTS];
    unsigned nout;
};

static const char *shown(const char *path) { return strcmp(path, "-") == 0 ? "standard input" : path; }

pmu_files *pmu_files_new(void) { return calloc(1, sizeof(pmu_files)); }

static void drop(pmu_outfile *o)
{
    if (!o->done) {
        pmu_tmpfile_drop(o->hier);
        pmu_tmpfile_drop(o->tmp);
    }
    pmu_tmpfiles_forget(o->hier);
    pmu_tmpfiles_forget(o->tmp);
    o->done = 1;
}

static void outfile_free(pmu_outfile *o)
{
    drop(o);
    free(o->target);
    free(o->dest);
    free(o->tmp);
    free(o->hier);
    free(o->base);
    free(o);
}

void pmu_files_free(pmu_files *fs)
{
    if (!fs)
        return;
    for (unsigned i = 0; i < fs->nout; i++)
        outfile_free(fs->out[i]);
    for (unsigned i = 0; i < fs->nin; i++)
        free(fs->in[i].path);
    free(fs);
}

/* Regular files and FIFOs can be clobbered or drained; a terminal or /dev/null cannot. */
static int can_clash(const struct stat *st) { return S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode); }

static void add_input(pmu_files *fs, const char *opt, const char *path, const struct stat *st)
{
    if (!fs || fs->nin == MAX_INPUTS || !can_clash(st))
        return;
    char *copy = strdup(path);
    if (!copy)
        return;
    fs->in[fs->nin++] = (input){opt, copy, {st->st_dev, st->st_ino}};
}

void pmu_files_input(pmu_files *fs, const char *opt, const char *path)
{
    struct stat st;
    int ok = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st);
    if (ok == 0)
        add_input(fs, opt, path, &st);
}

/* ---- whole inputs ---------------------------------------------------------------------- */

static int read_all(int fd, const char *path, size_t limit, const char *what, char **data,
                    size_t *len, pmu_err *err)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", shown(path));
    for (;;) {
        if (n == cap) {
            if (cap > limit)
                break;
            char *grown = realloc(buf, 2 * cap + 1);
            if (!grown) {
                free(buf);
                return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", shown(path));
            }
            buf = grown;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return pmu_errf(err, PMU_E_IO, "%s: cannot read: %s", shown(path), strerror(e));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > limit) {
        free(buf);
        return pmu_errf(err, PMU_E_INPUT, "%s: larger than %zu bytes, the limit for %s",
                        shown(path), limit, what);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

int pmu_files_read(pmu_files *fs, const char *opt, const char *path, size_t limit,
                   const char *what, char **data, size_t *len, pmu_err *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pmu_errf(err, PMU_E_INPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0)
        add_input(fs, opt, path, &st);
    int rc = read_all(fd, path, limit, what, data, len, err);
    if (!is_stdin)
        close(fd);
    if (rc && err->code == PMU_E_IO)
        err->code = PMU_E_INPUT; /* an unreadable input is bad input, like a missing one */
    return rc;
}

/* ---- outputs --------------------------------------------------------------------------- */

/* An output the command cannot use is a bad argument (PMU_E_INPUT); a write that fails
 * once the command ran is a runtime failure (PMU_E_IO). */
static int out_error(pmu_err *err, const char *opt, const char *path, const char *why)
{
    return pmu_errf(err, PMU_E_INPUT, "%s: cannot write '%s': %s", opt, path, why);
}

static int write_error(pmu_err *err, const char *opt, const char *path, const char *why)
{
    return pmu_errf(err, PMU_E_IO, "%s: cannot write '%s': %s", opt, path, why);
}

/* Where the output goes and what replaces it: the kind, the file renamed over, and its
 * identity.  0, or -1 + err. */
static int classify(pmu_outfile *o, unsigned flags, pmu_err *err)
{
    struct stat st;
    const char *path = o->target;
    if (strcmp(path, "-") == 0) {
        if (!(flags & PMU_OUT_STDOUT))
            return pmu_errf(err, PMU_E_INPUT, "%s: expected a file name, found '-'", o->opt);
        o->kind = flags & PMU_OUT_SEEKABLE ? OUT_COPY : OUT_STDOUT;
        if (fstat(STDOUT_FILENO, &st) == 0 && can_clash(&st)) {
            o->has_id = 1;
            o->id = (file_id){st.st_dev, st.st_ino};
        }
        return 0;
    }
    if (stat(path, &st) != 0) {
        int e = errno;
        if (e == ENOENT && lstat(path, &st) == 0)
            return out_error(err, o->opt, path, "a symbolic link to a missing file");
        if (e != ENOENT)
            return out_error(err, o->opt, path, strerror(e));
        o->kind = OUT_RENAME;
        o->dest = strdup(path);
        o->mode = pmu_tmpfile_new_mode();
        return o->dest ? 0 : pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", o->opt);
    }
    if (S_ISDIR(st.st_mode))
        return out_error(err, o->opt, path, strerror(EISDIR));
    if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
        return out_error(err, o->opt, path, "not a regular file, character device or FIFO");
    if (access(path, W_OK) != 0)
        return out_error(err, o->opt, path, strerror(errno));
    if (can_clash(&st)) {
        o->has_id = 1;
        o->id = (file_id){st.st_dev, st.st_ino};
    }
    if (!S_ISREG(st.st_mode)) {
        o->kind = flags & PMU_OUT_SEEKABLE ? OUT_COPY : OUT_STREAM;
        return 0;
    }
    o->kind = OUT_RENAME;
    o->mode = st.st_mode & 07777;
    o->dest = realpath(path, NULL); /* a symbolic link keeps pointing at the new file */
    return o->dest ? 0 : out_error(err, o->opt, path, strerror(errno));
}

/* The directory and name of a file to be renamed into place. */
static int name_id(pmu_outfile *o, pmu_err *err)
{
    char *d = strdup(o->dest), *b = strdup(o->dest);
    if (!d || !b) {
        free(d);
        free(b);
        return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", o->opt);
    }
    struct stat st;
    int rc = stat(dirname(d), &st);
    if (rc != 0)
        rc = out_error(err, o->opt, o->target, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = out_error(err, o->opt, o->target, strerror(ENOTDIR));
    else {
        o->dir_id = (file_id){st.st_dev, st.st_ino};
        o->base = strdup(basename(b));
        if (!o->base)
            rc = pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", o->opt);
    }
    free(d);
    free(b);
    return rc;
}

static int same_id(file_id a, file_id b) { return a.dev == b.dev && a.ino == b.ino; }

static int check_clash(const pmu_files *fs, const pmu_outfile *o, pmu_err *err)
{
    for (unsigned i = 0; o->has_id && i < fs->nin; i++)
        if (same_id(o->id, fs->in[i].id))
            return pmu_errf(err, PMU_E_INPUT,
                            "%s: '%s' is the same file as the input of %s ('%s'); expected "
                            "another file (an input is never overwritten)",
                            o->opt, o->target, fs->in[i].opt, shown(fs->in[i].path));
    for (unsigned i = 0; i < fs->nout; i++) {
        const pmu_outfile *p = fs->out[i];
        int same = (o->has_id && p->has_id && same_id(o->id, p->id)) ||
                   (strcmp(o->target, "-") == 0 && strcmp(p->target, "-") == 0) ||
                   (o->base && p->base && same_id(o->dir_id, p->dir_id) &&
                    strcmp(o->base, p->base) == 0);
        if (same)
            return pmu_errf(err, PMU_E_INPUT,
                            "%s: '%s' is the same file as the output of %s ('%s'); expected "
                            "another file",
                            o->opt, o->target, p->opt, p->target);
    }
    return 0;
}

/* The temporary file (include/stream/pmu_tmpfiles.h) in `dir` (NULL: $TMPDIR or /tmp), named
 * after the target, and the name of its FST hierarchy, registered before it exists. */
static int make_temp(pmu_outfile *o, const char *dir, pmu_err *err)
{
    const char *tmpdir = getenv("TMPDIR");
    const char *in = dir ? dir : (tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = pmu_tmpfile_make(in, o->base ? o->base : "out", &o->tmp);
    if (fd < 0)
        return pmu_errf(err, PMU_E_INPUT, "%s: cannot write '%s': cannot create a temporary file in %s: %s",
                        o->opt, o->target, in, strerror(errno));
    close(fd);
    size_t size = strlen(o->tmp) + sizeof ".hier";
    o->hier = malloc(size);
    if (!o->hier)
        return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", o->opt);
    snprintf(o->hier, size, "%s.hier", o->tmp);
    pmu_tmpfiles_add(o->hier); /* a signal removes it */
    return 0;
}

static int prepare(pmu_files *fs, pmu_outfile *o, unsigned flags, pmu_err *err)
{
    if (classify(o, flags, err))
        return -1;
    if (o->kind == OUT_RENAME && name_id(o, err))
        return -1;
    if (check_clash(fs, o, err))
        return -1;
    if (o->kind == OUT_RENAME) {
        char *d = strdup(o->dest);
        if (!d)
            return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", o->opt);
        int rc = make_temp(o, dirname(d), err);
        free(d);
        return rc;
    }
    return o->kind == OUT_COPY ? make_temp(o, NULL, err) : 0;
}

pmu_outfile *pmu_files_output(pmu_files *fs, const char *opt, const char *path, unsigned flags,
                              pmu_err *err)
{
    if (fs->nout == MAX_OUTPUTS) {
        pmu_errf(err, PMU_E_INTERNAL, "%s: more than %d outputs", opt, MAX_OUTPUTS);
        return NULL;
    }
    pmu_outfile *o = calloc(1, sizeof *o);
    if (!o || !(o->target = strdup(path))) {
        free(o);
        pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", opt);
        return NULL;
    }
    o->opt = opt;
    if (prepare(fs, o, flags, err)) {
        outfile_free(o);
        return NULL;
    }
    fs->out[fs->nout++] = o;
    return o;
}

const char *pmu_outfile_path(const pmu_outfile *o)
{
    switch (o->kind) {
    case OUT_RENAME:
    case OUT_COPY: return o->tmp;
    case OUT_STDOUT: return "-";
    default: return o->target;
    }
}

const char *pmu_outfile_target(const pmu_outfile *o) { return o->target; }

void pmu_outfile_fix_msg(const pmu_outfile *o, pmu_err *err)
{
    if (!o->tmp)
        return;
    char fixed[sizeof err->msg];
    size_t n = 0, tlen = strlen(o->tmp), glen = strlen(o->target);
    for (const char *p = err->msg; *p && n + 1 < sizeof fixed;) {
        if (strncmp(p, o->tmp, tlen) == 0 && n + glen + 1 < sizeof fixed) {
            memcpy(fixed + n, o->target, glen);
            n += glen;
            p += tlen;
        } else {
            fixed[n++] = *p++;
        }
    }
    fixed[n] = '\0';
    memcpy(err->msg, fixed, n + 1);
}

/* Copies the temporary file into the device, FIFO or stdout. */
static int copy_out(pmu_outfile *o, uint64_t *size, pmu_err *err)
{
    int to_stdout = strcmp(o->target, "-") == 0;
    int in = open(o->tmp, O_RDONLY | O_CLOEXEC);
    int out = to_stdout ? STDOUT_FILENO : open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    int rc = 0;
    if (in < 0 || out < 0)
        rc = write_error(err, o->opt, o->target, strerror(errno));
    static char buf[COPY_CHUNK];
    ssize_t got;
    while (!rc && (got = read(in, buf, sizeof buf)) != 0) {
        if (got < 0) {
            if (errno != EINTR)
                rc = write_error(err, o->opt, o->target, strerror(errno));
            continue;
        }
        for (ssize_t off = 0; !rc && off < got;) {
            ssize_t put = write(out, buf + off, (size_t)(got - off));
            if (put < 0 && errno != EINTR)
                rc = write_error(err, o->opt, o->target, strerror(errno));
            off += put > 0 ? put : 0;
        }
        *size += (uint64_t)got;
    }
    if (in >= 0)
        close(in);
    if (out >= 0 && !to_stdout && close(out) != 0 && !rc)
        rc = write_error(err, o->opt, o->target, strerror(errno));
    return rc;
}

int pmu_outfile_commit(pmu_outfile *o, uint64_t *size, pmu_err *err)
{
    uint64_t bytes = 0;
    int rc = 0;
    if (o->done)
        return pmu_errf(err, PMU_E_INTERNAL, "%s: '%s' committed twice", o->opt, o->target);
    if (o->kind == OUT_RENAME) {
        struct stat st;
        if (stat(o->tmp, &st) == 0)
            bytes = (uint64_t)st.st_size;
        if (pmu_tmpfile_commit(o->tmp, o->mode, o->dest) != 0)
            rc = write_error(err, o->opt, o->target, strerror(errno));
        else
            o->done = 1; /* the temporary file is the target now */
    } else if (o->kind == OUT_COPY) {
        rc = copy_out(o, &bytes, err);
    }
    drop(o);
    if (size)
        *size = bytes;
    return rc;
}

int pmu_files_commit(pmu_files *fs, pmu_err *err)
{
    for (unsigned i = 0; i < fs->nout; i++)
        if (!fs->out[i]->done && pmu_outfile_commit(fs->out[i], NULL, err) != 0)
            return -1;
    return 0;
}

int pmu_outfile_beside(const char *fst, const char *ext, char *buf, size_t size, pmu_err *err)
{
    size_t n = strlen(fst);
    if (n > 4 && strcmp(fst + n - 4, ".fst") == 0)
        n -= 4;
    if (snprintf(buf, size, "%.*s%s", (int)n, fst, ext) >= (int)size)
        return pmu_errf(err, PMU_E_INPUT, "--waves: '%s': path too long", fst);
    return 0;
}

FILE *pmu_outfile_fopen(const pmu_outfile *o, const char *opt, pmu_err *err)
{
    FILE *f = fopen(pmu_outfile_path(o), "w");
    if (!f)
        write_error(err, opt, o->target, strerror(errno));
    return f;
}

int pmu_outfile_fclose(const pmu_outfile *o, const char *opt, FILE *f, pmu_err *err)
{
    int e = ferror(f) ? (errno ? errno : EIO) : 0; /* as the failed write left it */
    if (fflush(f) != 0)
        e = errno; /* the bytes a full disk refused, tried again: the reason now */
    if (fclose(f) != 0 && !e)
        e = errno;
    return e ? write_error(err, opt, o->target, strerror(e)) : 0;
}

int pmu_outfile_write(pmu_outfile *o, const char *opt, void (*write)(FILE *f, const void *arg),
                      const void *arg, pmu_err *err)
{
    FILE *f = pmu_outfile_fopen(o, opt, err);
    if (!f)
        return -1;
    errno = 0;
    write(f, arg);
    if (pmu_outfile_fclose(o, opt, f, err))
        return -1;
    return pmu_outfile_commit(o, NULL, err);
}
