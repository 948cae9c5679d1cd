/*
 * monitor.c - what `pmusim count` and `pmusim profile` share (monitor.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "monitor.h"
#include "common/pmu_dialect.h"
#include "common/pmu_num.h"

static const char *const zero_one[] = {"0", "1", NULL};

static int add_event(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    pmu_monitor_request *rq = ctx;
    if (!*val)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected EVENT[:mod...], found ''", opt);
    if (rq->nevents == PMU_MONITOR_MAX_EVENTS)
        return pmu_errf(err, PMU_E_INPUT, "%s %s: at most %d events", opt, val, PMU_MONITOR_MAX_EVENTS);
    rq->events[rq->nevents++] = val;
    return 0;
}

/* --pid N[,N...]: the processes to monitor (the option may be repeated). */
static int add_pids(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    monitor_opts *o = ctx;
    char shown[96];
    pmu_escape(val, strlen(val), shown, sizeof shown);
    if (!*val)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected a process id or a comma-separated list, found ''", opt);
    for (const char *p = val;;) {
        size_t n = strcspn(p, ",");
        uint64_t pid = 0;
        if (n == 0 && p[0] == '\0')
            return pmu_errf(err, PMU_E_INPUT, "%s: trailing ',' in '%s'", opt, shown);
        if (n == 0)
            return pmu_errf(err, PMU_E_INPUT,
                            "%s: expected process ids 0..65535 separated by commas, found '%s'", opt, shown);
        if (pmu_parse_u64n(p, n, 0, 65535, opt, &pid, err))
            return -1;
        for (unsigned k = 0; k < o->rq.npids; k++)
            if (o->pids[k] == pid)
                return pmu_errf(err, PMU_E_INPUT, "%s: process %" PRIu64 " listed twice", opt, pid);
        if (o->rq.npids == MONITOR_MAX_PIDS)
            return pmu_errf(err, PMU_E_INPUT, "%s: at most %d processes", opt, MONITOR_MAX_PIDS);
        o->pids[o->rq.npids++] = (uint16_t)pid;
        if (p[n] == '\0')
            return 0;
        p += n + 1;
    }
}

unsigned monitor_opts_init(monitor_opts *o, const pmu_cli_cmd *cmd, pmu_opt *opts)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->dcr_pp = 1;
    o->rq.latency = 4;
    o->rq.pids = o->pids;
    unsigned n = pmu_cli_records_opts(&o->r, opts);
    n += pmu_cli_target_opts(&o->t, 1, opts + n);
    opts[n++] = (pmu_opt){.name = "event", .key = 'e', .kind = PMU_OPT_CALL, .call = add_event,
                          .ctx = &o->rq, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "per-process", .kind = PMU_OPT_FLAG, .dest = &o->rq.per_process};
    opts[n++] = (pmu_opt){.name = "system-wide", .kind = PMU_OPT_FLAG, .dest = &o->rq.system_wide};
    opts[n++] = (pmu_opt){.name = "dcr-pp", .kind = PMU_OPT_CHOICE, .dest = &o->dcr_pp,
                          .choices = zero_one, .given = &o->dcr_pp_given};
    opts[n++] = (pmu_opt){.name = "pid", .kind = PMU_OPT_CALL, .call = add_pids, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "irq-latency", .kind = PMU_OPT_UNSIGNED, .dest = &o->rq.latency,
                          .max = PMU_CLI_MAX_LATENCY, .given = &o->rq.latency_given};
    opts[n++] = (pmu_opt){.name = "plot", .kind = PMU_OPT_FILE, .dest = &o->plot};
    o->opts = opts;
    o->nopts = n;
    return n;
}

int monitor_opts_check(monitor_opts *o)
{
    const pmu_cli_cmd *cmd = o->cmd;
    /* The family first: what it refuses is said before how the options fit together. */
    int rc = pmu_cli_target_resolve(cmd, &o->t);
    if (rc || (rc = pmu_cli_family_check(cmd, o->t.fam, o->opts, o->nopts)))
        return rc;
    if (o->rq.nevents == 0)
        return pmu_cli_usage(cmd, "expected at least one -e EVENT[:mod...]");
    if ((rc = pmu_cli_records_check(cmd, &o->r)))
        return rc;
    if (o->dcr_pp_given && !o->rq.system_wide)
        return pmu_cli_usage(cmd, "--dcr-pp: expected --system-wide too (user monitors ignore PSR.pp)");
    if (o->rq.npids && o->rq.system_wide)
        return pmu_cli_usage(cmd, "--pid: not used with --system-wide (it monitors every process)");
    o->rq.handlers = o->dcr_pp;
    o->rq.model = o->t.model;
    return 0;
}

int monitor_help_takes(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    const char *why = pmu_cli_refusal(fam, cmd->name, NULL);
    if (!why)
        return 1;
    fprintf(f, "%s %s --family %s: not on the %s: %s\n", pmu_cli_title, cmd->name, fam->name, fam->title, why);
    pmu_cli_family_help_end(f, cmd, fam);
    return 0;
}

const char *monitor_events(const pmu_family *fam)
{
    return fam->cmds->monitor_events ? fam->cmds->monitor_events : "the family's events (pmusim encode --list)";
}

void monitor_help_line(FILE *f, const char *label, const char *text)
{
    fprintf(f, "  %-18s ", label);
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            fprintf(f, "\n%21s", "");
        else
            fputc(*p, f);
    }
    fprintf(f, "\n");
}

void monitor_usage(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam, unsigned indent)
{
    if (pmu_cli_takes(cmd, fam, "system-wide") || pmu_cli_takes(cmd, fam, "pid") ||
        pmu_cli_takes(cmd, fam, "irq-latency"))
        fprintf(f, "\n%*s", (int)indent, "");
    if (pmu_cli_takes(cmd, fam, "system-wide"))
        fprintf(f, pmu_cli_takes(cmd, fam, "dcr-pp") ? " [--system-wide [--dcr-pp 0|1]]" : " [--system-wide]");
    if (pmu_cli_takes(cmd, fam, "pid"))
        fprintf(f, " [--pid N[,N...]]");
    if (pmu_cli_takes(cmd, fam, "irq-latency"))
        fprintf(f, " [--irq-latency N]");
}

void monitor_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    pmu_cli_records_help(f);
    pmu_cli_target_help(f, cmd, fam, 1);
    if (pmu_cli_takes(cmd, fam, "system-wide"))
        fprintf(f, "  --system-wide      privileged monitors over every process (pm = 1, PSR.pp);\n"
                   "                     default: user monitors of each process (pm = 0, PSR.up)\n");
    if (pmu_cli_takes(cmd, fam, "dcr-pp"))
        fprintf(f, "  --dcr-pp 0|1       system-wide: interruption handlers count (1, default) or not\n");
    if (pmu_cli_takes(cmd, fam, "pid"))
        fprintf(f, "  --pid N[,N...]     monitor only these processes (default: every process)\n");
    if (pmu_cli_takes(cmd, fam, "irq-latency"))
        fprintf(f, "  --irq-latency N    records from the overflow to its interrupt (default 4)\n");
    fprintf(f, "\nNumbers are decimal or 0x hex.  Options other than -e%s may be given once.\n",
            pmu_cli_takes(cmd, fam, "pid") ? " and --pid" : "");
}

/* ---- the session ------------------------------------------------------------------------ */

/* The timeline's picture and data (a mismatch included: up to it). */
static int timeline_end(const monitor_opts *o, monitor_session *s)
{
    if (!s->tap)
        return 0;
    pmu_err err;
    char title[256];
    pmu_plot_tap_end(s->tap);
    snprintf(title, sizeof title, "pmusim %s: %s, backend %s, %" PRIu64 " cycles", o->cmd->name,
             o->t.fam->models[s->b->model].title, s->b->name, s->loop.records);
    if (s->plot && pmu_plot_tap_write(s->tap, s->plot, title, &err))
        return pmu_cli_error(o->cmd, &err);
    if (s->plot_data && pmu_outfile_write(s->plot_data, "--plot-data", pmu_plot_tap_data, s->tap, &err))
        return pmu_cli_error(o->cmd, &err);
    return 0;
}

int monitor_plot_bars(const monitor_opts *o, monitor_session *s, const char *title,
                      const pmu_plot_bars *charts, unsigned ncharts)
{
    pmu_err err;
    if (s->plot && pmu_plot_bars_write(s->plot, title, charts, ncharts, &err))
        return pmu_cli_error(o->cmd, &err);
    return 0;
}

int monitor_run(const monitor_opts *o, monitor_session *s)
{
    const pmu_family *fam = o->t.fam;
    pmu_err err;
    memset(s, 0, sizeof *s);
    s->cmds = fam->cmds;
    if (!(s->m = s->cmds->monitor_create(&o->rq, &err)))
        return pmu_cli_error(o->cmd, &err);
    /* The lock-step pair asks the source where a record came from: it lives as long as
     * the session. */
    if (!(s->files = pmu_files_new()))
        return pmu_cli_fail(o->cmd, PMU_EXIT_FAIL, "out of memory");
    if (!(s->src = pmu_cli_source(fam->dialect, &o->r, NULL, s->files, &err)))
        return pmu_cli_error(o->cmd, &err);
    if (o->input)
        pmu_files_input(s->files, o->input_opt, o->input);
    if (o->plot && !(s->plot = pmu_plot_output(s->files, "--plot", o->plot, &err)))
        return pmu_cli_error(o->cmd, &err);
    if (o->plot_data && !(s->plot_data = pmu_files_output(s->files, "--plot-data", o->plot_data, 0, &err)))
        return pmu_cli_error(o->cmd, &err);
    s->gen = pmu_source_gen(s->src);
    s->b = pmu_cli_backend(fam, o->t.model, (pmu_backend_kind)o->t.backend, pmu_source_where, s->src, &err);
    if (!s->b)
        return pmu_cli_error(o->cmd, &err);
    pmu_record_hooks hooks;
    if (s->cmds->monitor_start(s->m, s->b, &hooks, &err))
        return pmu_cli_error(o->cmd, &err);
    if (o->timeline && (o->plot || o->plot_data)) {
        if (!(s->tap = pmu_plot_tap_new(fam, s->b, &err)))
            return pmu_cli_error(o->cmd, &err);
        pmu_plot_tap_hooks(s->tap, &hooks);
    }
    s->loop = (pmu_cli_loop){.b = s->b, .src = s->src, .record_size = fam->dialect->record_size,
                             .hooks = hooks};
    pmu_loop_end end = pmu_cli_loop_run(&s->loop, &err);
    if (end == PMU_LOOP_ERROR)
        return pmu_cli_error(o->cmd, &err);
    int rc = timeline_end(o, s);
    if (rc)
        return rc;
    if (end == PMU_LOOP_MISMATCH) {
        char text[4096];
        FILE *out = o->json ? stderr : stdout;
        pmu_cosim_format(pmu_cosim_first(s->b), text, sizeof text);
        fputs(text, out);
        fprintf(out, "lock-step: %" PRIu64 " cycles, %" PRIu64 " mismatch%s (stopped at the first); "
                     "`pmusim run` with the same stream reproduces it with a waveform\n",
                s->loop.records, pmu_cosim_mismatches(s->b), pmu_cosim_mismatches(s->b) == 1 ? "" : "es");
        if (o->json) {
            printf("{");
            pmu_cli_json_target(stdout, fam, s->b, &o->r);
            printf(",\n  \"records\": %" PRIu64 ", ", s->loop.records);
            pmu_cli_json_verdicts(stdout, s->b, s->loop.records, -1);
            printf(",\n  \"mismatch\": ");
            pmu_cli_json_mismatch(stdout, pmu_cosim_first(s->b));
            printf("\n}\n");
        }
        return PMU_EXIT_FAIL;
    }
    s->counts = s->cmds->monitor_finish(s->m);
    return 0;
}

void monitor_lockstep_line(const monitor_session *s, FILE *out)
{
    if (pmu_is_cosim(s->b))
        fprintf(out, "lock-step: %" PRIu64 " cycles, 0 mismatches\n", s->loop.records);
}

int monitor_json_end(const monitor_session *s)
{
    int exact = s->cmds->monitor_check(s->m, stderr);
    monitor_lockstep_line(s, stderr);
    printf(",\n  \"records\": %" PRIu64 ", \"context_switches\": %" PRIu64 ", \"interrupts\": %" PRIu64 ",\n  ",
           s->loop.records, s->counts->switches, s->counts->interrupts);
    pmu_cli_json_verdicts(stdout, s->b, s->loop.records, exact);
    printf("\n}\n");
    return exact ? PMU_EXIT_OK : PMU_EXIT_FAIL;
}

void monitor_close(monitor_session *s)
{
    if (s->m)
        s->cmds->monitor_free(s->m);
    pmu_destroy(s->b);
    pmu_source_close(s->src); /* and the generator, if it is one */
    pmu_plot_tap_free(s->tap);
    pmu_files_free(s->files);
    memset(s, 0, sizeof *s);
}
