/*
 * symtab.c - symbol tables for `pmusim profile` (cli/pmu_symtab.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pmu_num.h"
#include "cli/pmu_outfile.h"
#include "cli/pmu_symtab.h"

typedef struct sym {
    uint64_t start, end; /* [start, end) */
    char *name;
    unsigned line;       /* in the file, for overlap messages */
    unsigned fn;         /* its function: ranges with the same name are one function */
} sym;

/* A function: its name (its first range's) and the hull of its ranges. */
typedef struct fn {
    const char *name;
    uint64_t start, end;
} fn;

struct drv_symtab {
    sym *s;
    unsigned n, cap;
    fn *f;               /* in the order of their first ranges' addresses */
    unsigned nf;
};

static int add(drv_symtab *t, uint64_t start, uint64_t end, const char *name, size_t len,
               unsigned line)
{
    if (t->n == t->cap) {
        unsigned cap = t->cap ? t->cap * 2 : 64;
        sym *ns = realloc(t->s, cap * sizeof *ns);
        if (!ns)
            return -1;
        t->s = ns;
        t->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, name, len);
    copy[len] = '\0';
    t->s[t->n++] = (sym){start, end, copy, line, 0};
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
    free(t->f);
    free(t);
}

static const sym *by_name_base;
static int by_name(const void *a, const void *b)
{
    const unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    int c = strcmp(by_name_base[x].name, by_name_base[y].name);
    return c ? c : x < y ? -1 : x > y;
}

/* The functions of the sorted ranges: one per name.  0, or -1 out of memory. */
static int group(drv_symtab *t)
{
    unsigned *idx = malloc((t->n ? t->n : 1) * sizeof *idx), *first = malloc((t->n ? t->n : 1) * sizeof *first);
    t->f = malloc((t->n ? t->n : 1) * sizeof *t->f);
    if (!idx || !first || !t->f) {
        free(idx);
        free(first);
        return -1;
    }
    for (unsigned i = 0; i < t->n; i++)
        idx[i] = i;
    by_name_base = t->s;
    qsort(idx, t->n, sizeof *idx, by_name); /* by name, then address */
    for (unsigned k = 0; k < t->n; k++)
        first[idx[k]] = k && strcmp(t->s[idx[k]].name, t->s[idx[k - 1]].name) == 0 ? first[idx[k - 1]] : idx[k];
    t->nf = 0;
    for (unsigned i = 0; i < t->n; i++) {
        sym *r = &t->s[i];
        if (first[i] == i) {
            r->fn = t->nf++;
            t->f[r->fn] = (fn){r->name, r->start, r->end};
        } else {
            r->fn = t->s[first[i]].fn;
            t->f[r->fn].end = r->end; /* ranges are sorted and disjoint: the last one ends highest */
        }
    }
    free(idx);
    free(first);
    return 0;
}

/* Sorts and rejects overlaps. */
static int finish(drv_symtab *t, const char *path, pmu_err *err)
{
    if (t->n > 1)
        qsort(t->s, t->n, sizeof *t->s, by_start);
    for (unsigned i = 1; i < t->n; i++)
        if (t->s[i].start < t->s[i - 1].end)
            return pmu_errf(err, PMU_E_INPUT,
                            "%s:%u: %s [0x%llx, 0x%llx) overlaps %s [0x%llx, 0x%llx) of line %u: "
                            "expected disjoint address ranges",
                            path, t->s[i].line, t->s[i].name, (unsigned long long)t->s[i].start,
                            (unsigned long long)t->s[i].end, t->s[i - 1].name,
                            (unsigned long long)t->s[i - 1].start,
                            (unsigned long long)t->s[i - 1].end, t->s[i - 1].line);
    if (group(t))
        return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", path);
    return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* A hexadecimal address (0x optional) of n characters, by the one integer syntax. */
static int hex(const char *s, size_t n, uint64_t *out)
{
    char buf[40] = "0x";
    pmu_err ignored;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return pmu_parse_u64n(s, n, 0, UINT64_MAX, "address", out, &ignored);
    if (n + 3 > sizeof buf)
        return -1;
    memcpy(buf + 2, s, n);
    return pmu_parse_u64n(buf, n + 2, 0, UINT64_MAX, "address", out, &ignored);
}

/* One line without its newline, blanks at both ends trimmed; an empty or comment line
 * adds nothing. */
static int parse_line(drv_symtab *t, const char *path, unsigned lineno, const char *p,
                      size_t len, pmu_err *err)
{
    char shown[160];
    if (len == 0 || *p == '#')
        return 0;
    pmu_escape(p, len, shown, sizeof shown);
    if (memchr(p, '\0', len))
        return pmu_errf(err, PMU_E_INPUT, "%s:%u: line: expected text, found a NUL byte", path, lineno);
    const char *end = p + len;
    size_t a = 0;
    while (p + a < end && !is_blank(p[a]))
        a++;
    uint64_t start, stop;
    if (a == len || hex(p, a, &start))
        return pmu_errf(err, PMU_E_INPUT,
                        "%s:%u: start: expected 'START END NAME' with hexadecimal addresses, found '%s'",
                        path, lineno, shown);
    const char *q = p + a;
    while (q < end && is_blank(*q))
        q++;
    size_t b = 0;
    while (q + b < end && !is_blank(q[b]))
        b++;
    if (hex(q, b, &stop))
        return pmu_errf(err, PMU_E_INPUT,
                        "%s:%u: end: expected 'START END NAME' with hexadecimal addresses, found '%s'",
                        path, lineno, shown);
    const char *name = q + b;
    while (name < end && is_blank(*name))
        name++;
    if (name == end)
        return pmu_errf(err, PMU_E_INPUT, "%s:%u: name: expected a function name after the addresses",
                        path, lineno);
    if (start >= stop)
        return pmu_errf(err, PMU_E_INPUT,
                        "%s:%u: end: expected an end above the start 0x%llx (the end is exclusive), found 0x%llx",
                        path, lineno, (unsigned long long)start, (unsigned long long)stop);
    if (add(t, start, stop, name, (size_t)(end - name), lineno))
        return pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", path);
    return 0;
}

drv_symtab *drv_symtab_load(const char *path, pmu_err *err)
{
    char *text;
    size_t len;
    if (pmu_files_read(NULL, "--symbols", path, PMU_SYMTAB_LIMIT, "a symbol file", &text, &len, err))
        return NULL;
    drv_symtab *t = drv_symtab_parse(text, len, path, err);
    free(text);
    return t;
}

drv_symtab *drv_symtab_parse(const char *text, size_t len, const char *path, pmu_err *err)
{
    drv_symtab *t = calloc(1, sizeof *t);
    int rc = t ? 0 : pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", path);
    unsigned lineno = 0;
    for (size_t pos = 0; !rc && pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t stop = nl ? (size_t)(nl - text) : len, from = pos;
        lineno++;
        while (stop > from && (is_blank(text[stop - 1]) || text[stop - 1] == '\r'))
            stop--;
        while (from < stop && is_blank(text[from]))
            from++;
        rc = parse_line(t, path, lineno, text + from, stop - from, err);
        pos = nl ? (size_t)(nl - text) + 1 : len;
    }
    if (!rc)
        rc = finish(t, path, err);
    if (rc) {
        drv_symtab_free(t);
        return NULL;
    }
    return t;
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
        if (pmu_gen_func(g, i, &start, &end, &name) != 0 ||
            add(t, start, end, name, strlen(name), i + 1)) {
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
    return (int)t->s[lo - 1].fn;
}

unsigned drv_symtab_count(const drv_symtab *t) { return t->nf; }

const char *drv_symtab_name(const drv_symtab *t, unsigned i) { return i < t->nf ? t->f[i].name : NULL; }

int drv_symtab_range(const drv_symtab *t, unsigned i, uint64_t *start, uint64_t *end)
{
    if (i >= t->nf)
        return -1;
    *start = t->f[i].start;
    *end = t->f[i].end;
    return 0;
}
