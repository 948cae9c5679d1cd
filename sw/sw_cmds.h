/* sw_cmds.h - pmusim sub-commands written on the PMU software library.
 * Each takes the arguments after "pmusim" (argv[0] is the sub-command name)
 * and returns the exit status: 0 success, 2 a bad argument (one line on stderr). */
#ifndef SW_CMDS_H
#define SW_CMDS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pmusim count: run a stream and print 64-bit counts per event (sw/cmd_count.c). */
int pmusim_cmd_count(int argc, char **argv);
/* pmusim profile: sample on overflow, print a flat profile by function (sw/cmd_profile.c). */
int pmusim_cmd_profile(int argc, char **argv);
/* pmusim encode: print the register programming of events, ranges and opcode matchers. */
int pmusim_cmd_encode(int argc, char **argv);
/* The same, writing to out and errf (tests). */
int pmusim_encode_main(int argc, char **argv, FILE *out, FILE *errf);

#ifdef __cplusplus
}
#endif
#endif
