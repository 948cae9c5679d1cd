/*
 * pmusim.c - the `pmusim` command: `run` (this file), `gen` and `conv` (the stream
 * library), `conform` (conform/conform.c), `encode`, `count` and `profile` (sw/).  `pmusim run --help` lists the options; docs/debugging.md shows a run
 * that finds a mismatch.
 *
 * A run: create the backend (reference and RTL in lock-step by default), program it
 * from the configuration, then for each cycle record: step, hand the interrupt line
 * to the overflow service, stop at the first lock-step mismatch.  At the end the
 * service folds the final counts and, where a reference model runs, its 64-bit
 * totals must equal the reference's exact event totals.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conform.h"
#include "sw_cmds.h"
#include "ita/pmu_config.h"
#include "pmu_cosim.h"
#include "ita/ita_family.h"
#include "ita/pmu_isr.h"
#include "ita/pmu_ref.h"
#include "ita/pmu_rtl.h"
#include "pmu_stream.h"

#define EXIT_FAIL 1  /* a lock-step mismatch, inexact totals or a runtime error */
#define EXIT_USAGE 2
#define WAVE_WINDOW 200     /* cycles of waveform before a mismatch in the repro command */
#define MAX_IRQ_LATENCY 1000000u

typedef enum backend_kind { BACKEND_COSIM, BACKEND_RTL, BACKEND_REF } backend_kind;

typedef struct run_opts {
    const char *stream;      /* NULL: generate */
    uint64_t seed;
    uint64_t cycles;
    int cycles_given, seed_given, mode_given;
    pmu_gen_mode mode;
    const char *config;
    backend_kind backend;
    pmu_model model;
    int model_given;
    unsigned irq_latency;
    int irq_latency_given;
    const char *waves;
    uint64_t wave_from;
    int wave_from_given;
    uint64_t stop_at;        /* 0: no limit */
    int quiet;
} run_opts;

static const char *prog = "pmusim";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "pmusim run: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return EXIT_USAGE;
}

static void run_help(FILE *f)
{
    fprintf(f,
            "usage: pmusim run [--stream FILE | --seed N --cycles N [--mode workload|random]]\n"
            "                  [--config FILE] [--backend cosim|rtl|ref] [--model itanium|itanium2]\n"
            "                  [--irq-latency N] [--waves FILE] [--wave-from CYCLE]\n"
            "                  [--stop-at CYCLE] [--quiet]\n"
            "\n"
            "  --stream FILE      cycle records from a text or binary stream (docs/stream-format.md)\n"
            "  --seed N           generator seed (default 1) when no --stream is given\n"
            "  --cycles N         records to generate (default 1000000); with --stream, at most N\n"
            "  --mode M           generator mode: workload (default) or random\n"
            "  --config FILE      PMU configuration (docs/config-format.md); default: built in\n"
            "  --backend B        cosim (reference and RTL in lock-step, default), rtl or ref\n"
            "  --model M          itanium2 (default) or itanium\n"
            "  --irq-latency N    cycles from the interrupt pulse to the overflow service (default 4)\n"
            "  --waves FILE       write an FST waveform of the RTL\n"
            "  --wave-from CYCLE  start the waveform at this cycle (default: the start)\n"
            "  --stop-at CYCLE    stop before record CYCLE (records are numbered from 0)\n"
            "  --quiet            print only the lock-step line and errors\n"
            "\n"
            "exit status: 0 ok, 1 lock-step mismatch or inexact totals, 2 bad arguments or input\n");
}

static int parse_number(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') {
        usage_error("%s: expected a number, found '%s'", opt, s ? s : "");
        return -1;
    }
    errno = 0;
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end || end == s) {
        usage_error("%s: expected a number (decimal or 0x hex), found '%s'", opt, s);
        return -1;
    }
    if (v < min || v > max) {
        usage_error("%s: expected %" PRIu64 "..%" PRIu64 ", found %s", opt, min, max, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_run_args(int argc, char **argv, run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->cycles = 1000000;
    o->mode = PMU_GEN_WORKLOAD;
    o->backend = BACKEND_COSIM;
    o->model = PMU_MODEL_ITANIUM2;
    o->irq_latency = 4;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        char name[32];
        /* --opt value and --opt=value */
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        if (eq) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
        }
        int flag = strcmp(name, "--quiet") == 0 || strcmp(name, "--help") == 0 ||
                   strcmp(name, "-h") == 0;
        static const char *const known[] = {"--stream", "--seed", "--cycles", "--mode", "--config",
                                            "--backend", "--model", "--irq-latency", "--waves",
                                            "--wave-from", "--stop-at"};
        int is_known = flag;
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (strcmp(name, known[k]) == 0)
                is_known = 1;
        if (!is_known)
            return usage_error("unknown argument '%s' (see pmusim run --help)", arg);
        if (flag) {
            if (val)
                return usage_error("%s: takes no value", name);
            if (strcmp(name, "--quiet") == 0) {
                o->quiet = 1;
                continue;
            }
            run_help(stdout);
            exit(0);
        }
        if (!val) {
            if (i + 1 >= argc)
                return usage_error("%s: expected a value", name);
            val = argv[++i];
        }
        uint64_t n;
        if (strcmp(name, "--stream") == 0) {
            if (!*val)
                return usage_error("--stream: expected a file name");
            o->stream = val;
        } else if (strcmp(name, "--seed") == 0) {
            if (parse_number(name, val, 0, UINT64_MAX, &o->seed))
                return EXIT_USAGE;
            o->seed_given = 1;
        } else if (strcmp(name, "--cycles") == 0) {
            if (parse_number(name, val, 1, UINT64_MAX, &o->cycles))
                return EXIT_USAGE;
            o->cycles_given = 1;
        } else if (strcmp(name, "--mode") == 0) {
            if (strcmp(val, "workload") == 0)
                o->mode = PMU_GEN_WORKLOAD;
            else if (strcmp(val, "random") == 0)
                o->mode = PMU_GEN_RANDOM;
            else
                return usage_error("--mode: expected workload or random, found '%s'", val);
            o->mode_given = 1;
        } else if (strcmp(name, "--config") == 0) {
            if (!*val)
                return usage_error("--config: expected a file name");
            o->config = val;
        } else if (strcmp(name, "--backend") == 0) {
            if (strcmp(val, "cosim") == 0)
                o->backend = BACKEND_COSIM;
            else if (strcmp(val, "rtl") == 0)
                o->backend = BACKEND_RTL;
            else if (strcmp(val, "ref") == 0)
                o->backend = BACKEND_REF;
            else
                return usage_error("--backend: expected cosim, rtl or ref, found '%s'", val);
        } else if (strcmp(name, "--model") == 0) {
            if (strcmp(val, "itanium2") == 0)
                o->model = PMU_MODEL_ITANIUM2;
            else if (strcmp(val, "itanium") == 0)
                o->model = PMU_MODEL_ITANIUM;
            else
                return usage_error("--model: expected itanium or itanium2, found '%s'", val);
            o->model_given = 1;
        } else if (strcmp(name, "--irq-latency") == 0) {
            if (parse_number(name, val, 0, MAX_IRQ_LATENCY, &n))
                return EXIT_USAGE;
            o->irq_latency = (unsigned)n;
            o->irq_latency_given = 1;
        } else if (strcmp(name, "--waves") == 0) {
            if (!*val)
                return usage_error("--waves: expected a file name");
            o->waves = val;
        } else if (strcmp(name, "--wave-from") == 0) {
            if (parse_number(name, val, 0, UINT64_MAX, &o->wave_from))
                return EXIT_USAGE;
            o->wave_from_given = 1;
        } else if (strcmp(name, "--stop-at") == 0) {
            if (parse_number(name, val, 1, UINT64_MAX, &o->stop_at))
                return EXIT_USAGE;
        }
    }
    if (o->stream && o->seed_given)
        return usage_error("--seed: not used with --stream (the records come from the file)");
    if (o->stream && o->mode_given)
        return usage_error("--mode: not used with --stream (the records come from the file)");
    if (o->wave_from_given && !o->waves)
        return usage_error("--wave-from: expected --waves FILE too");
    if (o->waves && o->backend == BACKEND_REF)
        return usage_error("--waves: expected --backend cosim or rtl (the reference has no waveform)");
    if (o->stop_at && o->wave_from_given && o->wave_from >= o->stop_at)
        return usage_error("--wave-from: expected a cycle before --stop-at %" PRIu64 ", found %" PRIu64,
                           o->stop_at, o->wave_from);
    return 0;
}

/* ---- the reproduce command -------------------------------------------------------- */

static void shell_arg(char *buf, size_t size, const char *arg)
{
    int plain = *arg != '\0';
    for (const char *p = arg; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=+-,@%", *p))
            plain = 0;
    size_t n = strlen(buf);
    if (plain) {
        snprintf(buf + n, size - n, " %s", arg);
        return;
    }
    snprintf(buf + n, size - n, " '");
    for (const char *p = arg; *p; p++) {
        n = strlen(buf);
        if (*p == '\'')
            snprintf(buf + n, size - n, "'\\''");
        else
            snprintf(buf + n, size - n, "%c", *p);
    }
    n = strlen(buf);
    snprintf(buf + n, size - n, "'");
}

static void repro_command(const run_opts *o, uint64_t cycle, char *buf, size_t size)
{
    char num[32];
    snprintf(buf, size, "%s", prog);
    shell_arg(buf, size, "run");
    if (o->stream) {
        shell_arg(buf, size, "--stream");
        shell_arg(buf, size, o->stream);
    } else {
        snprintf(num, sizeof num, "%" PRIu64, o->seed);
        shell_arg(buf, size, "--seed");
        shell_arg(buf, size, num);
        snprintf(num, sizeof num, "%" PRIu64, o->cycles);
        shell_arg(buf, size, "--cycles");
        shell_arg(buf, size, num);
        if (o->mode == PMU_GEN_RANDOM) {
            shell_arg(buf, size, "--mode");
            shell_arg(buf, size, "random");
        }
    }
    if (o->config) {
        shell_arg(buf, size, "--config");
        shell_arg(buf, size, o->config);
    }
    if (o->model_given) {
        shell_arg(buf, size, "--model");
        shell_arg(buf, size, o->model == PMU_MODEL_ITANIUM ? "itanium" : "itanium2");
    }
    if (o->irq_latency_given) {
        snprintf(num, sizeof num, "%u", o->irq_latency);
        shell_arg(buf, size, "--irq-latency");
        shell_arg(buf, size, num);
    }
    shell_arg(buf, size, "--waves");
    shell_arg(buf, size, "mismatch.fst");
    snprintf(num, sizeof num, "%" PRIu64, cycle > WAVE_WINDOW ? cycle - WAVE_WINDOW : 0);
    shell_arg(buf, size, "--wave-from");
    shell_arg(buf, size, num);
    snprintf(num, sizeof num, "%" PRIu64, cycle + 1);
    shell_arg(buf, size, "--stop-at");
    shell_arg(buf, size, num);
}

/* ---- run ---------------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The counter table: event, counter qualifiers and the range/opcode constraints that
 * apply (docs/config-format.md), 64-bit total, wraps folded.  Columns fit their text. */
static void print_table(const pmu_config *cfg, const pmu_isr *isr)
{
    uint64_t vis[PMU_NVIS];
    pmu_config_values(cfg, vis);
    int any = 0;
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++)
        any |= cfg->line[PMU_VIS_PMC4 + k] != 0;
    char ev[PMU_NCOUNTERS][64], q[PMU_NCOUNTERS][640];
    int ev_w = (int)strlen("event"), q_w = (int)strlen("qualifiers");
    int n_w = (int)strlen("64-bit count"), o_w = (int)strlen("overflows");
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
        uint64_t pmc = vis[PMU_VIS_PMC4 + k];
        char tags[512], num[32];
        pmu_config_describe_event(pmc, cfg->model, ev[k], sizeof ev[k]);
        pmu_config_describe_qualifiers(pmc, q[k], sizeof q[k]);
        pmu_config_describe_tags(vis, cfg->model, k, tags, sizeof tags);
        if (tags[0]) {
            size_t n = strlen(q[k]);
            snprintf(q[k] + n, sizeof q[k] - n, " %s", tags);
        }
        if (any && !cfg->line[PMU_VIS_PMC4 + k])
            continue;
        if ((int)strlen(ev[k]) > ev_w)
            ev_w = (int)strlen(ev[k]);
        if ((int)strlen(q[k]) > q_w)
            q_w = (int)strlen(q[k]);
        if (snprintf(num, sizeof num, "%" PRIu64, isr->total[k]) > n_w)
            n_w = (int)strlen(num);
        if (snprintf(num, sizeof num, "%" PRIu64, isr->overflows[k]) > o_w)
            o_w = (int)strlen(num);
    }
    printf("%-8s %-*s %-*s %*s %*s\n", "counter", ev_w, "event", q_w, "qualifiers", n_w,
           "64-bit count", o_w, "overflows");
    for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
        if (any && !cfg->line[PMU_VIS_PMC4 + k])
            continue;
        printf("%-8s %-*s %-*s %*" PRIu64 " %*" PRIu64 "\n", pmu_vis_table[PMU_VIS_PMD4 + k].name,
               ev_w, ev[k], q_w, q[k], n_w, isr->total[k], o_w, isr->overflows[k]);
    }
}

/* The programmed ranges and opcode patterns, under the configuration line. */
static void print_setup(const pmu_config *cfg)
{
    uint64_t vis[PMU_NVIS];
    char text[2048];
    pmu_config_values(cfg, vis);
    if (pmu_config_describe_setup(vis, cfg->model, text, sizeof text) == 0)
        return;
    const char *line = text;
    int first = 1;
    while (*line) {
        const char *nl = strchr(line, '\n');
        int len = nl ? (int)(nl - line) : (int)strlen(line);
        printf("%-15s%.*s\n", first ? "qualification:" : "", len, line);
        first = 0;
        line += len + (nl != NULL);
    }
}

static int cmd_run(int argc, char **argv)
{
    run_opts o;
    int rc = parse_run_args(argc, argv, &o);
    if (rc)
        return rc;

    /* Configuration (it may name the model). */
    pmu_config cfg;
    pmu_err err;
    if (o.config) {
        if (pmu_config_load(o.config, o.model, o.model_given, &cfg, &err) != 0) {
            fprintf(stderr, "%s\n", err.msg);
            return EXIT_USAGE;
        }
    } else {
        const char *text = pmu_config_default_text(o.model);
        if (pmu_config_parse(text, strlen(text), "<built-in configuration>", o.model, 1, &cfg,
                             &err) != 0) {
            fprintf(stderr, "%s\n", err.msg); /* the built-in text is tested; never expected */
            return EXIT_USAGE;
        }
    }
    pmu_params params = pmu_params_default();
    params.model = cfg.model;

    /* Records. */
    pmu_source *src = NULL;
    pmu_config_hot hot;
    if (o.stream) {
        src = pmu_source_file(&pmu_dialect_itanium, o.stream, o.cycles_given ? o.cycles : 0, &err);
        if (!src) {
            fprintf(stderr, "%s\n", err.msg);
            return EXIT_USAGE;
        }
    } else {
        /* The configuration's range bounds and opcode patterns are the generator's
         * edges (docs/stream-format.md, "Hot edges"; docs/config-format.md). */
        uint64_t vis[PMU_NVIS];
        pmu_config_values(&cfg, vis);
        pmu_config_hot_edges(vis, cfg.model, &hot);
        pmu_gen_opts go = {0};
        go.seed = o.seed;
        go.cycles = o.cycles;
        go.mode = o.mode;
        go.nprocs = 4;
        go.hot = &hot.hot;
        src = pmu_source_generator(&pmu_dialect_itanium, &go, &err);
        if (!src) {
            fprintf(stderr, "pmusim run: %s\n", err.msg);
            return EXIT_FAIL;
        }
    }

    /* Backend. */
    pmu_backend *b = NULL, *ref = NULL, *rtl = NULL;
    char why[256] = "";
    if (o.backend != BACKEND_RTL) {
        ref = pmu_ref_create(&params);
        if (!ref)
            snprintf(why, sizeof why, "cannot create the reference model");
    }
    if (!why[0] && o.backend != BACKEND_REF)
        rtl = pmu_rtl_create(&params, why, sizeof why);
    if (!why[0])
        b = o.backend == BACKEND_COSIM ? pmu_cosim_create(&pmu_family_itanium, ref, rtl, pmu_source_where, src)
            : o.backend == BACKEND_RTL ? rtl
                                       : ref;
    if (!b) {
        fprintf(stderr, "pmusim run: %s\n", why[0] ? why : "cannot create the backend");
        pmu_destroy(ref); /* no lock-step pair took them */
        pmu_destroy(rtl);
        return EXIT_USAGE;
    }

    /* An unwritable waveform path fails now, not after wave_from cycles. */
    if (o.waves && o.wave_from > 0) {
        int existed = access(o.waves, F_OK) == 0;
        FILE *probe = fopen(o.waves, "ab");
        if (!probe) {
            fprintf(stderr, "pmusim run: --waves: cannot write '%s'\n", o.waves);
            pmu_destroy(b);
            return EXIT_USAGE;
        }
        fclose(probe);
        if (!existed)
            remove(o.waves);
    }

    if (!o.quiet) {
        printf("pmusim: %s, backend %s, ", params.model == PMU_MODEL_ITANIUM ? "Itanium" : "Itanium 2",
               b->name);
        if (o.stream)
            printf("stream %s\n", o.stream);
        else
            printf("generated %s stream, seed %" PRIu64 ", %" PRIu64 " cycles\n",
                   o.mode == PMU_GEN_RANDOM ? "random" : "workload", o.seed, o.cycles);
        printf("configuration: %s; overflow service latency %u cycles\n",
               o.config ? o.config : "built in", o.irq_latency);
        print_setup(&cfg);
    }

    int tracing = 0;
    if (o.waves && o.wave_from == 0) {
        if (pmu_rtl_trace_open(rtl, o.waves) != 0) {
            fprintf(stderr, "pmusim run: --waves: cannot write '%s'\n", o.waves);
            pmu_destroy(b);
            return EXIT_USAGE;
        }
        tracing = 1;
    }

    pmu_config_apply(&cfg, b);
    pmu_isr isr;
    pmu_isr_init(&isr, b, cfg.start, cfg.reload, o.irq_latency);

    pmu_cycle c;
    pmu_state st;
    memset(&c, 0, sizeof c);
    memset(&st, 0, sizeof st);
    const int cosim = o.backend == BACKEND_COSIM;
    int stream_error = 0;
    double t0 = now_seconds();
    for (;;) {
        if (o.stop_at && b->cycle >= o.stop_at)
            break;
        if (o.waves && !tracing && b->cycle == o.wave_from) {
            if (pmu_rtl_trace_open(rtl, o.waves) != 0) {
                fprintf(stderr, "pmusim run: --waves: cannot write '%s'\n", o.waves);
                pmu_destroy(b);
                return EXIT_USAGE;
            }
            tracing = 1;
        }
        int got = pmu_source_next(src, &c, &err);
        if (got == 0)
            break;
        if (got < 0) {
            stream_error = 1;
            break;
        }
        pmu_step(b, &c);
        pmu_snapshot(b, &st);
        pmu_isr_tick(&isr, st.pmi);
        if (cosim && pmu_cosim_mismatches(b))
            break;
    }
    double elapsed = now_seconds() - t0;
    uint64_t cycles = b->cycle;

    if (stream_error) {
        fprintf(stderr, "%s\n", err.msg);
        pmu_destroy(b);
        return EXIT_USAGE;
    }
    if (o.waves && !tracing)
        fprintf(stderr, "pmusim run: --wave-from %" PRIu64 ": the run ended at cycle %" PRIu64
                        " before the waveform started; no waveform written\n",
                o.wave_from, cycles);

    if (!(cosim && pmu_cosim_mismatches(b)))
        pmu_isr_finish(&isr);

    int status = 0;
    if (cosim && pmu_cosim_mismatches(b)) {
        const pmu_cosim_mismatch *m = pmu_cosim_first(b);
        char text[4096], cmd[2048];
        pmu_cosim_format(m, text, sizeof text);
        fputs(text, stdout);
        /* A counter mismatch is read with the configuration that drives it. */
        for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
            if (strcmp(m->reg, pmu_vis_table[PMU_VIS_PMD4 + k].name) != 0)
                continue;
            pmu_state ref_state;
            pmu_snapshot(pmu_cosim_ref(b), &ref_state);
            uint64_t pmc = ref_state.reg[PMU_VIS_PMC4 + k];
            char ev[64], q[96], tags[512];
            pmu_config_describe_event(pmc, cfg.model, ev, sizeof ev);
            pmu_config_describe_qualifiers(pmc, q, sizeof q);
            pmu_config_describe_tags(ref_state.reg, cfg.model, k, tags, sizeof tags);
            printf("  counter:  %s = 0x%016" PRIx64 " (%s %s%s%s)\n",
                   pmu_vis_table[PMU_VIS_PMC4 + k].name, pmc, ev, q, tags[0] ? " " : "", tags);
        }
        if (!o.stream)
            printf("  seed:     %" PRIu64 " (%s mode)\n", o.seed,
                   o.mode == PMU_GEN_RANDOM ? "random" : "workload");
        repro_command(&o, m->cycle, cmd, sizeof cmd);
        printf("reproduce with a waveform of the cycles before it:\n  %s\n", cmd);
        printf("lock-step: %" PRIu64 " cycles, %" PRIu64 " mismatches (stopped at the first)\n", cycles,
               pmu_cosim_mismatches(b));
        status = EXIT_FAIL;
    } else {
        if (!o.quiet) {
            print_table(&cfg, &isr);
            printf("overflow interrupts serviced: %" PRIu64 "\n", isr.interrupts);
        }
        pmu_backend *reference = cosim ? pmu_cosim_ref(b) : o.backend == BACKEND_REF ? b : NULL;
        if (reference) {
            int exact = 1;
            for (unsigned k = 0; k < PMU_NCOUNTERS; k++) {
                uint64_t want = pmu_ref_total(reference, PMU_FIRST_COUNTER + k);
                if (isr.total[k] != want) {
                    exact = 0;
                    uint64_t pmc = pmu_read(b, pmu_vis_table[PMU_VIS_PMC4 + k].addr);
                    printf("totals: %s virtual count %" PRIu64 " != reference total %" PRIu64 "%s\n",
                           pmu_vis_table[PMU_VIS_PMD4 + k].name, isr.total[k], want,
                           PMU_FGET(pmc, PMC_GEN, OI) ? ""
                                                      : " (oi=0: wraps without an interrupt are "
                                                        "invisible to the overflow service)");
                }
            }
            if (exact && !o.quiet)
                printf("totals: the 64-bit virtual counts equal the reference totals\n");
            if (!exact)
                status = EXIT_FAIL;
        }
        if (cosim)
            printf("lock-step: %" PRIu64 " cycles, 0 mismatches\n", cycles);
        if (!o.quiet)
            printf("Simulation speed: %.0f cycles/s (%" PRIu64 " cycles in %.3f s, backend %s)\n",
                   elapsed > 0 ? (double)cycles / elapsed : 0.0, cycles, elapsed, b->name);
    }

    if (tracing)
        pmu_rtl_trace_close(rtl);
    if (o.waves && tracing && !o.quiet) {
        struct stat fst;
        double mb = stat(o.waves, &fst) == 0 ? (double)fst.st_size / 1e6 : 0.0;
        printf("waveform: %s (%.1f MB, from cycle %" PRIu64 ")\n", o.waves, mb, o.wave_from);
    }
    pmu_destroy(b);
    pmu_source_close(src);
    return status;
}

static void main_help(FILE *f)
{
    fprintf(f,
            "usage: pmusim <command> [options]\n"
            "  run      run a stream on the PMU (reference and RTL in lock-step by default)\n"
            "  gen      write a generated stream\n"
            "  conv     convert a stream between its text and binary forms\n"
            "  conform  randomised reference-vs-RTL conformance runs over many seeds\n"
            "  encode   print the register programming of events, ranges and opcode patterns\n"
            "  count    run a stream and print 64-bit counts per event (per process)\n"
            "  profile  sample on overflow and print a flat profile by function\n"
            "pmusim <command> --help shows the options of a command.\n");
}

int main(int argc, char **argv)
{
    prog = argv[0];
    if (argc < 2) {
        fprintf(stderr, "pmusim: expected a command: run, gen, conv, conform, encode, count or "
                        "profile (see pmusim --help)\n");
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "gen") == 0)
        return pmusim_cmd_gen(argc - 1, argv + 1);
    if (strcmp(cmd, "conv") == 0)
        return pmusim_cmd_conv(argc - 1, argv + 1);
    if (strcmp(cmd, "conform") == 0)
        return pmusim_cmd_conform(argc - 1, argv + 1);
    if (strcmp(cmd, "encode") == 0)
        return pmusim_cmd_encode(argc - 1, argv + 1);
    if (strcmp(cmd, "count") == 0)
        return pmusim_cmd_count(argc - 1, argv + 1);
    if (strcmp(cmd, "profile") == 0)
        return pmusim_cmd_profile(argc - 1, argv + 1);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        main_help(stdout);
        return 0;
    }
    fprintf(stderr, "pmusim: unknown command '%s': expected run, gen, conv, conform, encode, count or profile\n", cmd);
    return EXIT_USAGE;
}
