/* pmu_ref.h - the Itanium family's C reference model (csim/ita/), behind pmu_backend. */
#ifndef PMU_REF_H
#define PMU_REF_H

#include "ita/pmu_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset reference model with these parameters (NULL = pmu_params_default()), or
 * NULL with err filled (err may be NULL). */
pmu_backend *pmu_ref_new(const pmu_params *p, pmu_err *err);
/* The same without the message. */
pmu_backend *pmu_ref_create(const pmu_params *p);

/* The 64-bit sum of every increment counter `ctr` (4..7) received since reset:
 * the exact event total that software's virtual counters must reproduce. */
uint64_t pmu_ref_total(pmu_backend *b, unsigned ctr);

#ifdef __cplusplus
}
#endif
#endif
