/*
 * setup.c - setups of the 21264/EV67 family (include/cli/ev67/ev67_session.h): the
 * "key = value" settings of a configuration file and of a command's options, one parser
 * for both (docs/ev67-harness.md, "Setups").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/ev67/ev67_regs.h"
#include "cli/ev67/ev67_session.h"
#include "cli/pmu_kvfile.h"
#include "common/pmu_num.h"
#include "common/pmu_text.h"

static const char builtin_text[] =
    "# The built-in setup of the Alpha 21264/EV67 family (docs/ev67-harness.md, \"Setups\"):\n"
    "# the perf driver counting retired instructions and cycles (SL1 = 00), with a sample\n"
    "# every 20000 of each, as `perf record -e instructions,cycles` would ask.\n"
    "mode   = perf\n"
    "events = INSTRUCTIONS/20000, CYCLES/20000\n";

const char *ev67_setup_builtin(void) { return builtin_text; }

void ev67_setup_default(ev67_setup *s)
{
    memset(s, 0, sizeof *s);
    s->pme_period = 1000;
    s->sl1 = 1; /* cycles and the inum retire delay: the row only ProfileMe has */
    pmu_err err;
    ev67_setup_parse(s, builtin_text, sizeof builtin_text - 1, "<built-in setup>", &err);
}

/* events = NAME[/PERIOD], NAME[/PERIOD] */
static int set_events(ev67_setup *s, const char *value, const char *where, pmu_err *err)
{
    ev67_setup t = *s;
    t.nevents = 0;
    char shown[96];
    for (const char *p = value;;) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, ",");
        size_t name_len = strcspn(p, "/,");
        while (name_len && strchr(" \t", p[name_len - 1]))
            name_len--;
        char name[32];
        if (name_len == 0 || name_len >= sizeof name)
            return pmu_errf(err, PMU_E_INPUT, "%s: expected EVENT[/PERIOD] separated by ',', found '%s'",
                            where, pmu_escape(value, (size_t)-1, shown, sizeof shown));
        memcpy(name, p, name_len);
        name[name_len] = 0;
        int id = ev67_perf_event_find(name);
        if (id < 0)
            return pmu_errf(err, PMU_E_INPUT, "%s: unknown event '%s': expected CYCLES, INSTRUCTIONS, "
                            "BCACHEMISS or MBOXREPLAY", where, pmu_escape(name, name_len, shown, sizeof shown));
        if (t.nevents == EV67_PERF_MAX_EVENTS)
            return pmu_errf(err, PMU_E_INPUT, "%s: at most %d events (one per counter)", where, EV67_PERF_MAX_EVENTS);
        uint64_t period = 0;
        if (p[name_len] == '/' || (name_len < n && p[name_len] != ',')) {
            const char *q = p + name_len;
            q += strspn(q, " \t");
            if (*q != '/')
                return pmu_errf(err, PMU_E_INPUT, "%s: expected EVENT[/PERIOD], found '%s'", where,
                                pmu_escape(p, n, shown, sizeof shown));
            q++;
            size_t plen = (size_t)(p + n - q);
            while (plen && strchr(" \t", q[plen - 1]))
                plen--;
            q += strspn(q, " \t");
            plen = (size_t)(p + n - q);
            while (plen && strchr(" \t", q[plen - 1]))
                plen--;
            if (pmu_parse_u64n(q, plen, 0, UINT64_MAX, where, &period, err))
                return -1;
        }
        t.events[t.nevents] = (unsigned)id;
        t.periods[t.nevents++] = period;
        if (!p[n])
            break;
        p += n + 1;
    }
    ev67_perf_plan plan;
    pmu_err perr;
    if (ev67_perf_plan_events(t.events, t.nevents, &plan, &perr))
        return pmu_errf(err, PMU_E_INPUT, "%s: %s", where, perr.msg);
    *s = t;
    return 0;
}

int ev67_setup_set(ev67_setup *s, const char *key, const char *value, const char *where, pmu_err *err)
{
    uint64_t v;
    if (!strcasecmp(key, "model")) {
        int m = ev67_model_find(value);
        if (m < 0)
            return pmu_errf(err, PMU_E_INPUT, "%s: expected %s, found '%s'", where, ev67_model_names[0], value);
        s->model = (unsigned)m;
        s->model_given = 1;
        return 0;
    }
    if (!strcasecmp(key, "mode")) {
        if (!strcasecmp(value, "perf"))
            s->mode = EV67_SETUP_PERF;
        else if (!strcasecmp(value, "profileme"))
            s->mode = EV67_SETUP_PROFILEME;
        else
            return pmu_errf(err, PMU_E_INPUT, "%s: expected perf or profileme, found '%s'", where, value);
        return 0;
    }
    if (!strcasecmp(key, "events"))
        return set_events(s, value, where, err);
    if (!strcasecmp(key, "period")) {
        if (pmu_parse_u64n(value, (size_t)-1, 1, (1u << EV67_CTR0_WIDTH) - 1, where, &v, err))
            return -1;
        s->pme_period = (uint32_t)v;
        return 0;
    }
    if (!strcasecmp(key, "sl1")) {
        if (pmu_parse_u64n(value, (size_t)-1, 0, 3, where, &v, err))
            return -1;
        s->sl1 = (unsigned)v;
        return 0;
    }
    return pmu_errf(err, PMU_E_INPUT, "%s: unknown setting '%s': expected model, mode, events, period or sl1",
                    where, key);
}

static int setup_set(void *ctx, const char *key, const char *value, const char *where, pmu_err *err)
{
    return ev67_setup_set(ctx, key, value, where, err);
}

int ev67_setup_parse(ev67_setup *s, const char *text, size_t len, const char *name, pmu_err *err)
{
    return pmu_kv_parse(text, len, name, setup_set, s, err);
}

/* The Table 5-16 row's description (ev67_regs.def EV67_SEL). */
static const char *sel_name(unsigned mode, unsigned sl1)
{
    for (unsigned i = 0; i < EV67_NSEL; i++)
        if (ev67_sel_table[i].mode == mode && ev67_sel_table[i].sl1 == sl1)
            return ev67_sel_table[i].desc;
    return "?";
}

void ev67_setup_print(const ev67_setup *s, const char *prefix, FILE *out)
{
    if (s->mode == EV67_SETUP_PROFILEME) {
        fprintf(out, "%sProfileMe sampler: an instruction every %" PRIu32 " valid fetched, window inputs SL1=%u (%s)\n",
                prefix, ev67_perf_clamp_period(0, s->pme_period), s->sl1, sel_name(1, s->sl1));
        return;
    }
    ev67_perf_plan plan;
    pmu_err err;
    if (ev67_perf_plan_events(s->events, s->nevents, &plan, &err))
        return;
    fprintf(out, "%sperf driver: SL1=%u (%s)\n", prefix, plan.sl1, sel_name(0, plan.sl1));
    for (unsigned i = 0; i < s->nevents; i++)
        fprintf(out, "%s  %s on PCTR%u, a sample every %" PRIu32 "\n", prefix, ev67_perf_event_name(s->events[i]),
                plan.pmc[i], ev67_perf_clamp_period(plan.pmc[i], s->periods[i]));
}
