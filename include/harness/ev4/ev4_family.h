/* ev4_family.h - the Alpha 21064 family's descriptor (verilator/ev4/family.c), its
 * command hooks (verilator/cli/ev4/cmds.c) and its own command, `pmusim pfm`. */
#ifndef EV4_FAMILY_H
#define EV4_FAMILY_H

#include "common/pmu_family.h"
#include "cli/pmu_family_cmds.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const pmu_family pmu_family_alpha21064;
extern const pmu_family_cmds ev4_family_cmds;
/* `pmusim pfm`: argv[0] is "pfm"; returns the exit status. */
int ev4_cmd_pfm(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
