/*
 * setup.c - pfm setups of the 21064 family (include/cli/ev4/ev4_session.h): the "key = value"
 * settings of a configuration file and of `pmusim pfm`'s options, one parser for both
 * (docs/ev4-pfm.md, "Setups").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sw/ev4/ev4_pfcntr_sw.h"
#include "common/ev4/ev4_regs.h"
#include "cli/ev4/ev4_session.h"
#include "stream/ev4/ev4_stream.h"
#include "cli/pmu_kvfile.h"
#include "common/pmu_num.h"
#include "common/pmu_text.h"

static const char builtin_text[] =
    "# The built-in pfm setup of the Alpha 21064 family (docs/ev4-pfm.md, \"Setups\"):\n"
    "# what kprofile(1) would ask: every CPU, every process, the counts, the IPL\n"
    "# histogram and a kernel PC profile at each tick.\n"
    "open    = all\n"
    "log     = all\n"
    "mux0    = PF_ISSUES\n"
    "period0 = 4096\n"
    "mux1    = PF_DCACHE\n"
    "period1 = 256\n"
    "items   = counters,ipl,profiling\n"
    "# the generated workload's kernel text (docs/ev4-stream.md), so that a stream file\n"
    "# without symbols is profiled too\n"
    "profile = kernel 0xfffffc0000230000 0xfffffc0000270000\n";

const char *ev4_setup_builtin(void) { return builtin_text; }

void ev4_setup_default(ev4_setup *s)
{
    memset(s, 0, sizeof *s);
    s->caller = EV4_GEN_SHELL_PID(0);
    s->bind = -1;
    s->items = PFM_COUNTERS;
    s->enable = 1;
    pmu_err err;
    ev4_setup_parse(s, builtin_text, sizeof builtin_text - 1, "<built-in setup>", &err);
}

uint64_t ev4_setup_period(const ev4_setup *s, unsigned n)
{
    return (uint64_t)1 << ev4_period_log2(n, s->pc[n]);
}

static int set_mux(ev4_setup *s, unsigned n, const char *value, const char *where, pmu_err *err)
{
    const ev4_mux_desc *m = ev4_mux_find(value);
    uint64_t code;
    if (m && m->counter == n) {
        s->mux[n] = m->code;
        return 0;
    }
    if (!m && pmu_parse_u64n(value, (size_t)-1, 0, n == 0 ? 15 : 7, where, &code, err) == 0) {
        s->mux[n] = (unsigned)code; /* a raw code, undefined ones included (docs/ev4.md) */
        return 0;
    }
    char names[512] = "";
    for (unsigned i = 0; i < EV4_NMUX; i++)
        if (ev4_mux_table[i].counter == n)
            pmu_text_appendf(names, sizeof names, "%s%s", names[0] ? ", " : "", ev4_mux_table[i].name);
    if (m)
        return pmu_errf(err, PMU_E_INPUT, "%s: %s is an event of counter %u; counter %u counts %s",
                        where, m->name, m->counter, n, names);
    return pmu_errf(err, PMU_E_INPUT, "%s: expected one of %s or a code 0..%u, found '%s'", where,
                    names, n == 0 ? 15 : 7, value);
}

static int set_period(ev4_setup *s, unsigned n, const char *value, const char *where, pmu_err *err)
{
    uint64_t v;
    uint64_t lng = (uint64_t)1 << ev4_period_log2(n, 0), shrt = (uint64_t)1 << ev4_period_log2(n, 1);
    if (pmu_parse_u64n(value, (size_t)-1, 0, UINT64_MAX, where, &v, err) == 0 && (v == lng || v == shrt)) {
        s->pc[n] = v == shrt;
        return 0;
    }
    return pmu_errf(err, PMU_E_INPUT, "%s: expected %" PRIu64 " or %" PRIu64 " (counter %u's periods), found '%s'",
                    where, lng, shrt, n, value);
}

static int set_items(ev4_setup *s, const char *value, const char *where, pmu_err *err)
{
    static const struct { const char *name; unsigned bit; } items[] = {
        {"counters", PFM_COUNTERS}, {"ipl", PFM_IPL}, {"profiling", PFM_PROFILING}};
    unsigned bits = 0;
    const char *p = value;
    while (*p) {
        size_t n = strcspn(p, ",+");
        unsigned i;
        for (i = 0; i < 3 && !pmu_text_ieq(p, n, items[i].name); i++)
            ;
        if (i == 3) {
            char shown[64];
            return pmu_errf(err, PMU_E_INPUT, "%s: expected items counters, ipl and profiling joined by ',', found '%s'",
                            where, pmu_escape(p, n, shown, sizeof shown));
        }
        bits |= items[i].bit;
        p += n + (p[n] != 0);
    }
    if (!bits)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected at least one of counters, ipl, profiling", where);
    s->items = bits;
    return 0;
}

/* profile = none | kernel | user [START END] */
static int set_profile(ev4_setup *s, const char *value, const char *where, pmu_err *err)
{
    char mode[16];
    char a[40], b[40];
    int n = sscanf(value, "%15s %39s %39s", mode, a, b);
    if (n >= 1 && strcasecmp(mode, "none") == 0 && n == 1) {
        s->prof = EV4_PROF_NONE;
        return 0;
    }
    if (n == 1 || n == 3) {
        ev4_prof_mode m = strcasecmp(mode, "kernel") == 0 ? EV4_PROF_KERNEL
                          : strcasecmp(mode, "user") == 0 ? EV4_PROF_USER : EV4_PROF_NONE;
        if (m != EV4_PROF_NONE) {
            uint64_t start = 0, end = 0;
            if (n == 3 && (pmu_parse_u64n(a, (size_t)-1, 0, UINT64_MAX, where, &start, err) ||
                           pmu_parse_u64n(b, (size_t)-1, 0, UINT64_MAX, where, &end, err)))
                return -1;
            if (n == 3 && start >= end)
                return pmu_errf(err, PMU_E_INPUT, "%s: expected START < END, found %s %s", where, a, b);
            /* One bucket per four instructions: PCNTSETKADDR/PCNTSETUADDR refuse an unaligned
             * START or END with EINVAL (docs/ev4-pfm.md, ioctls), and so does the setup. */
            if (n == 3 && (start % 16 || end % 16))
                return pmu_errf(err, PMU_E_INPUT,
                                "%s: %s %s: expected a multiple of 16 (PCNTSET%cADDR refuses an unaligned range with "
                                "EINVAL)",
                                where, start % 16 ? "START" : "END", start % 16 ? a : b,
                                m == EV4_PROF_KERNEL ? 'K' : 'U');
            s->prof = m;
            s->prof_start = start;
            s->prof_end = end;
            return 0;
        }
    }
    char shown[96];
    return pmu_errf(err, PMU_E_INPUT, "%s: expected none, kernel or user, optionally followed by START END, found '%s'",
                    where, pmu_escape(value, (size_t)-1, shown, sizeof shown));
}

static int set_choice(int *dest, const char *value, const char *a, const char *b, const char *where, pmu_err *err)
{
    if (strcasecmp(value, a) == 0 || strcasecmp(value, b) == 0) {
        *dest = strcasecmp(value, b) == 0;
        return 0;
    }
    char shown[64];
    return pmu_errf(err, PMU_E_INPUT, "%s: expected %s or %s, found '%s'", where, a, b,
                    pmu_escape(value, (size_t)-1, shown, sizeof shown));
}

int ev4_setup_set(ev4_setup *s, const char *key, const char *value, const char *where, pmu_err *err)
{
    uint64_t v;
    int flag;
    if (!strcasecmp(key, "mux0") || !strcasecmp(key, "mux1"))
        return set_mux(s, key[3] - '0', value, where, err);
    if (!strcasecmp(key, "period0") || !strcasecmp(key, "period1"))
        return set_period(s, key[6] - '0', value, where, err);
    if (!strcasecmp(key, "model")) {
        int m = ev4_model_find(value);
        if (m < 0)
            return pmu_errf(err, PMU_E_INPUT, "%s: expected %s or %s, found '%s'", where,
                            ev4_model_names[0], ev4_model_names[1], value);
        s->model = (unsigned)m;
        s->model_given = 1;
        return 0;
    }
    if (!strcasecmp(key, "items"))
        return set_items(s, value, where, err);
    if (!strcasecmp(key, "profile"))
        return set_profile(s, value, where, err);
    if (!strcasecmp(key, "open")) {
        static const char *const modes[] = {"all", "each", "one"};
        for (unsigned i = 0; i < 3; i++)
            if (!strcasecmp(value, modes[i])) {
                s->open = (ev4_open_mode)i;
                return 0;
            }
        return pmu_errf(err, PMU_E_INPUT, "%s: expected all, each or one, found '%s'", where, value);
    }
    if (!strcasecmp(key, "log")) {
        if (set_choice(&flag, value, "all", "select", where, err))
            return -1;
        s->log_select = flag;
        return 0;
    }
    if (!strcasecmp(key, "enable")) {
        if (set_choice(&flag, value, "no", "yes", where, err))
            return -1;
        s->enable = flag;
        return 0;
    }
    if (!strcasecmp(key, "disable")) {
        if (pmu_parse_u64n(value, (size_t)-1, 0, 3, where, &v, err))
            return -1;
        s->disable = (unsigned)v; /* 3 reaches the driver, which refuses it (pfm(7)) */
        return 0;
    }
    if (!strcasecmp(key, "caller")) {
        if (pmu_parse_u64n(value, (size_t)-1, 1, EV4_MAX_PID, where, &v, err))
            return -1;
        s->caller = (uint32_t)v;
        s->caller_given = 1;
        return 0;
    }
    if (!strcasecmp(key, "bind")) {
        if (!strcasecmp(value, "none"))
            s->bind = -1;
        else if (pmu_parse_u64n(value, (size_t)-1, 0, EV4_MAX_CPUS - 1, where, &v, err))
            return -1;
        else
            s->bind = (int)v;
        /* The tool runs as the shell of the CPU it is bound to: in the generated workload
         * each CPU's processes run only there (docs/ev4-stream.md), so CPU 0's shell
         * bound to CPU 1 would break the OS model's rules at its next record. */
        if (!s->caller_given)
            s->caller = EV4_GEN_SHELL_PID(s->bind < 0 ? 0 : (unsigned)s->bind);
        return 0;
    }
    if (!strcasecmp(key, "memlimit")) {
        if (pmu_parse_u64n(value, (size_t)-1, 1, UINT64_MAX, where, &v, err))
            return -1;
        s->mem_limit = v;
        return 0;
    }
    return pmu_errf(err, PMU_E_INPUT,
                    "%s: unknown setting '%s': expected model, open, caller, bind, mux0, mux1, period0, "
                    "period1, disable, items, log, profile, memlimit or enable", where, key);
}

static int setup_set(void *ctx, const char *key, const char *value, const char *where, pmu_err *err)
{
    return ev4_setup_set(ctx, key, value, where, err);
}

/* "key = value" lines (include/cli/pmu_kvfile.h). */
int ev4_setup_parse(ev4_setup *s, const char *text, size_t len, const char *name, pmu_err *err)
{
    return pmu_kv_parse(text, len, name, setup_set, s, err);
}

int ev4_setup_check(const ev4_setup *s, unsigned ncpus, const char *where, pmu_err *err)
{
    if (s->bind >= (int)ncpus)
        return pmu_errf(err, PMU_E_INPUT, "%s: bind = %d: the system has %u CPU%s", where, s->bind,
                        ncpus, ncpus == 1 ? "" : "s");
    if ((s->items & PFM_PROFILING) && s->prof == EV4_PROF_NONE)
        return pmu_errf(err, PMU_E_INPUT, "%s: items has profiling: expected profile = kernel or user", where);
    if (!(s->items & PFM_PROFILING) && s->prof != EV4_PROF_NONE)
        return pmu_errf(err, PMU_E_INPUT, "%s: profile = %s: expected profiling among the items",
                        where, s->prof == EV4_PROF_KERNEL ? "kernel" : "user");
    return 0;
}

static const char *mux_name(unsigned n, unsigned code)
{
    const ev4_mux_desc *m = ev4_mux_lookup(n, code);
    return m ? m->name : "undefined code";
}

void ev4_setup_print(const ev4_setup *s, const char *prefix, FILE *out)
{
    static const char *const opens[] = {"all (every CPU, aggregated)", "each (every CPU, kept apart)",
                                        "one (the caller's CPU)"};
    fprintf(out, "%sopen %s by pid %" PRIu32 "%s; log %s\n", prefix, opens[s->open], s->caller,
            s->bind >= 0 ? " (bound)" : "", s->log_select ? "select (PCB PME bit)" : "all");
    for (unsigned n = 0; n < 2; n++)
        fprintf(out, "%scounter %u: %s (mux%u 0x%x), an interrupt every %" PRIu64 " events%s\n", prefix, n,
                mux_name(n, s->mux[n]), n, s->mux[n], ev4_setup_period(s, n),
                (s->disable >> n) & 1 ? ", disabled in the driver" : "");
    fprintf(out, "%sitems:%s%s%s", prefix, (s->items & PFM_COUNTERS) ? " counters" : "",
            (s->items & PFM_IPL) ? " ipl" : "", (s->items & PFM_PROFILING) ? " profiling" : "");
    if (s->prof != EV4_PROF_NONE) {
        fprintf(out, " (%s mode", s->prof == EV4_PROF_KERNEL ? "kernel" : "user");
        if (s->prof_end)
            fprintf(out, ", 0x%" PRIx64 "..0x%" PRIx64, s->prof_start, s->prof_end);
        fprintf(out, ")");
    }
    fprintf(out, "\n");
}
