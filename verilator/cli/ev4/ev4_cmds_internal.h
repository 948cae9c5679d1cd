/* ev4_cmds_internal.h - what the 21064 family's command files share (verilator/ev4/). */
#ifndef EV4_CMDS_INTERNAL_H
#define EV4_CMDS_INTERNAL_H

#include "cli/pmu_family_cmds.h"
#include "cli/pmu_setup_cmds.h"
#include "cli/pmu_cex.h"

/* Conformance (cmd_conform.c): the family's random programming and setups. */
extern const pmu_setup_conform ev4_conform;

/* cex2replay (cex.c): the checker formal/ev4/ev4_pmu_props.sv's counterexamples as replays. */
extern const pmu_cex_family ev4_cex;

/* The pfm driver's session of a run (cmds.c, pmu_setup_family.start): the interrupts it
 * took, and its verdict after a conformance run (as the service's finish, quiet). */
uint64_t ev4_service_interrupts(void *session);
int ev4_service_check(void *session, FILE *out);

#endif
