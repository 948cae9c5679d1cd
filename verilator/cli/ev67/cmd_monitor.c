/*
 * cmd_monitor.c - the 21264/EV67 family's count/profile hooks (include/cli/pmu_family_cmds.h):
 * the events are the perf driver's (docs/ev67-perf.md), the session runs it on the
 * backend (session.c), and its 64-bit counts are checked against the reference model's
 * totals.  The records carry no process, and the counters count every process, so a
 * session is one system-wide context.  Also `pmusim encode`: what the driver writes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ev67/ev67_regs.h"
#include "harness/ev67/ev67_family.h"
#include "cli/ev67/ev67_session.h"
#include "ev67_cmds_internal.h"

struct pmu_fam_monitor {
    pmu_monitor_request rq;
    ev67_setup setup;
    ev67_session *x;
    pmu_backend *b;
    uint64_t seen[EV67_PERF_MAX_EVENTS]; /* profile: samples passed on */
    char names[EV67_PERF_MAX_EVENTS][8];
    pmu_monitor_counts counts;
    char session[160];
    pmu_record_hooks hooks; /* the session's */
};

#define PERF_EVENTS "CYCLES, INSTRUCTIONS, BCACHEMISS or MBOXREPLAY"
const char ev67_monitor_events[] = PERF_EVENTS ": one, or an allowed pair\n"
                                   "(pmusim encode --family alpha21264 --list); no modifiers;\n"
                                   "the driver: docs/ev67-perf.md";
const char ev67_monitor_period[] = "1..2^20-1 (a 20-bit counter)";

/* The events as a setup. */
static int monitor_setup(const pmu_monitor_request *rq, ev67_setup *s, pmu_err *err)
{
    /* --sample, --pid, --per-process, --irq-latency...: refused before (ev67_refusals, cmds.c) */
    ev67_setup_default(s);
    s->model = rq->model;
    s->mode = EV67_SETUP_PERF;
    s->nevents = 0;
    if (rq->nevents > EV67_PERF_MAX_EVENTS)
        return pmu_errf(err, PMU_E_INPUT, "-e %s: at most %d events (one per counter)", rq->events[EV67_PERF_MAX_EVENTS],
                        EV67_PERF_MAX_EVENTS);
    for (unsigned i = 0; i < rq->nevents; i++) {
        int id = ev67_perf_event_find(rq->events[i]);
        if (id < 0)
            return pmu_errf(err, PMU_E_INPUT, "-e %s: expected " PERF_EVENTS " (the 21264/EV67 perf events, no modifiers)",
                            rq->events[i]);
        s->events[i] = (unsigned)id;
        s->periods[i] = 0; /* counting: the largest period, the fewest interrupts */
    }
    s->nevents = rq->nevents;
    if (rq->period) {
        uint64_t most = ev67_perf_max_period(0);
        if (rq->period > most)
            return pmu_errf(err, PMU_E_INPUT, "--period: expected 1..%" PRIu64 " (a 20-bit counter), found %s", most,
                            rq->period_text ? rq->period_text : "?");
        s->periods[0] = rq->period;
    }
    ev67_perf_plan plan;
    return ev67_perf_plan_events(s->events, s->nevents, &plan, err);
}

pmu_fam_monitor *ev67_monitor_create(const pmu_monitor_request *rq, pmu_err *err)
{
    pmu_fam_monitor *m = calloc(1, sizeof *m);
    if (!m) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    m->rq = *rq;
    if (monitor_setup(rq, &m->setup, err)) {
        err->code = PMU_E_INPUT;
        free(m);
        return NULL;
    }
    ev67_perf_plan plan;
    ev67_perf_plan_events(m->setup.events, m->setup.nevents, &plan, err);
    for (unsigned i = 0; i < rq->nevents; i++) {
        snprintf(m->names[i], sizeof m->names[i], "PCTR%u", plan.pmc[i]);
        m->counts.counter[i] = m->names[i];
    }
    snprintf(m->session, sizeof m->session, "system-wide (I_CTL.SPCE), aggregate mode SL1=%u; %s", plan.sl1,
             rq->period ? "a sample every period (clamped to the legal write range)" : "counting, the largest periods");
    return m;
}

const char *ev67_monitor_session(const pmu_fam_monitor *m) { return m->session; }

static void monitor_before(void *ctx, void *record)
{
    pmu_fam_monitor *m = ctx;
    m->hooks.before(m->hooks.ctx, record);
    if (!m->rq.on_sample)
        return;
    /* The handler ran at this record: each period that elapsed is one sample, at the
     * interrupted record's pc. */
    const ev67_perf_stats *st = ev67_perf_get_stats(ev67_session_perf(m->x));
    for (; m->seen[0] < st->samples[0]; m->seen[0]++)
        m->rq.on_sample(m->rq.sample_arg, st->last_pc[0]);
}

static void monitor_after(void *ctx, const void *record, const pmu_state *st)
{
    pmu_fam_monitor *m = ctx;
    m->hooks.after(m->hooks.ctx, record, st);
}

int ev67_monitor_start(pmu_fam_monitor *m, pmu_backend *b, pmu_record_hooks *hooks, pmu_err *err)
{
    if (!(m->x = ev67_session_start(&m->setup, b, err)))
        return -1;
    m->b = b;
    m->hooks = ev67_session_hooks(m->x);
    *hooks = (pmu_record_hooks){.ctx = m, .before = monitor_before, .after = monitor_after};
    return 0;
}

const pmu_monitor_counts *ev67_monitor_finish(pmu_fam_monitor *m)
{
    pmu_monitor_counts *c = &m->counts;
    ev67_perf *d = ev67_session_perf(m->x);
    for (unsigned i = 0; i < m->rq.nevents; i++)
        ev67_perf_read(d, i, &c->total[i]);
    c->ncontexts = 0;
    c->one_context = 1;
    c->interrupts = ev67_perf_get_stats(d)->interrupts;
    return c;
}

int ev67_monitor_check(pmu_fam_monitor *m, FILE *out) { return ev67_session_check(m->x, 1, out); }

void ev67_monitor_free(pmu_fam_monitor *m)
{
    if (!m)
        return;
    ev67_session_free(m->x);
    free(m);
}

/* ---- encode: what the perf driver programs for the events ---- */

typedef struct encode_opts {
    pmu_cli_target t;
    const char *events[PMU_MONITOR_MAX_EVENTS];
    unsigned nevents;
    uint64_t period;
    int period_given, list, json;
} encode_opts;

static void encode_help(FILE *f)
{
    fprintf(f, "usage: pmusim encode --family alpha21264 -e EVENT [-e EVENT] [--period N] [--json]\n"
               "       pmusim encode --family alpha21264 --list [--json]\n"
               "\n"
               "  -e, --event EV     CYCLES, INSTRUCTIONS, BCACHEMISS or MBOXREPLAY: one event or an\n"
               "                     allowed pair (docs/ev67-perf.md)\n"
               "  --period N         the first event's sampling period (default: the largest);\n"
               "                     clamped to the counter's legal write range\n"
               "  --list             the events and the counters they may use\n"
               "  --json             one JSON object (docs/json.md)\n"
               "\n"
               "Prints the registers the perf driver writes last when it sets the events up\n"
               "(PCTR_CTL, IER_CM, I_CTL), read back from a reference model it programmed.\n");
    pmu_cli_target_help(f, NULL, &pmu_family_alpha21264, 0);
}

static int encode_event(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *o = ctx;
    if (o->nevents == PMU_MONITOR_MAX_EVENTS)
        return pmu_errf(err, PMU_E_INPUT, "%s %s: at most %d events", opt, val, PMU_MONITOR_MAX_EVENTS);
    o->events[o->nevents++] = val;
    return 0;
}

int ev67_cmd_encode(int argc, char **argv, FILE *out, FILE *errf)
{
    const pmu_cli_cmd cmd = {.name = "encode", .help = encode_help, .out = out, .err = errf};
    encode_opts o;
    memset(&o, 0, sizeof o);
    pmu_opt opts[8];
    unsigned n = pmu_cli_target_opts(&o.t, 0, opts);
    opts[n++] = (pmu_opt){.name = "event", .key = 'e', .kind = PMU_OPT_CALL, .call = encode_event, .ctx = &o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "period", .kind = PMU_OPT_U64, .dest = &o.period, .min = 1,
                          .max = ev67_perf_max_period(0), .given = &o.period_given};
    opts[n++] = (pmu_opt){.name = "list", .kind = PMU_OPT_FLAG, .dest = &o.list};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &o.json};
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&cmd, opts, n, argc, argv, args, &nargs);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    if ((rc = pmu_cli_target_resolve(&cmd, &o.t)))
        return rc;
    if (o.list) {
        if (o.json)
            fprintf(out, "{\"events\": [");
        for (unsigned id = 1; id <= EV67_PERF_NEVENT_IDS; id++) {
            ev67_perf_plan plan;
            pmu_err err;
            ev67_perf_plan_events(&id, 1, &plan, &err);
            if (o.json)
                fprintf(out, "%s\n  {\"name\": \"%s\", \"counter\": \"PCTR%u\", \"sl1\": %u}", id > 1 ? "," : "",
                        ev67_perf_event_name(id), plan.pmc[0], plan.sl1);
            else
                fprintf(out, "%-13s PCTR%u alone (SL1=%u)\n", ev67_perf_event_name(id), plan.pmc[0], plan.sl1);
        }
        /* The driver's allowed pairs, each with the SL1 its plan sets. */
        fprintf(out, o.json ? "],\n \"pairs\": [" : "pairs:");
        unsigned ids[EV67_NCOUNTERS];
        for (unsigned i = 0; ev67_perf_pair(i, ids); i++) {
            ev67_perf_plan plan;
            pmu_err err;
            if (ev67_perf_plan_events(ids, EV67_NCOUNTERS, &plan, &err))
                return pmu_cli_error(&cmd, &err); /* the .def has no SL1 row for a listed pair */
            const char *a = ev67_perf_event_name(ids[0]), *b = ev67_perf_event_name(ids[1]);
            if (o.json)
                fprintf(out, "%s\n  {\"pctr0\": \"%s\", \"pctr1\": \"%s\", \"sl1\": %u}", i ? "," : "", a, b, plan.sl1);
            else
                fprintf(out, "%s %s+%s (SL1=%u)", i ? "," : "", a, b, plan.sl1);
        }
        fprintf(out, o.json ? "]}\n" : "\n");
        return PMU_EXIT_OK;
    }
    if (!o.nevents)
        return pmu_cli_usage(&cmd, "expected at least one -e EVENT (pmusim encode --family alpha21264 --list lists them)");
    pmu_monitor_request rq = {.model = o.t.model, .nevents = o.nevents, .period = o.period};
    memcpy(rq.events, o.events, sizeof o.events);
    ev67_setup s;
    pmu_err err;
    if (monitor_setup(&rq, &s, &err))
        return pmu_cli_fail(&cmd, PMU_EXIT_USAGE, "%s", err.msg);
    pmu_backend *b = o.t.fam->ref_create(o.t.model, &err);
    ev67_session *x = b ? ev67_session_start(&s, b, &err) : NULL;
    if (!x) {
        pmu_destroy(b);
        return pmu_cli_error(&cmd, &err);
    }
    static const struct { const char *name; uint16_t addr; } regs[] = {
        {"PCTR_CTL", EV67_ADDR_PCTR_CTL}, {"IER_CM", EV67_ADDR_IER_CM}, {"I_CTL", EV67_ADDR_I_CTL}};
    const unsigned nregs = sizeof regs / sizeof regs[0];
    if (o.json) {
        /* The registers as encode --json writes them on the Itanium (docs/json.md). */
        ev67_perf_plan plan;
        ev67_perf_plan_events(s.events, s.nevents, &plan, &err);
        fprintf(out, "{\"model\": \"%s\", \"sl1\": %u, \"events\": [", o.t.fam->models[o.t.model].name, plan.sl1);
        for (unsigned i = 0; i < s.nevents; i++)
            fprintf(out, "%s{\"event\": \"%s\", \"counter\": \"PCTR%u\", \"period\": %" PRIu32 "}", i ? ", " : "",
                    ev67_perf_event_name(s.events[i]), plan.pmc[i], ev67_perf_clamp_period(plan.pmc[i], s.periods[i]));
        fprintf(out, "],\n  \"registers\": [");
        for (unsigned i = 0; i < nregs; i++)
            fprintf(out, "%s\n    {\"name\": \"%s\", \"addr\": \"0x%03x\", \"value\": \"0x%016" PRIx64 "\"}", i ? "," : "",
                    regs[i].name, regs[i].addr, pmu_read(b, regs[i].addr));
        fprintf(out, "]}\n");
    } else {
        ev67_setup_print(&s, "# ", out);
        for (unsigned i = 0; i < nregs; i++)
            fprintf(out, "%-8s = 0x%016" PRIx64 "\n", regs[i].name, pmu_read(b, regs[i].addr));
    }
    ev67_session_free(x);
    pmu_destroy(b);
    return PMU_EXIT_OK;
}
