/* ev67_cmds_internal.h - what the 21264/EV67 family's command files share (verilator/ev67/). */
#ifndef EV67_CMDS_INTERNAL_H
#define EV67_CMDS_INTERNAL_H

#include "pmu_family_cmds.h"

/* Conformance (cmd_conform.c): include/pmu_family_cmds.h, conform_start and friends. */
pmu_fam_conform *ev67_conform_start(pmu_backend *b, uint64_t seed, const pmu_gen *layout, int workload,
                                    int driver, int qual_heavy, const pmu_gen_hot **hot, pmu_record_hooks *hooks,
                                    pmu_err *err);
int ev67_conform_finish(pmu_fam_conform *c, uint64_t *interrupts, FILE *out);
void ev67_conform_free(pmu_fam_conform *c);

/* count and profile (cmd_monitor.c). */
pmu_fam_monitor *ev67_monitor_create(const pmu_monitor_request *rq, pmu_err *err);
const char *ev67_monitor_session(const pmu_fam_monitor *m);
int ev67_monitor_start(pmu_fam_monitor *m, pmu_backend *b, pmu_record_hooks *hooks, pmu_err *err);
const pmu_monitor_counts *ev67_monitor_finish(pmu_fam_monitor *m);
int ev67_monitor_check(pmu_fam_monitor *m, FILE *out);
void ev67_monitor_free(pmu_fam_monitor *m);
int ev67_cmd_encode(int argc, char **argv, FILE *out, FILE *err);

/* `pmusim profileme` (cmd_profileme.c). */
int ev67_cmd_profileme(int argc, char **argv);

#endif
