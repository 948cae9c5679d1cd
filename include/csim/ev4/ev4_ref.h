/* ev4_ref.h - the Alpha 21064 counter block's C reference model (csim/ev4/), behind
 * pmu_backend, written from docs/ev4.md. */
#ifndef EV4_REF_H
#define EV4_REF_H

#include "common/ev4/ev4_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset reference model with these parameters (NULL: ev4_params_default of the
 * 21064), or NULL with err filled (err may be NULL) when a parameter is out of range. */
pmu_backend *ev4_ref_new(const ev4_params *p, pmu_err *err);

/* What the model keeps besides the visible state (docs/ev4.md, last section), for the
 * drivers' exactness checks; counter n is 0 or 1.  b must be a reference model made by
 * ev4_ref_new (the lock-step pair's is pmu_cosim_ref()).
 *   total:     events counter n counted since reset (counter 0: whole events), 64-bit
 *              (also pmu_total());
 *   requests:  steps in which HIRR.PCn went from 0 to 1;
 *   overflows: period crossings (requests plus those lost to a pending request). */
uint64_t ev4_ref_total(pmu_backend *b, unsigned n);
uint64_t ev4_ref_requests(pmu_backend *b, unsigned n);
uint64_t ev4_ref_overflows(pmu_backend *b, unsigned n);
/* 1 when b is an ev4 reference model. */
int ev4_is_ref(const pmu_backend *b);

#ifdef __cplusplus
}
#endif
#endif
