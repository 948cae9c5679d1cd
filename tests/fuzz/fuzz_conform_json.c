/*
 * fuzz_conform_json.c - the JSON summaries of `pmusim conform --json` as `pmusim
 * conform-merge` reads them (pmu_conform_read_json, verilator/cli/conform_report.c;
 * docs/conformance.md, "The JSON summary"): accepted, a summary whose shard is one of its
 * shards and whose cases have a known status, a run time >= 0, a replay command and, when
 * they failed, a report, and that written again (as the merge writes its summary) reads
 * back the same; refused, an error that names fuzz.json with its line or field.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>

#include "fuzz.h"
#include "cli/pmu_cli.h"

#define NAME "fuzz.json"

/* A fixed-size name of a case: terminated within its array. */
#define FUZZ_CHECK_NAME(r, field, i)                                                      \
    FUZZ_CHECK(memchr((r)->field, '\0', sizeof (r)->field) != NULL, "case %zu: " #field " unterminated", i)

static void check_case(const pmu_conform_result *r, size_t i)
{
    FUZZ_CHECK_NAME(r, family, i);
    FUZZ_CHECK_NAME(r, model, i);
    FUZZ_CHECK_NAME(r, config, i);
    FUZZ_CHECK_NAME(r, service, i);
    FUZZ_CHECK(r->status >= PMU_CONFORM_PASSED && r->status <= PMU_CONFORM_INEXACT, "case %zu: status %d", i,
               r->status);
    FUZZ_CHECK(isfinite(r->seconds) && r->seconds >= 0, "case %zu: seconds %g", i, r->seconds);
    FUZZ_CHECK(r->replay != NULL, "case %zu: no replay command", i);
    FUZZ_CHECK(r->status == PMU_CONFORM_PASSED || r->message != NULL, "case %zu: a failed case without its report",
               i);
}

/* What %.3f keeps of a run time. */
static int same_seconds(double a, double b) { return fabs(a - b) <= 0.0005 + fabs(a) * 1e-12; }

static int same_text(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static void check_same(const pmu_conform_summary *s, const pmu_conform_summary *b, const char *text)
{
    FUZZ_CHECK(strcmp(s->plan, b->plan) == 0 && s->plan_cases == b->plan_cases && s->shard == b->shard &&
                   s->nshards == b->nshards && s->n == b->n && strcmp(s->timestamp, b->timestamp) == 0 &&
                   strcmp(s->hostname, b->hostname) == 0,
               "the summary reads back another plan, shard, timestamp, host or number of cases:\n%s", text);
    for (size_t i = 0; i < s->n; i++) {
        const pmu_conform_result *x = &s->r[i], *y = &b->r[i];
        FUZZ_CHECK(strcmp(x->family, y->family) == 0 && strcmp(x->model, y->model) == 0 &&
                       strcmp(x->config, y->config) == 0 && strcmp(x->service, y->service) == 0 &&
                       x->seed == y->seed && x->cycles == y->cycles && x->interrupts == y->interrupts &&
                       x->status == y->status && same_seconds(x->seconds, y->seconds) &&
                       same_text(x->replay, y->replay) && same_text(x->message, y->message),
                   "case %zu reads back otherwise:\n%s", i, text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmu_conform_summary s;
    pmu_err err;
    pmu_err_clear(&err);
    if (pmu_conform_read_json((const char *)data, size, NAME, &s, &err)) {
        FUZZ_CHECK(err.code == PMU_E_INPUT || err.code == PMU_E_NOMEM, "code %d for bad input: '%s'", err.code,
                   err.msg);
        fuzz_check_err(&err, err.code == PMU_E_INPUT ? NAME : NULL);
        if (err.code == PMU_E_INPUT) {
            const char *p = err.msg + strlen(NAME);
            FUZZ_CHECK((p[0] == ':' && p[1] >= '1' && p[1] <= '9') || strstr(err.msg, "field '") ||
                           strstr(err.msg, "expected a JSON object"),
                       "the message names neither a line nor a field: '%s'", err.msg);
        }
        return 0;
    }
    FUZZ_CHECK(memchr(s.plan, '\0', sizeof s.plan) != NULL, "plan unterminated");
    FUZZ_CHECK(s.nshards >= 1 && s.shard >= 1 && s.shard <= s.nshards, "shard %u of %u", s.shard, s.nshards);
    FUZZ_CHECK(s.n == 0 || s.r != NULL, "%zu cases and no array", s.n);
    for (size_t i = 0; i < s.n; i++)
        check_case(&s.r[i], i);

    /* Written again, as conform-merge writes the merged summary, it reads back the same. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FUZZ_CHECK(f != NULL, "open_memstream");
    pmu_conform_write_json(f, &s);
    FUZZ_CHECK(fclose(f) == 0, "writing the summary");
    pmu_conform_summary back;
    FUZZ_CHECK(pmu_conform_read_json(text, len, "written.json", &back, &err) == 0,
               "the summary as written does not read back: %s\n%s", err.msg, text);
    check_same(&s, &back, text);
    pmu_conform_free(&back);
    pmu_conform_free(&s);
    free(text);
    return 0;
}
