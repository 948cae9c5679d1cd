/* ev67_family.h - the Alpha 21264/EV67 family's descriptor (verilator/ev67/family.c). */
#ifndef EV67_FAMILY_H
#define EV67_FAMILY_H

#include "common/pmu_family.h"
#include "cli/pmu_family_cmds.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const pmu_family pmu_family_alpha21264;
/* Its command hooks (verilator/cli/ev67/cmds.c). */
extern const pmu_family_cmds ev67_family_cmds;

#ifdef __cplusplus
}
#endif
#endif
