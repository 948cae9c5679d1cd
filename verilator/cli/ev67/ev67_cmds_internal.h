/* ev67_cmds_internal.h - what the 21264/EV67 family's command files share (verilator/ev67/). */
#ifndef EV67_CMDS_INTERNAL_H
#define EV67_CMDS_INTERNAL_H

#include "cli/pmu_family_cmds.h"
#include "cli/pmu_setup_cmds.h"
#include "cli/pmu_cex.h"

/* Conformance (cmd_conform.c): the family's random programming and setups. */
extern const pmu_setup_conform ev67_conform;

/* count and profile (cmd_monitor.c). */
/* count/profile's events and --period range, for the help and the messages. */
extern const char ev67_monitor_events[], ev67_monitor_period[];
pmu_fam_monitor *ev67_monitor_create(const pmu_monitor_request *rq, pmu_err *err);
const char *ev67_monitor_session(const pmu_fam_monitor *m);
int ev67_monitor_start(pmu_fam_monitor *m, pmu_backend *b, pmu_record_hooks *hooks, pmu_err *err);
const pmu_monitor_counts *ev67_monitor_finish(pmu_fam_monitor *m);
int ev67_monitor_check(pmu_fam_monitor *m, FILE *out);
void ev67_monitor_free(pmu_fam_monitor *m);
int ev67_cmd_encode(int argc, char **argv, FILE *out, FILE *err);

/* cex2replay (cex.c): the checker formal/ev67/ev67_pmu_props.sv. */
extern const pmu_cex_family ev67_cex;

/* `pmusim profileme` (cmd_profileme.c). */
int ev67_cmd_profileme(int argc, char **argv);

#endif
