/* ev4_cmds_internal.h - what the 21064 family's command files share (verilator/ev4/). */
#ifndef EV4_CMDS_INTERNAL_H
#define EV4_CMDS_INTERNAL_H

#include "pmu_family_cmds.h"

/* Conformance (cmd_conform.c): include/pmu_family_cmds.h, conform_start and friends. */
pmu_fam_conform *ev4_conform_start(pmu_backend *b, uint64_t seed, const pmu_gen *layout, int workload,
                                   int driver, int qual_heavy, const pmu_gen_hot **hot, pmu_record_hooks *hooks,
                                   pmu_err *err);
int ev4_conform_finish(pmu_fam_conform *c, uint64_t *interrupts, FILE *out);
void ev4_conform_free(pmu_fam_conform *c);

#endif
