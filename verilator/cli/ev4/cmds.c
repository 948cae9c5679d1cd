/*
 * cmds.c - the Alpha 21064 family's command hooks (include/cli/pmu_family_cmds.h).  Its
 * configuration file is a pfm setup (docs/ev4-pfm.md, "Setups"), and the overflow service
 * of `pmusim run` is the OS model with the pfm driver on the one CPU (session.c).  The
 * counters cannot be read, so count, profile and encode are for families whose counters
 * can: the 21064's tool is `pmusim pfm` (cmd_pfm.c).  Conformance runs are in
 * cmd_conform.c.  The setup and its session reach `pmusim run` through
 * include/cli/pmu_setup_cmds.h, as the 21264's do.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "harness/ev4/ev4_family.h"
#include "common/ev4/ev4_regs.h"
#include "cli/ev4/ev4_session.h"
#include "cli/pmu_setup_cmds.h"
#include "ev4_cmds_internal.h"
#include "cli/pmu_plot.h"
#include "common/ev4/ev4_cycle.h"

/* ---- the setup and its session: the OS model and the pfm driver ---- */

static int setup_parse(void *setup, unsigned model, const char *text, size_t len, const char *name, pmu_err *err)
{
    ev4_setup *s = setup;
    ev4_setup_default(s);
    s->model = model;
    return ev4_setup_parse(s, text, len, name, err) || ev4_setup_check(s, 1, name, err);
}

static unsigned setup_model(const void *setup, int *given)
{
    const ev4_setup *s = setup;
    *given = s->model_given;
    return s->model;
}

static void setup_print(const void *setup, FILE *out) { ev4_setup_print(setup, "pfm setup:     ", out); }

typedef struct service {
    ev4_session *x;
    drv_symtab *syms; /* the generator's functions, for the profile (NULL: none) */
} service;

static void service_free(void *session)
{
    service *s = session;
    if (!s)
        return;
    ev4_session_free(s->x);
    if (s->syms)
        drv_symtab_free(s->syms);
    free(s);
}

static int service_admit(void *ctx, void *record, pmu_err *err)
{
    return ev4_session_admit(((service *)ctx)->x, 0, record, err);
}

static void service_after(void *ctx, const void *record, const pmu_state *st)
{
    ev4_session_after(((service *)ctx)->x, 0, record, st);
}

/* The OS takes an interrupt when the IPL allows (service_timing). */
static void *service_start(const void *setup, pmu_backend *b, const pmu_gen *layout, pmu_record_hooks *hooks,
                           pmu_err *err)
{
    service *s = calloc(1, sizeof *s);
    if (!s) {
        pmu_errf(err, PMU_E_NOMEM, "out of memory");
        return NULL;
    }
    s->syms = layout ? drv_symtab_from_gen(layout) : NULL;
    const drv_symtab *syms[1] = {s->syms};
    if (!(s->x = ev4_session_start(setup, 1, &b, syms, err))) {
        service_free(s);
        return NULL;
    }
    *hooks = (pmu_record_hooks){.ctx = s, .admit = service_admit, .after = service_after};
    return s;
}

static int service_finish(void *session, int quiet, FILE *out)
{
    service *s = session;
    pmu_err err;
    if (ev4_session_finish(s->x, &err)) {
        fprintf(out, "%s\n", err.msg);
        return 0;
    }
    if (!quiet) {
        ev4_session_print(s->x, out);
        fprintf(out, "overflow interrupts taken: %" PRIu64 "\n", ev4_session_interrupts(s->x));
    }
    return ev4_session_check(s->x, quiet, out);
}

/* The device's results as pfm --json prints them (docs/json.md). */
static void service_json(void *session, FILE *out)
{
    ev4_session_print_json(((service *)session)->x, out);
    fputc('}', out);
}

uint64_t ev4_service_interrupts(void *session) { return ev4_session_interrupts(((service *)session)->x); }

int ev4_service_check(void *session, FILE *out) { return service_finish(session, 1, out); }

static const pmu_setup_family ev4_setup_family = {
    .family = &pmu_family_alpha21064, .setup_size = sizeof(ev4_setup), .builtin = ev4_setup_builtin,
    .parse = setup_parse, .model = setup_model, .print = setup_print,
    .start = service_start, .finish = service_finish, .json = service_json, .free = service_free,
    .conform = &ev4_conform,
};

PMU_SETUP_CONFIG_HOOKS(ev4_setup_family)

/* A mismatch is read with how the counters are programmed. */
static void mismatch_detail(const pmu_cosim_mismatch *m, pmu_backend *b, FILE *out)
{
    (void)m;
    pmu_state st;
    pmu_snapshot(pmu_cosim_ref(b), &st);
    uint64_t iccsr = st.reg[EV4_VIS_ICCSR];
    for (unsigned n = 0; n < EV4_NCOUNTERS; n++) {
        unsigned code = (unsigned)(n ? EV4_FGET(iccsr, ICCSR, MUX1) : EV4_FGET(iccsr, ICCSR, MUX0));
        unsigned pc = (unsigned)(n ? EV4_FGET(iccsr, ICCSR, PC1) : EV4_FGET(iccsr, ICCSR, PC0));
        unsigned pme = (unsigned)(n ? EV4_FGET(iccsr, ICCSR, PME1) : EV4_FGET(iccsr, ICCSR, PME0));
        const ev4_mux_desc *d = ev4_mux_lookup(n, code);
        fprintf(out, "  counter %u: %s (mux%u 0x%x), every 2^%u events, PME%u %u\n", n,
                d ? d->name : "undefined code", n, code, ev4_period_log2(n, pc), n, pme);
    }
}

/* ---- what the 21064 cannot do ---- */

static const char no_read[] = "the 21064's counters cannot be read by software (pfm(7)): use pmusim pfm";

static pmu_fam_monitor *monitor_create(const pmu_monitor_request *rq, pmu_err *err)
{
    (void)rq;
    pmu_errf(err, PMU_E_INPUT, "%s", no_read);
    return NULL;
}
static const char *monitor_session(const pmu_fam_monitor *m) { (void)m; return ""; }
static int monitor_start(pmu_fam_monitor *m, pmu_backend *b, pmu_record_hooks *hooks, pmu_err *err)
{
    (void)m, (void)b, (void)hooks;
    return pmu_errf(err, PMU_E_INPUT, "%s", no_read);
}
static const pmu_monitor_counts *monitor_finish(pmu_fam_monitor *m) { (void)m; return NULL; }
static int monitor_check(pmu_fam_monitor *m, FILE *out) { (void)m, (void)out; return 0; }
static void monitor_free(pmu_fam_monitor *m) { (void)m; }

static int encode(int argc, char **argv, FILE *out, FILE *err)
{
    (void)argc, (void)argv, (void)out;
    fprintf(err, "pmusim encode: the Alpha 21064 has no event library to encode: the mux codes are "
                 "in docs/ev4-register-map.md, and pmusim pfm programs them\n");
    return 2;
}

static const pmu_fam_command ev4_commands[] = {
    {"pfm", "run streams on the 21064 counters through the OSF/1 pfm pseudo-device", ev4_cmd_pfm},
};

static const pmu_fam_refusal ev4_refusals[] = {
    {"count profile", NULL, no_read},
    {NULL, NULL, NULL},
};

/* --plot: the two counters as the observation port shows them (CTR0, CTR1 COUNT fields at
 * the default widths, docs/ev4.md); the 21064 has no freeze. */
static const pmu_plot_counter ev4_plot_counters[] = {
    {"counter 0", "CTR0", 15, 0, 0, NULL, 0},
    {"counter 1", "CTR1", 11, 0, 1, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};
/* The timeline's privilege band: the record's mode (ev4_mode). */
static unsigned ev4_plot_level(const void *record)
{
    const unsigned m = ((const ev4_cycle *)record)->mode;
    return m <= EV4_MODE_PAL ? m : EV4_MODE_PAL;
}
static const char *const ev4_plot_levels[] = {"kernel", "user", "PALmode"};

const pmu_family_cmds ev4_family_cmds = {
    .refusals = ev4_refusals,
    .config_what = "a pfm setup (docs/ev4-pfm.md, \"Setups\")",
    PMU_SETUP_CMDS_HOOKS,
    .service_timing = "the OS takes each interrupt at the first record below IPL 6, outside PALmode (docs/ev4-pfm.md)",
    .mismatch_detail = mismatch_detail,
    .monitor_create = monitor_create,
    .monitor_session = monitor_session,
    .monitor_start = monitor_start,
    .monitor_finish = monitor_finish,
    .monitor_check = monitor_check,
    .monitor_free = monitor_free,
    .encode = encode,
    .commands = ev4_commands,
    .ncommands = sizeof ev4_commands / sizeof ev4_commands[0],
    /* Real programs: pfm's PC profile of the program's own functions (docs/real-programs-ev4.md). */
    .real_profile = "pfm --stream {stream} --symbols {symbols} --profile user --mux0 PF_ISSUES --mux1 PF_DCACHE "
                    "--cycles 4000000000",
    .real_checks = "verilator/cli/ev4/real_checks.sh",
    .cex = &ev4_cex,
    .plot_counters = ev4_plot_counters,
    .plot_level = ev4_plot_level,
    .plot_level_names = ev4_plot_levels,
    .plot_nlevels = 3,
};
