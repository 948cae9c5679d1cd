/*
 * run.c - `pmusim run`: a stream through a backend (reference and RTL in lock-step by
 * default) with a PMU configuration and the harness's overflow service.  docs/debugging.md
 * shows a run that finds a mismatch.
 *
 * The backend is programmed from the configuration; for each record the loop steps it
 * and hands the interrupt line to the family's overflow service; the run stops at the
 * first lock-step mismatch.  At the end the service folds the final counts and, where a
 * reference model runs, its 64-bit totals must equal the reference's exact totals.
 * With --writes the software is a schedule of register writes and expected values at
 * given cycles instead (include/cli/pmu_writes.h: a formal counterexample's replay).
 * The same command runs on the SystemC platform (systemc/, build/pmusim-sc) through
 * pmu_cli_run's engine.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/pmu_cli.h"
#include "common/pmu_dialect.h"
#include "cli/pmu_family_cmds.h"
#include "cli/pmu_plot.h"
#include "common/pmu_text.h"
#include "cli/pmu_writes.h"

#define CONFIG_LIMIT (1u << 20)  /* bytes of a configuration file */
#define WRITES_LIMIT (64u << 20) /* bytes of a --writes schedule */

typedef struct run_opts {
    pmu_cli_target t;
    pmu_cli_records r;
    const char *config;
    const char *writes;     /* --writes: the schedule is the software (include/cli/pmu_writes.h) */
    unsigned irq_latency;
    int irq_latency_given;
    const char *waves;
    uint64_t wave_from;
    int wave_from_given;
    uint64_t stop_at;
    const char *traffic;
    int quiet;
    int dump_regs;
    int json;
    const char *plot, *plot_data;
} run_opts;

/* What a run opened; run_close() frees whatever is set. */
typedef struct run_state {
    const pmu_run_engine *e;
    const pmu_family_cmds *cmds;
    pmu_files *files;
    pmu_fam_config *cfg;
    pmu_source *src;
    int opened;             /* the engine's open succeeded: close it */
    pmu_backend *b;         /* what the run reports on (the lock-step pair or the model) */
    pmu_backend *sw;        /* what the software and the loop use */
    pmu_fam_service *svc;
    pmu_writes *writes;     /* --writes: the schedule, instead of the service */
    pmu_outfile *waves;
    pmu_outfile *waves_extra; /* the engine's own waveform beside the FST */
    pmu_outfile *layout;      /* the GTKWave save file beside the FST (the family's layout) */
    pmu_outfile *traffic;
    FILE *traffic_f;
    FILE *traffic_json;     /* --json: the traffic's entries, for the run's JSON */
    pmu_traffic *log;
    pmu_cli_loop loop;
    int exact;              /* the service's verdict on the totals (service_finish) */
    char *service_json;     /* --json: the service's results (service_json), when it finished */
    size_t service_len;
    pmu_plot_tap *tap;        /* --plot, --plot-data: the counters' timeline */
    pmu_outfile *plot, *plot_data;
} run_state;

static void run_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    int latency = pmu_cli_takes(cmd, fam, "irq-latency");
    fprintf(f, "usage: %s run [--stream FILE | --seed N --cycles N [--mode workload|random] [--procs N]]\n"
               "                  [--config FILE | --writes FILE] [--family NAME] [--model NAME]\n"
               "                  [--backend cosim|rtl|ref]\n"
               "                  %s[--waves FILE] [--wave-from CYCLE]\n"
               "                  [--stop-at CYCLE] [--dump-regs] [--traffic FILE] [--quiet] [--json]\n"
               "                  [--plot FILE] [--plot-data FILE]\n"
               "\n",
            pmu_cli_title, latency ? "[--irq-latency N] " : "");
    pmu_cli_records_help(f);
    fprintf(f, "  --config FILE      %s, '-' = stdin;\n"
               "                     default: built in\n",
            fam->cmds->config_what ? fam->cmds->config_what : "the family's configuration");
    fprintf(f, "  --writes FILE      instead of the configuration and the overflow service: register\n"
               "                     writes and expected values at given cycles, lines 'at CYCLE write\n"
               "                     REG VALUE' and 'at CYCLE expect REG VALUE' (a formal counter-\n"
               "                     example's replay: docs/formal.md)\n");
    pmu_cli_target_help(f, cmd, fam, 1);
    if (latency)
        fprintf(f, "  --irq-latency N    cycles from the interrupt pulse to the overflow service (default 4)\n");
    fprintf(f, "  --waves FILE       write an FST waveform of the RTL (replaced only when the run ends)\n");
    if (fam->wave_layout)
        fprintf(f, "                     and a GTKWave save file beside it (FILE without .fst, + .gtkw):\n"
                   "                     the run's window, a marker on the mismatch or the last record,\n"
                   "                     the mismatching register's group first (docs/debugging.md)\n");
    fprintf(f, "  --wave-from CYCLE  start the waveform at this cycle (default: the start)\n"
               "  --stop-at CYCLE    stop before record CYCLE (records are numbered from 0)\n"
               "  --dump-regs        print every visible register and the interrupt line at the end\n"
               "                     (the lock-step pair: the RTL's and the reference's)\n"
               "  --traffic FILE     log the software's register accesses and the interrupt line,\n"
               "                     one line each (docs/run-traffic.md)\n"
               "  --plot FILE        draw each counter over the cycles (.svg, .png or .pdf): the raw\n"
               "                     counter with its wraps, the 64-bit count, the interrupts and\n"
               "                     the frozen spans (docs/plots.md)\n"
               "  --plot-data FILE   the plot's columns as text: values and where they are drawn\n"
               "  --quiet            print only the lock-step line and errors\n"
               "  --json             print one JSON object (docs/json.md): what ran, the verdicts,\n"
               "                     a mismatch, with --dump-regs the registers and with --traffic\n"
               "                     the traffic's entries; the text lines go to stderr\n"
               "\n"
               "Numbers are decimal or 0x hex.  Each option may be given once.\n"
               "exit status: 0 ok, 1 lock-step mismatch, inexact totals, a failed write or (--writes)\n"
               "             an expect that failed or a line the records did not reach,\n"
               "             2 bad arguments or input\n");
    pmu_cli_family_help_end(f, cmd, fam);
}

static const pmu_cli_cmd run_cmd = {.name = "run", .family_help = run_help};

static int parse(int argc, char **argv, run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->irq_latency = 4;
    pmu_opt opts[20];
    unsigned n = pmu_cli_records_opts(&o->r, opts);
    n += pmu_cli_target_opts(&o->t, 1, opts + n);
    opts[n++] = (pmu_opt){.name = "config", .kind = PMU_OPT_FILE, .dest = &o->config};
    opts[n++] = (pmu_opt){.name = "writes", .kind = PMU_OPT_FILE, .dest = &o->writes};
    opts[n++] = (pmu_opt){.name = "irq-latency", .kind = PMU_OPT_UNSIGNED, .dest = &o->irq_latency,
                          .max = PMU_CLI_MAX_LATENCY, .given = &o->irq_latency_given};
    opts[n++] = (pmu_opt){.name = "waves", .kind = PMU_OPT_FILE, .dest = &o->waves};
    opts[n++] = (pmu_opt){.name = "wave-from", .kind = PMU_OPT_U64, .dest = &o->wave_from,
                          .max = UINT64_MAX, .given = &o->wave_from_given};
    opts[n++] = (pmu_opt){.name = "stop-at", .kind = PMU_OPT_U64, .dest = &o->stop_at, .min = 1,
                          .max = UINT64_MAX};
    opts[n++] = (pmu_opt){.name = "traffic", .kind = PMU_OPT_FILE, .dest = &o->traffic};
    opts[n++] = (pmu_opt){.name = "quiet", .kind = PMU_OPT_FLAG, .dest = &o->quiet};
    opts[n++] = (pmu_opt){.name = "dump-regs", .kind = PMU_OPT_FLAG, .dest = &o->dump_regs};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &o->json};
    opts[n++] = (pmu_opt){.name = "plot", .kind = PMU_OPT_FILE, .dest = &o->plot};
    opts[n++] = (pmu_opt){.name = "plot-data", .kind = PMU_OPT_FILE, .dest = &o->plot_data};
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&run_cmd, opts, n, argc, argv, args, &nargs);
    if (rc || (rc = pmu_cli_target_resolve(&run_cmd, &o->t)) || (rc = pmu_cli_family_check(&run_cmd, o->t.fam, opts, n)))
        return rc;
    if ((rc = pmu_cli_records_check(&run_cmd, &o->r)))
        return rc;
    if (o->config && o->r.stream && !strcmp(o->config, "-") && !strcmp(o->r.stream, "-"))
        return pmu_cli_usage(&run_cmd, "--config: '-' (stdin) is the stream's already");
    if (o->writes && o->config)
        return pmu_cli_usage(&run_cmd, "--writes: the schedule is the run's whole software, expected no --config");
    if (o->writes && o->irq_latency_given)
        return pmu_cli_usage(&run_cmd, "--writes: the schedule is the run's whole software (no overflow service), "
                             "expected no --irq-latency");
    if (o->writes && o->r.stream && !strcmp(o->writes, "-") && !strcmp(o->r.stream, "-"))
        return pmu_cli_usage(&run_cmd, "--writes: '-' (stdin) is the stream's already");
    if (o->wave_from_given && !o->waves)
        return pmu_cli_usage(&run_cmd, "--wave-from: expected --waves FILE too");
    if (o->waves && o->t.backend == PMU_BACKEND_REF)
        return pmu_cli_usage(&run_cmd, "--waves: expected --backend cosim or rtl (the reference has no waveform)");
    if (o->stop_at && o->wave_from_given && o->wave_from >= o->stop_at)
        return pmu_cli_usage(&run_cmd, "--wave-from: expected a cycle before --stop-at %" PRIu64 ", found %" PRIu64,
                             o->stop_at, o->wave_from);
    return 0;
}

/* ---- the reproduce command -------------------------------------------------------------- */

static void shell_num(char *buf, size_t size, const char *opt, uint64_t v)
{
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, v);
    pmu_cli_shell_arg(buf, size, opt);
    pmu_cli_shell_arg(buf, size, num);
}

static void shell_opt(char *buf, size_t size, const char *opt, const char *value)
{
    pmu_cli_shell_arg(buf, size, opt);
    pmu_cli_shell_arg(buf, size, value);
}

static void repro_command(const run_opts *o, uint64_t cycle, char *buf, size_t size)
{
    snprintf(buf, size, "%s", pmu_cli_program);
    pmu_cli_shell_arg(buf, size, "run");
    if (o->r.stream) {
        shell_opt(buf, size, "--stream", o->r.stream);
    } else {
        shell_num(buf, size, "--seed", o->r.seed);
        shell_num(buf, size, "--cycles", o->r.cycles);
        if (o->r.mode == PMU_GEN_RANDOM)
            shell_opt(buf, size, "--mode", "random");
        if (o->r.procs_given)
            shell_num(buf, size, "--procs", o->r.procs);
    }
    if (o->config)
        shell_opt(buf, size, "--config", o->config);
    if (o->writes)
        shell_opt(buf, size, "--writes", o->writes);
    if (o->t.family_name)
        shell_opt(buf, size, "--family", o->t.fam->name);
    if (o->t.model_name)
        shell_opt(buf, size, "--model", o->t.fam->models[o->t.model].name);
    if (o->irq_latency_given)
        shell_num(buf, size, "--irq-latency", o->irq_latency);
    shell_opt(buf, size, "--waves", "mismatch.fst");
    shell_num(buf, size, "--wave-from", pmu_cli_replay_wave_from(cycle));
    shell_num(buf, size, "--stop-at", cycle + 1);
}

/* ---- the run ------------------------------------------------------------------------------ */

static void run_close(run_state *s)
{
    if (s->loop.tracing)
        pmu_trace_close(s->sw, NULL); /* a failed run: the waveform is dropped anyway */
    if (s->svc)
        s->cmds->service_free(s->svc);
    pmu_writes_free(s->writes);
    pmu_traffic_free(s->log);
    pmu_plot_tap_free(s->tap);
    if (s->traffic_f)
        fclose(s->traffic_f);
    if (s->traffic_json)
        fclose(s->traffic_json);
    if (s->opened)
        s->e->close(s->e->ctx);
    pmu_source_close(s->src);
    if (s->cfg)
        s->cmds->config_free(s->cfg);
    pmu_files_free(s->files); /* drops a waveform not committed */
    free(s->service_json);
}

/* The configuration file (or stdin, or the built-in one), parsed for the family. */
static int load_config(const run_opts *o, run_state *s, pmu_err *err)
{
    if (!o->config) {
        const char *text = s->cmds->config_builtin(o->t.model);
        s->cfg = s->cmds->config_parse(text, strlen(text), "<built-in configuration>", o->t.model,
                                       1, err);
        return s->cfg ? 0 : -1;
    }
    char *text;
    size_t len;
    if (pmu_files_read(s->files, "--config", o->config, CONFIG_LIMIT, "a configuration file",
                       &text, &len, err))
        return -1;
    const char *name = strcmp(o->config, "-") == 0 ? "<stdin>" : o->config;
    s->cfg = s->cmds->config_parse(text, len, name, o->t.model, o->t.model_name != NULL, err);
    free(text);
    return s->cfg ? 0 : -1;
}

/* Everything before the first record: configuration, records, backend, waveform file. */
static int run_open(const run_opts *o, run_state *s, pmu_err *err)
{
    if (!(s->files = pmu_files_new()))
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    if (load_config(o, s, err))
        return -1;
    if (o->writes) {
        char *text;
        size_t len;
        if (pmu_files_read(s->files, "--writes", o->writes, WRITES_LIMIT, "a --writes schedule", &text, &len, err))
            return -1;
        s->writes = pmu_writes_parse(o->t.fam, text, len, strcmp(o->writes, "-") ? o->writes : "<stdin>", err);
        free(text);
        if (!s->writes)
            return -1;
    }
    unsigned model = s->cmds->config_model(s->cfg);
    if (!(s->src = pmu_cli_source(o->t.fam->dialect, &o->r, s->cmds->config_hot(s->cfg), s->files, err)))
        return -1;
    if (s->e->open(s->e->ctx, o->t.fam, model, (pmu_backend_kind)o->t.backend, s->src, &s->b,
                   &s->sw, err))
        return -1;
    s->opened = 1;
    if (o->waves && !(s->waves = pmu_files_output(s->files, "--waves", o->waves,
                                                  PMU_OUT_SEEKABLE, err)))
        return -1;
    if (o->waves && s->e->waves && s->e->waves(s->e->ctx, s->files, o->waves, &s->waves_extra, err))
        return -1;
    if (o->waves && pmu_cli_layout_prepare(s->files, o->t.fam, o->waves, &s->layout, err))
        return -1;
    if (o->plot && !(s->plot = pmu_plot_output(s->files, "--plot", o->plot, err)))
        return -1;
    if (o->plot_data && !(s->plot_data = pmu_files_output(s->files, "--plot-data", o->plot_data, 0, err)))
        return -1;
    if ((o->plot || o->plot_data) && !(s->tap = pmu_plot_tap_new(o->t.fam, s->sw, err)))
        return -1;
    if (o->traffic) {
        if (!(s->traffic = pmu_files_output(s->files, "--traffic", o->traffic, 0, err)))
            return -1;
        if (!(s->traffic_f = pmu_outfile_fopen(s->traffic, "--traffic", err)))
            return -1;
        if (!(s->log = pmu_traffic_new(o->t.fam, s->sw, s->traffic_f)))
            return pmu_errf(err, PMU_E_NOMEM, "out of memory");
        if (o->json && !(s->traffic_json = tmpfile()))
            return pmu_errf(err, PMU_E_IO, "--traffic: a temporary file for the JSON entries: %s", strerror(errno));
        pmu_traffic_json(s->log, s->traffic_json);
    }
    return 0;
}

/* The traffic log goes in place once the run is over, as the waveform does. */
static int finish_traffic(run_state *s)
{
    if (!s->traffic)
        return 0;
    pmu_err err;
    int bad = pmu_outfile_fclose(s->traffic, "--traffic", s->traffic_f, &err);
    s->traffic_f = NULL;
    if (bad || pmu_outfile_commit(s->traffic, NULL, &err))
        return pmu_cli_error(&run_cmd, &err);
    return 0;
}

static void print_header(const run_opts *o, const run_state *s)
{
    printf("pmusim: %s, backend %s, ", o->t.fam->models[s->b->model].title, s->b->name);
    if (o->r.stream)
        printf("stream %s\n", o->r.stream);
    else
        printf("generated %s stream, seed %" PRIu64 ", %" PRIu64 " cycles\n",
               pmu_gen_mode_names[o->r.mode], o->r.seed, o->r.cycles);
    if (o->writes) {
        printf("software: the writes and expects of %s (no configuration, no overflow service)\n", o->writes);
        return;
    }
    if (s->cmds->service_timing)
        printf("configuration: %s; overflow service: %s\n", o->config ? o->config : "built in",
               s->cmds->service_timing);
    else
        printf("configuration: %s; overflow service latency %u cycles\n",
               o->config ? o->config : "built in", o->irq_latency);
    s->cmds->config_print(s->cfg, stdout);
}

/* Where the text lines go: stdout, or stderr when stdout is the JSON document. */
static FILE *human(const run_opts *o) { return o->json ? stderr : stdout; }

static void report_mismatch(const run_opts *o, run_state *s)
{
    const pmu_cosim_mismatch *m = pmu_cosim_first(s->b);
    char cmd[2048];
    FILE *out = human(o);
    pmu_cli_mismatch_report(out, o->t.fam, s->b, o->r.stream ? NULL : &o->r.seed, o->r.mode);
    repro_command(o, m->cycle, cmd, sizeof cmd);
    fprintf(out, "reproduce with a waveform of the cycles before it:\n  %s\n", cmd);
    fprintf(out, "lock-step: %" PRIu64 " cycles, %" PRIu64 " mismatch%s (stopped at the first)\n", s->loop.records,
            pmu_cosim_mismatches(s->b), pmu_cosim_mismatches(s->b) == 1 ? "" : "es");
}

/* The summary of a run that stayed in lock-step; the exit status. */
static int report_end(const run_opts *o, run_state *s)
{
    int exact = s->exact; /* the counter table is out already (finish_software) */
    FILE *out = human(o);
    if (pmu_is_cosim(s->b))
        fprintf(out, "lock-step: %" PRIu64 " cycles, 0 mismatches\n", s->loop.records);
    if (!o->quiet)
        fprintf(out, "Simulation speed: %.0f cycles/s (%" PRIu64 " cycles in %.3f s, backend %s)\n",
                s->loop.seconds > 0 ? (double)s->loop.records / s->loop.seconds : 0.0, s->loop.records,
                s->loop.seconds, s->b->name);
    if (!o->quiet && s->e->report)
        s->e->report(s->e->ctx, out);
    return exact ? PMU_EXIT_OK : PMU_EXIT_FAIL;
}

/* The waveform goes in place once the run is over (a mismatch included: it is what the
 * waveform is for), with its layout. */
static int finish_waves(const run_opts *o, run_state *s, const pmu_cosim_mismatch *m)
{
    if (!s->waves)
        return 0;
    if (!s->loop.tracing) {
        fprintf(stderr, "pmusim run: --wave-from %" PRIu64 ": the run ended at cycle %" PRIu64
                        " before the waveform started; no waveform written\n",
                o->wave_from, s->loop.records);
        return 0;
    }
    s->loop.tracing = 0;
    uint64_t size;
    pmu_err err;
    if (pmu_trace_close(s->sw, &err)) {
        pmu_outfile_fix_msg(s->waves, &err);
        return pmu_cli_error(&run_cmd, &err);
    }
    if (pmu_outfile_commit(s->waves, &size, &err))
        return pmu_cli_error(&run_cmd, &err);
    if (!o->quiet)
        fprintf(human(o), "waveform: %s (%.1f MB, from cycle %" PRIu64 ")\n", o->waves, (double)size / 1e6,
                o->wave_from);
    if (s->waves_extra) {
        if (pmu_outfile_commit(s->waves_extra, &size, &err))
            return pmu_cli_error(&run_cmd, &err);
        if (!o->quiet)
            fprintf(human(o), "waveform: %s (%.1f MB)\n", pmu_outfile_target(s->waves_extra), (double)size / 1e6);
    }
    /* The layout: the window the FST holds, the marker on the mismatching clock (on the
     * last record's when the run stayed in lock-step). */
    if (s->layout) {
        if (pmu_cli_layout_commit(s->layout, o->t.fam, o->waves, o->wave_from, s->loop.records, m, &err))
            return pmu_cli_error(&run_cmd, &err);
        if (!o->quiet)
            fprintf(human(o), "waveform layout: %s (gtkwave %s %s)\n", pmu_outfile_target(s->layout), o->waves,
                    pmu_outfile_target(s->layout));
    }
    return 0;
}

/* The timeline's picture and data go in place once the run is over (a mismatch included:
 * the picture shows the cycles up to it). */
static int finish_plot(const run_opts *o, run_state *s)
{
    if (!s->tap)
        return 0;
    pmu_err err;
    pmu_plot_tap_end(s->tap);
    char title[256];
    snprintf(title, sizeof title, "pmusim run: %s, backend %s, %" PRIu64 " cycles",
             o->t.fam->models[s->b->model].title, s->b->name, s->loop.records);
    if (s->plot && pmu_plot_tap_write(s->tap, s->plot, title, &err))
        return pmu_cli_error(&run_cmd, &err);
    if (s->plot_data && pmu_outfile_write(s->plot_data, "--plot-data", pmu_plot_tap_data, s->tap, &err))
        return pmu_cli_error(&run_cmd, &err);
    if (s->plot && !o->quiet)
        fprintf(human(o), "plot: %s\n", o->plot);
    return 0;
}

/* ---- --dump-regs ---------------------------------------------------------------------------- */
/* The registers at the end: the backend's in *a, or for the lock-step pair the RTL's in *a
 * and the reference's in *r (1). */
static int snapshot_regs(const run_state *s, pmu_state *a, pmu_state *r)
{
    const int pair = pmu_is_cosim(s->b);
    pmu_snapshot(pair ? pmu_cosim_rtl(s->b) : s->b, a);
    if (pair)
        pmu_snapshot(pmu_cosim_ref(s->b), r);
    return pair;
}

/* Every visible register as a read returns it, and the interrupt line; for the lock-step
 * pair both models side by side, a difference marked. */
static void dump_regs(const run_opts *o, run_state *s)
{
    const pmu_family *fam = o->t.fam;
    pmu_state a, r;
    const int pair = snapshot_regs(s, &a, &r);
    printf("registers after %" PRIu64 " cycles (%s%s):\n", s->loop.records, pair ? "" : "backend ",
           pair ? "RTL, reference" : s->b->name);
    for (unsigned v = 0; v < fam->nvis; v++) {
        printf("  %-8s 0x%03x  0x%016" PRIx64, fam->vis[v].name, fam->vis[v].addr, a.reg[v]);
        if (pair)
            printf("  0x%016" PRIx64 "%s", r.reg[v], a.reg[v] != r.reg[v] ? "  differs" : "");
        putchar('\n');
    }
    printf("  %-8s %-5s  %u", "pmi", "-", a.pmi);
    if (pair)
        printf("  %u%s", r.pmi, a.pmi != r.pmi ? "  differs" : "");
    putchar('\n');
}

/* ---- --json ---------------------------------------------------------------------------------- */

/* --dump-regs as JSON: each visible register (the lock-step pair: the RTL's value and the
 * reference's) and the interrupt line. */
static void json_regs(const run_opts *o, run_state *s)
{
    const pmu_family *fam = o->t.fam;
    pmu_state a, r;
    const int pair = snapshot_regs(s, &a, &r);
    printf("{\"cycles\": %" PRIu64 ", \"of\": \"%s\", \"visible\": [", s->loop.records, pair ? "rtl" : s->b->name);
    for (unsigned v = 0; v < fam->nvis; v++) {
        printf("%s\n    {\"name\": ", v ? "," : "");
        pmu_json_string(stdout, fam->vis[v].name);
        printf(", \"addr\": \"0x%03x\", \"value\": \"0x%016" PRIx64 "\"", fam->vis[v].addr, a.reg[v]);
        if (pair)
            printf(", \"reference\": \"0x%016" PRIx64 "\"", r.reg[v]);
        printf("}");
    }
    printf("],\n  \"pmi\": {\"value\": %u", a.pmi);
    if (pair)
        printf(", \"reference\": %u", r.pmi);
    printf("}}");
}

/* The traffic's entries as they were logged (the temporary file), as an array. */
static void json_traffic(run_state *s)
{
    char buf[8192];
    size_t n;
    printf("[");
    rewind(s->traffic_json);
    while ((n = fread(buf, 1, sizeof buf, s->traffic_json)) > 0)
        fwrite(buf, 1, n, stdout);
    printf("]");
}

/* The run as one JSON object (docs/json.md); m: the lock-step mismatch, if the run stopped at one. */
static void print_json(const run_opts *o, run_state *s, const pmu_cosim_mismatch *m)
{
    printf("{");
    pmu_cli_json_target(stdout, o->t.fam, s->b, &o->r);
    printf(",\n  \"config\": ");
    if (o->config)
        pmu_json_string(stdout, o->config);
    else
        printf("null");
    printf(",\n  \"records\": %" PRIu64 ", \"seconds\": %.6f,\n  ", s->loop.records, s->loop.seconds);
    /* At a mismatch the run stopped before its software finished: no totals compared. */
    pmu_cli_json_verdicts(stdout, s->b, s->loop.records, m ? -1 : s->exact);
    /* The software's results (the family's counter table): only when it finished. */
    printf(",\n  \"service\": ");
    if (!m && s->service_json)
        fwrite(s->service_json, 1, s->service_len, stdout);
    else
        printf("null");
    printf(",\n  \"mismatch\": ");
    if (m) {
        char cmd[2048];
        pmu_cli_json_mismatch(stdout, m);
        repro_command(o, m->cycle, cmd, sizeof cmd);
        printf(", \"reproduce\": ");
        pmu_json_string(stdout, cmd);
    } else {
        printf("null");
    }
    printf(",\n  \"registers\": ");
    if (o->dump_regs)
        json_regs(o, s);
    else
        printf("null");
    printf(",\n  \"traffic\": ");
    if (s->traffic_json)
        json_traffic(s);
    else
        printf("null");
    printf("\n}\n");
}

typedef struct run_start {
    const run_opts *o;
    run_state *s;
} run_start;

/* The software of the run: the family's overflow service programs the PMU (through the
 * traffic log when asked) and gives the loop its hooks; at the end it folds the last
 * counts, prints the counter table and checks the totals.  The engine calls both where the
 * software runs. */
static int start_software(void *arg, pmu_err *err)
{
    const run_start *r = arg;
    run_state *s = r->s;
    pmu_record_hooks hooks;
    pmu_backend *sw = s->log ? pmu_traffic_backend(s->log) : s->sw;
    if (s->writes) {
        pmu_writes_start(s->writes, sw, &hooks);
    } else if (!(s->svc = s->cmds->service_start(s->cfg, sw, r->o->irq_latency, pmu_source_gen(s->src), &hooks, err)))
        return -1;
    if (s->log)
        pmu_traffic_hooks(s->log, &hooks);
    if (s->tap)
        pmu_plot_tap_hooks(s->tap, &hooks);
    s->loop.hooks = hooks;
    return 0;
}

static void finish_software(void *arg)
{
    const run_start *r = arg;
    run_state *s = r->s;
    if (s->writes) {
        s->exact = pmu_writes_finish(s->writes, r->o->quiet, human(r->o));
        return;
    }
    /* --json: only the differences, on stderr (the verdict is the JSON's "exact"); the
     * results are kept for the JSON now, while the software still runs: reading them may
     * read registers, which the traffic log logs as the table's reads. */
    s->exact = s->cmds->service_finish(s->svc, r->o->quiet || r->o->json, human(r->o));
    if (r->o->json && s->cmds->service_json) {
        FILE *f = open_memstream(&s->service_json, &s->service_len);
        if (f) {
            s->cmds->service_json(s->svc, f);
            fclose(f);
        }
    }
}

static int run_body(const run_opts *o, run_state *s)
{
    pmu_err err;
    if (run_open(o, s, &err))
        return pmu_cli_error(&run_cmd, &err);
    if (!o->quiet && !o->json)
        print_header(o, s);
    s->loop = (pmu_cli_loop){.b = s->sw, .src = s->src, .record_size = o->t.fam->dialect->record_size,
                             .stop_at = o->stop_at, .wave_from = o->wave_from,
                             /* the RTL's registers are printed: where the pair stopped */
                             .unbatched = o->dump_regs,
                             .wave_path = s->waves ? pmu_outfile_path(s->waves) : NULL};
    run_start start = {o, s};
    const pmu_run_software sw = {start_software, finish_software, &start};
    pmu_loop_end end = s->e->loop(s->e->ctx, &s->loop, &sw, &err);
    if (end == PMU_LOOP_ERROR) {
        if (s->waves)
            pmu_outfile_fix_msg(s->waves, &err);
        return pmu_cli_error(&run_cmd, &err);
    }
    int status;
    const pmu_cosim_mismatch *m = NULL;
    if (end == PMU_LOOP_MISMATCH) {
        report_mismatch(o, s);
        m = pmu_cosim_first(s->b);
        status = PMU_EXIT_FAIL;
    } else {
        status = report_end(o, s);
    }
    if (o->dump_regs && !o->json)
        dump_regs(o, s);
    int wrote = finish_waves(o, s, m);
    int logged = finish_traffic(s);
    int plotted = finish_plot(o, s);
    if (o->json)
        print_json(o, s, m);
    return status ? status : wrote ? wrote : logged ? logged : plotted;
}

int pmu_cli_run(int argc, char **argv, const pmu_run_engine *e)
{
    run_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    run_state s;
    memset(&s, 0, sizeof s);
    s.e = e;
    s.cmds = o.t.fam->cmds;
    rc = run_body(&o, &s);
    run_close(&s);
    return rc;
}

/* ---- the C harness: the loop steps the backend and calls the software ---------------- */

static int c_open(void *ctx, const pmu_family *fam, unsigned model, pmu_backend_kind kind,
                  pmu_source *src, pmu_backend **checked, pmu_backend **sw, pmu_err *err)
{
    pmu_backend **b = ctx;
    if (!(*b = pmu_cli_backend(fam, model, kind, pmu_source_where, src, err)))
        return -1;
    *checked = *sw = *b;
    return 0;
}

static pmu_loop_end c_loop(void *ctx, pmu_cli_loop *l, const pmu_run_software *sw, pmu_err *err)
{
    (void)ctx;
    if (sw->start(sw->arg, err))
        return PMU_LOOP_ERROR;
    pmu_loop_end end = pmu_cli_loop_run(l, err);
    if (end == PMU_LOOP_END)
        sw->finish(sw->arg);
    return end;
}

static void c_close(void *ctx) { pmu_destroy(*(pmu_backend **)ctx); }

int pmusim_cmd_run(int argc, char **argv)
{
    pmu_backend *b = NULL;
    const pmu_run_engine c_harness = {.ctx = &b, .open = c_open, .loop = c_loop, .close = c_close};
    return pmu_cli_run(argc, argv, &c_harness);
}
