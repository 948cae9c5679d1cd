/*
 * profile.c - `pmusim profile`: sample one event every N occurrences with the family's
 * overflow driver and print a flat profile by function.  A sample's address is the last
 * instruction retired when the overflow interrupt was taken (docs/ita-driver.md, "Samples"),
 * so it lands `--irq-latency` records after the overflowing event.  With --sample the
 * samples come from a capture unit (an EAR or the BTB, docs/ita-ear-btb.md): each one is
 * printed decoded, and attributed to the instruction the unit captured.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"
#include "cli/pmu_symtab.h"
#include "common/pmu_text.h"

static void profile_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    if (!monitor_help_takes(f, cmd, fam))
        return;
    int sample = pmu_cli_takes(cmd, fam, "sample");
    fprintf(f, "usage: %s profile -e EVENT --period N [--symbols FILE] [--top N] [--json] [--plot FILE]\n", pmu_cli_title);
    if (sample)
        fprintf(f, "       %s profile --sample EVENT --period N [the same options]\n", pmu_cli_title);
    fprintf(f, "                      [--stream FILE | --seed N --cycles N [--mode M] [--procs N]]\n"
               "                      [--backend cosim|rtl|ref] [--family NAME] [--model NAME]");
    monitor_usage(f, cmd, fam, 21);
    fprintf(f, "\n\n");
    char text[512];
    snprintf(text, sizeof text, "the event to sample (one):\n%s", monitor_events(fam));
    monitor_help_line(f, "-e, --event EV", text);
    if (sample)
        fprintf(f, "  --sample EV        sample with a capture unit: an EAR or BTB event (Itanium:\n"
                   "                     DATA_EAR_CACHE_LAT64, L1I_EAR_CACHE_LAT4, BRANCH_EVENT, ...);\n"
                   "                     a counter counts the unit's captures, and each sample prints\n"
                   "                     the unit's registers decoded; modifiers as for -e\n");
    snprintf(text, sizeof text, "a sample every N events: %s",
             fam->cmds->monitor_period ? fam->cmds->monitor_period : "1 up to the counter's range");
    monitor_help_line(f, "--period N", text);
    fprintf(f, "  --symbols FILE     'START END NAME' lines, hexadecimal, END exclusive (pmusim gen\n"
               "                     --symbols writes them); default: the generator's functions when\n"
               "                     the records are generated, else raw addresses\n"
               "  --top N            print only the N functions with the most samples\n"
               "  --json             print one JSON object: the samples (with --sample: raw registers\n"
               "                     and decoded fields) and the functions; the exactness and\n"
               "                     lock-step lines go to stderr\n");
    fprintf(f, "  --plot FILE        draw the samples by function as bars (.svg, .png or .pdf;\n"
               "                     docs/plots.md)\n");
    monitor_help(f, cmd, fam);
    fprintf(f, "\nexit status: 0 ok, 1 lock-step mismatch or counts not exact, 2 bad arguments or input\n");
    pmu_cli_family_help_end(f, cmd, fam);
}

static const pmu_cli_cmd profile_cmd = {.name = "profile", .family_help = profile_help};

/* Samples by address (open addressing, cap a power of two); they are mapped to
 * functions at the end, when the generator's function list is known too. */
typedef struct tally {
    uint64_t *ip, *n;
    size_t cap, used;
    uint64_t total;
    int oom;
    int json;        /* keep the samples' JSON, else their text */
    char **capture;  /* --sample: each sample, decoded */
    size_t ncapture, capcap;
} tally;

static size_t slot(uint64_t ip, size_t cap)
{
    return (size_t)((ip * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (cap - 1);
}

static int grow(tally *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    uint64_t *nip = calloc(cap, sizeof *nip), *nn = calloc(cap, sizeof *nn);
    if (!nip || !nn) {
        free(nip);
        free(nn);
        return -1;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->n[i])
            continue;
        size_t h = slot(t->ip[i], cap);
        while (nn[h])
            h = (h + 1) & (cap - 1);
        nip[h] = t->ip[i];
        nn[h] = t->n[i];
    }
    free(t->ip);
    free(t->n);
    t->ip = nip;
    t->n = nn;
    t->cap = cap;
    return 0;
}

static void on_sample(void *arg, uint64_t ip)
{
    tally *t = arg;
    t->total++;
    if (2 * (t->used + 1) > t->cap && grow(t)) {
        t->oom = 1;
        return;
    }
    size_t h = slot(ip, t->cap);
    while (t->n[h] && t->ip[h] != ip)
        h = (h + 1) & (t->cap - 1);
    if (!t->n[h]) {
        t->ip[h] = ip;
        t->used++;
    }
    t->n[h]++;
}

static void on_capture(void *arg, const pmu_monitor_capture *c)
{
    tally *t = arg;
    on_sample(t, c->ip);
    if (t->oom)
        return;
    if (t->ncapture == t->capcap) {
        size_t cap = t->capcap ? t->capcap * 2 : 256;
        char **n = realloc(t->capture, cap * sizeof *n);
        if (!n) {
            t->oom = 1;
            return;
        }
        t->capture = n;
        t->capcap = cap;
    }
    const char *text = t->json ? c->json : c->text;
    char *copy = malloc(strlen(text) + 1);
    if (!copy) {
        t->oom = 1;
        return;
    }
    strcpy(copy, text);
    t->capture[t->ncapture++] = copy;
}

typedef struct row {
    uint64_t n;
    char name[128];
} row;

static int by_count(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Rows by function with a symbol table (file or generator), else by address; NULL when
 * out of memory. */
static row *make_rows(const tally *t, const drv_symtab *syms, size_t *nrows)
{
    *nrows = 0;
    if (!syms) {
        row *rows = calloc(t->used + 1, sizeof *rows);
        for (size_t i = 0; rows && i < t->cap; i++)
            if (t->n[i]) {
                rows[*nrows].n = t->n[i];
                snprintf(rows[*nrows].name, sizeof rows[*nrows].name, "0x%016" PRIx64, t->ip[i]);
                (*nrows)++;
            }
        return rows;
    }
    unsigned nf = drv_symtab_count(syms);
    uint64_t *by = calloc(nf + 1, sizeof *by);
    row *rows = calloc(nf + 1, sizeof *rows);
    if (!by || !rows) {
        free(by);
        free(rows);
        return NULL;
    }
    for (size_t i = 0; i < t->cap; i++)
        if (t->n[i]) {
            int f = drv_symtab_find(syms, t->ip[i]);
            by[f < 0 ? nf : (unsigned)f] += t->n[i];
        }
    for (unsigned f = 0; f <= nf; f++)
        if (by[f]) {
            rows[*nrows].n = by[f];
            snprintf(rows[*nrows].name, sizeof rows[*nrows].name, "%s",
                     f < nf ? drv_symtab_name(syms, f) : "[outside every function]");
            (*nrows)++;
        }
    free(by);
    return rows;
}

typedef struct profile_opts {
    monitor_opts m;
    const char *symbols;
    uint64_t top;
    const char *sample;  /* --sample EVENT */
    int json;
} profile_opts;

static void print_json(const profile_opts *p, const monitor_session *s, const tally *t, const row *rows,
                       size_t shown)
{
    printf("{");
    pmu_cli_json_target(stdout, p->m.t.fam, s->b, &p->m.r);
    printf(",\n  \"event\": ");
    pmu_json_string(stdout, p->sample ? p->sample : p->m.rq.events[0]);
    printf(", \"period\": %" PRIu64 ", \"total\": %" PRIu64 ", \"samples\": [", p->m.rq.period, t->total);
    for (size_t i = 0; i < t->ncapture; i++)
        printf("%s\n%s", i ? "," : "", t->capture[i]);
    printf("],\n  \"functions\": [");
    for (size_t r = 0; r < shown; r++) {
        printf("%s\n    {\"name\": ", r ? "," : "");
        pmu_json_string(stdout, rows[r].name);
        printf(", \"samples\": %" PRIu64 "}", rows[r].n);
    }
    printf("]");
}

/* --plot: the samples by function (or address), as the table shows them. */
static int plot_rows(const profile_opts *p, monitor_session *s, const row *rows, size_t shown)
{
    if (!s->plot)
        return 0;
    const char **labels = calloc(shown + 1, sizeof *labels);
    double *values = calloc(shown + 1, sizeof *values);
    if (!labels || !values) {
        free(labels);
        free(values);
        return pmu_cli_fail(&profile_cmd, PMU_EXIT_FAIL, "out of memory");
    }
    for (size_t r = 0; r < shown; r++) {
        labels[r] = rows[r].name;
        values[r] = (double)rows[r].n;
    }
    char title[256], chart[160];
    snprintf(title, sizeof title, "pmusim profile: %s, a sample every %" PRIu64 " %s",
             p->sample ? p->sample : p->m.rq.events[0], p->m.rq.period, p->sample ? "captures" : "events");
    snprintf(chart, sizeof chart, "samples by function");
    const pmu_plot_bars bars = {chart, "samples", (unsigned)shown, labels, values};
    int rc = monitor_plot_bars(&p->m, s, title, &bars, 1);
    free(labels);
    free(values);
    return rc;
}

static int print_profile(const profile_opts *p, monitor_session *s, const tally *t,
                         const drv_symtab *syms)
{
    size_t nrows;
    row *rows = make_rows(t, syms, &nrows);
    if (!rows)
        return pmu_cli_fail(&profile_cmd, PMU_EXIT_FAIL, "out of memory");
    if (nrows > 1)
        qsort(rows, nrows, sizeof *rows, by_count);
    const pmu_monitor_counts *c = s->counts;
    size_t shown = p->top && p->top < nrows ? (size_t)p->top : nrows;
    int plotted = plot_rows(p, s, rows, shown);
    if (plotted) {
        free(rows);
        return plotted;
    }
    if (p->json) {
        print_json(p, s, t, rows, shown);
        free(rows);
        return monitor_json_end(s);
    }
    printf("profile: %s%s, a sample every %" PRIu64 " %s, %" PRIu64 " samples, %s\n",
           p->sample ? p->sample : p->m.rq.events[0], p->sample ? " (capture unit)" : "", p->m.rq.period,
           p->sample ? "captures" : "events", t->total,
           p->symbols ? "functions of the symbol file"
           : syms     ? "functions of the generated workload"
                      : "by address (no symbols)");
    for (size_t i = 0; i < t->ncapture; i++)
        fputs(t->capture[i], stdout);
    printf("%10s %8s  %s\n", "samples", "%", syms ? "function" : "address");
    for (size_t r = 0; r < shown; r++)
        printf("%10" PRIu64 " %7.2f%%  %s\n", rows[r].n,
               t->total ? 100.0 * (double)rows[r].n / (double)t->total : 0.0, rows[r].name);
    if (shown < nrows)
        printf("(%zu more %s with samples)\n", nrows - shown, syms ? "functions" : "addresses");
    printf("records: %" PRIu64 ", context switches: %" PRIu64 ", overflow interrupts: %" PRIu64 "\n",
           s->loop.records, c->switches, c->interrupts);
    free(rows);
    int exact = s->cmds->monitor_check(s->m, stdout);
    monitor_lockstep_line(s, stdout);
    return exact ? PMU_EXIT_OK : PMU_EXIT_FAIL;
}

static int parse(int argc, char **argv, profile_opts *p)
{
    pmu_opt opts[MONITOR_MAX_OPTS + 6];
    unsigned n = monitor_opts_init(&p->m, &profile_cmd, opts);
    p->symbols = NULL;
    p->top = 0;
    p->sample = NULL;
    p->json = 0;
    opts[n++] = (pmu_opt){.name = "sample", .kind = PMU_OPT_TEXT, .dest = &p->sample};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &p->json};
    opts[n++] = (pmu_opt){.name = "period", .kind = PMU_OPT_U64, .dest = &p->m.rq.period, .min = 1,
                          .max = UINT64_MAX, .text = &p->m.rq.period_text};
    opts[n++] = (pmu_opt){.name = "symbols", .kind = PMU_OPT_FILE, .dest = &p->symbols};
    opts[n++] = (pmu_opt){.name = "top", .kind = PMU_OPT_U64, .dest = &p->top, .min = 1, .max = 1000000};
    p->m.nopts = n;
    p->m.input_opt = "--symbols";
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&profile_cmd, opts, n, argc, argv, args, &nargs);
    if (rc)
        return rc;
    if (p->sample && p->m.rq.nevents)
        return pmu_cli_usage(&profile_cmd, "--sample %s: expected either -e or --sample (a profile samples one "
                                           "event), found -e %s too",
                             p->sample, p->m.rq.events[0]);
    if (p->sample) {
        /* The family makes events[0], the counter event of the unit's captures. */
        p->m.rq.sample_unit = p->sample;
        p->m.rq.events[p->m.rq.nevents++] = p->sample;
    }
    if (p->m.rq.nevents > 1)
        return pmu_cli_usage(&profile_cmd, "-e %s: expected one event (a profile samples one), found %u",
                             p->m.rq.events[1], p->m.rq.nevents);
    if ((rc = monitor_opts_check(&p->m)))
        return rc;
    if (!p->m.rq.period)
        return pmu_cli_usage(&profile_cmd, "--period: expected --period N, the events between samples");
    return 0;
}

int pmusim_cmd_profile(int argc, char **argv)
{
    profile_opts p;
    int rc = parse(argc, argv, &p);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    tally t;
    memset(&t, 0, sizeof t);
    t.json = p.json;
    p.m.json = p.json;
    p.m.rq.on_sample = on_sample;
    p.m.rq.on_capture = on_capture;
    p.m.rq.sample_arg = &t;
    drv_symtab *syms = NULL;
    pmu_err err;
    monitor_session s;
    memset(&s, 0, sizeof s);
    if (p.symbols && !(syms = drv_symtab_load(p.symbols, &err))) {
        rc = pmu_cli_error(&profile_cmd, &err);
    } else if ((p.m.input = p.symbols, rc = monitor_run(&p.m, &s)) == 0) {
        /* Without a symbol file, the generator's own functions stand in for one. */
        if (!syms && s.gen && pmu_gen_nfuncs(s.gen))
            syms = drv_symtab_from_gen(s.gen);
        rc = t.oom ? pmu_cli_fail(&profile_cmd, PMU_EXIT_FAIL, "out of memory for the samples")
                   : print_profile(&p, &s, &t, syms);
    }
    drv_symtab_free(syms);
    monitor_close(&s);
    free(t.ip);
    free(t.n);
    for (size_t i = 0; i < t.ncapture; i++)
        free(t.capture[i]);
    free(t.capture);
    return rc;
}
