/*
 * ev67_stream.h - the "ev67" cycle-record dialect of the Alpha 21264/EV67 family: records
 * are ev67_cycle (include/common/ev67/ev67_cycle.h) in the text and binary forms, validation of
 * rules R1-R10 and the seeded generator of docs/ev67-stream.md.  One stream is one CPU.
 *
 * The stream readers check every rule: the per-record ones (R2, R10, counts, flags, list
 * order) in the dialect's validate, the cross-record ones (R1, R3-R9) in the per-stream
 * coding state, so a stream file that breaks one gets a file:line message.  The same
 * cross-record checker is available here (ev67_stream_check_*) for records that do not
 * come from a stream file (and for the records a text line's repeat=N stands for, which
 * the text reader's state sees once).
 */
#ifndef EV67_STREAM_H
#define EV67_STREAM_H

#include "common/ev67/ev67_cycle.h"
#include "common/pmu_dialect.h"
#include "common/pmu_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dialect (name "ev67"). */
extern const pmu_dialect pmu_dialect_ev67;

/* The most instructions the checker follows in flight at once.  choice: the 21264 keeps at
 * most 80 in flight (HRM §2.1, its inum space); the checker's state is bounded, so a
 * stream with more in flight is refused (field 'fetch'). */
#define EV67_STREAM_MAX_INFLIGHT 256u

/* Address layout of the generator (docs/ev67-stream.md, "The generator"): PALcode
 * ("pal:<fn>", physical, fetched with EV67_FF_PAL) at EV67_GEN_PAL_BASE; every kernel
 * function ("vmunix:<fn>") in [EV67_GEN_KERNEL_BASE, EV67_GEN_KERNEL_END); user program k's
 * text ("<program>:<fn>") from EV67_GEN_USER_BASE(k).  The same for every CPU. */
#define EV67_GEN_PAL_BASE 0x8000ull
#define EV67_GEN_KERNEL_BASE 0xfffffc0000310000ull
#define EV67_GEN_KERNEL_END 0xfffffc0000350000ull
#define EV67_GEN_USER_BASE(k) (0x120000000ull + (uint64_t)(k) * 0x1000000ull)
/* Programs besides the kernel when pmu_gen_opts.nprocs is 0, and the most. */
#define EV67_GEN_DEFAULT_PROCS 4u
#define EV67_GEN_MAX_PROCS 16u

/* ---- the cross-record checker ------------------------------------------------------
 * Follows one stream's in-flight instructions and checks R1 and R3-R9 (and R2's CMOV
 * pairing across records, R6's trap_mis on an instruction fetched earlier); run
 * ev67_validate's per-record rules first (pmu_dialect_ev67.validate).  Every error names
 * `where`, the field and the rule. */
typedef struct ev67_stream_check ev67_stream_check;
ev67_stream_check *ev67_stream_check_create(void); /* NULL when out of memory */
/* 0, or -1 with err filled (the checker's state is then unspecified: stop). */
int ev67_stream_check_step(ev67_stream_check *k, const ev67_cycle *c, const char *where,
                           pmu_err *err);
/* Instructions in flight after the records so far. */
unsigned ev67_stream_check_inflight(const ev67_stream_check *k);
void ev67_stream_check_destroy(ev67_stream_check *k);

/* The text form's trap TYPE names (docs/ev67-stream.md), by ev67_trap_type. */
extern const char *const ev67_trap_names[EV67_NTRAP_TYPES];

#ifdef __cplusplus
}
#endif
#endif
