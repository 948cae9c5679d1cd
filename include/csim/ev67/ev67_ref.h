/* ev67_ref.h - the Alpha 21264/EV67 counter block's C reference model (csim/ev67/),
 * behind pmu_backend, written from docs/ev67.md.  step() takes an ev67_cycle. */
#ifndef EV67_REF_H
#define EV67_REF_H

#include "common/ev67/ev67_cycle.h"
#include "common/ev67/ev67_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset reference model with these parameters (NULL: ev67_params_default of the
 * 21264-ev67), or NULL with err filled (err may be NULL) when a parameter is out of
 * range (ev67_params_check). */
pmu_backend *ev67_ref_new(const ev67_params *p, pmu_err *err);
/* 1 when b is an ev67 reference model. */
int ev67_is_ref(const pmu_backend *b);

/* What the model keeps besides the visible state (docs/ev67.md, "What the reference
 * model keeps"), for the software's exactness checks; counter n is 0 or 1.  b must be a
 * reference model made by ev67_ref_new (the lock-step pair's is pmu_cosim_ref()).  All
 * are 64-bit, never wrap in practice, and are cleared by reset only.
 *   total:     the sum of every increment counter n received since reset (also
 *              pmu_total()): what a driver's 64-bit virtual count must equal;
 *   overflows: carries out of counter n's bit 19 that entered the overflow latch;
 *   requests:  clocks in which the raw request OBS_INT.REQ[n] went from 0 to 1. */
uint64_t ev67_ref_total(pmu_backend *b, unsigned n);
uint64_t ev67_ref_overflows(pmu_backend *b, unsigned n);
uint64_t ev67_ref_requests(pmu_backend *b, unsigned n);

/* The first event that ends a profiled instruction's window (docs/ev67.md). */
typedef enum ev67_pm_end {
    EV67_PM_END_TRAP = 0,   /* it trapped (trap_tag), whatever followed */
    EV67_PM_END_RETIRE = 1, /* it retired without trapping */
    EV67_PM_END_ABORT = 2,  /* an abort range covered it */
    EV67_PM_END_SQUASH = 3  /* it was squashed */
} ev67_pm_end;

/* One ProfileMe sample: a window that reached its end (docs/ev67.md, "ProfileMe"). */
typedef struct ev67_pm_sample {
    uint64_t fetch_step; /* pmu_backend.cycle right after the step that fetched (selected)
                            it: the first step after reset is 1 */
    uint64_t end_step;   /* the step of its window's last clock (the interrupt) */
    uint64_t open_step;  /* fetch_step + EV67_LIM_PME_OPEN (window counting starts) */
    uint32_t tag;        /* the profiled instruction's tag (ev67_cycle) */
    uint8_t end_kind;    /* ev67_pm_end: what ended it */
    uint64_t pmpc, i_stat, pctr_ctl; /* the three registers right after end_step (PCTR_CTL
                                        with the true counts: no read quirk) */
} ev67_pm_sample;

/* Windows that reached their end since reset, and sample i of them (0 = oldest): 0, or
 * -1 when i is not kept (the model keeps the last EV67_REF_SAMPLES_KEPT). */
#define EV67_REF_SAMPLES_KEPT 4096
uint64_t ev67_ref_nsamples(pmu_backend *b);
int ev67_ref_sample(pmu_backend *b, uint64_t i, ev67_pm_sample *out);

#ifdef __cplusplus
}
#endif
#endif
