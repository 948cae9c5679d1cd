/*
 * cmd_pfm.c - `pmusim pfm`: streams run on N 21064 CPUs, each with its own counter block
 * (the reference model and the RTL in lock-step by default) and its own stream, stepped
 * together, while the OS model and the pfm pseudo-device (sw/ev4/) do what a tool like
 * kprofile(1) asks of them; then the driver's counts, IPL histogram and PC profile by
 * function, and the exactness checks (docs/ev4-pfm.md).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/ev4/ev4_cycle.h"
#include "harness/ev4/ev4_family.h"
#include "common/ev4/ev4_regs.h"
#include "cli/ev4/ev4_session.h"
#include "cli/pmu_cli.h"
#include "cli/pmu_plot.h"
#include "cli/pmu_symtab.h"
#include "common/pmu_text.h"

#define MAX_SETTINGS 32

typedef struct pfm_opts {
    pmu_cli_target t;
    const char *streams[EV4_MAX_CPUS];
    unsigned nstreams;
    uint64_t seed, cycles;
    int mode, seed_given, cycles_given, mode_given, procs_given;
    unsigned procs, cpus;
    int cpus_given;
    const char *config, *symbols;
    int json, quiet;
    const char *plot;
    /* settings given as options, applied over the configuration in order */
    const char *key[MAX_SETTINGS], *value[MAX_SETTINGS];
    unsigned nsettings;
} pfm_opts;

static void pfm_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    fprintf(f,
            "usage: pmusim pfm [--cpus N] [--stream FILE]... [--seed N] [--cycles N] [--mode M] [--procs N]\n"
            "                  [--config FILE] [setting options] [--symbols FILE] [--json] [--quiet]\n"
            "                  [--plot FILE]\n"
            "                  [--model NAME] [--backend cosim|rtl|ref]\n"
            "Runs one stream per CPU on the Alpha 21064 counter blocks, the OS model and the OSF/1\n"
            "pfm pseudo-device answering their interrupts (docs/ev4-pfm.md), then prints what the\n"
            "driver reports: PCNTGETCNT, PCNTGETIPLHIS and the PC profile by function, and checks it\n"
            "against what the hardware did (exit 1 when it is not exact or lock-step broke).\n"
            "  --cpus N           CPUs, 1..%u (default 1; with --stream: one file per CPU)\n"
            "  --stream FILE      a CPU's records (docs/ev4-stream.md); give it once per CPU\n"
            "  --seed N --cycles N --mode workload|random --procs N\n"
            "                     the generator (default: seed 1, 1000000 cycles per CPU, workload,\n"
            "                     4 processes per CPU); CPU c gets stream c of one system\n"
            "  --config FILE      a pfm setup (docs/ev4-pfm.md, \"Setups\"); default: the built-in one\n"
            "setting options (each overrides the setup's line of the same name):\n"
            "  --open all|each|one   --caller PID   --bind CPU|none   --log all|select\n"
            "  --mux0 EVENT   --mux1 EVENT   --period0 65536|4096   --period1 4096|256\n"
            "  --disable 0|1|2   --items counters,ipl,profiling   --memlimit BYTES   --enable yes|no\n"
            "  --profile none|kernel|user   --profile 'kernel|user START END'  (a range: one quoted argument)\n"
            "  --symbols FILE     functions for the profile (pmusim gen --symbols); default: the generator's\n"
            "  --json             the results as one JSON object\n"
            "  --quiet            only the exactness and lock-step lines\n"
            "  --plot FILE        draw the interrupts per counter, the IPL histogram and the PC profile\n"
            "                     by function as bars (.svg, .png or .pdf; docs/plots.md)\n",
            EV4_MAX_CPUS);
    pmu_cli_target_help(f, cmd, fam, 1);
}

static const pmu_cli_cmd pfm_cmd = {.name = "pfm", .family_help = pfm_help, .family = &pmu_family_alpha21064};

static int add_stream(void *ctx, const char *opt, const char *value, pmu_err *err)
{
    pfm_opts *o = ctx;
    if (o->nstreams == EV4_MAX_CPUS)
        return pmu_errf(err, PMU_E_INPUT, "%s: at most %u streams (one per CPU)", opt, EV4_MAX_CPUS);
    o->streams[o->nstreams++] = value;
    return 0;
}

/* The setup's keys that are options too (ev4_setup_set). */
static const char *const settings[] = {"open", "caller", "bind", "log", "mux0", "mux1", "period0",
                                       "period1", "disable", "items", "profile", "memlimit", "enable"};
#define NSETTINGS (sizeof settings / sizeof settings[0])

static int add_setting(void *ctx, const char *opt, const char *value, pmu_err *err)
{
    pfm_opts *o = ctx;
    if (o->nsettings == MAX_SETTINGS)
        return pmu_errf(err, PMU_E_INPUT, "%s: too many settings", opt);
    /* opt ("--mux0") lives only as long as the call: keep the table's name. */
    unsigned i = 0;
    while (i < NSETTINGS && strcmp(opt + 2, settings[i]) != 0)
        i++;
    if (i == NSETTINGS)
        return pmu_errf(err, PMU_E_INTERNAL, "%s: not a setting", opt);
    o->key[o->nsettings] = settings[i];
    o->value[o->nsettings++] = value;
    return 0;
}

static int parse_opts(pfm_opts *o, int argc, char **argv)
{
    pmu_opt opts[48];
    unsigned n = pmu_cli_target_opts(&o->t, 1, opts);
    o->seed = 1;
    o->cycles = 1000000;
    o->cpus = 1;
    o->procs = 0;
    opts[n++] = (pmu_opt){.name = "stream", .kind = PMU_OPT_CALL, .call = add_stream, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "seed", .kind = PMU_OPT_U64, .dest = &o->seed, .max = UINT64_MAX, .given = &o->seed_given};
    opts[n++] = (pmu_opt){.name = "cycles", .kind = PMU_OPT_U64, .dest = &o->cycles, .min = 1, .max = UINT64_MAX,
                          .given = &o->cycles_given};
    opts[n++] = (pmu_opt){.name = "mode", .kind = PMU_OPT_CHOICE, .dest = &o->mode, .choices = pmu_gen_mode_names,
                          .given = &o->mode_given};
    opts[n++] = (pmu_opt){.name = "procs", .kind = PMU_OPT_UNSIGNED, .dest = &o->procs, .min = 1, .max = 64,
                          .given = &o->procs_given};
    opts[n++] = (pmu_opt){.name = "cpus", .kind = PMU_OPT_UNSIGNED, .dest = &o->cpus, .min = 1, .max = EV4_MAX_CPUS,
                          .given = &o->cpus_given};
    opts[n++] = (pmu_opt){.name = "config", .kind = PMU_OPT_FILE, .dest = &o->config};
    opts[n++] = (pmu_opt){.name = "symbols", .kind = PMU_OPT_FILE, .dest = &o->symbols};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &o->json};
    opts[n++] = (pmu_opt){.name = "quiet", .kind = PMU_OPT_FLAG, .dest = &o->quiet};
    opts[n++] = (pmu_opt){.name = "plot", .kind = PMU_OPT_FILE, .dest = &o->plot};
    for (unsigned i = 0; i < NSETTINGS; i++)
        opts[n++] = (pmu_opt){.name = settings[i], .kind = PMU_OPT_CALL, .call = add_setting, .ctx = o};
    const char *args[8];
    unsigned nargs;
    int rc = pmu_cli_parse(&pfm_cmd, opts, n, argc, argv, args, &nargs);
    if (rc)
        return rc;
    if ((rc = pmu_cli_target_resolve(&pfm_cmd, &o->t)))
        return rc;
    if (o->nstreams) {
        if (o->seed_given || o->mode_given || o->procs_given)
            return pmu_cli_usage(&pfm_cmd, "--seed, --mode and --procs are for the generator, not with --stream");
        if (o->cpus_given && o->cpus != o->nstreams)
            return pmu_cli_usage(&pfm_cmd, "--cpus %u: expected one --stream per CPU, found %u", o->cpus, o->nstreams);
        o->cpus = o->nstreams;
    }
    if (o->procs_given && o->mode == PMU_GEN_RANDOM)
        return pmu_cli_usage(&pfm_cmd, "--procs: expected --mode workload (random records have no processes)");
    return 0;
}

/* ---- a run ---- */

typedef struct pfm_run {
    unsigned ncpus;
    pmu_source *src[EV4_MAX_CPUS];
    pmu_backend *b[EV4_MAX_CPUS];
    drv_symtab *syms[EV4_MAX_CPUS];
    pmu_files *files;
    pmu_outfile *plot;
    ev4_session *x;
    ev4_setup setup;
    uint64_t records[EV4_MAX_CPUS];
} pfm_run;

static int load_setup(const pfm_opts *o, pfm_run *r, pmu_err *err)
{
    ev4_setup_default(&r->setup);
    r->setup.model = o->t.model;
    if (o->config) {
        char *text;
        size_t len;
        if (pmu_files_read(r->files, "--config", o->config, 1u << 20, "a pfm setup", &text, &len, err))
            return -1;
        int rc = ev4_setup_parse(&r->setup, text, len, strcmp(o->config, "-") ? o->config : "<stdin>", err);
        free(text);
        if (rc)
            return -1;
        if (r->setup.model_given && o->t.model_name && r->setup.model != o->t.model)
            return pmu_errf(err, PMU_E_INPUT, "%s: model = %s, but --model %s was given", o->config,
                            ev4_model_names[r->setup.model], o->t.model_name);
        if (o->t.model_name)
            r->setup.model = o->t.model;
    }
    for (unsigned i = 0; i < o->nsettings; i++) {
        char where[32];
        snprintf(where, sizeof where, "--%s", o->key[i]);
        if (ev4_setup_set(&r->setup, o->key[i], o->value[i], where, err))
            return -1;
    }
    return ev4_setup_check(&r->setup, o->cpus, o->config ? o->config : "the setup", err);
}

static int open_cpus(const pfm_opts *o, pfm_run *r, pmu_err *err)
{
    r->ncpus = o->cpus;
    for (unsigned c = 0; c < r->ncpus; c++) {
        if (o->nstreams) {
            if (!(r->src[c] = pmu_source_file(o->t.fam->dialect, o->streams[c], o->cycles_given ? o->cycles : 0, err))) {
                err->code = PMU_E_INPUT;
                return -1;
            }
            pmu_files_input(r->files, "--stream", o->streams[c]);
        } else {
            pmu_gen_opts g = {.seed = o->seed, .cycles = o->cycles, .mode = (pmu_gen_mode)o->mode,
                              .nprocs = o->procs, .cpu = c, .ncpus = r->ncpus};
            if (!(r->src[c] = pmu_source_generator(o->t.fam->dialect, &g, err)))
                return -1;
            if (!o->symbols && pmu_source_gen(r->src[c]))
                r->syms[c] = drv_symtab_from_gen(pmu_source_gen(r->src[c]));
        }
        if (!(r->b[c] = pmu_cli_backend(o->t.fam, r->setup.model, (pmu_backend_kind)o->t.backend,
                                        pmu_source_where, r->src[c], err)))
            return -1;
    }
    if (o->symbols)
        pmu_files_input(r->files, "--symbols", o->symbols);
    if (o->symbols && !(r->syms[0] = drv_symtab_load(o->symbols, err)))
        return -1;
    return 0;
}

/* Steps every CPU one record at a time until every stream has ended; 1 at the end, 0 on a
 * lock-step mismatch (*bad the CPU), -1 on a bad record (err filled). */
static int step_all(pfm_run *r, unsigned *bad, pmu_err *err)
{
    ev4_cycle rec;
    pmu_state st;
    int live[EV4_MAX_CPUS];
    unsigned nlive = r->ncpus;
    for (unsigned c = 0; c < r->ncpus; c++)
        live[c] = 1;
    while (nlive) {
        for (unsigned c = 0; c < r->ncpus; c++) {
            if (!live[c])
                continue;
            int got = pmu_source_next(r->src[c], &rec, err);
            if (got <= 0) {
                if (got < 0)
                    return -1;
                live[c] = 0;
                nlive--;
                continue;
            }
            if (ev4_session_admit(r->x, c, &rec, err)) {
                char where[320];
                snprintf(where, sizeof where, "%s", pmu_source_where(r->src[c]));
                char msg[sizeof err->msg];
                snprintf(msg, sizeof msg, "%s", err->msg);
                return pmu_errf(err, PMU_E_INPUT, "%s: %s", where, msg);
            }
            *bad = c;
            if (pmu_cosim_mismatches(r->b[c]))
                return 0;
            pmu_step(r->b[c], &rec);
            pmu_snapshot(r->b[c], &st);
            ev4_session_after(r->x, c, &rec, &st);
            r->records[c]++;
            if (pmu_cosim_mismatches(r->b[c]))
                return 0;
        }
    }
    return 1;
}

static void print_header(const pfm_opts *o, const pfm_run *r)
{
    const pmu_backend *b = r->b[0];
    printf("pmusim pfm: %s, backend %s, %u CPU%s, ", o->t.fam->models[b->model].title, b->name, r->ncpus,
           r->ncpus == 1 ? "" : "s");
    if (o->nstreams)
        printf("streams from files\n");
    else
        printf("generated %s streams, seed %" PRIu64 ", %" PRIu64 " cycles per CPU\n", pmu_gen_mode_names[o->mode],
               o->seed, o->cycles);
    printf("setup: %s\n", o->config ? o->config : "built in");
    ev4_setup_print(&r->setup, "  ", stdout);
}

/* The records stepped on every CPU. */
static uint64_t total_records(const pfm_run *r)
{
    uint64_t total = 0;
    for (unsigned c = 0; c < r->ncpus; c++)
        total += r->records[c];
    return total;
}

/* --json: the report on stderr, and a document with the mismatch (docs/json.md). */
static void report_mismatch(const pfm_opts *o, const pfm_run *r, unsigned c)
{
    const pmu_cosim_mismatch *m = pmu_cosim_first(r->b[c]);
    char text[4096];
    FILE *out = o->json ? stderr : stdout;
    pmu_cosim_format(m, text, sizeof text);
    fprintf(out, "CPU %u:\n%s", c, text);
    o->t.fam->cmds->mismatch_detail(m, r->b[c], out);
    if (!o->nstreams)
        fprintf(out, "  seed:     %" PRIu64 " (%s mode), CPU %u of %u\n", o->seed, pmu_gen_mode_names[o->mode], c,
                r->ncpus);
    fprintf(out, "lock-step: MISMATCH on CPU %u at cycle %" PRIu64 "\n", c, m->cycle);
    if (o->json) {
        printf("{\"cpus\": %u, \"exact\": null, \"lockstep\": {\"cycles\": %" PRIu64 ", \"mismatches\": %" PRIu64
               ", \"cpu\": %u},\n  \"mismatch\": ", r->ncpus, total_records(r), pmu_cosim_mismatches(r->b[c]), c);
        pmu_cli_json_mismatch(stdout, m);
        printf("}\n");
    }
}

static void run_free(pfm_run *r)
{
    ev4_session_free(r->x);
    for (unsigned c = 0; c < EV4_MAX_CPUS; c++) {
        pmu_destroy(r->b[c]);
        if (r->src[c])
            pmu_source_close(r->src[c]);
        if (r->syms[c])
            drv_symtab_free(r->syms[c]);
    }
    pmu_files_free(r->files);
}

static int run(const pfm_opts *o, pfm_run *r, pmu_err *err)
{
    if (!(r->files = pmu_files_new()))
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    if (load_setup(o, r, err) || open_cpus(o, r, err))
        return PMU_EXIT_USAGE;
    if (o->plot && !(r->plot = pmu_plot_output(r->files, "--plot", o->plot, err)))
        return PMU_EXIT_USAGE;
    const drv_symtab *syms[EV4_MAX_CPUS];
    for (unsigned c = 0; c < EV4_MAX_CPUS; c++)
        syms[c] = r->syms[c];
    if (!(r->x = ev4_session_start(&r->setup, r->ncpus, r->b, syms, err)))
        return PMU_EXIT_USAGE;
    if (!o->json && !o->quiet)
        print_header(o, r);
    unsigned bad = 0;
    int end = step_all(r, &bad, err);
    if (end < 0)
        return PMU_EXIT_USAGE;
    if (end == 0) {
        report_mismatch(o, r, bad);
        return PMU_EXIT_FAIL;
    }
    if (ev4_session_finish(r->x, err))
        return PMU_EXIT_FAIL;
    if (r->plot) {
        char title[160];
        snprintf(title, sizeof title, "pmusim pfm: %s, %u CPU%s, %" PRIu64 " cycles", o->t.fam->models[o->t.model].title,
                 r->ncpus, r->ncpus == 1 ? "" : "s", total_records(r));
        if (ev4_session_plot(r->x, r->plot, title, err))
            return PMU_EXIT_FAIL;
    }
    if (o->json) {
        /* The verdicts are members: the check first (its lines on stderr). */
        int exact = ev4_session_check(r->x, 1, stderr);
        ev4_session_print_json(r->x, stdout);
        printf(",\"exact\":%s,\"lockstep\":", pmu_json_verdict(pmu_has_total(r->b[0]) ? exact : -1));
        if (pmu_is_cosim(r->b[0]))
            printf("{\"cycles\":%" PRIu64 ",\"mismatches\":0}}\n", total_records(r));
        else
            printf("null}\n");
        return exact ? PMU_EXIT_OK : PMU_EXIT_FAIL;
    }
    if (!o->quiet)
        ev4_session_print(r->x, stdout);
    int exact = ev4_session_check(r->x, 0, stdout);
    if (pmu_is_cosim(r->b[0]))
        printf("lock-step: %u CPU%s, %" PRIu64 " cycles, 0 mismatches\n", r->ncpus, r->ncpus == 1 ? "" : "s",
               total_records(r));
    return exact ? PMU_EXIT_OK : PMU_EXIT_FAIL;
}

int ev4_cmd_pfm(int argc, char **argv)
{
    pfm_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse_opts(&o, argc, argv);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    pfm_run r;
    memset(&r, 0, sizeof r);
    pmu_err err;
    pmu_err_clear(&err);
    int status = run(&o, &r, &err);
    if (status != PMU_EXIT_OK && err.msg[0])
        status = pmu_cli_error(&pfm_cmd, &err);
    run_free(&r);
    return status;
}
