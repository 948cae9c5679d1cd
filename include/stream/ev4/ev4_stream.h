/*
 * ev4_stream.h - the "ev4" cycle-record dialect of the Alpha 21064 family: records are
 * ev4_cycle (include/common/ev4/ev4_cycle.h) in the text and binary forms, validation and the
 * seeded generator of docs/ev4-stream.md.  One stream is one CPU.
 *
 * The constants below are the generator's system layout, which the other parts (the OS
 * model, the pfm tools, the family's commands) rely on: docs/ev4-stream.md, "The
 * generator".
 */
#ifndef EV4_STREAM_H
#define EV4_STREAM_H

#include "common/pmu_dialect.h"
#include "common/ev4/ev4_cycle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dialect (name "ev4"). */
extern const pmu_dialect pmu_dialect_ev4;

/* CPU c's processes use pids [EV4_GEN_PID_BASE(c), EV4_GEN_PID_BASE(c) + EV4_GEN_PIDS_PER_CPU
 * - 1]: disjoint per CPU and never reused, so no pid is current on two CPUs at once. */
#define EV4_GEN_PID_BASE(c) (1000u * ((unsigned)(c) + 1u) + 1u)
#define EV4_GEN_PIDS_PER_CPU 999u
/* CPU c's shell: exists from the start, never forked, never exits, forks the others. */
#define EV4_GEN_SHELL_PID(c) EV4_GEN_PID_BASE(c)

/* Address layout: every kernel function ("vmunix:<fn>") lies in
 * [EV4_GEN_KERNEL_BASE, EV4_GEN_KERNEL_END); user program k's text ("<program>:<fn>")
 * starts at EV4_GEN_USER_BASE(k) (program 0 is the shell, sh); PALcode ("pal:<fn>") at
 * EV4_GEN_PAL_BASE. */
#define EV4_GEN_KERNEL_BASE 0xfffffc0000230000ull
#define EV4_GEN_KERNEL_END 0xfffffc0000270000ull
#define EV4_GEN_USER_BASE(k) (0x120000000ull + (uint64_t)(k) * 0x1000000ull)
#define EV4_GEN_PAL_BASE 0x8000ull

/* The workload's processes besides the shell when pmu_gen_opts.nprocs is 0, and the most. */
#define EV4_GEN_DEFAULT_PROCS 4u
#define EV4_GEN_MAX_PROCS 64u

#ifdef __cplusplus
}
#endif
#endif
