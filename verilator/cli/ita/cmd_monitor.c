/*
 * cmd_monitor.c - the Itanium family's count/profile hooks (include/cli/pmu_family_cmds.h):
 * events through the event library (include/sw/ita/ita_evlib.h) become the overflow driver's
 * configuration (include/sw/ita/ita_drv.h, docs/ita-driver.md); the driver runs on the backend
 * while the reference's exact totals are kept per process for the check.  The same
 * session serves `pmusim conform --service driver` (cmd_conform.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds_internal.h"
#include "common/ita/ita_events.h"
#include "sw/ita/ita_evlib.h"
#include "harness/pmu_cosim.h"

#define NPIDS 0x10000u

/* ---- the driver session ------------------------------------------------------------------ */

static void session_before(void *ctx, void *record)
{
    ita_session *s = ctx;
    ita_drv_before_step(s->d, record);
    for (unsigned k = 0; s->has_total && k < ITA_NCOUNTERS; k++)
        s->before[k] = pmu_total(s->b, ITA_FIRST_COUNTER + k);
}

static void session_after(void *ctx, const void *record, const pmu_state *st)
{
    ita_session *s = ctx;
    const ita_cycle *c = record;
    s->ran[c->pid] = 1;
    for (unsigned k = 0; s->has_total && k < ITA_NCOUNTERS; k++)
        s->truth[c->pid][k] += pmu_total(s->b, ITA_FIRST_COUNTER + k) - s->before[k];
    ita_drv_after_step(s->d, c, st->pmi);
}

int ita_session_start(ita_session *s, pmu_backend *b, const ita_drv_opts *o,
                      const uint16_t *pids, unsigned npids, pmu_record_hooks *hooks, pmu_err *err)
{
    memset(s, 0, sizeof *s);
    s->b = b;
    s->has_total = pmu_has_total(b);
    s->truth = calloc(NPIDS, sizeof *s->truth);
    s->ran = calloc(NPIDS, 1);
    if (!s->truth || !s->ran) {
        ita_session_free(s);
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    }
    if (!(s->d = ita_drv_create(b, o, err))) {
        ita_session_free(s);
        return -1;
    }
    for (unsigned k = 0; k < npids; k++)
        if (ita_drv_attach(s->d, pids[k], NULL, err) != 0) {
            ita_session_free(s);
            return -1;
        }
    *hooks = (pmu_record_hooks){.ctx = s, .before = session_before, .after = session_after};
    return 0;
}

int ita_session_check(const ita_session *s, unsigned used, int say_exact, FILE *out)
{
    if (!s->has_total)
        return 1;
    unsigned bad = 0;
    char first[256] = "";
    uint64_t v;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        if (!(used >> k & 1u))
            continue;
        if (ita_drv_read(s->d, ITA_DRV_ALL_PIDS, k, &v) == 0) {
            uint64_t want = pmu_total(s->b, ITA_FIRST_COUNTER + k);
            if (v != want && !bad++)
                snprintf(first, sizeof first, "PMD%u: %" PRIu64 " != reference total %" PRIu64,
                         ITA_FIRST_COUNTER + k, v, want);
            continue;
        }
        for (uint32_t pid = 0; pid < NPIDS; pid++) {
            if (!s->ran[pid])
                continue;
            uint64_t want = s->truth[pid][k];
            if (ita_drv_read(s->d, pid, k, &v) != 0)
                v = 0; /* not monitored: nothing may have counted in its time */
            if (v != want && !bad++)
                snprintf(first, sizeof first, "pid %u PMD%u: %" PRIu64 " != reference total %" PRIu64,
                         pid, ITA_FIRST_COUNTER + k, v, want);
        }
    }
    if (bad) {
        fprintf(out, "exact: NO, %u counts differ from the reference's; first: %s\n", bad, first);
        return 0;
    }
    if (say_exact)
        pmu_cosim_say_exact(out, s->b, "the 64-bit counts equal the reference's exact %s totals",
                            ita_drv_read(s->d, ITA_DRV_ALL_PIDS, 0, &v) == 0 ? "event" : "per-process");
    return 1;
}

void ita_session_free(ita_session *s)
{
    ita_drv_destroy(s->d);
    free(s->truth);
    free(s->ran);
    memset(s, 0, sizeof *s);
}

/* ---- count and profile ----------------------------------------------------------------- */

struct pmu_fam_monitor {
    pmu_monitor_request rq;
    ita_drv_config cfg;
    unsigned counter[ITA_EVLIB_MAX_EVENTS]; /* 0..3: PMC4..7 of event i */
    ita_session s;
    int started;
    char names[ITA_EVLIB_MAX_EVENTS][8];
    pmu_monitor_counts counts;
    uint32_t *pids;
    uint64_t *rows;
    char unit_event[128];  /* --sample: the counter event that counts the unit's captures */
    uint64_t unit_pmc;     /* --sample: the unit's configuration register, for decoding */
};

/* The events as a driver configuration, through the event library. */
static int events_config(pmu_fam_monitor *m, pmu_err *err)
{
    const pmu_monitor_request *rq = &m->rq;
    if (rq->nevents > ITA_EVLIB_MAX_EVENTS)
        return pmu_errf(err, PMU_E_INPUT, "-e %s: at most %d events (one per counter PMC4..7)",
                        rq->events[ITA_EVLIB_MAX_EVENTS], ITA_EVLIB_MAX_EVENTS);
    ita_evlib_request lrq = ita_evlib_request_init((ita_model)rq->model);
    ita_evlib_error lerr;
    for (unsigned i = 0; i < rq->nevents; i++) {
        if (ita_evlib_parse_event_model(rq->events[i], lrq.model, &lrq.events[i], &lerr) != ITA_EVLIB_OK)
            return pmu_errf(err, PMU_E_INPUT, "-e %s: %s", rq->events[i], lerr.msg);
        lrq.events[i].pm = rq->system_wide != 0;
    }
    lrq.nevents = rq->nevents;
    ita_evlib_dispatch dp;
    if (ita_evlib_dispatch_request(&lrq, &dp, &lerr) != ITA_EVLIB_OK)
        return pmu_errf(err, PMU_E_INPUT, "%s", lerr.msg);
    if (dp.nwrites > ITA_DRV_MAX_REGS)
        return pmu_errf(err, PMU_E_INPUT, "the events need more than %d registers", ITA_DRV_MAX_REGS);
    memset(&m->cfg, 0, sizeof m->cfg);
    for (unsigned w = 0; w < dp.nwrites; w++)
        m->cfg.reg[m->cfg.nregs++] = (ita_drv_reg){dp.writes[w].addr, dp.writes[w].value};
    for (unsigned i = 0; i < rq->nevents; i++) {
        m->counter[i] = dp.counter[i] - ITA_FIRST_COUNTER;
        snprintf(m->names[i], sizeof m->names[i], "PMD%u", dp.counter[i]);
        m->counts.counter[i] = m->names[i];
    }
    return 0;
}

pmu_fam_monitor *ita_monitor_create(const pmu_monitor_request *rq, pmu_err *err)
{
    pmu_fam_monitor *m = calloc(1, sizeof *m);
    if (!m) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    m->rq = *rq;
    unsigned width = ita_counter_width((ita_model)rq->model);
    if (rq->period > (UINT64_C(1) << width)) {
        pmu_errf(err, PMU_E_INPUT, "--period: expected 1..2^%u (the counter width of %s), found %s",
                 width, rq->model == ITA_MODEL_ITANIUM ? "Itanium" : "Itanium 2",
                 rq->period_text ? rq->period_text : "?");
        free(m);
        return NULL;
    }
    const ita_event_row *unit = NULL;
    if (rq->sample_unit) {
        if (ita_sample_unit_resolve(rq->model, rq->sample_unit, m->unit_event, sizeof m->unit_event, &unit, err)) {
            free(m);
            return NULL;
        }
        m->rq.events[0] = m->unit_event;
        m->rq.nevents = 1;
    }
    if (events_config(m, err) ||
        (unit && ita_sample_unit_program(rq->model, unit, rq->system_wide != 0, &m->cfg, m->counter[0],
                                         &m->unit_pmc, err))) {
        free(m);
        return NULL;
    }
    m->cfg.period[m->counter[0]] = rq->period;
    return m;
}

const char *ita_monitor_session(const pmu_fam_monitor *m)
{
    if (m->rq.system_wide)
        return m->rq.handlers
                   ? "system-wide (pm=1, PSR.pp; DCR.pp=1: interruption handlers count)"
                   : "system-wide (pm=1, PSR.pp; DCR.pp=0: interruption handlers do not count)";
    return m->rq.npids ? "per-process user monitors (pm=0, PSR.up) of the listed processes"
                       : "per-process user monitors (pm=0, PSR.up) of every process";
}

static void on_sample(void *arg, const ita_drv_sample *smp)
{
    const pmu_fam_monitor *m = arg;
    if (m->rq.on_capture && smp->capture != ITA_DRV_CAPTURE_NONE) {
        pmu_monitor_capture c;
        ita_capture_format(m->rq.model, m->unit_pmc, smp, &c);
        m->rq.on_capture(m->rq.sample_arg, &c);
        return;
    }
    if (m->rq.on_sample)
        m->rq.on_sample(m->rq.sample_arg, smp->ip);
}

int ita_monitor_start(pmu_fam_monitor *m, pmu_backend *b, pmu_record_hooks *hooks, pmu_err *err)
{
    const pmu_monitor_request *rq = &m->rq;
    ita_drv_opts o = ita_drv_opts_default();
    o.mode = rq->system_wide ? ITA_DRV_SYSTEM_WIDE : ITA_DRV_PER_PROCESS;
    o.dcr_pp = rq->handlers;
    o.per_process = rq->system_wide && rq->per_process;
    o.every_process = !rq->system_wide && rq->npids == 0;
    o.latency = rq->latency;
    o.config = m->cfg;
    if (rq->on_sample || rq->on_capture) {
        o.on_sample = on_sample;
        o.sample_arg = m;
    }
    if (ita_session_start(&m->s, b, &o, rq->pids, rq->npids, hooks, err))
        return -1;
    m->started = 1;
    return 0;
}

static int by_pid(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

const pmu_monitor_counts *ita_monitor_finish(pmu_fam_monitor *m)
{
    ita_drv *d = m->s.d;
    pmu_monitor_counts *c = &m->counts;
    ita_drv_stop(d);
    unsigned n = ita_drv_ncontexts(d), ne = m->rq.nevents;
    m->pids = calloc(n ? n : 1, sizeof *m->pids);
    m->rows = calloc(n && ne ? (size_t)n * ne : 1, sizeof *m->rows);
    if (!m->pids || !m->rows)
        n = 0; /* the totals stay; the rows are lost */
    for (unsigned i = 0; i < n; i++)
        m->pids[i] = ita_drv_context_pid(d, i);
    if (n)
        qsort(m->pids, n, sizeof *m->pids, by_pid);
    for (unsigned p = 0; p < n; p++)
        for (unsigned i = 0; i < ne; i++)
            if (ita_drv_read(d, m->pids[p], m->counter[i], &m->rows[(size_t)p * ne + i]) != 0)
                m->rows[(size_t)p * ne + i] = 0;
    for (unsigned i = 0; i < ne; i++)
        c->total[i] = ita_drv_total(d, m->counter[i]);
    uint64_t v;
    c->ncontexts = n;
    c->one_context = ne && ita_drv_read(d, ITA_DRV_ALL_PIDS, m->counter[0], &v) == 0;
    c->pid = m->pids;
    c->count = m->rows;
    const ita_drv_stats *st = ita_drv_get_stats(d);
    c->switches = st->switches;
    c->interrupts = st->interrupts;
    return c;
}

int ita_monitor_check(pmu_fam_monitor *m, FILE *out)
{
    unsigned used = 0;
    for (unsigned i = 0; i < m->rq.nevents; i++)
        used |= 1u << m->counter[i];
    return ita_session_check(&m->s, used, 1, out);
}

void ita_monitor_free(pmu_fam_monitor *m)
{
    if (!m)
        return;
    if (m->started)
        ita_session_free(&m->s);
    free(m->pids);
    free(m->rows);
    free(m);
}
