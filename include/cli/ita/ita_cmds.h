/* ita_cmds.h - the Itanium family's own command: `pmusim encode`, the event library's
 * register programming (verilator/cli/ita/cmd_encode.c), reached through the family's hooks
 * (include/cli/pmu_family_cmds.h) and run in-process by the event library's tests. */
#ifndef ITA_CMDS_H
#define ITA_CMDS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* argv[0] is "encode"; prints on out and errf; returns the exit status (0, or 2 for a
 * bad argument with one line on errf). */
int pmusim_encode_main(int argc, char **argv, FILE *out, FILE *errf);

#ifdef __cplusplus
}
#endif
#endif
