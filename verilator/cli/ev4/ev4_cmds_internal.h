/* ev4_cmds_internal.h - what the 21064 family's command files share (verilator/ev4/). */
#ifndef EV4_CMDS_INTERNAL_H
#define EV4_CMDS_INTERNAL_H

#include "cli/pmu_family_cmds.h"
#include "cli/pmu_setup_cmds.h"

/* Conformance (cmd_conform.c): the family's random programming and setups. */
extern const pmu_setup_conform ev4_conform;

/* The pfm driver's session of a run (cmds.c, pmu_setup_family.start): the interrupts it
 * took, and its verdict after a conformance run (as the service's finish, quiet). */
uint64_t ev4_service_interrupts(void *session);
int ev4_service_check(void *session, FILE *out);

#endif
