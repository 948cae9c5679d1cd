/*
 * cmds.c - the Alpha 21264/EV67 family's command hooks (include/cli/pmu_family_cmds.h).  Its
 * configuration file is a setup (docs/ev67-harness.md, "Setups"): the perf driver with its
 * events, or the ProfileMe sampler; the overflow service of `pmusim run` is that software
 * (session.c).  count and profile run the perf driver (cmd_monitor.c), `pmusim profileme`
 * the sampler (cmd_profileme.c); conformance runs are in cmd_conform.c.  The setup and
 * its session reach `pmusim run` through include/cli/pmu_setup_cmds.h, as the 21064's do.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ev67/ev67_family.h"
#include "common/ev67/ev67_regs.h"
#include "cli/ev67/ev67_session.h"
#include "cli/pmu_setup_cmds.h"
#include "ev67_cmds_internal.h"
#include "cli/pmu_plot.h"
#include "common/ev67/ev67_cycle.h"

/* ---- the setup and its session: the perf driver or the ProfileMe sampler ---- */

static int setup_parse(void *setup, unsigned model, const char *text, size_t len, const char *name, pmu_err *err)
{
    ev67_setup *s = setup;
    ev67_setup_default(s);
    s->model = model;
    return ev67_setup_parse(s, text, len, name, err);
}

static unsigned setup_model(const void *setup, int *given)
{
    const ev67_setup *s = setup;
    *given = s->model_given;
    return s->model;
}

static void setup_print(const void *setup, FILE *out) { ev67_setup_print(setup, "setup:         ", out); }

/* The software takes each interrupt at the next record (service_timing). */
static void *session_start(const void *setup, pmu_backend *b, const pmu_gen *layout, pmu_record_hooks *hooks,
                           pmu_err *err)
{
    (void)layout;
    ev67_session *x = ev67_session_start(setup, b, err);
    if (x)
        *hooks = ev67_session_hooks(x);
    return x;
}

static int session_finish(void *session, int quiet, FILE *out)
{
    ev67_session *x = session;
    if (!quiet) {
        ev67_session_print(x, out);
        fprintf(out, "overflow interrupts taken: %" PRIu64 "\n", ev67_session_interrupts(x));
    }
    return ev67_session_check(x, !quiet, out);
}

static void session_free(void *session) { ev67_session_free(session); }

static void session_json(void *session, FILE *out) { ev67_session_print_json(session, out); }

static const pmu_setup_family ev67_setup_family = {
    .family = &pmu_family_alpha21264, .setup_size = sizeof(ev67_setup), .builtin = ev67_setup_builtin,
    .parse = setup_parse, .model = setup_model, .print = setup_print,
    .start = session_start, .finish = session_finish, .json = session_json, .free = session_free,
    .conform = &ev67_conform,
};

PMU_SETUP_CONFIG_HOOKS(ev67_setup_family)

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

/* What count and profile refuse: the records carry no process, and the perf driver and
 * ProfileMe decide when they answer. */
#define NO_PROCESS "the records carry no process: one system-wide context"
static const pmu_fam_refusal ev67_refusals[] = {
    {"count profile", "pid", NO_PROCESS},
    {"count profile", "per-process", NO_PROCESS},
    {"count profile", "system-wide", "every session is one system-wide context already"},
    {"count profile", "dcr-pp", "DCR.pp is the Itanium's; every session is system-wide"},
    {"count profile", "irq-latency", "the perf driver takes each interrupt at the record after the line "
                                     "rises (docs/ev67-harness.md)"},
    {"profile", "sample", "the 21264's capture unit is ProfileMe: use pmusim profileme"},
    {NULL, NULL, NULL},
};

/* --plot: the two 20-bit counters, true counts from the observation port (OBS_CTR's PCTR0
 * and PCTR1 fields, docs/ev67.md); the block has no freeze. */
static const pmu_plot_counter ev67_plot_counters[] = {
    {"PCTR0", "OBS_CTR", 19, 0, 0, NULL, 0},
    {"PCTR1", "OBS_CTR", 51, 32, 1, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};
/* The timeline's band: whether the record runs in PALmode (the 21264's records carry no
 * other mode). */
static unsigned ev67_plot_level(const void *record) { return ((const ev67_cycle *)record)->pal ? 1u : 0u; }
static const char *const ev67_plot_levels[] = {"outside PALmode", "PALmode"};

const pmu_family_cmds ev67_family_cmds = {
    .refusals = ev67_refusals,
    .config_what = "a setup: the perf driver's events or the ProfileMe sampler (docs/ev67-harness.md, \"Setups\")",
    .monitor_events = ev67_monitor_events,
    .monitor_period = ev67_monitor_period,
    PMU_SETUP_CMDS_HOOKS,
    .service_timing = "the software takes each interrupt at the record after the line rises; the "
                      "block holds it off in PALmode (docs/ev67-harness.md)",
    .mismatch_detail = mismatch_detail,
    .monitor_create = ev67_monitor_create,
    .monitor_session = ev67_monitor_session,
    .monitor_start = ev67_monitor_start,
    .monitor_finish = ev67_monitor_finish,
    .monitor_check = ev67_monitor_check,
    .monitor_free = ev67_monitor_free,
    .encode = ev67_cmd_encode,
    .commands = ev67_commands,
    .ncommands = sizeof ev67_commands / sizeof ev67_commands[0],
    /* Real programs: ProfileMe's samples by function (docs/real-programs-ev67.md). */
    .real_profile = "profileme --stream {stream} --symbols {symbols} --period 500 --top 8 --pcs 8 --cycles 4000000000",
    .real_checks = "verilator/cli/ev67/real_checks.sh",
    .plot_counters = ev67_plot_counters,
    .plot_level = ev67_plot_level,
    .plot_level_names = ev67_plot_levels,
    .plot_nlevels = 2,
    .cex = &ev67_cex,
};
