/*
 * drv_cli.c - what `pmusim count` and `pmusim profile` share (cmds.h): the stream,
 * backend and session options, events through the event library, and the run loop,
 * which also keeps the reference's exact per-process totals for the check.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmds.h"
#include "pmu_cosim.h"
#include "ita/ita_family.h"
#include "ita/pmu_ref.h"
#include "ita/pmu_rtl.h"

#define NPIDS 0x10000u

void drv_cli_init(drv_cli *o, const char *cmd)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->seed = 1;
    o->cycles = 1000000;
    o->mode = PMU_GEN_WORKLOAD;
    o->backend = DRV_CLI_COSIM;
    o->model = PMU_MODEL_ITANIUM2;
    o->dcr_pp = 1;
    o->latency = PMU_DRV_DEFAULT_LATENCY;
}

int drv_cli_usage(const drv_cli *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "pmusim %s: ", o->cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return DRV_CLI_EXIT_USAGE;
}

const char *drv_cli_value(const drv_cli *o, const char *name, const char *inline_val, int argc,
                          char **argv, int *i)
{
    if (inline_val)
        return inline_val;
    if (*i + 1 >= argc) {
        drv_cli_usage(o, "%s: expected a value", name);
        return NULL;
    }
    return argv[++*i];
}

int drv_cli_number(const drv_cli *o, const char *opt, const char *s, uint64_t min, uint64_t max,
                   uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') {
        drv_cli_usage(o, "%s: expected a number, found '%s'", opt, s ? s : "");
        return -1;
    }
    errno = 0;
    char *end;
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end || end == s) {
        drv_cli_usage(o, "%s: expected a number (decimal or 0x hex), found '%s'", opt, s);
        return -1;
    }
    if (v < min || v > max) {
        drv_cli_usage(o, "%s: expected %" PRIu64 "..%" PRIu64 ", found %s", opt, min, max, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_pids(drv_cli *o, const char *val)
{
    const char *p = val;
    if (!*p)
        return drv_cli_usage(o, "--pid: expected a process id or a comma-separated list, found ''");
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char item[32];
        if (n == 0 || n >= sizeof item)
            return drv_cli_usage(o, "--pid: expected process ids 0..65535 separated by commas, found '%s'",
                                 val);
        memcpy(item, p, n);
        item[n] = '\0';
        uint64_t v;
        if (drv_cli_number(o, "--pid", item, 0, 65535, &v))
            return DRV_CLI_EXIT_USAGE;
        for (unsigned k = 0; k < o->npids; k++)
            if (o->pid[k] == v)
                return drv_cli_usage(o, "--pid: process %s listed twice", item);
        if (o->npids == DRV_CLI_MAX_PIDS)
            return drv_cli_usage(o, "--pid: at most %d processes", DRV_CLI_MAX_PIDS);
        o->pid[o->npids++] = (uint16_t)v;
        p += n;
        if (*p == ',' && !*++p)
            return drv_cli_usage(o, "--pid: trailing ',' in '%s'", val);
    }
    return 0;
}

int drv_cli_option(drv_cli *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    char name[32];
    const char *inline_val = NULL;
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    if (eq) {
        snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
        inline_val = eq + 1;
    } else {
        snprintf(name, sizeof name, "%s", arg);
    }

    /* flags */
    if (!strcmp(name, "--per-process") || !strcmp(name, "--system-wide")) {
        if (inline_val) {
            drv_cli_usage(o, "%s: takes no value", name);
            return -1;
        }
        if (name[2] == 'p')
            o->per_process = 1;
        else
            o->system_wide = 1;
        return 1;
    }
    static const char *const valued[] = {"-e",      "--event",  "--stream", "--seed",
                                         "--cycles", "--mode",  "--procs",  "--backend",
                                         "--model",  "--pid",   "--dcr-pp", "--irq-latency"};
    int known = 0;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
        known |= !strcmp(name, valued[k]);
    if (!known)
        return 0;
    const char *val = drv_cli_value(o, name, inline_val, argc, argv, i);
    if (!val)
        return -1;
    uint64_t n;
    if (!strcmp(name, "-e") || !strcmp(name, "--event")) {
        if (!*val) {
            drv_cli_usage(o, "%s: expected EVENT[:mod...], found ''", name);
            return -1;
        }
        if (o->nevents == PMULIB_MAX_EVENTS) {
            drv_cli_usage(o, "%s %s: at most %d events (one per counter PMC4..7)", name, val,
                          PMULIB_MAX_EVENTS);
            return -1;
        }
        o->event[o->nevents++] = val;
    } else if (!strcmp(name, "--stream")) {
        if (!*val) {
            drv_cli_usage(o, "--stream: expected a file name");
            return -1;
        }
        o->stream = val;
    } else if (!strcmp(name, "--seed")) {
        if (drv_cli_number(o, name, val, 0, UINT64_MAX, &o->seed))
            return -1;
        o->seed_given = 1;
    } else if (!strcmp(name, "--cycles")) {
        if (drv_cli_number(o, name, val, 1, UINT64_MAX, &o->cycles))
            return -1;
        o->cycles_given = 1;
    } else if (!strcmp(name, "--mode")) {
        if (!strcmp(val, "workload"))
            o->mode = PMU_GEN_WORKLOAD;
        else if (!strcmp(val, "random"))
            o->mode = PMU_GEN_RANDOM;
        else {
            drv_cli_usage(o, "--mode: expected workload or random, found '%s'", val);
            return -1;
        }
        o->mode_given = 1;
    } else if (!strcmp(name, "--procs")) {
        if (drv_cli_number(o, name, val, 1, 64, &n))
            return -1;
        o->procs = (unsigned)n;
        o->procs_given = 1;
    } else if (!strcmp(name, "--backend")) {
        if (!strcmp(val, "cosim"))
            o->backend = DRV_CLI_COSIM;
        else if (!strcmp(val, "rtl"))
            o->backend = DRV_CLI_RTL;
        else if (!strcmp(val, "ref"))
            o->backend = DRV_CLI_REF;
        else {
            drv_cli_usage(o, "--backend: expected cosim, rtl or ref, found '%s'", val);
            return -1;
        }
    } else if (!strcmp(name, "--model")) {
        if (!strcmp(val, "itanium2"))
            o->model = PMU_MODEL_ITANIUM2;
        else if (!strcmp(val, "itanium"))
            o->model = PMU_MODEL_ITANIUM;
        else {
            drv_cli_usage(o, "--model: expected itanium or itanium2, found '%s'", val);
            return -1;
        }
    } else if (!strcmp(name, "--pid")) {
        if (parse_pids(o, val))
            return -1;
    } else if (!strcmp(name, "--dcr-pp")) {
        if (strcmp(val, "0") && strcmp(val, "1")) {
            drv_cli_usage(o, "--dcr-pp: expected 0 or 1, found '%s'", val);
            return -1;
        }
        o->dcr_pp = val[0] == '1';
        o->dcr_pp_given = 1;
    } else if (!strcmp(name, "--irq-latency")) {
        if (drv_cli_number(o, name, val, 0, PMU_DRV_MAX_LATENCY, &n))
            return -1;
        o->latency = (unsigned)n;
    }
    return 1;
}

int drv_cli_check(drv_cli *o)
{
    if (o->nevents == 0)
        return drv_cli_usage(o, "expected at least one -e EVENT[:mod...]");
    if (o->stream && o->seed_given)
        return drv_cli_usage(o, "--seed: not used with --stream (the records come from the file)");
    if (o->stream && o->mode_given)
        return drv_cli_usage(o, "--mode: not used with --stream (the records come from the file)");
    if (o->stream && o->procs_given)
        return drv_cli_usage(o, "--procs: not used with --stream (the records come from the file)");
    if (o->procs_given && o->mode == PMU_GEN_RANDOM)
        return drv_cli_usage(o, "--procs: expected --mode workload (random records have no processes)");
    if (o->dcr_pp_given && !o->system_wide)
        return drv_cli_usage(o, "--dcr-pp: expected --system-wide too (user monitors ignore PSR.pp)");
    if (o->npids && o->system_wide)
        return drv_cli_usage(o, "--pid: not used with --system-wide (it monitors every process)");
    return 0;
}

void drv_cli_help(FILE *f)
{
    fprintf(f,
            "  --stream FILE      cycle records from a text or binary stream (docs/stream-format.md)\n"
            "  --seed N           generator seed (default 1) when no --stream is given\n"
            "  --cycles N         records to generate (default 1000000); with --stream, at most N\n"
            "  --mode M           generator mode: workload (default) or random\n"
            "  --procs N          generator processes, 1..64 (default 4)\n"
            "  --backend B        cosim (reference and RTL in lock-step, default), rtl or ref\n"
            "  --model M          itanium2 (default) or itanium\n"
            "  --system-wide      privileged monitors over every process (pm = 1, PSR.pp);\n"
            "                     default: user monitors of each process (pm = 0, PSR.up)\n"
            "  --dcr-pp 0|1       system-wide: interruption handlers count (1, default) or not\n"
            "  --pid N[,N...]     monitor only these processes (default: every process)\n"
            "  --irq-latency N    records from the overflow to its interrupt (default %d)\n",
            PMU_DRV_DEFAULT_LATENCY);
}

int drv_cli_config(const drv_cli *o, pmu_drv_config *cfg, unsigned counter[PMULIB_MAX_EVENTS])
{
    pmulib_request rq = pmulib_request_init(o->model);
    pmulib_error err;
    for (unsigned i = 0; i < o->nevents; i++) {
        if (pmulib_parse_event(o->event[i], &rq.events[i], &err) != PMULIB_OK)
            return drv_cli_usage(o, "-e %s: %s", o->event[i], err.msg);
        rq.events[i].pm = o->system_wide != 0;
    }
    rq.nevents = o->nevents;
    pmulib_dispatch dp;
    if (pmulib_dispatch_request(&rq, &dp, &err) != PMULIB_OK)
        return drv_cli_usage(o, "%s", err.msg);
    memset(cfg, 0, sizeof *cfg);
    for (unsigned w = 0; w < dp.nwrites; w++) {
        if (cfg->nregs == PMU_DRV_MAX_REGS)
            return drv_cli_usage(o, "the events need more than %d registers", PMU_DRV_MAX_REGS);
        cfg->reg[cfg->nregs].addr = dp.writes[w].addr;
        cfg->reg[cfg->nregs].value = dp.writes[w].value;
        cfg->nregs++;
    }
    for (unsigned i = 0; i < o->nevents; i++)
        counter[i] = dp.counter[i] - PMU_FIRST_COUNTER;
    return 0;
}

/* ---- the run -------------------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(const char *cmd, const char *msg, int status)
{
    fprintf(stderr, "pmusim %s: %s\n", cmd, msg);
    return status;
}

int drv_cli_run(const drv_cli *o, const pmu_drv_config *cfg, pmu_drv_sample_fn fn, void *arg,
                drv_cli_session *s)
{
    memset(s, 0, sizeof *s);
    /* The lock-step pair asks the source where a record came from: it lives as long
     * as the session. */
    pmu_err perr;
    if (o->stream) {
        s->source = pmu_source_file(&pmu_dialect_itanium, o->stream, o->cycles_given ? o->cycles : 0, &perr);
        if (!s->source)
            return fail(o->cmd, perr.msg, DRV_CLI_EXIT_USAGE);
    } else {
        pmu_gen_opts g;
        memset(&g, 0, sizeof g);
        g.seed = o->seed;
        g.cycles = o->cycles;
        g.mode = o->mode;
        g.nprocs = o->procs;
        s->source = pmu_source_generator(&pmu_dialect_itanium, &g, &perr);
        if (!s->source)
            return fail(o->cmd, perr.msg, DRV_CLI_EXIT_FAIL);
        s->gen = pmu_source_gen(s->source);
    }

    pmu_params p = pmu_params_default();
    p.model = o->model;
    char why[256] = "";
    if (o->backend == DRV_CLI_REF) {
        s->b = s->ref = pmu_ref_create(&p);
    } else {
        pmu_backend *rtl = pmu_rtl_create(&p, why, sizeof why);
        if (!rtl)
            return fail(o->cmd, why, DRV_CLI_EXIT_FAIL);
        if (o->backend == DRV_CLI_RTL) {
            s->b = rtl;
        } else {
            s->b = pmu_cosim_create(&pmu_family_itanium, pmu_ref_create(&p), rtl, pmu_source_where, s->source);
            s->ref = s->b ? pmu_cosim_ref(s->b) : NULL;
        }
    }
    s->truth = calloc(NPIDS, sizeof *s->truth);
    s->ran = calloc(NPIDS, 1);
    if (!s->b || !s->truth || !s->ran)
        return fail(o->cmd, "cannot create the backend (out of memory)", DRV_CLI_EXIT_FAIL);

    pmu_drv_opts dopt = pmu_drv_opts_default();
    dopt.mode = o->system_wide ? PMU_DRV_SYSTEM_WIDE : PMU_DRV_PER_PROCESS;
    dopt.dcr_pp = o->dcr_pp;
    dopt.per_process = o->system_wide && o->per_process;
    dopt.every_process = !o->system_wide && o->npids == 0;
    dopt.latency = o->latency;
    dopt.config = *cfg;
    dopt.on_sample = fn;
    dopt.sample_arg = arg;
    char err[256];
    s->d = pmu_drv_create(s->b, &dopt, err, sizeof err);
    if (!s->d)
        return fail(o->cmd, err, DRV_CLI_EXIT_USAGE);
    for (unsigned k = 0; k < o->npids; k++)
        pmu_drv_attach(s->d, o->pid[k], NULL, NULL, 0); /* checked: distinct, before start */

    int cosim = o->backend == DRV_CLI_COSIM;
    int status = 0;
    pmu_cycle c;
    pmu_state st;
    uint64_t before[PMU_NCOUNTERS] = {0};
    double t0 = now_seconds();
    for (;;) {
        int got = pmu_source_next(s->source, &c, &perr);
        if (got == 0)
            break;
        if (got < 0) {
            status = fail(o->cmd, perr.msg, DRV_CLI_EXIT_USAGE);
            break;
        }
        pmu_drv_before_step(s->d, &c);
        if (s->ref)
            for (unsigned k = 0; k < PMU_NCOUNTERS; k++)
                before[k] = pmu_ref_total(s->ref, PMU_FIRST_COUNTER + k);
        pmu_step(s->b, &c);
        pmu_snapshot(s->b, &st);
        s->ran[c.pid] = 1;
        if (s->ref)
            for (unsigned k = 0; k < PMU_NCOUNTERS; k++)
                s->truth[c.pid][k] += pmu_ref_total(s->ref, PMU_FIRST_COUNTER + k) - before[k];
        pmu_drv_after_step(s->d, &c, st.pmi);
        s->records++;
        if (cosim && pmu_cosim_mismatches(s->b))
            break;
    }
    s->seconds = now_seconds() - t0;
    if (status)
        return status;
    if (cosim && pmu_cosim_mismatches(s->b)) {
        char text[4096];
        pmu_cosim_format(pmu_cosim_first(s->b), text, sizeof text);
        fputs(text, stdout);
        printf("lock-step: %" PRIu64 " cycles, %" PRIu64 " mismatches (stopped at the first); "
               "`pmusim run` with the same stream reproduces it with a waveform\n",
               s->records, pmu_cosim_mismatches(s->b));
        return DRV_CLI_EXIT_FAIL;
    }
    pmu_drv_stop(s->d);
    return 0;
}

unsigned drv_cli_context_pids(const drv_cli_session *s, uint32_t *pids)
{
    unsigned n = pmu_drv_ncontexts(s->d);
    for (unsigned i = 0; i < n; i++)
        pids[i] = pmu_drv_context_pid(s->d, i);
    for (unsigned i = 1; i < n; i++) /* insertion sort: few contexts */
        for (unsigned j = i; j > 0 && pids[j - 1] > pids[j]; j--) {
            uint32_t t = pids[j];
            pids[j] = pids[j - 1];
            pids[j - 1] = t;
        }
    return n;
}

int drv_cli_check_exact(const drv_cli *o, drv_cli_session *s, unsigned used, FILE *out)
{
    (void)o;
    if (!s->ref)
        return 1;
    unsigned bad = 0;
    char first[256] = "";
    uint64_t v;
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
        if (!(used >> k & 1u))
            continue;
        if (pmu_drv_read(s->d, PMU_DRV_ALL_PIDS, k, &v) == 0) {
            uint64_t want = pmu_ref_total(s->ref, PMU_FIRST_COUNTER + k);
            if (v != want && !bad++)
                snprintf(first, sizeof first, "PMD%u: %" PRIu64 " != reference total %" PRIu64,
                         PMU_FIRST_COUNTER + k, v, want);
            continue;
        }
        for (uint32_t pid = 0; pid < NPIDS; pid++) {
            if (!s->ran[pid])
                continue;
            uint64_t want = s->truth[pid][k];
            if (pmu_drv_read(s->d, pid, k, &v) != 0)
                v = 0; /* not monitored: nothing may have counted in its time */
            if (v != want && !bad++)
                snprintf(first, sizeof first,
                         "pid %u PMD%u: %" PRIu64 " != reference total %" PRIu64, pid,
                         PMU_FIRST_COUNTER + k, v, want);
        }
    }
    if (bad) {
        fprintf(out, "exact: NO, %u counts differ from the reference's; first: %s\n", bad, first);
        return 0;
    }
    fprintf(out, "exact: the 64-bit counts equal the reference's exact %s totals\n",
            pmu_drv_read(s->d, PMU_DRV_ALL_PIDS, 0, &v) == 0 ? "event" : "per-process");
    return 1;
}

void drv_cli_session_free(drv_cli_session *s)
{
    pmu_drv_destroy(s->d);
    pmu_destroy(s->b);
    free(s->truth);
    free(s->ran);
    pmu_source_close(s->source); /* and the generator, if it is one */
    memset(s, 0, sizeof *s);
}
