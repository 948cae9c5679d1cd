/*
 * fault_backend.c - test code only: a pmusim whose RTL can be told to go wrong, so that the
 * commands' mismatch reports (the report on stderr, run --json's "mismatch", conform's
 * JSON and JUnit, conform-merge, the replay line) are checked end to end on a real
 * disagreement, not only on clean runs (verilator/cli/tests/mismatch_reports.sh).
 *
 * Linked into build/tests/pmusim_faulty with -Wl,--wrap=pmu_cosim_create: every lock-step
 * pair the commands make gets its RTL wrapped when PMUSIM_TEST_FAULT names a fault:
 *   drop-step@N   the RTL never sees record N (0-based, counted from the last reset), so its
 *                 counters fall one record behind the reference's from there;
 *   pmi-lost@N    the RTL's interrupt line reads 0 after record N.
 * Unset, the pair is made as pmusim makes it.  A malformed value is one line on stderr and
 * exit 2, as a bad argument is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/pmu_cosim.h"

pmu_backend *__real_pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                                     pmu_cosim_where_fn where, void *where_ctx);
pmu_backend *__wrap_pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                                     pmu_cosim_where_fn where, void *where_ctx);

enum fault_kind { FAULT_DROP_STEP, FAULT_PMI_LOST };

typedef struct faulty {
    pmu_backend base; /* first member: a faulty* is a pmu_backend* */
    pmu_backend *inner;
    enum fault_kind kind;
    uint64_t at;
} faulty;

static faulty *F(pmu_backend *b) { return (faulty *)b; }

static void f_reset(pmu_backend *b)
{
    pmu_reset(F(b)->inner);
    b->cycle = 0;
}
static void f_write(pmu_backend *b, uint16_t a, uint64_t v) { pmu_write(F(b)->inner, a, v); }
static uint64_t f_read(pmu_backend *b, uint16_t a) { return pmu_read(F(b)->inner, a); }
static void f_step(pmu_backend *b, const void *rec)
{
    if (!(F(b)->kind == FAULT_DROP_STEP && b->cycle == F(b)->at))
        pmu_step(F(b)->inner, rec);
    b->cycle++;
}
static void f_snapshot(pmu_backend *b, pmu_state *s)
{
    pmu_snapshot(F(b)->inner, s);
    if (F(b)->kind == FAULT_PMI_LOST && b->cycle > F(b)->at)
        s->pmi = 0;
}
static void f_destroy(pmu_backend *b)
{
    pmu_destroy(F(b)->inner);
    free(b);
}
static int f_trace_open(pmu_backend *b, const char *path, pmu_err *err)
{
    return pmu_trace_open(F(b)->inner, path, err);
}
static int f_trace_close(pmu_backend *b, pmu_err *err) { return pmu_trace_close(F(b)->inner, err); }

/* Only the ops every backend has, and the waveform's: the pair then compares snapshots
 * record by record, as it does for any backend without the optional fast paths. */
static const pmu_backend_ops faulty_ops = {
    .reset = f_reset,
    .write = f_write,
    .read = f_read,
    .step = f_step,
    .snapshot = f_snapshot,
    .destroy = f_destroy,
    .trace_open = f_trace_open,
    .trace_close = f_trace_close,
};

_Noreturn static void bad_fault(const char *v)
{
    fprintf(stderr, "PMUSIM_TEST_FAULT: expected drop-step@N or pmi-lost@N (N a decimal record number), found '%s'\n",
            v);
    exit(2);
}

pmu_backend *__wrap_pmu_cosim_create(const pmu_family *fam, pmu_backend *ref, pmu_backend *rtl,
                                     pmu_cosim_where_fn where, void *where_ctx)
{
    const char *v = getenv("PMUSIM_TEST_FAULT");
    if (!v || !*v || !rtl)
        return __real_pmu_cosim_create(fam, ref, rtl, where, where_ctx);
    enum fault_kind kind;
    const char *num;
    if (!strncmp(v, "drop-step@", 10))
        kind = FAULT_DROP_STEP, num = v + 10;
    else if (!strncmp(v, "pmi-lost@", 9))
        kind = FAULT_PMI_LOST, num = v + 9;
    else
        bad_fault(v);
    char *end;
    errno = 0;
    unsigned long long at = strtoull(num, &end, 10);
    if (*num < '0' || *num > '9' || *end || errno)
        bad_fault(v);
    faulty *f = calloc(1, sizeof *f);
    if (!f)
        return NULL; /* the caller reports out of memory and destroys ref and rtl */
    f->base = *rtl;
    f->base.ops = &faulty_ops;
    f->base.cycle = 0;
    f->inner = rtl;
    f->kind = kind;
    f->at = at;
    pmu_backend *pair = __real_pmu_cosim_create(fam, ref, &f->base, where, where_ctx);
    if (!pair)
        free(f); /* rtl itself goes back to the caller, who destroys it */
    return pair;
}
