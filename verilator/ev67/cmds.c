/*
 * cmds.c - the Alpha 21264/EV67 family's command hooks (include/pmu_family_cmds.h).  Its
 * configuration file is a setup (docs/ev67-harness.md, "Setups"): the perf driver with its
 * events, or the ProfileMe sampler; the overflow service of `pmusim run` is that software
 * (session.c).  count and profile run the perf driver (cmd_monitor.c), `pmusim profileme`
 * the sampler (cmd_profileme.c); conformance runs are in cmd_conform.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ev67/ev67_family.h"
#include "ev67/ev67_regs.h"
#include "ev67/ev67_session.h"
#include "ev67_cmds_internal.h"

/* ---- configuration files ---- */

struct pmu_fam_config {
    ev67_setup setup;
    pmu_gen_hot hot; /* none: the 21264's counters have no address qualification */
};

static pmu_fam_config *config_parse(const char *text, size_t len, const char *name, unsigned model,
                                    int model_fixed, pmu_err *err)
{
    pmu_fam_config *c = calloc(1, sizeof *c);
    if (!c) {
        pmu_errf(err, PMU_E_NOMEM, "%s: out of memory", name);
        return NULL;
    }
    ev67_setup_default(&c->setup);
    c->setup.model = model;
    if (ev67_setup_parse(&c->setup, text, len, name, err)) {
        free(c);
        return NULL;
    }
    if (pmu_family_model_agrees(&pmu_family_alpha21264, name, c->setup.model_given, c->setup.model,
                                model_fixed, model, err)) {
        free(c);
        return NULL;
    }
    if (model_fixed)
        c->setup.model = model;
    return c;
}

static const char *config_builtin(unsigned model)
{
    (void)model;
    return ev67_setup_builtin();
}
static unsigned config_model(const pmu_fam_config *c) { return c->setup.model; }
static const pmu_gen_hot *config_hot(const pmu_fam_config *c) { return &c->hot; }
static void config_print(const pmu_fam_config *c, FILE *out) { ev67_setup_print(&c->setup, "setup:         ", out); }
static void config_free(pmu_fam_config *c) { free(c); }

/* ---- the overflow service: the setup's software ---- */

struct pmu_fam_service {
    ev67_session *x;
};

static void service_free(pmu_fam_service *s)
{
    if (!s)
        return;
    ev67_session_free(s->x);
    free(s);
}

static pmu_fam_service *service_start(const pmu_fam_config *c, pmu_backend *b, unsigned latency,
                                      const pmu_gen *layout, pmu_record_hooks *hooks, pmu_err *err)
{
    (void)latency; /* refused: the software takes each interrupt at the next record (service_timing) */
    (void)layout;
    pmu_fam_service *s = calloc(1, sizeof *s);
    if (!s) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    if (!(s->x = ev67_session_start(&c->setup, b, err))) {
        free(s);
        return NULL;
    }
    *hooks = ev67_session_hooks(s->x);
    return s;
}

static int service_finish(pmu_fam_service *s, int quiet, FILE *out)
{
    if (!quiet) {
        ev67_session_print(s->x, out);
        fprintf(out, "overflow interrupts taken: %" PRIu64 "\n", ev67_session_interrupts(s->x));
    }
    return ev67_session_check(s->x, !quiet, out);
}

/* A mismatch is read with how the block is programmed. */
static void mismatch_detail(const pmu_cosim_mismatch *m, pmu_backend *b, FILE *out)
{
    (void)m;
    pmu_state st;
    pmu_snapshot(pmu_cosim_ref(b), &st);
    uint64_t ctl = st.reg[EV67_VIS_PCTR_CTL], ictl = st.reg[EV67_VIS_I_CTL];
    unsigned sl0 = (unsigned)EV67_FGET(ctl, PCTR_CTL, SL0), sl1 = (unsigned)EV67_FGET(ctl, PCTR_CTL, SL1);
    fprintf(out, "  PCTR_CTL: %s mode, SL1=%u: counter 0 counts %s, counter 1 %s\n",
            sl0 ? "ProfileMe" : "aggregate", sl1, ev67_kind_names[ev67_sel_kind(sl0, sl1, 0)],
            ev67_kind_names[ev67_sel_kind(sl0, sl1, 1)]);
    fprintf(out, "  I_CTL: SPCE %u, PCT0_EN %u, PCT1_EN %u; PCTX.PPCE %u; IER_CM.PCEN 0x%x\n",
            (unsigned)EV67_FGET(ictl, I_CTL, SPCE), (unsigned)EV67_FGET(ictl, I_CTL, PCT0_EN),
            (unsigned)EV67_FGET(ictl, I_CTL, PCT1_EN), (unsigned)EV67_FGET(st.reg[EV67_VIS_PCTX], PCTX, PPCE),
            (unsigned)EV67_FGET(st.reg[EV67_VIS_IER_CM], IER_CM, PCEN));
}

static const pmu_fam_command ev67_commands[] = {
    {"profileme", "sample instructions with the 21264's ProfileMe and print their per-PC attributes",
     ev67_cmd_profileme},
};

const pmu_family_cmds ev67_family_cmds = {
    .config_parse = config_parse,
    .config_builtin = config_builtin,
    .config_model = config_model,
    .config_hot = config_hot,
    .config_print = config_print,
    .config_free = config_free,
    .service_start = service_start,
    .service_finish = service_finish,
    .service_free = service_free,
    .service_timing = "the software takes each interrupt at the record after the line rises; the "
                      "block holds it off in PALmode (docs/ev67-harness.md)",
    .mismatch_detail = mismatch_detail,
    .conform_start = ev67_conform_start,
    .conform_finish = ev67_conform_finish,
    .conform_free = ev67_conform_free,
    .monitor_create = ev67_monitor_create,
    .monitor_session = ev67_monitor_session,
    .monitor_start = ev67_monitor_start,
    .monitor_finish = ev67_monitor_finish,
    .monitor_check = ev67_monitor_check,
    .monitor_free = ev67_monitor_free,
    .encode = ev67_cmd_encode,
    .commands = ev67_commands,
    .ncommands = sizeof ev67_commands / sizeof ev67_commands[0],
};
