/*
 * cmd_profile.c - `pmusim profile`: sample one event every N occurrences with the
 * overflow driver and print a flat profile by function.  A sample's address is the
 * last instruction retired when the overflow interrupt was taken (docs/driver.md,
 * "Samples"), so it lands `--irq-latency` records after the overflowing event.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"

static void profile_help(FILE *f)
{
    fprintf(f, "usage: pmusim profile -e EVENT[:mod...] --period N [--symbols FILE] [--top N]\n"
               "                      [--stream FILE | --seed N --cycles N [--mode M] [--procs N]]\n"
               "                      [--backend cosim|rtl|ref] [--model itanium|itanium2]\n"
               "                      [--system-wide [--dcr-pp 0|1]] [--pid N[,N...]] [--irq-latency N]\n"
               "\n"
               "  -e, --event EV     the event to sample (one); modifiers as for pmusim count\n"
               "  --period N         a sample every N events (1..2^W, W = 47 on Itanium 2, 32 on Itanium)\n"
               "  --symbols FILE     'START END NAME' lines, hexadecimal, END exclusive (pmusim gen\n"
               "                     --symbols writes them); default: the generator's functions when\n"
               "                     the records are generated, else raw addresses\n"
               "  --top N            print only the N functions with the most samples\n");
    drv_cli_help(f);
    fprintf(f, "\nexit status: 0 ok, 1 lock-step mismatch or counts not exact, 2 bad arguments or input\n");
}

/* Samples by address (open addressing, cap a power of two); they are mapped to
 * functions at the end, when the generator's function list is known too. */
typedef struct tally {
    uint64_t *ip, *n;
    size_t cap, used;
    uint64_t total;
    int oom;
} tally;

static void add_ip(tally *t, uint64_t ip)
{
    if (2 * (t->used + 1) > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        uint64_t *nip = calloc(cap, sizeof *nip), *nn = calloc(cap, sizeof *nn);
        if (!nip || !nn) {
            free(nip);
            free(nn);
            t->oom = 1;
            return;
        }
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->n[i])
                continue;
            size_t h = (size_t)((t->ip[i] * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (cap - 1);
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
    }
    size_t h = (size_t)((ip * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (t->cap - 1);
    while (t->n[h] && t->ip[h] != ip)
        h = (h + 1) & (t->cap - 1);
    if (!t->n[h]) {
        t->ip[h] = ip;
        t->used++;
    }
    t->n[h]++;
}

static void on_sample(void *arg, const pmu_drv_sample *s)
{
    tally *t = arg;
    t->total++;
    add_ip(t, s->ip);
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

int pmusim_cmd_profile(int argc, char **argv)
{
    drv_cli o;
    drv_cli_init(&o, "profile");
    const char *symbols = NULL;
    uint64_t period = 0, top = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            profile_help(stdout);
            return 0;
        }
        int r = drv_cli_option(&o, argc, argv, &i);
        if (r < 0)
            return DRV_CLI_EXIT_USAGE;
        if (r == 1)
            continue;
        const char *eq = strchr(arg, '=');
        size_t nlen = eq && !strncmp(arg, "--", 2) ? (size_t)(eq - arg) : strlen(arg);
        const char *inline_val = eq && !strncmp(arg, "--", 2) ? eq + 1 : NULL;
        const char *val;
        if (nlen == 8 && !strncmp(arg, "--period", nlen)) {
            if (!(val = drv_cli_value(&o, "--period", inline_val, argc, argv, &i)))
                return DRV_CLI_EXIT_USAGE;
            if (drv_cli_number(&o, "--period", val, 1, UINT64_MAX, &period))
                return DRV_CLI_EXIT_USAGE;
        } else if (nlen == 9 && !strncmp(arg, "--symbols", nlen)) {
            if (!(val = drv_cli_value(&o, "--symbols", inline_val, argc, argv, &i)))
                return DRV_CLI_EXIT_USAGE;
            if (!*val)
                return drv_cli_usage(&o, "--symbols: expected a file name");
            symbols = val;
        } else if (nlen == 5 && !strncmp(arg, "--top", nlen)) {
            if (!(val = drv_cli_value(&o, "--top", inline_val, argc, argv, &i)))
                return DRV_CLI_EXIT_USAGE;
            if (drv_cli_number(&o, "--top", val, 1, 1000000, &top))
                return DRV_CLI_EXIT_USAGE;
        } else {
            return drv_cli_usage(&o, "unknown argument '%s' (see pmusim profile --help)", arg);
        }
    }
    if (o.nevents > 1)
        return drv_cli_usage(&o, "-e %s: expected one event (a profile samples one), found %u",
                             o.event[1], o.nevents);
    int rc = drv_cli_check(&o);
    if (rc)
        return rc;
    if (!period)
        return drv_cli_usage(&o, "--period: expected --period N, the events between samples");
    unsigned width = pmu_counter_width(o.model);
    if (period > (UINT64_C(1) << width))
        return drv_cli_usage(&o, "--period: expected 1..2^%u (the counter width of %s), found %" PRIu64,
                             width, o.model == PMU_MODEL_ITANIUM ? "Itanium" : "Itanium 2", period);
    pmu_drv_config cfg;
    unsigned counter[PMULIB_MAX_EVENTS];
    rc = drv_cli_config(&o, &cfg, counter);
    if (rc)
        return rc;
    cfg.period[counter[0]] = period;

    tally t;
    memset(&t, 0, sizeof t);
    drv_symtab *syms = NULL;
    if (symbols) {
        pmu_err err;
        syms = drv_symtab_load(symbols, &err);
        if (!syms) {
            fprintf(stderr, "pmusim profile: %s\n", err.msg);
            return DRV_CLI_EXIT_USAGE;
        }
    }
    /* Without a symbol file, the generator's own functions stand in for one. */
    drv_cli_session s;
    rc = drv_cli_run(&o, &cfg, on_sample, &t, &s);
    if (!rc && !syms && s.gen && pmu_gen_nfuncs(s.gen))
        syms = drv_symtab_from_gen(s.gen);
    if (rc || t.oom) {
        if (t.oom)
            fprintf(stderr, "pmusim profile: out of memory for the samples\n");
        drv_symtab_free(syms);
        drv_cli_session_free(&s);
        free(t.ip);
        free(t.n);
        return rc ? rc : DRV_CLI_EXIT_FAIL;
    }

    /* Rows: by function with a symbol table (file or generator), else by address. */
    size_t nrows = 0;
    row *rows = NULL;
    if (syms) {
        unsigned nf = drv_symtab_count(syms);
        uint64_t *by = calloc(nf + 1, sizeof *by);
        rows = calloc(nf + 1, sizeof *rows);
        if (!by || !rows) {
            fprintf(stderr, "pmusim profile: out of memory\n");
            free(by);
            free(rows);
            rows = NULL;
        } else {
            for (size_t i = 0; i < t.cap; i++)
                if (t.n[i]) {
                    int f = drv_symtab_find(syms, t.ip[i]);
                    by[f < 0 ? nf : (unsigned)f] += t.n[i];
                }
            for (unsigned f = 0; f <= nf; f++)
                if (by[f]) {
                    rows[nrows].n = by[f];
                    snprintf(rows[nrows].name, sizeof rows[nrows].name, "%s",
                             f < nf ? drv_symtab_name(syms, f) : "[outside every function]");
                    nrows++;
                }
            free(by);
        }
    } else {
        rows = calloc(t.used + 1, sizeof *rows);
        for (size_t i = 0; rows && i < t.cap; i++)
            if (t.n[i]) {
                rows[nrows].n = t.n[i];
                snprintf(rows[nrows].name, sizeof rows[nrows].name, "0x%016" PRIx64, t.ip[i]);
                nrows++;
            }
    }
    int status = 0;
    if (!rows) {
        status = DRV_CLI_EXIT_FAIL;
    } else {
        qsort(rows, nrows, sizeof *rows, by_count);
        const pmu_drv_stats *st = pmu_drv_get_stats(s.d);
        printf("profile: %s, a sample every %" PRIu64 " events, %" PRIu64 " samples, %s\n", o.event[0],
               period, t.total,
               symbols ? "functions of the symbol file"
               : syms  ? "functions of the generated workload"
                       : "by address (no symbols)");
        printf("%10s %8s  %s\n", "samples", "%", syms ? "function" : "address");
        size_t shown = top && top < nrows ? (size_t)top : nrows;
        for (size_t r = 0; r < shown; r++)
            printf("%10" PRIu64 " %7.2f%%  %s\n", rows[r].n,
                   t.total ? 100.0 * (double)rows[r].n / (double)t.total : 0.0, rows[r].name);
        if (shown < nrows)
            printf("(%zu more %s with samples)\n", nrows - shown, syms ? "functions" : "addresses");
        printf("records: %" PRIu64 ", context switches: %" PRIu64 ", overflow interrupts: %" PRIu64 "\n",
               s.records, st->switches, st->interrupts);
        if (!drv_cli_check_exact(&o, &s, 1u << counter[0], stdout))
            status = DRV_CLI_EXIT_FAIL;
        if (o.backend == DRV_CLI_COSIM)
            printf("lock-step: %" PRIu64 " cycles, 0 mismatches\n", s.records);
    }
    free(rows);
    free(t.ip);
    free(t.n);
    drv_symtab_free(syms);
    drv_cli_session_free(&s);
    return status;
}
