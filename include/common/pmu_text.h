/*
 * common/pmu_text.h - small text helpers that every part may use (harness, software, commands):
 * case-insensitive comparison of ASCII names, the edit distance behind "did you mean",
 * and appending to a fixed buffer.  Names in pmusim are ASCII (registers, fields,
 * events), so case folding is ASCII only and does not depend on the C locale.
 */
#ifndef PMU_TEXT_H
#define PMU_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline int pmu_text_lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch; }

/* Whether s[0..len) equals the NUL-terminated name, ignoring ASCII case. */
static inline int pmu_text_ieq(const char *s, size_t len, const char *name)
{
    if (strlen(name) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (pmu_text_lower((unsigned char)s[i]) != pmu_text_lower((unsigned char)name[i]))
            return 0;
    return 1;
}

/* The longest name the edit distance reads; a longer name is cut there (names in the
 * tables are far shorter, and a query is compared in full). */
#define PMU_TEXT_NAME_MAX 127u

/* Case-insensitive Levenshtein distance between s[0..len) and the NUL-terminated name
 * (its first PMU_TEXT_NAME_MAX characters), computed only as far as it matters: a distance
 * above `max` comes back as some number above max.  The work stops as soon as the lengths
 * differ by more than max, or the characters do, or no cell of a row is at most max (a
 * row's least cell never decreases from one row to the next), so that a "did you mean"
 * over hundreds of names costs little more than the names near the query. */
static inline unsigned pmu_text_edit_distance_max(const char *s, size_t len, const char *name,
                                                  unsigned max)
{
    size_t nlen = strlen(name);
    unsigned row[PMU_TEXT_NAME_MAX + 1];
    if (nlen > PMU_TEXT_NAME_MAX)
        nlen = PMU_TEXT_NAME_MAX;
    const size_t gap = len > nlen ? len - nlen : nlen - len;
    if (gap > max)
        return gap > ~0u ? ~0u : (unsigned)gap;
    /* The characters one string has more of than the other (counted in 64 classes): each
     * edit removes at most one of them, so that most names far from s cost one pass. */
    unsigned more[64] = {0}; /* s's characters not matched yet */
    for (size_t i = 0; i < len; i++)
        more[pmu_text_lower((unsigned char)s[i]) & 63]++;
    size_t in_s = len, in_name = 0;
    for (size_t j = 0; j < nlen; j++) {
        unsigned *m = &more[pmu_text_lower((unsigned char)name[j]) & 63];
        if (*m) {
            --*m;
            in_s--;
        } else {
            in_name++;
        }
    }
    const size_t bag = in_s > in_name ? in_s : in_name;
    if (bag > max)
        return bag > ~0u ? ~0u : (unsigned)bag;
    for (size_t j = 0; j <= nlen; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= len; i++) {
        const int ch = pmu_text_lower((unsigned char)s[i - 1]);
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        unsigned least = row[0];
        for (size_t j = 1; j <= nlen; j++) {
            unsigned up = row[j];
            unsigned cost = ch != pmu_text_lower((unsigned char)name[j - 1]);
            unsigned best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
            if (best < least)
                least = best;
        }
        if (least > max)
            return least;
    }
    return row[nlen];
}

/* The whole distance. */
static inline unsigned pmu_text_edit_distance(const char *s, size_t len, const char *name)
{
    return pmu_text_edit_distance_max(s, len, name, ~0u);
}

/* The nearest of n names to s[0..len) among those at most `max` edits away: the index of
 * the first name at the smallest distance, its distance in *distance; n (and *distance
 * above max) when none is that near.  The names are read from a table of records:
 * `first_name` points at the name member of record 0 and records are `stride` bytes apart
 * (e.g. &table[0].name, sizeof table[0]), as qsort reads arrays. */
static inline unsigned pmu_text_nearest_within(const char *s, size_t len, const char *const *first_name,
                                               unsigned n, size_t stride, unsigned max, unsigned *distance)
{
    unsigned best = n, best_d = max < ~0u ? max + 1 : ~0u;
    for (unsigned i = 0; i < n && best_d > 0; i++) { /* at 0 no name comes nearer */
        const char *name = *(const char *const *)(const void *)((const char *)first_name + i * stride);
        unsigned d = pmu_text_edit_distance_max(s, len, name, best_d - 1);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    if (distance)
        *distance = best_d;
    return best;
}

/* The nearest of all n names (0 when n is 0). */
static inline unsigned pmu_text_nearest(const char *s, size_t len, const char *const *first_name, unsigned n,
                                        size_t stride, unsigned *distance)
{
    const unsigned i = pmu_text_nearest_within(s, len, first_name, n, stride, ~0u - 1u, distance);
    return i < n ? i : 0;
}

/* Appends printf-style text to the NUL-terminated buf of `size` bytes, truncating. */
static inline void pmu_text_appendf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void pmu_text_appendf(char *buf, size_t size, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, size - n, fmt, ap);
    va_end(ap);
}

/* The trailing decimal number of a name ("PMC12" -> 12) and the length of its prefix;
 * -1 when the name does not end in a digit. */
static inline int pmu_text_name_number(const char *name, size_t *prefix_len)
{
    size_t n = strlen(name), i = n;
    int num = 0;
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        i--;
    *prefix_len = i;
    if (i == n)
        return -1;
    for (size_t k = i; k < n && num < 100000; k++)
        num = num * 10 + (name[k] - '0');
    return num;
}

/* Appends names[0..n) to buf as "PMC0, PMC4..PMC9, PMC11, IBR0..IBR7": runs of three or
 * more names with one prefix and consecutive numbers are folded. */
static inline void pmu_text_fold_names(char *buf, size_t size, const char *const *names, unsigned n)
{
    unsigned v = 0;
    while (v < n) {
        size_t plen;
        int num = pmu_text_name_number(names[v], &plen);
        unsigned last = v;
        while (num >= 0 && last + 1 < n) {
            size_t plen2;
            int next = pmu_text_name_number(names[last + 1], &plen2);
            if (next != num + (int)(last + 1 - v) || plen2 != plen || strncmp(names[v], names[last + 1], plen) != 0)
                break;
            last++;
        }
        if (last >= v + 2)
            pmu_text_appendf(buf, size, "%s%s..%s", buf[0] ? ", " : "", names[v], names[last]);
        else
            for (unsigned k = v; k <= last; k++)
                pmu_text_appendf(buf, size, "%s%s", buf[0] ? ", " : "", names[k]);
        v = last + 1;
    }
}

/* s as a JSON string, quotes included: quotes and backslashes escaped, a newline as \n,
 * other control characters and bytes outside ASCII as \u00XX (names come from symbol
 * files and user input, bytes not necessarily UTF-8: code points 0..255 keep them
 * readable by any JSON parser).  The one JSON string writer of the CLI's --json outputs. */
static inline void pmu_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* A JSON boolean, or null where nothing was compared (verdict < 0). */
static inline const char *pmu_json_verdict(int verdict)
{
    return verdict < 0 ? "null" : verdict ? "true" : "false";
}

#ifdef __cplusplus
}
#endif
#endif
