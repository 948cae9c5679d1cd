/*
 * conform_report.c - the results of `pmusim conform` as files (docs/conformance.md): a JSON
 * summary per shard, which `pmusim conform-merge` reads back, and JUnit XML, one testcase per
 * case, for CI dashboards.  The JSON reader takes any JSON text (objects, arrays, strings,
 * numbers, true, false, null) and then checks the summary's fields one by one, so a broken
 * or foreign file gets a message naming the file, and the line or the field.
 */
#define _XOPEN_SOURCE 700 /* strdup, gethostname, gmtime_r */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/pmu_cli.h"
#include "common/pmu_num.h"
#include "common/pmu_text.h"

#define JSON_DEPTH 16 /* nesting the summary never exceeds; deeper input is refused */

const char *const pmu_conform_status_names[] = {"passed", "mismatch", "inexact", NULL};

/* Version 2 numbers each case in the plan ("index"), which conform-merge checks; version 3
 * says when and where the shard ran ("timestamp", "hostname"), as JUnit XML wants. */
#define PMU_CONFORM_FORMAT "pmusim-conform-3"
#define SEVERAL_HOSTS "several hosts"

/* ---- the summary in memory ------------------------------------------------------------------ */

int pmu_conform_add(pmu_conform_summary *s, const pmu_conform_result *r)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        pmu_conform_result *p = realloc(s->r, cap * sizeof *p);
        if (!p)
            return -1;
        s->r = p;
        s->cap = cap;
    }
    pmu_conform_result *d = &s->r[s->n];
    *d = *r;
    d->message = r->message ? strdup(r->message) : NULL;
    d->replay = strdup(r->replay ? r->replay : "");
    if ((r->message && !d->message) || !d->replay) {
        free(d->message);
        free(d->replay);
        return -1;
    }
    s->n++;
    return 0;
}

void pmu_conform_stamp(pmu_conform_summary *s)
{
    const time_t t = time(NULL);
    struct tm tm;
    if (t == (time_t)-1 || !gmtime_r(&t, &tm) ||
        !strftime(s->timestamp, sizeof s->timestamp, "%Y-%m-%dT%H:%M:%S", &tm))
        snprintf(s->timestamp, sizeof s->timestamp, "1970-01-01T00:00:00"); /* no clock */
    if (gethostname(s->hostname, sizeof s->hostname) != 0 || !s->hostname[0])
        snprintf(s->hostname, sizeof s->hostname, "localhost");
    s->hostname[sizeof s->hostname - 1] = '\0'; /* gethostname may truncate without one */
}

void pmu_conform_stamp_merge(pmu_conform_summary *m, const pmu_conform_summary *s, int first)
{
    if (first || strcmp(s->timestamp, m->timestamp) < 0) /* the fixed format sorts as text */
        snprintf(m->timestamp, sizeof m->timestamp, "%s", s->timestamp);
    if (first)
        snprintf(m->hostname, sizeof m->hostname, "%s", s->hostname);
    else if (strcmp(s->hostname, m->hostname) != 0)
        snprintf(m->hostname, sizeof m->hostname, SEVERAL_HOSTS);
}

void pmu_conform_free(pmu_conform_summary *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->r[i].message);
        free(s->r[i].replay);
    }
    free(s->r);
    s->r = NULL;
    s->n = s->cap = 0;
}

void pmu_conform_case_name(const pmu_conform_result *r, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s/%s/%s/seed %" PRIu64, r->family, r->model, r->config, r->service, r->seed);
}

void pmu_conform_totals(const pmu_conform_summary *s, pmu_conform_totals_t *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < s->n; i++) {
        t->cases++;
        t->failed += s->r[i].status != PMU_CONFORM_PASSED;
        t->mismatches += s->r[i].status == PMU_CONFORM_MISMATCH;
        t->cycles += s->r[i].cycles;
        t->seconds += s->r[i].seconds;
    }
}

/* ---- writing -------------------------------------------------------------------------------- */

/* A case's family, model, configuration and service, each through `text` after before[k]. */
static void case_names(FILE *f, const pmu_conform_result *r, const char *const before[4],
                       void (*text)(FILE *f, const char *s))
{
    const char *const names[4] = {r->family, r->model, r->config, r->service};
    for (unsigned k = 0; k < 4; k++) {
        fputs(before[k], f);
        text(f, names[k]);
    }
}

void pmu_conform_write_json(FILE *f, const pmu_conform_summary *s)
{
    pmu_conform_totals_t t;
    pmu_conform_totals(s, &t);
    fprintf(f, "{\n  \"format\": \"" PMU_CONFORM_FORMAT "\",\n  \"plan\": ");
    pmu_json_string(f, s->plan);
    fprintf(f, ",\n  \"plan_cases\": %" PRIu64 ",\n  \"shard\": %u,\n  \"shards\": %u,\n  \"timestamp\": ",
            s->plan_cases, s->shard, s->nshards);
    pmu_json_string(f, s->timestamp);
    fputs(",\n  \"hostname\": ", f);
    pmu_json_string(f, s->hostname);
    fputs(",\n", f);
    fprintf(f, "  \"totals\": {\"cases\": %" PRIu64 ", \"failed\": %" PRIu64 ", \"mismatches\": %" PRIu64
               ", \"cycles\": %" PRIu64 ", \"seconds\": %.3f},\n  \"cases\": [",
            t.cases, t.failed, t.mismatches, t.cycles, t.seconds);
    for (size_t i = 0; i < s->n; i++) {
        const pmu_conform_result *r = &s->r[i];
        static const char *const keys[4] = {"{\"family\": ", ", \"model\": ", ", \"config\": ", ", \"service\": "};
        fprintf(f, "%s\n    ", i ? "," : "");
        case_names(f, r, keys, pmu_json_string);
        fprintf(f, ", \"seed\": %" PRIu64 ", \"index\": %" PRIu64 ", \"cycles\": %" PRIu64
                   ", \"interrupts\": %" PRIu64 ", \"status\": \"%s\", \"seconds\": %.3f,\n     \"replay\": ",
                r->seed, r->index, r->cycles, r->interrupts, pmu_conform_status_names[r->status], r->seconds);
        pmu_json_string(f, r->replay);
        if (r->message) {
            fputs(",\n     \"message\": ", f);
            pmu_json_string(f, r->message);
        }
        fputc('}', f);
    }
    fputs(s->n ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* XML 1.0 text: the five entities; control characters it cannot carry become '?'. */
static void xml_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p >= 0x7f)
                fputc('?', f);
            else
                fputc(*p, f);
        }
    }
}

/* The first line of a failure's report, for the message attribute. */
static void first_line(const char *s, char *buf, size_t size)
{
    size_t n = strcspn(s, "\n");
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), s);
}

void pmu_conform_write_junit(FILE *f, const pmu_conform_summary *s)
{
    pmu_conform_totals_t t;
    pmu_conform_totals(s, &t);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    /* No errors and nothing skipped: a run that cannot go on stops the command before any
     * report is written, and every case of the shard runs. */
    fprintf(f, "<testsuites name=\"pmusim conform\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
               "\" errors=\"0\" time=\"%.3f\">\n",
            t.cases, t.failed, t.seconds);
    fprintf(f, "  <testsuite name=\"pmusim conform, shard %u/%u\" id=\"0\" package=\"pmusim.conform\" timestamp=\"",
            s->shard, s->nshards);
    xml_text(f, s->timestamp);
    fputs("\" hostname=\"", f);
    xml_text(f, s->hostname);
    fprintf(f, "\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"0\" skipped=\"0\" time=\"%.3f\">\n"
               "    <properties>\n      <property name=\"plan\" value=\"",
            t.cases, t.failed, t.seconds);
    xml_text(f, s->plan);
    fprintf(f, "\"/>\n      <property name=\"cycles\" value=\"%" PRIu64 "\"/>\n    </properties>\n", t.cycles);
    for (size_t i = 0; i < s->n; i++) {
        const pmu_conform_result *r = &s->r[i];
        static const char *const dots[4] = {"    <testcase classname=\"pmusim.conform.", ".", ".", "."};
        case_names(f, r, dots, xml_text);
        fprintf(f, "\" name=\"seed %" PRIu64 "\" time=\"%.3f\"", r->seed, r->seconds);
        if (r->status == PMU_CONFORM_PASSED) {
            fputs("/>\n", f);
            continue;
        }
        char head[512], msg[1200];
        first_line(r->message ? r->message : pmu_conform_status_names[r->status], head, sizeof head);
        snprintf(msg, sizeof msg, "%s; reproduce: %s", head, r->replay);
        fprintf(f, ">\n      <failure type=\"%s\" message=\"", pmu_conform_status_names[r->status]);
        xml_text(f, msg);
        fputs("\">", f);
        xml_text(f, r->message ? r->message : "");
        fputs("\nreproduce: ", f);
        xml_text(f, r->replay);
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("    <system-out/>\n    <system-err/>\n  </testsuite>\n</testsuites>\n", f);
}

static void json_out(FILE *f, const void *s) { pmu_conform_write_json(f, s); }
static void junit_out(FILE *f, const void *s) { pmu_conform_write_junit(f, s); }

int pmu_conform_save(pmu_outfile *o, const char *opt, const pmu_conform_summary *s, int junit, pmu_err *err)
{
    return pmu_outfile_write(o, opt, junit ? junit_out : json_out, s, err);
}

/* ---- reading: JSON text into a tree -------------------------------------------------------- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jv {
    jtype type;
    int b;
    int is_u64;      /* J_NUM: a non-negative integer that fits in 64 bits (u) */
    uint64_t u;
    double d;
    char *s;         /* J_STR */
    struct jv *item; /* J_ARR, J_OBJ: n values */
    char **key;      /* J_OBJ: n keys */
    size_t n;
} jv;

typedef struct jparser {
    const char *p, *end, *name;
    unsigned line;
    pmu_err *err;
} jparser;

static void jv_free(jv *v)
{
    free(v->s);
    for (size_t i = 0; i < v->n; i++) {
        jv_free(&v->item[i]);
        if (v->key)
            free(v->key[i]);
    }
    free(v->item);
    free(v->key);
    memset(v, 0, sizeof *v);
}

static int jfail(jparser *j, const char *what)
{
    char shown[32];
    if (j->p >= j->end)
        snprintf(shown, sizeof shown, "the end of the file");
    else
        snprintf(shown, sizeof shown, "'%c'", *j->p >= 0x20 && *j->p < 0x7f ? *j->p : '?');
    return pmu_errf(j->err, PMU_E_INPUT, "%s:%u: expected %s, found %s", j->name, j->line, what, shown);
}

static void jspace(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->line += *j->p++ == '\n';
}

static int jstring(jparser *j, char **out)
{
    size_t cap = 32, n = 0;
    char *s = malloc(cap);
    if (!s)
        return pmu_errf(j->err, PMU_E_NOMEM, "out of memory");
    j->p++; /* the opening quote */
    for (;;) {
        if (j->p >= j->end || *j->p == '\n') {
            free(s);
            return jfail(j, "the closing '\"' of a string");
        }
        unsigned c = (unsigned char)*j->p++;
        if (c == '"')
            break;
        if (c == '\\') {
            c = j->p < j->end ? (unsigned char)*j->p++ : 0;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case '"': case '\\': case '/': break;
            case 'u': {
                unsigned v = 0;
                for (int k = 0; k < 4; k++) {
                    char h = j->p < j->end ? *j->p : 0;
                    unsigned d = h >= '0' && h <= '9' ? (unsigned)(h - '0')
                               : h >= 'a' && h <= 'f' ? (unsigned)(h - 'a' + 10)
                               : h >= 'A' && h <= 'F' ? (unsigned)(h - 'A' + 10) : 16u;
                    if (d == 16) {
                        free(s);
                        return jfail(j, "four hex digits after \\u");
                    }
                    v = v * 16 + d;
                    j->p++;
                }
                if (v == 0 || v > 0xff) { /* the writer only escapes bytes */
                    free(s);
                    return pmu_errf(j->err, PMU_E_INPUT, "%s:%u: expected \\u0001..\\u00ff in a string, found \\u%04x",
                                    j->name, j->line, v);
                }
                c = v;
                break;
            }
            default:
                j->p--;
                free(s);
                return jfail(j, "an escape (\\n, \\t, \\\", \\\\, \\uXXXX)");
            }
        }
        if (n + 2 > cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                return pmu_errf(j->err, PMU_E_NOMEM, "out of memory");
            }
            s = t;
        }
        s[n++] = (char)c;
    }
    s[n] = '\0';
    *out = s;
    return 0;
}

static int jvalue(jparser *j, jv *v, unsigned depth);

/* The elements of an array or the members of an object, after the opening bracket. */
static int jlist(jparser *j, jv *v, unsigned depth, char close)
{
    size_t cap = 0;
    jspace(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return 0;
    }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            jv *items = realloc(v->item, cap * sizeof *items);
            char **keys = v->type == J_OBJ ? realloc(v->key, cap * sizeof *keys) : NULL;
            if (items)
                v->item = items;
            if (keys)
                v->key = keys;
            if (!items || (v->type == J_OBJ && !keys))
                return pmu_errf(j->err, PMU_E_NOMEM, "out of memory");
        }
        jv *e = &v->item[v->n];
        memset(e, 0, sizeof *e);
        if (v->type == J_OBJ) {
            jspace(j);
            if (j->p >= j->end || *j->p != '"')
                return jfail(j, "a member name in quotes");
            if (jstring(j, &v->key[v->n]))
                return -1;
            jspace(j);
            if (j->p >= j->end || *j->p != ':') {
                free(v->key[v->n]);
                return jfail(j, "':' after the member name");
            }
            j->p++;
        }
        v->n++;
        if (jvalue(j, e, depth + 1))
            return -1;
        jspace(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return 0;
        }
        return jfail(j, close == ']' ? "',' or ']'" : "',' or '}'");
    }
}

static int jvalue(jparser *j, jv *v, unsigned depth)
{
    jspace(j);
    if (depth > JSON_DEPTH)
        return pmu_errf(j->err, PMU_E_INPUT, "%s:%u: nested deeper than %u levels", j->name, j->line, JSON_DEPTH);
    if (j->p >= j->end)
        return jfail(j, "a value");
    const char c = *j->p;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? J_OBJ : J_ARR;
        j->p++;
        return jlist(j, v, depth, c == '{' ? '}' : ']');
    }
    if (c == '"') {
        v->type = J_STR;
        return jstring(j, &v->s);
    }
    static const struct { const char *word; jtype type; int b; } words[] = {
        {"true", J_BOOL, 1}, {"false", J_BOOL, 0}, {"null", J_NULL, 0}};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        size_t n = strlen(words[k].word);
        if ((size_t)(j->end - j->p) >= n && memcmp(j->p, words[k].word, n) == 0) {
            v->type = words[k].type;
            v->b = words[k].b;
            j->p += n;
            return 0;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        const char *q = j->p;
        while (q < j->end && strchr("+-0123456789.eE", *q))
            q++;
        char num[64];
        if ((size_t)(q - j->p) >= sizeof num)
            return jfail(j, "a number of at most 63 characters");
        memcpy(num, j->p, (size_t)(q - j->p));
        num[q - j->p] = '\0';
        char *stop;
        v->type = J_NUM;
        v->d = strtod(num, &stop);
        if (*stop)
            return jfail(j, "a number");
        pmu_err ignore;
        v->is_u64 = pmu_parse_u64(num, 0, UINT64_MAX, "", &v->u, &ignore) == 0;
        j->p = q;
        return 0;
    }
    return jfail(j, "a value (an object, array, string, number, true, false or null)");
}

/* ---- reading: the summary's fields ----------------------------------------------------------- */

static const jv *member(const jv *o, const char *key)
{
    for (size_t i = 0; o->type == J_OBJ && i < o->n; i++)
        if (strcmp(o->key[i], key) == 0)
            return &o->item[i];
    return NULL;
}

typedef struct jfield {
    const char *name; /* the file, for messages */
    pmu_err *err;
} jfield;

static int field_fail(const jfield *f, const char *path, const char *what)
{
    return pmu_errf(f->err, PMU_E_INPUT, "%s: field '%s': expected %s", f->name, path, what);
}

static int get_u64(const jfield *f, const jv *o, const char *key, const char *path, uint64_t *out)
{
    const jv *v = member(o, key);
    if (!v || v->type != J_NUM || !v->is_u64)
        return field_fail(f, path, "an unsigned integer");
    *out = v->u;
    return 0;
}

static int get_str(const jfield *f, const jv *o, const char *key, const char *path, char *buf, size_t size)
{
    const jv *v = member(o, key);
    if (!v || v->type != J_STR || strlen(v->s) >= size)
        return field_fail(f, path, "a string");
    snprintf(buf, size, "%s", v->s);
    return 0;
}

static int read_case(const jfield *f, const jv *c, size_t i, pmu_conform_result *r)
{
    char path[64], status[16];
    const jv *v;
#define PATH(key) (snprintf(path, sizeof path, "cases[%zu].%s", i, key), path)
    memset(r, 0, sizeof *r);
    if (c->type != J_OBJ)
        return field_fail(f, (snprintf(path, sizeof path, "cases[%zu]", i), path), "an object");
    if (get_str(f, c, "family", PATH("family"), r->family, sizeof r->family) ||
        get_str(f, c, "model", PATH("model"), r->model, sizeof r->model) ||
        get_str(f, c, "config", PATH("config"), r->config, sizeof r->config) ||
        get_str(f, c, "service", PATH("service"), r->service, sizeof r->service) ||
        get_u64(f, c, "seed", PATH("seed"), &r->seed) || get_u64(f, c, "index", PATH("index"), &r->index) ||
        get_u64(f, c, "cycles", PATH("cycles"), &r->cycles) ||
        get_u64(f, c, "interrupts", PATH("interrupts"), &r->interrupts) ||
        get_str(f, c, "status", PATH("status"), status, sizeof status))
        return -1;
    int st = -1;
    for (int k = 0; pmu_conform_status_names[k]; k++)
        if (strcmp(status, pmu_conform_status_names[k]) == 0)
            st = k;
    if (st < 0)
        return field_fail(f, PATH("status"), "passed, mismatch or inexact");
    r->status = st;
    /* At most 10^15 s (30 million years): the run time is written again with %.3f, which
     * the reader takes back only within 63 characters, and an overflow (1e400) is no time. */
    if (!(v = member(c, "seconds")) || v->type != J_NUM || !(v->d >= 0 && v->d <= 1e15))
        return field_fail(f, PATH("seconds"), "a number of seconds in 0..1e15");
    r->seconds = v->d;
    if (!(v = member(c, "replay")) || v->type != J_STR)
        return field_fail(f, PATH("replay"), "a string");
    r->replay = v->s;
    v = member(c, "message");
    if (v && v->type != J_STR)
        return field_fail(f, PATH("message"), "a string");
    if (!v && st != PMU_CONFORM_PASSED)
        return field_fail(f, PATH("message"), "the report of a failed case");
    r->message = v ? v->s : NULL;
#undef PATH
    return 0;
}

/* "YYYY-MM-DDTHH:MM:SS", a real date and time of day (the JUnit timestamp, an xs:dateTime). */
static int utc_time(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    if (strlen(s) != sizeof shape - 1)
        return 0;
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
            return 0;
    const int year = atoi(s), mon = atoi(s + 5), day = atoi(s + 8);
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const int leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    return year >= 1 && mon >= 1 && mon <= 12 && day >= 1 && day <= mdays[mon - 1] && (mon != 2 || day <= 28 + leap) &&
           atoi(s + 11) <= 23 && atoi(s + 14) <= 59 && atoi(s + 17) <= 59; /* XML Schema: no leap second */
}

/* Printable ASCII, not empty, not blank: a JUnit hostname (a token of at least a character). */
static int host_name(const char *s)
{
    int word = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p >= 0x7f)
            return 0;
        word |= *p != ' ';
    }
    return word;
}

/* Case i (r) is the shard's own: its index is in the plan, belongs to the shard (I-1
 * modulo N, as conform runs them), and is past the previous case's, so that no case is
 * counted twice and a shard's file relabelled as another shard is refused. */
static int own_case(const jfield *f, const pmu_conform_summary *s, const pmu_conform_result *r, size_t i)
{
    char name[160];
    pmu_conform_case_name(r, name, sizeof name);
    if (r->index >= s->plan_cases)
        return pmu_errf(f->err, PMU_E_INPUT, "%s: field 'cases[%zu].index' (%s): expected an index below "
                        "plan_cases (%" PRIu64 "), found %" PRIu64, f->name, i, name, s->plan_cases, r->index);
    if (r->index % s->nshards != s->shard - 1)
        return pmu_errf(f->err, PMU_E_INPUT,
                        "%s: field 'cases[%zu].index' (%s): case %" PRIu64 " of the plan belongs to shard %" PRIu64
                        "/%u, not to this file's shard %u/%u",
                        f->name, i, name, r->index, r->index % s->nshards + 1, s->nshards, s->shard, s->nshards);
    if (i > 0 && r->index <= s->r[i - 1].index)
        return pmu_errf(f->err, PMU_E_INPUT,
                        "%s: field 'cases[%zu].index' (%s): case %" PRIu64 " of the plan after case %" PRIu64
                        ": expected each case once, in the plan's order",
                        f->name, i, name, r->index, s->r[i - 1].index);
    return 0;
}

/* The file's totals are those of its cases (seconds to the 3 decimals each was written with). */
static int own_totals(const jfield *f, const jv *root, const pmu_conform_summary *s)
{
    pmu_conform_totals_t t;
    pmu_conform_totals(s, &t);
    const jv *o = member(root, "totals");
    if (!o || o->type != J_OBJ)
        return field_fail(f, "totals", "an object");
    static const char *const keys[] = {"cases", "failed", "mismatches", "cycles"};
    const uint64_t sums[] = {t.cases, t.failed, t.mismatches, t.cycles};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        char path[32];
        uint64_t v;
        snprintf(path, sizeof path, "totals.%s", keys[k]);
        if (get_u64(f, o, keys[k], path, &v))
            return -1;
        if (v != sums[k])
            return pmu_errf(f->err, PMU_E_INPUT, "%s: field '%s': expected %" PRIu64 " (that of its %zu cases), found %"
                            PRIu64, f->name, path, sums[k], s->n, v);
    }
    const jv *v = member(o, "seconds");
    if (!v || v->type != J_NUM || v->d < 0)
        return field_fail(f, "totals.seconds", "a number >= 0");
    if (v->d > t.seconds + 0.0005 * (double)(s->n + 1) || v->d < t.seconds - 0.0005 * (double)(s->n + 1))
        return pmu_errf(f->err, PMU_E_INPUT,
                        "%s: field 'totals.seconds': expected %.3f (that of its %zu cases), found %.3f", f->name,
                        t.seconds, s->n, v->d);
    return 0;
}

int pmu_conform_read_json(const char *text, size_t len, const char *name, pmu_conform_summary *s,
                          pmu_err *err)
{
    memset(s, 0, sizeof *s);
    jparser j = {text, text + len, name, 1, err};
    jv root;
    memset(&root, 0, sizeof root);
    int rc = jvalue(&j, &root, 0);
    if (rc == 0) {
        jspace(&j);
        if (j.p < j.end)
            rc = jfail(&j, "the end of the file after the summary");
    }
    const jfield f = {name, err};
    const jv *v = NULL;
    uint64_t shard = 0, nshards = 0;
    if (rc == 0 && root.type != J_OBJ)
        rc = pmu_errf(err, PMU_E_INPUT, "%s: expected a JSON object (a summary of pmusim conform --json)", name);
    if (rc == 0 && (!(v = member(&root, "format")) || v->type != J_STR || strcmp(v->s, PMU_CONFORM_FORMAT)))
        rc = field_fail(&f, "format", "\"" PMU_CONFORM_FORMAT "\" (a summary of pmusim conform --json)");
    if (rc == 0)
        rc = get_str(&f, &root, "plan", "plan", s->plan, sizeof s->plan);
    if (rc == 0)
        rc = get_u64(&f, &root, "plan_cases", "plan_cases", &s->plan_cases);
    if (rc == 0 && !(get_u64(&f, &root, "shards", "shards", &nshards) == 0 && nshards >= 1 && nshards <= UINT32_MAX))
        rc = field_fail(&f, "shards", "a number of shards >= 1");
    if (rc == 0 && !(get_u64(&f, &root, "shard", "shard", &shard) == 0 && shard >= 1 && shard <= nshards))
        rc = field_fail(&f, "shard", "a shard number in 1..shards");
    s->shard = (unsigned)shard;
    s->nshards = (unsigned)nshards;
    if (rc == 0 && (get_str(&f, &root, "timestamp", "timestamp", s->timestamp, sizeof s->timestamp) ||
                    !utc_time(s->timestamp)))
        rc = field_fail(&f, "timestamp", "a UTC time YYYY-MM-DDTHH:MM:SS");
    if (rc == 0 && (get_str(&f, &root, "hostname", "hostname", s->hostname, sizeof s->hostname) ||
                    !host_name(s->hostname)))
        rc = field_fail(&f, "hostname", "a host name (printable, not empty, under 256 characters)");
    if (rc == 0 && (!(v = member(&root, "cases")) || v->type != J_ARR))
        rc = field_fail(&f, "cases", "an array");
    for (size_t i = 0; rc == 0 && i < v->n; i++) {
        pmu_conform_result r;
        if ((rc = read_case(&f, &v->item[i], i, &r)) == 0 && (rc = own_case(&f, s, &r, i)) == 0 &&
            pmu_conform_add(s, &r))
            rc = pmu_errf(err, PMU_E_NOMEM, "out of memory");
    }
    if (rc == 0)
        rc = own_totals(&f, &root, s);
    jv_free(&root);
    if (rc)
        pmu_conform_free(s);
    return rc ? -1 : 0;
}
