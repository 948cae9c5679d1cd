/*
 * cmd_profileme.c - `pmusim profileme`: the 21264/EV67 ProfileMe sampler (sw/ev67/ev67_pme.c,
 * docs/ev67-profileme.md) on a stream, and its per-function and per-PC table of what the
 * profiled instructions did: retired, taken, mispredicted, ITB/DTB misses, replays and
 * load-store order traps, unaligned traps, map stalls, inum retire delay.  Every sample is
 * checked against the reference model's record of its window (session.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ev67/ev67_family.h"
#include "cli/ev67/ev67_session.h"
#include "ev67_cmds_internal.h"
#include "cli/pmu_cli.h"
#include "cli/pmu_plot.h"
#include "cli/pmu_symtab.h"
#include "common/pmu_text.h"

typedef struct pme_opts {
    pmu_cli_target t;
    pmu_cli_records r;
    uint64_t period, sl1, top, pcs;
    const char *symbols;
    int json;
    const char *plot;
} pme_opts;

static void pme_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    fprintf(f, "usage: pmusim profileme [--period N] [--sl1 0..3] [--symbols FILE] [--top N] [--pcs N] [--json] [--plot FILE]\n"
               "                        [--stream FILE | --seed N --cycles N [--mode M] [--procs N]]\n"
               "                        [--model NAME] [--backend cosim|rtl|ref]\n"
               "Samples instructions with the Alpha 21264/EV67's ProfileMe (docs/ev67-profileme.md):\n"
               "every Nth valid fetched instruction is profiled, and its record (PMPC, I_STAT,\n"
               "PCTR_CTL) read at the interrupt.  Prints the samples' attributes by function and by PC,\n"
               "and checks every sample against the reference model (exit 1 when one differs or\n"
               "lock-step broke).\n"
               "  --period N         valid fetched instructions between samples (default 1000;\n"
               "                     clamped to 16..2^20-1, the legal write range)\n"
               "  --sl1 N            what the counters count in the window (PCTR_CTL.SL1, HRM Table 5-16;\n"
               "                     default 1: cycles and the inum retire delay)\n"
               "  --symbols FILE     'START END NAME' lines (pmusim gen --symbols); default: the\n"
               "                     generator's functions\n"
               "  --top N            functions shown (default 20)\n"
               "  --pcs N            PCs shown (default 20)\n"
               "  --json             one JSON object (every function and PC); the exactness and\n"
               "                     lock-step lines go to stderr\n"
               "  --plot FILE        draw the samples by function and by PC and each attribute by PC\n"
               "                     as bars (.svg, .png or .pdf; docs/plots.md)\n");
    pmu_cli_records_help(f);
    pmu_cli_target_help(f, cmd, fam, 1);
}

static const pmu_cli_cmd pme_cmd = {.name = "profileme", .family_help = pme_help, .family = &pmu_family_alpha21264};

/* Totals of one function (or one PC). */
typedef struct pme_row {
    char name[128];
    uint64_t pc; /* by PC: the PC */
    uint64_t samples, delay;
    uint64_t attr[EV67_PME_NATTRS];
} pme_row;

static int by_samples(const void *a, const void *b)
{
    const pme_row *x = a, *y = b;
    if (x->samples != y->samples)
        return x->samples > y->samples ? -1 : 1;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void name_of(const drv_symtab *syms, uint64_t pc, char *buf, size_t size)
{
    int f = syms ? drv_symtab_find(syms, pc) : -1;
    if (f >= 0)
        snprintf(buf, size, "%s", drv_symtab_name(syms, (unsigned)f));
    else
        snprintf(buf, size, syms ? "[outside every function]" : "0x%016" PRIx64, pc);
}

static void add_to(pme_row *r, const ev67_pme_pc *p)
{
    r->samples += p->samples;
    r->delay += p->delay;
    for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
        r->attr[a] += p->attr[a];
}

/* The per-PC rows and the per-function rows (by address without symbols), each sorted
 * by samples; -1 on no memory. */
static int make_rows(ev67_pme *s, const drv_symtab *syms, pme_row **pcs, pme_row **fns, unsigned *nfns)
{
    unsigned n = ev67_pme_npcs(s), nf = syms ? drv_symtab_count(syms) : 0;
    unsigned nslots = syms ? nf + 1 : n; /* a function each and one for outside, or a PC each */
    *pcs = calloc(n + 1, sizeof **pcs);
    *fns = calloc(nslots + 1, sizeof **fns);
    *nfns = 0;
    if (!*pcs || !*fns)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        const ev67_pme_pc *p = ev67_pme_pc_at(s, i);
        pme_row *r = &(*pcs)[i];
        r->pc = p->pc;
        name_of(syms, p->pc, r->name, sizeof r->name);
        add_to(r, p);
        int f = syms ? drv_symtab_find(syms, p->pc) : (int)i;
        pme_row *fr = &(*fns)[f < 0 ? nf : (unsigned)f];
        if (!fr->name[0])
            snprintf(fr->name, sizeof fr->name, "%s", r->name);
        add_to(fr, p);
    }
    for (unsigned k = 0; k < nslots; k++) /* the functions with samples, packed */
        if ((*fns)[k].name[0])
            (*fns)[(*nfns)++] = (*fns)[k];
    qsort(*pcs, n, sizeof **pcs, by_samples);
    qsort(*fns, *nfns, sizeof **fns, by_samples);
    return 0;
}

/* Short column heads for the attributes. */
static const char *const attr_head[EV67_PME_NATTRS] = {
    [EV67_PME_RETIRED] = "retired", [EV67_PME_TAKEN] = "taken", [EV67_PME_MISPREDICT] = "mispr",
    [EV67_PME_ITB_MISS] = "itbm", [EV67_PME_DTB_MISS] = "dtbm", [EV67_PME_REPLAY] = "replay",
    [EV67_PME_LDST_ORDER] = "ldst", [EV67_PME_UNALIGNED] = "unal", [EV67_PME_MAP_STALL] = "stall",
    [EV67_PME_TRAP] = "trap"};

static void print_table(const char *title, const pme_row *rows, unsigned n, unsigned shown, int by_pc, int delay)
{
    printf("%s\n%9s", title, "samples");
    for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
        printf(" %7s", attr_head[a]);
    printf("%s  %s\n", delay ? "   delay" : "", by_pc ? "pc                  function" : "function");
    for (unsigned i = 0; i < shown && i < n; i++) {
        printf("%9" PRIu64, rows[i].samples);
        for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
            printf(" %7" PRIu64, rows[i].attr[a]);
        if (delay)
            printf(" %7.1f", rows[i].samples ? (double)rows[i].delay / (double)rows[i].samples : 0.0);
        if (by_pc)
            printf("  0x%016" PRIx64 "  %s\n", rows[i].pc, rows[i].name);
        else
            printf("  %s\n", rows[i].name);
    }
    if (shown < n)
        printf("(%u more)\n", n - shown);
}

static void print_rows_json(const char *key, const pme_row *rows, unsigned n, int by_pc)
{
    printf("  \"%s\": [", key);
    for (unsigned i = 0; i < n; i++) {
        printf("%s\n    {", i ? "," : "");
        if (by_pc)
            printf("\"pc\": \"0x%" PRIx64 "\", ", rows[i].pc);
        printf("\"function\": ");
        pmu_json_string(stdout, rows[i].name);
        printf(", \"samples\": %" PRIu64, rows[i].samples);
        for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
            printf(", \"%s\": %" PRIu64, ev67_pme_attr_name(a), rows[i].attr[a]);
        printf(", \"delay\": %" PRIu64 "}", rows[i].delay);
    }
    printf("\n  ]");
}

/* --plot: the samples by function and by PC, then for each attribute seen, the samples
 * with it at each of those PCs that has any. */
static int plot_rows(const pme_opts *o, pmu_outfile *out, const pme_row *fns, unsigned nfns, const pme_row *pcs,
                     unsigned npcs)
{
    if (!out)
        return 0;
    const unsigned nf = nfns < o->top ? nfns : (unsigned)o->top, np = npcs < o->pcs ? npcs : (unsigned)o->pcs;
    pmu_plot_barlist lists[2 + EV67_PME_NATTRS];
    pmu_plot_bars charts[2 + EV67_PME_NATTRS];
    char titles[EV67_PME_NATTRS][64];
    memset(lists, 0, sizeof lists);
    unsigned nc = 0;
    int oom = 0;
    for (unsigned i = 0; i < nf; i++)
        oom |= pmu_plot_barlist_add(&lists[0], fns[i].name, (double)fns[i].samples);
    charts[nc] = pmu_plot_barlist_chart(&lists[0], "samples by function", "samples");
    nc++;
    char label[160];
    for (unsigned i = 0; i < np; i++) {
        snprintf(label, sizeof label, "0x%" PRIx64 " %s", pcs[i].pc, pcs[i].name);
        oom |= pmu_plot_barlist_add(&lists[1], label, (double)pcs[i].samples);
    }
    charts[nc] = pmu_plot_barlist_chart(&lists[1], "samples by PC", "samples");
    nc++;
    for (unsigned a = 0; a < EV67_PME_NATTRS; a++) {
        uint64_t any = 0;
        for (unsigned i = 0; i < np; i++)
            any += pcs[i].attr[a];
        if (!any)
            continue;
        pmu_plot_barlist *l = &lists[nc];
        for (unsigned i = 0; i < np; i++) {
            if (!pcs[i].attr[a]) /* the PCs that have it */
                continue;
            snprintf(label, sizeof label, "0x%" PRIx64 " %s", pcs[i].pc, pcs[i].name);
            oom |= pmu_plot_barlist_add(l, label, (double)pcs[i].attr[a]);
        }
        snprintf(titles[a], sizeof titles[a], "%s (%s) by PC", ev67_pme_attr_name(a), attr_head[a]);
        charts[nc] = pmu_plot_barlist_chart(l, titles[a], "samples");
        nc++;
    }
    int rc = 0;
    pmu_err err;
    char title[160];
    snprintf(title, sizeof title, "pmusim profileme: %s, a sample every %" PRIu64 " instructions",
             o->t.fam->models[o->t.model].title, o->period);
    if (oom)
        rc = pmu_cli_fail(&pme_cmd, PMU_EXIT_FAIL, "out of memory");
    else if (pmu_plot_bars_write(out, title, charts, nc, &err))
        rc = pmu_cli_error(&pme_cmd, &err);
    for (unsigned c = 0; c < nc; c++)
        pmu_plot_barlist_free(&lists[c]);
    return rc;
}

static int report(const pme_opts *o, ev67_session *x, pmu_backend *b, const pmu_cli_loop *l, const drv_symtab *syms,
                  pmu_outfile *plot)
{
    ev67_pme *s = ev67_session_pme(x);
    const ev67_pme_stats *st = ev67_pme_get_stats(s);
    pme_row *pcs, *fns;
    unsigned nfns, npcs = ev67_pme_npcs(s);
    if (make_rows(s, syms, &pcs, &fns, &nfns)) {
        free(pcs);
        free(fns);
        return pmu_cli_fail(&pme_cmd, PMU_EXIT_FAIL, "out of memory");
    }
    int plotted = plot_rows(o, plot, fns, nfns, pcs, npcs);
    if (plotted) {
        free(pcs);
        free(fns);
        return plotted;
    }
    FILE *checks = o->json ? stderr : stdout;
    int exact = 1;
    if (o->json) {
        /* The verdicts are members too: the check first (its lines on stderr). */
        exact = ev67_session_check(x, 1, checks);
        printf("{\n  \"family\": \"%s\", \"model\": \"%s\", \"backend\": \"%s\", \"records\": %" PRIu64 ",\n",
               o->t.fam->name, o->t.fam->models[o->t.model].name, b->name, l->records);
        printf("  \"period\": %" PRIu32 ", \"sl1\": %" PRIu64 ", \"interrupts\": %" PRIu64 ", \"samples\": %" PRIu64
               ", \"dropped_pal\": %" PRIu64 ",\n", ev67_pme_period(s), o->sl1, st->interrupts, st->samples,
               st->dropped_pal);
        print_rows_json("functions", fns, nfns, 0);
        printf(",\n");
        print_rows_json("pcs", pcs, npcs, 1);
        printf(",\n  ");
        pmu_cli_json_verdicts(stdout, b, l->records, exact);
        printf("\n}\n");
    } else {
        ev67_session_print(x, stdout);
        char title[128];
        snprintf(title, sizeof title, "by %s:", syms ? "function" : "address");
        print_table(title, fns, nfns, (unsigned)o->top, 0, o->sl1 == 1);
        print_table("by PC:", pcs, npcs, (unsigned)o->pcs, 1, o->sl1 == 1);
    }
    free(pcs);
    free(fns);
    if (!o->json)
        exact = ev67_session_check(x, 1, checks);
    if (pmu_is_cosim(b))
        fprintf(checks, "lock-step: %" PRIu64 " cycles, 0 mismatches\n", l->records);
    return exact ? PMU_EXIT_OK : PMU_EXIT_FAIL;
}

static int parse(int argc, char **argv, pme_opts *o)
{
    memset(o, 0, sizeof *o);
    o->period = 1000;
    o->sl1 = 1;
    o->top = o->pcs = 20;
    pmu_opt opts[24];
    unsigned n = pmu_cli_records_opts(&o->r, opts);
    n += pmu_cli_target_opts(&o->t, 1, opts + n);
    opts[n++] = (pmu_opt){.name = "period", .kind = PMU_OPT_U64, .dest = &o->period, .min = 1,
                          .max = (1u << EV67_CTR0_WIDTH) - 1};
    opts[n++] = (pmu_opt){.name = "sl1", .kind = PMU_OPT_U64, .dest = &o->sl1, .max = 3};
    opts[n++] = (pmu_opt){.name = "symbols", .kind = PMU_OPT_FILE, .dest = &o->symbols};
    opts[n++] = (pmu_opt){.name = "top", .kind = PMU_OPT_U64, .dest = &o->top, .min = 1, .max = 1000000};
    opts[n++] = (pmu_opt){.name = "pcs", .kind = PMU_OPT_U64, .dest = &o->pcs, .min = 1, .max = 1000000};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &o->json};
    opts[n++] = (pmu_opt){.name = "plot", .kind = PMU_OPT_FILE, .dest = &o->plot};
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(&pme_cmd, opts, n, argc, argv, args, &nargs);
    if (rc)
        return rc;
    if ((rc = pmu_cli_records_check(&pme_cmd, &o->r)) || (rc = pmu_cli_target_resolve(&pme_cmd, &o->t)))
        return rc;
    return 0;
}

int ev67_cmd_profileme(int argc, char **argv)
{
    pme_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    pmu_err err;
    pmu_err_clear(&err);
    ev67_setup s;
    ev67_setup_default(&s);
    s.model = o.t.model;
    s.mode = EV67_SETUP_PROFILEME;
    s.pme_period = (uint32_t)o.period;
    s.sl1 = (unsigned)o.sl1;
    drv_symtab *syms = NULL;
    pmu_source *src = NULL;
    pmu_backend *b = NULL;
    ev67_session *x = NULL;
    pmu_outfile *plot = NULL;
    pmu_files *files = pmu_files_new();
    if (!files) {
        pmu_errf(&err, PMU_E_NOMEM, "out of memory");
        goto fail;
    }
    if (o.symbols && !(syms = drv_symtab_load(o.symbols, &err)))
        goto fail;
    if (o.symbols)
        pmu_files_input(files, "--symbols", o.symbols);
    if (!(src = pmu_cli_source(o.t.fam->dialect, &o.r, NULL, files, &err)))
        goto fail;
    if (o.plot && !(plot = pmu_plot_output(files, "--plot", o.plot, &err)))
        goto fail;
    if (!syms && pmu_source_gen(src) && pmu_gen_nfuncs(pmu_source_gen(src)))
        syms = drv_symtab_from_gen(pmu_source_gen(src));
    if (!(b = pmu_cli_backend(o.t.fam, o.t.model, (pmu_backend_kind)o.t.backend, pmu_source_where, src, &err)))
        goto fail;
    if (!(x = ev67_session_start(&s, b, &err)))
        goto fail;
    if (!o.json) {
        printf("pmusim profileme: %s, backend %s, ", o.t.fam->models[o.t.model].title, b->name);
        if (o.r.stream)
            printf("stream %s\n", o.r.stream);
        else
            printf("generated %s records, seed %" PRIu64 ", %" PRIu64 " cycles\n", pmu_gen_mode_names[o.r.mode],
                   o.r.seed, o.r.cycles);
        ev67_setup_print(&s, "setup: ", stdout);
    }
    pmu_cli_loop l = {.b = b, .src = src, .record_size = o.t.fam->dialect->record_size,
                      .hooks = ev67_session_hooks(x)};
    pmu_loop_end end = pmu_cli_loop_run(&l, &err);
    if (end == PMU_LOOP_ERROR)
        goto fail;
    if (end == PMU_LOOP_MISMATCH) {
        char text[4096];
        FILE *out = o.json ? stderr : stdout;
        pmu_cosim_format(pmu_cosim_first(b), text, sizeof text);
        fputs(text, out);
        o.t.fam->cmds->mismatch_detail(pmu_cosim_first(b), b, out);
        fprintf(out, "lock-step: %" PRIu64 " cycles, %" PRIu64 " mismatch%s (stopped at the first); `pmusim run "
                     "--family alpha21264` with the same stream reproduces it with a waveform\n",
                l.records, pmu_cosim_mismatches(b), pmu_cosim_mismatches(b) == 1 ? "" : "es");
        if (o.json) {
            printf("{");
            pmu_cli_json_target(stdout, o.t.fam, b, &o.r);
            printf(",\n  \"records\": %" PRIu64 ", ", l.records);
            pmu_cli_json_verdicts(stdout, b, l.records, -1);
            printf(",\n  \"mismatch\": ");
            pmu_cli_json_mismatch(stdout, pmu_cosim_first(b));
            printf("\n}\n");
        }
        rc = PMU_EXIT_FAIL;
    } else {
        rc = report(&o, x, b, &l, syms, plot);
    }
    goto done;
fail:
    rc = pmu_cli_error(&pme_cmd, &err);
done:
    ev67_session_free(x);
    pmu_destroy(b);
    if (src)
        pmu_source_close(src);
    drv_symtab_free(syms);
    pmu_files_free(files);
    return rc;
}
