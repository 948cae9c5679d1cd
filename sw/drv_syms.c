/*
 * drv_syms.c - symbol tables for `pmusim profile` (cmds.h): address ranges with
 * function names, from a symbol file or from the generator's workload.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"

typedef struct sym {
    uint64_t start, end; /* [start, end) */
    char *name;
    unsigned line;       /* in the file, for overlap messages */
} sym;

struct drv_symtab {
    sym *s;
    unsigned n, cap;
};

static int add(drv_symtab *t, uint64_t start, uint64_t end, const char *name, unsigned line)
{
    if (t->n == t->cap) {
        unsigned cap = t->cap ? t->cap * 2 : 64;
        sym *ns = realloc(t->s, cap * sizeof *ns);
        if (!ns)
            return -1;
        t->s = ns;
        t->cap = cap;
    }
    size_t len = strlen(name);
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, name, len + 1);
    t->s[t->n++] = (sym){start, end, copy, line};
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const sym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

void drv_symtab_free(drv_symtab *t)
{
    if (!t)
        return;
    for (unsigned i = 0; i < t->n; i++)
        free(t->s[i].name);
    free(t->s);
    free(t);
}

/* A hexadecimal address with an optional 0x; advances *p.  0 on success. */
static int hex(const char **p, uint64_t *out)
{
    const char *s = *p;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (!isxdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 16);
    if (errno)
        return -1;
    *p = end;
    *out = v;
    return 0;
}

/* Sorts and rejects overlaps. */
static int finish(drv_symtab *t, const char *path, pmu_err *err)
{
    qsort(t->s, t->n, sizeof *t->s, by_start);
    for (unsigned i = 1; i < t->n; i++)
        if (t->s[i].start < t->s[i - 1].end) {
            snprintf(err->msg, sizeof err->msg,
                     "%s:%u: %s [0x%llx, 0x%llx) overlaps %s [0x%llx, 0x%llx) of line %u: expected "
                     "disjoint address ranges",
                     path, t->s[i].line, t->s[i].name, (unsigned long long)t->s[i].start,
                     (unsigned long long)t->s[i].end, t->s[i - 1].name,
                     (unsigned long long)t->s[i - 1].start, (unsigned long long)t->s[i - 1].end,
                     t->s[i - 1].line);
            return -1;
        }
    return 0;
}

drv_symtab *drv_symtab_load(const char *path, pmu_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open the symbol file: %s", path, strerror(errno));
        return NULL;
    }
    drv_symtab *t = calloc(1, sizeof *t);
    if (!t) {
        fclose(f);
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return NULL;
    }
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            snprintf(err->msg, sizeof err->msg, "%s:%u: line longer than %zu characters", path, lineno,
                     sizeof line - 2);
            goto bad;
        }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ' ||
                       line[len - 1] == '\t'))
            line[--len] = '\0';
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        uint64_t start, end;
        if (hex(&p, &start) || (*p != ' ' && *p != '\t')) {
            snprintf(err->msg, sizeof err->msg,
                     "%s:%u: start: expected 'START END NAME' with hexadecimal addresses, found '%s'",
                     path, lineno, line);
            goto bad;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (hex(&p, &end) || (*p != ' ' && *p != '\t' && *p != '\0')) {
            snprintf(err->msg, sizeof err->msg,
                     "%s:%u: end: expected 'START END NAME' with hexadecimal addresses, found '%s'",
                     path, lineno, line);
            goto bad;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p) {
            snprintf(err->msg, sizeof err->msg, "%s:%u: name: expected a function name after the addresses",
                     path, lineno);
            goto bad;
        }
        if (start >= end) {
            snprintf(err->msg, sizeof err->msg,
                     "%s:%u: end: expected an end above the start 0x%llx (the end is exclusive), found 0x%llx",
                     path, lineno, (unsigned long long)start, (unsigned long long)end);
            goto bad;
        }
        if (add(t, start, end, p, lineno)) {
            snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
            goto bad;
        }
    }
    if (ferror(f)) {
        snprintf(err->msg, sizeof err->msg, "%s: read error", path);
        goto bad;
    }
    fclose(f);
    if (finish(t, path, err)) {
        drv_symtab_free(t);
        return NULL;
    }
    return t;
bad:
    fclose(f);
    drv_symtab_free(t);
    return NULL;
}

drv_symtab *drv_symtab_from_gen(const pmu_gen *g)
{
    drv_symtab *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    unsigned n = pmu_gen_nfuncs(g);
    for (unsigned i = 0; i < n; i++) {
        uint64_t start, end;
        const char *name;
        if (pmu_gen_func(g, i, &start, &end, &name) != 0 || add(t, start, end, name, i + 1)) {
            drv_symtab_free(t);
            return NULL;
        }
    }
    pmu_err err;
    if (finish(t, "<generator>", &err)) { /* the generator's list is sorted and disjoint */
        drv_symtab_free(t);
        return NULL;
    }
    return t;
}

int drv_symtab_find(const drv_symtab *t, uint64_t addr)
{
    unsigned lo = 0, hi = t->n; /* the first function starting above addr is at hi */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (t->s[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || addr >= t->s[lo - 1].end)
        return -1;
    return (int)(lo - 1);
}

unsigned drv_symtab_count(const drv_symtab *t) { return t->n; }

const char *drv_symtab_name(const drv_symtab *t, unsigned i) { return i < t->n ? t->s[i].name : NULL; }
