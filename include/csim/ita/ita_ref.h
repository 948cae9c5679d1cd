/* ita_ref.h - the Itanium family's C reference model (csim/ita/), behind pmu_backend. */
#ifndef ITA_REF_H
#define ITA_REF_H

#include "common/ita/ita_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset reference model with these parameters (NULL = ita_params_default()), or
 * NULL with err filled (err may be NULL). */
pmu_backend *ita_ref_new(const ita_params *p, pmu_err *err);
/* The same without the message. */
pmu_backend *ita_ref_create(const ita_params *p);

/* The 64-bit sum of every increment counter `ctr` (4..7) received since reset:
 * the exact event total that software's virtual counters must reproduce. */
uint64_t ita_ref_total(pmu_backend *b, unsigned ctr);

#ifdef __cplusplus
}
#endif
#endif
