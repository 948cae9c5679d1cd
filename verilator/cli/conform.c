/*
 * conform.c - `pmusim conform`: reference-vs-RTL conformance over many seeds.
 *
 * Each run (one seed, one model) draws everything from its seed: the stream (the
 * generator's random or workload mode) and, through the family's hooks
 * (include/pmu_family_cmds.h), the initial programming and the software activity woven
 * between the records, answered by the harness's overflow service or, with
 * `--service driver`, by the family's driver, whose 64-bit counts must then equal the
 * reference's exact totals.  The lock-step checker compares every clock and every read.
 * A run either ends "0 mismatches" or stops at the first mismatch with the report and
 * the one-line command that replays it with a waveform of the cycles before it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pmu_cli.h"
#include "pmu_dialect.h"
#include "pmu_family_cmds.h"
#include "pmu_num.h"

#define WAVE_WINDOW 200
#define MAX_MODELS 32

enum { MODE_RANDOM, MODE_WORKLOAD, MODE_MIXED };
enum { SERVICE_HARNESS, SERVICE_DRIVER };
static const char *const mode_names[] = {"random", "workload", "mixed", NULL};
static const char *const service_names[] = {"harness", "driver", NULL};

typedef struct conform_opts {
    uint64_t seed, runs, cycles;
    pmu_cli_target t;
    unsigned models[MAX_MODELS]; /* the models to run, by index */
    unsigned nmodels;
    int mode, service;
    const char *waves;
    uint64_t wave_from;
    int wave_from_given;
} conform_opts;

static void conform_help(FILE *f)
{
    fprintf(f,
            "usage: pmusim conform [--seed N] [--runs N] [--cycles N] [--family NAME]\n"
            "                      [--model NAME|both] [--mode random|workload|mixed]\n"
            "                      [--service harness|driver] [--waves FILE --wave-from CYCLE]\n"
            "\n"
            "  --seed N          the first seed (default 1)\n"
            "  --runs N          seeds to run, one after the other (default 20)\n"
            "  --cycles N        records per run (default 200000)\n"
            "  --family NAME     the PMU family (default: the first, pmusim run --help lists them)\n"
            "  --model M         one of the family's models (default: its default model), or\n"
            "                    both (all: every model)\n"
            "  --mode M          generator mode: random, workload, or mixed (by seed parity, default)\n"
            "  --service S       what answers the interrupt line: harness (the harness's overflow\n"
            "                    service with random register activity, default) or driver (the\n"
            "                    family's driver; its 64-bit counts must equal the reference's)\n"
            "  --waves FILE      an FST waveform of each run from --wave-from on (replaced only\n"
            "                    when the run ends)\n"
            "\n"
            "exit status: 0 every run in lock-step, 1 a mismatch or inexact counts,\n"
            "             2 bad arguments\n");
}

static const pmu_cli_cmd conform_cmd = {.name = "conform", .help = conform_help};

/* --model: a model of the family, or both/all. */
static int resolve_models(conform_opts *o)
{
    const pmu_family *fam = o->t.fam;
    const char *name = o->t.model_name;
    o->nmodels = 0;
    if (name && (!strcmp(name, "both") || !strcmp(name, "all"))) {
        for (unsigned m = 0; m < fam->nmodels && m < MAX_MODELS; m++)
            o->models[o->nmodels++] = m;
        return 0;
    }
    int m = name ? pmu_family_model(fam, name) : (int)fam->default_model;
    if (m < 0) {
        const char *names[MAX_MODELS + 2];
        char list[512], shown[128];
        unsigned n = 0;
        for (; n < fam->nmodels && n < MAX_MODELS; n++)
            names[n] = fam->models[n].name;
        names[n++] = fam->nmodels == 2 ? "both" : "all";
        names[n] = NULL;
        pmu_cli_or_list(names, list, sizeof list);
        return pmu_cli_usage(&conform_cmd, "--model: expected %s, found '%s'", list,
                             pmu_escape(name, strlen(name), shown, sizeof shown));
    }
    o->models[o->nmodels++] = (unsigned)m;
    return 0;
}

static int parse(int argc, char **argv, conform_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->runs = 20;
    o->cycles = 200000;
    o->mode = MODE_MIXED;
    pmu_opt opts[12];
    unsigned n = pmu_cli_target_opts(&o->t, 0, opts);
    opts[n++] = (pmu_opt){.name = "seed", .kind = PMU_OPT_U64, .dest = &o->seed, .max = UINT64_MAX};
    opts[n++] = (pmu_opt){.name = "runs", .kind = PMU_OPT_U64, .dest = &o->runs, .min = 1,
                          .max = UINT64_MAX};
    opts[n++] = (pmu_opt){.name = "cycles", .kind = PMU_OPT_U64, .dest = &o->cycles, .min = 1,
                          .max = UINT64_MAX};
    opts[n++] = (pmu_opt){.name = "mode", .kind = PMU_OPT_CHOICE, .dest = &o->mode, .choices = mode_names};
    opts[n++] = (pmu_opt){.name = "service", .kind = PMU_OPT_CHOICE, .dest = &o->service,
                          .choices = service_names};
    opts[n++] = (pmu_opt){.name = "waves", .kind = PMU_OPT_FILE, .dest = &o->waves};
    opts[n++] = (pmu_opt){.name = "wave-from", .kind = PMU_OPT_U64, .dest = &o->wave_from,
                          .max = UINT64_MAX, .given = &o->wave_from_given};
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&conform_cmd, opts, n, argc, argv, args, &nargs);
    if (rc)
        return rc;
    if (o->wave_from_given && !o->waves)
        return pmu_cli_usage(&conform_cmd, "--wave-from: expected --waves FILE too");
    if (o->runs - 1 > UINT64_MAX - o->seed)
        return pmu_cli_usage(&conform_cmd,
                             "--runs: %" PRIu64 " runs from seed %" PRIu64 " pass the last seed, "
                             "2^64-1; expected at most %" PRIu64,
                             o->runs, o->seed, UINT64_MAX - o->seed + 1);
    const char *model = o->t.model_name;
    o->t.model_name = NULL; /* resolved here: it may be both */
    if ((rc = pmu_cli_target_resolve(&conform_cmd, &o->t)))
        return rc;
    o->t.model_name = model;
    return resolve_models(o);
}

/* ---- one run ---------------------------------------------------------------------------- */

typedef struct one_run {
    uint64_t seed;
    unsigned model;
    pmu_gen_mode mode;
    pmu_source *src;
    pmu_backend *b;
    pmu_fam_conform *sw;
    pmu_files *files;
    pmu_outfile *waves;
    pmu_outfile *layout; /* the GTKWave save file beside it (the family's layout) */
    pmu_cli_loop loop;
} one_run;

/* The lock-step pair exists before the records (the programming aims them): it asks the
 * source through this pointer. */
static const char *where(void *ctx)
{
    pmu_source *const *src = ctx;
    return *src ? pmu_source_where(*src) : "";
}

static void run_close(const pmu_family_cmds *cmds, one_run *r)
{
    if (r->loop.tracing)
        pmu_trace_close(r->b);
    if (r->sw)
        cmds->conform_free(r->sw);
    pmu_destroy(r->b);
    pmu_source_close(r->src);
    pmu_files_free(r->files);
}

/* Backend, programming, records, waveform file. */
static int run_open(const conform_opts *o, one_run *r, pmu_record_hooks *hooks, pmu_err *err)
{
    const pmu_family *fam = o->t.fam;
    pmu_gen_opts go = {.seed = r->seed, .cycles = o->cycles, .mode = r->mode, .nprocs = 4};
    if (!(r->b = pmu_cli_backend(fam, r->model, PMU_BACKEND_COSIM, where, &r->src, err)))
        return -1;
    /* The programming needs the workload's function list, so a first generator (same
     * seed, same stream) provides it; the records come from a second one aimed at it. */
    pmu_gen *layout = pmu_gen_create(fam->dialect, &go, err);
    if (!layout)
        return -1;
    const pmu_gen_hot *hot = NULL;
    r->sw = fam->cmds->conform_start(r->b, r->seed, layout, r->mode == PMU_GEN_WORKLOAD,
                                     o->service == SERVICE_DRIVER, &hot, hooks, err);
    pmu_gen_destroy(layout);
    if (!r->sw)
        return -1;
    go.hot = hot;
    if (!(r->src = pmu_source_generator(fam->dialect, &go, err)))
        return -1;
    if (!(r->files = pmu_files_new()))
        return pmu_errf(err, PMU_E_NOMEM, "out of memory");
    if (o->waves && !(r->waves = pmu_files_output(r->files, "--waves", o->waves,
                                                  PMU_OUT_SEEKABLE, err)))
        return -1;
    if (o->waves && pmu_cli_layout_prepare(r->files, fam, o->waves, &r->layout, err))
        return -1;
    return 0;
}

static void print_repro(const conform_opts *o, const one_run *r, uint64_t cycle)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s conform --seed %" PRIu64 " --runs 1 --cycles %" PRIu64, pmu_cli_program,
             r->seed, o->cycles);
    size_t n = strlen(cmd);
    if (o->t.family_name)
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, " --family %s", o->t.fam->name);
    snprintf(cmd + n, sizeof cmd - n, " --model %s --mode %s%s --waves mismatch.fst --wave-from %" PRIu64,
             o->t.fam->models[r->model].name, pmu_gen_mode_names[r->mode],
             o->service == SERVICE_DRIVER ? " --service driver" : "",
             cycle > WAVE_WINDOW ? cycle - WAVE_WINDOW : 0);
    printf("reproduce: %s\n", cmd);
}

/* The run's line (and report); 0 passed, 1 failed. */
static int report(const conform_opts *o, one_run *r, pmu_loop_end end)
{
    const char *model = o->t.fam->models[r->model].name;
    const char *service = o->service == SERVICE_DRIVER ? ", driver" : "";
    if (end == PMU_LOOP_MISMATCH) {
        const pmu_cosim_mismatch *m = pmu_cosim_first(r->b);
        char text[4096];
        pmu_cosim_format(m, text, sizeof text);
        printf("seed %" PRIu64 " model %s: MISMATCH\n%s", r->seed, model, text);
        print_repro(o, r, m->cycle);
        return 1;
    }
    uint64_t interrupts = 0;
    int exact = o->t.fam->cmds->conform_finish(r->sw, &interrupts, stdout);
    printf("seed %" PRIu64 " model %s (%s%s): %" PRIu64 " cycles, %" PRIu64 " interrupts, 0 mismatches%s\n",
           r->seed, model, pmu_gen_mode_names[r->mode], service, r->loop.records, interrupts,
           exact ? "" : "; the counts are NOT exact");
    return !exact;
}

typedef enum run_result { RUN_PASSED, RUN_FAILED, RUN_STOP } run_result;

/* One seed on one model.  RUN_STOP: the runs cannot go on (a setup or write failure;
 * message printed, the exit status in *status). */
static run_result conform_run(const conform_opts *o, uint64_t seed, unsigned model, int *status)
{
    one_run r = {.seed = seed, .model = model};
    r.mode = o->mode == MODE_MIXED ? (seed & 1 ? PMU_GEN_WORKLOAD : PMU_GEN_RANDOM)
                                   : (o->mode == MODE_WORKLOAD ? PMU_GEN_WORKLOAD : PMU_GEN_RANDOM);
    pmu_record_hooks hooks;
    pmu_err err;
    run_result result = RUN_STOP;
    pmu_loop_end end = PMU_LOOP_ERROR;
    if (run_open(o, &r, &hooks, &err) == 0) {
        r.loop = (pmu_cli_loop){.b = r.b, .src = r.src, .record_size = o->t.fam->dialect->record_size,
                                .hooks = hooks, .wave_from = o->wave_from,
                                .wave_path = r.waves ? pmu_outfile_path(r.waves) : NULL};
        end = pmu_cli_loop_run(&r.loop, &err);
        if (end == PMU_LOOP_ERROR && r.waves)
            pmu_outfile_fix_msg(r.waves, &err);
    }
    if (end != PMU_LOOP_ERROR) {
        result = report(o, &r, end) ? RUN_FAILED : RUN_PASSED;
        if (r.loop.tracing) { /* the waveform goes in place, a mismatch's above all */
            pmu_trace_close(r.b);
            r.loop.tracing = 0;
            if (pmu_outfile_commit(r.waves, NULL, &err) ||
                (r.layout && pmu_cli_layout_commit(r.layout, o->t.fam, o->waves, o->wave_from, r.loop.records,
                                                   end == PMU_LOOP_MISMATCH ? pmu_cosim_first(r.b) : NULL, &err)))
                result = RUN_STOP;
        }
    }
    if (result == RUN_STOP)
        *status = pmu_cli_error(&conform_cmd, &err);
    run_close(o->t.fam->cmds, &r);
    return result;
}

int pmusim_cmd_conform(int argc, char **argv)
{
    conform_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    printf("conformance: seeds %" PRIu64 "..%" PRIu64 ", %" PRIu64 " cycles each\n", o.seed,
           o.seed + (o.runs - 1), o.cycles);
    unsigned passed = 0, failed = 0;
    for (uint64_t i = 0; i < o.runs; i++) {
        for (unsigned m = 0; m < o.nmodels; m++) {
            int status;
            run_result res = conform_run(&o, o.seed + i, o.models[m], &status);
            if (res == RUN_STOP)
                return status;
            passed += res == RUN_PASSED;
            failed += res == RUN_FAILED;
        }
    }
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? PMU_EXIT_FAIL : PMU_EXIT_OK;
}
