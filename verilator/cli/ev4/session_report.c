/*
 * session_report.c - what a pfm session prints (the driver's counts, IPL histogram and PC
 * profile by function, as text or JSON) and the exactness checks (docs/ev4-pfm.md,
 * "Exactness"): the driver's results against what the harness saw the hardware do.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csim/ev4/ev4_ref.h"
#include "common/ev4/ev4_regs.h"
#include "harness/pmu_cosim.h"
#include "session_internal.h"
#include "common/pmu_text.h"
#include "cli/pmu_plot.h"

static const char *const ipl_names[PFM_NIPL] = {"ipl0", "ipl1", "ipl2", "ipl3", "ipl4",
                                                "ipl5", "ipl6", "idle", "user"};

/* CPU c is one the device has open. */
static int cpu_open(const ev4_session *x, unsigned c)
{
    return x->setup.open != EV4_OPEN_ONE || (int)c == x->setup.bind;
}

/* Element e of the driver's arrays: CPU e in EACH mode, else every CPU. */
static unsigned first_cpu(const ev4_session *x, unsigned e) { return x->setup.open == EV4_OPEN_EACH ? e : 0; }
static unsigned end_cpu(const ev4_session *x, unsigned e) { return x->setup.open == EV4_OPEN_EACH ? e + 1 : x->ncpus; }

/* ---- the profile by function ---- */

typedef struct fn_ticks {
    const char *name;
    uint64_t ticks;
} fn_ticks;

static int by_ticks(const void *a, const void *b)
{
    const fn_ticks *x = a, *y = b;
    if (x->ticks != y->ticks)
        return x->ticks < y->ticks ? 1 : -1;
    return strcmp(x->name, y->name);
}

static const char *function_of(const ev4_session *x, uint64_t pc)
{
    for (unsigned c = 0; c < x->ncpus; c++) {
        int i = x->syms[c] ? drv_symtab_find(x->syms[c], pc) : -1;
        if (i >= 0)
            return drv_symtab_name(x->syms[c], (unsigned)i);
    }
    return "(no symbol)";
}

/* The buckets folded by function, most ticks first; *n functions; *total ticks. */
static fn_ticks *profile_by_function(const ev4_session *x, unsigned *n, uint64_t *total)
{
    uint64_t nb = x->nbuckets * (x->setup.open == EV4_OPEN_EACH ? x->ncpus : 1);
    fn_ticks *f = calloc(nb ? nb : 1, sizeof *f);
    *n = 0;
    *total = 0;
    if (!f)
        return NULL;
    for (uint64_t i = 0; i < nb; i++) {
        if (!x->buckets[i])
            continue;
        const char *name = function_of(x, x->prof_start + (i % x->nbuckets) * 16);
        unsigned k;
        for (k = 0; k < *n && strcmp(f[k].name, name) != 0; k++)
            ;
        if (k == *n)
            f[(*n)++] = (fn_ticks){name, 0};
        f[k].ticks += x->buckets[i];
        *total += x->buckets[i];
    }
    qsort(f, *n, sizeof *f, by_ticks);
    return f;
}

#define PROFILE_LINES 12

void ev4_session_print(const ev4_session *x, FILE *out)
{
    const user_mem *u = x->u;
    const ev4_setup *s = &x->setup;
    if (s->items & PFM_COUNTERS) {
        fprintf(out, "counts (PCNTGETCNT): interrupts per counter, x period = events\n");
        fprintf(out, "  %-5s %12s %14s %12s %14s %14s\n", "cpu", "counter 0", "events", "counter 1",
                "events", "pr_cycle");
        for (unsigned e = 0; e < x->ncnt; e++) {
            char cpu[16];
            snprintf(cpu, sizeof cpu, "%s", x->setup.open == EV4_OPEN_EACH ? "" : x->setup.open == EV4_OPEN_ALL ? "all" : "one");
            if (x->setup.open == EV4_OPEN_EACH)
                snprintf(cpu, sizeof cpu, "%u", e);
            fprintf(out, "  %-5s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %14" PRIu64 " %14" PRIu64 "\n", cpu,
                    u->cnt[e].pf_cntr0, u->cnt[e].pf_cntr0 * ev4_setup_period(s, 0), u->cnt[e].pf_cntr1,
                    u->cnt[e].pf_cntr1 * ev4_setup_period(s, 1), u->cnt[e].pr_cycle);
        }
    }
    if (s->items & PFM_IPL) {
        fprintf(out, "IPL histogram (PCNTGETIPLHIS): ticks by IPL; idle = IPL 0 in the idle thread\n  %-5s", "cpu");
        for (unsigned i = 0; i < PFM_NIPL; i++)
            fprintf(out, " %8s", ipl_names[i]);
        fprintf(out, "\n");
        for (unsigned e = 0; e < x->ncnt; e++) {
            if (x->setup.open == EV4_OPEN_EACH)
                fprintf(out, "  %-5u", e);
            else
                fprintf(out, "  %-5s", x->setup.open == EV4_OPEN_ALL ? "all" : "one");
            for (unsigned i = 0; i < PFM_NIPL; i++)
                fprintf(out, " %8" PRIu64, u->ipl[e].ipl[i]);
            fprintf(out, "\n");
        }
    }
    if (x->nbuckets) {
        unsigned n;
        uint64_t total;
        fn_ticks *f = profile_by_function(x, &n, &total);
        fprintf(out, "PC profile (read, %s mode, 0x%" PRIx64 "..0x%" PRIx64 ", %ld bytes): %" PRIu64 " samples\n",
                s->prof == EV4_PROF_KERNEL ? "kernel" : "user", x->prof_start, x->prof_end, u->rsize, total);
        for (unsigned i = 0; f && i < n && i < PROFILE_LINES; i++)
            fprintf(out, "  %10" PRIu64 " %5.1f%%  %s\n", f[i].ticks, 100.0 * (double)f[i].ticks / (double)total,
                    f[i].name);
        if (n > PROFILE_LINES)
            fprintf(out, "  (%u more functions)\n", n - PROFILE_LINES);
        free(f);
    }
}

int ev4_session_plot(const ev4_session *x, pmu_outfile *o, const char *title, pmu_err *err)
{
    const user_mem *u = x->u;
    const ev4_setup *s = &x->setup;
    pmu_plot_barlist l[3];
    pmu_plot_bars charts[3];
    unsigned nc = 0;
    int oom = 0;
    memset(l, 0, sizeof l);
    char label[64];
    if (s->items & PFM_COUNTERS) {
        for (unsigned e = 0; e < x->ncnt; e++)
            for (unsigned k = 0; k < 2; k++) {
                if (s->open == EV4_OPEN_EACH)
                    snprintf(label, sizeof label, "cpu %u counter %u", e, k);
                else
                    snprintf(label, sizeof label, "counter %u", k);
                oom |= pmu_plot_barlist_add(&l[nc], label, (double)(k ? u->cnt[e].pf_cntr1 : u->cnt[e].pf_cntr0));
            }
        charts[nc] = pmu_plot_barlist_chart(&l[nc], "interrupts per counter (PCNTGETCNT)", "interrupts");
        nc++;
    }
    if (s->items & PFM_IPL) {
        for (unsigned i = 0; i < PFM_NIPL; i++) {
            uint64_t ticks = 0;
            for (unsigned e = 0; e < x->ncnt; e++)
                ticks += u->ipl[e].ipl[i];
            oom |= pmu_plot_barlist_add(&l[nc], ipl_names[i], (double)ticks);
        }
        charts[nc] = pmu_plot_barlist_chart(&l[nc], "IPL histogram (PCNTGETIPLHIS), every element", "ticks");
        nc++;
    }
    if (x->nbuckets) {
        unsigned n;
        uint64_t total;
        fn_ticks *f = profile_by_function(x, &n, &total);
        oom |= !f;
        for (unsigned i = 0; f && i < n; i++)
            oom |= pmu_plot_barlist_add(&l[nc], f[i].name, (double)f[i].ticks);
        free(f);
        charts[nc] = pmu_plot_barlist_chart(&l[nc], "PC profile by function", "samples");
        nc++;
    }
    int rc = oom ? pmu_errf(err, PMU_E_NOMEM, "out of memory") : pmu_plot_bars_write(o, title, charts, nc, err);
    for (unsigned c = 0; c < nc; c++)
        pmu_plot_barlist_free(&l[c]);
    return rc;
}

void ev4_session_print_json(const ev4_session *x, FILE *out)
{
    const user_mem *u = x->u;
    static const char *const opens[] = {"all", "each", "one"};
    fprintf(out, "{\"open\":\"%s\",\"cpus\":%u,\"period\":[%" PRIu64 ",%" PRIu64 "],\"counts\":[", opens[x->setup.open],
            x->ncpus, ev4_setup_period(&x->setup, 0), ev4_setup_period(&x->setup, 1));
    for (unsigned e = 0; (x->setup.items & PFM_COUNTERS) && e < x->ncnt; e++)
        fprintf(out, "%s{\"pf_cntr0\":%" PRIu64 ",\"pf_cntr1\":%" PRIu64 ",\"pr_cycle\":%" PRIu64 "}", e ? "," : "",
                u->cnt[e].pf_cntr0, u->cnt[e].pf_cntr1, u->cnt[e].pr_cycle);
    fprintf(out, "],\"ipl\":[");
    for (unsigned e = 0; (x->setup.items & PFM_IPL) && e < x->ncnt; e++) {
        fprintf(out, "%s[", e ? "," : "");
        for (unsigned i = 0; i < PFM_NIPL; i++)
            fprintf(out, "%s%" PRIu64, i ? "," : "", u->ipl[e].ipl[i]);
        fprintf(out, "]");
    }
    fprintf(out, "],\"profile\":");
    if (!x->nbuckets) {
        fprintf(out, "null");
    } else {
        unsigned n;
        uint64_t total;
        fn_ticks *f = profile_by_function(x, &n, &total);
        /* Addresses as "0x..." strings, as every --json writes them (docs/json.md). */
        fprintf(out, "{\"mode\":\"%s\",\"start\":\"0x%" PRIx64 "\",\"end\":\"0x%" PRIx64 "\",\"bytes\":%ld,\"samples\":%" PRIu64
                     ",\"functions\":[",
                x->setup.prof == EV4_PROF_KERNEL ? "kernel" : "user", x->prof_start, x->prof_end, u->rsize, total);
        for (unsigned i = 0; f && i < n; i++) {
            fprintf(out, "%s{\"name\":", i ? "," : "");
            pmu_json_string(out, f[i].name);
            fprintf(out, ",\"ticks\":%" PRIu64 "}", f[i].ticks);
        }
        fprintf(out, "]}");
        free(f);
    }
    fprintf(out, ",\"interrupts\":%" PRIu64, ev4_session_interrupts(x));
}

/* ---- exactness ---- */

static pmu_backend *reference_of(pmu_backend *b)
{
    b = pmu_reference(b);
    return ev4_is_ref(b) ? b : NULL;
}

#define DIFF(...)                         \
    do {                                  \
        fprintf(out, "exact: " __VA_ARGS__); \
        exact = 0;                        \
    } while (0)

/* Per CPU: the interrupts the OS took against the requests the hardware made. */
static int check_interrupts(const ev4_session *x, FILE *out)
{
    int exact = 1;
    for (unsigned c = 0; c < x->ncpus; c++) {
        const ev4_os_cpu_stats *st = ev4_os_cpu(x->os, c);
        pmu_backend *ref = reference_of(x->cpu[c]);
        for (unsigned n = 0; n < 2; n++) {
            uint64_t edges = x->t[c].edges[n], want = edges - x->pending[c][n];
            if (st->taken[n] != want)
                DIFF("cpu %u counter %u: %" PRIu64 " interrupts taken, the hardware requested %" PRIu64
                     " (%" PRIu64 " still pending)\n", c, n, st->taken[n], edges, x->pending[c][n]);
            if (ref && ev4_ref_requests(ref, n) != edges)
                DIFF("cpu %u counter %u: the reference model made %" PRIu64 " requests, HIRR rose %" PRIu64 " times\n",
                     c, n, ev4_ref_requests(ref, n), edges);
            int off = !cpu_open(x, c) || ((x->setup.disable >> n) & 1);
            if (st->recorded[n] != (off ? 0 : st->taken[n]))
                DIFF("cpu %u counter %u: the driver recorded %" PRIu64 " of %" PRIu64 " interrupts (%s)\n", c, n,
                     st->recorded[n], st->taken[n], off ? "expected none: not open or disabled" : "expected all");
        }
    }
    return exact;
}

/* The driver's arrays against the tallies, element by element. */
static int check_driver(const ev4_session *x, FILE *out)
{
    int exact = 1;
    const user_mem *u = x->u;
    for (unsigned e = 0; e < x->ncnt; e++) {
        uint64_t rec[2] = {0, 0}, ticks = 0, ipl[PFM_NIPL] = {0}, sum = 0;
        for (unsigned c = first_cpu(x, e); c < end_cpu(x, e); c++) {
            for (unsigned n = 0; n < 2; n++)
                rec[n] += ev4_os_cpu(x->os, c)->recorded[n];
            ticks += x->t[c].ticks;
            for (unsigned i = 0; i < PFM_NIPL; i++)
                ipl[i] += x->t[c].ipl[i];
        }
        if ((x->setup.items & PFM_COUNTERS) && (u->cnt[e].pf_cntr0 != rec[0] || u->cnt[e].pf_cntr1 != rec[1]))
            DIFF("element %u: PCNTGETCNT %" PRIu64 "/%" PRIu64 ", interrupts recorded %" PRIu64 "/%" PRIu64 "\n", e,
                 u->cnt[e].pf_cntr0, u->cnt[e].pf_cntr1, rec[0], rec[1]);
        if (!(x->setup.items & PFM_IPL))
            continue;
        for (unsigned i = 0; i < PFM_NIPL; i++) {
            sum += u->ipl[e].ipl[i];
            if (u->ipl[e].ipl[i] != ipl[i])
                DIFF("element %u: IPL histogram %s = %" PRIu64 ", ticks taken there %" PRIu64 "\n", e, ipl_names[i],
                     u->ipl[e].ipl[i], ipl[i]);
        }
        if (sum != ticks)
            DIFF("element %u: the IPL histogram totals %" PRIu64 ", the ticks %" PRIu64 "\n", e, sum, ticks);
    }
    uint64_t nb = x->nbuckets * (x->setup.open == EV4_OPEN_EACH ? x->ncpus : 1);
    for (uint64_t i = 0; i < nb; i++)
        if (x->buckets[i] != x->want_buckets[i]) {
            DIFF("profile bucket %" PRIu64 " (pc 0x%" PRIx64 "): %" PRIu32 " samples, %" PRIu32 " sampled there\n", i,
                 x->prof_start + (i % x->nbuckets) * 16, x->buckets[i], x->want_buckets[i]);
            break;
        }
    return exact;
}

/* With counter 0 counting cycles, the reference's total is the cycles counted: every
 * record, or with PCNTLOGSELECT only the records of processes with the PME bit.  Only on
 * the CPUs the open covers: PCNTSETMUX and PCNTLOGSELECT reach no other (pfm(7):
 * PCNTOPENONE "opens and collects data on only this one CPU"), whose counters count what
 * their PALcode was left set to. */
static int check_selection(const ev4_session *x, FILE *out)
{
    int exact = 1;
    if (x->setup.mux[0] != EV4_MUX_PF_CYCLES)
        return 1;
    for (unsigned c = 0; c < x->ncpus; c++) {
        pmu_backend *ref = reference_of(x->cpu[c]);
        if (!ref || !cpu_open(x, c))
            continue;
        int select = x->setup.log_select && ev4_has_pme((ev4_model)ref->model);
        uint64_t want = select ? x->t[c].pme_records : x->t[c].records;
        if (ev4_ref_total(ref, 0) != want)
            DIFF("cpu %u: counter 0 counted %" PRIu64 " cycles, expected %" PRIu64 " (%s)\n", c,
                 ev4_ref_total(ref, 0), want, select ? "records of processes with the PME bit" : "every record");
    }
    return exact;
}

int ev4_session_check(const ev4_session *x, int quiet, FILE *out)
{
    int exact = check_interrupts(x, out);
    exact &= check_driver(x, out);
    exact &= check_selection(x, out);
    if (!exact || quiet)
        return exact;
    char where[32] = "";
    if (x->setup.open == EV4_OPEN_ONE && x->ncpus > 1)
        snprintf(where, sizeof where, " on CPU %d, the one open", x->setup.bind);
    pmu_cosim_say_exact(out, x->cpu[0],
                        "on %u CPU%s the driver's counts equal the interrupts the hardware raised, "
                        "the IPL histogram the ticks, the profile the sampled PCs%s%s",
                        x->ncpus, x->ncpus == 1 ? "" : "s",
                        x->setup.mux[0] == EV4_MUX_PF_CYCLES && reference_of(x->cpu[0])
                            ? (x->setup.log_select ? ", and counter 0 counted the selected processes' cycles"
                                                   : ", and counter 0 every cycle")
                            : "",
                        x->setup.mux[0] == EV4_MUX_PF_CYCLES && reference_of(x->cpu[0]) ? where : "");
    return exact;
}
