/* ita_rtl.h - the Verilated RTL (verilator/), behind pmu_backend. */
#ifndef ITA_RTL_H
#define ITA_RTL_H

#include <stddef.h>

#include "common/ita/ita_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A reset RTL model built for these parameters.  Returns NULL and a message when no
 * Verilated variant was built for them (variants: Itanium and Itanium 2, pmd_sext=1,
 * thr_ge=0, fine_2bundle=0). */
pmu_backend *ita_rtl_create(const ita_params *p, char *err, size_t errlen);
/* The same with the message in a pmu_err (may be NULL). */
pmu_backend *ita_rtl_new(const ita_params *p, pmu_err *err);

/* Waveforms: pmu_trace_open() / pmu_trace_close() of include/common/pmu_backend.h, on the RTL
 * or on a lock-step pair. */

#ifdef __cplusplus
}
#endif
#endif
