/*
 * cmds.c - the Itanium family's command hooks (include/cli/pmu_family_cmds.h): configuration
 * files (include/cli/ita/ita_config.h), the harness's overflow service (include/harness/ita/ita_isr.h)
 * and the run's summary.  Conformance, count/profile and encode are in cmd_conform.c,
 * cmd_monitor.c and cmd_encode.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds_internal.h"
#include "cli/ita/ita_cmds.h"
#include "cli/ita/ita_config.h"
#include "harness/ita/ita_isr.h"
#include "common/pmu_text.h"
#include "cli/pmu_plot.h"
#include "common/ita/ita_cycle.h"

/* ---- configuration files --------------------------------------------------------------- */

struct pmu_fam_config {
    ita_config cfg;
    ita_config_hot hot; /* points into itself: never copied */
};

static pmu_fam_config *config_parse(const char *text, size_t len, const char *name,
                                    unsigned model, int model_fixed, pmu_err *err)
{
    pmu_fam_config *c = malloc(sizeof *c);
    if (!c) {
        pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", name);
        return NULL;
    }
    if (ita_config_parse(text, len, name, (ita_model)model, model_fixed, &c->cfg, err) != 0) {
        err->code = PMU_E_INPUT;
        free(c);
        return NULL;
    }
    /* The configuration's range bounds and opcode patterns are the generator's edges
     * (docs/ita-stream-format.md, "Hot edges"; docs/ita-config-format.md). */
    uint64_t vis[ITA_NVIS];
    ita_config_values(&c->cfg, vis);
    ita_config_hot_edges(vis, c->cfg.model, &c->hot);
    return c;
}

static const char *config_builtin(unsigned model) { return ita_config_default_text((ita_model)model); }
static unsigned config_model(const pmu_fam_config *c) { return c->cfg.model; }
static const pmu_gen_hot *config_hot(const pmu_fam_config *c) { return &c->hot.hot; }
static void config_free(pmu_fam_config *c) { free(c); }

/* The programmed ranges and opcode patterns, under the configuration line. */
static void config_print(const pmu_fam_config *c, FILE *out)
{
    uint64_t vis[ITA_NVIS];
    char text[2048];
    ita_config_values(&c->cfg, vis);
    if (ita_config_describe_setup(vis, c->cfg.model, text, sizeof text) == 0)
        return;
    const char *line = text;
    int first = 1;
    while (*line) {
        const char *nl = strchr(line, '\n');
        int len = nl ? (int)(nl - line) : (int)strlen(line);
        fprintf(out, "%-15s%.*s\n", first ? "qualification:" : "", len, line);
        first = 0;
        line += len + (nl != NULL);
    }
}

/* ---- the overflow service ------------------------------------------------------------------ */

struct pmu_fam_service {
    const ita_config *cfg;
    pmu_backend *b;
    ita_isr isr;
};

static void service_after(void *ctx, const void *record, const pmu_state *st)
{
    (void)record;
    ita_isr_tick(&((pmu_fam_service *)ctx)->isr, st->pmi);
}

static pmu_fam_service *service_start(const pmu_fam_config *c, pmu_backend *b, unsigned latency,
                                      const pmu_gen *layout, pmu_record_hooks *hooks, pmu_err *err)
{
    (void)layout; /* the counter table needs no functions */
    pmu_fam_service *s = malloc(sizeof *s);
    if (!s) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    s->cfg = &c->cfg;
    s->b = b;
    ita_config_apply(&c->cfg, b);
    ita_isr_init(&s->isr, b, c->cfg.start, c->cfg.reload, latency);
    *hooks = (pmu_record_hooks){.ctx = s, .after = service_after, .pmi_only = 1,
                                .wake = &s->isr.pending};
    return s;
}

/* Counter k's event and its qualifiers with the range/opcode constraints that apply
 * (docs/ita-config-format.md), as the counter table shows them. */
static void describe_counter(const ita_config *cfg, const uint64_t *vis, unsigned k, char ev[64], char q[640])
{
    uint64_t pmc = vis[ITA_VIS_PMC4 + k];
    char tags[512];
    ita_config_describe_event(pmc, cfg->model, ev, 64);
    ita_config_describe_qualifiers(pmc, q, 640);
    ita_config_describe_tags(vis, cfg->model, k, tags, sizeof tags);
    if (tags[0]) {
        size_t n = strlen(q);
        snprintf(q + n, 640 - n, " %s", tags);
    }
}

/* The counters the table shows: those the configuration programs (every one when it
 * programs none). */
static int counter_shown(const ita_config *cfg, unsigned k)
{
    for (unsigned j = 0; j < ITA_NCOUNTERS; j++)
        if (cfg->line[ITA_VIS_PMC4 + j])
            return cfg->line[ITA_VIS_PMC4 + k] != 0;
    return 1;
}

/* The counter table: event, counter qualifiers and constraints, 64-bit total, wraps
 * folded.  Columns fit their text. */
static void print_table(const ita_config *cfg, const ita_isr *isr, FILE *out)
{
    uint64_t vis[ITA_NVIS];
    ita_config_values(cfg, vis);
    char ev[ITA_NCOUNTERS][64], q[ITA_NCOUNTERS][640];
    int ev_w = (int)strlen("event"), q_w = (int)strlen("qualifiers");
    int n_w = (int)strlen("64-bit count"), o_w = (int)strlen("overflows");
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        char num[32];
        describe_counter(cfg, vis, k, ev[k], q[k]);
        if (!counter_shown(cfg, k))
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
    fprintf(out, "%-8s %-*s %-*s %*s %*s\n", "counter", ev_w, "event", q_w, "qualifiers", n_w,
            "64-bit count", o_w, "overflows");
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        if (!counter_shown(cfg, k))
            continue;
        fprintf(out, "%-8s %-*s %-*s %*" PRIu64 " %*" PRIu64 "\n",
                ita_vis_table[ITA_VIS_PMD4 + k].name, ev_w, ev[k], q_w, q[k], n_w,
                isr->total[k], o_w, isr->overflows[k]);
    }
}

/* The 64-bit virtual counts against the backend's exact event totals. */
static int check_totals(pmu_fam_service *s, int quiet, FILE *out)
{
    if (!pmu_has_total(s->b))
        return 1;
    int exact = 1;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        uint64_t want = pmu_total(s->b, ITA_FIRST_COUNTER + k);
        if (s->isr.total[k] == want)
            continue;
        exact = 0;
        uint64_t pmc = pmu_read(s->b, ita_vis_table[ITA_VIS_PMC4 + k].addr);
        fprintf(out, "totals: %s virtual count %" PRIu64 " != reference total %" PRIu64 "%s\n",
                ita_vis_table[ITA_VIS_PMD4 + k].name, s->isr.total[k], want,
                ITA_FGET(pmc, PMC_GEN, OI) ? ""
                                           : " (oi=0: wraps without an interrupt are "
                                             "invisible to the overflow service)");
    }
    if (exact && !quiet)
        fprintf(out, "totals: the 64-bit virtual counts equal the reference totals\n");
    return exact;
}

static int service_finish(pmu_fam_service *s, int quiet, FILE *out)
{
    ita_isr_finish(&s->isr);
    if (!quiet) {
        print_table(s->cfg, &s->isr, out);
        fprintf(out, "overflow interrupts serviced: %" PRIu64 "\n", s->isr.interrupts);
    }
    return check_totals(s, quiet, out);
}

/* The counter table and the interrupts serviced as one JSON object (docs/json.md). */
static void service_json(pmu_fam_service *s, FILE *out)
{
    uint64_t vis[ITA_NVIS];
    ita_config_values(s->cfg, vis);
    fprintf(out, "{\"counters\": [");
    unsigned n = 0;
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        char ev[64], q[640];
        if (!counter_shown(s->cfg, k))
            continue;
        describe_counter(s->cfg, vis, k, ev, q);
        fprintf(out, "%s\n    {\"counter\": \"%s\", \"event\": ", n++ ? "," : "", ita_vis_table[ITA_VIS_PMD4 + k].name);
        pmu_json_string(out, ev);
        fprintf(out, ", \"qualifiers\": ");
        pmu_json_string(out, q);
        fprintf(out, ", \"count\": %" PRIu64 ", \"overflows\": %" PRIu64 "}", s->isr.total[k], s->isr.overflows[k]);
    }
    fprintf(out, "],\n  \"interrupts\": %" PRIu64 "}", s->isr.interrupts);
}

static void service_free(pmu_fam_service *s) { free(s); }

/* A counter mismatch is read with the programming that drives it. */
static void mismatch_detail(const pmu_cosim_mismatch *m, pmu_backend *b, FILE *out)
{
    for (unsigned k = 0; k < ITA_NCOUNTERS; k++) {
        if (strcmp(m->reg, ita_vis_table[ITA_VIS_PMD4 + k].name) != 0)
            continue;
        pmu_state ref_state;
        pmu_snapshot(pmu_cosim_ref(b), &ref_state);
        uint64_t pmc = ref_state.reg[ITA_VIS_PMC4 + k];
        ita_model model = (ita_model)b->model;
        char ev[64], q[96], tags[512];
        ita_config_describe_event(pmc, model, ev, sizeof ev);
        ita_config_describe_qualifiers(pmc, q, sizeof q);
        ita_config_describe_tags(ref_state.reg, model, k, tags, sizeof tags);
        fprintf(out, "  counter:  %s = 0x%016" PRIx64 " (%s %s%s%s)\n",
                ita_vis_table[ITA_VIS_PMC4 + k].name, pmc, ev, q, tags[0] ? " " : "", tags);
    }
}

/* --plot: the generic counters PMD4..7 (their count field, as wide as the model's) and the
 * freeze bit PMC0.fr the hardware sets on an overflow with PMC.oi set (the .def's fields). */
static const pmu_plot_counter ita_plot_counters[] = {
    {"PMD4", "PMD4", 46, 0, 4, "PMC0", 0},
    {"PMD5", "PMD5", 46, 0, 5, "PMC0", 0},
    {"PMD6", "PMD6", 46, 0, 6, "PMC0", 0},
    {"PMD7", "PMD7", 46, 0, 7, "PMC0", 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};
/* The count field: 32 bits on Itanium, 47 on Itanium 2 (reads sign-extend it). */
static unsigned ita_plot_width(unsigned model) { return ita_counter_width((ita_model)model); }
/* The timeline's privilege band: the record's PSR.cpl. */
static unsigned ita_plot_level(const void *record) { return ((const ita_cycle *)record)->cpl & 3u; }
static const char *const ita_plot_levels[] = {"cpl 0", "cpl 1", "cpl 2", "cpl 3"};

const pmu_family_cmds ita_family_cmds = {
    .config_what = "a PMU configuration (docs/ita-config-format.md)",
    .monitor_events = "up to 4 events of pmusim encode --list (one per counter);\n"
                      "modifiers :u :k :plm=N :thres=N :ism=ia64|ia32|both\n"
                      "(no privilege modifier = user level); the driver: docs/ita-driver.md",
    .monitor_period = "1..2^W, W = 47 on Itanium 2, 32 on Itanium",
    .config_parse = config_parse,
    .config_builtin = config_builtin,
    .config_model = config_model,
    .config_hot = config_hot,
    .config_print = config_print,
    .config_free = config_free,
    .service_start = service_start,
    .service_finish = service_finish,
    .service_json = service_json,
    .service_free = service_free,
    .mismatch_detail = mismatch_detail,
    .conform_start = ita_conform_start,
    .conform_finish = ita_conform_finish,
    .conform_qual = 1,
    .conform_free = ita_conform_free,
    .monitor_create = ita_monitor_create,
    .monitor_session = ita_monitor_session,
    .monitor_start = ita_monitor_start,
    .monitor_finish = ita_monitor_finish,
    .monitor_check = ita_monitor_check,
    .monitor_free = ita_monitor_free,
    .encode = pmusim_encode_main,
    .cex = &ita_cex,
    /* Real programs (IA-32 mode): a CPU_CYCLES profile by function and the D-EAR's samples of
     * L1D misses (docs/real-programs-ita.md). */
    .real_profile = "profile --sample DATA_EAR_CACHE_LAT4 --period 50 --stream {stream} --symbols {symbols} --top 8 "
                    "--cycles 4000000000",
    .real_checks = "verilator/cli/ita/real_checks.sh",
    .plot_counters = ita_plot_counters,
    .plot_width = ita_plot_width,
    .plot_level = ita_plot_level,
    .plot_level_names = ita_plot_levels,
    .plot_nlevels = 4,
};
