/*
 * session.c - a setup run on the 21264/EV67 family (include/cli/ev67/ev67_session.h): the perf
 * driver or the ProfileMe sampler of sw/ev67/ on one counter block, and the checks that
 * their results are what the hardware did (docs/ev67-harness.md, "Exactness").
 *
 * The checks do not trust the software: the perf driver's 64-bit counts are compared with
 * the reference model's totals of the counters, and every ProfileMe sample, as the
 * sampler read it, with the model's own record of the same window.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csim/ev67/ev67_ref.h"
#include "common/ev67/ev67_regs.h"
#include "cli/ev67/ev67_session.h"
#include "harness/pmu_cosim.h"

struct ev67_session {
    ev67_setup setup;
    pmu_backend *b;
    pmu_backend *ref; /* NULL: nothing to compare with */
    ev67_perf *perf;
    ev67_pme *pme;
    /* profileme: the samples as taken, checked against the model's windows */
    uint64_t taken;
    uint64_t bad;
    char first_bad[256];
};

pmu_backend *ev67_session_ref(pmu_backend *b)
{
    b = pmu_reference(b);
    return ev67_is_ref(b) ? b : NULL;
}

/* Each sample the sampler takes must be the model's record of the next window that
 * ended: the same three registers, none skipped, none twice. */
static void check_sample(void *arg, const ev67_pme_sample *smp)
{
    ev67_session *x = arg;
    uint64_t k = x->taken++;
    if (!x->ref)
        return;
    ev67_pm_sample want;
    const char *what = NULL;
    if (ev67_ref_sample(x->ref, k, &want) != 0)
        what = "the model has no such window";
    else if (smp->pmpc != want.pmpc)
        what = "PMPC";
    else if (smp->i_stat != want.i_stat)
        what = "I_STAT";
    else if (smp->pctr_ctl != want.pctr_ctl)
        what = "PCTR_CTL";
    if (what && !x->bad++)
        snprintf(x->first_bad, sizeof x->first_bad,
                 "sample %" PRIu64 " (PMPC 0x%" PRIx64 "): %s differs from the model's window record", k,
                 smp->pmpc, what);
}

ev67_session *ev67_session_start(const ev67_setup *s, pmu_backend *b, pmu_err *err)
{
    ev67_session *x = calloc(1, sizeof *x);
    if (!x) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    x->setup = *s;
    x->b = b;
    x->ref = ev67_session_ref(b);
    if (s->mode == EV67_SETUP_PROFILEME) {
        ev67_pme_opts o = {.period = s->pme_period, .sl1 = s->sl1, .on_sample = check_sample, .sample_arg = x};
        x->pme = ev67_pme_create(b, &o, err);
    } else {
        x->perf = ev67_perf_create(b, s->events, s->periods, s->nevents, err);
    }
    if (!x->pme && !x->perf) {
        free(x);
        return NULL;
    }
    return x;
}

void ev67_session_free(ev67_session *x)
{
    if (!x)
        return;
    ev67_perf_destroy(x->perf);
    ev67_pme_destroy(x->pme);
    free(x);
}

void ev67_session_before(ev67_session *x, const ev67_cycle *rec)
{
    if (x->perf)
        ev67_perf_before(x->perf, rec);
    else
        ev67_pme_before(x->pme, rec);
}

void ev67_session_after(ev67_session *x, uint8_t pmi)
{
    if (x->perf)
        ev67_perf_after(x->perf, pmi);
    else
        ev67_pme_after(x->pme, pmi);
}

static void hook_before(void *ctx, void *record) { ev67_session_before(ctx, record); }

static void hook_after(void *ctx, const void *record, const pmu_state *st)
{
    (void)record;
    ev67_session_after(ctx, st->pmi);
}

pmu_record_hooks ev67_session_hooks(ev67_session *x)
{
    return (pmu_record_hooks){.ctx = x, .before = hook_before, .after = hook_after, .pmi_only = 1};
}

ev67_perf *ev67_session_perf(ev67_session *x) { return x->perf; }
ev67_pme *ev67_session_pme(ev67_session *x) { return x->pme; }

uint64_t ev67_session_interrupts(ev67_session *x)
{
    return x->perf ? ev67_perf_get_stats(x->perf)->interrupts : ev67_pme_get_stats(x->pme)->interrupts;
}

/* Counter n's carries made but not yet taken by the handler, in the model: in the
 * overflow latch (S1, S2) or requested (REQ).  At most one: the handler runs within steps
 * of a request. */
static unsigned carry_in_flight(pmu_backend *ref, unsigned n)
{
    uint64_t obs = pmu_read(ref, EV67_ADDR_OBS_INT);
    unsigned bits = (unsigned)(EV67_FGET(obs, OBS_INT, S1) | EV67_FGET(obs, OBS_INT, S2) |
                               EV67_FGET(obs, OBS_INT, REQ));
    return bits >> n & 1u;
}

static int check_perf(ev67_session *x, int say_exact, FILE *out)
{
    const ev67_perf_plan *plan = ev67_perf_get_plan(x->perf);
    unsigned late = 0; /* events whose last carry the driver adds when its interrupt comes */
    for (unsigned i = 0; i < plan->nevents; i++) {
        unsigned n = plan->pmc[i];
        uint64_t v = 0, want = ev67_ref_total(x->ref, n);
        ev67_perf_read(x->perf, i, &v);
        /* The one count a read may lack (docs/ev67-perf.md, "What is exact and why"): a
         * carry of a period within a few events of 2^20-1 that the values cannot show, made
         * in the last steps, whose interrupt the run ended before. */
        if (v != want && v + ev67_perf_max_period(n) + 1 == want && carry_in_flight(x->ref, n)) {
            late |= 1u << i;
            continue;
        }
        if (v != want) {
            fprintf(out, "exact: NO, %s on PCTR%u: the driver counted %" PRIu64 ", the model's total is %" PRIu64 "\n",
                    ev67_perf_event_name(x->setup.events[i]), n, v, want);
            return 0;
        }
    }
    if (!say_exact)
        return 1;
    pmu_cosim_say_exact(out, x->b, "the 64-bit counts equal the reference model's counter totals%s",
                        late ? ", but for the carry noted below, still on its way" : "");
    for (unsigned i = 0; i < plan->nevents; i++)
        if (late >> i & 1u)
            fprintf(out, "note: %s's count lacks its last carry on PCTR%u (2^20), which its value cannot show: "
                    "the run ended before the interrupt that adds it; the model's total counts it\n",
                    ev67_perf_event_name(x->setup.events[i]), plan->pmc[i]);
    return 1;
}

static int check_pme(ev67_session *x, int say_exact, FILE *out)
{
    if (x->bad) {
        fprintf(out, "exact: NO, %" PRIu64 " of %" PRIu64 " ProfileMe samples differ; first: %s\n", x->bad,
                x->taken, x->first_bad);
        return 0;
    }
    /* A window that ended in the last records may still wait for its interrupt (held off
     * in PALmode, or the run ended first): its request is then pending. */
    uint64_t windows = ev67_ref_nsamples(x->ref);
    uint64_t pending = EV67_FGET(pmu_read(x->ref, EV67_ADDR_OBS_INT), OBS_INT, REQ) & 1u;
    if (windows != x->taken + pending) {
        fprintf(out, "exact: NO, the sampler took %" PRIu64 " samples, the model ended %" PRIu64
                " windows (%" PRIu64 " interrupt pending)\n", x->taken, windows, pending);
        return 0;
    }
    if (say_exact)
        pmu_cosim_say_exact(out, x->b,
                            "every ProfileMe sample equals the reference model's record of its window (%" PRIu64
                            " samples)",
                            x->taken);
    return 1;
}

int ev67_session_check(ev67_session *x, int say_exact, FILE *out)
{
    if (!x->ref)
        return 1;
    return x->perf ? check_perf(x, say_exact, out) : check_pme(x, say_exact, out);
}

void ev67_session_print(ev67_session *x, FILE *out)
{
    if (x->pme) {
        const ev67_pme_stats *st = ev67_pme_get_stats(x->pme);
        fprintf(out, "ProfileMe: %" PRIu64 " interrupts, %" PRIu64 " samples attributed, %" PRIu64
                " PALmode samples dropped, %u PCs\n", st->interrupts, st->samples, st->dropped_pal,
                ev67_pme_npcs(x->pme));
        return;
    }
    const ev67_perf_plan *plan = ev67_perf_get_plan(x->perf);
    const ev67_perf_stats *st = ev67_perf_get_stats(x->perf);
    fprintf(out, "%-14s %-7s %20s %10s %10s\n", "event", "counter", "count", "period", "samples");
    for (unsigned i = 0; i < plan->nevents; i++) {
        uint64_t v = 0;
        ev67_perf_read(x->perf, i, &v);
        fprintf(out, "%-14s PCTR%-3u %20" PRIu64 " %10" PRIu32 " %10" PRIu64 "\n",
                ev67_perf_event_name(x->setup.events[i]), plan->pmc[i], v, ev67_perf_period(x->perf, i),
                st->samples[i]);
    }
}

void ev67_session_print_json(ev67_session *x, FILE *out)
{
    if (x->pme) {
        const ev67_pme_stats *st = ev67_pme_get_stats(x->pme);
        fprintf(out, "{\"profileme\": {\"interrupts\": %" PRIu64 ", \"samples\": %" PRIu64 ", \"dropped_pal\": %" PRIu64
                     ", \"pcs\": %u}",
                st->interrupts, st->samples, st->dropped_pal, ev67_pme_npcs(x->pme));
    } else {
        const ev67_perf_plan *plan = ev67_perf_get_plan(x->perf);
        const ev67_perf_stats *st = ev67_perf_get_stats(x->perf);
        fprintf(out, "{\"events\": [");
        for (unsigned i = 0; i < plan->nevents; i++) {
            uint64_t v = 0;
            ev67_perf_read(x->perf, i, &v);
            fprintf(out, "%s{\"event\": \"%s\", \"counter\": \"PCTR%u\", \"count\": %" PRIu64 ", \"period\": %" PRIu32
                         ", \"samples\": %" PRIu64 "}",
                    i ? ", " : "", ev67_perf_event_name(x->setup.events[i]), plan->pmc[i], v,
                    ev67_perf_period(x->perf, i), st->samples[i]);
        }
        fprintf(out, "]");
    }
    fprintf(out, ", \"interrupts\": %" PRIu64 "}", ev67_session_interrupts(x));
}
