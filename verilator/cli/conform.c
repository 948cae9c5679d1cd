/*
 * conform.c - `pmusim conform`: reference-vs-RTL conformance over many seeds.
 *
 * Each run (one case: a seed of one family, model, configuration and service) draws
 * everything from its seed: the stream (the generator's random or workload mode) and,
 * through the family's hooks (include/cli/pmu_family_cmds.h), the initial programming and the
 * software activity woven between the records, answered by the harness's overflow service
 * or, with `--service driver`, by the family's driver, whose 64-bit counts must then equal
 * the reference's exact totals.  The configuration `qual` is the qualifier-heavy programming
 * (every range and pattern programmed, events that read them) on either stream.  The
 * lock-step checker compares every clock and every read.  A run either ends "0 mismatches"
 * or stops at the first mismatch with the report and the one-line command that replays it
 * with a waveform of the cycles before it.
 *
 * `--matrix` runs every family x model x configuration x service for each seed; `--shard
 * I/N` runs the cases whose index is I-1 modulo N, so that independent processes share a
 * plan; `--junit` and `--json` write the shard's results (conform_report.c), which
 * `pmusim conform-merge` (conform_merge.c) puts together (docs/conformance.md).
 */
#define _XOPEN_SOURCE 700 /* clock_gettime, open_memstream */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_plot.h"
#include "common/pmu_dialect.h"
#include "cli/pmu_family_cmds.h"
#include "common/pmu_num.h"

#define MAX_MODELS 32
#define MAX_CASES_PER_SEED 256 /* families x models x configurations x services, far above */

/* --mode: the configuration of a run.  mixed and qual take the stream's mode from the
 * seed's parity (odd: workload); qual also programs every qualifier. */
enum { MODE_RANDOM, MODE_WORKLOAD, MODE_MIXED, MODE_QUAL };
enum { SERVICE_HARNESS, SERVICE_DRIVER };
static const char *const mode_names[] = {"random", "workload", "mixed", "qual", NULL};
static const char *const service_names[] = {"harness", "driver", NULL};

typedef struct conform_opts {
    uint64_t seed, runs, cycles;
    pmu_cli_target t;
    unsigned models[MAX_MODELS]; /* the models to run, by index */
    unsigned nmodels;
    int mode, service;
    int mode_given, service_given;
    int matrix;
    uint64_t shard, nshards;     /* 1-based: this process runs the cases i with i % nshards == shard - 1 */
    const char *shard_text;
    const char *junit, *json;
    const char *plot;
    const char *waves;
    uint64_t wave_from;
    int wave_from_given;
} conform_opts;

static void conform_help(FILE *f)
{
    fprintf(f,
            "usage: pmusim conform [--seed N] [--runs N] [--cycles N] [--family NAME]\n"
            "                      [--model NAME|both] [--mode random|workload|mixed|qual]\n"
            "                      [--service harness|driver] [--matrix] [--shard I/N]\n"
            "                      [--junit FILE] [--json FILE] [--waves FILE --wave-from CYCLE]\n"
            "                      [--plot FILE]\n"
            "\n"
            "  --seed N          the first seed (default 1)\n"
            "  --runs N          seeds to run, one after the other (default 20)\n"
            "  --cycles N        records per run (default 200000)\n"
            "  --family NAME     the PMU family (default: the first, pmusim run --help lists them;\n"
            "                    with --matrix: every family)\n"
            "  --model M         one of the family's models (default: its default model), or\n"
            "                    both (all: every model)\n"
            "  --mode M          the configuration: the generator's random or workload stream,\n"
            "                    mixed (random or workload by seed parity, default), or qual (the\n"
            "                    qualifier-heavy programming on a stream chosen as by mixed)\n"
            "  --service S       what answers the interrupt line: harness (the harness's overflow\n"
            "                    service with random register activity, default) or driver (the\n"
            "                    family's driver; its 64-bit counts must equal the reference's)\n"
            "  --matrix          every model, configuration (random, workload, and qual where the\n"
            "                    family has qualifiers) and service of the family (of every family\n"
            "                    without --family), for each seed\n"
            "  --shard I/N       run only the I-th of N slices of the cases (I = 1..N): the cases\n"
            "                    whose index is I-1 modulo N, in the order seed, family, model,\n"
            "                    configuration, service\n"
            "  --junit FILE      the results as JUnit XML (one testcase a case)\n"
            "  --json FILE       the results as a JSON summary (pmusim conform-merge reads it)\n"
            "  --plot FILE       draw the case times and lock-step cycles by family and each case's\n"
            "                    time as bars (.svg, .png or .pdf; docs/plots.md)\n"
            "  --waves FILE      an FST waveform of each run from --wave-from on (replaced only\n"
            "                    when the run ends), and its GTKWave layout beside it\n"
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

/* --shard I/N. */
static int parse_shard(void *ctx, const char *opt, const char *value, pmu_err *err)
{
    conform_opts *o = ctx;
    const char *slash = strchr(value, '/');
    char shown[64];
    if (!slash)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected I/N (the I-th of N shards, 1 <= I <= N), found '%s'", opt,
                        pmu_escape(value, strlen(value), shown, sizeof shown));
    if (pmu_parse_u64n(value, (size_t)(slash - value), 1, UINT32_MAX, "--shard: I", &o->shard, err) ||
        pmu_parse_u64(slash + 1, 1, UINT32_MAX, "--shard: N", &o->nshards, err))
        return -1;
    if (o->shard > o->nshards)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected I/N with I <= N, found '%s'", opt,
                        pmu_escape(value, strlen(value), shown, sizeof shown));
    o->shard_text = value;
    return 0;
}

static int parse(int argc, char **argv, conform_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->runs = 20;
    o->cycles = 200000;
    o->mode = MODE_MIXED;
    o->shard = o->nshards = 1;
    pmu_opt opts[20];
    unsigned n = pmu_cli_target_opts(&o->t, 0, opts);
    opts[n++] = (pmu_opt){.name = "seed", .kind = PMU_OPT_U64, .dest = &o->seed, .max = UINT64_MAX};
    opts[n++] = (pmu_opt){.name = "runs", .kind = PMU_OPT_U64, .dest = &o->runs, .min = 1,
                          .max = UINT64_MAX};
    opts[n++] = (pmu_opt){.name = "cycles", .kind = PMU_OPT_U64, .dest = &o->cycles, .min = 1,
                          .max = UINT64_MAX};
    opts[n++] = (pmu_opt){.name = "mode", .kind = PMU_OPT_CHOICE, .dest = &o->mode, .choices = mode_names,
                          .given = &o->mode_given};
    opts[n++] = (pmu_opt){.name = "service", .kind = PMU_OPT_CHOICE, .dest = &o->service,
                          .choices = service_names, .given = &o->service_given};
    opts[n++] = (pmu_opt){.name = "matrix", .kind = PMU_OPT_FLAG, .dest = &o->matrix};
    opts[n++] = (pmu_opt){.name = "shard", .kind = PMU_OPT_CALL, .call = parse_shard, .ctx = o};
    opts[n++] = (pmu_opt){.name = "junit", .kind = PMU_OPT_FILE, .dest = &o->junit};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FILE, .dest = &o->json};
    opts[n++] = (pmu_opt){.name = "plot", .kind = PMU_OPT_FILE, .dest = &o->plot};
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
    if (o->matrix && (o->t.model_name || o->mode_given || o->service_given))
        return pmu_cli_usage(&conform_cmd, "--matrix: runs every model, configuration and service; "
                                           "expected no --model, --mode or --service with it");
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
    if (!o->matrix && o->mode == MODE_QUAL && !o->t.fam->cmds->conform_qual)
        return pmu_cli_usage(&conform_cmd, "--mode: qual: the %s has no event qualifiers; expected "
                                           "random, workload or mixed", o->t.fam->title);
    return o->matrix ? 0 : resolve_models(o);
}

/* ---- the cases ---------------------------------------------------------------------------- */

/* One case of the plan. */
typedef struct conform_case {
    const pmu_family *fam;
    unsigned model;
    int mode;    /* MODE_RANDOM, MODE_WORKLOAD or MODE_QUAL (mixed resolved by seed) */
    int service;
    uint64_t seed;
} conform_case;

/* The cases of one seed, in the plan's order; returns how many. */
static unsigned seed_cases(const conform_opts *o, uint64_t seed, conform_case *out)
{
    unsigned n = 0;
    if (!o->matrix) {
        const int mode = o->mode == MODE_MIXED ? (seed & 1 ? MODE_WORKLOAD : MODE_RANDOM) : o->mode;
        for (unsigned m = 0; m < o->nmodels; m++)
            out[n++] = (conform_case){o->t.fam, o->models[m], mode, o->service, seed};
        return n;
    }
    for (unsigned f = 0; f < pmu_nfamilies; f++) {
        const pmu_family *fam = pmu_families[f];
        if ((o->t.family_name && fam != o->t.fam) || !fam->cmds || !fam->cmds->conform_start)
            continue;
        for (unsigned m = 0; m < fam->nmodels; m++)
            for (int mode = MODE_RANDOM; mode <= MODE_QUAL; mode++) {
                if (mode == MODE_MIXED || (mode == MODE_QUAL && !fam->cmds->conform_qual))
                    continue;
                for (int svc = SERVICE_HARNESS; svc <= SERVICE_DRIVER; svc++)
                    if (n < MAX_CASES_PER_SEED)
                        out[n++] = (conform_case){fam, m, mode, svc, seed};
            }
    }
    return n;
}

/* The stream of a case: qual takes it from the seed's parity, as mixed does. */
static pmu_gen_mode case_stream(const conform_case *c)
{
    if (c->mode == MODE_QUAL)
        return c->seed & 1 ? PMU_GEN_WORKLOAD : PMU_GEN_RANDOM;
    return c->mode == MODE_WORKLOAD ? PMU_GEN_WORKLOAD : PMU_GEN_RANDOM;
}

/* What defines the case list: the same plan text, the same cases in the same order. */
static void plan_text(const conform_opts *o, char *buf, size_t size)
{
    int n = snprintf(buf, size, "seed %" PRIu64 ", runs %" PRIu64 ", cycles %" PRIu64, o->seed, o->runs, o->cycles);
    if (o->matrix) {
        snprintf(buf + n, size - (size_t)n, ", matrix of %s", o->t.family_name ? o->t.fam->name : "every family");
        return;
    }
    n += snprintf(buf + n, size - (size_t)n, ", family %s, model", o->t.fam->name);
    for (unsigned m = 0; m < o->nmodels; m++)
        n += snprintf(buf + n, size - (size_t)n, "%s %s", m ? "," : "", o->t.fam->models[o->models[m]].name);
    snprintf(buf + n, size - (size_t)n, ", mode %s, service %s", mode_names[o->mode], service_names[o->service]);
}

/* ---- one run ---------------------------------------------------------------------------- */

typedef struct one_run {
    conform_case c;
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

static void run_close(one_run *r)
{
    if (r->loop.tracing)
        pmu_trace_close(r->b, NULL); /* a failed run: the waveform is dropped anyway */
    if (r->sw)
        r->c.fam->cmds->conform_free(r->sw);
    pmu_destroy(r->b);
    pmu_source_close(r->src);
    pmu_files_free(r->files);
}

/* Backend, programming, records, waveform file. */
static int run_open(const conform_opts *o, one_run *r, pmu_record_hooks *hooks, pmu_err *err)
{
    const pmu_family *fam = r->c.fam;
    const pmu_gen_mode stream = case_stream(&r->c);
    pmu_gen_opts go = {.seed = r->c.seed, .cycles = o->cycles, .mode = stream, .nprocs = 4};
    if (!(r->b = pmu_cli_backend(fam, r->c.model, PMU_BACKEND_COSIM, where, &r->src, err)))
        return -1;
    /* The programming needs the workload's function list, so a first generator (same
     * seed, same stream) provides it; the records come from a second one aimed at it. */
    pmu_gen *layout = pmu_gen_create(fam->dialect, &go, err);
    if (!layout)
        return -1;
    const pmu_gen_hot *hot = NULL;
    r->sw = fam->cmds->conform_start(r->b, r->c.seed, layout, stream == PMU_GEN_WORKLOAD,
                                     r->c.service == SERVICE_DRIVER, r->c.mode == MODE_QUAL, &hot, hooks, err);
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

/* The command that replays the case alone, with a waveform of the cycles before `cycle`. */
static void replay_command(const conform_opts *o, const conform_case *c, uint64_t cycle, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s conform --seed %" PRIu64 " --runs 1 --cycles %" PRIu64, pmu_cli_program,
                     c->seed, o->cycles);
    if (o->t.family_name || o->matrix)
        n += snprintf(buf + n, size - (size_t)n, " --family %s", c->fam->name);
    snprintf(buf + n, size - (size_t)n, " --model %s --mode %s%s --waves mismatch.fst --wave-from %" PRIu64,
             c->fam->models[c->model].name, c->mode == MODE_QUAL ? "qual" : pmu_gen_mode_names[case_stream(c)],
             c->service == SERVICE_DRIVER ? " --service driver" : "", pmu_cli_replay_wave_from(cycle));
}

/* "model itanium2 (workload)", with the family in a matrix and the configuration's parts. */
static void case_label(const conform_opts *o, const conform_case *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%smodel %s (%s%s%s)", o->matrix ? "family " : "", o->matrix ? c->fam->name : "",
             o->matrix ? " " : "", c->fam->models[c->model].name, c->mode == MODE_QUAL ? "qual, " : "",
             pmu_gen_mode_names[case_stream(c)], c->service == SERVICE_DRIVER ? ", driver" : "");
}

/* The run's line (and report) into res. */
static void report(const conform_opts *o, one_run *r, pmu_loop_end end, pmu_conform_result *res)
{
    char label[160], replay[1024];
    const conform_case *c = &r->c;
    case_label(o, c, label, sizeof label);
    res->cycles = r->loop.records;
    if (end == PMU_LOOP_MISMATCH) {
        /* run's report (the counter, the seed), kept for the summary too */
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (mem) {
            pmu_cli_mismatch_report(mem, c->fam, r->b, &c->seed, case_stream(c));
            fclose(mem);
        }
        printf("seed %" PRIu64 " %s: MISMATCH\n%s", c->seed, label, text ? text : "");
        replay_command(o, c, pmu_cosim_first(r->b)->cycle, replay, sizeof replay);
        printf("reproduce: %s\n", replay);
        res->status = PMU_CONFORM_MISMATCH;
        res->message = text; /* NULL: out of memory, which the caller reports */
        res->replay = strdup(replay);
        return;
    }
    /* The family's verdict on the counts goes to stdout and, for the summary, into the
     * case's message. */
    char *why = NULL;
    size_t why_len = 0;
    FILE *mem = open_memstream(&why, &why_len);
    uint64_t interrupts = 0;
    int exact = c->fam->cmds->conform_finish(r->sw, &interrupts, mem ? mem : stdout);
    if (mem) {
        fclose(mem);
        fputs(why, stdout);
    }
    res->interrupts = interrupts;
    printf("seed %" PRIu64 " %s: %" PRIu64 " cycles, %" PRIu64 " interrupts, 0 mismatches%s\n", c->seed, label,
           r->loop.records, interrupts, exact ? "" : "; the counts are NOT exact");
    replay_command(o, c, r->loop.records, replay, sizeof replay);
    res->status = exact ? PMU_CONFORM_PASSED : PMU_CONFORM_INEXACT;
    if (!exact) {
        char head[256];
        snprintf(head, sizeof head, "the driver's 64-bit counts are not the reference's exact totals\n");
        size_t len = strlen(head) + (why ? why_len : 0) + 1;
        if ((res->message = malloc(len)))
            snprintf(res->message, len, "%s%s", head, why ? why : "");
    }
    res->replay = strdup(replay);
    free(why);
}

typedef enum run_result { RUN_PASSED, RUN_FAILED, RUN_STOP } run_result;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One case.  RUN_STOP: the runs cannot go on (a setup or write failure; message printed,
 * the exit status in *status).  Otherwise *res holds its result (message and replay
 * allocated). */
static run_result conform_run(const conform_opts *o, const conform_case *c, pmu_conform_result *res, int *status)
{
    one_run r = {.c = *c};
    pmu_record_hooks hooks;
    pmu_err err;
    run_result result = RUN_STOP;
    pmu_loop_end end = PMU_LOOP_ERROR;
    const double start = now();
    memset(res, 0, sizeof *res);
    snprintf(res->family, sizeof res->family, "%s", c->fam->name);
    snprintf(res->model, sizeof res->model, "%s", c->fam->models[c->model].name);
    snprintf(res->config, sizeof res->config, "%s", mode_names[c->mode]);
    snprintf(res->service, sizeof res->service, "%s", service_names[c->service]);
    res->seed = c->seed;
    if (run_open(o, &r, &hooks, &err) == 0) {
        r.loop = (pmu_cli_loop){.b = r.b, .src = r.src, .record_size = c->fam->dialect->record_size,
                                .hooks = hooks, .wave_from = o->wave_from,
                                .wave_path = r.waves ? pmu_outfile_path(r.waves) : NULL};
        end = pmu_cli_loop_run(&r.loop, &err);
        if (end == PMU_LOOP_ERROR && r.waves)
            pmu_outfile_fix_msg(r.waves, &err);
    }
    if (end != PMU_LOOP_ERROR) {
        report(o, &r, end, res);
        result = res->status == PMU_CONFORM_PASSED ? RUN_PASSED : RUN_FAILED;
        if (!res->replay || (res->status != PMU_CONFORM_PASSED && !res->message)) {
            result = RUN_STOP;
            pmu_errf(&err, PMU_E_NOMEM, "out of memory");
        }
        if (r.loop.tracing) { /* the waveform goes in place, a mismatch's above all */
            r.loop.tracing = 0;
            int lost = pmu_trace_close(r.b, &err);
            if (lost)
                pmu_outfile_fix_msg(r.waves, &err);
            if (lost || pmu_outfile_commit(r.waves, NULL, &err) ||
                (r.layout && pmu_cli_layout_commit(r.layout, c->fam, o->waves, o->wave_from, r.loop.records,
                                                   end == PMU_LOOP_MISMATCH ? pmu_cosim_first(r.b) : NULL, &err)))
                result = RUN_STOP;
        }
    }
    res->seconds = now() - start;
    if (result == RUN_STOP) {
        *status = pmu_cli_error(&conform_cmd, &err);
        free(res->message);
        free(res->replay);
    }
    run_close(&r);
    return result;
}

/* ---- the results as files ------------------------------------------------------------------ */

/* One results file through its temporary file: 0, or the exit status with the message
 * printed. */
/* The bar of `label` in l (added with 0 when new): its index, or -1 out of memory. */
static int bar_of(pmu_plot_barlist *l, const char *label)
{
    for (unsigned i = 0; i < l->n; i++)
        if (strcmp(l->labels[i], label) == 0)
            return (int)i;
    return pmu_plot_barlist_add(l, label, 0) ? -1 : (int)l->n - 1;
}

/* --plot (docs/plots.md): by family, the cases' time, lock-step cycles and speed, and each
 * case's time, as bar charts into output o, committed.  0, or -1 with err filled.  (Here,
 * not in conform_report.c, which programs that do not draw link.) */
static int conform_plot(pmu_outfile *o, const pmu_conform_summary *s, pmu_err *err)
{
    pmu_plot_barlist l[4];
    memset(l, 0, sizeof l);
    int oom = 0;
    char name[256];
    for (size_t i = 0; i < s->n && !oom; i++) {
        const pmu_conform_result *r = &s->r[i];
        const int t = bar_of(&l[0], r->family), c = bar_of(&l[1], r->family);
        pmu_conform_case_name(r, name, sizeof name);
        if (t < 0 || c < 0 || pmu_plot_barlist_add(&l[3], name, r->seconds)) {
            oom = 1;
            break;
        }
        l[0].values[t] += r->seconds;
        l[1].values[c] += (double)r->cycles;
    }
    /* the speed of each family's lock-step runs */
    for (unsigned f = 0; f < l[0].n && !oom; f++)
        oom = pmu_plot_barlist_add(&l[2], l[0].labels[f], l[0].values[f] > 0 ? l[1].values[f] / l[0].values[f] : 0);
    int rc;
    if (oom) {
        rc = pmu_errf(err, PMU_E_NOMEM, "out of memory");
    } else {
        const pmu_plot_bars charts[4] = {
            pmu_plot_barlist_chart(&l[0], "case time by family", "s"),
            pmu_plot_barlist_chart(&l[1], "lock-step cycles by family", "cycles"),
            pmu_plot_barlist_chart(&l[2], "lock-step speed by family", "cycles/s"),
            pmu_plot_barlist_chart(&l[3], "time of each case", "s"),
        };
        char title[600];
        snprintf(title, sizeof title, "pmusim conform: %zu cases (%s)", s->n, s->plan);
        rc = pmu_plot_bars_write(o, title, charts, 4, err);
    }
    for (unsigned k = 0; k < 4; k++)
        pmu_plot_barlist_free(&l[k]);
    return rc;
}

static int write_results(pmu_outfile *out, const char *opt, const pmu_conform_summary *s, int junit)
{
    pmu_err err;
    return pmu_conform_save(out, opt, s, junit, &err) ? pmu_cli_error(&conform_cmd, &err) : 0;
}

int pmusim_cmd_conform(int argc, char **argv)
{
    conform_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    /* The result files are prepared first: an output that cannot be written stops the
     * command before hours of runs. */
    pmu_err err;
    pmu_files *files = pmu_files_new();
    pmu_outfile *junit = NULL, *json = NULL, *plot = NULL;
    if (!files)
        return pmu_cli_fail(&conform_cmd, PMU_EXIT_FAIL, "out of memory");
    if ((o.junit && !(junit = pmu_files_output(files, "--junit", o.junit, 0, &err))) ||
        (o.json && !(json = pmu_files_output(files, "--json", o.json, 0, &err))) ||
        (o.plot && !(plot = pmu_plot_output(files, "--plot", o.plot, &err)))) {
        pmu_files_free(files);
        return pmu_cli_error(&conform_cmd, &err);
    }
    pmu_conform_summary sum;
    memset(&sum, 0, sizeof sum);
    plan_text(&o, sum.plan, sizeof sum.plan);
    pmu_conform_stamp(&sum);
    sum.shard = (unsigned)o.shard;
    sum.nshards = (unsigned)o.nshards;
    conform_case cases[MAX_CASES_PER_SEED];
    const unsigned per_seed = seed_cases(&o, o.seed, cases);
    sum.plan_cases = o.runs * per_seed; /* the same count for every seed */
    printf("conformance: seeds %" PRIu64 "..%" PRIu64 ", %" PRIu64 " cycles each", o.seed, o.seed + (o.runs - 1),
           o.cycles);
    if (o.matrix || o.nshards > 1)
        printf(", %" PRIu64 " cases%s%s", sum.plan_cases, o.nshards > 1 ? ", shard " : "",
               o.nshards > 1 ? o.shard_text : "");
    printf("\n");
    unsigned passed = 0, failed = 0;
    int status = PMU_EXIT_OK, stopped = 0;
    uint64_t index = 0;
    for (uint64_t i = 0; i < o.runs && !stopped; i++) {
        const unsigned n = seed_cases(&o, o.seed + i, cases);
        for (unsigned k = 0; k < n && !stopped; k++, index++) {
            if (index % o.nshards != o.shard - 1)
                continue;
            pmu_conform_result res;
            run_result r = conform_run(&o, &cases[k], &res, &status);
            if (r == RUN_STOP) {
                stopped = 1;
                break;
            }
            res.index = index;
            passed += r == RUN_PASSED;
            failed += r == RUN_FAILED;
            int lost = pmu_conform_add(&sum, &res);
            free(res.message);
            free(res.replay);
            if (lost) {
                status = pmu_cli_fail(&conform_cmd, PMU_EXIT_FAIL, "out of memory");
                stopped = 1;
            }
        }
    }
    if (!stopped) {
        if ((junit && (status = write_results(junit, "--junit", &sum, 1))) ||
            (json && (status = write_results(json, "--json", &sum, 0))))
            stopped = 1;
        else if (plot && conform_plot(plot, &sum, &err)) {
            status = pmu_cli_error(&conform_cmd, &err);
            stopped = 1;
        }
    }
    pmu_conform_free(&sum);
    pmu_files_free(files);
    if (stopped)
        return status;
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? PMU_EXIT_FAIL : PMU_EXIT_OK;
}
