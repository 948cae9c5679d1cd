/* conform.h - `pmusim conform`: randomised reference-vs-RTL conformance runs. */
#ifndef PMU_CONFORM_H
#define PMU_CONFORM_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the exit code: 0 all runs in lock-step, 1 a mismatch, 2 bad arguments. */
int pmusim_cmd_conform(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
